#!/bin/sh
# test_demo.sh — mosaic-demo (src/tools/demo/) in a real SDL2 window on a
# virtual X server: its frame at t = 1 s (5 frames, 0.25 s apart) equals, bit
# for bit, `mosaic render test/demo.scene` (the same geometry, camera, GLSL
# and native shaders and motion blur), at a fixed size and after the window
# was resized mid-run, with 2 threads and 1; an earlier frame differs (the
# scene moves).  Fed by run.sh: BUILD CLI.
build=${1:-build}
cli=${2:-$build/mosaic}
demo=$build/mosaic-demo
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-demo.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0
W=320 H=180

ok()  { echo "PASS $1"; }
bad() { echo "FAIL $1: $2"; failed=1; }

if [ ! -x "$demo" ]; then
    bad demo_built "$demo does not exist"
    exit 1
fi
if ! command -v Xvfb > /dev/null 2>&1; then
    bad demo_xvfb "Xvfb is missing (Debian xvfb, installed by make test's deps)"
    exit 1
fi
# One virtual X server; Xvfb writes its display number to fd 3 once it
# accepts clients (as test_view.sh does).
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3> "$tmp/display" > "$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
trap 'kill $xvfb_pid 2> /dev/null; wait $xvfb_pid 2> /dev/null; rm -rf "$tmp"' EXIT
i=0
while [ ! -s "$tmp/display" ] && [ $i -lt 100 ] && kill -0 $xvfb_pid 2> /dev/null; do
    sleep 0.1
    i=$((i + 1))
done
if [ ! -s "$tmp/display" ]; then
    bad demo_xvfb "Xvfb did not start: $(tail -n 2 "$tmp/xvfb.log")"
    exit 1
fi
DISPLAY=:$(cat "$tmp/display")
export DISPLAY

if ! "$cli" render test/demo.scene --size ${W}x$H --spp 8 -o "$tmp/ref.png" > "$tmp/ref.out" 2>&1; then
    bad demo_reference "mosaic render test/demo.scene failed: $(tail -n 2 "$tmp/ref.out")"
    exit 1
fi

# demo NAME EXPECT ARGS...: runs the demo; EXPECT same|differs against ref.png.
demo() {
    name=$1 expect=$2
    shift 2
    if ! "$demo" --dt 0.25 --screenshot "$tmp/$name.png" "$@" > "$tmp/$name.out" 2>&1; then
        bad "$name" "mosaic-demo $* failed: $(tail -n 2 "$tmp/$name.out")"
        return
    fi
    d=$("$cli" diff "$tmp/ref.png" "$tmp/$name.png" 2>&1)
    case $expect:$d in
        same:*max_abs=0*differing_pixels=0*) ok "$name (mosaic diff: $d)" ;;
        same:*) bad "$name" "differs from mosaic render test/demo.scene: $d" ;;
        differs:*differing_pixels=0*) bad "$name" "the frame at t = 0.75 s equals the one at 1 s: $d" ;;
        differs:*psnr_db=*) ok "$name (mosaic diff: $d)" ;;
        *) bad "$name" "$d" ;;
    esac
}
demo demo_equals_render same --frames 5 --size ${W}x$H --threads 2
demo demo_resized_equals_render same --frames 5 --size 200x120 --resize-at 2 ${W}x$H --threads 1
demo demo_animates differs --frames 4 --size ${W}x$H

exit $failed
