#!/bin/sh
# check_includes.sh — the include rules between stage folders of src/
# (`make check-includes`; test_includes.sh runs it in `make test`):
#   1. a file includes, from another stage folder X, only X's entry-point
#      header X/X.h; util/*.h and frame/frame.h (the contract between
#      stages) are open to all.  Two exceptions by design: the per-ISA
#      files of a stage include its own *_tmp.h bodies (same folder), and
#      src/tools may include scene/scene.h and image/image.h like any stage;
#   2. frame/ and util/ include no stage;
#   3. the stage folders' include graph has no cycle;
#   4. inside src/tools, the folders (tools, tools/bench, tools/view,
#      tools/demo) include each other without a cycle either: each room is
#      fed by the ones above it, never back.
# Prints one line per violation and "ok: N folders, M edges" at the end;
# exit status 1 on any violation.  Run from the repository root.

cd "${1:-.}" || exit 2
[ -d src ] || { echo "check_includes: no src/ here" >&2; exit 2; }

edges=$(mktemp "${TMPDIR:-/tmp}/mosaic-inc.XXXXXX") || exit 2
trap 'rm -f "$edges" "$edges.out" "$edges.tools"' EXIT
bad=0

for f in $(find src -name '*.[ch]' | sort); do
    dir=$(echo "$f" | cut -d/ -f2)
    # "#include "x/y.h"" lines with their line numbers.
    sub=$(dirname "${f#src/}")  # tools/bench for src/tools/bench/run.c
    grep -n '^#include "[a-z_]*/[a-z_0-9/]*\.h"' "$f" | while IFS= read -r line; do
        n=${line%%:*}
        hdr=$(echo "$line" | sed 's/.*#include "\(.*\)".*/\1/')
        hdir=${hdr%%/*}
        if [ "$dir" = tools ] && [ "$hdir" = tools ]; then
            [ "$(dirname "$hdr")" != "$sub" ] && echo "TOOLS $sub $(dirname "$hdr")"
            continue
        fi
        base=$(basename "$hdr" .h)
        [ "$hdir" = "$dir" ] && continue
        case $hdir in
            util) continue ;;
            frame) [ "$base" = frame ] && continue ;;
        esac
        case $dir in
            frame|util)
                echo "$f:$n: $dir/ includes $hdr: the contract and the utilities include no stage"
                echo BAD
                continue ;;
        esac
        if [ "$base" != "$hdir" ]; then
            echo "$f:$n: includes $hdr, a private header of $hdir/ (only $hdir/$hdir.h is its entry point)"
            echo BAD
            continue
        fi
        echo "EDGE $dir $hdir"
    done
done > "$edges.out"

grep -v '^EDGE \|^TOOLS \|^BAD$' "$edges.out"
grep -q '^BAD$' "$edges.out" && bad=1
grep '^EDGE ' "$edges.out" | cut -d' ' -f2,3 | sort -u > "$edges"
grep '^TOOLS ' "$edges.out" | cut -d' ' -f2,3 | sort -u > "$edges.tools"
rm -f "$edges.out"

# Cycles of the edges in file $1: repeatedly remove folders that include none
# of the rest, or that none of the rest includes (Kahn's algorithm, both
# ways); the edges left lie on cycles.
cycles() {
awk '
    { from[NR] = $1; to[NR] = $2; nodes[$1] = 1; nodes[$2] = 1; n = NR }
    END {
        do {
            removed = 0
            for (v in nodes) {
                out = 0; inc = 0
                for (i = 1; i <= n; i++) {
                    if (alive[i] == "dead") continue
                    if (from[i] == v) out++
                    if (to[i] == v) inc++
                }
                if (out == 0 || inc == 0) {
                    delete nodes[v]; removed = 1
                    for (i = 1; i <= n; i++) if (to[i] == v || from[i] == v) alive[i] = "dead"
                }
            }
        } while (removed)
        for (i = 1; i <= n; i++)
            if (alive[i] != "dead" && (from[i] in nodes) && (to[i] in nodes)) printf "%s -> %s\n", from[i], to[i]
    }' "$1"
}
cycle=$(cycles "$edges")
if [ -n "$cycle" ]; then
    echo "include cycle between stage folders (edges on it):"
    echo "$cycle" | sed 's/^/  /'
    bad=1
fi
cycle=$(cycles "$edges.tools")
if [ -n "$cycle" ]; then
    echo "include cycle between the folders of src/tools (edges on it):"
    echo "$cycle" | sed 's/^/  /'
    bad=1
fi

if [ "$bad" -ne 0 ]; then
    exit 1
fi
echo "ok: $(cut -d' ' -f1 "$edges" | sort -u | wc -l) folders, $(wc -l < "$edges") edges between them;" \
     "src/tools: $(tr ' ' '\n' < "$edges.tools" | sort -u | wc -l) folders, $(wc -l < "$edges.tools") edges"
