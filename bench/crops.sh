#!/bin/sh
# crops.sh — one region of the blur bench's images side by side, 4 pixels apart: the ground truth, Mosaic's
# blur at S spp, and Mosaic's accumulation buffer at equal time (K sub-frames, K = S x the blur's median
# frame time / the median time of the accumulation of S sub-frames, rounded, at least 1: the accumulation
# as fast as the blur).  Prints the three panels' PSNR and SSIM against the truth (whole images, R, G, B,
# as `mosaic diff`).
#
# usage: bench/crops.sh [--mosaic PATH] [--crops PATH] [--region WxH+X+Y] [--shader NAME]
#                       [--scene PATH] [-o OUT.png] [BENCH_DIR]
#        bench/crops.sh [--crops PATH] [--region WxH+X+Y] [-o OUT.png] TRUTH.png BLUR.png ACCUM.png
# BENCH_DIR: a `mosaic bench --blur ... --keep-images` folder (default out/bench-blur, as
# `make -f bench/bench.mk blur` writes it): its blur.csv row of shader NAME (default cheap) and the
# images in BENCH_DIR/img; the equal-time accumulation is rendered there by `mosaic render --mode accum`
# (the bench's own accumulation, sub-frames 0..K-1, bit for bit) from --scene (default scenes/NAME.scene).
# Three images instead: those, cut as they are.  --region: in pixels of a 1920x1080 image, scaled to
# the images' size (default 360x240+700+780: the middle sphere of scenes/blur.scene, moving and out of
# focus, over the floor tiles).  -o: default bench/view/blur_crops.png.  --crops: the cutting tool
# (default build/bench-crops: `make -f bench/bench.mk crops` builds it and runs this script).
set -u
MOSAIC=build/mosaic
CROPS=build/bench-crops
REGION=360x240+700+780
SHADER=cheap
SCENE=
OUT=bench/view/blur_crops.png
while [ $# -gt 0 ]; do
    case "$1" in
    --mosaic) MOSAIC=$2; shift 2 ;;
    --crops) CROPS=$2; shift 2 ;;
    --region) REGION=$2; shift 2 ;;
    --shader) SHADER=$2; shift 2 ;;
    --scene) SCENE=$2; shift 2 ;;
    -o) OUT=$2; shift 2 ;;
    -h|--help) sed -n '2,19s/^# \{0,1\}//p' "$0"; exit 0 ;;
    -*) echo "crops.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
die() { echo "crops.sh: $*" >&2; exit 1; }
[ -x "$CROPS" ] || die "$CROPS not built (make -f bench/bench.mk crops)"
echo "$REGION" | grep -qE '^[0-9]+x[0-9]+\+[0-9]+\+[0-9]+$' || die "--region: expected WxH+X+Y, got '$REGION'"

# score NAME IMAGE: "NAME: PSNR P dB, SSIM S" against the truth.
score() {
    d=$("$MOSAIC" diff --ignore-alpha "$truth" "$2" 2>&1) || die "mosaic diff $truth $2: $d"
    echo "$d" | sed -n "s/^psnr_db=\([^ ]*\) .* ssim=\([^ ]*\)$/$1: PSNR \1 dB, SSIM \2/p"
}

if [ $# -eq 3 ]; then
    truth=$1 blur=$2 accum=$3
    # the PNG header's size: bytes 16..23, two big-endian 32-bit numbers
    set -- $(od -An -tu1 -j16 -N8 "$truth" 2>/dev/null)
    [ $# -eq 8 ] || die "$truth: not a PNG"
    width=$(( ($1 << 24) + ($2 << 16) + ($3 << 8) + $4 )) height=$(( ($5 << 24) + ($6 << 16) + ($7 << 8) + $8 ))
elif [ $# -le 1 ]; then
    dir=${1:-out/bench-blur}
    [ -f "$dir/blur.csv" ] || die "$dir/blur.csv: not there (run make -f bench/bench.mk blur first)"
    # scene,width,height,threads,spp,shader,mosaic_mode,mosaic_ms,...,mosaic_accum_ms (14th)
    row=$(awk -F, -v s="$SHADER" 'NR > 1 && $6 == s { print; exit }' "$dir/blur.csv")
    [ -n "$row" ] || die "$dir/blur.csv: no row of shader '$SHADER'"
    set -- $(echo "$row" | awk -F, '{ print $1, $2, $3, $4, $5, $6, $7, $8, $14 }')
    name=$1 width=$2 height=$3 threads=$4 spp=$5 mode=$7 blur_ms=$8 accum_ms=$9
    prefix=$dir/img/$name-${width}x$height-t$threads-s$spp-$SHADER-blur
    truth=$prefix-truth.png blur=$prefix-mosaic.png
    for f in "$truth" "$blur"; do
        [ -f "$f" ] || die "$f: not there (the bench keeps its images with --keep-images)"
    done
    k=$(awk -v s="$spp" -v b="$blur_ms" -v a="$accum_ms" 'BEGIN { k = int(s * b / a + 0.5); print k < 1 ? 1 : k }')
    fma=$(echo "$SHADER" | sed -n 's/^fma\([0-9]*\)$/--fma \1/p')
    accum=$prefix-mosaic-accum-k$k.png
    "$MOSAIC" render "${SCENE:-scenes/$name.scene}" --size "${width}x$height" --threads "$threads" $fma \
        --mode accum --accum "$k" -o "$accum" > "$dir/crops-render.out" 2>&1 ||
        die "render failed: $(tail -n 2 "$dir/crops-render.out")"
    echo "Mosaic $mode $spp spp: $blur_ms ms; Mosaic accumulation of $spp sub-frames: $accum_ms ms;" \
         "at equal time: K = $k sub-frames"
else
    die "expected a bench folder or three images (--help)"
fi

# The region in the images' pixels.
region=$(echo "$REGION" | awk -F'[x+]' -v w="$width" -v h="$height" '{
    sx = w / 1920; sy = h / 1080
    printf "%dx%d+%d+%d", int($1 * sx + 0.5), int($2 * sy + 0.5), int($3 * sx + 0.5), int($4 * sy + 0.5) }')
mkdir -p "$(dirname "$OUT")"
"$CROPS" --region "$region" --gap 4 -o "$OUT" "$truth" "$blur" "$accum" || die "$CROPS failed"
echo "wrote $OUT: region $region of ${width}x$height; left to right:"
echo "  truth: $truth"
echo "  $(score blur "$blur") ($blur)"
echo "  $(score accumulation "$accum") ($accum)"
