/* blocks_avx2.h — raster_triangle at one sample per pixel, 4x4 pixel blocks
 * at a time with AVX2 (raster_avx2.c's RASTER_BLOCKS), as blocks_avx512.h
 * does with AVX-512: sixteen pixels' three edge values as 32-bit lanes
 * (small_block_avx2.h's cover, two rows per instruction), their depth and
 * early test in two eight-lane compares, then up to four quads out.  32 bits
 * hold the edge values only while the rectangle's are small: the walk takes
 * a triangle when every edge value over its blocks lies within +-2^29 (an
 * edge's extremes over a rectangle are at its corners), else it returns -1
 * and the 64-bit quad walk takes it.  The same integer edge values and the
 * same float depth formula as raster_tmp.h's quad walk, so the same quads
 * cover the same samples with the same depth; only the order in which one
 * triangle's quads come out differs (no two of them share a pixel).
 * Private to raster/. */
#ifndef MOSAIC_RASTER_BLOCKS_AVX2_H
#define MOSAIC_RASTER_BLOCKS_AVX2_H

#include <immintrin.h>

#include "raster/block_quads.h"
#include "raster/small_block_avx2.h"

#define BLOCKS_AVX2_LIMIT (INT64_C(1) << 29)

/* Two rows of the target's depth at (bx, by) as one vector, columns past
 * the target (cols of 4) and a row past it not read. */
static inline __m256 blocks_avx2_depth_rows(const raster_view *v, int bx, int by, __m128i cols)
{
    const float *p = v->depth + (size_t)by * (size_t)v->width + (size_t)bx;
    const __m128 r0 = _mm_maskload_ps(p, cols);
    const __m128 r1 = by + 1 < v->height ? _mm_maskload_ps(p + v->width, cols) : _mm_setzero_ps();
    return _mm256_set_m128(r1, r0);
}

static int raster_blocks_1spp_avx2(const fe_tri *t, const raster_view *v, int x0, int y0, int x1, int y1,
                                   raster_quad *out, float *z, raster_counts *counts)
{
    const frame_samples *sp = v->samples;
    /* The pixels that may be covered: the rectangle and t's bounds. */
    const int px0 = x0 > t->min_x ? x0 : t->min_x, px1 = x1 < t->max_x + 1 ? x1 : t->max_x + 1;
    const int py0 = y0 > t->min_y ? y0 : t->min_y, py1 = y1 < t->max_y + 1 ? y1 : t->max_y + 1;
    if (px0 >= px1 || py0 >= py1) return 0;
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
    const __m256 lx = _mm256_setr_ps(0, 1, 2, 3, 0, 1, 2, 3), ly = _mm256_setr_ps(0, 0, 0, 0, 1, 1, 1, 1);
    const __m256 fx = _mm256_set1_ps(sp->fx[0]), fy = _mm256_set1_ps(sp->fy[0]), two = _mm256_set1_ps(2.0f);
    const __m256 tx0 = _mm256_set1_ps(t->x0), ty0 = _mm256_set1_ps(t->y0);
    const __m256 z0 = _mm256_set1_ps(t->z[0]), zx = _mm256_set1_ps(t->z[1]), zy = _mm256_set1_ps(t->z[2]);
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
                /* ((float)px + fx) - x0, as raster_sample_depth has it */
                const __m256 dx = _mm256_sub_ps(_mm256_add_ps(_mm256_add_ps(_mm256_set1_ps((float)bx), lx), fx), tx0);
                const __m256 py01 = _mm256_add_ps(_mm256_set1_ps((float)by), ly);
                const __m256 dy01 = _mm256_sub_ps(_mm256_add_ps(py01, fy), ty0);
                const __m256 dy23 = _mm256_sub_ps(_mm256_add_ps(_mm256_add_ps(py01, two), fy), ty0);
                const __m256 zdx = _mm256_add_ps(z0, _mm256_mul_ps(zx, dx));
                const __m256 z01 = _mm256_add_ps(zdx, _mm256_mul_ps(zy, dy01));
                const __m256 z23 = _mm256_add_ps(zdx, _mm256_mul_ps(zy, dy23));
                _mm256_store_ps(zb, z01);
                _mm256_store_ps(zb + 8, z23);
                if (depth_test) {
                    const int w = v->width - bx;
                    const __m128i cols = _mm_cmpgt_epi32(_mm_set1_epi32(w > 4 ? 4 : w), _mm_setr_epi32(0, 1, 2, 3));
                    const __m256 d01 = blocks_avx2_depth_rows(v, bx, by, cols);
                    const __m256 d23 = by + 2 < v->height ? blocks_avx2_depth_rows(v, bx, by + 2, cols)
                                                           : _mm256_setzero_ps();
                    mask &= (uint32_t)_mm256_movemask_ps(_mm256_cmp_ps(z01, d01, _CMP_LT_OQ)) |
                            (uint32_t)_mm256_movemask_ps(_mm256_cmp_ps(z23, d23, _CMP_LT_OQ)) << 8;
                    if (!mask) continue;
                }
            }
            n = raster_block_quads(t, bx, by, mask, zb, want_z, out, z, n);
        }
    }
    counts->samples += covered;
    counts->pixels += covered;
    return n;
}

#endif
