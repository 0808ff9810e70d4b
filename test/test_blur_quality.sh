#!/bin/sh
# test_blur_quality.sh — image quality of blur through the CLI on the three blur
# scenes: decoupled against supersample (every sample shaded) at 16 spp,
# PSNR >= 35 dB; decoupled at 64 spp against an accumulation buffer of 1024
# pinhole sub-frames, PSNR >= 30 dB; decoupled shades far fewer samples; a
# lens floor through the eye as its subdivided twin; decoupled at 27 spp
# against 27 accumulated sub-frames on motion, blur and defocus.scene.
# The references come from other paths: supersample shades at each sample,
# accum never runs the stochastic rasterizer.  Supersample images do not
# depend on the cache.  Fed by run.sh: BUILD CLI.
build=${1:-build}
cli=${2:-$build/mosaic}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-blur.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0
size=320x180

ok()   { echo "PASS $1"; }
bad()  { echo "FAIL $1: $2"; failed=1; }

. test/lib_image.sh  # psnr, at_least
# json KEY FILE: a number from the stats JSON.
json() { sed -n "s/.*\"$1\": *\([0-9.e+-]*\).*/\1/p" "$2" | head -n 1; }

for sc in motion defocus blur; do
    if ! "$cli" render "scenes/$sc.scene" --size $size --spp 16 -o "$tmp/$sc-dec.png" \
           --stats-json "$tmp/$sc-dec.json" > "$tmp/out" 2>&1 ||
       ! "$cli" render "scenes/$sc.scene" --size $size --spp 16 --mode supersample -o "$tmp/$sc-ss.png" \
           --stats-json "$tmp/$sc-ss.json" > "$tmp/out" 2>&1; then
        bad "${sc}_vs_supersample" "render failed: $(tail -n 2 "$tmp/out")"
        continue
    fi
    p=$(psnr "$tmp/$sc-dec.png" "$tmp/$sc-ss.png")
    if at_least "$p" 35; then ok "${sc}_vs_supersample (PSNR $p dB)"; else bad "${sc}_vs_supersample" "PSNR '$p' dB < 35"; fi
    rd=$(json shading_rate "$tmp/$sc-dec.json"); rs=$(json shading_rate "$tmp/$sc-ss.json")
    if awk -v d="$rd" -v s="$rs" 'BEGIN { exit !(d > 0 && s >= 4 * d) }'; then
        ok "${sc}_shading_rate (decoupled $rd, supersample $rs per covered pixel)"
    else
        bad "${sc}_shading_rate" "decoupled $rd vs supersample $rs shades per covered pixel"
    fi

    if ! "$cli" render "scenes/$sc.scene" --size $size --spp 64 -o "$tmp/$sc-d64.png" > "$tmp/out" 2>&1 ||
       ! "$cli" render "scenes/$sc.scene" --size $size --spp 1 --mode accum --accum 1024 \
           -o "$tmp/$sc-acc.png" > "$tmp/out" 2>&1; then
        bad "${sc}_vs_accum" "render failed: $(tail -n 2 "$tmp/out")"
        continue
    fi
    p=$(psnr "$tmp/$sc-d64.png" "$tmp/$sc-acc.png")
    if at_least "$p" 30; then ok "${sc}_vs_accum (PSNR $p dB)"; else bad "${sc}_vs_accum" "PSNR '$p' dB < 30"; fi
done

# A floor of two huge triangles that reach behind the eye, seen through a
# lens: cut at the near plane in the front-end, they are shaded on the same
# screen-space grid as the floor of 512 small ones (before the cut they fell
# back to a coarse barycentric grid: 23 dB).
sed -e 's/plane 16 16 16 16/plane 16 16 1 1/' -e "s#textures/tiles.png#$PWD/scenes/textures/tiles.png#" \
    scenes/defocus.scene > "$tmp/floor1.scene"
sed -e "s#textures/tiles.png#$PWD/scenes/textures/tiles.png#" scenes/defocus.scene > "$tmp/floor16.scene"
if "$cli" render "$tmp/floor1.scene" --size $size --spp 16 -o "$tmp/floor1.png" > "$tmp/out" 2>&1 &&
   "$cli" render "$tmp/floor16.scene" --size $size --spp 16 -o "$tmp/floor16.png" > "$tmp/out" 2>&1; then
    p=$(psnr "$tmp/floor1.png" "$tmp/floor16.png")
    if at_least "$p" 45; then ok "lens_floor_through_the_eye (PSNR $p dB against the subdivided floor)"
    else bad lens_floor_through_the_eye "PSNR '$p' dB < 45 against the subdivided floor"; fi
else
    bad lens_floor_through_the_eye "render failed: $(tail -n 2 "$tmp/out")"
fi

# Equal sample count: decoupled at 27 spp against an accumulation of 27
# sub-frames, both against the 1024-sub-frame truth, by at least MARGIN dB.
# motion.scene (a moving herd over a static textured floor): its floor is
# shaded once per pixel, so the shades' textures must average their cells
# as the accumulation's jittered sub-frames do (frame_blur.cells;
# point-sampled shades scored 38.0 dB here against accumulation's 40.5).
# blur.scene and defocus.scene: a blurred sample's grid point is taken
# from its pixel's centre (stoch_lane_offsets), not spread a pixel wider by
# its place in the pixel (before: blur 0.3 dB behind, defocus 1.65).
# defocus.scene's margin is -0.5 at this size; at the bench's 960x540 it
# is 0.8 dB ahead.
for case in "motion 2" "blur 1" "defocus -0.5"; do
    set -- $case
    sc=$1 margin=$2
    if [ -f "$tmp/$sc-acc.png" ] &&
       "$cli" render "scenes/$sc.scene" --size $size --spp 27 -o "$tmp/$sc-27.png" > "$tmp/out" 2>&1 &&
       "$cli" render "scenes/$sc.scene" --size $size --spp 1 --mode accum --accum 27 -o "$tmp/$sc-a27.png" > "$tmp/out" 2>&1; then
        pd=$(psnr "$tmp/$sc-27.png" "$tmp/$sc-acc.png"); pa=$(psnr "$tmp/$sc-a27.png" "$tmp/$sc-acc.png")
        if awk -v d="$pd" -v a="$pa" -v m="$margin" 'BEGIN { exit !(d + 0 > 0 && d + 0 >= a + m) }'; then
            ok "${sc}_27spp_vs_accum_27 (decoupled $pd dB, accumulation $pa dB against the truth; margin $margin)"
        else
            bad "${sc}_27spp_vs_accum_27" "decoupled '$pd' dB, accumulation '$pa' dB: not $margin dB ahead"
        fi
    else
        bad "${sc}_27spp_vs_accum_27" "render failed (or no truth): $(tail -n 2 "$tmp/out")"
    fi
done

# Supersample quads take their helper lanes from coverage, not from early
# depth, so the textured floor's mip levels (and the image) must not depend
# on how often a small cache drains the ROP queue.
if "$cli" render scenes/blur.scene --size $size --spp 8 --mode supersample --cache 16 -o "$tmp/ss16.png" > "$tmp/out" 2>&1 &&
   "$cli" render scenes/blur.scene --size $size --spp 8 --mode supersample --cache 8192 --threads 3 -o "$tmp/ss8k.png" > "$tmp/out" 2>&1; then
    if cmp -s "$tmp/ss16.png" "$tmp/ss8k.png"; then ok supersample_cache_invariance
    else bad supersample_cache_invariance "images differ: $("$cli" diff "$tmp/ss16.png" "$tmp/ss8k.png" 2>&1 | tail -n 1)"; fi
else
    bad supersample_cache_invariance "render failed: $(tail -n 2 "$tmp/out")"
fi
exit $failed
