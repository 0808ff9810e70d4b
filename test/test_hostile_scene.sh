#!/bin/sh
# test_hostile_scene.sh — hostile meshes, shaders and textures through the scene loader and the CLI
# (issue 29): PLY and OFF headers declaring billions of elements in a few hundred bytes (assimp
# allocated 6-24 GB for them), glTF node hierarchies and JSON nested 20,000+ deep (assimp's stack),
# the implicit builtin.vert beside a fragment shader and other files that are FIFOs (a load that
# hung), and one 4096x4096 texture named through 40 spellings of its path (decoded 40 times).  Each
# ends with a clear "file:line:col: ..." message naming the construct and the limit, or renders,
# within 60 s, without a sanitizer report, under 1 GB of resident memory (/usr/bin/time, Debian
# package time, when present).
# Fed by run.sh: BUILD CLI.  Inputs: test/hostile/scene/ (small files); the big ones are made here.
build=${1:-build}
cli=${2:-$build/mosaic}
case $cli in /*) ;; *) cli=$(pwd)/$cli ;; esac
here=$(pwd)
. test/lib_test.sh  # test_tmp, ok, bad, need
test_tmp hostile-scene
inputs=$here/test/hostile/scene
need cli_built "$cli does not exist" -x "$cli"
to="timeout -k 5 60"
command -v timeout > /dev/null 2>&1 || to=""
rss=""
[ -x /usr/bin/time ] && rss="/usr/bin/time -o $tmp/rss -f %M"
max_kb=1048576

# expect NAME EXIT 'STDERR PATTERN (grep -E)' CMD...: runs CMD (from $tmp) under the 60 s limit and
# checks its exit status, its message, that no sanitizer spoke and that it stayed under 1 GB.
expect() {
    name=$1 want=$2 pat=$3
    shift 3
    rm -f "$tmp/rss"
    (cd "$tmp" && $to $rss "$@" > "$tmp/out" 2> "$tmp/err"); rc=$?
    kb=$(tail -n 1 "$tmp/rss" 2> /dev/null)
    case $kb in *[!0-9]*|"") kb=0 ;; esac
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then bad "$name" "did not finish in 60 s"
    elif [ $rc -ne "$want" ]; then bad "$name" "exit $rc, expected $want: $(head -c 400 "$tmp/err")"
    elif [ -n "$pat" ] && ! grep -qE "$pat" "$tmp/err"; then bad "$name" "stderr '$(head -c 400 "$tmp/err")' does not match '$pat'"
    elif grep -qE 'Sanitizer|runtime error' "$tmp/err"; then bad "$name" "sanitizer report: $(grep -m 1 -E 'Sanitizer|runtime error' "$tmp/err")"
    elif [ "$kb" -gt $max_kb ]; then bad "$name" "resident memory $kb kB, over $max_kb kB"
    else ok "$name${rss:+ ($kb kB)}"
    fi
}

# mesh_scene NAME FILE: NAME.scene holding one object whose mesh is FILE (line 2, column 8).
mesh_scene() {
    printf 'object x\n  mesh %s\nend\n' "$2" > "$tmp/$1.scene"
}
render() { expect "$1" "$2" "$3" "$cli" render "$4" --size 48x48 -o "$tmp/o.png"; }

# ---- defect 4: declared counts that the file cannot hold ------------------------------------
cp "$inputs"/ply_huge_ascii.ply "$inputs"/ply_huge_bin.ply "$inputs"/ply_huge_list.ply "$tmp/"
mesh_scene ply_ascii ply_huge_ascii.ply
render ply_ascii_declared_count 1 \
    "^mosaic: ply_ascii.scene:2:8: 'ply_huge_ascii.ply': PLY declares 2000000000 vertices \(at least 6 bytes each\) but the file is only 198 bytes$" \
    ply_ascii.scene
mesh_scene ply_bin ply_huge_bin.ply
render ply_binary_declared_count 1 \
    "^mosaic: ply_bin.scene:2:8: 'ply_huge_bin.ply': PLY declares 2000000000 vertices \(at least 12 bytes each\) but the file is only 236 bytes$" \
    ply_bin.scene
# The same header under a name without an extension: assimp asks its importers, the PLY one claims
# it by its bytes, so the check goes by them too.
cp "$tmp/ply_huge_bin.ply" "$tmp/renamed"
mesh_scene ply_renamed renamed
render ply_by_content 1 "^mosaic: ply_renamed.scene:2:8: 'renamed': PLY declares 2000000000 vertices" ply_renamed.scene
# A .ply whose header never ends (\"end_hea\"): assimp's PLY reader read the file again and again
# forever (found by fuzz_mesh).
cp "$here/test/fuzz/regress/mesh/ply_header_unterminated_hang.ply" "$tmp/hang.ply"
mesh_scene ply_hang hang.ply
render ply_header_unterminated 1 "^mosaic: ply_hang.scene:2:8: 'hang.ply': PLY header line 1 is malformed$" ply_hang.scene
# Faces the file could hold but the per-mesh cap does not allow.
{ printf 'ply\nformat binary_little_endian 1.0\nelement vertex 0\nproperty float x\nelement face 40000000\n'
  printf 'property list uchar int vertex_indices\nend_header\n'; } > "$tmp/faces.ply"
dd if=/dev/zero bs=1000000 count=40 2> /dev/null >> "$tmp/faces.ply"
mesh_scene ply_cap faces.ply
render ply_face_cap 1 "^mosaic: ply_cap.scene:2:8: 'faces.ply': PLY declares 40000000 faces; at most 33554432 are allowed \(the triangle cap per mesh\)$" \
    ply_cap.scene
# A face whose index list declares 4e9 items (assimp reserved 32 GB for it: ASan's out-of-memory
# report), in binary and in ascii: the data is walked before assimp reads it.
mesh_scene ply_list ply_huge_list.ply
render ply_list_count 1 \
    "^mosaic: ply_list.scene:2:8: 'ply_huge_list.ply': PLY face 0 lists 4294967295 items \(4 bytes each\) but only 12 bytes follow$" \
    ply_list.scene
printf 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uint int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n4000000000 0 1 2\n' > "$tmp/list.ply"
mesh_scene ply_list_ascii list.ply
render ply_list_count_ascii 1 \
    "^mosaic: ply_list_ascii.scene:2:8: 'list.ply': PLY face 0 lists 4000000000 items \(4 bytes each\) but only 7 bytes follow$" \
    ply_list_ascii.scene
# assimp's own test file invalid/OutOfMemory.off (353535235358 vertices) ran past 60 s.
printf 'OFF\n353535235358 6 0\n' > "$tmp/oom.off"
mesh_scene off_oom oom.off
render off_vertex_cap 1 \
    "^mosaic: off_oom.scene:2:8: 'oom.off': OFF declares 353535235358 vertices and 6 faces; at most 100663296 and 33554432 are allowed$" \
    off_oom.scene
# OFF: the counts on its second line (assimp took 1.6 GB, then aborted on an assertion, for this 50-byte file).
printf 'OFF\n30000000 30000000 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n' > "$tmp/big.off"
mesh_scene off big.off
render off_declared_count 1 \
    "^mosaic: off.scene:2:8: 'big.off': OFF declares 30000000 vertices and 30000000 faces but the file is only 50 bytes$" off.scene
# A face naming a vertex the file does not have: assimp's importer left an empty face, its
# Triangulate step then aborted the process (ai_assert; found by fuzz_mesh).
cp "$here/test/fuzz/regress/mesh/ply_face_past_vertices_ai_assert.ply" "$tmp/empty_face.ply"
mesh_scene ply_empty_face empty_face.ply
render ply_empty_face 1 "^mosaic: ply_empty_face.scene:2:8: cannot import 'empty_face.ply': mesh 0 face 0 has no vertex indices$" \
    ply_empty_face.scene
# An OFF whose lines do not match its counts: assimp's OFF importer left faces half made and its
# ScenePreprocessor read past them (SIGSEGV; found by fuzz_mesh).  Only well-formed OFF goes on.
cp "$here/test/fuzz/regress/mesh/off_half_made_faces_preprocessor_segv.off" "$tmp/half.off"
mesh_scene off_half half.off
render off_half_made_faces 1 \
    "^mosaic: off_half.scene:2:8: 'half.off': OFF face 0 \(line 11\) is not a count and that many vertex indices$" off_half.scene
# Two 'element vertex' lines: assimp built one mesh of both and freed it wrongly ("double free or
# corruption", SIGABRT; found by fuzz_mesh).
cp "$here/test/fuzz/regress/mesh/ply_element_twice_bad_free.ply" "$tmp/twice.ply"
mesh_scene ply_twice twice.ply
render ply_element_twice 1 "^mosaic: ply_twice.scene:2:8: 'twice.ply': PLY header line 10 declares element 'vertex' a second time$" \
    ply_twice.scene
# A small valid PLY still renders.
printf 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n' > "$tmp/tri.ply"
mesh_scene ply_ok tri.ply
render ply_small_renders 0 "" ply_ok.scene

# ---- defect 5: nesting that assimp recurses over --------------------------------------------
# gltf_chain FILE N: a glTF whose N nodes each hold the next as their only child.
gltf_chain() {
    awk -v n="$2" 'BEGIN {
        printf "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
        printf "\"buffers\":[{\"uri\":\"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA\",\"byteLength\":36}],"
        printf "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36}],"
        printf "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]}],"
        printf "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],\"nodes\":["
        for (i = 0; i < n; i++) {
            printf "%s{\"mesh\":0", i ? "," : ""
            if (i + 1 < n) printf ",\"children\":[%d]", i + 1
            printf "}"
        }
        printf "]}\n"
    }' > "$1"
}
gltf_chain "$tmp/deep.gltf" 20001
mesh_scene gltf_deep deep.gltf
render gltf_deep_nodes 1 \
    "^mosaic: gltf_deep.scene:2:8: 'deep.gltf': glTF node hierarchy is 20001 levels deep; at most 1000 are allowed$" gltf_deep.scene
gltf_chain "$tmp/d1000.gltf" 1000
mesh_scene gltf_1000 d1000.gltf
render gltf_1000_levels_render 0 "" gltf_1000.scene
# glTF 1: nodes keyed by id, children by id.
awk -v n=20001 'BEGIN {
    printf "{\"asset\":{\"version\":\"1.0\"},\"scene\":\"s\",\"scenes\":{\"s\":{\"nodes\":[\"n0\"]}},\"nodes\":{"
    for (i = 0; i < n; i++) {
        printf "%s\"n%d\":{", i ? "," : "", i
        if (i + 1 < n) printf "\"children\":[\"n%d\"]", i + 1
        printf "}"
    }
    printf "}}\n"
}' > "$tmp/deep1.gltf"
mesh_scene gltf1_deep deep1.gltf
render gltf1_deep_nodes 1 \
    "^mosaic: gltf1_deep.scene:2:8: 'deep1.gltf': glTF node hierarchy is 20001 levels deep; at most 1000 are allowed$" gltf1_deep.scene
# The same hierarchy in a GLB (its JSON chunk).
le32() { printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"; }
json_len=$(wc -c < "$tmp/deep.gltf")
pad=$(( (4 - json_len % 4) % 4 ))
{ printf 'glTF'; le32 2; le32 $((12 + 8 + json_len + pad)); le32 $((json_len + pad)); printf 'JSON'
  cat "$tmp/deep.gltf"; printf '%*s' $pad ''; } > "$tmp/deep.glb"
mesh_scene glb_deep deep.glb
render glb_deep_nodes 1 "^mosaic: glb_deep.scene:2:8: 'deep.glb': glTF node hierarchy is 20001 levels deep; at most 1000 are allowed$" \
    glb_deep.scene
# A 710-byte GLB whose JSON chunk claims 4 GB: assimp allocated it (4.2 GB resident, 4.9 s) before
# finding the file too short (found by fuzz_mesh).
cp "$here/test/fuzz/regress/mesh/glb_json_chunk_4gb.glb" "$tmp/chunk.glb"
mesh_scene glb_chunk chunk.glb
render glb_json_chunk_length 1 \
    "^mosaic: glb_chunk.scene:2:8: 'chunk.glb': binary glTF declares 4294378044 bytes of JSON but the file is only 710 bytes$" \
    glb_chunk.scene
# JSON nested deeper than anything a glTF needs: assimp's rapidjson parses recursively (2e6 levels,
# 4 MB: SIGSEGV before this work).
awk 'BEGIN { printf "{\"asset\":{\"version\":\"2.0\"},\"extras\":"; for (i = 0; i < 2000000; i++) printf "["; for (i = 0; i < 2000000; i++) printf "]"; printf "}\n" }' > "$tmp/nest.gltf"
mesh_scene json_nest nest.gltf
render gltf_json_nesting 1 "^mosaic: json_nest.scene:2:8: 'nest.gltf': JSON nested 2000001 levels deep; at most 1000 are read$" json_nest.scene

# ---- defect 6: files that are not regular files ---------------------------------------------
mkdir "$tmp/fifo"
cp "$here/shaders/lambert.frag" "$tmp/fifo/"
mkfifo "$tmp/fifo/builtin.vert" "$tmp/fifo/tex.png" "$tmp/fifo/mesh.obj" "$tmp/fifo/fifo.scene"
printf 'object p\n  plane 2 2\n  shader lambert.frag\nend\n' > "$tmp/fifo/implicit.scene"
render builtin_vert_fifo 1 \
    "^mosaic: fifo/implicit.scene:3:10: path 'fifo/builtin.vert' is not a regular file \(a scene reads only those\)$" fifo/implicit.scene
printf 'object p\n  plane 2 2\n  shader textured\n  texture tex.png\nend\n' > "$tmp/fifo/tex.scene"
render texture_fifo 1 "^mosaic: fifo/tex.scene:4:11: path 'fifo/tex.png' is not a regular file" fifo/tex.scene
printf 'object p\n  mesh mesh.obj\nend\n' > "$tmp/fifo/mesh.scene"
render mesh_fifo 1 "^mosaic: fifo/mesh.scene:2:8: path 'fifo/mesh.obj' is not a regular file" fifo/mesh.scene
render scene_fifo 1 "^mosaic: fifo/fifo.scene:1:1: cannot open scene file: path 'fifo/fifo.scene' is not a regular file" fifo/fifo.scene
# An OBJ whose mtllib is a FIFO: assimp's own opens go through the same door (the material is
# missing, the mesh still renders).
mkdir "$tmp/mtl"
mkfifo "$tmp/mtl/m.mtl"
printf 'mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl a\nf 1 2 3\n' > "$tmp/mtl/t.obj"
printf 'object p\n  mesh t.obj\nend\n' > "$tmp/mtl/t.scene"
render mtllib_fifo 0 "" mtl/t.scene

# ---- defect 8: one texture file under many spellings ----------------------------------------
# A 4096x4096 PNG (the CLI renders it: 64 MiB of texels, 85 MiB with mip levels), named as
# big.png, ./big.png, ././big.png, ... by 40 objects: one image, not 40 (3.4 GB before).
printf 'camera c\n  eye 0 0 3\nend\nobject q\n  plane 2 2\n  rotate 90 1 0 0\nend\n' > "$tmp/plane.scene"
if (cd "$tmp" && $to "$cli" render plane.scene --size 4096x4096 -o big.png > /dev/null 2>&1); then
    {
        printf 'camera c\n  eye 0 3 3\nend\n'
        i=0 p=big.png
        while [ $i -lt 40 ]; do
            printf 'object o%d\n  plane 1 1\n  shader textured\n  texture %s\nend\n' $i "$p"
            p=./$p i=$((i + 1))
        done
    } > "$tmp/alias.scene"
    render texture_aliases_one_image 0 "" alias.scene
else
    bad texture_aliases_one_image "could not render the 4096x4096 texture"
fi

exit $failed
