/* raster_avx512.c — raster_triangle and stoch_block with AVX-512: eight
 * 64-bit edge values per instruction, sign bits straight into a mask
 * register; at one sample per pixel, 4x4 blocks (blocks_avx512.h).
 * Fed by backend/tile.c through the ISA table (backend_isa_select). */
#include "util/cpu.h"
#if defined(UTIL_X86)
#pragma GCC target("avx512f,avx512dq,avx512bw,avx512vl,avx2,fma,bmi,bmi2,popcnt,lzcnt")
#include <immintrin.h>

#include "raster/blocks_avx512.h"
#include "raster/quad_depth_avx2.h"
#include "raster/small_block_avx2.h"
#include "raster/stoch.h"
#include "raster/stoch_lane.h"

static inline uint64_t cover_avx512(const int64_t row[3], const int64_t (*off)[4 * RASTER_MAX_SAMPLES + 8],
                                    int slots)
{
    const __m512i r0 = _mm512_set1_epi64(row[0]), r1 = _mm512_set1_epi64(row[1]), r2 = _mm512_set1_epi64(row[2]);
    uint64_t neg = 0;
    for (int k = 0; k < slots; k += 8) {
        __m512i e0 = _mm512_add_epi64(r0, _mm512_load_si512(&off[0][k]));
        __m512i e1 = _mm512_add_epi64(r1, _mm512_load_si512(&off[1][k]));
        __m512i e2 = _mm512_add_epi64(r2, _mm512_load_si512(&off[2][k]));
        __m512i any = _mm512_ternarylogic_epi64(e0, e1, e2, 0xfe);  /* e0 | e1 | e2 */
        neg |= (uint64_t)_mm512_movepi64_mask(any) << k;
    }
    uint64_t valid = slots == 64 ? ~0ull : (1ull << slots) - 1;
    return ~neg & valid;
}

#define RASTER_FN raster_triangle_avx512
#define RASTER_QUADS_FN raster_quads_avx512
#define RASTER_SMALL_FN raster_small_avx512
#define RASTER_SMALL_BLOCK_FN raster_small_block_avx512
#define RASTER_SMALL_COVER raster_small_cover_avx2
#define RASTER_SMALL_DEPTH raster_small_depth_avx2
#define RASTER_COVER cover_avx512
#define RASTER_DEPTH raster_depth_avx2
#define RASTER_BLOCKS raster_blocks_1spp_avx512
#include "raster/raster_tmp.h"

/* The sign bits of sixteen int lanes (0 or -1) as a mask. */
static inline uint32_t stoch_mask16_avx512(const int *in)
{
    return (uint32_t)_mm512_movepi32_mask(_mm512_load_si512((const void *)in));
}
/* Appends the 32-bit lanes of src[0..16) that mask selects to dst, in lane
 * order; writes 16 lanes of dst (the packet has the room). */
static inline void stoch_compress16_avx512(void *dst, const void *src, uint32_t mask)
{
    const __m512i v = _mm512_loadu_si512(src);
    _mm512_storeu_si512(dst, _mm512_maskz_compress_epi32((__mmask16)mask, v));
}
/* stoch_early_depth by one masked gather: the covered lanes' depths in the
 * target (the others are not read: a block may hang over the target's
 * edge), compared as the scalar loop does (false for NaN). */
static inline uint32_t stoch_early_depth_avx512(const stoch_block *blk, const raster_view *v)
{
    const __m512i at = _mm512_add_epi32(_mm512_loadu_si512(v->lane_depth),
                                        _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)blk->sample)));
    const __mmask16 m = (__mmask16)blk->covered;
    const __m512 dz = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), m, at, stoch_block_depth(blk, v), 4);
    return (uint32_t)_mm512_mask_cmp_ps_mask(m, _mm512_load_ps(blk->hits.z), dz, _CMP_LT_OQ);
}
#define STOCH_EARLY_DEPTH16 stoch_early_depth_avx512
#define STOCH_MASK16 stoch_mask16_avx512
#define STOCH_COMPRESS16 stoch_compress16_avx512
#define STOCH_RANK_WALK_FN stoch_rank_walk_avx512
#define STOCH_CHUNK 16
#include "raster/stoch_rank_walk_tmp.h"

#define STOCH_WALK_FN raster_stochastic_avx512
#include "raster/stoch_walk_tmp.h"
#endif
