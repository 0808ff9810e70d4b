/* stoch.h — the stochastic rasterizer's private parts that its per-ISA
 * walks (stoch_walk_tmp.h) share with stoch.c: the static triangle's walk,
 * the finish of a block (early depth, counts, emit) and the block masks. */
#ifndef MOSAIC_RASTER_STOCH_H
#define MOSAIC_RASTER_STOCH_H

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

/* A rank's edge bounds (frame.h) as planes over a sample: it may be
 * covered only if x[k] X + y[k] Y + u[k] U + v[k] V <= c[k] for k = 0..2
 * (no bound: zeros and c = INFINITY). */
typedef struct stoch_edges {
    float x[3], y[3], u[3], v[3], c[3];
} stoch_edges;

/* Rank j's edge bounds over lens u in [u0, u1], each widened by slack. */
void stoch_edges_of_rank(const fe_blur *b, int stride, int j, float u0, float u1, float slack, stoch_edges *out);

/* A new triangle: fresh stamps in px. */
void stoch_pixels_next(stoch_pixels *px);

/* Per triangle: the covered lanes of a block that are the first covered
 * (and the first live) sample of their pixel.  A block's row is four bits
 * of its bin row's word (x0 is a multiple of 4). */
static inline void stoch_first_of_pixel(stoch_pixels *px, stoch_block *blk, int bin_px)
{
    const int bx = blk->x0 & (bin_px - 1), word = bx >> 6, shift = bx & 63;
    blk->first_covered = blk->first_live = 0;
    for (int r = 0; r < 4; r++) {
        const uint64_t covered = blk->covered >> (4 * r) & 0xfu, live = blk->live >> (4 * r) & 0xfu;
        if (!covered) continue;
        const int w = ((blk->y0 + r) & (bin_px - 1)) * STOCH_ROW_WORDS + word;
        if (px->word_stamp[w] != px->stamp) {
            px->word_stamp[w] = px->stamp;
            px->covered[w] = px->live[w] = 0;
        }
        blk->first_covered |= (uint32_t)(covered & ~(px->covered[w] >> shift)) << (4 * r);
        blk->first_live |= (uint32_t)(live & ~(px->live[w] >> shift)) << (4 * r);
        px->covered[w] |= covered << shift;
        px->live[w] |= live << shift;
    }
}

/* Early depth: the covered lanes of blk nearer than what the ROP has
 * written so far to their samples, lane by lane (each ISA's walk may
 * gather them instead, STOCH_EARLY_DEPTH16; the same bits). */
static inline const float *stoch_block_depth(const stoch_block *blk, const raster_view *v)
{
    return v->depth + ((size_t)blk->y0 * (size_t)v->width + (size_t)blk->x0) * (size_t)v->samples->count;
}
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
 * sample of each pixel, the counts, then emit. */
static inline void stoch_finish_block(stoch_block *blk, uint32_t live, int bin_px, stoch_pixels *px,
                                      stoch_emit_fn emit, void *consumer, raster_counts *counts)
{
    blk->live = live;
    stoch_first_of_pixel(px, blk, bin_px);
    counts->samples += (uint64_t)__builtin_popcount(blk->covered);
    counts->pixels += (uint64_t)__builtin_popcount(blk->first_covered);
    emit(consumer, blk);
}


/* The walk of a static, sharp triangle (any rank order; its box is the
 * rectangle), stoch_block_static per block. */
void raster_stochastic_static(const fe_tri *tri, const raster_view *v, const frame_ranked *ranked, int bin_px,
                              int x0, int y0, int x1, int y1, stoch_pixels *px, stoch_emit_fn emit, void *consumer,
                              raster_counts *counts);

#endif
