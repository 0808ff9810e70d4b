/* raster_tmp.h — the body of raster_triangle, included once per ISA by
 * raster_scalar.c, raster_avx2.c and raster_avx512.c, which define
 * RASTER_FN (the function's name), RASTER_COVER (how one quad's 4 * spp
 * samples are tested against the three edges) and RASTER_DEPTH (their
 * depth and the early depth test, quad_depth*.h) and RASTER_QUADS_FN (the
 * quad walk's name), and may define RASTER_SMALL_FN and RASTER_SMALL_BLOCK_FN
 * with RASTER_SMALL_COVER and RASTER_SMALL_DEPTH (the 4x4 blocks of a small
 * triangle at one sample per pixel, small_block.h or simd_tmp.h) and
 * RASTER_BLOCKS (a whole-block walk for one sample per pixel, simd_tmp.h).
 * Fed by backend/tile.c through the ISA table. */

#ifdef RASTER_SMALL_FN
#include "raster/block_quads.h"

/* One 4x4 block of RASTER_SMALL_FN at (bx, by): lane l = ly * 4 + lx is
 * pixel (bx + lx, by + ly), e[] its lane 0 edge values, `in` the lanes to
 * test, all in the block's first cols x rows pixels (its quads: 2 or 4
 * each way); its quads are appended to out[n..] with their depth.  Returns n. */
static inline int RASTER_SMALL_BLOCK_FN(const frame_tri *t, const raster_view *v, const int32_t e[3],
                                        const int32_t step_x[3], const int32_t step_y[3], int bx, int by, int cols,
                                        int rows, uint32_t in, raster_quad *out, float *z, int n, uint64_t *covered)
{
    uint32_t mask = RASTER_SMALL_COVER(e, step_x, step_y) & in;
    if (!mask) return n;
    *covered += (uint64_t)__builtin_popcount(mask);
    /* The depth of every block, also when the draw neither tests nor
     * writes it (the ROP then ignores it): one path, no branch. */
    _Alignas(64) float zb[16];
    mask = RASTER_SMALL_DEPTH(v, v->depth && t->draw->depth_test, t, bx, by, cols, rows, mask, zb);
    if (!mask) return n;
    return raster_block_quads(t, bx, by, mask, zb, true, out, z, n);
}

/* One sample per pixel, a small triangle (FRAME_TRI_SMALL) whose rectangle
 * spans at most 8 x 8 pixels from (x0, y0) and whose quads lie inside the
 * target: per 4x4 block from there, the sixteen pixels' edge values in 32
 * bits (RASTER_SMALL_COVER), their depth and the early test
 * (RASTER_SMALL_DEPTH), then the block's quads, row by row, with the quad
 * walk's coverage and depth (only the order of one triangle's quads, which
 * share no pixel, differs when it spans two blocks in x). */
static int RASTER_SMALL_FN(const frame_tri *t, const raster_view *v, int x0, int y0, int x1, int y1, raster_quad *out,
                           float *z, raster_counts *counts)
{
    const frame_samples *sp = v->samples;
    const int64_t sx0 = (int64_t)x0 * FRAME_SUBPIXELS + sp->dx[0], sy0 = (int64_t)y0 * FRAME_SUBPIXELS + sp->dy[0];
    int32_t e0[3], step_x[3], step_y[3];
    for (int e = 0; e < 3; e++) {
        e0[e] = (int32_t)(t->a[e] * sx0 + t->b[e] * sy0 + t->c[e]);  /* exact: FRAME_TRI_SMALL bounds it */
        step_x[e] = t->a[e] * FRAME_SUBPIXELS;
        step_y[e] = t->b[e] * FRAME_SUBPIXELS;
    }
    /* Only pixels in the rectangle and in t's bounds (the quad walk's
     * masks; the rectangle is not empty and ends inside the bounds). */
    const int w = x1 - x0, h = y1 - y0;
    const int lo_x = t->min_x > x0 ? t->min_x - x0 : 0, lo_y = t->min_y > y0 ? t->min_y - y0 : 0;
    uint64_t covered = 0;
    int n;
    if (w <= 4 && h <= 4) {  /* one block: most small triangles */
        const uint32_t in = ((1u << w) - (1u << lo_x)) * 0x1111u & ((1u << 4 * h) - (1u << 4 * lo_y));
        n = RASTER_SMALL_BLOCK_FN(t, v, e0, step_x, step_y, x0, y0, (w + 1) & ~1, (h + 1) & ~1, in, out, z, 0,
                                  &covered);
    } else {
        n = 0;
        for (int by = 0; by < h; by += 4) {
            const int bh = h - by < 4 ? h - by : 4;
            const uint32_t rows = (1u << 4 * bh) - (by ? 1u : 1u << 4 * lo_y);
            for (int bx = 0; bx < w; bx += 4) {
                const int bw = w - bx < 4 ? w - bx : 4;
                const uint32_t cols = ((1u << bw) - (bx ? 1u : 1u << lo_x)) * 0x1111u;
                int32_t eb[3];
                for (int e = 0; e < 3; e++) eb[e] = e0[e] + step_x[e] * bx + step_y[e] * by;
                n = RASTER_SMALL_BLOCK_FN(t, v, eb, step_x, step_y, x0 + bx, y0 + by, (bw + 1) & ~1, (bh + 1) & ~1,
                                          cols & rows, out, z, n, &covered);
            }
        }
    }
    counts->samples += covered;
    counts->pixels += covered;
    return n;
}
#endif

/* The quad walk: any sample count, any rectangle. */
static __attribute__((noinline)) int RASTER_QUADS_FN(const frame_tri *t, const raster_view *v, int x0, int y0, int x1,
                                                     int y1, raster_quad *out, float *z, raster_counts *counts)
{
    const frame_samples *sp = v->samples;
    const int S = sp->count, slots = 4 * S;
    /* E(quad at qx, qy; slot) = a * 256 * qx + b * 256 * qy + off[slot]: the
     * lane's pixel offset, the sample position and the edge constant fold
     * into one table per edge, padded to a whole vector. */
    _Alignas(64) int64_t off[3][4 * RASTER_MAX_SAMPLES + 8];
    int64_t step_x[3], step_y[3];
    for (int e = 0; e < 3; e++) {
        const int64_t a = t->a[e], b = t->b[e], c = t->c[e];
        step_x[e] = a * FRAME_SUBPIXELS;
        step_y[e] = b * FRAME_SUBPIXELS;
        for (int s = 0; s < S; s++) {
            int64_t base = a * sp->dx[s] + b * sp->dy[s] + c;
            off[e][s] = base;
            off[e][S + s] = base + step_x[e];
            off[e][2 * S + s] = base + step_y[e];
            off[e][3 * S + s] = base + step_x[e] + step_y[e];
        }
        for (int k = slots; k < slots + 8; k++) off[e][k] = -1;  /* padding: never covered */
    }
    const bool depth_test = v->depth && t->draw->depth_test;
    const bool want_z = depth_test || t->draw->depth_write;
    const int z_stride = RASTER_Z_STRIDE(S);
    const uint64_t lane_mask = S == 16 ? 0xffffull : (1ull << S) - 1;
    int n = 0;
    uint64_t cov_samples = 0, cov_pixels = 0;
    for (int qy = y0; qy < y1; qy += 2) {
        int64_t row[3];
        for (int e = 0; e < 3; e++) row[e] = step_x[e] * x0 + step_y[e] * qy;
        for (int qx = x0; qx < x1; qx += 2) {
            uint64_t mask = RASTER_COVER(row, off, slots);
            for (int e = 0; e < 3; e++) row[e] += 2 * step_x[e];
            if (!mask) continue;
            /* Pixels past the target's right or top edge (odd sizes). */
            if (qx + 1 > t->max_x) mask &= ~((lane_mask << S) | (lane_mask << 3 * S));
            if (qy + 1 > t->max_y) mask &= ~((lane_mask << 2 * S) | (lane_mask << 3 * S));
            if (qx < t->min_x) mask &= ~(lane_mask | (lane_mask << 2 * S));
            if (qy < t->min_y) mask &= ~(lane_mask | (lane_mask << S));
            if (!mask) continue;
            cov_samples += (uint64_t)__builtin_popcountll(mask);
            cov_pixels += (uint64_t)(((mask & lane_mask) != 0) + (((mask >> S) & lane_mask) != 0) +
                                     (((mask >> 2 * S) & lane_mask) != 0) + ((mask >> 3 * S) != 0));
            if (want_z) {
                mask = RASTER_DEPTH(v, depth_test, t, qx, qy, mask, z + (size_t)n * (size_t)z_stride);
                if (!mask) continue;
            }
            out[n].tri = t;
            out[n].x = (uint16_t)qx;
            out[n].y = (uint16_t)qy;
            out[n].cover = mask;
            n++;
        }
    }
    counts->samples += cov_samples;
    counts->pixels += cov_pixels;
    return n;
}

int RASTER_FN(const frame_tri *t, const raster_view *v, int x0, int y0, int x1, int y1, raster_quad *out, float *z,
              raster_counts *counts)
{
    const int S = v->samples->count;
#ifdef RASTER_SMALL_FN
    if (S == 1 && (t->flags & FRAME_TRI_SMALL) && x1 - x0 <= 8 && y1 - y0 <= 8 && x0 + ((x1 - x0 + 1) & ~1) <= v->width &&
        y0 + ((y1 - y0 + 1) & ~1) <= v->height)
        return RASTER_SMALL_FN(t, v, x0, y0, x1, y1, out, z, counts);
#endif
#ifdef RASTER_BLOCKS
    if (S == 1) return RASTER_BLOCKS(t, v, x0, y0, x1, y1, out, z, counts);
#endif
    return RASTER_QUADS_FN(t, v, x0, y0, x1, y1, out, z, counts);
}
