/* raster_scalar.c — the portable raster_triangle (any x86-64 or other CPU).
 * Fed by backend/tile.c through the ISA table (backend_isa_select). */
#include <string.h>

#include "raster/quad_depth.h"
#include "raster/small_block.h"
#include "raster/stoch.h"
#include "raster/stoch_lane.h"

static inline uint64_t cover_scalar(const int64_t row[3], const int64_t (*off)[4 * RASTER_MAX_SAMPLES + 8], int slots)
{
    uint64_t mask = 0;
    for (int k = 0; k < slots; k++) {
        int64_t any_negative = (row[0] + off[0][k]) | (row[1] + off[1][k]) | (row[2] + off[2][k]);
        mask |= (uint64_t)(any_negative >= 0) << k;
    }
    return mask;
}

#define RASTER_FN raster_triangle_scalar
#define RASTER_QUADS_FN raster_quads_scalar
#define RASTER_SMALL_FN raster_small_scalar
#define RASTER_SMALL_BLOCK_FN raster_small_block_scalar
#define RASTER_SMALL_COVER raster_small_cover_scalar
#define RASTER_SMALL_DEPTH raster_small_depth_scalar
#define RASTER_COVER cover_scalar
#define RASTER_DEPTH raster_depth_scalar
#include "raster/raster_tmp.h"

/* The lanes of sixteen ints (0 or -1) as bits. */
static inline uint32_t stoch_mask16_scalar(const int *in)
{
    uint32_t m = 0;
    for (int i = 0; i < 16; i++) m |= (uint32_t)(in[i] & 1) << i;
    return m;
}
/* Appends the 32-bit lanes of src[0..16) that mask selects to dst, in lane
 * order. */
static inline void stoch_compress16_scalar(void *dst, const void *src, uint32_t mask)
{
    unsigned char *d = dst;
    for (; mask; mask &= mask - 1, d += 4) memcpy(d, (const unsigned char *)src + 4 * __builtin_ctz(mask), 4);
}
#define STOCH_GRID16 stoch_grid16
#define STOCH_MASK16 stoch_mask16_scalar
#define STOCH_COMPRESS16 stoch_compress16_scalar
#define STOCH_EARLY_DEPTH16 stoch_early_depth
#define STOCH_RANK_WALK_FN stoch_rank_walk_scalar
#define STOCH_CHUNK 8
#include "raster/stoch_rank_walk_tmp.h"

#define STOCH_WALK_FN raster_stochastic_scalar
#include "raster/stoch_walk_tmp.h"
