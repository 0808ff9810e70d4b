#!/bin/sh
# frametime.sh — frame-time benchmark: median frame_ms and first_work_ms per scene and thread count.
# Fed by bench/bench.mk (make bench) or by hand; drives build/mosaic render --stats-json.
#
# usage: bench/frametime.sh [options] [SCENE...]        (default: scenes/*.scene)
#   The table: per scene and thread count, the median frame_ms, first_work_ms,
#   the front-end's serial CPU ms (frontend_serial_ms: binning, clipping,
#   dispatch; more workers do not shorten it), the workers' busy ms summed,
#   and the speed-up over the scene's first thread count.  Then, per scene
#   run with 1 thread, the Amdahl bound that serial part sets at 16 threads:
#   frame >= max(serial, (workers + front-end jobs) / 16).
#        bench/frametime.sh [options] --early-compare SCENE
#   --mosaic PATH     the CLI to run (default: build/mosaic)
#   --threads "1 2"   thread counts to run (default: "1 2")
#   --frames F        frames per run; frame_ms is their median (default: 7)
#   --size WxH        image size (default: 1920x1080)
#   --early-compare   compare --early 0 (off) with --early 64 on one scene
#   --keep DIR        keep the PNG and JSON of every run in DIR
# Exit status: 0 when every run succeeded, 1 when any failed, 2 for bad arguments.
set -u

MOSAIC=build/mosaic
THREADS="1 2"
FRAMES=7
SIZE=1920x1080
MODE=table
KEEP=

usage() { sed -n '5,19s/^# \{0,1\}//p' "$0"; }
die() { echo "frametime.sh: $*" >&2; echo "Try 'bench/frametime.sh --help'." >&2; exit 2; }

while [ $# -gt 0 ]; do
    case "$1" in
    --mosaic) [ $# -ge 2 ] || die "--mosaic: missing value"; MOSAIC=$2; shift 2 ;;
    --threads) [ $# -ge 2 ] || die "--threads: missing value"; THREADS=$2; shift 2 ;;
    --frames) [ $# -ge 2 ] || die "--frames: missing value"; FRAMES=$2; shift 2 ;;
    --size) [ $# -ge 2 ] || die "--size: missing value"; SIZE=$2; shift 2 ;;
    --keep) [ $# -ge 2 ] || die "--keep: missing value"; KEEP=$2; shift 2 ;;
    --early-compare) MODE=early; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    -*) die "unknown option '$1'" ;;
    *) break ;;
    esac
done

[ -x "$MOSAIC" ] || die "$MOSAIC: not found or not executable (run 'make' first)"
for t in $THREADS; do
    case "$t" in ''|*[!0-9]*) die "--threads: expected numbers, got '$THREADS'" ;; esac
done
case "$FRAMES" in ''|*[!0-9]*|0) die "--frames: expected a positive integer, got '$FRAMES'" ;; esac

if [ $# -eq 0 ]; then
    if [ "$MODE" = early ]; then set -- scenes/default.scene; else set -- scenes/*.scene; fi
fi
[ "$MODE" = early ] && [ $# -ne 1 ] && die "--early-compare takes one scene"
for s in "$@"; do [ -f "$s" ] || die "$s: no such scene file"; done

if [ -n "$KEEP" ]; then
    mkdir -p "$KEEP" || exit 2
    WORK=$KEEP
else
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-bench.XXXXXX") || exit 2
    trap 'rm -rf "$WORK"' EXIT INT TERM
fi

# Value of KEY in a --stats-json file (one "key": value per line; grep ORDER STATS_KEYS).
stat() { sed -n "s/^ *\"$2\": *\([^,]*\),\{0,1\}\$/\1/p" "$1"; }

# Milliseconds with 3 decimals ("-" when missing or null).
ms() { case "$1" in ''|null) echo - ;; *) printf '%.3f' "$1" ;; esac; }

FAILED=0
# Sum of an array key ("key": [a, b]).
stat_sum() { sed -n "s/^ *\"$2\": \[\(.*\)\],\{0,1\}\$/\1/p" "$1" | tr ',' '\n' | awk '{ s += $1 } END { printf "%.3f", s }'; }

# run NAME ARGS... -> runs one render; prints "frame_ms first_work_ms serial_ms worker_ms fe_cpu_ms"
# or "FAILED rc".
run() {
    name=$1; shift
    if "$MOSAIC" render "$@" --size "$SIZE" --frames "$FRAMES" -o "$WORK/$name.png" \
        --stats-json "$WORK/$name.json" >"$WORK/$name.log" 2>&1; then
        j=$WORK/$name.json
        printf '%s %s %s %s %s\n' "$(ms "$(stat "$j" frame_ms)")" "$(ms "$(stat "$j" first_work_ms)")" \
            "$(ms "$(stat "$j" frontend_serial_ms)")" "$(stat_sum "$j" worker_busy_ms)" \
            "$(ms "$(stat "$j" frontend_cpu_ms)")"
    else
        rc=$?
        sed 's/^/    /' "$WORK/$name.log" >&2
        echo "FAILED rc=$rc"
    fi
}

if [ "$MODE" = table ]; then
    echo "# $SIZE, median of $FRAMES frames per run ($MOSAIC)"
    printf '%-16s %7s %10s %13s %9s %10s %8s\n' scene threads frame_ms first_work_ms serial_ms worker_ms speedup
    : >"$WORK/amdahl"
    for s in "$@"; do
        base=$(basename "$s" .scene)
        first=
        for t in $THREADS; do
            res=$(run "$base-t$t" "$s" --threads "$t")
            case "$res" in FAILED*) FAILED=1; printf '%-16s %7s %s\n' "$base" "$t" "$res"; continue ;; esac
            set -- $res "$@"
            [ -n "$first" ] || first=$1
            printf '%-16s %7s %10s %13s %9s %10s %8s\n' "$base" "$t" "$1" "$2" "$3" "$4" \
                "$(awk -v a="$first" -v b="$1" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
            # 1 thread: serial, the workers' busy ms and the front-end's job CPU (cpu - serial).
            [ "$t" = 1 ] && echo "$base $1 $3 $4 $5" >>"$WORK/amdahl"
            shift 5
        done
    done
    if [ -s "$WORK/amdahl" ]; then
        echo "# Amdahl at 16 threads from the 1-thread runs: frame >= max(serial, (worker + front-end jobs) / 16)"
        printf '%-16s %10s %9s %10s %10s %12s %14s\n' scene frame1_ms serial_ms worker_ms serial/work pred16_ms pred16_speedup
        awk '{ par = $4 + ($5 - $3); b = par / 16; if ($3 > b) b = $3;
               printf "%-16s %10.1f %9.2f %10.1f %10.4f %12.2f %14.1f\n", $1, $2, $3, $4, $3 / $4, b, $2 / b }' "$WORK/amdahl"
    fi
else
    s=$1
    base=$(basename "$s" .scene)
    echo "# early-draw buffer on $s: $SIZE, median of $FRAMES frames (first_work_ms: last frame)"
    printf '%-8s %7s %12s %14s\n' early threads frame_ms first_work_ms
    for t in $THREADS; do
        for k in 0 64; do
            res=$(run "$base-t$t-early$k" "$s" --threads "$t" --early "$k")
            case "$res" in FAILED*) FAILED=1 ;; esac
            label=$k; [ "$k" = 0 ] && label=off
            printf '%-8s %7s %12s %14s\n' "$label" "$t" "${res%% *}" "${res#* }"
        done
    done
fi
exit $FAILED
