/* texture.c — mip chain construction, and mos_sample_quads, which runs the
 * sampler's per-ISA body (sample_tmp.h: the level of a quad comes from its
 * texture-space derivatives, bilinear within the level, repeat wrap).
 * Fed by the api and by fragment shaders (mos_sample_quads). */
#include "shader/texture.h"

#include <string.h>

#include "util/alloc.h"

mos_result texture_build(mos_sampler *s, int width, int height, const uint8_t *rgba8, const mos_allocator *a)
{
    memset(s, 0, sizeof *s);
    size_t total = 0;
    int w = width, h = height, levels = 0;
    for (;;) {
        total += (size_t)w * (size_t)h;
        levels++;
        if ((w == 1 && h == 1) || levels == TEXTURE_MAX_LEVELS) break;
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
    }
    s->storage = util_alloc(a, total * sizeof(uint32_t));
    if (!s->storage) return MOS_ERR_OUT_OF_MEMORY;
    s->levels = levels;
    s->sample = texture_sample_quads_scalar;
    uint32_t *dst = s->storage;
    memcpy(dst, rgba8, (size_t)width * (size_t)height * 4);
    s->level[0].width = width;
    s->level[0].height = height;
    s->level[0].texels = dst;
    for (int l = 1; l < levels; l++) {
        int pw = s->level[l - 1].width, ph = s->level[l - 1].height;
        const uint32_t *src = s->level[l - 1].texels;
        int lw = pw > 1 ? pw / 2 : 1, lh = ph > 1 ? ph / 2 : 1;
        dst += (size_t)pw * (size_t)ph;
        for (int y = 0; y < lh; y++) {
            for (int x = 0; x < lw; x++) {
                int x0 = 2 * x < pw ? 2 * x : pw - 1, x1 = 2 * x + 1 < pw ? 2 * x + 1 : pw - 1;
                int y0 = 2 * y < ph ? 2 * y : ph - 1, y1 = 2 * y + 1 < ph ? 2 * y + 1 : ph - 1;
                uint32_t q[4] = {src[y0 * pw + x0], src[y0 * pw + x1], src[y1 * pw + x0], src[y1 * pw + x1]};
                uint32_t out = 0;
                for (int ch = 0; ch < 4; ch++) {
                    uint32_t sum = 2;
                    for (int k = 0; k < 4; k++) sum += (q[k] >> (8 * ch)) & 0xffu;
                    out |= (sum / 4) << (8 * ch);
                }
                dst[y * lw + x] = out;
            }
        }
        s->level[l].width = lw;
        s->level[l].height = lh;
        s->level[l].texels = dst;
    }
    return MOS_OK;
}

void texture_release(mos_sampler *s, const mos_allocator *a)
{
    util_free(a, s->storage);
    memset(s, 0, sizeof *s);
}

void mos_sample_quads(const mos_sampler *s, int quad_count, const float *u, const float *v, float *const out[4])
{
    s->sample(s, quad_count, u, v, out);
}
