#!/bin/sh
# ab.sh — two builds of mosaic side by side on one render, for a machine too
# noisy to compare runs made minutes apart: the builds alternate round by
# round (A, B, A, B, ...), each round's frame time is the fastest of its
# frames (frame_ms_min), and the summary gives each build's min and median
# and the median of the rounds' B / A ratios (paired: a round's two runs
# see nearly the same machine).
#
# usage: bench/ab.sh [--rounds N] [--field KEY] [--together] MOSAIC_A MOSAIC_B -- RENDER ARGS...
#   e.g. bench/ab.sh --rounds 15 /tmp/mosaic-old build/mosaic -- scenes/blur.scene \
#            --size 960x540 --spp 27 --fma 200 --frames 3 --threads 1
# --field takes another --stats-json number instead of frame_ms_min
# (frame_ms is the median frame).  Default 9 rounds.  --together runs a
# round's two renders at the same time, A on core 0 and B on core 1 (the
# cores swap every round; taskset), so both see the same moment of a
# shared machine whose speed drifts from second to second (give
# --threads 1: each render's threads share its core).
set -u
ROUNDS=9
FIELD=frame_ms_min
TOGETHER=0
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) ROUNDS=$2; shift 2 ;;
    --field) FIELD=$2; shift 2 ;;
    --together) TOGETHER=1; shift ;;
    -h|--help) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) break ;;
    esac
done
if [ $# -lt 3 ] || [ "$3" != "--" ]; then
    echo "usage: bench/ab.sh [--rounds N] [--field KEY] MOSAIC_A MOSAIC_B -- RENDER ARGS..." >&2
    exit 2
fi
A=$1 B=$2
shift 3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-ab.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/stats_json.sh"
: > "$tmp/rounds"
i=0
# field NAME BIN: the round's value of the render NAME of BIN.
field() {
    v=$(json "$FIELD" "$tmp/$1.json")
    [ -n "$v" ] || { echo "ab.sh: $2 render failed or has no $FIELD: $(tail -n 2 "$tmp/$1.log")" >&2; exit 1; }
    printf '%s ' "$v" >> "$tmp/rounds"
}
while [ "$i" -lt "$ROUNDS" ]; do
    rm -f "$tmp/a.json" "$tmp/b.json"
    if [ "$TOGETHER" = 1 ]; then
        ca=$((i % 2)) cb=$((1 - i % 2))
        taskset -c "$ca" "$A" render "$@" -o "$tmp/a.png" --stats-json "$tmp/a.json" > "$tmp/a.log" 2>&1 &
        pa=$!
        taskset -c "$cb" "$B" render "$@" -o "$tmp/b.png" --stats-json "$tmp/b.json" > "$tmp/b.log" 2>&1 &
        pb=$!
        wait "$pa" "$pb"
    else
        "$A" render "$@" -o "$tmp/a.png" --stats-json "$tmp/a.json" > "$tmp/a.log" 2>&1
        "$B" render "$@" -o "$tmp/b.png" --stats-json "$tmp/b.json" > "$tmp/b.log" 2>&1
    fi
    field a "$A"
    field b "$B"
    echo >> "$tmp/rounds"
    i=$((i + 1))
done
echo "round  A ($A)  B ($B)  B/A"
awk '{ printf "%5d  %10.1f  %10.1f  %6.3f\n", NR, $1, $2, $2 / $1 }' "$tmp/rounds"
# Medians by sorting each column (and the ratios) in awk.
awk -v field="$FIELD" '
function median(v, n,    i, j, t) {
    for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{ a[NR] = $1; b[NR] = $2; r[NR] = $2 / $1 }
END {
    n = NR; amin = a[1]; bmin = b[1]
    for (i = 2; i <= n; i++) { if (a[i] < amin) amin = a[i]; if (b[i] < bmin) bmin = b[i] }
    printf "%s over %d rounds: A min %.1f median %.1f; B min %.1f median %.1f; B/A paired median %.3f\n",
           field, n, amin, median(a, n), bmin, median(b, n), median(r, n)
}' "$tmp/rounds"
