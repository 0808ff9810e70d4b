/* shade.c — the shade stage: interpolates perspective-correct varyings at
 * pixel centres for batches of 2x2 quads (SoA, 16 quads per call) and runs
 * the draw's fragment shader.  Fed by tile.c; feeds the ROP stage. */
#include <string.h>

#include "backend/backend.h"

struct shade_scratch {
    _Alignas(64) float var[MOS_MAX_VARYINGS][BACKEND_SHADE_LANES];
    _Alignas(64) float frag_x[BACKEND_SHADE_LANES];
    _Alignas(64) float frag_y[BACKEND_SHADE_LANES];
    _Alignas(64) float out[4][BACKEND_SHADE_LANES];
    uint8_t live[BACKEND_SHADE_LANES];
    uint8_t discard[BACKEND_SHADE_LANES];
};

shade_scratch *shade_scratch_create(const mos_allocator *a);
void shade_scratch_destroy(shade_scratch *s, const mos_allocator *a);
shade_scratch *shade_scratch_create(const mos_allocator *a) { return util_calloc(a, 1, sizeof(shade_scratch)); }
void shade_scratch_destroy(shade_scratch *s, const mos_allocator *a) { util_free(a, s); }

static uint32_t pack_unorm8(float r, float g, float b, float a)
{
    const float c[4] = {r, g, b, a};
    uint32_t out = 0;
    for (int i = 0; i < 4; i++) {
        float v = c[i] > 0.0f ? (c[i] < 1.0f ? c[i] : 1.0f) : 0.0f;  /* NaN -> 0 */
        out |= (uint32_t)(v * 255.0f + 0.5f) << (8 * i);
    }
    return out;
}

/* Fills lanes [4*q0, 4*(q0+count)) for quads of one draw. */
static void interpolate(shade_scratch *ss, const raster_quad *quads, int count, int spp)
{
    const uint64_t lane_mask = spp == 16 ? 0xffffull : (1ull << spp) - 1;
    for (int q = 0; q < count; q++) {
        const raster_quad *qd = &quads[q];
        const fe_tri *t = qd->tri;
        for (int i = 0; i < 4; i++) {
            int l = 4 * q + i;
            float x = (float)(qd->x + (i & 1)) + 0.5f, y = (float)(qd->y + (i >> 1)) + 0.5f;
            float dx = x - t->x0, dy = y - t->y0;
            float w = 1.0f / fe_plane(t->inv_w, dx, dy);
            ss->frag_x[l] = x;
            ss->frag_y[l] = y;
            ss->live[l] = (uint8_t)(((qd->cover >> (i * spp)) & lane_mask) != 0);
            for (uint32_t k = 0; k < t->varying_count; k++) ss->var[k][l] = fe_plane(t->varying[k], dx, dy) * w;
        }
    }
}

void backend_shade(shade_scratch *ss, const raster_quad *quads, int n, int spp, shade_result *out)
{
    const int max_quads = BACKEND_SHADE_LANES / 4;
    for (int i = 0; i < n;) {
        const fe_draw *d = quads[i].tri->draw;
        int j = i + 1;
        while (j < n && j - i < max_quads && quads[j].tri->draw == d) j++;
        int count = j - i;
        interpolate(ss, quads + i, count, spp);
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
        };
        d->fragment(&b);
        for (int q = 0; q < count; q++) {
            for (int k = 0; k < 4; k++) {
                int l = 4 * q + k;
                out[i + q].rgba[k] = pack_unorm8(ss->out[0][l], ss->out[1][l], ss->out[2][l], ss->out[3][l]);
                out[i + q].discard[k] = ss->discard[l];
            }
        }
        i = j;
    }
}
