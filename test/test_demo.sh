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
. test/lib_xvfb.sh  # xvfb_start; and lib_test.sh: test_tmp, ok, bad, need
test_tmp demo
W=320 H=180

need demo_built "$demo does not exist" -x "$demo"
xvfb_start demo

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
