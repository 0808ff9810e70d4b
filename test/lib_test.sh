# lib_test.sh — the boilerplate the CLI test scripts share (sourced from the repository root, as
# `. test/lib_test.sh`).
# test_tmp NAME: $tmp, a new folder ${TMPDIR:-/tmp}/mosaic-NAME.XXXXXX removed at exit (the script
# exits 1 when it cannot be made), and failed=0.
test_tmp() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-$1.XXXXXX") || exit 1
    trap 'rm -rf "$tmp"' EXIT
    failed=0
}
# ok NAME / bad NAME WHY: a "PASS NAME" / "FAIL NAME: WHY" line (bad sets failed=1); NAME is prefixed
# with $test_prefix when the script sets one (after sourcing this).
test_prefix=
ok()  { echo "PASS ${test_prefix-}$1"; }
bad() { echo "FAIL ${test_prefix-}$1: $2"; failed=1; }
# need NAME WHY TEST...: bad NAME WHY and exit 1 unless `test TEST...` holds
# (need cli_built "$cli does not exist" -x "$cli").
need() {
    need_name=$1 need_why=$2
    shift 2
    test "$@" || { bad "$need_name" "$need_why"; exit 1; }
}
# mpi_setup NAME BUILD CLI: test_tmp NAME, then $cli and $mpi (BUILD/mosaic-mpi), both built, and
# mpirun there (Debian's openmpi-bin), else FAIL and exit 1.  run_mpi N ARGS... runs N ranks over
# shared memory and loopback only (a container has no fabric), more ranks than cores allowed, as
# root, ending a hung job after 300 s.
mpi_setup() {
    test_tmp "$1"
    cli=${3:-$2/mosaic}
    mpi=$2/mosaic-mpi
    for f in "$cli" "$mpi"; do need built "$f does not exist" -x "$f"; done
    command -v mpirun >/dev/null 2>&1 || { bad mpirun "mpirun not found (Debian package openmpi-bin)"; exit 1; }
}
run_mpi() {
    run_mpi_n=$1
    shift
    timeout 300 mpirun --allow-run-as-root --oversubscribe --mca btl self,vader -n "$run_mpi_n" "$@"
}
