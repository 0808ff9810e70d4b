/* raster.c — edge-function coverage of one triangle over a pixel rectangle,
 * 2x2 quads at a time, with the early depth test.
 * Fed by backend/tile.c per (bin, triangle); feeds the shade stage. */
#include "raster/raster.h"

int raster_triangle(const fe_tri *t, const raster_view *v, int x0, int y0, int x1, int y1, raster_quad *out,
                    raster_counts *counts)
{
    const raster_samples *sp = v->samples;
    const int S = sp->count;
    /* E(px, py, s) = a * 256 * px + b * 256 * py + off[s]: the sample offset
     * and the edge constant fold into one table per edge. */
    int64_t off[3][RASTER_MAX_SAMPLES];
    int64_t step_x[3], step_y[3];
    for (int e = 0; e < 3; e++) {
        step_x[e] = (int64_t)t->a[e] * RASTER_SUBPIXELS;
        step_y[e] = (int64_t)t->b[e] * RASTER_SUBPIXELS;
        for (int s = 0; s < S; s++) off[e][s] = (int64_t)t->a[e] * sp->dx[s] + (int64_t)t->b[e] * sp->dy[s] + t->c[e];
    }
    if (x0 < (t->min_x & ~1)) x0 = t->min_x & ~1;
    if (y0 < (t->min_y & ~1)) y0 = t->min_y & ~1;
    if (x1 > t->max_x + 1) x1 = t->max_x + 1;
    if (y1 > t->max_y + 1) y1 = t->max_y + 1;

    const bool depth_test = v->depth && t->draw->depth_test;
    int n = 0;
    uint64_t cov_samples = 0, cov_pixels = 0;
    for (int qy = y0; qy < y1; qy += 2) {
        for (int qx = x0; qx < x1; qx += 2) {
            uint64_t mask = 0;
            for (int lane = 0; lane < 4; lane++) {
                int px = qx + (lane & 1), py = qy + (lane >> 1);
                if (px < t->min_x || px > t->max_x || py < t->min_y || py > t->max_y) continue;
                int64_t e0 = step_x[0] * px + step_y[0] * py;
                int64_t e1 = step_x[1] * px + step_y[1] * py;
                int64_t e2 = step_x[2] * px + step_y[2] * py;
                uint64_t m = 0;
                for (int s = 0; s < S; s++) {
                    int64_t any_neg = (e0 + off[0][s]) | (e1 + off[1][s]) | (e2 + off[2][s]);
                    m |= (uint64_t)(any_neg >= 0) << s;
                }
                if (!m) continue;
                cov_pixels++;
                cov_samples += (uint64_t)__builtin_popcountll(m);
                if (depth_test) {
                    const float *zbuf = v->depth + ((size_t)py * (size_t)v->width + (size_t)px) * (size_t)S;
                    for (uint64_t left = m; left; left &= left - 1) {
                        int s = __builtin_ctzll(left);
                        if (!(raster_sample_depth(t, sp, px, py, s) < zbuf[s])) m &= ~(1ull << s);
                    }
                }
                mask |= m << (lane * S);
            }
            if (mask) {
                out[n].tri = t;
                out[n].x = (uint16_t)qx;
                out[n].y = (uint16_t)qy;
                out[n].cover = mask;
                n++;
            }
        }
    }
    counts->samples += cov_samples;
    counts->pixels += cov_pixels;
    return n;
}
