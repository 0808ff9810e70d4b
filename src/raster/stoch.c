/* stoch.c — the stochastic back-end's coverage of a static, sharp triangle:
 * the 2D rasterizer's fixed-point edge functions, one sample per lane.
 * (Blurred triangles: stoch_block_tmp.h, built per ISA by raster_*.c.)  Fed by backend/decouple.c. */
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
