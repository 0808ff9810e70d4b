/* small_block.h — the one-block path of the 2D rasterizer for small
 * triangles at one sample per pixel (raster_tmp.h's RASTER_SMALL_FN): the
 * coverage of a 4x4 pixel block from 32-bit edge values, and its depth and
 * early test, one lane at a time here; simd_tmp.h does the same with
 * vectors and the same bits.  Private to raster/. */
#ifndef MOSAIC_RASTER_SMALL_BLOCK_H
#define MOSAIC_RASTER_SMALL_BLOCK_H

#include "raster/raster.h"

/* Lane l = ly * 4 + lx of the block is covered iff e0[e] + step_x[e] * lx +
 * step_y[e] * ly >= 0 for the three edges (no sum overflows: FRAME_TRI_SMALL). */
static inline uint32_t raster_small_cover_scalar(const int32_t e0[3], const int32_t step_x[3],
                                                 const int32_t step_y[3])
{
    uint32_t mask = 0;
    for (int l = 0; l < 16; l++) {
        int32_t any = 0;
        for (int e = 0; e < 3; e++) any |= e0[e] + step_x[e] * (l & 3) + step_y[e] * (l >> 2);
        mask |= (uint32_t)(any >= 0) << l;
    }
    return mask;
}

/* Writes zb[l], the depth of each lane of `mask` (raster_sample_depth's
 * bits), and returns `mask` less the lanes that fail the early test.  The
 * lanes of mask lie in the block's first `cols` columns and `rows` rows
 * (1..4 each, inside the target and the bin: the small-triangle path's
 * quads, or a block walk's block clipped to the target); the target's
 * depth is read there only. */
static inline uint32_t raster_small_depth_scalar(const raster_view *v, bool test, const frame_tri *t, int x0, int y0,
                                                 int cols, int rows, uint32_t mask, float zb[16])
{
    (void)cols, (void)rows;
    for (uint32_t left = mask; left; left &= left - 1) {
        const int l = __builtin_ctz(left), px = x0 + (l & 3), py = y0 + (l >> 2);
        const float z = raster_sample_depth(t, v->samples, px, py, 0);
        zb[l] = z;
        if (test && !(z < v->depth[(size_t)py * (size_t)v->width + (size_t)px])) mask &= ~(1u << l);
    }
    return mask;
}

#endif
