/* stoch.h — stochastic coverage of 5D visibility samples (raster/stoch.c,
 * raster/stoch_block.c).  Fed by the stochastic back-end; reads fe_tri /
 * fe_blur from the front-end and the ranked sample tables of raster.h. */
#ifndef MOSAIC_RASTER_STOCH_H
#define MOSAIC_RASTER_STOCH_H

#include "raster/raster.h"

/* Whether t covers sample s of pixel (px, py), whose (u, v, t) is uvt[0..2]:
 * then its window depth and, for a blurred t, homogeneous barycentric
 * weights in triangle order (any common scale). */
bool stoch_test(const fe_tri *t, int px, int py, int s, const raster_samples *sp, const float *uvt, float *depth,
                float w[3]);

/* One sample of a blurred triangle at window (x, y), lens (u, v), time t:
 * the path its kind selects.  The tests check each path against warping. */
bool stoch_sample(const fe_blur *b, float x, float y, float u, float v, float t, float *depth, float w[3]);

/* A 4x4 pixel block tested at once: lane (y & 3) * 4 + (x & 3). */
#define STOCH_LANES 16
typedef struct stoch_hits {
    _Alignas(64) float z[STOCH_LANES];     /* window depth of each covered lane */
    float w[3][STOCH_LANES];  /* its homogeneous barycentric weights */
} stoch_hits;

/* The block at (x0, y0) (a multiple of 4) against blurred triangle b, each
 * pixel at one sample of one rank: `lanes` is that rank's tables at the
 * block (64-byte aligned, see raster_ranked).  Returns the covered lanes among `mask`;
 * every lane decides exactly as stoch_sample would.  (stoch_block_fn is
 * declared in frontend.h, for pipe_frame.) */
stoch_block_fn stoch_block_select(mos_isa isa);

#endif
