#!/bin/sh
# test_llvmpipe_accum.sh — the llvmpipe reference's accumulation buffer (mosaic-llvmpipe --accum K) against
# Mosaic's (mosaic render --mode accum --accum K) on the blur scenes.
# Fed by run.sh: BUILD CLI.
#
# Both renderers draw sub-frame k at mos_accum_pinhole(k): clip = clip0 + t (clip1 - clip0), then the lens
# shear x += u lens_x (w - focus_w), y += v lens_y (w - focus_w), and round the mean of the 8-bit images the
# same way.  At 320x180, K = 16: PSNR >= 55 dB over R, G, B, A (measured 60.5 motion, 68.8 defocus, 69.4 blur;
# the rest is the renderers' usual edge and mip-level differences).  The tolerance is tight enough to catch a
# wrong warp: on blur.scene a shutter 10% short gives 41.4 dB, an aperture 10% small 48.9 dB.  And the warp
# is there: the pinhole image is < 35 dB from the accumulation (measured 24.4 / 29.8 / 23.0).
build=${1:-build}
cli=${2:-$build/mosaic}
ref=$build/mosaic-llvmpipe
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-lpaccum.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0
size=320x180
ok()  { echo "PASS $1"; }
bad() { echo "FAIL $1: $2"; failed=1; }
psnr() { "$cli" diff "$1" "$2" 2>/dev/null | sed -n 's/.*psnr_db=\([0-9.inf]*\).*/\1/p' | tail -n 1; }
at_least() { awk -v v="$1" -v m="$2" 'BEGIN { exit !(v == "inf" || (v != "" && v + 0 >= m + 0)) }'; }
below() { awk -v v="$1" -v m="$2" 'BEGIN { exit !(v != "" && v != "inf" && v + 0 < m + 0) }'; }
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -n 1; }

if ! [ -f /usr/include/GL/osmesa.h ]; then
    echo "SKIP llvmpipe_accum: libosmesa6-dev not installed (make deps)"
    exit 0
fi
make --no-print-directory -f bench/bench.mk BUILD="$build" llvmpipe > "$tmp/build.log" 2>&1 || {
    echo "FAIL llvmpipe_accum: could not build $ref"; tail -n 20 "$tmp/build.log"; exit 1; }
export LP_NUM_THREADS=2

# lp_accum SCENE NAME OPTIONS...: both renderers, PSNR >= 55.
lp_accum() {
    sc=$1 name=$2; shift 2
    if ! "$cli" render "scenes/$sc.scene" --size $size --mode accum "$@" -o "$tmp/$name-m.png" > "$tmp/out" 2>&1 ||
       ! "$ref" "scenes/$sc.scene" --size $size --frames 1 --warmup 0 "$@" -o "$tmp/$name-l.png" > "$tmp/out" 2>&1; then
        bad "$name" "render failed: $(tail -n 2 "$tmp/out")"
        return
    fi
    p=$(psnr "$tmp/$name-m.png" "$tmp/$name-l.png")
    if at_least "$p" 55; then ok "$name (PSNR $p dB)"; else bad "$name" "PSNR '$p' dB < 55"; fi
}
for sc in motion defocus blur; do
    lp_accum $sc "llvmpipe_accum_${sc}_k16" --accum 16
    if "$cli" render "scenes/$sc.scene" --size $size --mode msaa -o "$tmp/$sc-pin.png" > "$tmp/out" 2>&1; then
        p=$(psnr "$tmp/$sc-pin.png" "$tmp/llvmpipe_accum_${sc}_k16-m.png")
        if below "$p" 35; then ok "llvmpipe_accum_${sc}_blurred (pinhole vs accum: PSNR $p dB)"
        else bad "llvmpipe_accum_${sc}_blurred" "pinhole vs accum PSNR '$p' dB, expected < 35 (no blur?)"; fi
    else
        bad "llvmpipe_accum_${sc}_blurred" "render failed: $(tail -n 2 "$tmp/out")"
    fi
done
lp_accum blur llvmpipe_accum_blur_msaa4_k8 --accum 8 --spp 4  # MSAA sub-frames (measured 67.2 dB)

# --serve: 'accum 4' then 'more 4' is 'accum 8' byte for byte.
printf 'accum 4\nmore 4\nrgba %s\naccum 8\nrgba %s\nquit\n' "$tmp/a.raw" "$tmp/b.raw" |
    "$ref" scenes/blur.scene --size 160x90 --accum 2 --serve > "$tmp/serve.out" 2>&1
if grep -q '^ms .* frames 8$' "$tmp/serve.out" && [ -s "$tmp/a.raw" ] && cmp -s "$tmp/a.raw" "$tmp/b.raw"; then
    ok llvmpipe_accum_serve_more
else
    bad llvmpipe_accum_serve_more "$(tr '\n' '|' < "$tmp/serve.out")"
fi

# Errors: bad K.
"$ref" scenes/blur.scene --accum 0 > "$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q -- '--accum: expected an integer in 1..65536' "$tmp/out"; then ok llvmpipe_accum_bad_k
else bad llvmpipe_accum_bad_k "exit $rc: $(cat "$tmp/out")"; fi
exit $failed
