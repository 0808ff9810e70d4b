/* stoch.h — the stochastic rasterizer's private parts that its per-ISA
 * walks (stoch_walk_tmp.h) share with stoch.c: the static triangle's walk,
 * the finish of a block (early depth, counts, emit) and the block masks. */
#ifndef MOSAIC_RASTER_STOCH_H
#define MOSAIC_RASTER_STOCH_H

#include "raster/raster.h"

/* Bits of the four columns (or rows) base + 0..3 that lie in [lo, hi). */
static inline uint32_t stoch_span_bits(int base, int lo, int hi)
{
    int a = lo - base, b = hi - base;  /* [a, b) within [0, 4) */
    a = a < 0 ? 0 : a > 4 ? 4 : a;
    b = b < 0 ? 0 : b > 4 ? 4 : b;
    return (0xfu >> (4 - b)) & ~(0xfu >> (4 - a)) & 0xfu;
}

/* The lanes of a 4x4 block in the rows by + 0..3 that lie in [lo, hi). */
static inline uint32_t stoch_row_bits(int by, int lo, int hi)
{
    const uint32_t r = stoch_span_bits(by, lo, hi);
    return (r & 1u) * 0xfu | (r & 2u) * 0x78u | (r & 4u) * 0x3c0u | (r & 8u) * 0x1e00u;
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

/* blk with its covered lanes and hits: early depth against what the ROP has
 * written so far, the first covered / live sample of each pixel, the
 * counts, then emit (inline: each ISA's walk has its own). */
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

static inline void stoch_finish_block(stoch_block *blk, const raster_view *v, bool depth_test, int bin_px,
                                      stoch_pixels *px, stoch_emit_fn emit, void *consumer, raster_counts *counts)
{
    blk->live = blk->covered;
    if (depth_test) {
        const float *depth = v->depth + ((size_t)blk->y0 * (size_t)v->width + (size_t)blk->x0) * (size_t)v->samples->count;
        for (uint32_t m = blk->covered; m; m &= m - 1) {
            const int l = __builtin_ctz(m);
            blk->live &= ~((uint32_t)!(blk->hits.z[l] < depth[v->lane_depth[l] + blk->sample[l]]) << l);
        }
    }
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
