/* texture.c — mip chain construction (as glGenerateMipmap on llvmpipe), and
 * mos_sample_quads, which runs the sampler's per-ISA body (sample_tmp.h: the
 * level of a quad from its texture-space derivatives, bilinear within the
 * level in 8-bit steps, repeat wrap: GL_LINEAR_MIPMAP_NEAREST as llvmpipe
 * computes it); mos_sample_quads_spaced takes the derivatives per pixel
 * when the quad's lanes are not a pixel apart (decoupled shading grids).
 * Fed by the api and by fragment shaders (mos_sample_quads*). */
#include "shader/texture.h"

#include <math.h>
#include <string.h>

#include "util/alloc.h"

/* The 8-bit linear step of the sampler (and of llvmpipe's): p + w (q - p)
 * / 256 rounded, w in 0..255, per channel of packed RGBA8. */
static uint32_t lerp8_rgba(uint32_t p, uint32_t q, uint32_t w)
{
    uint32_t out = 0;
    for (int ch = 0; ch < 4; ch++) {
        const uint32_t a = (p >> (8 * ch)) & 0xffu, b = (q >> (8 * ch)) & 0xffu;
        out |= (((a << 8) + w * b - w * a + 128u) >> 8) << (8 * ch);
    }
    return out;
}

/* The 1/256-texel position of texel centre i of a level of n texels in its
 * parent of pn (round half to even, as the sampler's conversion), split
 * into the first texel (clamped to the edge) and the weight of the next. */
static void blit_tap(int i, int n, int pn, int *t0, int *t1, uint32_t *w)
{
    const float s = ((float)i + 0.5f) / (float)n;
    const long si = lrintf(s * (float)(pn * 256)) - 128;
    const long x = si >> 8;
    *w = (uint32_t)(si & 255);
    *t0 = (int)(x < 0 ? 0 : x > pn - 1 ? pn - 1 : x);
    *t1 = (int)(x + 1 < 0 ? 0 : x + 1 > pn - 1 ? pn - 1 : x + 1);
}

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
    /* Rows bottom first (GL's order: row y is at v = (y + 0.5) / height). */
    for (int y = 0; y < height; y++)
        memcpy(dst + (size_t)y * (size_t)width, rgba8 + (size_t)(height - 1 - y) * (size_t)width * 4,
               (size_t)width * 4);
    s->level[0].width = width;
    s->level[0].height = height;
    s->level[0].texels = dst;
    /* Each level from the one before, as Mesa's glGenerateMipmap does on
     * llvmpipe (a linear-filtered blit): texel (i, j) is the parent sampled
     * bilinearly at its centre ((i + 0.5) / w, (j + 0.5) / h), clamped to the
     * edge, with the sampler's 8-bit steps; for even sizes the rounded-up
     * mean of means of the 2x2 texels it covers. */
    for (int l = 1; l < levels; l++) {
        const int pw = s->level[l - 1].width, ph = s->level[l - 1].height;
        const uint32_t *src = s->level[l - 1].texels;
        const int lw = pw > 1 ? pw / 2 : 1, lh = ph > 1 ? ph / 2 : 1;
        dst += (size_t)pw * (size_t)ph;
        for (int y = 0; y < lh; y++) {
            int y0, y1;
            uint32_t wy;
            blit_tap(y, lh, ph, &y0, &y1, &wy);
            const uint32_t *r0 = src + (size_t)y0 * (size_t)pw, *r1 = src + (size_t)y1 * (size_t)pw;
            for (int x = 0; x < lw; x++) {
                int x0, x1;
                uint32_t wx;
                blit_tap(x, lw, pw, &x0, &x1, &wx);
                dst[(size_t)y * (size_t)lw + (size_t)x] =
                    lerp8_rgba(lerp8_rgba(r0[x0], r0[x1], wx), lerp8_rgba(r1[x0], r1[x1], wx), wy);
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
    s->sample(s, quad_count, u, v, out, 1.0f, false);
}

void texture_sample(const mos_sampler *s, float lane_px, bool cells, int quad_count, const float *u, const float *v,
                    float *const out[4])
{
    /* per pixel: differences over lane_px pixels, divided by it (squared) */
    const float scale = lane_px > 0.0f && lane_px != 1.0f ? 1.0f / (lane_px * lane_px) : 1.0f;
    s->sample(s, quad_count, u, v, out, scale, cells);
}

void mos_sample_quads_spaced(const mos_sampler *s, float lane_px, int quad_count, const float *u, const float *v,
                             float *const out[4])
{
    texture_sample(s, lane_px, false, quad_count, u, v, out);
}

void mos_sample_quads_batch(const mos_fs_batch *b, const mos_sampler *s, int quad_count, const float *u,
                            const float *v, float *const out[4])
{
    texture_sample(s, b->lane_px, b->cells, quad_count, u, v, out);
}
