/* clip.c — homogeneous clipping of one triangle against the near and far
 * planes, a w > 0 plane and the x/y guard band (Sutherland-Hodgman).
 * Fed by the front-end loop; feeds triangle setup. */
#include <math.h>
#include <string.h>

#include "frontend/frontend.h"

/* Signed distances to the planes; >= 0 is inside. */
enum { PLANE_NEAR, PLANE_FAR, PLANE_W, PLANE_LEFT, PLANE_RIGHT, PLANE_BOTTOM, PLANE_TOP, PLANE_COUNT };
#define CLIP_MIN_W 1e-6f

static float plane_distance(int plane, const float c[4], float gx, float gy)
{
    switch (plane) {
    case PLANE_NEAR: return c[2] + c[3];
    case PLANE_FAR: return c[3] - c[2];
    case PLANE_W: return c[3] - CLIP_MIN_W;
    case PLANE_LEFT: return c[0] + gx * c[3];
    case PLANE_RIGHT: return gx * c[3] - c[0];
    case PLANE_BOTTOM: return c[1] + gy * c[3];
    default: return gy * c[3] - c[1];
    }
}

static void lerp_vertex(fe_vertex *out, const fe_vertex *a, const fe_vertex *b, float t, int nvar)
{
    for (int i = 0; i < 4; i++) out->clip[i] = a->clip[i] + (b->clip[i] - a->clip[i]) * t;
    for (int i = 0; i < nvar; i++) out->var[i] = a->var[i] + (b->var[i] - a->var[i]) * t;
}

/* A total order on clip positions (x, then y, z, w) for the fan's first corner. */
static bool vertex_before(const fe_vertex *a, const fe_vertex *b)
{
    for (int i = 0; i < 4; i++)
        if (a->clip[i] != b->clip[i]) return a->clip[i] < b->clip[i];
    return false;
}

/* fe_clip_triangle against the planes of PLANES (bits 1 << PLANE_*). */
static int clip_planes(const fe_vertex in[3], int varying_count, float guard_x, float guard_y, unsigned planes,
                       fe_vertex out[FE_CLIP_MAX_TRIS][3])
{
    unsigned outside_any = 0;
    for (int p = 0; p < PLANE_COUNT; p++) {
        if (!(planes & (1u << p))) continue;
        int out_count = 0;
        for (int v = 0; v < 3; v++)
            if (plane_distance(p, in[v].clip, guard_x, guard_y) < 0) out_count++;
        if (out_count == 3) return 0;  /* wholly outside one plane */
        if (out_count) outside_any |= 1u << p;
    }
    if (!outside_any) {
        memcpy(out[0], in, 3 * sizeof(fe_vertex));
        return 1;
    }

    fe_vertex poly[2][FE_CLIP_MAX_VERTS];
    int n = 3, cur = 0;
    memcpy(poly[0], in, 3 * sizeof(fe_vertex));
    for (int p = 0; p < PLANE_COUNT && n >= 3; p++) {
        if (!(outside_any & (1u << p))) continue;
        const fe_vertex *src = poly[cur];
        fe_vertex *dst = poly[cur ^ 1];
        int m = 0;
        for (int i = 0; i < n; i++) {
            const fe_vertex *a = &src[i], *b = &src[(i + 1) % n];
            float da = plane_distance(p, a->clip, guard_x, guard_y);
            float db = plane_distance(p, b->clip, guard_x, guard_y);
            if (da >= 0) dst[m++] = *a;
            if ((da >= 0) != (db >= 0) && m < FE_CLIP_MAX_VERTS) {
                /* Interpolate from the inside vertex so both sides of a
                 * shared edge compute the same point. */
                if (da >= 0) lerp_vertex(&dst[m++], a, b, da / (da - db), varying_count);
                else lerp_vertex(&dst[m++], b, a, db / (db - da), varying_count);
            }
        }
        n = m;
        cur ^= 1;
    }
    /* The fan starts at the polygon's canonical corner, not at whichever the
     * draw gave first: two triangles with the same corners (the sides of a
     * two-sided card) are cut into the same points above, and so into the
     * same triangles here, whatever their order and winding. */
    const fe_vertex *p = poly[cur];
    int k = 0;
    for (int i = 1; i < n; i++)
        if (vertex_before(&p[i], &p[k])) k = i;
    int tris = 0;
    for (int i = 1; i + 1 < n && tris < FE_CLIP_MAX_TRIS; i++, tris++) {
        out[tris][0] = p[k];
        out[tris][1] = p[(k + i) % n];
        out[tris][2] = p[(k + i + 1) % n];
    }
    return tris;
}

int fe_clip_triangle(const fe_vertex in[3], int varying_count, float guard_x, float guard_y,
                     fe_vertex out[FE_CLIP_MAX_TRIS][3])
{
    return clip_planes(in, varying_count, guard_x, guard_y, (1u << PLANE_COUNT) - 1u, out);
}

int fe_clip_triangle_near(const fe_vertex in[3], int varying_count, fe_vertex out[FE_CLIP_MAX_TRIS][3])
{
    return clip_planes(in, varying_count, 0.0f, 0.0f, 1u << PLANE_NEAR | 1u << PLANE_W, out);
}
