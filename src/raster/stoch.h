/* stoch.h — stochastic coverage of 5D visibility samples (x, y, u, v, t),
 * a 4x4 block of pixels at a time, each pixel at one sample of one rank
 * (raster_ranked).  Four paths (seed 001, 5.1): the 2D rasterizer's fixed-
 * point edges for a static, sharp triangle (stoch.c); time-continuous edge
 * functions when it moves, aperture-continuous 4D edge functions when it
 * is defocused, warping its vertices to the sample's (u, v, t) when both
 * (stoch_lane.h, run per ISA by stoch_block.c).
 * Fed by the stochastic back-end (backend/decouple.c); reads fe_tri /
 * fe_blur from the front-end. */
#ifndef MOSAIC_RASTER_STOCH_H
#define MOSAIC_RASTER_STOCH_H

#include "raster/raster.h"

/* Lane (y & 3) * 4 + (x & 3) of a block: for each covered lane, the
 * sample's window depth and where it lands in the triangle's shading
 * reference (for a static, sharp triangle: the sample itself). */
#define STOCH_LANES 16
typedef struct stoch_hits {
    _Alignas(64) float z[STOCH_LANES];
    _Alignas(64) float rx[STOCH_LANES];
    _Alignas(64) float ry[STOCH_LANES];
} stoch_hits;

/* The block at (x0, y0) (multiples of 4) against blurred triangle b:
 * `lanes` is one rank's tables at the block (64-byte aligned, see
 * raster_ranked).  Returns the covered lanes among `mask`.  Every ISA
 * decides the same.  (stoch_block_fn is declared in frontend.h, for
 * pipe_frame.) */
stoch_block_fn stoch_block_select(mos_isa isa);

/* The same for a static, sharp triangle: sample[lane] is each lane's
 * sample index, tested against the fixed-point edges of the 2D rasterizer
 * (so that decoupled and MSAA agree without blur). */
uint32_t stoch_block_static(const fe_tri *t, const raster_samples *sp, int x0, int y0, const uint8_t *sample,
                            uint32_t mask, stoch_hits *out);

#endif
