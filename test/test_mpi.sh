#!/bin/sh
# test_mpi.sh — mosaic-mpi (issue 33): one frame over 1..4 MPI ranks is
# bit-identical to `mosaic render` with the same options, for two rank
# patterns, sharp and blurred scenes, ranks that own no tile; a rank that
# cannot read its scene (mpirun's MPMD form gives it another path: a real
# failure, no test hook) ends the job with "rank R: reason", a non-zero
# status and no output file; a bad option is reported once.  Needs
# openmpi-bin (DEB_PKGS); runs as root, hence --allow-run-as-root.
# Fed by run.sh: BUILD CLI (BUILD/mosaic-mpi next to the CLI).
. test/lib_test.sh  # mpi_setup, run_mpi, ok, bad
mpi_setup mpi "${1:-build}" "${2:-}"

# ---- bit-identical to mosaic render ----------------------------------------
# default.scene sharp at 1 spp; blur.scene (motion and defocus, decoupled
# shading) at 4 spp.  32 px rank tiles: 6 x 4 tiles at 192x108.
for sc in default blur; do
    case $sc in
        default) opts="--size 192x108 --spp 1 --threads 2" ;;
        blur)    opts="--size 192x108 --spp 4 --threads 2" ;;
    esac
    if ! "$cli" render "scenes/$sc.scene" $opts -o "$tmp/ref_$sc.png" > "$tmp/ref.log" 2>&1; then
        bad "reference_$sc" "$(tail -1 "$tmp/ref.log")"
        continue
    fi
    for pat in vdc diagonal; do
        worst=""
        for n in 1 2 3 4; do
            out=$tmp/${sc}_${pat}_$n.png
            if ! run_mpi "$n" "$mpi" render "scenes/$sc.scene" $opts --rank-tile 32 --rank-pattern "$pat" \
                    -o "$out" > "$tmp/m.log" 2>&1; then
                worst="$worst; $n ranks failed: $(grep mosaic-mpi "$tmp/m.log" | head -2 | tr '\n' ' ')"
            elif ! cmp -s "$out" "$tmp/ref_$sc.png"; then
                worst="$worst; $n ranks: image differs from mosaic render"
            fi
        done
        if [ -z "$worst" ]; then ok "identical_${sc}_${pat}_1to4_ranks"; else bad "identical_${sc}_${pat}_1to4_ranks" "${worst#; }"; fi
    done
done

# ---- ranks without tiles; the statistics ----------------------------------
# 128 px tiles at 192x108 make 2 x 1 tiles: of 3 ranks one renders nothing.
if run_mpi 3 "$mpi" render scenes/default.scene --size 192x108 --threads 2 -o "$tmp/idle.png" \
        --stats-json "$tmp/idle.json" > "$tmp/m.log" 2>&1 &&
   cmp -s "$tmp/idle.png" "$tmp/ref_default.png"; then
    ok idle_rank_identical
else
    bad idle_rank_identical "$(tail -2 "$tmp/m.log" | tr '\n' ' ')"
fi
if [ -f "$tmp/idle.json" ] && grep -q '"ranks": 3' "$tmp/idle.json" && grep -q '"rank_pattern": "vdc"' "$tmp/idle.json" &&
   grep -q '"rank_tiles": \[' "$tmp/idle.json" && grep -q '"rank_render_ms": \[' "$tmp/idle.json" &&
   grep -q '"rank_wait_ms": \[' "$tmp/idle.json" && grep -q '"rank_load_cv": ' "$tmp/idle.json" &&
   grep -q '"gather_bytes": 82944' "$tmp/idle.json"; then
    tiles=$(sed -n 's/.*"rank_tiles": \[\(.*\)\].*/\1/p' "$tmp/idle.json")
    if [ "$(echo "$tiles" | tr ',' '\n' | awk '{ s += $1 } END { print s }')" = 2 ]; then ok stats_json_per_rank
    else bad stats_json_per_rank "rank_tiles $tiles do not add up to the 2 tiles"; fi
else
    bad stats_json_per_rank "keys missing in $(cat "$tmp/idle.json" 2>/dev/null | tail -12 | tr '\n' ' ')"
fi

# ---- a rank that fails -----------------------------------------------------
# MPMD: ranks 0, 1 and 3 get the scene, rank 2 a path that does not exist.
mkdir -p "$tmp/out"
a="--size 192x108 --threads 1 -o $tmp/out/f.png"
run_mpi 2 "$mpi" render scenes/default.scene $a : -n 1 "$mpi" render "$tmp/missing.scene" $a \
    : -n 1 "$mpi" render scenes/default.scene $a > "$tmp/fail.log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
    bad failing_rank "exit status 0"
elif ! grep -q "mosaic-mpi: rank 2: .*missing.scene.*No such file" "$tmp/fail.log"; then
    bad failing_rank "no 'rank 2: ... missing.scene ... No such file' message: $(grep mosaic-mpi "$tmp/fail.log" | head -3 | tr '\n' ' ')"
elif grep -q "mosaic-mpi: rank [013]:" "$tmp/fail.log"; then
    bad failing_rank "a healthy rank reported a failure: $(grep 'rank [013]:' "$tmp/fail.log" | head -1)"
elif [ -n "$(ls -A "$tmp/out")" ]; then
    bad failing_rank "files left in the output folder: $(ls -A "$tmp/out" | tr '\n' ' ')"
else
    ok failing_rank
fi

# A bad option on every rank: one message (not one per rank), exit status 2
# from mpirun, nothing written; an impossible rank pattern names itself.
run_mpi 3 "$mpi" render scenes/default.scene --size 192x108 --bogus -o "$tmp/out/g.png" > "$tmp/opt.log" 2>&1
rc=$?
count=$(grep -c "unknown option '--bogus'" "$tmp/opt.log")
if [ $rc -ne 0 ] && [ "$count" = 1 ] && [ ! -e "$tmp/out/g.png" ]; then ok bad_option_once
else bad bad_option_once "status $rc, $count messages: $(head -3 "$tmp/opt.log" | tr '\n' ' ')"; fi
run_mpi 2 "$mpi" render scenes/default.scene --size 192x108 --rank-pattern g80 -o "$tmp/out/h.png" > "$tmp/pat.log" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "mosaic-mpi: rank 0: --rank-pattern g80 over 2 ranks" "$tmp/pat.log" && [ ! -e "$tmp/out/h.png" ]; then
    ok rank_pattern_refused
else
    bad rank_pattern_refused "status $rc: $(grep mosaic-mpi "$tmp/pat.log" | head -2 | tr '\n' ' ')"
fi

# ---- a rank's workers share its tiles evenly ----------------------------------
# With a tile mask the library deals the pattern over the rendered bins packed
# together: applied to the whole grid, the diagonal pattern's 16-bin period
# aliased with 2 ranks' checkerboard of 128-px tiles and left half of each
# rank's 16 workers without a bin (max/mean 1.99 on rank 0).
if run_mpi 2 "$mpi" render scenes/default.scene --size 960x540 --threads 16 --stats-json "$tmp/w16.json" \
        -o "$tmp/w16.png" > "$tmp/w16.log" 2>&1; then
    spread=$(sed -n 's/^ *"worker_fragments": \[\(.*\)\],\{0,1\}$/\1/p' "$tmp/w16.json" | tr ',' '\n' |
             awk 'NF { n++; s += $1; if ($1 > m) m = $1; if ($1 == 0) z++ } END { printf "%.3f %d %d", n ? m / (s / n) : 0, z, n }')
    set -- $spread
    if awk -v r="$1" 'BEGIN { exit !(r > 0 && r < 1.3) }' && [ "$2" = 0 ] && [ "$3" = 16 ]; then
        ok rank_workers_share_tiles
    else
        bad rank_workers_share_tiles "rank 0's 16 workers: max/mean $1, $2 without a bin ($3 counted)"
    fi
else
    bad rank_workers_share_tiles "$(grep mosaic-mpi "$tmp/w16.log" | head -2 | tr '\n' ' ')"
fi
# The analyzer's rank level models the same packing: one rank's loads have no
# spread, one worker holds everything, and 2 ranks x 16 workers stay near 1.
"$cli" patterns scenes/default.scene --size 960x540 --bins 16 --rasterizers 2 --ranks 1,2 --workers 1,16 \
    --patterns vdc,diagonal --quiet > "$tmp/pat.txt" 2>&1
row=$(grep '^vdc ' "$tmp/pat.txt" | tail -1)
set -- $row
if [ "$2" = 0.00 ] && [ "$4" = 1.00 ] && awk -v r="$7" 'BEGIN { exit !(r >= 1 && r < 1.3) }'; then
    ok patterns_rank_level
else
    bad patterns_rank_level "vdc row: '$row'"
fi

# ---- a rank bound to fewer cores than its threads -------------------------
# taskset stands for a launcher's binding (Open MPI binds 1 or 2 ranks to a
# core each): the library's default threads follow the cores a process may
# run on, and mosaic-mpi warns when --threads outnumbers them (the image is
# still the same).
if [ "$(nproc --all)" -gt 1 ] && command -v taskset >/dev/null 2>&1; then
    if taskset -c 0 "$cli" render scenes/default.scene --size 192x108 --stats-json "$tmp/bound.json" \
            -o "$tmp/bound.png" > "$tmp/bound.log" 2>&1 &&
       grep -q '"threads": 1,' "$tmp/bound.json"; then
        ok default_threads_follow_affinity
    else
        bad default_threads_follow_affinity "$(grep '"threads"' "$tmp/bound.json" 2>/dev/null) $(tail -1 "$tmp/bound.log")"
    fi
    if taskset -c 0 timeout 120 mpirun --allow-run-as-root --oversubscribe --bind-to none --mca btl self,vader -n 1 \
            "$mpi" render scenes/default.scene --size 192x108 --threads 2 -o "$tmp/bound_mpi.png" > "$tmp/bm.log" 2>&1 &&
       grep -q "mosaic-mpi: rank 0: warning: 2 worker threads share the 1 core(s)" "$tmp/bm.log" &&
       cmp -s "$tmp/bound_mpi.png" "$tmp/ref_default.png"; then
        ok bound_rank_warned
    else
        bad bound_rank_warned "$(grep mosaic-mpi "$tmp/bm.log" | head -2 | tr '\n' ' ')"
    fi
fi

exit $failed
