/* fuzz_bsp.h — what the bsp and pk3 targets share: a map through scene_bsp_load and checks on what comes back
 * (an empty map on failure; else indices inside their mesh, finite positions, the views).  Included by fuzz_{bsp,pk3}.c. */
#ifndef MOSAIC_FUZZ_BSP_H
#define MOSAIC_FUZZ_BSP_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_util.h"
#include "scene/scene_priv.h"

static void fuzz_bsp_fail(const char *what)
{
    fprintf(stderr, "fuzz_bsp: %s\n", what);
    abort();
}

static void fuzz_bsp_check(const char *path, const char *entry)
{
    scene_bsp_map map;
    int arg;
    char err[1024];
    if (scene_bsp_load(path, entry, SCENE_BSP_PATCH_LEVEL, SCENE_BSP_SPAWN_VIEWS, &map, &arg, err, sizeof err) !=
        MOS_OK) {
        if (fuzz_verbose())
            fprintf(stderr, "fuzz_bsp: %s\n", err);
        if (map.materials || map.material_count || map.views || map.view_count)
            fuzz_bsp_fail("a failed load left a map behind");
        return;
    }
    if (fuzz_verbose())
        fprintf(stderr, "fuzz_bsp: %d materials, %d views, %u faces drawn, %u skipped\n", map.material_count,
                map.view_count, map.faces_drawn, map.faces_skipped);
    if (map.material_count < 1 || map.view_count < 1 || map.view_count > 1 + SCENE_BSP_SPAWN_VIEWS)
        fuzz_bsp_fail("material or view count out of range");
    for (int i = 0; i < map.material_count; i++) {
        const scene_mesh *m = &map.materials[i].mesh;
        if (m->index_count == 0 || m->index_count % 3)
            fuzz_bsp_fail("a material without whole triangles");
        for (uint32_t k = 0; k < m->index_count; k++)
            if (m->indices[k] >= m->vert_count)
                fuzz_bsp_fail("an index outside its mesh");
        for (uint32_t v = 0; v < m->vert_count; v++)
            for (int c = 0; c < 3; c++)
                if (!isfinite(m->verts[(size_t)v * scene_mesh_stride(m) + (size_t)c]))
                    fuzz_bsp_fail("a vertex position that is not finite");
    }
    scene_bsp_free(&map);
}

#endif
