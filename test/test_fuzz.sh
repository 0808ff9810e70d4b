#!/bin/sh
# test_fuzz.sh — the parsers' fuzz targets (test/fuzz/, built by test/fuzz/fuzz.mk): every committed
# reproducer (test/fuzz/regress/NAME) and seed (test/fuzz/corpus/NAME) replayed in this build with any
# compiler (replay_main.c), a PASS per target; then, where clang and libFuzzer are installed, each
# libFuzzer target for FUZZ_TEST_SECONDS (default 30), side by side, a FAIL naming the input it kept
# for a crash, hang, leak or huge allocation.  Fed by run.sh: BUILD CLI, in the asan variant.
build=${1:-build/asan}
case ${MOSAIC_TEST_VARIANT:-asan} in
    normal) san= ;;
    *) san=${MOSAIC_TEST_VARIANT:-asan} ;;
esac
secs=${FUZZ_TEST_SECONDS:-30}
jobs=${FUZZ_TEST_JOBS:-2}
make=${MAKE:-make}
targets="scene pattern bsp pk3 image shader mesh q3shader"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-fuzz-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0

ok()   { echo "PASS $1"; }
bad()  { echo "FAIL $1: $2"; failed=1; }
to=""
command -v timeout > /dev/null 2>&1 && to="timeout -k 5"

# The targets' temporary folders go under $tmp, removed even when a target aborts.
TMPDIR=$tmp
export TMPDIR

# ---- replay: the regression inputs and seeds, in this build ----------------------------
if ! $make --no-print-directory -j"$jobs" BUILD="$build" SAN="$san" fuzz-replay-build > "$tmp/replay-build.log" 2>&1; then
    bad replay_build "$make fuzz-replay-build BUILD=$build failed: $(grep -m 3 -E 'error|Error' "$tmp/replay-build.log")"
    exit 1
fi
for t in $targets; do
    dirs=""
    for d in test/fuzz/regress/$t test/fuzz/corpus/$t; do
        [ -d "$d" ] && dirs="$dirs $d"
    done
    # assimp's leaks on its failure paths are not findings (fuzz.mk's FUZZ_ENV_mesh).
    supp=""
    [ "$t" = mesh ] && supp="LSAN_OPTIONS=suppressions=test/fuzz/mesh.lsan.supp:${LSAN_OPTIONS:-} ASAN_OPTIONS=fast_unwind_on_malloc=0:${ASAN_OPTIONS:-}"
    # shellcheck disable=SC2086
    env $supp ${to:+$to 120} "$build/fuzzers/replay_$t" $dirs > "$tmp/replay_$t.log" 2>&1
    rc=$?
    n=$(sed -n 's/^replayed \([0-9]*\) input.*/\1/p' "$tmp/replay_$t.log")
    if [ $rc -eq 0 ] && [ -n "$n" ]; then
        ok "replay_$t ($n inputs)"
    else
        last=$(grep '^replay: ' "$tmp/replay_$t.log" | tail -n 1 | sed 's/^replay: //')
        why=$(grep -m 1 -E 'ERROR: |runtime error|SUMMARY|fuzz_[a-z]*: ' "$tmp/replay_$t.log")
        [ $rc -eq 124 ] && why="timed out after 120 s"
        bad "replay_$t" "exit $rc on ${last:-?}: $why"
        tail -n 30 "$tmp/replay_$t.log"
    fi
done

# ---- libFuzzer: each target FUZZ_TEST_SECONDS from its corpus in build/fuzz ----------------
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\n'\
'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return d && n > 1 ? 0 : 0; }\n' > "$tmp/probe.c"
if ! command -v clang > /dev/null 2>&1 || ! clang -fsanitize=fuzzer "$tmp/probe.c" -o "$tmp/probe" > /dev/null 2>&1; then
    for t in $targets; do
        echo "SKIP fuzz_$t: clang with libFuzzer is not installed (make test-deps: clang libclang-rt-14-dev)"
    done
    exit $failed
fi
if ! $make --no-print-directory -j"$jobs" fuzz-build > "$tmp/fuzz-build.log" 2>&1; then
    bad fuzz_build "make fuzz-build failed: $(grep -m 3 -E 'error|Error' "$tmp/fuzz-build.log")"
    exit 1
fi
for t in $targets; do
    rm -f "$tmp/fuzz_$t.rc"
    ( $make --no-print-directory "fuzz-run-$t" FUZZ_SECONDS="$secs" > "$tmp/fuzz_$t.log" 2>&1; echo $? > "$tmp/fuzz_$t.rc" ) &
done
wait
for t in $targets; do
    rc=$(cat "$tmp/fuzz_$t.rc" 2> /dev/null || echo 1)
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/fuzz_$t.log")
    cov=$(grep -E '^#[0-9]+.*cov: ' "$tmp/fuzz_$t.log" | tail -n 1 | sed 's/.*\(cov: [0-9]*\) \(ft: [0-9]*\).*/\1, \2/')
    if [ "$rc" -eq 0 ]; then
        ok "fuzz_$t ($secs s, ${runs:-?} runs, ${cov:-no coverage line})"
    else
        unit=$(sed -n 's/.*Test unit written to \(.*\)/\1/p' "$tmp/fuzz_$t.log" | tail -n 1)
        why=$(grep -m 1 -E 'SUMMARY: |ERROR: libFuzzer' "$tmp/fuzz_$t.log")
        bad "fuzz_$t" "${unit:-no input kept} (${why:-make exit $rc}); replay: build/fuzz/fuzzers/fuzz_$t ${unit:-FILE}"
        grep -v '^#' "$tmp/fuzz_$t.log" | tail -n 40
    fi
done
exit $failed
