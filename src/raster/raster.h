/* raster.h — 2D coverage: edge functions over 24.8 fixed-point samples,
 * emitting 2x2 quads with a per-sample coverage mask after early depth.
 * Fed by the per-bin back-end (backend/tile.c); feeds the shade stage. */
#ifndef MOSAIC_RASTER_H
#define MOSAIC_RASTER_H

#include <stdbool.h>
#include <stdint.h>

#include "frontend/frontend.h"

#define RASTER_SUBPIXEL_BITS 8
#define RASTER_SUBPIXELS (1 << RASTER_SUBPIXEL_BITS)
#define RASTER_MAX_SAMPLES 16

/* Sample positions inside a pixel in 1/256 pixel from its lower-left
 * corner (the D3D standard patterns, 1/16-pixel grid). */
typedef struct raster_samples {
    int count;
    int32_t dx[RASTER_MAX_SAMPLES], dy[RASTER_MAX_SAMPLES];
    float fx[RASTER_MAX_SAMPLES], fy[RASTER_MAX_SAMPLES];  /* same, in pixels */
} raster_samples;

bool raster_samples_supported(int spp);
void raster_samples_get(int spp, raster_samples *out);

/* A 2x2 quad: lane i covers pixel (x + (i & 1), y + (i >> 1)); bit
 * (lane * spp + s) of cover is sample s of that lane. */
typedef struct raster_quad {
    const fe_tri *tri;
    uint16_t x, y;
    uint64_t cover;
} raster_quad;

/* Where raster reads depth for the early test (NULL depth = no test). */
typedef struct raster_view {
    const float *depth;  /* [y][x][s] of the target */
    int width;
    const raster_samples *samples;
} raster_view;

typedef struct raster_counts {
    uint64_t samples;  /* covered samples before depth */
    uint64_t pixels;   /* pixels with a covered sample before depth */
} raster_counts;

/* Rasterizes t over pixels [x0, x1) x [y0, y1) (x0, y0 even; the caller has
 * intersected the rectangle with the bin and t's pixel bounds), appending
 * quads with a sample left after early depth to out; returns how many.
 * One body (raster_tmp.h) compiled per instruction set. */
/* The ISA that `want` resolves to on this CPU (MOS_ISA_AUTO if unavailable). */
mos_isa raster_isa_available(mos_isa want);
raster_fn raster_select(mos_isa isa);

/* Window depth of sample s of pixel (px, py): the one formula the early
 * test and the ROP share, so both see the same bits. */
static inline float raster_sample_depth(const fe_tri *t, const raster_samples *sp, int px, int py, int s)
{
    return fe_plane(t->z, (float)px + sp->fx[s] - t->x0, (float)py + sp->fy[s] - t->y0);
}

#endif
