#!/bin/sh
# test_includes.sh — `make check-includes` and `make check-sizes` in
# `make test`: the stage folders of src/ keep to their include rules
# (test/check_includes.sh), and the checker itself catches a private include
# and a cycle planted in a copy, and a cycle between the folders of
# src/tools; no function or file of src/ is over its size
# (test/check_sizes.sh), and that checker catches a long function and a long
# file planted in the copy, and lets a template's long loop be.
# Fed by run.sh.
# passes NAME CHECKER: the checker finds src/ as it is within the rules.
passes() {
    out=$(sh "$2" 2>&1)
    if [ $? -eq 0 ]; then
        echo "PASS $1 ($out)"
    else
        echo "$out"
        echo "FAIL $1: see the lines above"
    fi
}
passes include_rules test/check_includes.sh
passes size_rules test/check_sizes.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-inc.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cp -r src "$tmp/src"
echo '#include "backend/decouple.h"' >> "$tmp/src/binning/fine.c"
echo '#include "binning/binning.h"' >> "$tmp/src/raster/stoch.c"
echo '#include "raster/raster.h"' >> "$tmp/src/binning/coarse.c"
out=$(sh test/check_includes.sh "$tmp" 2>&1)
rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -q "src/binning/fine.c:.*backend/decouple.h, a private header" &&
   echo "$out" | grep -q "raster -> binning" && echo "$out" | grep -q "binning -> raster"; then
    echo "PASS include_rules_catch_violations"
else
    echo "$out"
    echo "FAIL include_rules_catch_violations: exit $rc, the planted private include or cycle not reported"
fi

# The rooms of src/tools: the viewer includes the CLI's options
# (tools/render_opts.h); the CLI including the viewer closes a cycle.
echo '#include "tools/view/view.h"' >> "$tmp/src/tools/cli_args.c"
out=$(sh test/check_includes.sh "$tmp" 2>&1)
rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -q "folders of src/tools" && echo "$out" | grep -q "tools -> tools/view" &&
   echo "$out" | grep -q "tools/view -> tools"; then
    echo "PASS include_rules_catch_tools_cycle"
else
    echo "$out"
    echo "FAIL include_rules_catch_tools_cycle: exit $rc, the planted cycle tools <-> tools/view not reported"
fi

# function_of NAME LINES: a function NAME of LINES lines, '{' to '}' in column 0.
function_of() {
    echo "static int $1(void)"
    echo "{"
    i=2
    while [ $i -lt "$2" ]; do echo "    (void)0;"; i=$((i + 1)); done
    echo "}"
}
{ function_of just_fits 120; function_of too_long 121; } > "$tmp/src/binning/planted.c"
function_of template_loop 200 > "$tmp/src/raster/planted_tmp.h"
awk 'BEGIN { for (i = 0; i < 1001; i++) print "/* line */" }' > "$tmp/src/frame/planted.h"
out=$(sh test/check_sizes.sh "$tmp" 2>&1)
rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -q "src/binning/planted.c:123: function too_long is 121 lines" &&
   echo "$out" | grep -q "src/frame/planted.h: 1001 lines" && ! echo "$out" | grep -q "just_fits\|planted_tmp.h"; then
    echo "PASS size_rules_catch_violations"
else
    echo "$out"
    echo "FAIL size_rules_catch_violations: exit $rc, the planted long function or file not reported (or a template's was)"
fi
