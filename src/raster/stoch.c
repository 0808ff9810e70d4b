/* stoch.c — stochastic coverage: which of a pixel's 5D visibility samples
 * (x, y, u, v, t) a triangle covers, with the sample's window depth and its
 * homogeneous barycentric weights.  Four paths (seed 001, 5.1): the fixed-
 * point 2D edges for a static, sharp triangle; time-continuous edge
 * functions when it moves; aperture-continuous 4D edge functions when it is
 * defocused; warping the vertices to the sample's (u, v, t) when both.
 * Fed by the stochastic back-end (backend/decouple.c). */
#include <math.h>

#include "raster/stoch.h"

/* Oriented edge test with a tie rule: on the edge (value 0), a sample
 * belongs to the triangle whose edge gradient points to +x, or along +y
 * when vertical.  Two triangles sharing an edge compute it from the same
 * vertices in the same order, so their values are exact negatives and
 * exactly one of them takes a sample on it. */
static inline bool edge_inside(float e, float gx, float gy)
{
    return e > 0.0f || (e == 0.0f && (gx > 0.0f || (gx == 0.0f && gy > 0.0f)));
}

/* Decides a sample from the three homogeneous edge lines c[e] (triangle
 * order) at window point (x, y), the determinant of the warped vertices and
 * their clip z; writes the window depth and the weights. */
static inline bool finish_sample(const fe_blur *b, const float c[3][3], float x, float y, float det,
                                 const float z[3], float *depth, float w[3])
{
    float e[3];
    for (int k = 0; k < 3; k++) {
        e[k] = c[k][0] * x + c[k][1] * y + c[k][2];
        w[k] = e[k];
    }
    if (!(det != 0.0f) || (b->cull_back && det < 0.0f)) return false;
    const float sd = det > 0.0f ? 1.0f : -1.0f;
    for (int k = 0; k < 3; k++)
        if (!edge_inside(sd * e[k], sd * c[k][0], sd * c[k][1])) return false;
    /* The hit lies at w = det / (e0 + e1 + e2): in front of the eye. */
    if (!(sd * (e[0] + e[1] + e[2]) > 0.0f)) return false;
    float zn = (e[0] * z[0] + e[1] * z[1] + e[2] * z[2]) / det;  /* clip z / w at the hit */
    if (!(zn >= -1.0f && zn <= 1.0f)) return false;              /* near and far planes */
    *depth = 0.5f * zn + 0.5f;
    return true;
}

/* Motion: c(t) = c0 + t (c1 + t c2); vertex 0 moves linearly. */
static bool sample_motion(const fe_blur *b, float x, float y, float t, float *depth, float w[3])
{
    float c[3][3], z[3];
    for (int e = 0; e < 3; e++) {
        for (int k = 0; k < 3; k++) c[e][k] = b->sign[e] * (b->c0[e][k] + t * (b->c1[e][k] + t * b->c2[e][k]));
        z[e] = b->p[e][2] + t * b->dp[e][2];
    }
    const float v0[3] = {b->p[0][0] + t * b->dp[0][0], b->p[0][1] + t * b->dp[0][1], b->p[0][3] + t * b->dp[0][3]};
    float det = c[0][0] * v0[0] + c[0][1] * v0[1] + c[0][2] * v0[2];
    return finish_sample(b, c, x, y, det, z, depth, w);
}

/* Defocus: c(u, v) = c0 + u c1 + v c2; vertex 0 sheared by the lens. */
static bool sample_defocus(const fe_blur *b, float x, float y, float u, float v, float *depth, float w[3])
{
    float c[3][3], z[3];
    for (int e = 0; e < 3; e++) {
        for (int k = 0; k < 3; k++) c[e][k] = b->sign[e] * (b->c0[e][k] + u * b->c1[e][k] + v * b->c2[e][k]);
        z[e] = b->p[e][2];
    }
    const float W = b->p[0][3], off = W - b->focus;
    const float v0[3] = {b->p[0][0] + u * b->sx * off, b->p[0][1] + v * b->sy * off, W};
    float det = c[0][0] * v0[0] + c[0][1] * v0[1] + c[0][2] * v0[2];
    return finish_sample(b, c, x, y, det, z, depth, w);
}

/* Both: warp the vertices to (u, v, t), then the 2D homogeneous edges. */
static bool sample_warp(const fe_blur *b, float x, float y, float u, float v, float t, float *depth, float w[3])
{
    float p[3][3], z[3], c[3][3];
    for (int i = 0; i < 3; i++) {
        float W = b->p[i][3] + t * b->dp[i][3], off = W - b->focus;
        p[i][0] = b->p[i][0] + t * b->dp[i][0] + u * b->sx * off;
        p[i][1] = b->p[i][1] + t * b->dp[i][1] + v * b->sy * off;
        p[i][2] = W;
        z[i] = b->p[i][2] + t * b->dp[i][2];
    }
    for (int e = 0; e < 3; e++) {
        int ia = (e + 1) % 3, ib = (e + 2) % 3;
        if (b->sign[e] < 0.0f) {
            int tmp = ia;
            ia = ib;
            ib = tmp;
        }
        fe_cross3(c[e], p[ia], p[ib]);
        for (int k = 0; k < 3; k++) c[e][k] *= b->sign[e];
    }
    float det = c[0][0] * p[0][0] + c[0][1] * p[0][1] + c[0][2] * p[0][2];
    return finish_sample(b, c, x, y, det, z, depth, w);
}

bool stoch_sample(const fe_blur *b, float x, float y, float u, float v, float t, float *depth, float w[3])
{
    switch (b->kind) {
    case FE_BLUR_MOTION: return sample_motion(b, x, y, t, depth, w);
    case FE_BLUR_DEFOCUS: return sample_defocus(b, x, y, u, v, depth, w);
    default: return sample_warp(b, x, y, u, v, t, depth, w);
    }
}

bool stoch_test(const fe_tri *t, int px, int py, int s, const raster_samples *sp, const float *uvt, float *depth,
                float w[3])
{
    if (!t->blur) {  /* static and sharp: the 2D rasterizer's fixed-point edge functions */
        int64_t sx = (int64_t)px * RASTER_SUBPIXELS + sp->dx[s], sy = (int64_t)py * RASTER_SUBPIXELS + sp->dy[s];
        for (int e = 0; e < 3; e++)
            if ((int64_t)t->a[e] * sx + (int64_t)t->b[e] * sy + t->c[e] < 0) return false;
        *depth = raster_sample_depth(t, sp, px, py, s);
        return true;
    }
    return stoch_sample(t->blur, (float)px + sp->fx[s], (float)py + sp->fy[s], uvt[0], uvt[1], uvt[2], depth, w);
}
