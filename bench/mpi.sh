#!/bin/sh
# mpi.sh — the cost of MPI on one host: `mosaic render` with 1 process x C threads against
# `mosaic-mpi` with R ranks x C/R threads, and the gather's bytes and time per frame at several sizes.
# Fed by hand (or make bench's callers); drives build/mosaic and build/mosaic-mpi with --stats-json.
#
# usage: bench/mpi.sh [options] [SCENE...]          (default: scenes/default.scene scenes/blur.scene)
#   --build DIR       where mosaic and mosaic-mpi are (default: build)
#   --runs R          runs per configuration; the table shows medians (default: 3)
#   --frames F        frames per run (frame_ms is their median) (default: 3)
#   --sizes "A B"     sizes of the gather table (default: "1920x1080 3840x2160")
#   --keep DIR        keep the PNG and JSON of every run in DIR
#   --cores C         threads of the one process, C/R per rank (default: 2)
#   --ranks "R ..."   rank counts to run, each dividing C (default: "2")
#   MPIRUN (environment) the launcher and its options (default: mpirun --allow-run-as-root
#                     --oversubscribe --mca btl self,vader)
# Table 1 per scene at 1920x1080: frame_ms (median over runs of each run's median frame),
# wall ms of the whole command (scene load, MPI start-up and gather included), and for
# mosaic-mpi the slowest rank's render ms per frame, rank 0's wait and the gather; every
# rank count's image must equal the one process's.
# Table 2: bytes gathered per frame and gather ms (the first rank count) per size.
# Exit status: 0 when every run succeeded, 1 when any failed, 2 for bad arguments.
set -u

BUILD=build
RUNS=3
FRAMES=3
SIZES="1920x1080 3840x2160"
KEEP=
CORES=2
RANKS=2

usage() { sed -n '5,23s/^# \{0,1\}//p' "$0"; }
die() { echo "mpi.sh: $*" >&2; echo "Try 'bench/mpi.sh --help'." >&2; exit 2; }

while [ $# -gt 0 ]; do
    case "$1" in
    --build) [ $# -ge 2 ] || die "--build: missing value"; BUILD=$2; shift 2 ;;
    --runs) [ $# -ge 2 ] || die "--runs: missing value"; RUNS=$2; shift 2 ;;
    --frames) [ $# -ge 2 ] || die "--frames: missing value"; FRAMES=$2; shift 2 ;;
    --sizes) [ $# -ge 2 ] || die "--sizes: missing value"; SIZES=$2; shift 2 ;;
    --keep) [ $# -ge 2 ] || die "--keep: missing value"; KEEP=$2; shift 2 ;;
    --cores) [ $# -ge 2 ] || die "--cores: missing value"; CORES=$2; shift 2 ;;
    --ranks) [ $# -ge 2 ] || die "--ranks: missing value"; RANKS=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) die "unknown option '$1'" ;;
    *) break ;;
    esac
done
SCENES=${*:-scenes/default.scene scenes/blur.scene}
for f in "$BUILD/mosaic" "$BUILD/mosaic-mpi"; do [ -x "$f" ] || die "$f does not exist (make BUILD=$BUILD build)"; done
command -v mpirun >/dev/null 2>&1 || die "mpirun not found (Debian package openmpi-bin)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-mpi-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
[ -n "$KEEP" ] && mkdir -p "$KEEP"
failed=0
MPIRUN=${MPIRUN:-mpirun --allow-run-as-root --oversubscribe --mca btl self,vader}
for r in $RANKS; do
    case "$r" in ''|*[!0-9]*|0) die "--ranks: expected positive numbers, got '$RANKS'" ;; esac
    [ $((CORES % r)) -eq 0 ] || die "--ranks: $r does not divide --cores $CORES"
done
R1=$(echo "$RANKS" | awk '{ print $1 }')

now_ms() { date +%s%N | awk '{ printf "%.1f", $1 / 1e6 }'; }
# The value of a numeric key in a --stats-json file ("key": number).
key() { sed -n "s/^ *\"$2\": \([-0-9.e+]*\),\{0,1\}$/\1/p" "$1" | head -1; }
# The largest number of an array key ("key": [a, b]).
key_max() { sed -n "s/^ *\"$2\": \[\(.*\)\],\{0,1\}$/\1/p" "$1" | tr ',' '\n' | awk 'NR == 1 || $1 > m { m = $1 } END { print m + 0 }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# run NAME CMD...: runs once, its stats in $tmp/NAME.json; appends "frame_ms wall_ms" to $tmp/NAME.tsv,
# and for mosaic-mpi "max_rank_render_ms_per_frame wait_ms gather_ms gather_bytes" to $tmp/NAME.mpi.
run() {
    name=$1; shift
    t0=$(now_ms)
    if ! "$@" --stats-json "$tmp/$name.json" -o "$tmp/$name.png" > "$tmp/$name.log" 2>&1; then
        echo "mpi.sh: $name failed: $(tail -2 "$tmp/$name.log" | tr '\n' ' ')" >&2
        failed=1
        return 1
    fi
    t1=$(now_ms)
    echo "$(key "$tmp/$name.json" frame_ms) $(echo "$t1 $t0" | awk '{ print $1 - $2 }')" >> "$tmp/$name.tsv"
    if grep -q '"ranks"' "$tmp/$name.json"; then
        echo "$(key_max "$tmp/$name.json" rank_render_ms) $FRAMES $(key_max "$tmp/$name.json" rank_wait_ms)" \
             "$(key "$tmp/$name.json" gather_ms) $(key "$tmp/$name.json" gather_bytes)" |
            awk '{ print $1 / $2, $3, $4, $5 }' >> "$tmp/$name.mpi"
    fi
    [ -n "$KEEP" ] && cp "$tmp/$name.json" "$tmp/$name.png" "$KEEP/" 2>/dev/null
    return 0
}
col() { awk -v c="$2" '{ print $c }' "$1" | median; }

echo "host: $(nproc) cores; $RUNS runs x $FRAMES frames; medians"
printf '%-8s %-22s %9s %9s %11s %8s %9s\n' scene config frame_ms wall_ms rank_max_ms wait_ms gather_ms
for sc in $SCENES; do
    s=$(basename "$sc" .scene)
    opts="--size 1920x1080 --frames $FRAMES"
    one=${s}_p1t$CORES
    for i in $(seq "$RUNS"); do
        run "$one" "$BUILD/mosaic" render "$sc" $opts --threads "$CORES"
        for r in $RANKS; do
            run "${s}_r${r}t$((CORES / r))" $MPIRUN -n "$r" "$BUILD/mosaic-mpi" render "$sc" $opts --threads $((CORES / r))
        done
    done
    if [ -f "$tmp/$one.tsv" ]; then
        printf '%-8s %-22s %9.1f %9.0f %11s %8s %9s\n' "$s" "1 process x $CORES threads" \
            "$(col "$tmp/$one.tsv" 1)" "$(col "$tmp/$one.tsv" 2)" - - -
    fi
    for r in $RANKS; do
        n=${s}_r${r}t$((CORES / r))
        [ -f "$tmp/$n.tsv" ] || continue
        printf '%-8s %-22s %9.1f %9.0f %11.1f %8.1f %9.2f\n' "$s" "$r ranks x $((CORES / r)) threads" \
            "$(col "$tmp/$n.tsv" 1)" "$(col "$tmp/$n.tsv" 2)" "$(col "$tmp/$n.mpi" 1)" \
            "$(col "$tmp/$n.mpi" 2)" "$(col "$tmp/$n.mpi" 3)"
        cmp -s "$tmp/$one.png" "$tmp/$n.png" || { echo "mpi.sh: $s, $r ranks: images differ" >&2; failed=1; }
    done
done

echo
printf '%-10s %14s %9s\n' size gather_bytes gather_ms
sc=$(echo "$SCENES" | awk '{ print $1 }')
for size in $SIZES; do
    for r in $(seq "$RUNS"); do
        run "gather_$size" $MPIRUN -n "$R1" "$BUILD/mosaic-mpi" render "$sc" --size "$size" --threads $((CORES / R1))
    done
    [ -f "$tmp/gather_$size.mpi" ] &&
        printf '%-10s %14s %9.2f\n' "$size" "$(col "$tmp/gather_$size.mpi" 4)" "$(col "$tmp/gather_$size.mpi" 3)"
done
exit $failed
