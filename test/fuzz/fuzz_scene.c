/* fuzz_scene.c — libFuzzer target: the input as a scene file through scene_load_ex, sandboxed to the
 * harness's temporary folder and its fixtures.  Run by `make fuzz` and test/test_fuzz.sh (replay_main.c without clang).
 *
 * The sandbox holds what test/fuzz/scene.dict names: tex.png, tex.tga, textures/{tiles,bricks}.png
 * (as scenes/ name them), mesh.obj with mesh.mtl, map.bsp, map.pk3 (maps/map.bsp), and two traps the
 * sandbox must refuse: escape.png, a link to a file outside, and fifo.obj, a FIFO that would block a
 * reader forever (a hang if the sandbox let it through).  A triangle budget keeps inputs cheap. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_util.h"
#include "scene/scene.h"

#define FUZZ_MAX_TRIANGLES (1u << 20)

static void setup(void)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("tex.png", fuzz_png_4x4, sizeof fuzz_png_4x4, path);
    fuzz_write("tex.tga", fuzz_tga_2x2, sizeof fuzz_tga_2x2, path);
    fuzz_write("mesh.obj", fuzz_obj, strlen(fuzz_obj), path);
    fuzz_write("mesh.mtl", fuzz_mtl, strlen(fuzz_mtl), path);
    size_t n, zn;
    uint8_t *bsp = fuzz_tiny_bsp(&n), *zip = fuzz_zip_stored("maps/map.bsp", bsp, n, &zn);
    fuzz_write("map.bsp", bsp, n, path);
    fuzz_write("map.pk3", zip, zn, path);
    free(zip);
    free(bsp);
    snprintf(path, sizeof path, "%s/textures", fuzz_dir());
    if (mkdir(path, 0700) != 0)
        abort();
    fuzz_write("textures/tiles.png", fuzz_png_4x4, sizeof fuzz_png_4x4, path);
    fuzz_write("textures/bricks.png", fuzz_png_4x4, sizeof fuzz_png_4x4, path);
    fuzz_traps("fifo.obj");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_once(setup);
    char path[FUZZ_PATH_MAX], err[1024];
    fuzz_write("fuzz.scene", data, size, path);
    scene_load_opts opts = { .sandbox_dir = fuzz_dir(), .max_triangles = FUZZ_MAX_TRIANGLES };
    scene *s;
    if (scene_load_ex(path, &opts, &s, err, sizeof err) != MOS_OK) {
        fuzz_check_error("fuzz_scene", err, path);
        return 0;
    }
    if (scene_triangle_count(s) > FUZZ_MAX_TRIANGLES || scene_view_count(s) < 1) {
        fprintf(stderr, "fuzz_scene: %llu triangles, %d views\n", (unsigned long long)scene_triangle_count(s),
                scene_view_count(s));
        abort();
    }
    if (fuzz_verbose())
        fprintf(stderr, "fuzz_scene: %d objects, %d meshes, %llu triangles, %d views\n", scene_object_count(s),
                scene_mesh_count(s), (unsigned long long)scene_triangle_count(s), scene_view_count(s));
    for (int i = 0; i < scene_view_count(s); i++)
        if (scene_find_view(s, scene_view_name(s, i)) != i)
            abort();  /* view names are unique */
    scene_free(s);
    return 0;
}
