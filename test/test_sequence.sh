#!/bin/sh
# test_sequence.sh — sequences of scene time (--sequence, --frame-index,
# --resume) in `mosaic render` and under MPI: frame 0 of a sequence is the
# plain render; frames differ as the scene moves; a 6-frame sequence over 2
# ranks equals the frames rendered one by one with --frame-index (the job-
# array form); --resume renders only the missing frames; a frame that cannot
# be written is reported with its rank and frame, the others are written
# whole and the job ends non-zero; output names are checked before rendering.
# Needs openmpi-bin (DEB_PKGS); runs as root, hence --allow-run-as-root.
# Fed by run.sh: BUILD CLI (BUILD/mosaic-mpi next to the CLI).
. test/lib_test.sh  # mpi_setup, run_mpi, ok, bad
mpi_setup sequence "${1:-build}" "${2:-}"

scene=scenes/reel.scene
opts="--size 160x90 --spp 4 --threads 1"

# ---- the CLI: frame 0 is the plain render, frames move, one by one ---------
mkdir -p "$tmp/one"
"$cli" render "$scene" $opts -o "$tmp/plain.png" > "$tmp/plain.log" 2>&1 || bad plain_render "$(tail -1 "$tmp/plain.log")"
fail=""
for k in 0 1 2 3 4 5; do
    "$cli" render "$scene" $opts --frame-index "$k" -o "$tmp/one/f_$k.png" > "$tmp/one.log" 2>&1 ||
        fail="$fail; frame $k: $(tail -1 "$tmp/one.log")"
done
if [ -n "$fail" ]; then
    bad frame_index "${fail#; }"
else
    ok frame_index
    if cmp -s "$tmp/plain.png" "$tmp/one/f_0.png"; then ok frame0_is_plain_render
    else bad frame0_is_plain_render "--frame-index 0 differs from the render without it"; fi
    same=""
    for k in 1 2 3 4 5; do cmp -s "$tmp/one/f_$((k - 1)).png" "$tmp/one/f_$k.png" && same="$same $((k - 1))=$k"; done
    if [ -z "$same" ]; then ok frames_move; else bad frames_move "identical consecutive frames:$same"; fi
fi

# ---- 2 ranks, 6 frames: equal to the frames one by one ---------------------
mkdir -p "$tmp/mpi"
if run_mpi 2 "$mpi" render "$scene" $opts --sequence 0:5 -o "$tmp/mpi/m_%02d.png" > "$tmp/mpi.log" 2>&1; then
    diff=""
    for k in 0 1 2 3 4 5; do cmp -s "$tmp/one/f_$k.png" "$tmp/mpi/m_0$k.png" || diff="$diff $k"; done
    lines=$(grep -c "^wrote $tmp/mpi/m_0[0-5].png .* frame=[0-5] ([1-6]/6)" "$tmp/mpi.log")
    if [ -z "$diff" ] && [ "$lines" = 6 ] && grep -q "rank=1 frame=1 " "$tmp/mpi.log"; then
        ok mpi_sequence_equals_frame_index
    else
        bad mpi_sequence_equals_frame_index "frames differing:${diff:- none}; $lines progress lines of 6"
    fi
else
    bad mpi_sequence_equals_frame_index "status $?: $(grep mosaic-mpi "$tmp/mpi.log" | head -2 | tr '\n' ' ')"
fi

# ---- --resume: only the missing frames --------------------------------------
rm -f "$tmp/mpi/m_01.png" "$tmp/mpi/m_04.png"
touch -d '2000-01-01' "$tmp/mpi/m_00.png"
if run_mpi 2 "$mpi" render "$scene" $opts --sequence 0:5 -o "$tmp/mpi/m_%02d.png" --resume > "$tmp/resume.log" 2>&1 &&
   [ "$(grep -c '^wrote ' "$tmp/resume.log")" = 2 ] && grep -q "^wrote $tmp/mpi/m_01.png" "$tmp/resume.log" &&
   grep -q "^wrote $tmp/mpi/m_04.png" "$tmp/resume.log" && grep -q "resume: 4 of 6 frames" "$tmp/resume.log" &&
   cmp -s "$tmp/one/f_1.png" "$tmp/mpi/m_01.png" && cmp -s "$tmp/one/f_4.png" "$tmp/mpi/m_04.png" &&
   [ -z "$(find "$tmp/mpi/m_00.png" -newermt '2001-01-01')" ]; then
    ok mpi_resume_renders_missing_only
else
    bad mpi_resume_renders_missing_only "$(grep -v '^wrote' "$tmp/resume.log" | head -3 | tr '\n' ' ')"
fi
# The CLI's --resume: nothing left to do, nothing rewritten.
if "$cli" render "$scene" $opts --sequence 0:5 -o "$tmp/mpi/m_%02d.png" --resume > "$tmp/resume1.log" 2>&1 &&
   ! grep -q '^wrote ' "$tmp/resume1.log" && grep -q "resume: 6 of 6 frames" "$tmp/resume1.log"; then
    ok cli_resume_nothing_missing
else
    bad cli_resume_nothing_missing "$(head -2 "$tmp/resume1.log" | tr '\n' ' ')"
fi

# ---- a frame that cannot be written -----------------------------------------
# m_03.png is a directory: rank 1's frame 3 fails, frames 0..2, 4, 5 are
# written whole, no temporary file is left, the job ends non-zero.
mkdir -p "$tmp/bad/m_03.png"
run_mpi 2 "$mpi" render "$scene" $opts --sequence 0:5 -o "$tmp/bad/m_%02d.png" > "$tmp/bad.log" 2>&1
rc=$?
left=$(ls -A "$tmp/bad" | grep -v '^m_0[0-5].png$')
written=$(ls "$tmp/bad" | grep -c '^m_0[0-5].png$')
if [ $rc -ne 0 ] && grep -q "mosaic-mpi: rank 1: frame 3: " "$tmp/bad.log" &&
   grep -q "1 of 6 frames failed" "$tmp/bad.log" && [ -z "$left" ] && [ "$written" = 6 ] &&
   cmp -s "$tmp/one/f_2.png" "$tmp/bad/m_02.png"; then
    ok mpi_failed_frame_reported
else
    bad mpi_failed_frame_reported "status $rc, stray files '$left': $(grep mosaic-mpi "$tmp/bad.log" | head -2 | tr '\n' ' ')"
fi

# The CLI stops at a frame it cannot write (PNGs are written while the next
# frames render, so the few already started still finish): it names the
# frame, ends with 1, the frames before it are whole, no temporary file is left.
mkdir -p "$tmp/cbad/c_02.png"
"$cli" render "$scene" $opts --sequence 0:5 -o "$tmp/cbad/c_%02d.png" > "$tmp/cbad.log" 2>&1
rc=$?
stray=$(ls -A "$tmp/cbad" | grep -v '^c_0[0-5].png$')
if [ $rc -eq 1 ] && grep -q "mosaic: frame 2: .*c_02.png" "$tmp/cbad.log" &&
   grep -q "frame 2 failed; --resume renders the frames that are missing" "$tmp/cbad.log" && [ -z "$stray" ] &&
   cmp -s "$tmp/one/f_0.png" "$tmp/cbad/c_00.png" && cmp -s "$tmp/one/f_1.png" "$tmp/cbad/c_01.png"; then
    ok cli_failed_frame_stops
else
    bad cli_failed_frame_stops "status $rc, stray '$stray': $(grep mosaic: "$tmp/cbad.log" | head -2 | tr '\n' ' ')"
fi

# ---- names checked before rendering -----------------------------------------
check_usage() {  # NAME ARGS...: exit 2, the message, no file
    name=$1; shift
    "$cli" render "$scene" $opts "$@" > "$tmp/u.log" 2>&1
    rc=$?
    if [ $rc -eq 2 ] && grep -q "$want" "$tmp/u.log" && [ -z "$(ls "$tmp/u" 2>/dev/null)" ]; then ok "$name"
    else bad "$name" "status $rc: $(head -1 "$tmp/u.log")"; fi
}
mkdir -p "$tmp/u"
want="has no frame-number field"; check_usage no_field_refused --sequence 0:2 -o "$tmp/u/x.png"
want="a % other than the frame number"; check_usage bad_field_refused --sequence 0:2 -o "$tmp/u/x%s.png"
want="more than one frame-number field"; check_usage two_fields_refused --sequence 0:2 -o "$tmp/u/x%d_%d.png"
want="LAST must not be before FIRST"; check_usage backwards_refused --sequence 3:2 -o "$tmp/u/x%d.png"
want="only with --sequence or --frame-index"; check_usage resume_alone_refused --resume -o "$tmp/u/x.png"

exit $failed
