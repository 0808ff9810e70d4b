/* fuzz_mesh.c — libFuzzer target: the input as a mesh file (PLY, OBJ, glTF, GLB, OFF, STL) imported through
 * scene_load_ex, sandboxed to the harness's temporary folder, with a triangle budget: the header checks
 * before assimp (src/scene/precheck.c), assimp itself and the import.  Run by `make fuzz` (with
 * -rss_limit_mb=1024: a file that makes assimp allocate for counts it does not hold is a finding) and
 * test/test_fuzz.sh (replay_main.c without clang).
 *
 * The format: an input whose first byte is 1..6 names it (.ply .obj .gltf .glb .off .stl; the rest is
 * the file, so any bytes meet any importer); otherwise the bytes say it, as assimp would find (ply,
 * '{', glTF, OFF, solid; else OBJ).  The sandbox holds what a mesh may name: mesh.mtl, tex.png,
 * tri.bin (a triangle's 36 bytes of positions), and two traps it must refuse: escape.png, a link to a
 * file outside, and fifo.bin, a FIFO that would block a reader forever. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "scene/scene.h"

#define FUZZ_MAX_TRIANGLES (1u << 20)

static const char *const exts[] = { "ply", "obj", "gltf", "glb", "off", "stl" };
#define EXT_COUNT (sizeof exts / sizeof exts[0])

static void setup(void)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("tex.png", fuzz_png_4x4, sizeof fuzz_png_4x4, path);
    fuzz_write("mesh.mtl", fuzz_mtl, strlen(fuzz_mtl), path);
    const float tri[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
    fuzz_write("tri.bin", tri, sizeof tri, path);
    for (size_t i = 0; i < EXT_COUNT; i++) {
        char name[32], text[64];
        snprintf(name, sizeof name, "m_%s.scene", exts[i]);
        int n = snprintf(text, sizeof text, "object m\n  mesh m.%s\nend\n", exts[i]);
        fuzz_write(name, text, (size_t)n, path);
    }
    fuzz_traps("fifo.bin");
}

/* The extension the bytes ask for (index into exts). */
static size_t by_content(const uint8_t *d, size_t n)
{
    size_t lead = 0;
    while (lead < n && (d[lead] == ' ' || d[lead] == '\t' || d[lead] == '\r' || d[lead] == '\n'))
        lead++;
    if (n >= 3 && !memcmp(d, "ply", 3))
        return 0;
    if (lead < n && d[lead] == '{')
        return 2;
    if (n >= 4 && !memcmp(d, "glTF", 4))
        return 3;
    if (n >= 3 && (!memcmp(d, "OFF", 3) || (n >= 4 && !memcmp(d + 1, "OFF", 3))))
        return 4;
    if (n >= 5 && !memcmp(d, "solid", 5))
        return 5;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_once(setup);
    size_t ext;
    if (size > 0 && data[0] >= 1 && data[0] <= EXT_COUNT) {
        ext = data[0] - 1u;
        data++;
        size--;
    } else {
        ext = by_content(data, size);
    }
    char name[32], path[FUZZ_PATH_MAX], err[1024];
    snprintf(name, sizeof name, "m.%s", exts[ext]);
    fuzz_write(name, data, size, path);
    snprintf(path, sizeof path, "%s/m_%s.scene", fuzz_dir(), exts[ext]);
    scene_load_opts opts = { .sandbox_dir = fuzz_dir(), .max_triangles = FUZZ_MAX_TRIANGLES,
                             .max_texture_bytes = 64u << 20 };
    scene *s;
    if (scene_load_ex(path, &opts, &s, err, sizeof err) != MOS_OK) {
        fuzz_check_error("fuzz_mesh", err, path);
        return 0;
    }
    if (scene_triangle_count(s) > FUZZ_MAX_TRIANGLES) {
        fprintf(stderr, "fuzz_mesh: %llu triangles\n", (unsigned long long)scene_triangle_count(s));
        abort();
    }
    if (fuzz_verbose())
        fprintf(stderr, "fuzz_mesh: .%s: %d objects, %d meshes, %llu triangles, %d warnings\n", exts[ext],
                scene_object_count(s), scene_mesh_count(s), (unsigned long long)scene_triangle_count(s),
                scene_warning_count(s));
    scene_free(s);
    return 0;
}
