#!/bin/sh
# test_llvmpipe_agreement.sh — Mosaic against Mesa's llvmpipe on sharp scenes (flat, Lambert, alpha-tested cut-outs
# with alpha and additive blending, two-sided cards; 1 and 4 spp), and on a textured OpenArena level (below):
# >= 99.5% of pixels within 2/255 per channel, differing pixels only on triangle edges.  Fed by run.sh: BUILD CLI.
#
# The reference is build/mosaic-llvmpipe (bench/llvmpipe, OSMesa); it is built here when missing.
# Edge mask: llvmpipe renders an ID pass (draw index << 20 | gl_PrimitiveID + 1 per pixel, 1 spp);
# a differing pixel is "on an edge" when its 3x3 neighbourhood holds more than one ID, i.e. a
# triangle boundary, silhouette or intersection passes within a pixel of it.  A missing or extra
# triangle shows up as differing pixels whose neighbourhood is one ID (off_edge > 0).
build=${1:-build}
cli=${2:-$build/mosaic}
ref=$build/mosaic-llvmpipe
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-agree.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$cli" ]; then
    echo "FAIL llvmpipe_agreement: $cli does not exist"
    exit 1
fi
if ! [ -f /usr/include/GL/osmesa.h ]; then
    echo "SKIP llvmpipe_agreement: libosmesa6-dev not installed (make deps)"
    exit 0
fi
# Always through make: the reference links the tools library, so a stale
# binary must not hide a link that no longer works.
make --no-print-directory -f bench/bench.mk BUILD="$build" llvmpipe > "$tmp/build.log" 2>&1 || {
    echo "FAIL llvmpipe_agreement: could not build $ref"; tail -n 20 "$tmp/build.log"; exit 1; }

"$cli" bench --vs llvmpipe --llvmpipe "$ref" \
    --scene test/scenes/agree_flat.scene --scene test/scenes/agree_lambert.scene --scene test/scenes/agree_cutout.scene \
    --scene scenes/cards.scene \
    --size 320x240 --threads 2 --spp 1,4 --frames 1 --warmup 0 \
    --check 99.5 --no-plots --keep-images --out "$tmp/out" > "$tmp/bench.out" 2> "$tmp/bench.err"
rc=$?
sed "s/^/    /" "$tmp/bench.out"
failed=0
# One "PASS|FAIL agreement scene=... spp=..." line per configuration, 8 expected (cards.scene:
# two-sided cards, each triangle drawn twice back to back, must agree like any other scene).
n=$(grep -cE '^(PASS|FAIL) agreement ' "$tmp/bench.out")
if [ "$n" -ne 8 ]; then
    echo "FAIL llvmpipe_agreement: expected 8 configurations, got $n (exit $rc)"
    tail -n 5 "$tmp/bench.err"
    exit 1
fi
grep -E '^(PASS|FAIL) agreement ' "$tmp/bench.out" | while read -r verdict _ scene _ spp _ within _ _ off; do
    echo "$verdict llvmpipe_agreement_${scene#scene=}_${spp#spp=}: $within $off"
done
grep -q '^FAIL agreement ' "$tmp/bench.out" && failed=1
grep -q 'llvmpipe' "$tmp/bench.out" || { echo "FAIL llvmpipe_agreement_renderer: GL_RENDERER is not llvmpipe"; failed=1; }

# Textures at 640x360, >= 99.5% within 2/255 and off edges at most 0.02% of the pixels: the sampling
# modes (agree_wrap: trilinear on a receding floor; repeat, clamp-to-edge and mirrored panels) and a
# textured game level (OpenArena's oa_dm3 with its images from openarena-081-textures, cut-out grates
# and wires, blended water; minified textures everywhere).  The sampler computes llvmpipe's levels,
# texel positions and 8-bit filter (given the same texture coordinates both return the same texels:
# test_sampling and agree_wrap, 100%), but the coordinates come from each renderer's own
# interpolation, and a quad whose footprint lies within rounding of a power of two may take the
# neighbouring mip level (oa_dm3: 15 of 230,400 pixels, in 2x2 clusters, a few levels of 255 apart).
"$cli" bench --vs llvmpipe --llvmpipe "$ref" --scene test/scenes/agree_wrap.scene --scene scenes/oa/oa_dm3.scene \
    --size 640x360 --threads 2 --spp 1,4 --frames 1 --warmup 0 \
    --no-plots --keep-images --out "$tmp/oa" > "$tmp/oa.out" 2> "$tmp/oa.err"
n=$(grep -c '^ratio scene=' "$tmp/oa.out")
if [ "$n" -ne 4 ]; then
    echo "FAIL llvmpipe_agreement_textured: expected 4 configurations, got $n"; tail -n 5 "$tmp/oa.err"; failed=1
fi
grep '^ratio scene=' "$tmp/oa.out" | while read -r line; do
    scene=$(echo "$line" | sed -n 's/^ratio scene=\([^ ]*\) .*/\1/p')
    spp=$(echo "$line" | sed -n 's/.* spp=\([0-9]*\) .*/\1/p')
    agree=$(echo "$line" | sed -n 's/.* agree=\([0-9.]*\)%.*/\1/p')
    off=$(echo "$line" | sed -n 's/.* off_edge=\([0-9]*\) .*/\1/p')
    if awk -v a="$agree" -v o="$off" 'BEGIN { exit !(a >= 99.5 && o <= 640 * 360 * 0.0002) }'; then
        echo "PASS llvmpipe_agreement_${scene}_$spp: within_2=$agree% off_edge=$off"
    else
        echo "FAIL llvmpipe_agreement_${scene}_$spp: within_2=$agree% (need 99.5) off_edge=$off (at most 46)"
    fi
done | tee "$tmp/oa.verdicts"
grep -q '^FAIL' "$tmp/oa.verdicts" && failed=1
# A bench row's Mosaic image is what `mosaic render` makes with the same options.
"$cli" render test/scenes/agree_lambert.scene --size 320x240 --threads 2 --spp 4 -o "$tmp/render.png" > /dev/null 2>&1
kept=$(ls "$tmp"/out/img/agree_lambert-320x240-t2-s4-*-mosaic.png 2> /dev/null | head -n 1)
if [ -n "$kept" ] && cmp -s "$kept" "$tmp/render.png"; then echo "PASS bench_image_is_render"
else echo "FAIL bench_image_is_render: ${kept:-no kept image} differs from mosaic render's"; failed=1; fi
# A scene with motion or a lens is not compared with llvmpipe's sharp frame:
# the row fails with the reason and the way to compare it.
"$cli" bench --vs llvmpipe --llvmpipe "$ref" --scene scenes/blur.scene --size 160x90 --frames 1 --warmup 0 \
    --no-plots --out "$tmp/blur" > "$tmp/blur.out" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q 'the scene has motion and a lens; --vs llvmpipe compares sharp frames, so compare it with --blur' \
    "$tmp/blur.out" && ! grep -q '^ratio scene=' "$tmp/blur.out"; then echo "PASS bench_refuses_blurred_scene"
else echo "FAIL bench_refuses_blurred_scene: exit $rc: $(tail -n 3 "$tmp/blur.out")"; failed=1; fi
if [ $failed -ne 0 ] && [ -n "${MOSAIC_TEST_KEEP:-}" ]; then
    mkdir -p "$MOSAIC_TEST_KEEP" && cp "$tmp"/out/img/*.png "$tmp"/oa/img/*.png "$MOSAIC_TEST_KEEP"/ &&
        echo "NOTE images (diff: red = off edge, yellow = on edge) in $MOSAIC_TEST_KEEP"
fi
exit $failed
