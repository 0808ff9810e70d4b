#!/bin/sh
# view.sh — mosaic-view's interactive speed: frames per second of the viewer
# (render + display, back to back) and what the HUD and the overlays cost per
# frame, measured inside the viewer (--hud-csv: loop_ms, image_ms, hud_ms,
# present_ms per frame) for a few HUD/overlay configurations, as a Markdown
# table.  Runs under xvfb-run when there is no $DISPLAY.
#
# usage: bench/view.sh [--view PATH] [--size WxH] [--threads N] [--frames F]
#                      [--renderer NAME] [--shots DIR] [SCENE]
# Default: scenes/default.scene at 1280x720, 2 threads, 60 frames a
# configuration (after 5 warm-up frames), SDL's software renderer.
# --shots DIR also writes the README's screenshots (HUD and overlays) to DIR.
set -u
VIEW=build/mosaic-view
SIZE=1280x720
THREADS=2
FRAMES=60
RENDERER=software
SHOTS=
SCENE=scenes/default.scene
while [ $# -gt 0 ]; do
    case "$1" in
    --view) VIEW=$2; shift 2 ;;
    --size) SIZE=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --frames) FRAMES=$2; shift 2 ;;
    --renderer) RENDERER=$2; shift 2 ;;
    --shots) SHOTS=$2; shift 2 ;;
    -h|--help) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 0 ;;
    -*) echo "view.sh: unknown option $1" >&2; exit 2 ;;
    *) SCENE=$1; shift ;;
    esac
done
[ -x "$VIEW" ] || { echo "view.sh: $VIEW not built (make)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-viewbench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
xrun=""
if [ -z "${DISPLAY:-}" ]; then
    command -v xvfb-run >/dev/null 2>&1 || { echo "view.sh: no \$DISPLAY and no xvfb-run" >&2; exit 1; }
    xrun=1
fi
# Runs the viewer: NAME VIEWER-ARGS...
viewer() {
    name=$1; shift
    if [ -n "$xrun" ]; then
        xvfb-run -a -s "-screen 0 1920x1080x24" "$VIEW" "$@" > "$tmp/$name.log" 2>&1
    else
        "$VIEW" "$@" > "$tmp/$name.log" 2>&1
    fi
}

# Mean and median of CSV FILE's column COL over the rows after the warm-up.
stat() {
    awk -F, -v c="$2" 'NR > 6 { print $c }' "$1" | sort -n | awk '{ v[NR] = $1; s += $1 }
        END { if (!NR) { print "- -"; exit }
              m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
              printf "%.2f %.2f\n", s / NR, m }'
}

# Columns: frames per second (1000 / mean loop time: render, display and
# present back to back); the library's frame time; the viewer's own drawing
# before present (image conversion and copy, tints, HUD text and graphs); what
# HUD and overlays add to that over the first row; the X server's present.
echo "| configuration | fps | loop ms | render ms (median) | drawing ms (mean / median) | HUD + overlays ms | present ms |"
echo "|---|---|---|---|---|---|---|"
base=""
for cfg in "no HUD, no overlay|--no-hud" \
           "HUD|" \
           "HUD + owner tint + load bars|--overlay owner --overlay load" \
           "HUD + shading-rate heat map|--overlay shades" \
           "HUD + bin cost heat map|--overlay cost" \
           "HUD + panel + triangle size|--panel --overlay triangle-size"; do
    label=${cfg%%|*}; args=${cfg#*|}
    csv=$tmp/run.csv
    # shellcheck disable=SC2086
    if ! viewer run "$SCENE" --size "$SIZE" --threads "$THREADS" --renderer "$RENDERER" \
        --frames $((FRAMES + 6)) --hud-csv "$csv" $args; then
        echo "| $label | failed: $(tail -n 1 "$tmp/run.log") |"
        continue
    fi
    set -- $(stat "$csv" 3); loop=$1
    set -- $(stat "$csv" 5); render=$2
    awk -F, 'NR > 1 { printf "%.3f\n", $11 + $12 }' "$csv" > "$tmp/draw.txt"
    awk -F, 'NR > 1 { print "x,x," $1 }' "$tmp/draw.txt" | sed '1i h' > "$tmp/draw.csv"
    set -- $(stat "$tmp/draw.csv" 3); draw_mean=$1 draw_med=$2
    set -- $(stat "$csv" 13); present=$1
    fps=$(awk -v l="$loop" 'BEGIN { printf "%.2f", (l > 0 ? 1000 / l : 0) }')
    [ -n "$base" ] || base=$draw_mean
    extra=$(awk -v d="$draw_mean" -v b="$base" 'BEGIN { printf "%.2f", d - b }')
    echo "| $label | $fps | $loop | $render | $draw_mean / $draw_med | $extra | $present |"
done
echo
echo "$(uname -m), $(nproc) cores; $SCENE at $SIZE, $THREADS threads, SDL renderer $RENDERER; $FRAMES frames a row."

if [ -n "$SHOTS" ]; then
    mkdir -p "$SHOTS"
    SHOTS=$(cd "$SHOTS" && pwd)
    OUT=$SHOTS
    export OUT
    viewer shots "$SCENE" --window 960x540 --threads 6 --pattern g80 --renderer "$RENDERER" \
        --script bench/view/shots.view || { echo "view.sh: screenshots failed: $(tail -n 2 "$tmp/shots.log")" >&2; exit 1; }
    ls -l "$SHOTS"/*.png
fi
