/* shade_tmp.h — the body of the shade stage, included once per ISA by
 * backend_scalar.c, backend_avx2.c and backend_avx512.c, which define
 * SHADE_QUADS_FN and SHADE_POINTS_FN (the entries' names) and set that
 * ISA's target: interpolates perspective-correct varyings at pixel centres
 * (or shading-grid points, whose lane spacing the batch tells the shader
 * for texture levels) for batches of 2x2 quads (SoA, up to the draw's
 * batch_quads per call), runs the draw's fragment shader and packs its
 * colours.  Contraction
 * is off, so every ISA computes the same bits.  Fed by tile.c and
 * decouple.c through backend_shade / backend_shade_points. */
#include <string.h>

#include "backend/shade.h"

/* Shader output 0..1 floats -> packed RGBA8 per lane (NaN -> 0): one pass
 * over the lanes, which the compiler vectorizes. */
static void pack_unorm8(const float (*restrict out)[SHADE_ROW], int lanes, uint32_t *restrict rgba)
{
    const float *restrict r = out[0], *restrict g = out[1], *restrict b = out[2], *restrict a = out[3];
    for (int l = 0; l < lanes; l++)
        rgba[l] = unorm8(r[l]) | unorm8(g[l]) << 8 | unorm8(b[l]) << 16 | unorm8(a[l]) << 24;
}

/* Lane positions and live flags of quads from the rasterizer: pixel centres. */
static void quad_lanes(shade_scratch *ss, const raster_quad *quads, int count, int spp)
{
    const uint64_t lane_mask = spp == 16 ? 0xffffull : (1ull << spp) - 1;
    static const float lane_dx[4] = {0.5f, 1.5f, 0.5f, 1.5f}, lane_dy[4] = {0.5f, 0.5f, 1.5f, 1.5f};
    for (int q = 0; q < count; q++) {
        for (int i = 0; i < 4; i++) {
            ss->frag_x[4 * q + i] = (float)quads[q].x + lane_dx[i];
            ss->frag_y[4 * q + i] = (float)quads[q].y + lane_dy[i];
        }
    }
    if (spp == 1) {  /* lane i is bit i */
        for (int q = 0; q < count; q++)
            for (int i = 0; i < 4; i++) ss->live[4 * q + i] = (uint8_t)((quads[q].cover >> i) & 1u);
        return;
    }
    for (int q = 0; q < count; q++)
        for (int i = 0; i < 4; i++)
            ss->live[4 * q + i] = (uint8_t)(((quads[q].cover >> (i * spp)) & lane_mask) != 0);
}

/* Fills the varyings of lanes [0, 4 * count) at frag_x/frag_y; tris[q]
 * is quad q's triangle, all of one draw.  Consecutive quads mostly share a
 * triangle, so the planes are evaluated over runs of lanes with the same
 * coefficients: loops the compiler vectorizes. */
static void interpolate(shade_scratch *ss, const frame_tri *const *tris, int count)
{
    float *restrict dx = ss->dx, *restrict dy = ss->dy, *restrict w = ss->w;
    for (int q0 = 0; q0 < count;) {
        const frame_tri *t = tris[q0];
        int q1 = q0 + 1;
        while (q1 < count && tris[q1] == t) q1++;
        const int l0 = 4 * q0, l1 = 4 * q1;
        const float x0 = t->x0, y0 = t->y0, w0 = t->inv_w[0], wx = t->inv_w[1], wy = t->inv_w[2];
        if (q1 - q0 < 4) {  /* a small triangle: quad by quad, four lanes per instruction */
            for (int l = l0; l < l1; l += 4) {
                float qdx[4], qdy[4], qw[4];
                for (int i = 0; i < 4; i++) {
                    qdx[i] = ss->frag_x[l + i] - x0;
                    qdy[i] = ss->frag_y[l + i] - y0;
                    qw[i] = 1.0f / (w0 + wx * qdx[i] + wy * qdy[i]);
                }
                for (uint32_t k = 0; k < t->varying_count; k++) {
                    const float p0 = t->varying[k][0], px = t->varying[k][1], py = t->varying[k][2];
                    for (int i = 0; i < 4; i++) ss->var[k][l + i] = (p0 + px * qdx[i] + py * qdy[i]) * qw[i];
                }
            }
            q0 = q1;
            continue;
        }
        for (int l = l0; l < l1; l++) {
            dx[l] = ss->frag_x[l] - x0;
            dy[l] = ss->frag_y[l] - y0;
            w[l] = 1.0f / (w0 + wx * dx[l] + wy * dy[l]);
        }
        for (uint32_t k = 0; k < t->varying_count; k++) {
            const float p0 = t->varying[k][0], px = t->varying[k][1], py = t->varying[k][2];
            float *restrict dst = ss->var[k];
            for (int l = l0; l < l1; l++) dst[l] = (p0 + px * dx[l] + py * dy[l]) * w[l];
        }
        q0 = q1;
    }
}

/* Runs d's fragment shader over the filled lanes of count quads, their
 * lanes lane_px pixels apart (with cells, each lane standing for its cell:
 * mos_fs_batch.cells), and packs the results into out[0..count). */
static void run_fragment(shade_scratch *ss, const frame_draw *d, int count, float lane_px, bool cells,
                         shade_result *out)
{
    memset(ss->discard, 0, (size_t)count * 4);
    const float *vars[MOS_MAX_VARYINGS];
    for (int k = 0; k < d->varying_count; k++) vars[k] = ss->var[k];
    float *outs[4] = {ss->out[0], ss->out[1], ss->out[2], ss->out[3]};
    mos_fs_batch b = {
        .quad_count = count,
        .varyings = vars,
        .varying_count = d->varying_count,
        .frag_x = ss->frag_x,
        .frag_y = ss->frag_y,
        .live = ss->live,
        .uniforms = d->uniforms,
        .textures = d->samplers,
        .out = outs,
        .discard = ss->discard,
        .isa = ss->hot->isa,
        .user = d->user,
        .scratch = d->scratch_bytes ? ss->user_scratch : NULL,
        .lane_px = lane_px,
        .cells = cells,
    };
    d->fragment(&b);
    uint32_t rgba[BACKEND_SHADE_LANES];
    pack_unorm8(ss->out, 4 * count, rgba);
    for (int q = 0; q < count; q++) {
        memcpy(out[q].rgba, rgba + 4 * q, sizeof out[q].rgba);
        memcpy(out[q].discard, ss->discard + 4 * q, sizeof out[q].discard);
    }
}

void SHADE_QUADS_FN(shade_scratch *ss, const raster_quad *quads, int n, int spp, bool cells, shade_result *out)
{
    for (int i = 0; i < n;) {
        const frame_draw *d = quads[i].tri->draw;
        int j = i + 1;
        while (j < n && j - i < d->batch_quads && quads[j].tri->draw == d) j++;
        quad_lanes(ss, quads + i, j - i, spp);
        if (d->varying_count) {
            const frame_tri *tris[BACKEND_SHADE_LANES / 4];
            for (int q = i; q < j; q++) tris[q - i] = quads[q].tri;
            interpolate(ss, tris, j - i);
        }
        run_fragment(ss, d, j - i, 1.0f, cells, out + i);
        i = j;
    }
}

void SHADE_POINTS_FN(shade_scratch *ss, const frame_tri *const *tris, const float *x, const float *y,
                     const float *lane_px, bool cells, int n, shade_result *out)
{
    for (int i = 0; i < n;) {
        const frame_draw *d = tris[i]->draw;
        int j = i + 1;
        while (j < n && j - i < d->batch_quads && tris[j]->draw == d && lane_px[j] == lane_px[i]) j++;
        const int lanes = 4 * (j - i);
        memcpy(ss->frag_x, x + 4 * i, (size_t)lanes * sizeof(float));
        memcpy(ss->frag_y, y + 4 * i, (size_t)lanes * sizeof(float));
        memset(ss->live, 1, (size_t)lanes);
        if (d->varying_count) interpolate(ss, tris + i, j - i);
        run_fragment(ss, d, j - i, lane_px[i], cells, out + i);
        i = j;
    }
}
