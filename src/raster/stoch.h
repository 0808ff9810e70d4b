/* stoch.h — stochastic coverage of 5D visibility samples (raster/stoch.c).
 * Fed by the stochastic back-end; reads fe_tri / fe_blur from the front-end. */
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

#endif
