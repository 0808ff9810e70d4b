/* raster_avx2.c — raster_triangle with AVX2: four 64-bit edge values per
 * instruction; at one sample per pixel, 4x4 blocks with 32-bit edge values
 * where they fit (blocks_avx2.h).  Fed by backend/tile.c through the ISA
 * table (backend_isa_select). */
#include "util/cpu.h"
#if defined(UTIL_X86)
#pragma GCC target("avx2,fma,bmi,bmi2,popcnt,lzcnt")
#include <immintrin.h>

#include "raster/blocks_avx2.h"
#include "raster/quad_depth_avx2.h"
#include "raster/small_block_avx2.h"
#include "raster/stoch.h"
#include "raster/stoch_lane.h"

static inline uint64_t cover_avx2(const int64_t row[3], const int64_t (*off)[4 * RASTER_MAX_SAMPLES + 8], int slots)
{
    const __m256i r0 = _mm256_set1_epi64x(row[0]), r1 = _mm256_set1_epi64x(row[1]), r2 = _mm256_set1_epi64x(row[2]);
    uint64_t neg = 0;
    for (int k = 0; k < slots; k += 4) {
        __m256i e0 = _mm256_add_epi64(r0, _mm256_load_si256((const __m256i *)&off[0][k]));
        __m256i e1 = _mm256_add_epi64(r1, _mm256_load_si256((const __m256i *)&off[1][k]));
        __m256i e2 = _mm256_add_epi64(r2, _mm256_load_si256((const __m256i *)&off[2][k]));
        __m256i any = _mm256_or_si256(_mm256_or_si256(e0, e1), e2);
        neg |= (uint64_t)(unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(any)) << k;
    }
    uint64_t valid = slots == 64 ? ~0ull : (1ull << slots) - 1;
    return ~neg & valid;
}

#define RASTER_FN raster_triangle_avx2
#define RASTER_QUADS_FN raster_quads_avx2
#define RASTER_SMALL_FN raster_small_avx2
#define RASTER_SMALL_BLOCK_FN raster_small_block_avx2
#define RASTER_SMALL_COVER raster_small_cover_avx2
#define RASTER_SMALL_DEPTH raster_small_depth_avx2
#define RASTER_COVER cover_avx2
#define RASTER_DEPTH raster_depth_avx2
#define RASTER_BLOCKS raster_blocks_1spp_avx2
#include "raster/raster_tmp.h"

/* The sign bits of sixteen int lanes (0 or -1) as a mask. */
static inline uint32_t stoch_mask16_avx2(const int *in)
{
    const __m256 lo = _mm256_castsi256_ps(_mm256_load_si256((const __m256i *)(const void *)in));
    const __m256 hi = _mm256_castsi256_ps(_mm256_load_si256((const __m256i *)(const void *)(in + 8)));
    return (uint32_t)_mm256_movemask_ps(lo) | (uint32_t)_mm256_movemask_ps(hi) << 8;
}
#define STOCH_MASK16 stoch_mask16_avx2
#define STOCH_WALK_FN raster_stochastic_avx2
#define STOCH_CHUNK 8
#include "raster/stoch_walk_tmp.h"
#endif
