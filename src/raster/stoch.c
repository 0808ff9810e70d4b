/* stoch.c — stochastic coverage: which of a pixel's 5D visibility samples
 * (x, y, u, v, t) a triangle covers, with the sample's window depth and its
 * homogeneous barycentric weights.  Four paths (seed 001, 5.1): the fixed-
 * point 2D edges for a static, sharp triangle; time-continuous edge
 * functions when it moves; aperture-continuous 4D edge functions when it is
 * defocused; warping the vertices to the sample's (u, v, t) when both (the
 * arithmetic in stoch_lane.h).  One sample at a time: the back-end tests
 * blurred triangles sixteen pixels at a time (stoch_block.c).
 * Fed by the stochastic back-end (backend/decouple.c). */
#include "raster/stoch.h"
#include "raster/stoch_lane.h"

bool stoch_sample(const fe_blur *b, float x, float y, float u, float v, float t, float *depth, float w[3])
{
    switch (b->kind) {
    case FE_BLUR_MOTION: return stoch_lane_motion(b, x, y, t, depth, &w[0], &w[1], &w[2]);
    case FE_BLUR_DEFOCUS: return stoch_lane_defocus(b, x, y, u, v, depth, &w[0], &w[1], &w[2]);
    default: return stoch_lane_warp(b, x, y, u, v, t, depth, &w[0], &w[1], &w[2]);
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
