#!/bin/sh
# checksums.sh — md5 of the image of every shipped scene in 33 configurations (sizes, odd sizes,
# 1..64 spp, blur modes, accum, the scalar/AVX2/AVX-512 paths, small bins), to prove a change
# leaves every image bit-identical: run it with the build before and after and diff the lists.
#
# usage: bench/checksums.sh [MOSAIC] [OUTDIR]     (default build/mosaic, out/checksums)
# Prints "md5  NAME.png" lines (sorted); exit 1 when a render failed.
MOSAIC=${1:-build/mosaic}
OUT=${2:-out/checksums}
mkdir -p "$OUT" || exit 1
fail=0
run() {
    name=$1; shift
    "$MOSAIC" render "$@" -o "$OUT/$name.png" > /dev/null 2>&1 || { echo "FAIL $name" >&2; fail=1; }
}
for s in scenes/*.scene bench/scenes/horse.scene scenes/oa/oa_dm1.scene scenes/oa/ctf_compromise.scene; do
    b=$(basename "$s" .scene)
    run "$b-1" "$s" --size 640x360 --spp 1 --threads 2
    run "$b-4" "$s" --size 640x360 --spp 4 --threads 2
done
run default-big scenes/default.scene --spp 1 --threads 2
run default-16 scenes/default.scene --size 320x200 --spp 16 --threads 2 --view 2
run default-8-scalar scenes/default.scene --size 320x200 --spp 8 --threads 1 --isa scalar
run default-2-avx2 scenes/default.scene --size 320x200 --spp 2 --threads 1 --isa avx2 --view 1
run blur-27 scenes/blur.scene --size 480x270 --spp 27 --threads 2
run blur-ss scenes/blur.scene --size 320x180 --spp 8 --threads 2 --mode supersample
run defocus-16 scenes/defocus.scene --size 320x180 --spp 16 --threads 2
run motion-rate scenes/motion.scene --size 320x180 --spp 8 --threads 2 --shading-rate 0.5 --bilinear
run default-dof scenes/default.scene --size 320x180 --spp 8 --threads 2 --view 3
run default-accum scenes/default.scene --size 320x180 --threads 2 --view 3 --mode accum --accum 8
run engine-bin8 scenes/engine.scene --size 320x180 --spp 4 --threads 2 --bin 8 --coarse 64
run default-odd scenes/default.scene --size 321x203 --spp 1 --threads 2
run bunny-odd scenes/bunny.scene --size 333x187 --spp 1 --threads 1 --bin 8 --coarse 32
run engine-odd4 scenes/engine.scene --size 257x131 --spp 4 --threads 2
run default-odd2 scenes/default.scene --size 199x101 --spp 2 --threads 1 --view 2
(cd "$OUT" && md5sum ./*.png | sed 's| \./| |' | sort -k2)
exit $fail
