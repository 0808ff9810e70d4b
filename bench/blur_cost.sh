#!/bin/sh
# blur_cost.sh — frame time against shader cost on a blur scene, for the
# four ways to render its blur at S samples: Mosaic decoupled and
# supersample at S spp, and the accumulation of S pinhole sub-frames in
# Mosaic (--mode accum) and in llvmpipe (mosaic-llvmpipe --accum).  The
# shader is the scene's built-ins with F extra dependent multiply-adds per
# fragment (--fma F).  Prints a Markdown table (median frame of each) and,
# with gnuplot, plots it (--png, default bench/view/blur_cost.png).  The
# four renders of one shader cost run back to back, so a row sees one
# machine; the rows do not.
#
# usage: bench/blur_cost.sh [--mosaic PATH] [--llvmpipe PATH] [--size WxH]
#                           [--spp S] [--fma "0 50 100 200 400"] [--frames F]
#                           [--threads N] [--png OUT] [SCENE]
# Default: scenes/blur.scene at 960x540, 27 spp, 3 frames, 2 threads.
set -u
MOSAIC=build/mosaic
LLVMPIPE=build/mosaic-llvmpipe
SIZE=960x540
SPP=27
FMAS="0 50 100 200 400"
FRAMES=3
THREADS=2
PNG=bench/view/blur_cost.png
SCENE=scenes/blur.scene
while [ $# -gt 0 ]; do
    case "$1" in
    --mosaic) MOSAIC=$2; shift 2 ;;
    --llvmpipe) LLVMPIPE=$2; shift 2 ;;
    --size) SIZE=$2; shift 2 ;;
    --spp) SPP=$2; shift 2 ;;
    --fma) FMAS=$2; shift 2 ;;
    --frames) FRAMES=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --png) PNG=$2; shift 2 ;;
    -h|--help) sed -n '2,17s/^# \{0,1\}//p' "$0"; exit 0 ;;
    -*) echo "blur_cost.sh: unknown option $1" >&2; exit 2 ;;
    *) SCENE=$1; shift ;;
    esac
done
for b in "$MOSAIC" "$LLVMPIPE"; do
    [ -x "$b" ] || { echo "blur_cost.sh: no $b (make build; make -f bench/bench.mk llvmpipe)" >&2; exit 2; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-blurcost.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# The median frame time a render printed (frame_ms= from mosaic, median_ms= from llvmpipe).
ms() { sed -n 's/.*\(frame\|median\)_ms=\([0-9.]*\).*/\2/p' "$1" | tail -n 1; }
run_mosaic() {  # OUT MODE [OPTIONS...]
    out=$1 mode=$2
    shift 2
    "$MOSAIC" render "$SCENE" --size "$SIZE" --threads "$THREADS" --frames "$FRAMES" --mode "$mode" "$@" \
        -o "$tmp/img.png" > "$out" 2>&1 || { echo "blur_cost.sh: mosaic --mode $mode failed:" >&2; tail -n 3 "$out" >&2; exit 1; }
}

echo "$SCENE at $SIZE, $SPP samples, $THREADS threads, median of $FRAMES frames (ms)"
echo
echo "| extra FMAs | decoupled $SPP spp | supersample $SPP spp | Mosaic accum $SPP | llvmpipe accum $SPP |"
echo "|---:|---:|---:|---:|---:|"
: > "$tmp/plot.dat"
# One render first, untimed: the first of a run measured 25-40% slow (960x540, 2026-11-27).
run_mosaic "$tmp/warm" decoupled --spp "$SPP" --fma 0
for fma in $FMAS; do
    run_mosaic "$tmp/dec" decoupled --spp "$SPP" --fma "$fma"
    run_mosaic "$tmp/ss" supersample --spp "$SPP" --fma "$fma"
    run_mosaic "$tmp/acc" accum --accum "$SPP" --spp 1 --fma "$fma"
    LP_NUM_THREADS=$THREADS "$LLVMPIPE" "$SCENE" --size "$SIZE" --accum "$SPP" --fma "$fma" --frames "$FRAMES" \
        > "$tmp/lp" 2>&1 || { echo "blur_cost.sh: llvmpipe failed:" >&2; tail -n 3 "$tmp/lp" >&2; exit 1; }
    row="$fma $(ms "$tmp/dec") $(ms "$tmp/ss") $(ms "$tmp/acc") $(ms "$tmp/lp")"
    echo "$row" >> "$tmp/plot.dat"
    echo "$row" | awk '{printf "| %d | %.1f | %.1f | %.1f | %.1f |\n", $1, $2, $3, $4, $5}'
done

if command -v gnuplot > /dev/null && [ -n "$PNG" ]; then
    gnuplot <<EOF || echo "blur_cost.sh: gnuplot failed" >&2
set terminal pngcairo size 800,480 font ",11"
set output "$PNG"
set title "$(basename "$SCENE") at $SIZE, $SPP samples, $THREADS threads"
set xlabel "extra multiply-adds per fragment"
set ylabel "frame time (ms, log scale)"
set logscale y
set key top left
set grid
plot "$tmp/plot.dat" using 1:2 with linespoints lw 2 title "Mosaic decoupled", \
     "" using 1:3 with linespoints lw 2 title "Mosaic supersample", \
     "" using 1:4 with linespoints lw 2 title "Mosaic accumulation", \
     "" using 1:5 with linespoints lw 2 title "llvmpipe accumulation"
EOF
    [ -s "$PNG" ] && echo && echo "wrote $PNG"
fi
