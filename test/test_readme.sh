#!/bin/sh
# test_readme.sh — README.md's embedding example must be test/embed_example.c
# verbatim (one fenced block equal to the file).  Fed by run.sh.
if [ ! -f README.md ]; then
    echo "NOTE readme: README.md does not exist yet; comparison skipped"
    echo "PASS readme_embed_example (skipped: no README.md)"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-readme.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# Split every fenced block into its own file.
awk -v dir="$tmp" '
    /^```/ { if (inb) { inb = 0; close(f) } else { inb = 1; n++; f = dir "/block" n } ; next }
    inb { print > f }
' README.md
for b in "$tmp"/block*; do
    [ -f "$b" ] || continue
    if cmp -s "$b" test/embed_example.c; then
        echo "PASS readme_embed_example"
        exit 0
    fi
done
echo "FAIL readme_embed_example: no fenced block of README.md equals test/embed_example.c"
exit 1
