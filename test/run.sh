#!/bin/sh
# run.sh — runs the tests of one build variant and collects PASS/FAIL lines
# into BUILD/test/results.txt; --summary adds up result files.  Fed by tests.mk.
#   run.sh BUILD VARIANT CLI NAME...      NAME = BUILD/test/NAME or test/NAME.sh
#   run.sh --summary RESULTS...           prints "N passed, N failed"

if [ "$1" = "--summary" ]; then
    shift
    pass=0; fail=0
    for f in "$@"; do
        if [ ! -s "$f" ]; then
            echo "FAIL $f: variant produced no results"
            fail=$((fail + 1))
            continue
        fi
        p=$(grep -c '^PASS ' "$f"); q=$(grep -c '^FAIL ' "$f")
        pass=$((pass + p)); fail=$((fail + q))
        grep '^FAIL ' "$f"
    done
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit $?
fi

build=$1; variant=$2; cli=$3; shift 3
dir=$build/test
results=$dir/results.txt
mkdir -p "$dir"
: > "$results"

case $variant in
    normal) limit=300 ;;
    *) limit=500 ;;
esac
# Leaks and UB fail the run; TSan reports make the exit status 66.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=0}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
TSAN_OPTIONS=${TSAN_OPTIONS:-second_deadlock_stack=1:exitcode=66}
MOSAIC_TEST_CLI=$cli
MOSAIC_TEST_VARIANT=$variant  # scripts that build (test_fuzz.sh) build this variant
export ASAN_OPTIONS UBSAN_OPTIONS TSAN_OPTIONS MOSAIC_TEST_CLI MOSAIC_TEST_VARIANT
to=""
command -v timeout >/dev/null 2>&1 && to="timeout -k 10 $limit"

for name in "$@"; do
    log=$dir/$name.log
    if [ -f "test/$name.sh" ]; then
        cmd="sh test/$name.sh $build $cli"
    elif [ -x "$dir/$name" ]; then
        cmd="$dir/$name"
    else
        echo "FAIL [$variant] $name: not built" | tee -a "$results"
        continue
    fi
    start=$(date +%s)
    $to $cmd > "$log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    # Per-case lines from check.h's TEST_RUN (or the scripts): "PASS name ..."
    grep -aE '^(PASS|FAIL|SKIP|NOTE) ' "$log" | sed "s|^\([A-Z]*\) |\1 [$variant] $name/|" \
        | tee -a "$results.tmp"
    grep -E '^(PASS|FAIL) ' "$results.tmp" >> "$results" 2>/dev/null
    nfail=$(grep -c '^FAIL ' "$results.tmp" 2>/dev/null || true)
    ncase=$(grep -cE '^(PASS|FAIL) ' "$results.tmp" 2>/dev/null || true)
    rm -f "$results.tmp"
    if [ "$rc" -ne 0 ] && [ "${nfail:-0}" -eq 0 ]; then
        why="exit status $rc"
        [ "$rc" -eq 124 ] && why="timed out after ${limit}s"
        [ "$rc" -gt 128 ] && why="killed by signal $((rc - 128))"
        grep -aqE 'Sanitizer|runtime error' "$log" && why="$why, sanitizer report"
        echo "FAIL [$variant] $name: $why" | tee -a "$results"
    elif [ "$rc" -eq 0 ] && [ "${ncase:-0}" -eq 0 ]; then
        echo "PASS [$variant] $name" | tee -a "$results"
    fi
    if [ "$rc" -ne 0 ]; then
        echo "---- $log (last 40 lines) ----"
        tail -n 40 "$log"
        echo "----"
    fi
    echo "     [$variant] $name: ${secs}s"
done

p=$(grep -c '^PASS ' "$results"); q=$(grep -c '^FAIL ' "$results")
echo "[$variant] $p passed, $q failed"
[ "$q" -eq 0 ]
