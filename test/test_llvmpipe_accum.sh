#!/bin/sh
# test_llvmpipe_accum.sh — the llvmpipe reference's accumulation buffer (mosaic-llvmpipe --accum K) against
# Mosaic's (mosaic render --mode accum --accum K) on the blur scenes, `mosaic bench --blur` and
# bench/crops.sh on its images.
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
. test/lib_test.sh  # test_tmp, ok, bad, need
test_tmp lpaccum
size=320x180
. test/lib_image.sh  # psnr, at_least, below
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

# Errors: bad K, --blur without the reference, 27 spp without --blur.
"$ref" scenes/blur.scene --accum 0 > "$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q -- '--accum: expected an integer in 1..65536' "$tmp/out"; then ok llvmpipe_accum_bad_k
else bad llvmpipe_accum_bad_k "exit $rc: $(cat "$tmp/out")"; fi
"$cli" bench --blur decoupled --scene scenes/blur.scene --size 64x36 --out "$tmp/x" > "$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q -- '--blur needs --vs llvmpipe' "$tmp/out"; then ok bench_blur_needs_reference
else bad bench_blur_needs_reference "exit $rc: $(cat "$tmp/out")"; fi
"$cli" bench --vs llvmpipe --scene scenes/blur.scene --spp 27 --out "$tmp/x" > "$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q -- '27, 32, 64 need --blur' "$tmp/out"; then ok bench_spp27_needs_blur
else bad bench_spp27_needs_blur "exit $rc: $(cat "$tmp/out")"; fi

# mosaic bench --blur at 160x90: one configuration, twice (the second finds the ground truth cached).
# llvmpipe's and Mosaic's accumulations of 4 sub-frames agree (>= 55 dB, RGB) and score the same PSNR
# against the truth (within 0.5 dB); the equal-PSNR search found a K; each has an SSIM in (0, 1]; the tables
# are written, every row as wide as its header.
for run in 1 2; do
    "$cli" bench --vs llvmpipe --llvmpipe "$ref" --blur decoupled --scene scenes/blur.scene --size 160x90 \
        --threads 2 --spp 4 --frames 1 --warmup 0 --truth 64 --no-plots --keep-images --out "$tmp/bench" \
        > "$tmp/bench$run.out" 2> "$tmp/bench$run.err"
    rc=$?
    line=$(grep '^blur scene=blur ' "$tmp/bench$run.out")
    if [ $rc -ne 0 ] || [ -z "$line" ]; then
        bad "bench_blur_run$run" "exit $rc: $(tail -n 3 "$tmp/bench$run.out" "$tmp/bench$run.err" | tr '\n' '|')"
        continue
    fi
    agree=$(field accum_agree_psnr "$line") lp=$(field llvmpipe_psnr "$line") ma=$(field mosaic_accum_psnr "$line")
    mp=$(field mosaic_psnr "$line") k=$(field equal_k "$line") truth=$(field truth "$line")
    if at_least "$agree" 55 && awk -v a="$lp" -v b="$ma" -v m="$mp" -v k="$k" \
            'BEGIN { d = a - b; exit !(d < 0.5 && d > -0.5 && m > 20 && k > 0) }'; then
        ok "bench_blur_run$run (accum agree $agree dB, PSNR mosaic $mp llvmpipe $lp mosaic accum $ma, equal K $k, truth $truth)"
    else
        bad "bench_blur_run$run" "$line"
    fi
    # SSIM against the truth beside each PSNR: there, in (0, 1].
    ssim="" ssim_bad=""
    for name in mosaic_ssim llvmpipe_ssim mosaic_accum_ssim equal_k_ssim; do
        v=$(field $name "$line")
        if awk -v v="$v" 'BEGIN { exit !(v ~ /^[0-9.]+$/ && v > 0 && v <= 1) }'; then ssim="$ssim $name=$v"
        else ssim_bad="$ssim_bad $name='$v'"; fi
    done
    if [ -z "$ssim_bad" ]; then ok "bench_blur_ssim_run$run ($ssim )"; else bad "bench_blur_ssim_run$run" "$ssim_bad: $line"; fi
    [ $run -eq 1 ] && first=$line
done
if [ -n "${first:-}" ] && [ -n "${line:-}" ]; then
    case $line in *"truth=64x1spp,cached"*) c=1 ;; *) c=0 ;; esac
    if [ $c -eq 1 ] && [ "$(field mosaic_psnr "$first")" = "$(field mosaic_psnr "$line")" ] &&
       [ "$(field llvmpipe_psnr "$first")" = "$(field llvmpipe_psnr "$line")" ]; then
        ok bench_blur_truth_cached
    else
        bad bench_blur_truth_cached "first: $first / second: $line"
    fi
fi
# The tables: the row, as many cells as the header (markdown: header, rule, row; CSV: header, row), SSIM columns.
cells() { grep "$1" "$2" | head -n 1 | tr -cd "$3" | wc -c; }
md_cells="$(cells '^| scene ' "$tmp/bench/blur.md" '|') $(cells '^|---' "$tmp/bench/blur.md" '|') \
$(cells '^| blur ' "$tmp/bench/blur.md" '|')"
csv_cells="$(cells '^scene,' "$tmp/bench/blur.csv" ,) $(cells '^blur,' "$tmp/bench/blur.csv" ,)"
if grep -q '^| blur | 160x90 | 2 | 4 | cheap | ' "$tmp/bench/blur.md" 2>/dev/null &&
   [ "$(sed -n 2p "$tmp/bench/blur.csv" | cut -d, -f1-5)" = "blur,160,90,2,4" ] &&
   echo "$md_cells" | awk '{ exit !($1 == $2 && $2 == $3) }' && echo "$csv_cells" | awk '{ exit !($1 == $2) }' &&
   grep -q '| PSNR | SSIM |' "$tmp/bench/blur.md" && head -n 1 "$tmp/bench/blur.csv" | grep -q ',mosaic_ssim,'; then
    ok bench_blur_tables
else
    bad bench_blur_tables "cells md $md_cells csv $csv_cells; blur.md / blur.csv: $(cat "$tmp/bench/blur.md" "$tmp/bench/blur.csv" 2>&1 | tail -n 4)"
fi

# bench/crops.sh on that run: truth | decoupled | accumulation at equal time, one region each, 4 pixels apart
# (a region of 1920x1080, 960x540, scaled to 160x90: 80x45; the picture 3 x 80 + 2 x 4 = 248 wide).
if make --no-print-directory -f bench/bench.mk BUILD="$build" "$build/bench-crops" > "$tmp/crops.log" 2>&1 &&
   sh bench/crops.sh --mosaic "$cli" --crops "$build/bench-crops" --region 960x540+480+270 -o "$tmp/crops.png" \
       "$tmp/bench" >> "$tmp/crops.log" 2>&1 &&
   [ "$(od -An -tu1 -j16 -N8 "$tmp/crops.png" | tr -s ' ' | sed 's/^ //')" = "0 0 0 248 0 0 0 45" ] &&
   grep -q '^  accumulation: PSNR [0-9.]* dB, SSIM 0\.[0-9]*' "$tmp/crops.log"; then
    ok "bench_blur_crops ($(grep -o 'K = [0-9]*' "$tmp/crops.log"))"
else
    bad bench_blur_crops "$(tail -n 5 "$tmp/crops.log" | tr '\n' '|')"
fi
exit $failed
