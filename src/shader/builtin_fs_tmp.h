/* builtin_fs_tmp.h — the built-in fragment stages (flat, Lambert, textured
 * Lambert, lightmapped, and the FMA cost knob), included once per ISA by
 * builtin_fs_scalar.c, builtin_fs_avx2.c and builtin_fs_avx512.c, which
 * define BUILTIN_FS_FN (the entry's name) and set that ISA's target.  The
 * build turns contraction off, so every ISA computes the same bits.
 * Fragments are shaded in chunks of CHUNK lanes (CHUNK / 4 quads): every
 * kernel runs a loop of exactly CHUNK iterations with restrict pointers and
 * no branches, which gcc vectorizes; a short last chunk is copied into
 * padded scratch arrays first.  Fed by builtin.c's fragment stages. */
#include <math.h>
#include <string.h>

#include "shader/builtin_fs.h"

#define CHUNK 64

/* The cost knob: FMA dependent multiply-adds per lane, then a no-op add.
 * x * fma_k + fma_c with fma_k = 1, fma_c = 0 keeps x finite, so
 * x * fma_zero is exactly 0 and the colour is unchanged. */
static void kernel_fma(const shader_builtin_uniforms *u, float *restrict r, float *restrict g,
                       float *restrict bl)
{
    const int n = u->fma;
    if (n <= 0)
        return;
    const float k = u->fma_k, c = u->fma_c, z = u->fma_zero;
    float x[CHUNK];
    for (int l = 0; l < CHUNK; l++)
        x[l] = r[l] + g[l] + bl[l];
    for (int i = 0; i < n; i++)
        for (int l = 0; l < CHUNK; l++)
            x[l] = x[l] * k + c;
    for (int l = 0; l < CHUNK; l++) {
        const float d = x[l] * z;
        r[l] += d;
        g[l] += d;
        bl[l] += d;
    }
}

static void kernel_flat(const shader_builtin_uniforms *u, float *restrict r, float *restrict g,
                        float *restrict bl, float *restrict al)
{
    const float cr = u->base_color[0], cg = u->base_color[1], cb = u->base_color[2],
                ca = u->base_color[3];
    for (int l = 0; l < CHUNK; l++) {
        r[l] = cr;
        g[l] = cg;
        bl[l] = cb;
        al[l] = ca;
    }
    kernel_fma(u, r, g, bl);
}

/* ambient + sum_j max(0, n . l_j) * light_j, times TR/TG/TB/TA (base colour,
 * optionally times a texture). */
static void kernel_lambert(const shader_builtin_uniforms *u, const float *restrict nx,
                           const float *restrict ny, const float *restrict nz,
                           const float *restrict tr, const float *restrict tg,
                           const float *restrict tb, const float *restrict ta, float *restrict r,
                           float *restrict g, float *restrict bl, float *restrict al)
{
    float lx[SHADER_BUILTIN_MAX_LIGHTS], ly[SHADER_BUILTIN_MAX_LIGHTS], lz[SHADER_BUILTIN_MAX_LIGHTS];
    float lr[SHADER_BUILTIN_MAX_LIGHTS], lg[SHADER_BUILTIN_MAX_LIGHTS], lb[SHADER_BUILTIN_MAX_LIGHTS];
    for (int j = 0; j < SHADER_BUILTIN_MAX_LIGHTS; j++) {
        lx[j] = u->light_dir[j][0];
        ly[j] = u->light_dir[j][1];
        lz[j] = u->light_dir[j][2];
        lr[j] = u->light_color[j][0];
        lg[j] = u->light_color[j][1];
        lb[j] = u->light_color[j][2];
    }
    const float ar = u->ambient[0], ag = u->ambient[1], ab = u->ambient[2];
    for (int l = 0; l < CHUNK; l++) {
        const float len2 = nx[l] * nx[l] + ny[l] * ny[l] + nz[l] * nz[l] + 1e-20f;
        const float inv = 1.0f / sqrtf(len2);
        const float x = nx[l] * inv, y = ny[l] * inv, z = nz[l] * inv;
        float sr = ar, sg = ag, sb = ab;
        for (int j = 0; j < SHADER_BUILTIN_MAX_LIGHTS; j++) {
            float d = x * lx[j] + y * ly[j] + z * lz[j];
            d = d > 0.0f ? d : 0.0f;
            sr += d * lr[j];
            sg += d * lg[j];
            sb += d * lb[j];
        }
        r[l] = sr * tr[l];
        g[l] = sg * tg[l];
        bl[l] = sb * tb[l];
        al[l] = ta[l];
    }
    kernel_fma(u, r, g, bl);
}

/* A map surface: T (base colour times its texture) times the lightmap L times the overbright factor,
 * clamped to 1 as the game's display saturates; alpha from T. */
static void kernel_lightmapped(const shader_builtin_uniforms *u, float (*restrict t)[CHUNK],
                               float (*restrict lm)[CHUNK], float *const out[4])
{
    for (int c = 0; c < 3; c++) {
        float *restrict o = out[c];
        for (int l = 0; l < CHUNK; l++) {
            const float v = t[c][l] * lm[c][l] * SHADER_BUILTIN_OVERBRIGHT;
            o[l] = v < 1.0f ? v : 1.0f;
        }
    }
    memcpy(out[3], t[3], sizeof t[3]);
    kernel_fma(u, out[0], out[1], out[2]);
}

/* The alpha test: lanes whose alpha is below the cut-off are discarded
 * (a NaN alpha too: it is not >= the cut-off). */
static void alpha_test(const shader_builtin_uniforms *u, const float *restrict al, uint8_t *restrict discard, int n)
{
    const float cutoff = u->alpha_cutoff;
    if (!(cutoff > 0.0f))
        return;
    for (int l = 0; l < n; l++)
        discard[l] |= (uint8_t)!(al[l] >= cutoff);
}

/* ---- chunk driver ---------------------------------------------------------- */

static void fs_chunk(builtin_fs_kind kind, const mos_fs_batch *b, const float *const in[SHADER_BUILTIN_VARYINGS],
                     float *const out[4], int quads)
{
    const shader_builtin_uniforms *u = b->uniforms;
    if (kind == FS_FLAT) {
        kernel_flat(u, out[0], out[1], out[2], out[3]);
        return;
    }
    float tex[4][CHUNK];
    for (int c = 0; c < 4; c++)
        for (int l = 0; l < CHUNK; l++)
            tex[c][l] = u->base_color[c];
    const bool lit = kind == FS_LIGHTMAPPED;  /* varyings u, v, lightmap u, v; else normal xyz, u, v */
    const mos_sampler *s = (kind == FS_TEXTURED || lit) && b->textures ? b->textures[0] : NULL;
    if (s) {
        float smp[4][CHUNK];
        memset(smp, 0, sizeof smp);
        float *const so[4] = { smp[0], smp[1], smp[2], smp[3] };
        mos_sample_quads_batch(b, s, quads, in[lit ? 0 : 3], in[lit ? 1 : 4], so);
        for (int c = 0; c < 4; c++)
            for (int l = 0; l < CHUNK; l++)
                tex[c][l] *= smp[c][l];
    }
    if (lit) {
        float lm[4][CHUNK];
        const mos_sampler *ls = b->textures ? b->textures[1] : NULL;
        if (ls) {
            memset(lm, 0, sizeof lm);
            float *const lo[4] = { lm[0], lm[1], lm[2], lm[3] };
            mos_sample_quads_batch(b, ls, quads, in[2], in[3], lo);
        } else {
            for (int c = 0; c < 4; c++)
                for (int l = 0; l < CHUNK; l++)
                    lm[c][l] = 1.0f / SHADER_BUILTIN_OVERBRIGHT;  /* no lightmap: the texture as it is */
        }
        kernel_lightmapped(u, tex, lm, out);
        return;
    }
    kernel_lambert(u, in[0], in[1], in[2], tex[0], tex[1], tex[2], tex[3], out[0], out[1], out[2],
                   out[3]);
}

void BUILTIN_FS_FN(builtin_fs_kind kind, const mos_fs_batch *b)
{
    static const float zeros[CHUNK];
    const int lanes = 4 * b->quad_count;
    for (int o = 0; o < lanes; o += CHUNK) {
        const int n = lanes - o < CHUNK ? lanes - o : CHUNK;
        const float *in[SHADER_BUILTIN_VARYINGS];
        float *out[4];
        float pad_in[SHADER_BUILTIN_VARYINGS][CHUNK], pad_out[4][CHUNK];
        for (int i = 0; i < SHADER_BUILTIN_VARYINGS; i++) {
            const float *src = i < b->varying_count ? b->varyings[i] + o : NULL;
            if (n == CHUNK) {
                in[i] = src ? src : zeros;
            } else {
                memset(pad_in[i], 0, sizeof pad_in[i]);
                if (src)
                    memcpy(pad_in[i], src, (size_t)n * sizeof(float));
                in[i] = pad_in[i];
            }
        }
        for (int c = 0; c < 4; c++)
            out[c] = n == CHUNK ? b->out[c] + o : pad_out[c];
        fs_chunk(kind, b, in, out, n / 4);
        alpha_test(b->uniforms, out[3], b->discard + o, n);
        if (n < CHUNK)
            for (int c = 0; c < 4; c++)
                memcpy(b->out[c] + o, pad_out[c], (size_t)n * sizeof(float));
    }
}
