# stats_json.sh — sourced by the bench scripts: json KEY FILE prints the
# first number KEY has in a `mosaic render --stats-json` file (nothing when
# the file or the key is missing).
json() { sed -n "s/.*\"$1\": *\([0-9.e+-]*\).*/\1/p" "$2" 2>/dev/null | head -n 1; }
