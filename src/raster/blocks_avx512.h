/* blocks_avx512.h — raster_triangle at one sample per pixel, 4x4 pixel blocks
 * at a time with AVX-512 (raster_avx512.c's RASTER_BLOCKS): sixteen pixels'
 * three edge values in six 64-bit vector adds, their early depth test in one
 * 16-lane compare, then up to four quads out.  The same integer edge values
 * and the same float depth formula as raster_tmp.h's quad walk, so the same
 * quads cover the same samples with the same depth; only the order in which
 * one triangle's quads come out differs (no two of them share a pixel).
 * Private to raster/. */
#ifndef MOSAIC_RASTER_BLOCKS_AVX512_H
#define MOSAIC_RASTER_BLOCKS_AVX512_H

#include <immintrin.h>

#include "raster/block_quads.h"

/* Lane l = ly * 4 + lx of a block is pixel (bx + lx, by + ly). */
static inline __m512 blocks_lane_x(void) { return _mm512_setr_ps(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3); }
static inline __m512 blocks_lane_y(void) { return _mm512_setr_ps(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3); }

/* The target's depth of the block's sixteen pixels; rows and columns past
 * the target read nothing (their lanes are masked off anyway). */
static inline __m512 blocks_load_depth(const raster_view *v, int bx, int by)
{
    const __mmask8 cols = (__mmask8)(v->width - bx >= 4 ? 0xf : (1u << (v->width - bx)) - 1u);
    __m128 row[4];
    for (int r = 0; r < 4; r++)
        row[r] = by + r < v->height
                     ? _mm_maskz_loadu_ps(cols, v->depth + (size_t)(by + r) * (size_t)v->width + (size_t)bx)
                     : _mm_setzero_ps();
    __m512 d = _mm512_castps128_ps512(row[0]);
    d = _mm512_insertf32x4(d, row[1], 1);
    d = _mm512_insertf32x4(d, row[2], 2);
    return _mm512_insertf32x4(d, row[3], 3);
}

static int raster_blocks_1spp_avx512(const fe_tri *t, const raster_view *v, int x0, int y0, int x1, int y1,
                                     raster_quad *out, float *z, raster_counts *counts)
{
    const frame_samples *sp = v->samples;
    int px0, py0, px1, py1;
    if (!raster_block_span(t, x0, y0, x1, y1, &px0, &py0, &px1, &py1)) return 0;
    const int bx0 = px0 & ~3, by0 = py0 & ~3;
    /* E_e(pixel) = a * 256 * px + b * 256 * py + (a * dx + b * dy + c), in
     * int64 as the quad walk has it; per-lane offsets in two vectors. */
    __m512i lo_off[3], hi_off[3];
    int64_t step_x[3], step_y[3], base[3];
    for (int e = 0; e < 3; e++) {
        const int64_t a = t->a[e], b = t->b[e];
        step_x[e] = a * FRAME_SUBPIXELS;
        step_y[e] = b * FRAME_SUBPIXELS;
        base[e] = a * sp->dx[0] + b * sp->dy[0] + t->c[e] + step_x[e] * bx0 + step_y[e] * by0;
        const int64_t sx = step_x[e], sy = step_y[e];
        const __m256i xs = _mm256_setr_epi64x(0, sx, 2 * sx, 3 * sx);
        const __m256i row1 = _mm256_add_epi64(xs, _mm256_set1_epi64x(sy));
        const __m512i row01 = _mm512_inserti64x4(_mm512_castsi256_si512(xs), row1, 1);
        lo_off[e] = row01;
        hi_off[e] = _mm512_add_epi64(row01, _mm512_set1_epi64(2 * sy));
    }
    const bool depth_test = v->depth && t->draw->depth_test;
    const bool want_z = depth_test || t->draw->depth_write;
    const __m512 fx = _mm512_set1_ps(sp->fx[0]), fy = _mm512_set1_ps(sp->fy[0]);
    const __m512 tx0 = _mm512_set1_ps(t->x0), ty0 = _mm512_set1_ps(t->y0);
    const __m512 z0 = _mm512_set1_ps(t->z[0]), zx = _mm512_set1_ps(t->z[1]), zy = _mm512_set1_ps(t->z[2]);
    int n = 0;
    uint64_t covered = 0;
    for (int by = by0; by < py1; by += 4) {
        const uint32_t rows = raster_block_rows(py0 - by, py1 - by);
        int64_t row_e[3];
        for (int e = 0; e < 3; e++) row_e[e] = base[e] + step_y[e] * (by - by0);
        for (int bx = bx0; bx < px1; bx += 4) {
            __m512i any_lo = _mm512_setzero_si512(), any_hi = _mm512_setzero_si512();
            for (int e = 0; e < 3; e++) {
                const __m512i at = _mm512_set1_epi64(row_e[e] + step_x[e] * (bx - bx0));
                any_lo = _mm512_or_si512(any_lo, _mm512_add_epi64(at, lo_off[e]));
                any_hi = _mm512_or_si512(any_hi, _mm512_add_epi64(at, hi_off[e]));
            }
            uint32_t mask = ~((uint32_t)_mm512_movepi64_mask(any_lo) | (uint32_t)_mm512_movepi64_mask(any_hi) << 8);
            mask &= rows & raster_block_cols(px0 - bx, px1 - bx);
            if (!mask) continue;
            covered += (uint64_t)__builtin_popcount(mask);
            _Alignas(64) float zb[16];
            if (want_z) {
                /* ((float)px + fx) - x0, as raster_sample_depth has it */
                const __m512 px = _mm512_add_ps(_mm512_set1_ps((float)bx), blocks_lane_x());
                const __m512 py = _mm512_add_ps(_mm512_set1_ps((float)by), blocks_lane_y());
                const __m512 dx = _mm512_sub_ps(_mm512_add_ps(px, fx), tx0);
                const __m512 dy = _mm512_sub_ps(_mm512_add_ps(py, fy), ty0);
                const __m512 zv = _mm512_add_ps(_mm512_add_ps(z0, _mm512_mul_ps(zx, dx)), _mm512_mul_ps(zy, dy));
                _mm512_store_ps(zb, zv);
                if (depth_test) {
                    mask &= (uint32_t)_mm512_cmp_ps_mask(zv, blocks_load_depth(v, bx, by), _CMP_LT_OQ);
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
