/* bsp_sky.c — a Quake 3 map's sky box: the six faces of skyParms' farbox (images NAME_rt, _bk, _lf, _ft,
 * _up, _dn) as quads around the map, oriented as the game lays them (tr_sky.c's st_to_vec), far enough
 * that the map stands inside and near enough that the views' far plane keeps every corner.  Fed by
 * parse.c with the map's meshes; the quads are drawn first, without writing depth: behind everything. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_priv.h"

#define STRIDE SCENE_LIT_STRIDE  /* the map's layout (no lightmap: its u, v are 0) */

const char *const scene_bsp_sky_suffix[6] = { "rt", "bk", "lf", "ft", "up", "dn" };

/* Face i's axes in Quake's z-up world: 1 = s, 2 = t, 3 = the box's distance; negative: minus. */
static const int st_to_vec[6][3] = { { 3, -1, 2 }, { -3, 1, 2 }, { 1, 3, 2 }, { -1, -3, 2 }, { -2, -1, 3 },
                                     { 2, -1, -3 } };

void scene_bsp_sky_box(const scene_bsp_map *map, float far, float centre[3], float *half)
{
    float lo[3] = { 0, 0, 0 }, hi[3] = { 0, 0, 0 };
    bool any = false;
    for (int j = 0; j < map->material_count; j++)
        for (uint32_t i = 0; i < map->materials[j].mesh.vert_count; i++, any = true)
            for (int k = 0; k < 3; k++) {
                const scene_mesh *m = &map->materials[j].mesh;
                const float p = m->verts[(size_t)i * scene_mesh_stride(m) + (size_t)k];
                lo[k] = !any || p < lo[k] ? p : lo[k];
                hi[k] = !any || p > hi[k] ? p : hi[k];
            }
    float e = 0.0f;
    for (int k = 0; k < 3; k++) {
        centre[k] = 0.5f * (lo[k] + hi[k]);
        e = 0.5f * (hi[k] - lo[k]) > e ? 0.5f * (hi[k] - lo[k]) : e;
    }
    /* From any point of the map the farthest corner is at most sqrt(3) (half + e) away. */
    const float room = far / sqrtf(3.0f) * 0.99f - e, want = e + 256.0f;
    *half = want < room ? want : room > e ? room : e;
}

int scene_bsp_sky_face(int face, const float centre[3], float half, scene_mesh *m)
{
    memset(m, 0, sizeof *m);
    m->stride = STRIDE;
    m->verts = calloc(4 * STRIDE, sizeof(float));
    m->indices = malloc(6 * sizeof(uint32_t));
    if (!m->verts || !m->indices) {
        scene_mesh_free(m);
        return -1;
    }
    static const float corner[4][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, 1 } };
    for (int c = 0; c < 4; c++) {
        const float s = corner[c][0], t = corner[c][1], b[3] = { s * half, t * half, half };
        float q[3];  /* Quake's x, y, z */
        for (int j = 0; j < 3; j++) {
            const int k = st_to_vec[face][j];
            q[j] = k < 0 ? -b[-k - 1] : b[k - 1];
        }
        float *v = m->verts + (size_t)c * STRIDE;
        v[0] = centre[0] + q[0], v[1] = centre[1] + q[2], v[2] = centre[2] - q[1];  /* y-up, as bsp.c */
        v[4] = 1.0f;                                   /* a normal for shaders that read one */
        v[6] = 0.5f * (s + 1.0f), v[7] = 0.5f * (t + 1.0f);  /* the image's top at t = 1 */
    }
    static const uint32_t quad[6] = { 0, 1, 2, 0, 2, 3 };
    memcpy(m->indices, quad, sizeof quad);
    m->vert_count = 4;
    m->index_count = 6;
    return 0;
}
