#!/bin/sh
# check_sizes.sh — the sizes a reader can take in at once, for every .c and .h in src/
# (`make check-sizes`; test_includes.sh runs it in `make test`):
#   1. no function over 120 lines, except in the hot-loop templates (*_tmp.h);
#   2. no file over 1000 lines.
# A function is what the codebase's style makes of one: from a '{' in column 0 to the next
# '}' in column 0, both counted (the signature above it is not).  Prints one line per
# violation and "ok: ..." at the end; exit status 1 on any violation.  Run from the
# repository root, or give the root as the argument.

MAX_FUNCTION=120
MAX_FILE=1000

cd "${1:-.}" || exit 2
[ -d src ] || { echo "check_sizes: no src/ here" >&2; exit 2; }

awk -v max_fn=$MAX_FUNCTION -v max_file=$MAX_FILE '
function file_done() {
    if (file == "") return
    files++
    if (lines > max_file) { print file ": " lines " lines (at most " max_file ")"; bad++ }
    if (lines > longest_file) { longest_file = lines; longest_file_at = file }
}
FNR == 1 { file_done(); file = FILENAME; lines = 0; open_at = 0; sig = ""; tmpl = FILENAME ~ /_tmp\.h$/ }
{ lines = FNR }
/^[A-Za-z_]/ { sig = $0 }  # the first line of a signature (its name before the first "(")
/^\{/ {
    open_at = FNR
    name = sig; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
    next
}
/^\}/ && open_at {
    n = FNR - open_at + 1
    functions++
    if (n > max_fn && !tmpl) { print file ":" open_at ": function " name " is " n " lines (at most " max_fn ")"; bad++ }
    if (n > longest_fn && !tmpl) { longest_fn = n; longest_fn_at = file ":" open_at " " name }
    open_at = 0
}
END {
    file_done()
    if (bad) exit 1
    printf "ok: %d files, %d functions; the longest function %d lines (%s), the longest file %d lines (%s)\n",
           files, functions, longest_fn, longest_fn_at, longest_file, longest_file_at
}' $(find src -name '*.[ch]' | sort)
