/* stoch_lane.h — the arithmetic of one 5D visibility sample against one
 * blurred triangle, branch-free so that a loop over lanes vectorizes:
 * the walks (stoch_walk_tmp.h, stoch_rank_walk_tmp.h) run it over sixteen
 * pixels at a time in every ISA.  The build turns floating-point contraction off, so
 * every ISA computes the same bits (and two triangles sharing an edge the
 * same edge values, see edge_inside). */
#ifndef MOSAIC_RASTER_STOCH_LANE_H
#define MOSAIC_RASTER_STOCH_LANE_H

#include <float.h>

#include "frame/frame.h"
#include "raster/raster.h"

/* Sixteen lanes (a 4x4 block) from four floats, one per pixel class, lane l
 * taking raster_lane_class(l)'s. */
static inline void stoch_expand16(float *dst, const float *src)
{
    for (int l = 0; l < 16; l++) dst[l] = src[raster_lane_class(l)];
}

/* Oriented edge test with a tie rule: on the edge (value 0), a sample
 * belongs to the triangle whose edge gradient points to +x, or along +y
 * when vertical.  Two triangles sharing an edge compute it from the same
 * vertices in the same order, so their values are exact negatives and
 * exactly one of them takes a sample on it.  The rule is a threshold on
 * the value, one compare: where it takes e = 0 the threshold is the
 * largest float below zero, so that e > it is e >= 0 (-0 too); else 0.
 * Exact while subnormals are kept (with denormals-are-zero the threshold
 * would read as 0): the IEEE default, which every thread Mosaic starts
 * sets whatever its creator's (util/fpenv.h).  A walk that tests many
 * samples against one line takes the thresholds once (the tuple walk, per
 * group). */
static inline float stoch_edge_tie(float gx, float gy)
{
    return (gx > 0.0f) | ((gx == 0.0f) & (gy > 0.0f)) ? -FLT_TRUE_MIN : 0.0f;
}
static inline int stoch_edge_inside(float e, float gx, float gy) { return e > stoch_edge_tie(gx, gy); }

/* Decides a sample from the three homogeneous edge lines c[e] (triangle
 * order, each times the sign of det: stoch_lines_orient) at window point
 * (x, y), the determinant of the warped vertices and their clip z and w, in
 * two parts: the edges (their values e, the sample's weights;
 * stoch_lane_inside without the determinant's tests, for a walk that
 * settled them per tuple) and the depth, between the near and far planes
 * (meaningful only when both return 1).  Depth is z / w at the sample, both interpolated
 * with the edge values (sum e_k w_k is det in exact arithmetic): their
 * rounding errors cancel in the ratio, where over det they do not, and for
 * a triangle of a few pixels far from the window's origin they are
 * percents of its edge values, enough to lose depth tests to a surface
 * behind it.  An edge value is c0 x + (c1 y + c2): the tuple walk takes
 * the parenthesis once per block row (stoch_edge_row) and the thresholds
 * once per group (stoch_lane_inside_tie); every path sums in that order,
 * so two triangles sharing an edge still get exact negatives. */
static inline float stoch_edge_row(const float c[3], float y)
{
    return c[1] * y + c[2];
}
static inline int stoch_lane_inside_tie(const float cx[3], float x, const float row[3], const float tie[3],
                                        float e[3])
{
    for (int k = 0; k < 3; k++) e[k] = cx[k] * x + row[k];
    /* The hit lies at w = det / (e0 + e1 + e2) (e's sign is det's): in
     * front of the eye. */
    return (e[0] > tie[0]) & (e[1] > tie[1]) & (e[2] > tie[2]) & (e[0] + e[1] + e[2] > 0.0f);
}
static inline int stoch_lane_inside(const float c[3][3], float x, float y, float e[3])
{
    float cx[3], row[3], tie[3];
    for (int k = 0; k < 3; k++) {
        cx[k] = c[k][0];
        row[k] = stoch_edge_row(c[k], y);
        tie[k] = stoch_edge_tie(c[k][0], c[k][1]);
    }
    return stoch_lane_inside_tie(cx, x, row, tie, e);
}
static inline int stoch_lane_edges(int cull_back, const float c[3][3], float x, float y, float det, float e[3])
{
    const int ok = (det != 0.0f) & !(cull_back & (det < 0.0f));
    return ok & stoch_lane_inside(c, x, y, e);
}
static inline int stoch_lane_depth(const float e[3], const float z[3], const float w[3], float *depth)
{
    const float zn = (e[0] * z[0] + e[1] * z[1] + e[2] * z[2]) / (e[0] * w[0] + e[1] * w[1] + e[2] * w[2]);
    *depth = 0.5f * zn + 0.5f;
    return (zn >= -1.0f) & (zn <= 1.0f);  /* near and far planes */
}
/* Both parts: stoch_lane_edges (the edge values are the weights), then
 * stoch_lane_depth. */
static inline int stoch_lane_finish(int cull_back, const float c[3][3], float x, float y, float det,
                                    const float z[3], const float w[3], float *depth, float *w0, float *w1,
                                    float *w2)
{
    float e[3];
    const int ok = stoch_lane_edges(cull_back, c, x, y, det, e);
    const int in_depth = stoch_lane_depth(e, z, w, depth);
    *w0 = e[0];
    *w1 = e[1];
    *w2 = e[2];
    return ok & in_depth;
}

/* A triangle at one (u, v, t), the part of a sample's test that does not
 * depend on its (x, y): the three homogeneous edge lines, the determinant,
 * the vertices' clip z and w (stoch_lane_finish's inputs).  One formula
 * per kind of blur, so every sample at the same (u, v, t) sees the same
 * lines whoever asks. */
typedef struct stoch_lines {
    float c[3][3], det, z[3], w[3];
} stoch_lines;

/* The lines times the sign of det (-1 when it is 0), so that a sample's
 * edge values are positive inside whatever the winding.  Exact: a sign
 * flip does not round, and the values' uses (the depth's and the
 * reference's ratios) do not change with it. */
static inline void stoch_lines_orient(stoch_lines *o)
{
    const float sd = (float)(o->det > 0.0f) * 2.0f - 1.0f;
    for (int e = 0; e < 3; e++)
        for (int k = 0; k < 3; k++) o->c[e][k] *= sd;
}

/* Motion: c(t) = c0 + t (c1 + t c2); vertex 0 moves linearly. */
static inline void stoch_lines_motion(const frame_tri_blur *b, float t, stoch_lines *o)
{
    for (int e = 0; e < 3; e++) {
        for (int k = 0; k < 3; k++) o->c[e][k] = b->sign[e] * (b->c0[e][k] + t * (b->c1[e][k] + t * b->c2[e][k]));
        o->z[e] = b->p[e][2] + t * b->dp[e][2];
        o->w[e] = b->p[e][3] + t * b->dp[e][3];
    }
    const float v0[3] = {b->p[0][0] + t * b->dp[0][0], b->p[0][1] + t * b->dp[0][1], b->p[0][3] + t * b->dp[0][3]};
    o->det = o->c[0][0] * v0[0] + o->c[0][1] * v0[1] + o->c[0][2] * v0[2];
    stoch_lines_orient(o);
}

/* Defocus: c(u, v) = c0 + u c1 + v c2; vertex 0 sheared by the lens. */
static inline void stoch_lines_defocus(const frame_tri_blur *b, float u, float v, stoch_lines *o)
{
    for (int e = 0; e < 3; e++) {
        for (int k = 0; k < 3; k++) o->c[e][k] = b->sign[e] * (b->c0[e][k] + u * b->c1[e][k] + v * b->c2[e][k]);
        o->z[e] = b->p[e][2];
        o->w[e] = b->p[e][3];
    }
    const float W = b->p[0][3], off = W - b->focus;
    const float v0[3] = {b->p[0][0] + u * b->sx * off, b->p[0][1] + v * b->sy * off, W};
    o->det = o->c[0][0] * v0[0] + o->c[0][1] * v0[1] + o->c[0][2] * v0[2];
    stoch_lines_orient(o);
}

/* The vertices of b at (u, v, t) in window-homogeneous (X, Y, W): moved,
 * then sheared by the lens when b is defocused. */
static inline void stoch_vertices(const frame_tri_blur *b, float u, float v, float t, float p[3][3])
{
    const float lens = (b->kind & FRAME_BLUR_DEFOCUS) ? 1.0f : 0.0f;
    for (int i = 0; i < 3; i++) {
        const float W = b->p[i][3] + t * b->dp[i][3], off = lens * (W - b->focus);
        p[i][0] = b->p[i][0] + t * b->dp[i][0] + u * b->sx * off;
        p[i][1] = b->p[i][1] + t * b->dp[i][1] + v * b->sy * off;
        p[i][2] = W;
    }
}

/* Both: warp the vertices to (u, v, t), then the 2D homogeneous edges.
 * Without contraction a x b is exactly -(b x a), so the edges need no
 * canonical order to be exact negatives across a shared edge. */
static inline void stoch_lines_warp(const frame_tri_blur *b, float u, float v, float t, stoch_lines *o)
{
    float p[3][3];
    stoch_vertices(b, u, v, t, p);
    for (int i = 0; i < 3; i++) {
        o->z[i] = b->p[i][2] + t * b->dp[i][2];
        o->w[i] = p[i][2];
    }
    frame_cross3(o->c[0], p[1], p[2]);
    frame_cross3(o->c[1], p[2], p[0]);
    frame_cross3(o->c[2], p[0], p[1]);
    o->det = o->c[0][0] * p[0][0] + o->c[0][1] * p[0][1] + o->c[0][2] * p[0][2];
    stoch_lines_orient(o);
}

/* One sample (x, y, u, v, t) of each kind: its lines, then
 * stoch_lane_finish (the rank walk's test, a sample at a time). */
static inline int stoch_lane_motion(const frame_tri_blur *b, float x, float y, float t, float *depth, float *w0, float *w1,
                                    float *w2)
{
    stoch_lines L;
    stoch_lines_motion(b, t, &L);
    return stoch_lane_finish(b->cull_back, L.c, x, y, L.det, L.z, L.w, depth, w0, w1, w2);
}
static inline int stoch_lane_defocus(const frame_tri_blur *b, float x, float y, float u, float v, float *depth, float *w0,
                                     float *w1, float *w2)
{
    stoch_lines L;
    stoch_lines_defocus(b, u, v, &L);
    return stoch_lane_finish(b->cull_back, L.c, x, y, L.det, L.z, L.w, depth, w0, w1, w2);
}
static inline int stoch_lane_warp(const frame_tri_blur *b, float x, float y, float u, float v, float t, float *depth,
                                  float *w0, float *w1, float *w2)
{
    stoch_lines L;
    stoch_lines_warp(b, u, v, t, &L);
    return stoch_lane_finish(b->cull_back, L.c, x, y, L.det, L.z, L.w, depth, w0, w1, w2);
}

/* Where a covered sample with weights (w0, w1, w2) lands in the shading
 * reference (seed 001, 4.4): the same barycentrics on the reference. */
static inline void stoch_lane_reference_of(const float ref[3][3], float w0, float w1, float w2, float *rx, float *ry)
{
    const float X = w0 * ref[0][0] + w1 * ref[1][0] + w2 * ref[2][0];
    const float Y = w0 * ref[0][1] + w1 * ref[1][1] + w2 * ref[2][1];
    const float W = w0 * ref[0][2] + w1 * ref[1][2] + w2 * ref[2][2];
    *rx = X / W;
    *ry = Y / W;
}
static inline void stoch_lane_reference(const frame_tri_blur *b, float w0, float w1, float w2, float *rx, float *ry)
{
    stoch_lane_reference_of(b->ref, w0, w1, w2, rx, ry);
}

/* Each of n samples' offsets o = s - c along one axis (s its window
 * coordinate) from the centre c of the stretch its pixel and its shading
 * cell share (cells 1 / rate long from 0): the pixel's centre where a cell
 * holds whole pixels, the cell's where a pixel holds whole cells.  A
 * sample's reference point moves by -o before its grid point is taken
 * (stoch_hits), so that it is where the pixel's (or cell's) centre would
 * see the triangle at the sample's (u, v, t): the grid point of a static
 * sample stays its own, and a blurred one lands where the lens and the
 * motion take it from there, not spread a pixel wider by the sample's
 * place in its pixel, which the cell filter (mos_fs_batch.cells) averages
 * over already.  Rate 1, the usual grid, in four operations a lane (the
 * same bits as the general case). */
static inline void stoch_lane_offsets(const float *restrict s, float *restrict o, int n, float rate)
{
    if (rate == 1.0f) {
        for (int l = 0; l < n; l++) o[l] = s[l] - (floorf(s[l]) + 0.5f);
        return;
    }
    const float cell = 1.0f / rate;
    for (int l = 0; l < n; l++) {
        const float p = floorf(s[l]), c0 = floorf(s[l] * rate) * cell, c1 = c0 + cell;
        const float lo = p > c0 ? p : c0, hi = p + 1.0f < c1 ? p + 1.0f : c1;
        o[l] = s[l] - 0.5f * (lo + hi);
    }
}
/* stoch_lane_offsets where `centred` (frame_blur.centred), else zeros. */
static inline void stoch_sample_offsets(const float *restrict s, float *restrict o, int n, float rate, bool centred)
{
    if (centred)
        stoch_lane_offsets(s, o, n, rate);
    else
        for (int l = 0; l < n; l++) o[l] = 0.0f;
}

#endif
