/* block_quads.h — the quads of a 4x4 pixel block out of the 2D rasterizer's
 * block walks (raster_tmp.h's small-triangle path, simd_tmp.h's block
 * walk), and the masks of a block's lanes within a rectangle
 * that those walks and the stochastic ones (stoch.h) share.  Private to
 * raster/. */
#ifndef MOSAIC_RASTER_BLOCK_QUADS_H
#define MOSAIC_RASTER_BLOCK_QUADS_H

#include "raster/raster.h"

/* The pixels [px0, px1) x [py0, py1) of the rectangle [x0, x1) x [y0, y1)
 * that t's bounds may cover; false when none. */
static inline bool raster_block_span(const frame_tri *t, int x0, int y0, int x1, int y1, int *px0, int *py0, int *px1,
                                     int *py1)
{
    *px0 = x0 > t->min_x ? x0 : t->min_x;
    *px1 = x1 < t->max_x + 1 ? x1 : t->max_x + 1;
    *py0 = y0 > t->min_y ? y0 : t->min_y;
    *py1 = y1 < t->max_y + 1 ? y1 : t->max_y + 1;
    return *px0 < *px1 && *py0 < *py1;
}

/* Bits of a block's columns [lo, hi) (block-relative, clamped to 0..4) in
 * every row; of its rows [lo, hi). */
static inline uint32_t raster_block_cols(int lo, int hi)
{
    lo = lo < 0 ? 0 : lo;
    hi = hi > 4 ? 4 : hi;
    return (hi > lo ? ((1u << hi) - 1u) & ~((1u << lo) - 1u) : 0u) * 0x1111u;
}

static inline uint32_t raster_block_rows(int lo, int hi)
{
    lo = lo < 0 ? 0 : lo;
    hi = hi > 4 ? 4 : hi;
    return hi > lo ? ((1u << (4 * hi)) - 1u) & ~((1u << (4 * lo)) - 1u) : 0u;
}

/* Lane l = ly * 4 + lx of the block at (bx, by) is pixel (bx + lx, by + ly);
 * the quads with a lane in MASK are appended to out[n..], bottom row first,
 * left to right, with their lanes' depth from zb when WANT_Z (one sample a
 * pixel).  Returns the new n. */
static inline int raster_block_quads(const frame_tri *t, int bx, int by, uint32_t mask, const float zb[16], bool want_z,
                                     raster_quad *out, float *z, int n)
{
    for (int q = 0; q < 4; q++) {
        const int qx = (q & 1) * 2, qy = (q >> 1) * 2, l0 = qy * 4 + qx;
        const uint32_t bits = ((mask >> l0) & 3u) | ((mask >> (l0 + 4)) & 3u) << 2;
        if (!bits) continue;
        out[n].tri = t;
        out[n].x = (uint16_t)(bx + qx);
        out[n].y = (uint16_t)(by + qy);
        out[n].cover = bits;
        if (want_z) {
            float *zq = z + (size_t)n * RASTER_Z_STRIDE(1);
            zq[0] = zb[l0];
            zq[1] = zb[l0 + 1];
            zq[2] = zb[l0 + 4];
            zq[3] = zb[l0 + 5];
        }
        n++;
    }
    return n;
}

#endif
