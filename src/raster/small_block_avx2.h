/* small_block_avx2.h — small_block.h's coverage and depth of a 4x4 block,
 * eight lanes (two rows) per instruction, for the AVX2 and AVX-512 raster
 * files (their target pragmas are in force).  The same integer edge values
 * and the same float operations in the same order (contraction is off), so
 * the same bits.  Private to raster/. */
#ifndef MOSAIC_RASTER_SMALL_BLOCK_AVX2_H
#define MOSAIC_RASTER_SMALL_BLOCK_AVX2_H

#include <immintrin.h>

#include "raster/small_block.h"

static inline uint32_t raster_small_cover_avx2(const int32_t e0[3], const int32_t step_x[3], const int32_t step_y[3])
{
    const __m256i lx = _mm256_setr_epi32(0, 1, 2, 3, 0, 1, 2, 3), ly = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    __m256i lo = _mm256_setzero_si256(), hi = _mm256_setzero_si256();
    for (int e = 0; e < 3; e++) {
        const __m256i sy = _mm256_set1_epi32(step_y[e]);
        const __m256i r01 = _mm256_add_epi32(_mm256_set1_epi32(e0[e]),
                                             _mm256_add_epi32(_mm256_mullo_epi32(_mm256_set1_epi32(step_x[e]), lx),
                                                              _mm256_mullo_epi32(sy, ly)));
        lo = _mm256_or_si256(lo, r01);                                          /* rows 0, 1 */
        hi = _mm256_or_si256(hi, _mm256_add_epi32(r01, _mm256_add_epi32(sy, sy)));  /* rows 2, 3 */
    }
    const uint32_t neg = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(lo)) |
                         (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(hi)) << 8;
    return ~neg & 0xffffu;
}

/* Columns [0, cols) of a row of depth, cols 1..4 (a load never reaches
 * past them: the block's quads end in the bin, which another worker's may
 * follow, and the target's last row ends the buffer). */
static inline __m128 small_depth_row(const float *row, int cols)
{
    if (cols == 4) return _mm_loadu_ps(row);
    if (cols == 2) return _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)row));  /* may-alias load */
    return _mm_maskload_ps(row, _mm_cmpgt_epi32(_mm_set1_epi32(cols), _mm_setr_epi32(0, 1, 2, 3)));
}

static inline uint32_t raster_small_depth_avx2(const raster_view *v, bool test, const fe_tri *t, int x0, int y0, int cols,
                                               int rows, uint32_t mask, float zb[16])
{
    const frame_samples *sp = v->samples;
    const __m256 lx = _mm256_setr_ps(0, 1, 2, 3, 0, 1, 2, 3), ly = _mm256_setr_ps(0, 0, 0, 0, 1, 1, 1, 1);
    const __m256 two = _mm256_set1_ps(2.0f);
    const __m256 tx0 = _mm256_set1_ps(t->x0), ty0 = _mm256_set1_ps(t->y0);
    const __m256 z0 = _mm256_set1_ps(t->z[0]), zx = _mm256_set1_ps(t->z[1]), zy = _mm256_set1_ps(t->z[2]);
    /* ((float)px + fx) - x0, as raster_sample_depth has it */
    const __m256 px = _mm256_add_ps(_mm256_set1_ps((float)x0), lx);
    const __m256 py01 = _mm256_add_ps(_mm256_set1_ps((float)y0), ly), py23 = _mm256_add_ps(py01, two);
    const __m256 dx = _mm256_sub_ps(_mm256_add_ps(px, _mm256_set1_ps(sp->fx[0])), tx0);
    const __m256 fy = _mm256_set1_ps(sp->fy[0]);
    const __m256 dy01 = _mm256_sub_ps(_mm256_add_ps(py01, fy), ty0), dy23 = _mm256_sub_ps(_mm256_add_ps(py23, fy), ty0);
    const __m256 zdx = _mm256_add_ps(z0, _mm256_mul_ps(zx, dx));
    const __m256 z01 = _mm256_add_ps(zdx, _mm256_mul_ps(zy, dy01)), z23 = _mm256_add_ps(zdx, _mm256_mul_ps(zy, dy23));
    _mm256_store_ps(zb, z01);
    _mm256_store_ps(zb + 8, z23);
    if (!test) return mask;
    /* Only the block's first rows x cols pixels (the lanes past them are
     * not in mask). */
    const size_t w = (size_t)v->width;
    const float *row = v->depth + (size_t)y0 * w + (size_t)x0;
    const __m128 none = _mm_setzero_ps();
    const __m256 d01 = _mm256_set_m128(rows > 1 ? small_depth_row(row + w, cols) : none, small_depth_row(row, cols));
    const __m256 d23 = rows > 2 ? _mm256_set_m128(rows > 3 ? small_depth_row(row + 3 * w, cols) : none,
                                                  small_depth_row(row + 2 * w, cols))
                                : _mm256_setzero_ps();
    const uint32_t pass = (uint32_t)_mm256_movemask_ps(_mm256_cmp_ps(z01, d01, _CMP_LT_OQ)) |
                          (uint32_t)_mm256_movemask_ps(_mm256_cmp_ps(z23, d23, _CMP_LT_OQ)) << 8;
    return mask & pass;
}

#endif
