#!/bin/sh
# test_includes.sh — `make check-includes` in `make test`: the stage folders
# of src/ keep to their include rules (test/check_includes.sh), and the
# checker itself catches a private include and a cycle planted in a copy,
# and a cycle between the folders of src/tools.
# Fed by run.sh.
out=$(sh test/check_includes.sh 2>&1)
if [ $? -eq 0 ]; then
    echo "PASS include_rules ($out)"
else
    echo "$out"
    echo "FAIL include_rules: see the lines above"
fi

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
