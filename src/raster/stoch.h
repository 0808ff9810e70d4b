/* stoch.h — the stochastic rasterizer's private parts that its per-ISA
 * walks (stoch_walk_tmp.h) share with stoch.c: the static triangle's walk,
 * the finish of a block (early depth, counts, emit), the block masks and
 * the edge bounds of a rank. */
#ifndef MOSAIC_RASTER_STOCH_H
#define MOSAIC_RASTER_STOCH_H

#include <math.h>

#include "raster/block_quads.h"
#include "raster/raster.h"

/* A box [x0, x1) x [y0, y1) of pixels (not empty) in 4x4 blocks: the
 * lanes of its first and last block column and row (one block column or
 * row when the box's ends fall in the same one); every lane between. */
typedef struct stoch_box {
    int bx_first, bx_last, by_first, by_last;
    uint32_t col_first, col_last, row_first, row_last;
} stoch_box;

static inline void stoch_box_init(stoch_box *b, int x0, int y0, int x1, int y1)
{
    b->bx_first = x0 & ~3, b->bx_last = (x1 - 1) & ~3;
    b->by_first = y0 & ~3, b->by_last = (y1 - 1) & ~3;
    b->col_first = raster_block_cols(x0 - b->bx_first, x1 - b->bx_first);
    b->col_last = raster_block_cols(x0 - b->bx_last, x1 - b->bx_last);
    b->row_first = raster_block_rows(y0 - b->by_first, y1 - b->by_first);
    b->row_last = raster_block_rows(y0 - b->by_last, y1 - b->by_last);
}

/* The box's lanes of the block at (bx, by). */
static inline uint32_t stoch_box_lanes(const stoch_box *b, int bx, int by)
{
    const uint32_t cols = bx == b->bx_first ? b->col_first : bx == b->bx_last ? b->col_last : 0xffffu;
    const uint32_t rows = by == b->by_first ? b->row_first : by == b->by_last ? b->row_last : 0xffffu;
    return cols & rows;
}

#define STOCH_LANE_SLACK 0.03125f  /* pixels: covers the float error of evaluating a bound */

/* Edge bound k of a rank (frame_tri_blur.rank's ends q0, q1; INT16_MAX: none)
 * over lens u in [u0, u1], widened by slack, as that plane: n . (X, Y) <=
 * h0 + (s - s_lo) (h1 - h0) / (s_hi - s_lo), s = nx sx U + ny sy V, h0 and
 * h1 its ends; a line where its slope is well conditioned (its rounding
 * times |s| stays far below the slack), else the larger end, which bounds
 * the chord over [s_lo, s_hi] too.  Branch-free: the walk runs it over
 * sixteen ranks at a time (stoch_walk_tmp.h). */
static inline void stoch_edge_plane(const frame_tri_blur *b, int k, int16_t q0, int16_t q1, float u0, float u1, float slack,
                                    float *x, float *y, float *u, float *v, float *c)
{
    const float unit = 1.0f / (float)(1 << b->rank_shift), nx = b->edge_n[k][0], ny = b->edge_n[k][1];
    float s_lo, s_hi;
    frame_edge_s_range(b, k, u0, u1, &s_lo, &s_hi);
    const float h0 = b->edge_o[k] + (float)q0 * unit, h1 = b->edge_o[k] + (float)q1 * unit;
    const int line = (s_hi > s_lo) & (fabsf(h1 - h0) * (fabsf(s_lo) + fabsf(s_hi)) <= 16384.0f * (s_hi - s_lo));
    const float q = (h1 - h0) / (s_hi - s_lo), slope = line ? q : 0.0f;  /* q: in every lane, no branch */
    const float end = line ? h0 - slope * s_lo : h0 > h1 ? h0 : h1;
    const int bound = (q0 != INT16_MAX) & (q1 != INT16_MAX);
    *x = bound ? nx : 0.0f;
    *y = bound ? ny : 0.0f;
    *u = bound ? -slope * nx * b->sx : 0.0f;
    *v = bound ? -slope * ny * b->sy : 0.0f;
    *c = bound ? end + slack : INFINITY;
}

/* The grid points of sixteen reference coordinates r (64-byte aligned),
 * raster_grid_point's (each ISA's walk may take them in vectors instead,
 * STOCH_GRID16; the same bits). */
static inline void stoch_grid16(const float *r, float rate, int32_t *g)
{
    for (int l = 0; l < 16; l++) g[l] = raster_grid_point(r[l], rate);
}

/* A new triangle: fresh stamps in px. */
void stoch_pixels_next(stoch_pixels *px);

/* Per triangle: the covered lanes of a block that are the first covered
 * (and the first live) sample of their pixel (by blk->block). */
static inline void stoch_first_of_pixel(stoch_pixels *px, stoch_block *blk)
{
    const int b = blk->block;
    if (px->block_stamp[b] != px->stamp) {
        px->block_stamp[b] = px->stamp;
        px->covered[b] = px->live[b] = 0;
    }
    blk->first_covered = blk->covered & ~(uint32_t)px->covered[b];
    blk->first_live = blk->live & ~(uint32_t)px->live[b];
    px->covered[b] = (uint16_t)(px->covered[b] | blk->covered);
    px->live[b] = (uint16_t)(px->live[b] | blk->live);
}

/* The target's depth at blk's first pixel, first sample (lane l's pixel
 * is raster_view.lane_depth[l] floats on). */
static inline const float *stoch_block_depth(const stoch_block *blk, const raster_view *v)
{
    return v->depth + ((size_t)blk->y0 * (size_t)v->width + (size_t)blk->x0) * (size_t)v->samples->count;
}
/* Early depth: the covered lanes of blk nearer than what the ROP has
 * written so far to their samples, lane by lane (each ISA's walk may
 * gather them instead, STOCH_EARLY_DEPTH16; the same bits). */
static inline uint32_t stoch_early_depth(const stoch_block *blk, const raster_view *v)
{
    const float *depth = stoch_block_depth(blk, v);
    uint32_t live = blk->covered;
    for (uint32_t m = blk->covered; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        live &= ~((uint32_t)!(blk->hits.z[l] < depth[v->lane_depth[l] + blk->sample[l]]) << l);
    }
    return live;
}

/* blk with its covered lanes, its hits and its live lanes (early depth's,
 * or the covered ones without a depth test): the first covered / live
 * sample of each pixel, the count of covered pixels, then emit (the walks
 * count covered samples themselves, raster_counts.samples with
 * stoch_covered). */
static inline void stoch_finish_block(stoch_block *blk, uint32_t live, stoch_pixels *px,
                                      stoch_emit_fn emit, void *consumer, raster_counts *counts)
{
    blk->live = live;
    stoch_first_of_pixel(px, blk);
    counts->pixels += (uint64_t)__builtin_popcount(blk->first_covered);
    emit(consumer, blk);
}


/* The walk of a static, sharp triangle (any rank order; its box is the
 * rectangle), stoch_block_static per block. */
void raster_stochastic_static(const frame_tri *tri, const raster_view *v, const frame_tuples *tuples, int bin_px,
                              int x0, int y0, int x1, int y1, stoch_pixels *px, stoch_emit_fn emit, void *consumer,
                              raster_counts *counts);

#endif
