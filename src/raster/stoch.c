/* stoch.c — the stochastic rasterizer: the walk over ranks and 4x4 blocks
 * with early depth and coverage counts (raster_stochastic), and the block
 * test of a static, sharp triangle: the 2D rasterizer's fixed-point edge
 * functions, one sample per lane.  (Blurred triangles: stoch_block_tmp.h,
 * built per ISA by raster_*.c.)
 * Fed by backend/tile.c per triangle; emits blocks to the stochastic
 * back-end (backend/decouple.c). */
#include <string.h>

#include "raster/raster.h"

uint32_t stoch_block_static(const fe_tri *t, const frame_samples *sp, int x0, int y0, const uint8_t *sample,
                            uint32_t mask, stoch_hits *out)
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
        out->rx[l] = (float)px + sp->fx[s];
        out->ry[l] = (float)py + sp->fy[s];
    }
    return hit;
}

/* Bits of the four columns (or rows) base + 0..3 that lie in [lo, hi). */
static uint32_t span_bits(int base, int lo, int hi)
{
    uint32_t m = 0;
    for (int i = 0; i < 4; i++) m |= (uint32_t)(base + i >= lo && base + i < hi) << i;
    return m;
}

/* Per triangle: the covered lanes of a block that are the first covered
 * (and the first live) sample of their pixel. */
static void first_of_pixel(stoch_pixels *px, stoch_block *blk, int bin_px)
{
    blk->first_covered = blk->first_live = 0;
    for (uint32_t m = blk->covered; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        const size_t i = (size_t)((blk->y0 + (l >> 2)) & (bin_px - 1)) * (size_t)bin_px +
                         (size_t)((blk->x0 + (l & 3)) & (bin_px - 1));
        if (px->covered[i] != px->stamp) {
            px->covered[i] = px->stamp;
            blk->first_covered |= 1u << l;
        }
        if ((blk->live >> l & 1) && px->live[i] != px->stamp) {
            px->live[i] = px->stamp;
            blk->first_live |= 1u << l;
        }
    }
}

void raster_stochastic(const fe_tri *tri, const raster_view *v, const frame_ranked *ranked, stoch_block_fn block,
                       int bin_px, int x0, int y0, int x1, int y1, stoch_pixels *px, stoch_emit_fn emit, void *consumer,
                       raster_counts *counts)
{
    const int S = v->samples->count;
    const fe_blur *b = tri->blur;
    const int key = b ? b->rank_key : FE_RANK_U;  /* static: any order, the box is the bin */
    const bool depth_test = v->depth && tri->draw->depth_test;
    if (++px->stamp == 0) {
        memset(px->covered, 0, sizeof px->covered);
        memset(px->live, 0, sizeof px->live);
        px->stamp = 1;
    }
    stoch_block blk;
    blk.tri = tri;
    for (int j = 0; j < S; j++) {
        int bx0 = x0, by0 = y0, bx1 = x1, by1 = y1;
        if (b) {  /* the rank's bounds (empty ones have x0 > x1) */
            const int16_t *box = b->rank_box[j];
            bx0 = box[0] > x0 ? box[0] : x0;
            by0 = box[1] > y0 ? box[1] : y0;
            bx1 = box[2] + 1 < x1 ? box[2] + 1 : x1;
            by1 = box[3] + 1 < y1 ? box[3] + 1 : y1;
        }
        const float *plane = raster_ranked_plane(ranked, key, j);
        const uint8_t *sample = raster_ranked_sample(ranked, key, j);
        for (int by = by0 & ~3; by < by1; by += 4) {
            const uint32_t rows = span_bits(by, by0, by1);
            for (int bx = bx0 & ~3; bx < bx1; bx += 4) {
                const uint32_t cols = span_bits(bx, bx0, bx1);
                uint32_t mask = 0;
                for (int r = 0; r < 4; r++)
                    if (rows >> r & 1) mask |= cols << (4 * r);
                const int lane0 = raster_uvt_lane(bx, by);
                blk.covered = b ? block(b, bx, by, plane + lane0, mask, &blk.hits)
                                : stoch_block_static(tri, v->samples, bx, by, sample + lane0, mask, &blk.hits);
                counts->stoch_tested += (uint64_t)__builtin_popcount(mask);
                counts->stoch_covered += (uint64_t)__builtin_popcount(blk.covered);
                if (!blk.covered) continue;
                blk.x0 = bx;
                blk.y0 = by;
                blk.sample = sample + lane0;
                /* Early depth against what the ROP has written so far. */
                blk.live = blk.covered;
                if (depth_test)
                    for (uint32_t m = blk.covered; m; m &= m - 1) {
                        const int l = __builtin_ctz(m);
                        const size_t idx = ((size_t)(by + (l >> 2)) * (size_t)v->width + (size_t)(bx + (l & 3))) * (size_t)S +
                                           blk.sample[l];
                        if (!(blk.hits.z[l] < v->depth[idx])) blk.live &= ~(1u << l);
                    }
                first_of_pixel(px, &blk, bin_px);
                counts->samples += (uint64_t)__builtin_popcount(blk.covered);
                counts->pixels += (uint64_t)__builtin_popcount(blk.first_covered);
                emit(consumer, &blk);
            }
        }
    }
}
