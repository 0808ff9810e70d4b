#!/bin/sh
# test_glsl_llvmpipe.sh — the GLSL files on both renderers: Mosaic (glslang -> SPIR-V -> its VM) and Mesa's
# llvmpipe (the same .vert/.frag through Mesa's GLSL compiler) draw the built-ins with --glsl-builtins shaders,
# and a scene whose objects name their own GLSL files, and agree as test_llvmpipe_agreement.sh asks: >= 99.5%
# of pixels within 2/255 per channel, and differing pixels off triangle edges at most 0.02% of the pixels
# (its textured criterion: every scene here samples textures).  llvmpipe's GLSL path and its built-in twins
# give the same image; broken shaders end in a clean error naming the file.  Fed by run.sh: BUILD CLI.
#
# The agreement is mosaic-llvmpipe's --agree (mosaic bench's method: an ID pass marks the edges), against
# Mosaic's PNG of the same scene, size and sample count.
build=${1:-build}
cli=${2:-$build/mosaic}
ref=$build/mosaic-llvmpipe
. test/lib_test.sh  # test_tmp, ok, bad, need
test_tmp glsl-lp
test_prefix=glsl_llvmpipe_

if [ ! -x "$cli" ]; then
    echo "FAIL glsl_llvmpipe: $cli does not exist"
    exit 1
fi
if ! [ -f /usr/include/GL/osmesa.h ]; then
    echo "SKIP glsl_llvmpipe: libosmesa6-dev not installed (make deps)"
    exit 0
fi
make --no-print-directory -f bench/bench.mk BUILD="$build" llvmpipe > "$tmp/build.log" 2>&1 || {
    echo "FAIL glsl_llvmpipe: could not build $ref"; tail -n 20 "$tmp/build.log"; exit 1; }

# agree NAME SCENE SIZE SPP [ARGS...]: Mosaic and llvmpipe, both with ARGS; checks --agree's line.
agree() {
    name=$1 scene=$2 size=$3 spp=$4
    shift 4
    if ! "$cli" render "$scene" --size "$size" --spp "$spp" "$@" -o "$tmp/$name-mosaic.png" > "$tmp/out" 2>&1; then
        bad "$name" "mosaic render failed: $(tail -n 3 "$tmp/out")"; return
    fi
    if ! "$ref" "$scene" --size "$size" --spp "$spp" --frames 1 --warmup 0 "$@" -o "$tmp/$name-llvmpipe.png" \
           --agree "$tmp/$name-mosaic.png" > "$tmp/out" 2>&1; then
        bad "$name" "mosaic-llvmpipe failed: $(tail -n 3 "$tmp/out")"; return
    fi
    line=$(grep '^agree ' "$tmp/out")
    pct=$(echo "$line" | sed -n 's/.* within_2=\([0-9.]*\)%.*/\1/p')
    off=$(echo "$line" | sed -n 's/.* off_edge=\([0-9]*\).*/\1/p')
    pixels=$(echo "$size" | awk -Fx '{ print $1 * $2 }')
    if awk -v a="$pct" -v o="$off" -v n="$pixels" 'BEGIN { exit !(a != "" && o != "" && a >= 99.5 && o <= n * 0.0002) }'
    then ok "${name}: within_2=$pct% off_edge=$off"
    else bad "$name" "within_2='$pct'% (need 99.5) off_edge='$off' (at most 0.02% of $pixels): $line"; fi
}

# The built-ins from shaders/: a textured floor with lit tori, spheres and pillars; the sampling modes.
agree default_1 scenes/default.scene 640x360 1 --glsl-builtins shaders
agree wrap_1 test/scenes/agree_wrap.scene 640x360 1 --glsl-builtins shaders
agree wrap_4 test/scenes/agree_wrap.scene 640x360 4 --glsl-builtins shaders
agree cutout_4 test/scenes/agree_cutout.scene 320x240 4 --glsl-builtins shaders

# llvmpipe's GLSL path against its twins of the native built-ins (same maths): the same image (max_abs <= 1).
if [ -f "$tmp/default_1-llvmpipe.png" ] &&
   "$ref" scenes/default.scene --size 640x360 --frames 1 --warmup 0 -o "$tmp/twins.png" > "$tmp/out" 2>&1; then
    d=$("$cli" diff "$tmp/twins.png" "$tmp/default_1-llvmpipe.png" 2>&1 | tail -n 1)
    m=$(echo "$d" | sed -n 's/.*max_abs=\([0-9]*\).*/\1/p')
    if [ -n "$m" ] && [ "$m" -le 1 ]; then ok "default_vs_twins: $d"; else bad default_vs_twins "$d"; fi
else
    bad default_vs_twins "no image: $(tail -n 3 "$tmp/out")"
fi

# Objects naming their own GLSL files, between native ones: a fragment shader that is none of the built-ins
# (texture at twice the frequency, tinted by the normal, discarded stripes) and a custom vertex shader.
block=$(sed -n '/^layout(std140/,/} u;/p' shaders/flat.frag)
cat > "$tmp/tint.frag" <<EOF
// tint.frag — the test's own shader: texture at twice the frequency, tinted by the normal, cut-out stripes.
#version 450

$block

layout(binding = 0) uniform sampler2D tex;

layout(location = 0) in vec3 v_normal;
layout(location = 1) in vec2 v_uv;

layout(location = 0) out vec4 color;

void main()
{
    if (fract(v_uv.x * 2.0) < 0.25)
        discard;
    vec3 n = normalize(v_normal);
    vec4 t = texture(tex, v_uv * 2.0);
    color = vec4(t.rgb * (0.5 + 0.5 * abs(n)), 1.0) * u.base_color;
}
EOF
cat > "$tmp/puff.vert" <<EOF
// puff.vert — the built-in vertex stage with the position pushed out along the normal.
#version 450

$block

layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 texcoord;

layout(location = 0) out vec3 v_normal;
layout(location = 1) out vec2 v_uv;

void main()
{
    gl_Position = u.mvp * vec4(position + 0.1 * normal, 1.0);
    v_normal = u.normal_matrix * normal;
    v_uv = texcoord;
}
EOF
cp shaders/builtin.vert shaders/lambert.frag "$tmp"/
tex=$(pwd)/scenes/textures
cat > "$tmp/mixed.scene" <<EOF
background 0.1 0.12 0.15
ambient 0.3 0.3 0.3
light 0.4 1.0 0.6   0.7 0.7 0.7
camera main
  eye    0 1.6 6
  target 0 0.6 0
  fov    50
  near   0.5
  far    100
end
object floor
  plane 40 40 4 4
  uv_scale 24 24
  texture $tex/tiles.png
  mip linear
end
object custom
  plane 1.6 1.6 1 1
  rotate 90 1 0 0
  translate -1.9 1.3 0
  uv_scale 3 3
  texture $tex/bricks.png
  shader tint.frag
end
object ball
  sphere 0.7 32 16
  translate 0 1.3 0
  shader lambert.frag puff.vert
end
object native
  plane 1.6 1.6 1 1
  rotate 90 1 0 0
  translate 1.9 1.3 0
  uv_scale 3 3
  texture $tex/bricks.png
end
EOF
agree custom_1 "$tmp/mixed.scene" 320x240 1
agree custom_4 "$tmp/mixed.scene" 320x240 4

# Broken shaders: exit status 1 (not a signal, not 0) and a message naming the file.
# expect_error NAME FILE DIR: mosaic-llvmpipe on agree_lambert with --glsl-builtins DIR fails naming FILE.
expect_error() {
    "$ref" test/scenes/agree_lambert.scene --size 64x64 --frames 1 --warmup 0 --glsl-builtins "$3" \
        > "$tmp/err.out" 2> "$tmp/err.err"
    rc=$?
    if [ "$rc" -eq 1 ] && grep -q "$2" "$tmp/err.err"; then
        ok "${1}: $(head -n 1 "$tmp/err.err")"
    else
        bad "$1" "exit $rc, stderr: $(head -n 3 "$tmp/err.err")"
    fi
}
mkdir -p "$tmp/syntax" "$tmp/v460"
cp shaders/builtin.vert shaders/*.frag "$tmp/syntax"/
cp shaders/builtin.vert shaders/*.frag "$tmp/v460"/
# A syntax error: the scene load (glslang) reports it, file:line.
sed 's/s += max/s += max(/' shaders/lambert.frag > "$tmp/syntax/lambert.frag"
expect_error syntax_error "$tmp/syntax/lambert.frag:" "$tmp/syntax"
# A file Mosaic takes and Mesa does not (GLSL 4.60, beyond llvmpipe's 4.5): Mesa's compile log, with the file.
sed 's/^#version 450/#version 460/' shaders/lambert.frag > "$tmp/v460/lambert.frag"
if "$cli" render test/scenes/agree_lambert.scene --size 64x64 --glsl-builtins "$tmp/v460" -o "$tmp/v460.png" \
       > /dev/null 2>&1; then
    if "$ref" test/scenes/agree_lambert.scene --size 64x64 --frames 1 --warmup 0 --glsl-builtins "$tmp/v460" \
           > /dev/null 2>&1; then
        echo "NOTE glsl_llvmpipe_mesa_error: this Mesa compiles #version 460; its error path is not exercised"
    else
        expect_error mesa_error "$tmp/v460/lambert.frag:[0-9]*([0-9]*): error" "$tmp/v460"
    fi
else
    echo "NOTE glsl_llvmpipe_mesa_error: Mosaic rejects #version 460; the Mesa error path is not exercised"
fi
expect_error missing_folder "$tmp/none/builtin.vert" "$tmp/none"

if [ $failed -ne 0 ] && [ -n "${MOSAIC_TEST_KEEP:-}" ]; then
    mkdir -p "$MOSAIC_TEST_KEEP" && cp "$tmp"/*.png "$MOSAIC_TEST_KEEP"/ && echo "NOTE images in $MOSAIC_TEST_KEEP"
fi
exit $failed
