/* prim.c — procedural primitives (plane, sphere, box, torus) and mesh fixes (fit, uv scale).
 * Fed by the scene parser with validated tessellation parameters; feeds scene meshes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_priv.h"

#define PI_F 3.14159265358979f
#define STRIDE SHADER_BUILTIN_STRIDE

void scene_mesh_free(scene_mesh *m)
{
    free(m->verts);
    free(m->indices);
    memset(m, 0, sizeof *m);
}

static int mesh_alloc(scene_mesh *m, uint64_t verts, uint64_t tris)
{
    memset(m, 0, sizeof *m);
    m->verts = malloc((size_t)verts * STRIDE * sizeof(float));
    m->indices = malloc((size_t)tris * 3 * sizeof(uint32_t));
    if (!m->verts || !m->indices) {
        scene_mesh_free(m);
        return -1;
    }
    return 0;
}

static void put_vert(scene_mesh *m, float px, float py, float pz, float nx, float ny, float nz,
                     float u, float v)
{
    float *o = m->verts + (size_t)m->vert_count++ * STRIDE;
    o[0] = px, o[1] = py, o[2] = pz;
    o[3] = nx, o[4] = ny, o[5] = nz;
    o[6] = u, o[7] = v;
}

static void put_tri(scene_mesh *m, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t *o = m->indices + m->index_count;
    o[0] = a, o[1] = b, o[2] = c;
    m->index_count += 3;
}

/* Two counter-clockwise triangles per cell of a (nu+1) x (nv+1) vertex grid
 * starting at BASE, row-major in u; (a = (i,j), b = (i+1,j), c = (i,j+1)) must
 * be counter-clockwise seen from outside. */
static void grid_tris(scene_mesh *m, uint32_t base, int nu, int nv)
{
    const uint32_t row = (uint32_t)nu + 1;
    for (int j = 0; j < nv; j++)
        for (int i = 0; i < nu; i++) {
            uint32_t a = base + (uint32_t)j * row + (uint32_t)i;
            put_tri(m, a, a + 1, a + row);
            put_tri(m, a + 1, a + row + 1, a + row);
        }
}

uint64_t scene_prim_plane_tris(int seg_x, int seg_z) { return UINT64_C(2) * (uint64_t)seg_x * (uint64_t)seg_z; }
uint64_t scene_prim_sphere_tris(int seg_lon, int seg_lat) { return UINT64_C(2) * (uint64_t)seg_lon * (uint64_t)(seg_lat - 1); }
uint64_t scene_prim_box_tris(int seg) { return UINT64_C(12) * (uint64_t)seg * (uint64_t)seg; }
uint64_t scene_prim_torus_tris(int seg_major, int seg_minor) { return UINT64_C(2) * (uint64_t)seg_major * (uint64_t)seg_minor; }

/* XZ plane centred at the origin, normal +y; u along +x, v along +z. */
int scene_prim_plane(scene_mesh *m, float size_x, float size_z, int seg_x, int seg_z)
{
    if (mesh_alloc(m, (uint64_t)(seg_x + 1) * (uint64_t)(seg_z + 1), scene_prim_plane_tris(seg_x, seg_z)))
        return -1;
    for (int j = 0; j <= seg_z; j++)
        for (int i = 0; i <= seg_x; i++) {
            float u = (float)i / (float)seg_x, v = (float)j / (float)seg_z;
            put_vert(m, (u - 0.5f) * size_x, 0.0f, (v - 0.5f) * size_z, 0, 1, 0, u, v);
        }
    /* (i,j) -> (i+1,j) -> (i,j+1) runs +x then +z: clockwise seen from +y, so flip. */
    const uint32_t row = (uint32_t)seg_x + 1;
    for (int j = 0; j < seg_z; j++)
        for (int i = 0; i < seg_x; i++) {
            uint32_t a = (uint32_t)j * row + (uint32_t)i;
            put_tri(m, a, a + row, a + 1);
            put_tri(m, a + 1, a + row, a + row + 1);
        }
    return 0;
}

/* UV sphere around the origin, poles on y; no degenerate pole triangles. */
int scene_prim_sphere(scene_mesh *m, float radius, int seg_lon, int seg_lat)
{
    if (mesh_alloc(m, (uint64_t)(seg_lon + 1) * (uint64_t)(seg_lat + 1),
                   scene_prim_sphere_tris(seg_lon, seg_lat)))
        return -1;
    for (int j = 0; j <= seg_lat; j++) {
        float v = (float)j / (float)seg_lat, th = v * PI_F;
        float st = j == seg_lat ? 0.0f : sinf(th), ct = cosf(th);
        for (int i = 0; i <= seg_lon; i++) {
            float u = (float)i / (float)seg_lon, ph = u * 2.0f * PI_F;
            float nx = st * cosf(ph), nz = -st * sinf(ph);
            put_vert(m, radius * nx, radius * ct, radius * nz, nx, ct, nz, u, v);
        }
    }
    /* Longitude runs counter-clockwise seen from +y (x -> -z), latitude runs
     * downwards: a=(i,j), b=(i+1,j), c=(i,j+1) is counter-clockwise outside. */
    const uint32_t row = (uint32_t)seg_lon + 1;
    for (int j = 0; j < seg_lat; j++)
        for (int i = 0; i < seg_lon; i++) {
            uint32_t a = (uint32_t)j * row + (uint32_t)i;
            if (j != 0)
                put_tri(m, a, a + row, a + 1);
            if (j != seg_lat - 1)
                put_tri(m, a + 1, a + row, a + row + 1);
        }
    return 0;
}

/* Axis-aligned box centred at the origin, SEG x SEG quads per face.  Side
 * faces run u horizontally and v up; UVs are in world units (the texture
 * repeats once per unit before uv_scale), so bricks keep their shape on
 * boxes of any proportions. */
int scene_prim_box(scene_mesh *m, float sx, float sy, float sz, int seg)
{
    /* normal, U, V with U x V = normal (so the grid winds counter-clockwise). */
    static const float faces[6][3][3] = {
        { { 1, 0, 0 }, { 0, 0, -1 }, { 0, 1, 0 } },  { { -1, 0, 0 }, { 0, 0, 1 }, { 0, 1, 0 } },
        { { 0, 0, 1 }, { 1, 0, 0 }, { 0, 1, 0 } },   { { 0, 0, -1 }, { -1, 0, 0 }, { 0, 1, 0 } },
        { { 0, 1, 0 }, { 1, 0, 0 }, { 0, 0, -1 } },  { { 0, -1, 0 }, { 1, 0, 0 }, { 0, 0, 1 } },
    };
    const float size[3] = { sx, sy, sz };
    if (mesh_alloc(m, UINT64_C(6) * (uint64_t)(seg + 1) * (uint64_t)(seg + 1), scene_prim_box_tris(seg)))
        return -1;
    for (int f = 0; f < 6; f++) {
        const float *n = faces[f][0], *U = faces[f][1], *V = faces[f][2];
        float ext_u = 0, ext_v = 0;
        for (int k = 0; k < 3; k++) {
            ext_u += fabsf(U[k]) * size[k];
            ext_v += fabsf(V[k]) * size[k];
        }
        uint32_t base = m->vert_count;
        for (int j = 0; j <= seg; j++)
            for (int i = 0; i <= seg; i++) {
                float s = (float)i / (float)seg, t = (float)j / (float)seg;
                float p[3];
                for (int k = 0; k < 3; k++)
                    p[k] = (n[k] + (2.0f * s - 1.0f) * U[k] + (2.0f * t - 1.0f) * V[k]) * 0.5f * size[k];
                put_vert(m, p[0], p[1], p[2], n[0], n[1], n[2], s * ext_u, t * ext_v);
            }
        grid_tris(m, base, seg, seg);
    }
    return 0;
}

/* Torus around the y axis: ring radius R_MAJOR, tube radius R_MINOR. */
int scene_prim_torus(scene_mesh *m, float r_major, float r_minor, int seg_major, int seg_minor)
{
    if (mesh_alloc(m, (uint64_t)(seg_major + 1) * (uint64_t)(seg_minor + 1),
                   scene_prim_torus_tris(seg_major, seg_minor)))
        return -1;
    for (int j = 0; j <= seg_minor; j++) {
        float v = (float)j / (float)seg_minor, th = v * 2.0f * PI_F;
        float ct = cosf(th), st = sinf(th);
        for (int i = 0; i <= seg_major; i++) {
            float u = (float)i / (float)seg_major, ph = u * 2.0f * PI_F;
            float cp = cosf(ph), sp = -sinf(ph);
            float nx = ct * cp, ny = st, nz = ct * sp;
            put_vert(m, r_major * cp + r_minor * nx, r_minor * ny, r_major * sp + r_minor * nz,
                     nx, ny, nz, u * 4.0f, v);
        }
    }
    /* u runs counter-clockwise seen from +y, v runs outside -> up -> inside:
     * a=(i,j), b=(i+1,j), c=(i,j+1) is counter-clockwise outside. */
    grid_tris(m, 0, seg_major, seg_minor);
    return 0;
}

void scene_mesh_fit(scene_mesh *meshes, int count, float size, bool base)
{
    float lo[3], hi[3];
    bool any = false;
    for (int j = 0; j < count; j++) {
        const scene_mesh *m = &meshes[j];
        for (uint32_t i = 0; i < m->vert_count; i++) {
            for (int k = 0; k < 3; k++) {
                float p = m->verts[(size_t)i * scene_mesh_stride(m) + (size_t)k];
                lo[k] = !any || p < lo[k] ? p : lo[k];
                hi[k] = !any || p > hi[k] ? p : hi[k];
            }
            any = true;
        }
    }
    if (!any)
        return;
    float ext = 0.0f, c[3];
    for (int k = 0; k < 3; k++) {
        ext = hi[k] - lo[k] > ext ? hi[k] - lo[k] : ext;
        c[k] = 0.5f * (lo[k] + hi[k]);
    }
    float s = ext > 0.0f ? size / ext : 1.0f;
    if (base)
        c[1] = lo[1];
    for (int j = 0; j < count; j++)
        for (uint32_t i = 0; i < meshes[j].vert_count; i++)
            for (int k = 0; k < 3; k++) {
                float *p = &meshes[j].verts[(size_t)i * scene_mesh_stride(&meshes[j]) + (size_t)k];
                *p = (*p - c[k]) * s;
            }
}

int scene_mesh_append(scene_mesh *dst, const scene_mesh *src)
{
    if (scene_mesh_stride(dst) != scene_mesh_stride(src))
        return -1;
    const size_t nv = (size_t)dst->vert_count + src->vert_count, ni = (size_t)dst->index_count + src->index_count;
    const size_t stride = scene_mesh_stride(src);
    float *v = realloc(dst->verts, nv * stride * sizeof(float));
    if (!v)
        return -1;
    dst->verts = v;
    uint32_t *ix = realloc(dst->indices, ni * sizeof(uint32_t));
    if (!ix)
        return -1;
    dst->indices = ix;
    memcpy(dst->verts + (size_t)dst->vert_count * stride, src->verts, (size_t)src->vert_count * stride * sizeof(float));
    for (uint32_t i = 0; i < src->index_count; i++)
        dst->indices[dst->index_count + i] = dst->vert_count + src->indices[i];
    dst->vert_count += src->vert_count;
    dst->index_count += src->index_count;
    return 0;
}

int scene_mesh_two_sided(scene_mesh *m)
{
    const size_t n = m->index_count, nv = m->vert_count, stride = scene_mesh_stride(m);
    if (n > UINT32_MAX / 2 || nv > UINT32_MAX / 2)
        return -1;
    float *v = realloc(m->verts, (nv ? 2 * nv : 1) * stride * sizeof(float));
    if (!v)
        return -1;
    m->verts = v;
    uint32_t *ix = realloc(m->indices, (n ? 2 * n : 1) * sizeof(uint32_t));
    if (!ix)
        return -1;
    m->indices = ix;
    /* the back's vertices: the same positions (bit for bit), the normal turned round */
    memcpy(v + nv * stride, v, nv * stride * sizeof(float));
    for (size_t i = nv; i < 2 * nv; i++)
        for (int k = 3; k < 6; k++) v[i * stride + (size_t)k] = -v[i * stride + (size_t)k];
    for (size_t t = 0; t + 2 < n; t += 3) {
        ix[n + t] = (uint32_t)nv + ix[t + 2];
        ix[n + t + 1] = (uint32_t)nv + ix[t + 1];
        ix[n + t + 2] = (uint32_t)nv + ix[t];
    }
    m->vert_count = (uint32_t)(2 * nv);
    m->index_count = (uint32_t)(2 * n);
    return 0;
}

void scene_mesh_center(const scene_mesh *m, float c[3])
{
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (uint32_t i = 0; i < m->vert_count; i++)
        for (int k = 0; k < 3; k++) {
            float p = m->verts[(size_t)i * scene_mesh_stride(m) + (size_t)k];
            lo[k] = i == 0 || p < lo[k] ? p : lo[k];
            hi[k] = i == 0 || p > hi[k] ? p : hi[k];
        }
    for (int k = 0; k < 3; k++)
        c[k] = 0.5f * (lo[k] + hi[k]);
}

void scene_mesh_uv_scale(scene_mesh *m, float su, float sv)
{
    for (uint32_t i = 0; i < m->vert_count; i++) {
        m->verts[(size_t)i * scene_mesh_stride(m) + 6] *= su;
        m->verts[(size_t)i * scene_mesh_stride(m) + 7] *= sv;
    }
}
