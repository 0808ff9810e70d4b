/* blocks_avx2.h — raster_triangle at one sample per pixel, 4x4 pixel blocks
 * at a time with AVX2 (raster_avx2.c's RASTER_BLOCKS), as blocks_avx512.h
 * does with AVX-512: sixteen pixels' three edge values as 32-bit lanes, and
 * their depth and early test, as small_block_avx2.h has them for a small
 * triangle's blocks (two rows per instruction), then up to four quads out.
 * 32 bits hold the edge values only while the rectangle's are small: the
 * walk takes a triangle when every edge value over its blocks lies within
 * +-2^29 (an edge's extremes over a rectangle are at its corners), else it
 * returns -1 and the 64-bit quad walk takes it.  The same integer edge
 * values and the same float depth formula as raster_tmp.h's quad walk, so
 * the same quads cover the same samples with the same depth; only the order
 * in which one triangle's quads come out differs (no two share a pixel).
 * Private to raster/. */
#ifndef MOSAIC_RASTER_BLOCKS_AVX2_H
#define MOSAIC_RASTER_BLOCKS_AVX2_H

#include <immintrin.h>

#include "raster/block_quads.h"
#include "raster/small_block_avx2.h"

#define BLOCKS_AVX2_LIMIT (INT64_C(1) << 29)

static int raster_blocks_1spp_avx2(const fe_tri *t, const raster_view *v, int x0, int y0, int x1, int y1,
                                   raster_quad *out, float *z, raster_counts *counts)
{
    const frame_samples *sp = v->samples;
    int px0, py0, px1, py1;
    if (!raster_block_span(t, x0, y0, x1, y1, &px0, &py0, &px1, &py1)) return 0;
    const int bx0 = px0 & ~3, by0 = py0 & ~3, bx1 = (px1 + 3) & ~3, by1 = (py1 + 3) & ~3;
    /* E_e(pixel) = a * 256 * px + b * 256 * py + (a * dx + b * dy + c); in
     * 32 bits from the first block's lane 0 when every block lane's fits. */
    int32_t base[3], step_x[3], step_y[3];
    for (int e = 0; e < 3; e++) {
        const int64_t sx = (int64_t)t->a[e] * FRAME_SUBPIXELS, sy = (int64_t)t->b[e] * FRAME_SUBPIXELS;
        const int64_t e00 = (int64_t)t->a[e] * sp->dx[0] + (int64_t)t->b[e] * sp->dy[0] + t->c[e] + sx * bx0 + sy * by0;
        const int64_t ex = sx * (bx1 - 1 - bx0), ey = sy * (by1 - 1 - by0);
        const int64_t lo = e00 + (ex < 0 ? ex : 0) + (ey < 0 ? ey : 0), hi = e00 + (ex > 0 ? ex : 0) + (ey > 0 ? ey : 0);
        if (lo < -BLOCKS_AVX2_LIMIT || hi > BLOCKS_AVX2_LIMIT) return -1;
        base[e] = (int32_t)e00;
        step_x[e] = (int32_t)sx;  /* |sx| * 3 <= hi - lo: the blocks are 4 wide */
        step_y[e] = (int32_t)sy;
    }
    const bool depth_test = v->depth && t->draw->depth_test;
    const bool want_z = depth_test || t->draw->depth_write;
    int n = 0;
    uint64_t covered = 0;
    for (int by = by0; by < py1; by += 4) {
        const uint32_t rows = raster_block_rows(py0 - by, py1 - by);
        for (int bx = bx0; bx < px1; bx += 4) {
            int32_t eb[3];
            for (int e = 0; e < 3; e++) eb[e] = base[e] + step_x[e] * (bx - bx0) + step_y[e] * (by - by0);
            uint32_t mask = raster_small_cover_avx2(eb, step_x, step_y) & rows & raster_block_cols(px0 - bx, px1 - bx);
            if (!mask) continue;
            covered += (uint64_t)__builtin_popcount(mask);
            _Alignas(32) float zb[16];
            if (want_z) {
                const int cols = v->width - bx < 4 ? v->width - bx : 4, rows_in = v->height - by < 4 ? v->height - by : 4;
                mask = raster_small_depth_avx2(v, depth_test, t, bx, by, cols, rows_in, mask, zb);
                if (!mask) continue;
            }
            n = raster_block_quads(t, bx, by, mask, zb, want_z, out, z, n);
        }
    }
    counts->samples += covered;
    counts->pixels += covered;
    return n;
}

#endif
