#!/bin/sh
# micro.sh — the microbenchmarks of bench/micro.suite against llvmpipe, A/B in one run, as
# throughput per core: million triangles/s for the triangle grids (bench/micro/tri*.scene),
# Mpixels/s for the full-screen quads (fill_*.scene).  Fed by bench/bench.mk (make bench).
#
# usage: bench/micro.sh [--mosaic PATH] [--llvmpipe PATH] [--out DIR] [--frames F]
# Prints a markdown table; DIR (default out/bench/micro) keeps bench.csv and micro.md.
set -u
MOSAIC=build/mosaic
LLVMPIPE=build/mosaic-llvmpipe
OUT=out/bench/micro
FRAMES=
while [ $# -gt 0 ]; do
    case $1 in
        --mosaic) MOSAIC=$2; shift 2 ;;
        --llvmpipe) LLVMPIPE=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --frames) FRAMES="--frames $2"; shift 2 ;;
        *) echo "micro.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$OUT" || exit 1
# shellcheck disable=SC2086
"$MOSAIC" bench --vs llvmpipe --llvmpipe "$LLVMPIPE" --suite bench/micro.suite $FRAMES --out "$OUT" \
    --csv "$OUT/bench.csv" --no-plots > "$OUT/bench.log" 2>&1 || { cat "$OUT/bench.log"; exit 1; }

# Triangles each scene draws (the same geometry for both renderers).
tris_file="$OUT/triangles.txt"
: > "$tris_file"
for s in bench/micro/*.scene; do
    "$MOSAIC" render "$s" --size 1920x1080 --frames 1 -o "$OUT/probe.png" --stats-json "$OUT/probe.json" >/dev/null || exit 1
    n=$(sed -n 's/.*"triangles_in": \([0-9]*\).*/\1/p' "$OUT/probe.json")
    echo "$(basename "$s" .scene) $n" >> "$tris_file"
done
rm -f "$OUT/probe.png" "$OUT/probe.json"

awk -F, -v tris="$tris_file" '
    BEGIN { while ((getline l < tris) > 0) { split(l, a, " "); n[a[1]] = a[2] } }
    NR == 1 { next }
    {
        sc = $1; sub(/.*\//, "", sc); sub(/\.scene$/, "", sc)
        key = sc " " $6; ms[key, $2] = $10; th[key] = $5; px[key] = $3 * $4
        if (!(key in seen)) { seen[key] = 1; order[++k] = key }
    }
    END {
        print "| benchmark | spp | mosaic ms | llvmpipe ms | ratio | mosaic per core | llvmpipe per core |"
        print "|---|---:|---:|---:|---:|---:|---:|"
        for (i = 1; i <= k; i++) {
            key = order[i]; split(key, p, " "); sc = p[1]
            m = ms[key, "mosaic"]; l = ms[key, "llvmpipe"]; t = th[key]
            if (sc ~ /^tri/) { work = n[sc] / 1e6; unit = " Mtri/s" } else { work = px[key] / 1e6; unit = " Mpix/s" }
            printf "| %s | %s | %.1f | %.1f | %.2f | %.1f%s | %.1f%s |\n", sc, p[2], m, l, m / l,
                   work / (m / 1000) / t, unit, work / (l / 1000) / t, unit
        }
    }' "$OUT/bench.csv" | tee "$OUT/micro.md"
