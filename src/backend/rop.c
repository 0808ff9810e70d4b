/* rop.c — the ROP stage: per covered sample, in API order, depth test and
 * write, then blend the shaded colour into the sample.
 * Fed by the shade stage (tile.c); writes the target's samples of one bin. */
#include "backend/backend.h"

static uint32_t blend_alpha(uint32_t src, uint32_t dst)
{
    uint32_t a = src >> 24, out = 0;
    for (int ch = 0; ch < 4; ch++) {
        uint32_t s = (src >> (8 * ch)) & 0xffu, d = (dst >> (8 * ch)) & 0xffu;
        out |= ((s * a + d * (255u - a) + 127u) / 255u) << (8 * ch);
    }
    return out;
}

static uint32_t blend_add(uint32_t src, uint32_t dst)
{
    uint32_t out = 0;
    for (int ch = 0; ch < 4; ch++) {
        uint32_t v = ((src >> (8 * ch)) & 0xffu) + ((dst >> (8 * ch)) & 0xffu);
        out |= (v > 255u ? 255u : v) << (8 * ch);
    }
    return out;
}

uint32_t backend_blend(mos_blend mode, uint32_t src, uint32_t dst)
{
    switch (mode) {
    case MOS_BLEND_ALPHA: return blend_alpha(src, dst);
    case MOS_BLEND_ADD: return blend_add(src, dst);
    default: return src;
    }
}

void backend_rop(rt_target *t, const raster_quad *quads, const float *z, int n, const shade_result *res)
{
    const int S = t->samples;
    const size_t z_stride = (size_t)RASTER_Z_STRIDE(S);
    const uint64_t lane_mask = S == 16 ? 0xffffull : (1ull << S) - 1;
    float *const tri_area = t->recording && (t->inspect.what & MOS_INSPECT_TRIANGLE_AREA) ? t->inspect.tri_area : NULL;
    for (int q = 0; q < n; q++) {
        const fe_tri *tri = quads[q].tri;
        const fe_draw *d = tri->draw;
        for (int lane = 0; lane < 4; lane++) {
            uint64_t m = (quads[q].cover >> (lane * S)) & lane_mask;
            if (!m || res[q].discard[lane]) continue;
            int px = quads[q].x + (lane & 1), py = quads[q].y + (lane >> 1);
            size_t base = ((size_t)py * (size_t)t->width + (size_t)px) * (size_t)S;
            uint32_t src = res[q].rgba[lane];
            bool wrote = false;
            const float *zl = z + (size_t)q * z_stride + (size_t)(lane * S);
            for (; m; m &= m - 1) {
                int s = __builtin_ctzll(m);
                size_t idx = base + (size_t)s;
                if (d->depth_test || d->depth_write) {
                    if (d->depth_test && !(zl[s] < t->depth[idx])) continue;
                    if (d->depth_write) t->depth[idx] = zl[s];
                }
                t->color[idx] = backend_blend(d->blend, src, t->color[idx]);
                wrote = true;
            }
            if (wrote && tri_area) tri_area[(size_t)py * (size_t)t->width + (size_t)px] = backend_tri_area_px(tri);
        }
    }
}
