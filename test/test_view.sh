#!/bin/sh
# test_view.sh — mosaic-view under Xvfb (a real SDL2 window on a virtual X
# server) with the scripts in test/view/: its images equal `mosaic render`'s,
# each overlay tints where it should (the g80 ownership tint bin by bin),
# switching the pipeline mid-run never changes the image, a bad dropped scene
# keeps the old one with the error in the HUD, a FIFO dropped on it is refused
# without blocking, a size over the memory limit is refused.  Fed by run.sh: BUILD CLI.
build=${1:-build}
cli=${2:-$build/mosaic}
view=$build/mosaic-view
. test/lib_xvfb.sh  # xvfb_start; and lib_test.sh: test_tmp, ok, bad, need
test_tmp view
W=320 H=180 BIN=16

need view_built "$view does not exist" -x "$view"
# One virtual X server for every run.
xvfb_start view

# Runs the viewer on the virtual screen: viewer ARGS... (output in $tmp/LOG.out)
run_view() {
    log=$1; shift
    OUT=$tmp "$view" "$@" > "$tmp/$log.out" 2>&1
}

# "identical" when two images are equal bit for bit.
same_image() {
    out=$("$cli" diff "$1" "$2" 2>&1)
    case $out in *max_abs=0*differing_pixels=0*) return 0 ;; esac
    echo "$out"
    return 1
}

# ---- 1. screenshots and window captures equal `mosaic render` --------------
run_view same scenes/default.scene --size ${W}x$H --threads 2 --renderer software --script test/view/same.view
rc=$?
if [ $rc -ne 0 ]; then
    bad view_same_run "exit $rc: $(tail -n 3 "$tmp/same.out")"
else
    ok view_same_run
    for v in 0 2; do
        "$cli" render scenes/default.scene --size ${W}x$H --view $v -o "$tmp/ref_view$v.png" > /dev/null 2>&1
        if d=$(same_image "$tmp/ref_view$v.png" "$tmp/same_view$v.png"); then ok view_screenshot_equals_render_view$v
        else bad view_screenshot_equals_render_view$v "$d"; fi
        if d=$(same_image "$tmp/ref_view$v.png" "$tmp/same_view${v}_window.png"); then ok view_window_equals_render_view$v
        else bad view_window_equals_render_view$v "$d"; fi
    done
    if grep -q '"frame_ms"' "$tmp/same_view0.json" 2>/dev/null && grep -q '"width": 320' "$tmp/same_view0.json"; then
        ok view_screenshot_json
    else
        bad view_screenshot_json "no statistics JSON beside the screenshot"
    fi
fi

# ---- 2. switching threads, patterns, bins... mid-run never changes the image --
run_view switches scenes/default.scene --size ${W}x$H --threads 2 --renderer software --script test/view/switches.view
rc=$?
if [ $rc -ne 0 ]; then
    bad view_switches_run "exit $rc: $(tail -n 3 "$tmp/switches.out")"
else
    ok view_switches_run
    for s in threads3 hilbert g80 bin32 batch keys scalar one; do
        if [ ! -f "$tmp/sw_$s.png" ]; then bad view_switch_$s "no screenshot"
        elif d=$(same_image "$tmp/sw_base.png" "$tmp/sw_$s.png"); then ok view_switch_$s
        else bad view_switch_$s "$d"; fi
    done
    grep -q '"pattern": "g80"' "$tmp/sw_g80.json" && grep -q '"threads": 6' "$tmp/sw_g80.json" \
        && ok view_switch_g80_applied || bad view_switch_g80_applied "sw_g80.json does not say g80 with 6 threads"
fi

# ---- 3. overlays ----------------------------------------------------------------
run_view overlays scenes/default.scene --size ${W}x$H --threads 2 --renderer software --script test/view/overlays.view
rc=$?
# PPM (P6) pixels as "r g b" lines, top row first.
pixels() { od -An -v -tu1 -w3 -j "$(head -c 64 "$1" | head -n 3 | wc -c)" "$1"; }
# compare BASE OVERLAY MODE: per-pixel and per-bin counts, then MODE's verdict.
#   pixel: background pixels (those equal to the base's top-left pixel, the
#          sky) keep their colour, geometry pixels change (pixel_spill: up to
#          5% of the sky may change: 2x2 quads shade helper pixels over it)
#   bins:  bins that are all background in the base keep every pixel, bins
#          with geometry change (almost) every pixel
compare() {
    pixels "$1" > "$tmp/a.txt"; pixels "$2" > "$tmp/b.txt"
    paste -d' ' "$tmp/a.txt" "$tmp/b.txt" | awk -v W=$W -v H=$H -v B=$BIN -v mode="$3" '
        NR == 1 { bg = $1 " " $2 " " $3 }
        {
            i = NR - 1; x = i % W; y = int(i / W); bin = int(x / B) "," int((H - 1 - y) / B)
            isbg = ($1 " " $2 " " $3) == bg; ch = ($1 != $4 || $2 != $5 || $3 != $6)
            if (isbg) { nbg++; bgch += ch } else { ngeo++; geoch += ch; geobin[bin] = 1 }
            binpx[bin]++; binch[bin] += ch; allch += ch
        }
        END {
            for (b in binpx) {
                if (b in geobin) { gb++; gbch += binch[b] / binpx[b] >= 0.9 }
                else { eb++; ebch += binch[b] > 0 }
            }
            printf "background %d/%d changed, geometry %d/%d changed, geometry bins %d/%d tinted, empty bins %d/%d touched, all %d\n",
                bgch, nbg, geoch, ngeo, gbch, gb, ebch, eb, allch
            if (mode == "pixel") ok = nbg > 0 && bgch <= 0.01 * nbg && geoch >= 0.9 * ngeo
            else if (mode == "pixel_spill") ok = nbg > 0 && bgch <= 0.05 * nbg && geoch >= 0.9 * ngeo
            else if (mode == "bins") ok = eb > 0 && ebch == 0 && gbch >= 0.9 * gb
            else if (mode == "bins_blurred") ok = gbch >= 0.9 * gb && gb > 0
            else if (mode == "none") ok = allch == 0
            else if (mode == "some") ok = allch > 1000
            exit !ok
        }'
}
if [ $rc -ne 0 ]; then
    bad view_overlays_run "exit $rc: $(tail -n 3 "$tmp/overlays.out")"
else
    ok view_overlays_run
    for c in "shades pixel_spill" "overdraw pixel_spill" "area pixel" "cost bins" "spread_sharp none" "load some"; do
        set -- $c
        if r=$(compare "$tmp/ov_base.ppm" "$tmp/ov_$1.ppm" "$2"); then ok "view_overlay_$1 ($r)"
        else bad view_overlay_$1 "$r"; fi
    done
    if r=$(compare "$tmp/ov_dof_base.ppm" "$tmp/ov_dof_spread.ppm" bins_blurred); then ok "view_overlay_spread_blurred ($r)"
    else bad view_overlay_spread_blurred "$r"; fi
    # The g80 ownership tint, bin by bin: bin (i, j), (0, 0) lower-left, belongs
    # to worker (i + N[j mod 6]) mod 6, N = {0, 2, 4, 1, 5, 3}; the viewer's
    # colours of workers 0..5 (src/tools/view/overlay.c, six_colors).
    pixels "$tmp/ov_owner_g80.ppm" | awk -v W=$W -v H=$H -v B=$BIN '
        BEGIN {
            split("0 2 4 1 5 3", N, " ")
            c[0] = "230 40 40"; c[1] = "40 200 60"; c[2] = "40 90 240"
            c[3] = "250 220 30"; c[4] = "220 50 230"; c[5] = "40 220 230"
        }
        { px[NR - 1] = $1 " " $2 " " $3 }
        END {
            nbx = int((W + B - 1) / B); nby = int((H + B - 1) / B)
            for (j = 0; j < nby; j++) for (i = 0; i < nbx; i++) {
                x = i * B + B / 2; yup = j * B + B / 2
                if (yup >= H) yup = j * B + int((H - j * B) / 2)
                y = H - 1 - yup; want = c[(i + N[j % 6 + 1]) % 6]
                n++
                if (px[y * W + x] != want) { bad++; if (bad <= 3) printf "bin (%d,%d): %s, want %s; ", i, j, px[y * W + x], want }
            }
            printf "%d of %d bins match the G80 table\n", n - bad, n
            exit bad != 0
        }' > "$tmp/g80.txt"
    if [ $? -eq 0 ]; then ok "view_overlay_owner_g80 ($(cat "$tmp/g80.txt"))"
    else bad view_overlay_owner_g80 "$(cat "$tmp/g80.txt")"; fi
fi

# ---- 4. a bad scene dropped on the window ------------------------------------------
printf 'background 0.1 0.1 0.1\nobject broken\n  sphere -1\nend\n' > "$tmp/bad.scene"
mesh=/usr/share/glmark2/models/bunny.obj
[ -f "$mesh" ] || mesh=scenes/bunny.scene
BAD=$tmp/bad.scene MESH=$mesh run_view drop scenes/default.scene --size ${W}x$H --threads 2 --renderer software \
    --script test/view/drop.view
rc=$?
if [ $rc -ne 0 ]; then
    bad view_drop_run "exit $rc: $(tail -n 3 "$tmp/drop.out")"
else
    ok view_drop_run
    if grep -q "expected error shown: .*bad.scene:3" "$tmp/drop.out"; then ok view_drop_error_in_hud
    else bad view_drop_error_in_hud "no error naming bad.scene:3 in the HUD"; fi
    if d=$(same_image "$tmp/drop_before.png" "$tmp/drop_after.png"); then ok view_drop_keeps_scene
    else bad view_drop_keeps_scene "$d"; fi
    if [ -f "$tmp/drop_mesh.png" ] && ! same_image "$tmp/drop_before.png" "$tmp/drop_mesh.png" > /dev/null; then
        ok view_drop_mesh_loads
    else
        bad view_drop_mesh_loads "dropping $mesh did not change the image"
    fi
fi

# ---- 5. script errors name FILE:LINE; bad options are usage errors -----------------
printf 'wait 1\n\nfrobnicate 3\n' > "$tmp/bad.view"
run_view badscript scenes/default.scene --size 64x64 --script "$tmp/bad.view"
rc=$?
if [ $rc -eq 1 ] && grep -q "bad.view:3: unknown command 'frobnicate'" "$tmp/badscript.out"; then ok view_script_error_line
else bad view_script_error_line "exit $rc: $(tail -n 2 "$tmp/badscript.out")"; fi
printf 'set threads many\n' > "$tmp/bad2.view"
run_view badset scenes/default.scene --size 64x64 --script "$tmp/bad2.view"
rc=$?
if [ $rc -eq 1 ] && grep -q "bad2.view:1: set" "$tmp/badset.out"; then ok view_script_bad_value
else bad view_script_bad_value "exit $rc: $(tail -n 2 "$tmp/badset.out")"; fi
"$view" scenes/default.scene --spp 3 > "$tmp/usage.out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "mosaic-view: --spp" "$tmp/usage.out"; then ok view_usage_error
else bad view_usage_error "exit $rc: $(tail -n 2 "$tmp/usage.out")"; fi

# ---- 6. files that would block the window, sizes that would not fit ---------------------------
# Runs the viewer with a watchdog: killed (exit 137) after 60 s or once its
# RSS passes 2 GB (a regression must not take the machine's memory); its
# peak RSS (VmHWM, kB, sampled every 0.1 s) in $tmp/LOG.rss, why it was
# killed in $tmp/LOG.why: timed_view LOG VIEWER-ARGS...
timed_view() {
    log=$1; shift
    OUT=$tmp "$view" "$@" > "$tmp/$log.out" 2>&1 &
    pid=$!
    peak=0 why= end=$(($(date +%s) + 60))
    while :; do
        st=$(awk '/^State:/ { s = $2 } /^VmHWM:/ { h = $2 } END { print s, h + 0 }' /proc/$pid/status 2> /dev/null)
        case $st in ""|Z*|X*) break ;; esac
        [ "${st#* }" -gt "$peak" ] && peak=${st#* }
        if [ "$peak" -gt 2000000 ]; then why="killed at $peak kB"; kill -9 $pid; break; fi
        if [ "$(date +%s)" -ge $end ]; then why="killed after 60 s"; kill -9 $pid; break; fi
        sleep 0.1
    done
    wait $pid
    rc=$?
    echo "$peak" > "$tmp/$log.rss"
    echo "$why" > "$tmp/$log.why"
    return $rc
}
# The peak RSS of LOG under LIMIT_KB: rss_under NAME LOG LIMIT_KB
rss_under() {
    if [ "$(cat "$tmp/$2.rss")" -lt "$3" ]; then ok "$1 ($(cat "$tmp/$2.rss") kB)"
    else bad "$1" "peak RSS $(cat "$tmp/$2.rss") kB, limit $3 kB $(cat "$tmp/$2.why")"; fi
}

# A FIFO dropped on the window (no writer ever comes) froze it in open():
# now it is refused from stat, as are a folder and a device, and a FIFO as a
# screenshot's path; the viewer goes on within the 60 s.
mkfifo "$tmp/fifo.scene"
t0=$(date +%s)
FIFO=$tmp/fifo.scene DIR=$tmp timed_view fifo scenes/default.scene --size ${W}x$H --threads 2 --renderer software \
    --script test/view/fifo.view
rc=$?
t1=$(date +%s)
if [ $rc -ne 0 ]; then
    bad view_fifo_run "exit $rc after $((t1 - t0)) s $(cat "$tmp/fifo.why"): $(tail -n 3 "$tmp/fifo.out")"
else
    ok "view_fifo_run ($((t1 - t0)) s)"
    if grep -q "expected error shown: .*fifo.scene: not a regular file (a FIFO), not opened" "$tmp/fifo.out"; then
        ok view_fifo_refused
    else
        bad view_fifo_refused "no 'fifo.scene: not a regular file (a FIFO)' in the HUD"
    fi
    grep -q "expected error shown: .*not a regular file (a folder)" "$tmp/fifo.out" && ok view_drop_folder_refused \
        || bad view_drop_folder_refused "no 'not a regular file (a folder)' in the HUD"
    grep -q "expected error shown: .*/dev/zero: not a regular file (a character device)" "$tmp/fifo.out" \
        && ok view_drop_device_refused || bad view_drop_device_refused "no '/dev/zero: not a regular file' in the HUD"
    grep -q "expected error shown: .*fifo.scene: not a regular file (a FIFO), not written" "$tmp/fifo.out" \
        && ok view_screenshot_fifo_refused || bad view_screenshot_fifo_refused "no 'not written' in the HUD"
    if grep -q "went on after the drops" "$tmp/fifo.out" && [ -f "$tmp/fifo_after.png" ] &&
        d=$(same_image "$tmp/fifo_before.png" "$tmp/fifo_after.png"); then
        ok view_fifo_keeps_scene
    else
        bad view_fifo_keeps_scene "the script did not go on, or the image after the drop differs: $d"
    fi
fi

# `set size 16384x16384` was accepted and grew past 10 GB without a frame:
# sizes and spp over the memory limit are refused with FILE:LINE, the size,
# the bytes and the limit; the size in force stays, the script goes on.
timed_view size scenes/default.scene --size ${W}x$H --threads 2 --renderer software --script test/view/size.view
rc=$?
if [ $rc -ne 0 ]; then
    bad view_size_run "exit $rc $(cat "$tmp/size.why"): $(tail -n 3 "$tmp/size.out")"
else
    ok view_size_run
    if grep -q "expected error shown: .*size.view:9: set size 16384x16384: 16384x16384 at 1 spp would take 16.0 GiB (17179869184 bytes.*over the viewer's memory limit of" "$tmp/size.out"; then
        ok view_size_max_refused
    else
        bad view_size_max_refused "no 'size.view:9: set size 16384x16384: ... would take ... limit' in the HUD"
    fi
    grep -q "expected error shown: .*set size 3000x3000: 3000x3000 at 64 spp would take" "$tmp/size.out" \
        && ok view_size_at_spp_refused || bad view_size_at_spp_refused "3000x3000 at 64 spp was not refused"
    grep -q "expected error shown: .*set spp 64: 3000x3000 at 64 spp would take" "$tmp/size.out" \
        && ok view_spp_refused || bad view_spp_refused "spp 64 at 3000x3000 was not refused"
    if d=$(same_image "$tmp/size_before.png" "$tmp/size_after.png") && grep -q '"width": 320' "$tmp/size_after.json"; then
        ok view_size_refused_keeps_size
    else
        bad view_size_refused_keeps_size "the image after the refused size differs: $d"
    fi
    [ -f "$tmp/size_end.png" ] && ok view_size_goes_on || bad view_size_goes_on "no screenshot at the end"
fi
rss_under view_size_rss size 1000000

exit $failed
