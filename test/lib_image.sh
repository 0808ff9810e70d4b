# lib_image.sh — image checks the blur test scripts share (sourced; $cli is the mosaic CLI).
# psnr A B: the psnr_db field of `mosaic diff` (R, G, B, A; "inf" when equal).
psnr() { "$cli" diff "$1" "$2" 2>/dev/null | sed -n 's/.*psnr_db=\([0-9.inf]*\).*/\1/p' | tail -n 1; }
# at_least VALUE MIN: awk comparison (inf counts as large).
at_least() { awk -v v="$1" -v m="$2" 'BEGIN { exit !(v == "inf" || (v + 0 >= m + 0 && v != "")) }'; }
# below VALUE MAX: a finite VALUE under MAX.
below() { awk -v v="$1" -v m="$2" 'BEGIN { exit !(v != "" && v != "inf" && v + 0 < m + 0) }'; }
