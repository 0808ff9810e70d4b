#!/bin/sh
# blur.sh — decoupled shading against supersampling on a blur scene: per
# sample count and shader cost, frame time (median of F frames), shading
# invocations per covered pixel, cache hit rate and stalls, blur area (from
# one more frame with --blur-area, which counting it slows), the
# front-end's share of the frame (the last frame's busy wall time, and its
# thread's CPU time, which leaves out waits for a core where the threads
# outnumber the cores, over the median frame), and the supersample /
# decoupled frame-time ratio, as a Markdown table.
# Both modes of one row run back to back, so the ratio sees the same machine.
#
# usage: bench/blur.sh [--mosaic PATH] [--size WxH] [--spp "8 16 27 64"]
#                      [--fma "0 200"] [--frames F] [--threads N]
#                      [--opts "RENDER OPTIONS"] [SCENE]
# Default: scenes/blur.scene at 1920x1080, 1 frame, all online cores.
# --opts passes more options to both modes' renders (e.g. "--bin 64 --cache 8192").
set -u
MOSAIC=build/mosaic
SIZE=1920x1080
SPPS="8 16 27 64"
FMAS="0 200"
FRAMES=1
THREADS=0
SCENE=scenes/blur.scene
OPTS=
while [ $# -gt 0 ]; do
    case "$1" in
    --mosaic) MOSAIC=$2; shift 2 ;;
    --size) SIZE=$2; shift 2 ;;
    --spp) SPPS=$2; shift 2 ;;
    --fma) FMAS=$2; shift 2 ;;
    --frames) FRAMES=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --opts) OPTS=$2; shift 2 ;;
    -h|--help) sed -n '2,16s/^# \{0,1\}//p' "$0"; exit 0 ;;
    -*) echo "blur.sh: unknown option $1" >&2; exit 2 ;;
    *) SCENE=$1; shift ;;
    esac
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-blurbench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/stats_json.sh"

echo "| spp | shader | mode | frame ms | shades / covered px | cache hit rate | stalls | blur area | front-end busy / CPU % of frame | supersample / decoupled |"
echo "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|"
for spp in $SPPS; do
    for fma in $FMAS; do
        for mode in decoupled supersample; do
            for run in timed area; do
                [ $run = timed ] && extra="--frames $FRAMES" || extra="--frames 1 --blur-area"
                if ! "$MOSAIC" render "$SCENE" --size "$SIZE" --spp "$spp" --fma "$fma" --mode "$mode" \
                        --threads "$THREADS" $extra $OPTS -o "$tmp/$mode.png" \
                        --stats-json "$tmp/$mode-$run.json" > "$tmp/out" 2>&1; then
                    echo "blur.sh: render failed: $(tail -n 2 "$tmp/out")" >&2
                    exit 1
                fi
            done
            mv "$tmp/$mode-timed.json" "$tmp/$mode.json"
        done
        shader=$([ "$fma" = 0 ] && echo cheap || echo "fma $fma")
        d=$tmp/decoupled.json s=$tmp/supersample.json
        ratio=$(awk -v a="$(json frame_ms "$s")" -v b="$(json frame_ms "$d")" 'BEGIN { printf "%.2f", a / b }')
        for m in decoupled supersample; do
            f=$tmp/$m.json
            share=$(awk -v b="$(json frontend_ms "$f")" -v c="$(json frontend_cpu_ms "$f")" \
                -v t="$(json frame_ms "$f")" 'BEGIN { printf "%.0f / %.0f", 100 * b / t, 100 * c / t }')
            printf '| %s | %s | %s | %.0f | %.2f | %.3f | %s | %.1f | %s | %s |\n' "$spp" "$shader" "$m" \
                "$(json frame_ms "$f")" "$(json shading_rate "$f")" "$(json cache_hit_rate "$f")" \
                "$(json cache_stalls "$f")" "$(json blur_area "$tmp/$m-area.json")" "$share" \
                "$([ $m = supersample ] && echo "$ratio" || echo "")"
        done
    done
done
