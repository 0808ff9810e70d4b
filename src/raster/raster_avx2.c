/* raster_avx2.c — the raster stage's bodies with AVX2 (raster_tmp.h,
 * stoch_rank_walk_tmp.h, stoch_walk_tmp.h) over simd_tmp.h's primitives at
 * eight lanes: four 64-bit edge values per instruction; at one sample per
 * pixel, 4x4 blocks.  Fed by backend/tile.c through the ISA table
 * (backend_isa_select). */
#include "util/cpu.h"
#if defined(UTIL_X86)
#define SIMD_LANES 8
#include "util/simd.h"

#include "raster/quad_depth_avx2.h"
#include "raster/simd_tmp.h"
#include "raster/stoch_lane.h"

#define RASTER_FN raster_triangle_avx2
#define RASTER_QUADS_FN raster_quads_avx2
#define RASTER_SMALL_FN raster_small_avx2
#define RASTER_SMALL_BLOCK_FN raster_small_block_avx2
#define RASTER_SMALL_COVER raster_small_cover_simd
#define RASTER_SMALL_DEPTH raster_block_depth_simd
#define RASTER_COVER raster_cover_simd
#define RASTER_DEPTH raster_depth_avx2
#define RASTER_BLOCKS raster_blocks_1spp_simd
#include "raster/raster_tmp.h"

#define STOCH_EARLY_DEPTH16 stoch_early_depth_simd
#define STOCH_GRID16 stoch_grid16_simd
#define STOCH_MASK16 stoch_mask16_simd
#define STOCH_COMPRESS16 stoch_compress16_simd
#define STOCH_RANK_WALK_FN stoch_rank_walk_avx2
#define STOCH_CHUNK 8
#include "raster/stoch_rank_walk_tmp.h"

#define STOCH_WALK_FN raster_stochastic_avx2
#include "raster/stoch_walk_tmp.h"
#endif
