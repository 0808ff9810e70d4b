#!/bin/sh
# test_hostile.sh — hostile input through the CLI, as the reliability review
# found it: image files in formats Mosaic does not read (16-bit PNM, Radiance
# HDR) or declaring absurd sizes (TGA), as `mosaic diff` inputs and scene
# textures; frames whose triangles overlap bins billions of times; batches
# split by their (triangle, tile) pair count; a scene line that cannot be
# read; a view out of range.  Each ends with a clear message (or renders),
# within 20 s, without a crash or a stray output file.
# Also: the formats Mosaic reads decode right (test/images).
# Fed by run.sh: BUILD CLI.
build=${1:-build}
cli=${2:-$build/mosaic}
. test/lib_test.sh  # test_tmp, ok, bad, need
test_tmp hostile
regress=$(pwd)/test/fuzz/regress/image
need cli_built "$cli does not exist" -x "$cli"
to="timeout -k 5 20"
command -v timeout > /dev/null 2>&1 || to=""

# expect NAME EXIT 'STDERR PATTERN (grep -E)' CMD...: runs CMD under the
# 20 s limit and checks its exit status and message.
expect() {
    name=$1 want=$2 pat=$3
    shift 3
    $to "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then bad "$name" "did not finish in 20 s"
    elif [ $rc -ne "$want" ]; then bad "$name" "exit $rc, expected $want: $(head -c 300 "$tmp/err")"
    elif [ -n "$pat" ] && ! grep -qE "$pat" "$tmp/err"; then bad "$name" "stderr '$(head -c 300 "$tmp/err")' does not match '$pat'"
    elif grep -qE 'Sanitizer|runtime error' "$tmp/err"; then bad "$name" "sanitizer report"
    else ok "$name"
    fi
}

# ---- images ----------------------------------------------------------------
# A valid 16-bit PGM (stb_image's 16-bit PNM path over-reads), a Radiance HDR
# whose RLE scanline is cut short (stb_image loops forever), a 110-byte TGA
# declaring 22829x13856 pixels (3.7 GB).
printf 'P5\n64 64\n65535\n' > "$tmp/big16.pgm"
head -c 8192 /dev/zero >> "$tmp/big16.pgm"
for f in "$tmp/big16.pgm" "$regress/pnm16_overread_small.pgm" "$regress/hdr_rle_eof_hang.hdr"; do
    n=$(basename "$f")
    expect "diff_refuses_$n" 2 "^mosaic: diff: $f: not a PNG, JPEG or TGA image" "$cli" diff "$f" "$f"
done
expect diff_tga_size_cap 2 \
    "^mosaic: diff: $regress/tga_110bytes_3.7GB.tga: TGA of 22829x13856 pixels is larger than Mosaic reads \(at most 16384x16384 and 64 megapixels\)" \
    "$cli" diff "$regress/tga_110bytes_3.7GB.tga" "$regress/tga_110bytes_3.7GB.tga"
# A .tga name alone does not make a TGA: the header must check out.
printf 'not an image at all, twenty+ bytes' > "$tmp/fake.tga"
expect diff_fake_tga 2 "fake.tga: not a PNG, JPEG or TGA image" "$cli" diff "$tmp/fake.tga" "$tmp/fake.tga"
# A PNG cut short: the header reads, the data does not.
head -c 300 scenes/textures/tiles.png > "$tmp/cut.png"
expect diff_truncated_png 2 "cut.png: corrupt PNG data" "$cli" diff "$tmp/cut.png" "$tmp/cut.png"
# The same files as scene textures: file:line:col, then the image's reason.
for f in "$tmp/big16.pgm" "$regress/hdr_rle_eof_hang.hdr" "$regress/tga_110bytes_3.7GB.tga"; do
    n=$(basename "$f")
    printf 'object\n  plane 1 1\n  shader textured\n  texture %s\nend\n' "$f" > "$tmp/tex.scene"
    expect "texture_refuses_$n" 1 "^mosaic: $tmp/tex.scene:4:11: $f: (not a PNG, JPEG or TGA|TGA of 22829x13856)" \
        "$cli" render "$tmp/tex.scene" --size 64x36 -o "$tmp/tex.png"
    [ -e "$tmp/tex.png" ] && bad "texture_refuses_$n" "wrote $tmp/tex.png"
done
# What Mosaic does read still reads (test/images, made from one 64x64 RGB
# PNG): 16-bit, palette, interlaced and grey PNGs, bottom-up raw and top-down
# RLE TGAs decode to exactly its pixels; baseline and progressive JPEGs
# (quality 95) to within 40 dB.
for f in ref16.png ref_palette.png ref_interlaced.png ref_bottom_up.tga ref_rle_top_down.tga; do
    expect "reads_$f" 0 "" "$cli" diff test/images/ref.png "test/images/$f"
    grep -q 'psnr_db=inf ' "$tmp/out" || bad "reads_$f" "$(cat "$tmp/out")"
done
expect reads_gray.png 0 "" "$cli" diff test/images/gray_ref.png test/images/gray.png
grep -q 'psnr_db=inf ' "$tmp/out" || bad reads_gray.png "$(cat "$tmp/out")"
for f in ref.jpg ref_progressive.jpg; do
    expect "reads_$f" 0 "" "$cli" diff test/images/ref.png "test/images/$f"
    psnr=$(sed -n 's/^psnr_db=\([0-9]*\).*/\1/p' "$tmp/out")
    [ "${psnr:-0}" -ge 40 ] || bad "reads_$f" "$(cat "$tmp/out"), expected psnr_db >= 40"
done

# ---- binning -----------------------------------------------------------------
# 2200 screen-filling planes at 4x4-pixel bins: 2^32 (triangle, coarse tile)
# pairs in one batch wrapped a 32-bit count and wrote past the coarse buffer.
# Now the frame stops at its limit on bin references, at once, and writes no image.
cat > "$tmp/planes.scene" <<EOF
camera
  eye 0 0 1
  target 0 0 0
  fov 90
end
object
  plane 8 8
  rotate 90 1 0 0
  array 2200 1 1 0 0 0
  cull none
  shader flat
end
EOF
msg="mos_end_frame: the frame's triangles overlap fine bins more than [0-9]+ times"
expect bin_refs_limit_4096 1 "$msg" "$cli" render "$tmp/planes.scene" --size 4096x4096 --bin 4 --coarse 4 -o "$tmp/p.png"
expect bin_refs_limit_1080p_batch_frame 1 "$msg" \
    "$cli" render "$tmp/planes.scene" --size 1920x1080 --bin 4 --coarse 4 --batch frame -o "$tmp/p.png"
[ -e "$tmp/p.png" ] && bad bin_refs_no_output "wrote $tmp/p.png for a failed frame"

# Batches split by their pair count, and fine tiles dispatched in chunks,
# draw the same image: 40 screen-filling triangles at 1920x1080, --bin 4
# --coarse 4 --batch frame has 5.2 M coarse pairs (the cap is 4 M: one item
# per bin and flush, so bin_items = 2 x 129600 bins), and --coarse 2048 has
# 5.5 M fine pairs in its first tile (dispatched every 2 M); both stay under
# the frame's limit of 8 M bin references.
items() { sed -n 's/.*"bin_items": *\([0-9]*\).*/\1/p' "$1"; }
"$cli" render test/scenes/layers.scene --size 1920x1080 -o "$tmp/l0.png" > /dev/null 2>&1
"$cli" render test/scenes/layers.scene --size 1920x1080 --bin 4 --coarse 4 --batch frame \
    -o "$tmp/l1.png" --stats-json "$tmp/l1.json" > /dev/null 2>&1
"$cli" render test/scenes/layers.scene --size 1920x1080 --bin 4 --coarse 2048 \
    -o "$tmp/l2.png" --stats-json "$tmp/l2.json" > /dev/null 2>&1
i1=$(items "$tmp/l1.json"); i2=$(items "$tmp/l2.json")
if ! cmp -s "$tmp/l0.png" "$tmp/l1.png"; then bad coarse_pair_cap_same_image "the image changed"
elif [ "${i1:-0}" -le 129600 ]; then bad coarse_pair_cap_same_image "bin_items $i1: the batch was not split"
else ok "coarse_pair_cap_same_image (bin_items $i1)"
fi
if ! cmp -s "$tmp/l0.png" "$tmp/l2.png"; then bad fine_pair_cap_same_image "the image changed"
elif [ "${i2:-0}" -le 129600 ]; then bad fine_pair_cap_same_image "bin_items $i2: the tile was not dispatched in chunks"
else ok "fine_pair_cap_same_image (bin_items $i2)"
fi

# ---- scene files -------------------------------------------------------------
# A line that cannot be read (getline runs out of memory under an address-space
# limit) is an error, not the end of the file.  Sanitizer builds reserve
# terabytes of shadow memory and cannot run under ulimit -v: normal build only.
if ! nm "$cli" 2> /dev/null | grep -q __asan_init && ! nm "$cli" 2> /dev/null | grep -q __tsan_init; then
    { printf 'object\n sphere 1\nend\n# '; head -c 200000000 /dev/zero | tr '\0' x; printf '\nobject\n box 1 1 1\nend\n'; } \
        > "$tmp/long.scene"
    expect scene_line_read_error 1 "^mosaic: $tmp/long.scene:4:1: cannot read the line: Cannot allocate memory" \
        sh -c "ulimit -v 160000; exec \"$cli\" render \"$tmp/long.scene\" --size 64x36 -o \"$tmp/long.png\""
    [ -e "$tmp/long.png" ] && bad scene_line_read_error "wrote $tmp/long.png"
    rm -f "$tmp/long.scene"
fi

# ---- GLSL sources that glslang's recursion cannot take ------------------------
# glslang recurses once per operator of a statement: 20,000 chained terms
# overflowed the stack (in `mosaic shader` and through a scene file).  Now a
# statement over 16384 operators, or brackets nested over 256 deep, is refused
# at file:line before the parser sees it, and what passes compiles on a thread
# whose stack holds it (8190 terms, 16379 operators: about 2.5x what an 8 MiB
# stack held before).
glsl_main() { # BODY-EXPRESSION-FILE OUT: a fragment shader writing vec4(EXPR, 0, 0, 1)
    { printf '#version 450\nlayout(location = 1) in vec2 v_uv;\nlayout(location = 0) out vec4 color;\n'
      printf 'void main(){ float a = v_uv.x;\n color = vec4('; cat "$1"; printf ', 0.0, 0.0, 1.0);\n}\n'; } > "$2"
}
awk 'BEGIN { printf "a"; for (i = 0; i < 20000; i++) printf "+a*1.0001" }' > "$tmp/e"; glsl_main "$tmp/e" "$tmp/long20000.frag"
awk 'BEGIN { printf "a"; for (i = 0; i < 8190; i++) printf "+a*1.0001" }' > "$tmp/e"; glsl_main "$tmp/e" "$tmp/long8190.frag"
awk 'BEGIN { for (i = 0; i < 300; i++) printf "("; printf "a"; for (i = 0; i < 300; i++) printf ")" }' > "$tmp/e"
glsl_main "$tmp/e" "$tmp/paren300.frag"
expect glsl_long_statement_refused 1 "long20000.frag:5: a statement with more than 16384 operators" \
    "$cli" shader "$tmp/long20000.frag"
expect glsl_deep_brackets_refused 1 "paren300.frag:5: brackets nested more than 256 deep" \
    "$cli" shader "$tmp/paren300.frag"
expect glsl_long_statement_under_limit 0 "" "$cli" shader "$tmp/long8190.frag"
cp shaders/builtin.vert "$tmp/builtin.vert"
for n in long20000 long8190; do
    printf 'object\n  plane 2 2\n  shader %s.frag\nend\n' "$n" > "$tmp/$n.scene"
done
expect glsl_long_statement_scene 1 "long20000.frag:5: a statement with more than 16384 operators" \
    "$cli" render "$tmp/long20000.scene" --size 32x32 -o "$tmp/ll.png"
[ -e "$tmp/ll.png" ] && bad glsl_long_statement_scene "wrote $tmp/ll.png"
expect glsl_long_statement_scene_renders 0 "" "$cli" render "$tmp/long8190.scene" --size 32x32 -o "$tmp/ll.png"
# Macros that double at each level ask glslang's preprocessor for 2^30
# tokens (2^25 took 23 s and 530 MB): refused from a bound computed on the
# definitions, before glslang runs, whether the growth comes through object
# macros, nested calls of a function macro, an alias of one, or an #if.
# Macros that reach each other, or call a parameter, hide any growth: refused.
pre='#version 450\nlayout(location = 1) in vec2 v_uv;\nlayout(location = 0) out vec4 color;\n'
{ printf "$pre#define A0 v_uv.x\n"; awk 'BEGIN { for (i = 1; i <= 30; i++) printf "#define A%d (A%d+A%d)\n", i, i - 1, i - 1 }'
  printf 'void main(){ color = vec4(A30, 0.0, 0.0, 1.0);\n}\n'; } > "$tmp/macro_objects.frag"
{ printf "$pre#define F(x) (x+x)\n#define G F\nvoid main(){ float a = v_uv.x;\n color = vec4("
  awk 'BEGIN { for (i = 0; i < 30; i++) printf "G("; printf "a"; for (i = 0; i < 30; i++) printf ")" }'
  printf ', 0.0, 0.0, 1.0);\n}\n'; } > "$tmp/macro_calls.frag"
{ printf "$pre#define A0 1\n"; awk 'BEGIN { for (i = 1; i <= 30; i++) printf "#define A%d (A%d+A%d)\n", i, i - 1, i - 1 }'
  printf '#if A30 > 0\n#endif\nvoid main(){ color = vec4(1.0); }\n'; } > "$tmp/macro_if.frag"
printf "$pre#define A B B\n#define B A A\nvoid main(){ float B = 1.0; color = vec4(B); }\n" > "$tmp/macro_cycle.frag"
printf "$pre#define F(x) (x+x)\n#define AP(f, x) f(x)\nvoid main(){ color = vec4(AP(F, v_uv.x)); }\n" > "$tmp/macro_callp.frag"
printf "$pre#define SQ(x) ((x)*(x))\n#define PI 3.14159\n#define TWO_PI (2.0*PI)\nvoid main(){ color = vec4(SQ(SQ(v_uv.x))*TWO_PI); }\n" \
    > "$tmp/macro_ok.frag"
expect glsl_macro_objects_refused 1 "macro_objects.frag:35: the macros expand the source past 2097152 tokens" \
    "$cli" shader "$tmp/macro_objects.frag"
expect glsl_macro_calls_refused 1 "macro_calls.frag:7: the macros expand the source past 2097152 tokens" \
    "$cli" shader "$tmp/macro_calls.frag"
expect glsl_macro_if_refused 1 "macro_if.frag:35: the macros expand the source past 2097152 tokens" \
    "$cli" shader "$tmp/macro_if.frag"
expect glsl_macro_cycle_refused 1 "macro_cycle.frag:4: macro B is reached again" "$cli" shader "$tmp/macro_cycle.frag"
expect glsl_macro_calls_parameter_refused 1 "macro_callp.frag:5: a macro calls its parameter f" \
    "$cli" shader "$tmp/macro_callp.frag"
expect glsl_macro_small_compiles 0 "" "$cli" shader "$tmp/macro_ok.frag"
# Desktop GLSL before 1.50: glslang printed its built-in prelude and "Unable
# to parse built-ins"; now the #version line is refused by name.
printf '// old\n#version 110\nvoid main() { gl_FragColor = vec4(1.0); }\n' > "$tmp/v110.frag"
expect glsl_version_110_refused 1 "v110.frag:2: #version 110 is not supported: Mosaic compiles GLSL to SPIR-V for OpenGL, which needs #version 330" \
    "$cli" shader "$tmp/v110.frag"
grep -q 'Unable to parse built-ins' "$tmp/out" "$tmp/err" && bad glsl_version_110_quiet "glslang's prelude was printed"
# 1.50 to 3.20 glslang takes, but Mosaic documents 330: the same message, not glslang's.
printf '#version 320\nlayout(location = 0) out vec4 o;\nvoid main() { o = vec4(1.0); }\n' > "$tmp/v320.frag"
expect glsl_version_320_refused 1 "v320.frag:1: #version 320 is not supported: Mosaic compiles GLSL to SPIR-V for OpenGL, which needs #version 330" \
    "$cli" shader "$tmp/v320.frag"

# ---- options -----------------------------------------------------------------
expect view_out_of_range 1 "view 9 does not exist: scenes/default.scene has [0-9]+ views?, 0\.\.[0-9]+ \(0 " \
    "$cli" render scenes/default.scene --view 9 --size 64x36 -o "$tmp/v.png"

exit $failed
