#!/bin/sh
# test_bsp.sh — Quake 3 BSP maps (src/scene/bsp.c) through the CLI: a real
# OpenArena level loads, has its designer views and renders more than the
# background; broken inputs (missing .pk3, missing entry, not IBSP v46,
# truncated or corrupt lumps, random damage) give file:line:col errors and
# never a crash; the materials' images come from the game folder's archives
# (textures off: tinted), with their shader scripts, lightmaps and sky box,
# agreeing with llvmpipe.  Needs openarena-081-maps, openarena-081-textures,
# openarena-data (the shader scripts, pak0.pk3), unzip and zip (DEB_PKGS).
# Fed by run.sh: BUILD CLI.
build=${1:-build}
cli=${2:-$build/mosaic}
pk3=/usr/share/games/openarena/baseoa/pak1-maps.pk3
. test/lib_test.sh  # test_tmp, ok, bad, need
test_tmp bsp
need cli_built "$cli does not exist" -x "$cli"
need openarena_maps "$pk3 is missing (Debian package openarena-081-maps)" -r "$pk3"

# ---- a real level ---------------------------------------------------------
"$cli" render scenes/oa/oa_dm1.scene --size 320x180 --view 1 -o "$tmp/v1.png" \
    --stats-json "$tmp/v1.json" > "$tmp/r.out" 2>&1; rc=$?
tris=$(sed -n 's/.*"triangles_in": *\([0-9][0-9]*\).*/\1/p' "$tmp/v1.json" 2>/dev/null)
if [ $rc -ne 0 ]; then bad oa_dm1_render "exit $rc: $(tail -n 2 "$tmp/r.out")"
elif [ "${tris:-0}" -lt 5000 ]; then bad oa_dm1_render "triangles_in = '$tris', expected > 5000"
else ok "oa_dm1_render ($tris triangles)"
fi

# Views: intermission + six spawn points = 7 (indices 0..6; 7 is out of range).
"$cli" render scenes/oa/oa_dm1.scene --size 320x180 --view 6 -o "$tmp/v6.png" > /dev/null 2>&1; rc6=$?
"$cli" render scenes/oa/oa_dm1.scene --size 320x180 --view 7 -o "$tmp/v7.png" > /dev/null 2> "$tmp/v7.err"; rc7=$?
if [ $rc6 -eq 0 ] && [ $rc7 -ne 0 ]; then ok oa_dm1_views
else bad oa_dm1_views "--view 6 exit $rc6 (expected 0), --view 7 exit $rc7 (expected non-zero)"
fi
# The error names the valid range and the views.
if grep -q "view 7 does not exist: scenes/oa/oa_dm1.scene has 7 views, 0..6 (0 intermission, 1 spawn0, .*6 spawn5)" "$tmp/v7.err" &&
   [ ! -e "$tmp/v7.png" ]; then ok oa_dm1_view_range_message
else bad oa_dm1_view_range_message "stderr '$(head -c 300 "$tmp/v7.err")'"
fi

# Not just the background: compare with a scene that draws nothing but it.
printf 'background 0.42 0.5 0.62\n' > "$tmp/empty.scene"
"$cli" render "$tmp/empty.scene" --size 320x180 -o "$tmp/bg.png" > /dev/null 2>&1
d=$("$cli" diff "$tmp/v1.png" "$tmp/bg.png" 2>&1)
n=$(echo "$d" | sed -n 's/.*differing_pixels=\([0-9]*\).*/\1/p')
if [ "${n:-0}" -gt 28800 ]; then ok "oa_dm1_not_background ($n of 57600 pixels drawn)"
else bad oa_dm1_not_background "only '$n' pixels differ from the background ($d)"
fi
d=$("$cli" diff "$tmp/v1.png" "$tmp/v6.png" 2>&1)
case $d in
    *differing_pixels=0*) bad oa_dm1_views_differ "views 1 and 6 are identical" ;;
    *differing_pixels=*) ok oa_dm1_views_differ ;;
    *) bad oa_dm1_views_differ "diff said '$d'" ;;
esac

# Every shipped OpenArena scene loads (tiny frames).
for s in scenes/oa/*.scene; do
    if "$cli" render "$s" --size 64x36 -o "$tmp/s.png" > "$tmp/s.out" 2>&1; then ok "load_$(basename "$s" .scene)"
    else bad "load_$(basename "$s" .scene)" "$(tail -n 1 "$tmp/s.out")"
    fi
done

# ---- errors -----------------------------------------------------------------
# error_case NAME 'OBJECT LINES' 'EXPECTED STDERR PATTERN' (grep -E; the
# scene's path and "line:col: " come first)
error_case() {
    name=$1
    { printf 'light 0 1 0  1 1 1\n\nobject map\n'; printf '%s\n' "$2"; printf 'end\n'; } > "$tmp/$name.scene"
    "$cli" render "$tmp/$name.scene" --size 64x36 -o "$tmp/x.png" > /dev/null 2> "$tmp/e.err"; rc=$?
    if [ $rc -ge 128 ]; then bad "$name" "crashed (exit $rc)"
    elif [ $rc -ne 1 ]; then bad "$name" "exit $rc, expected 1"
    elif ! grep -qE "^(mosaic: )?$tmp/$name\.scene:$3" "$tmp/e.err"; then
        bad "$name" "stderr '$(head -c 300 "$tmp/e.err")' does not match '$3'"
    else ok "$name"
    fi
}

error_case err_missing_pk3 "  bsp $tmp/nope.pk3 maps/oa_dm1.bsp" \
    "4:7: cannot open '$tmp/nope.pk3': No such file or directory"
col=$((8 + ${#pk3}))
error_case err_missing_entry "  bsp $pk3 maps/no_such_map.bsp" \
    "4:$col: no entry 'maps/no_such_map.bsp' in '$pk3' \(its maps: maps/"
error_case err_pk3_without_entry "  bsp $pk3" "4:7: '$pk3': is a zip archive"
printf 'this is not a zip\n' > "$tmp/fake.pk3"
error_case err_not_zip "  bsp $tmp/fake.pk3 maps/oa_dm1.bsp" "4:7: '$tmp/fake.pk3' is not a zip archive"
error_case err_missing_bsp "  bsp $tmp/nope.bsp" "4:7: cannot open '$tmp/nope.bsp': No such file or directory"
error_case err_views_without_bsp "  box 1 1 1
  views" "6:1: object 'map': 'views' \(line 5\) applies to bsp maps only"
error_case err_fit_bsp "  bsp $pk3 maps/oa_dm1.bsp
  fit 10" "6:1: object 'map': 'fit' does not apply"
error_case err_patch_level "  bsp $pk3 maps/oa_dm1.bsp
  patch_level 0" "5:15: 0 is out of range 1..64"

error_case err_textures_value "  bsp $pk3 maps/oa_dm1.bsp
  textures maybe" "5:12: unknown textures value 'maybe'"
error_case err_textures_not_bsp "  sphere 1
  textures off" "6:1: object 'map': 'textures' \(line 5\) applies to bsp maps only"
error_case err_two_sided_not_mesh "  sphere 1
  two_sided" "6:1: object 'map': 'two_sided' \(line 5\) applies to mesh objects only"

# ---- the materials' images, from the game folder's archives ---------------
textures=/usr/share/games/openarena/baseoa/pak4-textures.pk3
"$cli" render scenes/oa/oa_dm3.scene --size 320x180 --view 2 -o "$tmp/t_on.png" --stats-json "$tmp/t_on.json" \
    > /dev/null 2> "$tmp/t_on.err"; rc_on=$?
sed 's/^  views$/  views\n  textures off/' scenes/oa/oa_dm3.scene > "$tmp/t_off.scene"
"$cli" render "$tmp/t_off.scene" --size 320x180 --view 2 -o "$tmp/t_off.png" --stats-json "$tmp/t_off.json" \
    > /dev/null 2> "$tmp/t_off.err"; rc_off=$?
w_on=$(sed -n 's/.*"scene_warnings": *\([0-9]*\).*/\1/p' "$tmp/t_on.json" 2>/dev/null)
w_off=$(sed -n 's/.*"scene_warnings": *\([0-9]*\).*/\1/p' "$tmp/t_off.json" 2>/dev/null)
d=$("$cli" diff "$tmp/t_on.png" "$tmp/t_off.png" 2>&1)
n=$(echo "$d" | sed -n 's/.*differing_pixels=\([0-9]*\).*/\1/p')
if [ ! -r "$textures" ]; then
    bad textures_from_pk3 "$textures is missing (Debian package openarena-081-textures, make deps)"
elif [ $rc_on -ne 0 ] || [ $rc_off -ne 0 ]; then
    bad textures_from_pk3 "exit $rc_on / $rc_off: $(tail -n 1 "$tmp/t_on.err") $(tail -n 1 "$tmp/t_off.err")"
elif [ "${n:-0}" -lt 14400 ]; then
    bad textures_from_pk3 "textured and tinted renders differ in '$n' of 57600 pixels ($d)"
elif [ "$w_off" != 0 ]; then
    bad textures_from_pk3 "'textures off' gave $w_off warnings"
elif grep -q "have no image" "$tmp/t_on.err" ||
     ! grep -q "warning: [0-9]* of 37 materials' shader scripts ask for what Mosaic does not draw: " "$tmp/t_on.err"; then
    bad textures_from_pk3 "expected every material textured and one warning on the scripts, got $w_on: $(head -c 300 "$tmp/t_on.err")"
else
    ok "textures_from_pk3 ($n of 57600 pixels differ from the tinted map)"
fi

# Damaged copies of a real map.
if ! unzip -p "$pk3" maps/oa_dm1.bsp > "$tmp/good.bsp" 2> /dev/null || [ ! -s "$tmp/good.bsp" ]; then
    bad extract "unzip -p $pk3 maps/oa_dm1.bsp failed (is unzip installed?)"
    exit 1
fi
size=$(wc -c < "$tmp/good.bsp")
printf 'object map\n  bsp %s\n  views\nend\n' "$tmp/good.bsp" > "$tmp/bare.scene"
"$cli" render "$tmp/bare.scene" --size 64x36 --view 6 -o "$tmp/bare.png" --stats-json "$tmp/bare.json" \
    > "$tmp/b.out" 2>&1; rc=$?
btris=$(sed -n 's/.*"triangles_in": *\([0-9][0-9]*\).*/\1/p' "$tmp/bare.json" 2>/dev/null)
if [ $rc -ne 0 ]; then bad bare_bsp "exit $rc: $(tail -n 1 "$tmp/b.out")"
elif [ "$btris" != "$tris" ]; then bad bare_bsp "$btris triangles from the bare .bsp, $tris from the .pk3"
else ok bare_bsp
fi
# A bare map with no archives around it: every material tinted, one warning naming what was looked for
# and where, with no package hint (the folder is no known game's).
if grep -q "warning: 28 of 28 materials have no image and are drawn tinted: .*; looked for their shader scripts (scripts/NAME.shader) and images (.tga, .jpg, .jpeg, .png) in the 0 .pk3 archives of '$tmp'$" "$tmp/b.out"; then
    ok bare_bsp_no_archives
else bad bare_bsp_no_archives "stderr '$(head -c 400 "$tmp/b.out")'"
fi
# In an OpenArena game folder (baseoa/maps/) the warning names Debian's packages.
mkdir -p "$tmp/baseoa/maps"
cp "$tmp/good.bsp" "$tmp/baseoa/maps/x.bsp"
printf 'object map\n  bsp %s\nend\n' "$tmp/baseoa/maps/x.bsp" > "$tmp/oa.scene"
"$cli" render "$tmp/oa.scene" --size 64x36 -o "$tmp/oa.png" > "$tmp/oa.out" 2>&1
if grep -q "in the 0 .pk3 archives of '$tmp/baseoa' (Debian's openarena-081-textures and openarena-data hold OpenArena's images and shader scripts)$" "$tmp/oa.out"; then
    ok warning_names_openarena_packages
else bad warning_names_openarena_packages "stderr '$(head -c 400 "$tmp/oa.out")'"
fi

# ---- shader scripts, lightmaps, sky -------------------------------------------------
# Every shipped OpenArena scene: no material drawn tinted (their images and scripts are in Debian's
# packages), the map lit by its lightmaps (a 'shader' line, here the GLSL textured shader, turns them off
# and changes most pixels), and what the scripts ask that is not drawn in one warning.
for s in scenes/oa/*.scene; do
    b=$(basename "$s" .scene)
    "$cli" render "$s" --size 160x90 --view 1 -o "$tmp/lm_on.png" > "$tmp/lm.out" 2>&1
    sed "s|^  views\$|  views\n  shader $PWD/shaders/textured.frag|" "$s" > "$tmp/lm_off.scene"
    "$cli" render "$tmp/lm_off.scene" --size 160x90 --view 1 -o "$tmp/lm_off.png" > /dev/null 2>&1
    n=$("$cli" diff "$tmp/lm_on.png" "$tmp/lm_off.png" 2>&1 | sed -n 's/.*differing_pixels=\([0-9]*\).*/\1/p')
    tinted=$(sed -n 's/.*warning: \([0-9]*\) of [0-9]* materials have no image.*/\1/p' "$tmp/lm.out")
    scripts=$(grep -c "materials' shader scripts ask for what Mosaic does not draw: " "$tmp/lm.out")
    if [ -n "$tinted" ]; then bad "scripts_$b" "$tinted materials drawn tinted: $(grep 'no image' "$tmp/lm.out" | head -c 300)"
    elif [ "$scripts" != 1 ]; then bad "scripts_$b" "expected one warning on the scripts: $(head -c 300 "$tmp/lm.out")"
    elif [ "${n:-0}" -lt 7200 ]; then bad "lightmaps_$b" "with and without lightmaps only $n of 14400 pixels differ"
    else ok "scripts_lightmaps_$b (tinted materials: 0; $n of 14400 pixels differ from the unlit map)"
    fi
done
# The sky box stands behind everything: where oa_dm4's view 2 sees the sky (through the roof above the
# lava; without the sky box 52 pixels there show the background), no pixel keeps the background colour
# (magenta here).
sed 's/^background .*/background 1 0 1/' scenes/oa/oa_dm4.scene > "$tmp/sky.scene"
printf 'background 1 0 1\n' > "$tmp/magenta.scene"
"$cli" render "$tmp/sky.scene" --size 160x90 --view 2 -o "$tmp/sky.png" > /dev/null 2>&1
"$cli" render "$tmp/magenta.scene" --size 160x90 -o "$tmp/magenta.png" > /dev/null 2>&1
n=$("$cli" diff "$tmp/sky.png" "$tmp/magenta.png" 2>&1 | sed -n 's/.*differing_pixels=\([0-9]*\).*/\1/p')
if [ "${n:-0}" = 14400 ]; then ok sky_box_behind_everything
else bad sky_box_behind_everything "$((14400 - ${n:-0})) pixels show the background"
fi
# Hostile scripts in a game folder's archive: the map loads, the malformed shaders are reported with
# file:line:col in one warning, a good shader after them still applies (its image, no tint).
mkdir -p "$tmp/game/maps"
cp "$tmp/good.bsp" "$tmp/game/maps/x.bsp"
mat=$(grep -a -o -m 1 'textures/gothic_block/[a-z_0-9]*' "$tmp/good.bsp" | head -n 1)  # a material of the map
mkdir -p "$tmp/zip/scripts" "$tmp/zip/textures"
{ printf 'textures/x\n{\n  {\n    map x.tga\n    {\n  }\n}\n"'; head -c 400 /dev/zero | tr '\0' q; } \
    > "$tmp/zip/scripts/a_bad.shader"
printf '// /* not a comment start\n%s\n{\n\t{ map textures/red.tga }\n\t{ map $lightmap blendfunc filter }\n}\n' "$mat" \
    > "$tmp/zip/scripts/b_good.shader"
printf '\000\000\002\000\000\000\000\000\000\000\000\000\001\000\001\000\030\000\000\000\377' > "$tmp/zip/textures/red.tga"
(cd "$tmp/zip" && zip -q -r ../game/z.pk3 scripts textures)
printf 'object map\n  bsp %s\nend\n' "$tmp/game/maps/x.bsp" > "$tmp/game.scene"
"$cli" render "$tmp/game.scene" --size 64x36 -o "$tmp/game.png" > "$tmp/game.out" 2>&1; rc=$?
if [ $rc -ne 0 ]; then bad hostile_scripts "exit $rc: $(tail -n 2 "$tmp/game.out")"
elif ! grep -q "malformed shader.* in the scripts of '$tmp/game' not read (the first: scripts/a_bad.shader:[0-9]*:[0-9]*: " "$tmp/game.out"; then
    bad hostile_scripts "no file:line:col warning: $(head -c 400 "$tmp/game.out")"
elif ! grep -q "warning: 27 of 28 materials have no image" "$tmp/game.out"; then
    bad hostile_scripts "the good script's image was not applied: $(head -c 400 "$tmp/game.out")"
else ok hostile_scripts
fi

# Agreement with llvmpipe (bench/llvmpipe) on every OpenArena scene with its lightmaps, scripts and sky:
# >= 99.5% of pixels within 2/255.
ref=$build/mosaic-llvmpipe
if [ -f /usr/include/GL/osmesa.h ] && make --no-print-directory -f bench/bench.mk BUILD="$build" llvmpipe > "$tmp/lp.log" 2>&1; then
    set --
    for s in scenes/oa/*.scene; do set -- "$@" --scene "$s"; done
    "$cli" bench --vs llvmpipe --llvmpipe "$ref" "$@" --size 320x180 --threads 2 --spp 1 --frames 1 --warmup 0 \
        --no-plots --out "$tmp/agree" > "$tmp/agree.out" 2> "$tmp/agree.err"
    n=$(grep -c '^ratio scene=' "$tmp/agree.out")
    [ "$n" -eq 6 ] || bad llvmpipe_agreement "expected 6 scenes, got $n: $(tail -n 3 "$tmp/agree.err")"
    grep '^ratio scene=' "$tmp/agree.out" | while read -r line; do
        sc=$(echo "$line" | sed -n 's/^ratio scene=\([^ ]*\) .*/\1/p')
        agree=$(echo "$line" | sed -n 's/.* agree=\([0-9.]*\)%.*/\1/p')
        if awk -v a="$agree" 'BEGIN { exit !(a >= 99.5) }'; then echo "PASS llvmpipe_agreement_lit_$sc: within_2=$agree%"
        else echo "FAIL llvmpipe_agreement_lit_$sc: within_2=$agree% (need 99.5)"
        fi
    done | tee "$tmp/agree.verdicts"
    grep -q '^FAIL' "$tmp/agree.verdicts" && failed=1
else
    echo "SKIP llvmpipe_agreement_lit: libosmesa6-dev not installed or the reference did not build"
fi

head -c 100 "$tmp/good.bsp" > "$tmp/short.bsp"
error_case err_short_header "  bsp $tmp/short.bsp" "4:7: '$tmp/short.bsp': truncated: 100 bytes, shorter than the 144-byte BSP header"
head -c $((size / 2)) "$tmp/good.bsp" > "$tmp/half.bsp"
error_case err_truncated "  bsp $tmp/half.bsp" "4:7: '$tmp/half.bsp': truncated or corrupt: lump [0-9]+ \([a-z ]+\) at offset"
{ printf 'VBSP'; tail -c +5 "$tmp/good.bsp"; } > "$tmp/magic.bsp"
error_case err_magic "  bsp $tmp/magic.bsp" "4:7: '$tmp/magic.bsp': not a Quake 3 BSP \(magic 'VBSP'"
{ printf 'IBSP\057\000\000\000'; tail -c +9 "$tmp/good.bsp"; } > "$tmp/v47.bsp"
error_case err_version "  bsp $tmp/v47.bsp" "4:7: '$tmp/v47.bsp': IBSP version 47; only version 46"

# Spawn classes of other Quake 3-engine games: the deathmatch spawns renamed
# info_player_team1 and the intermission point hidden (same lengths, padded
# with blanks the entity parser skips) still give six spawn views.
perl -0777 -pe 's/info_player_deathmatch"/info_player_team1"     /g; s/info_player_intermission"/info_notnull"            /g' \
    "$tmp/good.bsp" > "$tmp/team.bsp"
printf 'object map\n  bsp %s\n  views\nend\n' "$tmp/team.bsp" > "$tmp/team.scene"
if "$cli" render "$tmp/team.scene" --size 64x36 --view 5 -o "$tmp/team.png" > "$tmp/t.out" 2>&1; then ok spawn_team_classes
else bad spawn_team_classes "$(tail -n 1 "$tmp/t.out")"
fi
# No class it knows: the error names the classes looked for and those present.
perl -0777 -pe 's/info_player_deathmatch"/misc_teleporter_dest"  /g; s/info_player_start"/info_notnull"     /g;
                s/info_player_intermission"/info_notnull"            /g' \
    "$tmp/good.bsp" > "$tmp/nospawn.bsp"
error_case err_no_views "  bsp $tmp/nospawn.bsp
  views" "4:7: '$tmp/nospawn.bsp': no view in the entities: looked for info_player_intermission, info_intermission and spawn points \\(info_player_deathmatch, .*team_CTF_.*\\); the map has .*misc_teleporter_dest.*info_notnull"

# Face 0's texture index set to -1: find the faces lump (directory entry 13).
faces=$(od -An -tu4 -j112 -N4 "$tmp/good.bsp" | tr -d ' ')
cp "$tmp/good.bsp" "$tmp/face.bsp"
printf '\377\377\377\377' | dd of="$tmp/face.bsp" bs=1 seek="$faces" conv=notrunc 2> /dev/null
error_case err_face_texture "  bsp $tmp/face.bsp" "4:7: '$tmp/face.bsp': corrupt: face 0 uses texture -1 of [0-9]+"
# Face 0's first mesh index (meshvert) moved far out of range.
cp "$tmp/good.bsp" "$tmp/mv.bsp"
printf '\000\000\000\100' | dd of="$tmp/mv.bsp" bs=1 seek=$((faces + 20)) conv=notrunc 2> /dev/null
error_case err_face_meshverts "  bsp $tmp/mv.bsp" "4:7: '$tmp/mv.bsp': corrupt: face 0's (mesh indices|vertices)"

# Random damage: 40 copies with 16 bytes overwritten at pseudo-random places
# in the first 64 KiB (header, entities, early lumps): load or fail, never crash.
awk -v n=40 -v size="$size" 'BEGIN { srand(7); for (i = 0; i < n; i++) print int(rand() * (size < 65536 ? size : 65536)), int(rand() * 256) }' \
    > "$tmp/fuzz.txt"
crashes=0; i=0
while read -r off byte; do
    cp "$tmp/good.bsp" "$tmp/fz.bsp"
    oct=$(printf '%03o' "$byte")
    printf "\\$oct\\$oct\\$oct\\$oct\\$oct\\$oct\\$oct\\$oct\\$oct\\$oct\\$oct\\$oct\\$oct\\$oct\\$oct\\$oct" \
        | dd of="$tmp/fz.bsp" bs=1 seek="$off" conv=notrunc 2> /dev/null
    printf 'object map\n  bsp %s\n  views\nend\n' "$tmp/fz.bsp" > "$tmp/fz.scene"
    "$cli" render "$tmp/fz.scene" --size 64x36 -o "$tmp/fz.png" > /dev/null 2> "$tmp/fz.err"; rc=$?
    i=$((i + 1))
    if [ $rc -ge 2 ] || { [ $rc -eq 1 ] && ! grep -q "fz.scene:[0-9]*:[0-9]*: " "$tmp/fz.err"; }; then
        crashes=$((crashes + 1))
        echo "NOTE fuzz case $i (offset $off, byte $byte): exit $rc: $(head -c 200 "$tmp/fz.err")"
    fi
done < "$tmp/fuzz.txt"
if [ $crashes -eq 0 ]; then ok "fuzz_no_crash ($i damaged maps)"
else bad fuzz_no_crash "$crashes of $i damaged maps crashed or failed without a file:line:col message"
fi

exit $failed
