/* texture.c — mip chain construction and quad sampling: the level of a
 * quad comes from its texture-space derivatives, bilinear within the level,
 * repeat wrap.  Fed by the api and by fragment shaders (mos_sample_quads). */
#include "shader/texture.h"

#include <math.h>
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

/* Texel coordinate wrap (repeat): a mask for power-of-two sizes. */
static inline int wrap(int i, int n, int mask)
{
    if (mask) return i & mask;
    int m = i % n;
    return m < 0 ? m + n : m;
}

/* Two channels of a packed RGBA8 texel in 32-bit lanes of a 64-bit value,
 * so a bilinear weight (<= 65536) times a channel cannot overflow. */
static inline uint64_t spread_rb(uint32_t t) { return (uint64_t)(t & 0xffu) | ((uint64_t)((t >> 16) & 0xffu) << 32); }
static inline uint64_t spread_ga(uint32_t t) { return (uint64_t)((t >> 8) & 0xffu) | ((uint64_t)(t >> 24) << 32); }

void mos_sample_quads(const mos_sampler *s, int quad_count, const float *u, const float *v, float *const out[4])
{
    const float w0 = (float)s->level[0].width, h0 = (float)s->level[0].height;
    for (int q = 0; q < quad_count; q++) {
        const float *uq = u + 4 * q, *vq = v + 4 * q;
        float dux = (uq[1] - uq[0]) * w0, dvx = (vq[1] - vq[0]) * h0;
        float duy = (uq[2] - uq[0]) * w0, dvy = (vq[2] - vq[0]) * h0;
        float rho2 = fmaxf(dux * dux + dvx * dvx, duy * duy + dvy * dvy);
        float lod = rho2 > 1.0f ? 0.5f * log2f(rho2) : 0.0f;
        int level = (int)(lod + 0.5f);
        if (!(level >= 0)) level = 0;  /* NaN derivatives */
        if (level > s->levels - 1) level = s->levels - 1;
        const int lw = s->level[level].width, lh = s->level[level].height;
        const int wmask = (lw & (lw - 1)) ? 0 : lw - 1, hmask = (lh & (lh - 1)) ? 0 : lh - 1;
        const uint32_t *tex = s->level[level].texels;
        for (int i = 0; i < 4; i++) {
            int l = 4 * q + i;
            /* Texel centres at +0.5; v = 0 is the bottom of the image; 8
             * fractional bits of position for the bilinear weights. */
            float x = (uq[i] * (float)lw - 0.5f) * 256.0f, y = ((1.0f - vq[i]) * (float)lh - 0.5f) * 256.0f;
            if (!(fabsf(x) < 1e9f) || !(fabsf(y) < 1e9f)) x = y = 0.0f;  /* NaN, Inf, absurd */
            int32_t xi = (int32_t)x, yi = (int32_t)y;  /* floor without a libm call */
            xi -= (float)xi > x;
            yi -= (float)yi > y;
            uint32_t fx = (uint32_t)xi & 255u, fy = (uint32_t)yi & 255u;
            int ix = wrap(xi >> 8, lw, wmask), iy = wrap(yi >> 8, lh, hmask);
            int ix1 = ix + 1 < lw ? ix + 1 : 0, iy1 = iy + 1 < lh ? iy + 1 : 0;
            uint32_t t00 = tex[iy * lw + ix], t10 = tex[iy * lw + ix1];
            uint32_t t01 = tex[iy1 * lw + ix], t11 = tex[iy1 * lw + ix1];
            uint64_t w00 = (256u - fx) * (256u - fy), w10 = fx * (256u - fy), w01 = (256u - fx) * fy, w11 = fx * fy;
            uint64_t rb = spread_rb(t00) * w00 + spread_rb(t10) * w10 + spread_rb(t01) * w01 + spread_rb(t11) * w11;
            uint64_t ga = spread_ga(t00) * w00 + spread_ga(t10) * w10 + spread_ga(t01) * w01 + spread_ga(t11) * w11;
            const float k = 1.0f / (255.0f * 65536.0f);
            out[0][l] = (float)(uint32_t)(rb & 0xffffffffu) * k;
            out[1][l] = (float)(uint32_t)(ga & 0xffffffffu) * k;
            out[2][l] = (float)(uint32_t)(rb >> 32) * k;
            out[3][l] = (float)(uint32_t)(ga >> 32) * k;
        }
    }
}
