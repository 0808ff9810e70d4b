/* stoch.c — the stochastic rasterizer's shared steps: the block test of a
 * static, sharp triangle (the 2D rasterizer's fixed-point edge functions,
 * one sample per lane) and its walk, and a new triangle's pixel stamps.
 * (The finish of every block, early depth and the first covered sample of
 * each pixel: stoch.h; blurred triangles: stoch_walk_tmp.h, built per ISA
 * by raster_*.c.)  Fed by backend/tile.c per triangle; emits blocks to the
 * stochastic back-end (backend/decouple.c). */
#include <string.h>

#include "raster/stoch.h"
#include "raster/stoch_lane.h"

uint32_t stoch_block_static(const frame_tri *t, const frame_samples *sp, float rate, bool centred, int x0, int y0,
                            const uint8_t *sample, uint32_t mask, stoch_hits *out)
{
    uint32_t hit = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        const int l = __builtin_ctz(m), px = x0 + (l & 3), py = y0 + (l >> 2), s = sample[l];
        const int64_t sx = (int64_t)px * FRAME_SUBPIXELS + sp->dx[s], sy = (int64_t)py * FRAME_SUBPIXELS + sp->dy[s];
        bool inside = true;
        for (int e = 0; e < 3; e++) inside = inside && (int64_t)t->a[e] * sx + (int64_t)t->b[e] * sy + t->c[e] >= 0;
        if (!inside) continue;
        hit |= 1u << l;
        out->z[l] = raster_sample_depth(t, sp, px, py, s);
        const float xy[2] = {(float)px + sp->fx[s], (float)py + sp->fy[s]};
        float o[2];
        stoch_sample_offsets(xy, o, 2, rate, centred);  /* x and y: the same rule on each axis */
        out->rx[l] = xy[0] - o[0];
        out->ry[l] = xy[1] - o[1];
        out->gx[l] = raster_grid_point(out->rx[l], rate);
        out->gy[l] = raster_grid_point(out->ry[l], rate);
    }
    return hit;
}

void stoch_pixels_next(stoch_pixels *px)
{
    if (++px->stamp == 0) {
        memset(px->block_stamp, 0, sizeof px->block_stamp);
        px->stamp = 1;
    }
}

void raster_stochastic_static(const frame_tri *tri, const raster_view *v, const frame_tuples *tuples, int bin_px,
                              int x0, int y0, int x1, int y1, stoch_pixels *px, stoch_emit_fn emit, void *consumer,
                              raster_counts *counts)
{
    const bool depth_test = v->depth && tri->draw->depth_test;
    if (x0 >= x1 || y0 >= y1) return;
    stoch_pixels_next(px);
    stoch_block blk;
    blk.tri = tri;
    stoch_box box;
    stoch_box_init(&box, x0, y0, x1, y1);
    for (int g = 0; g < tuples->spp; g++) {
        const uint8_t *sample = tuples->lane_sample[g];
        for (int by = box.by_first; by < y1; by += 4) {
            for (int bx = box.bx_first; bx < x1; bx += 4) {
                const uint32_t mask = stoch_box_lanes(&box, bx, by);
                blk.covered =
                    stoch_block_static(tri, v->samples, v->rate, v->centred, bx, by, sample, mask, &blk.hits);
                counts->stoch_candidates += (uint64_t)__builtin_popcount(mask);
                counts->stoch_tested += (uint64_t)__builtin_popcount(mask);
                counts->stoch_covered += (uint64_t)__builtin_popcount(blk.covered);
                counts->samples += (uint64_t)__builtin_popcount(blk.covered);
                if (!blk.covered) continue;
                blk.x0 = bx;
                blk.y0 = by;
                blk.block = stoch_block_index(bin_px, bx, by);
                blk.sample = sample;
                blk.group = g;
                stoch_finish_block(&blk, depth_test ? stoch_early_depth(&blk, v) : blk.covered, px, emit,
                                   consumer, counts);
            }
        }
    }
}
