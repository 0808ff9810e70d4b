/* quad_depth_avx2.h — raster_depth_scalar eight slots per instruction, for
 * the AVX2 and AVX-512 raster files (util/simd.h's target is in force).
 * The same operations in the same order (contraction is off), so the same
 * bits; quads on the target's right or top edge, where whole-row loads
 * would read past a row, take the scalar walk.  Private to raster/. */
#ifndef MOSAIC_RASTER_QUAD_DEPTH_AVX2_H
#define MOSAIC_RASTER_QUAD_DEPTH_AVX2_H

#include <immintrin.h>

#include "raster/quad_depth.h"

static inline uint64_t raster_depth_avx2(const raster_view *v, bool test, const frame_tri *t, int qx, int qy,
                                         uint64_t mask, float *zq)
{
    if (qx + 1 >= v->width || qy + 1 >= v->height) return raster_depth_scalar(v, test, t, qx, qy, mask, zq);
    const raster_zslots *zs = &v->zs;
    const int S = zs->spp, slots = zs->slots;
    const __m256 qxf = _mm256_set1_ps((float)qx), qyf = _mm256_set1_ps((float)qy);
    const __m256 x0 = _mm256_set1_ps(t->x0), y0 = _mm256_set1_ps(t->y0);
    const __m256 z0 = _mm256_set1_ps(t->z[0]), zx = _mm256_set1_ps(t->z[1]), zy = _mm256_set1_ps(t->z[2]);
    /* Lanes 0, 1 (row qy) are slots [0, 2S), lanes 2, 3 (row qy + 1) the rest. */
    const float *row0 = v->depth + ((size_t)qy * (size_t)v->width + (size_t)qx) * (size_t)S;
    const float *row1 = row0 + (size_t)v->width * (size_t)S;
    uint64_t pass = 0;
    for (int k = 0; k < slots; k += 8) {
        const __m256 px = _mm256_add_ps(qxf, _mm256_load_ps(zs->lx + k));
        const __m256 py = _mm256_add_ps(qyf, _mm256_load_ps(zs->ly + k));
        const __m256 dx = _mm256_sub_ps(_mm256_add_ps(px, _mm256_load_ps(zs->fx + k)), x0);
        const __m256 dy = _mm256_sub_ps(_mm256_add_ps(py, _mm256_load_ps(zs->fy + k)), y0);
        __m256 z = _mm256_add_ps(_mm256_add_ps(z0, _mm256_mul_ps(zx, dx)), _mm256_mul_ps(zy, dy));
        _mm256_storeu_ps(zq + k, z);
        if (!test) continue;
        __m256 d;
        if (S == 1) {
            __m128 lo = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)row0));  /* may-alias load */
            lo = _mm_loadh_pi(lo, (const __m64 *)row1);
            d = _mm256_castps128_ps256(lo);  /* slots 4..7 do not exist */
        } else if (S == 2) {
            d = _mm256_set_m128(_mm_loadu_ps(row1), _mm_loadu_ps(row0));
        } else {
            d = k < 2 * S ? _mm256_loadu_ps(row0 + k) : _mm256_loadu_ps(row1 + (k - 2 * S));
        }
        pass |= (uint64_t)(uint32_t)_mm256_movemask_ps(_mm256_cmp_ps(z, d, _CMP_LT_OQ)) << k;
    }
    return test ? mask & pass : mask;
}

#endif
