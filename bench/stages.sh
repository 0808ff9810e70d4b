#!/bin/sh
# stages.sh — where a blurred frame's instructions go, per covered sample:
# one render of one frame on one worker under callgrind (valgrind), its
# instruction counts grouped by stage of the stochastic path and divided by
# the frame's covered samples (visibility_samples), as a Markdown table.
# Instructions, not time: the same on a busy machine, and what a change to
# one stage's code moves (loads that miss cost more than they count: check
# wall time with bench/ab.sh).
#
# usage: bench/stages.sh [--mosaic PATH] [--keep FILE] SCENE [RENDER OPTIONS...]
#   default options: --size 960x540 --spp 27 --fma 200 (given ones replace
#   them all); always --frames 1 --threads 1, and --isa avx2 unless given.
#   --keep writes callgrind's profile to FILE (for callgrind_annotate).
# Stages, by the functions whose own instructions they sum (inlined code
# counts where it is inlined): walk (the bound tests, raster_stochastic_ISA),
# flush (the rank walk's 5D test, scatter to blocks, early depth, first
# sample of a pixel), the deferred path's visibility (depth test into the
# bin's visibility buffer, its blocks loaded from the target) and resolve
# (grid quads found or made per visible sample, colour and depth written,
# or summed into the pixels of a bin that goes straight to them),
# decouple (grid point, cache lookup and insert, new entries, the cache's
# reset per bin; the ordered path's queued write) and drain (shade batches:
# pending entries ordered and gathered; the ordered path's colours from the
# cache, blur area, LRU, and the ROP's writes, inlined there), their sum
# (visibility in all: the issue's figure), and with their callees: shading (backend_shade_points), blurred setup
# (fe_setup_blurred), PNG (img_write_png, outside the frame time).
# About 30 s for scenes/blur.scene, 90 s for scenes/herd.scene.
set -u
MOSAIC=build/mosaic
KEEP=
while [ $# -gt 0 ]; do
    case "$1" in
    --mosaic) MOSAIC=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    -h|--help) sed -n '2,27s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) break ;;
    esac
done
if [ $# -lt 1 ]; then
    echo "usage: bench/stages.sh [--mosaic PATH] [--keep FILE] SCENE [RENDER OPTIONS...]" >&2
    exit 2
fi
command -v valgrind > /dev/null && command -v callgrind_annotate > /dev/null || {
    echo "stages.sh: needs valgrind (apt-get install valgrind)" >&2
    exit 2
}
SCENE=$1
shift
[ $# -gt 0 ] || set -- --size 960x540 --spp 27 --fma 200
ISA=avx2
prev=
for a in "$@"; do
    [ "$prev" = --isa ] && ISA=$a
    prev=$a
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-stages.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$MOSAIC" render "$SCENE" "$@" --frames 1 --threads 1 \
    --isa "$ISA" -o "$tmp/frame.png" --stats-json "$tmp/stats.json" > "$tmp/log" 2>&1 || {
    echo "stages.sh: the render failed:" >&2
    tail -n 5 "$tmp/log" >&2
    exit 1
}
[ -z "$KEEP" ] || cp "$tmp/cg" "$KEEP"
. "$(dirname "$0")/stats_json.sh"
samples=$(json visibility_samples "$tmp/stats.json")
# "count  file:function [object]" lines -> "function count" (own, then with callees).
costs() {
    callgrind_annotate --inclusive="$1" --threshold=100 --show-percs=no "$tmp/cg" 2> /dev/null |
        awk '/^ *[0-9,]+  / { n = $1; gsub(",", "", n); $1 = ""; sub(/ \[[^]]*\]$/, ""); sub(/^.*:/, "");
                               print $0, n }'
}
costs no > "$tmp/self"
costs yes > "$tmp/incl"
total=$(callgrind_annotate --show-percs=no "$tmp/cg" 2> /dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
awk -v samples="${samples:-0}" -v total="${total:-0}" -v isa="$ISA" '
    FNR == 1 { file++ }
    file == 1 { self[$1] += $2 }                          # a function own, summed over the files inlined into it
    file == 2 && $2 > incl[$1] { incl[$1] = $2 }          # with its callees: the function row, the largest
    END {
        n = split("walk flush visibility resolve decouple drain shading setup PNG", order, " ")
        cost["walk"] = self["raster_stochastic_" isa]
        cost["flush"] = self["raster_stochastic_" isa "_flush"] + self["stoch_rank_walk_" isa "_flush"] + \
                        self["stoch_rank_walk_" isa "_test"] + self["stoch_pixels_next"]
        for (f in self) {
            if (f ~ /^(vis_block_clones|load_block|fill_block|read_block)(\.|$)/) cost["visibility"] += self[f]
            if (f ~ /^(decouple_resolve|resolve_writes|resolve_flush|lookup_row|take_quad|hold_entry|release_held|visible_lanes|held_discard|write_pixels)(\.|$)/ || f ~ /^(recent_row|bilinear_row|mix_row|write_row|sum_rows)_/) cost["resolve"] += self[f]
        }
        cost["decouple"] = self["decouple_block"] + self["grid_entry"] + self["new_entry"] + self["shading_cache_lookup"] + \
                           self["shading_cache_insert"] + self["decouple_new_grid_entry"] + self["try_new_entry"] + \
                           self["shading_cache_reset"]
        cost["drain"] = self["decouple_drain"] + self["shade_pending"] + self["mix_color"] + self["shading_cache_lru_append"] + \
                        self["decouple_shade"] + self["order_pending"]
        cost["shading"] = incl["backend_shade_points"]
        cost["setup"] = incl["fe_setup_blurred"]
        cost["PNG"] = incl["img_write_png"]
        name["walk"] = "walk: bound tests"; name["flush"] = "flush: 5D test, scatter, early depth"
        name["visibility"] = "visibility buffer: depth test, block loads"
        name["resolve"] = "resolve: grid quads, colour writes or pixel sums"
        name["decouple"] = "decouple: grid point, cache, queued write"; name["drain"] = "drain: shade batches, colours, blur area, LRU, ROP"
        name["shading"] = "shading"; name["setup"] = "blurred setup (front-end)"
        name["PNG"] = "PNG (not in the frame time)"
        printf "covered samples %d, instructions %.3f G\n\n", samples, total / 1e9
        print "| stage | instructions | per covered sample | share |"
        print "|---|---:|---:|---:|"
        rest = total
        for (i = 1; i <= n; i++) {
            s = order[i]; rest -= cost[s]
            printf "| %s | %.3f G | %.0f | %.1f%% |\n", name[s], cost[s] / 1e9, samples ? cost[s] / samples : 0, \
                   total ? 100 * cost[s] / total : 0
        }
        vis = 0
        for (i = 1; i <= 6; i++) vis += cost[order[i]]  # walk .. drain
        printf "| **visibility in all (walk to drain)** | %.3f G | **%.0f** | %.1f%% |\n", vis / 1e9, \
               samples ? vis / samples : 0, total ? 100 * vis / total : 0
        printf "| everything else (scene load, binning, start-up) | %.3f G | %.0f | %.1f%% |\n", rest / 1e9, \
               samples ? rest / samples : 0, total ? 100 * rest / total : 0
    }' "$tmp/self" "$tmp/incl"
