# lib_xvfb.sh — one virtual X server for the scripts that open SDL2 windows (test_demo.sh,
# test_view.sh); sourced from the repository root, it sources test/lib_test.sh (test_tmp, bad).
# xvfb_start NAME: starts Xvfb (24-bit, 1280x1024) and exports its DISPLAY; the exit trap then stops it
# and removes $tmp.  Xvfb picks a free display and writes its number to fd 3 once it accepts clients.
# (xvfb-run per run raced: its clean-up sometimes could not remove its folder while the server was
# still stopping, and it then exits 5.)  Needs $tmp (test_tmp).  FAIL NAME_xvfb and exit 1 when Xvfb
# is missing or does not start within 10 s.
. test/lib_test.sh
xvfb_start() {
    if ! command -v Xvfb > /dev/null 2>&1; then
        bad "$1_xvfb" "Xvfb is missing (Debian xvfb, installed by make test's deps)"
        exit 1
    fi
    Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3> "$tmp/display" > "$tmp/xvfb.log" 2>&1 &
    xvfb_pid=$!
    trap 'kill $xvfb_pid 2> /dev/null; wait $xvfb_pid 2> /dev/null; rm -rf "$tmp"' EXIT
    i=0
    while [ ! -s "$tmp/display" ] && [ $i -lt 100 ] && kill -0 $xvfb_pid 2> /dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
    if [ ! -s "$tmp/display" ]; then
        bad "$1_xvfb" "Xvfb did not start: $(tail -n 2 "$tmp/xvfb.log")"
        exit 1
    fi
    DISPLAY=:$(cat "$tmp/display")
    export DISPLAY
}
