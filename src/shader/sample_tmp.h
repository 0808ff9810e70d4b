/* sample_tmp.h — the body of mos_sample_quads, included once per ISA by the
 * texture sampling files, which define SAMPLE_FN (the function's name:
 * texture_sample_quads_scalar, _avx2, _avx512) and have included
 * util/simd.h for their SIMD_LANES (4: portable C, 8: AVX2, 16: AVX-512),
 * whose vocabulary the vector variants are written in.  Every variant
 * computes the same bits as the portable one for every input, NaN and Inf
 * included: the mip level of a quad stays scalar; the vector variants do the
 * per-lane work (position, wrap, texel gathers, 8-bit bilinear steps) one
 * vector of SIMD_LANES / 4 quads at a time.  The arithmetic is llvmpipe's
 * for an RGBA8 texture with GL_LINEAR_MIPMAP_NEAREST and repeat wrap (Mesa
 * 22.3, gallivm's 8-bit path): given the same texture coordinates both
 * renderers return the same texel values.
 *
 * Needs shader/texture.h, <math.h>, <stdint.h>, <string.h>.  Helpers are
 * named with the lane count appended (sample_level_8 ...). */

#ifndef SAMPLE_FN
#error "define SAMPLE_FN and include util/simd.h before sample_tmp.h"
#endif

#define SAMPLE_CAT2(a, b) a##_##b
#define SAMPLE_CAT(a, b) SAMPLE_CAT2(a, b)
#define SAMPLE_H(name) SAMPLE_CAT(name, SIMD_LANES)
#define SAMPLE_QUADS (SIMD_LANES / 4) /* quads per vector */
#define SAMPLE_BLOCK 64                 /* quads whose levels are found before their lanes are sampled */

/* The mip levels of a quad and the weight of the second (0..255): for
 * GL_LINEAR_MIPMAP_NEAREST as llvmpipe picks it, lod = log2(rho) rounded to
 * nearest is the exponent of rho2 (the larger squared footprint in texels)
 * plus one, halved, with no log2 call: level k for rho2 in [2^(2k-1),
 * 2^(2k+1)); for GL_LINEAR_MIPMAP_LINEAR, llvmpipe's piecewise-linear log2,
 * lod = (exponent - 1 + 1.mantissa) / 2, its integer part and its fraction
 * in 8 bits.  Zero and tiny footprints give level 0; Inf and NaN the last
 * level; past either end both levels are that end. */
typedef struct SAMPLE_H(sample_lod) {
    int l0, l1;
    uint32_t w;
} SAMPLE_H(sample_lod);

static inline SAMPLE_H(sample_lod) SAMPLE_H(sample_lod_rho2)(float rho2, int levels, bool linear)
{
    uint32_t bits;
    memcpy(&bits, &rho2, sizeof bits);
    const int e = (int)((bits >> 23) & 255u) - 127, last = levels - 1;
    SAMPLE_H(sample_lod) lod = {0, 0, 0};
    if (!linear) {
        const int level = (e + 1) >> 1;
        lod.l0 = lod.l1 = level < 0 ? 0 : level > last ? last : level;
        return lod;
    }
    const uint32_t mbits = (bits & 0x7fffffu) | 0x3f800000u;  /* 1.mantissa */
    float mant;
    memcpy(&mant, &mbits, sizeof mant);
    const float x = ((float)(e - 1) + mant) * 0.5f, ip = floorf(x);
    const int i = (int)ip;
    if (i < 0) return lod;
    if (i >= last) {
        lod.l0 = lod.l1 = last;
        return lod;
    }
    lod.l0 = i;
    lod.l1 = i + 1;
    lod.w = (uint32_t)((x - ip) * 256.0f);
    return lod;
}

/* The levels of one quad from its texture-space derivatives: lane 1 minus
 * lane 0 along x, lane 2 minus lane 0 along y, squared (not contracted into
 * FMAs: -ffp-contract=off), times rho2_scale (1 for lanes a pixel apart,
 * an exact product). */
static inline SAMPLE_H(sample_lod) SAMPLE_H(sample_level)(const mos_sampler *s, float w0, float h0, const float *uq,
                                                          const float *vq, float rho2_scale)
{
    float dux = (uq[1] - uq[0]) * w0, dvx = (vq[1] - vq[0]) * h0;
    float duy = (uq[2] - uq[0]) * w0, dvy = (vq[2] - vq[0]) * h0;
    float rx = (dux * dux + dvx * dvx) * rho2_scale, ry = (duy * duy + dvy * dvy) * rho2_scale;
    /* maxps: a NaN in either gives ry */
    return SAMPLE_H(sample_lod_rho2)(rx > ry ? rx : ry, s->levels, s->mip_linear);
}

/* Position along one axis of a level of n texels in 1/256 texels, as
 * llvmpipe's 8-bit path: round_half_even(c * n * 256) - 128, of the
 * fraction of c for repeat wrap of a size that is not a power of two.
 * Absurd positions (NaN, Inf, |c n| >= 2^22) sample texel 0. */
static inline int32_t SAMPLE_H(sample_pos)(float c, int n, int wrap)
{
    float x;
    if (wrap != MOS_WRAP_REPEAT || !(n & (n - 1))) {
        x = c * (float)(n * 256);
    } else {
        x = c - floorf(c);
        x = x * (float)n;
        x = x * 256.0f;
    }
    if (!(fabsf(x) < 1e9f)) x = 0.0f;
    return (int32_t)lrintf(x) - 128;
}

/* Texel i (any integer) of a level of n texels under wrap mode `wrap`. */
static inline int SAMPLE_H(sample_index)(int32_t i, int n, int wrap)
{
    if (wrap == MOS_WRAP_CLAMP_TO_EDGE) return i < 0 ? 0 : i > n - 1 ? n - 1 : i;
    if (wrap == MOS_WRAP_MIRRORED_REPEAT) {
        int32_t p = i % (2 * n);
        p += p < 0 ? 2 * n : 0;
        return p < n ? p : 2 * n - 1 - p;
    }
    if (!(n & (n - 1))) return i & (n - 1);
    const int32_t p = i % n;
    return p + (p < 0 ? n : 0);
}

/* The 8-bit linear step: a + w (b - a) / 256, rounded. */
static inline uint32_t SAMPLE_H(sample_lerp8)(uint32_t a, uint32_t b, uint32_t w)
{
    return ((a << 8) + w * b - w * a + 128u) >> 8;
}

/* Bilinear at (u, v) in level `level`, 8-bit channels into r[4]. */
static inline void SAMPLE_H(sample_bilinear)(const mos_sampler *s, int level, float u, float v, uint32_t r[4])
{
    const int lw = s->level[level].width, lh = s->level[level].height;
    const uint32_t *tex = s->level[level].texels;
    const int32_t px = SAMPLE_H(sample_pos)(u, lw, s->wrap[0]), py = SAMPLE_H(sample_pos)(v, lh, s->wrap[1]);
    const uint32_t fx = (uint32_t)px & 255u, fy = (uint32_t)py & 255u;
    const int x0 = SAMPLE_H(sample_index)(px >> 8, lw, s->wrap[0]), x1 = SAMPLE_H(sample_index)((px >> 8) + 1, lw, s->wrap[0]);
    const int y0 = SAMPLE_H(sample_index)(py >> 8, lh, s->wrap[1]), y1 = SAMPLE_H(sample_index)((py >> 8) + 1, lh, s->wrap[1]);
    const uint32_t t[4] = {tex[y0 * lw + x0], tex[y0 * lw + x1], tex[y1 * lw + x0], tex[y1 * lw + x1]};
    for (int c = 0; c < 4; c++) {
        uint32_t k[4];
        for (int i = 0; i < 4; i++) k[i] = (t[i] >> (8 * c)) & 0xffu;
        r[c] = SAMPLE_H(sample_lerp8)(SAMPLE_H(sample_lerp8)(k[0], k[1], fx), SAMPLE_H(sample_lerp8)(k[2], k[3], fx), fy);
    }
}

/* One lane in portable C: the portable variant's body, and the vector
 * variants' fallback (textures past 2^31 texels: gather offsets are
 * 32-bit; mirrored repeat).  Rows are stored bottom first, so v is GL's t;
 * bilinear in 8-bit steps, x then y, and between two levels one more step,
 * as llvmpipe filters unorm8 textures. */
static inline void SAMPLE_H(sample_texel)(const mos_sampler *s, SAMPLE_H(sample_lod) lod, float u, float v,
                                          uint32_t r[4])
{
    uint32_t r1[4];
    SAMPLE_H(sample_bilinear)(s, lod.l0, u, v, r);
    if (lod.l1 != lod.l0) {
        SAMPLE_H(sample_bilinear)(s, lod.l1, u, v, r1);
        for (int c = 0; c < 4; c++) r[c] = SAMPLE_H(sample_lerp8)(r[c], r1[c], lod.w);
    }
}

/* The cell filter (mos_fs_batch.cells): tap k of four lies a quarter of a
 * lane step from the lane along each axis of its quad (x, then y), signs
 * by k's bits; the taps' 8-bit channels are summed (at most 4 * 255) and
 * scaled once, so every variant returns the same bits. */
#define SAMPLE_TAP_STEP(k, axis) ((k) >> (axis) & 1 ? 0.25f : -0.25f)
#define SAMPLE_CELL_SCALE (1.0f / (4.0f * 255.0f))

/* Lane l of quad-ordered (u, v) into out: one texel, or with cells the
 * mean of its cell's four taps. */
static inline void SAMPLE_H(sample_lane)(const mos_sampler *s, SAMPLE_H(sample_lod) lod, const float *u,
                                         const float *v, int l, bool cells, float *const out[4])
{
    uint32_t r[4];
    if (!cells) {
        SAMPLE_H(sample_texel)(s, lod, u[l], v[l], r);
        for (int c = 0; c < 4; c++) out[c][l] = (float)r[c] * (1.0f / 255.0f);
        return;
    }
    const int b = l & ~3;  /* the quad's lane 0: lane 1 is a step along x, lane 2 along y */
    const float dux = u[b + 1] - u[b], duy = u[b + 2] - u[b], dvx = v[b + 1] - v[b], dvy = v[b + 2] - v[b];
    uint32_t sum[4] = {0, 0, 0, 0};
    for (int k = 0; k < 4; k++) {
        const float sx = SAMPLE_TAP_STEP(k, 0), sy = SAMPLE_TAP_STEP(k, 1);
        SAMPLE_H(sample_texel)(s, lod, u[l] + sx * dux + sy * duy, v[l] + sx * dvx + sy * dvy, r);
        for (int c = 0; c < 4; c++) sum[c] += r[c];
    }
    for (int c = 0; c < 4; c++) out[c][l] = (float)sum[c] * SAMPLE_CELL_SCALE;
}

#if SIMD_LANES == 4

void SAMPLE_FN(const mos_sampler *s, int quad_count, const float *u, const float *v, float *const out[4],
               float rho2_scale, bool cells)
{
    const float w0 = (float)s->level[0].width, h0 = (float)s->level[0].height;
    for (int q = 0; q < quad_count; q++) {
        const SAMPLE_H(sample_lod) lod = SAMPLE_H(sample_level)(s, w0, h0, u + 4 * q, v + 4 * q, rho2_scale);
        for (int l = 4 * q; l < 4 * q + 4; l++) SAMPLE_H(sample_lane)(s, lod, u, v, l, cells, out);
    }
}

#else /* SIMD_LANES 8 or 16 */

/* The 8-bit linear step (sample_lerp8) of two channels held in the 16-bit
 * halves of each lane: ((a << 8) + (b - a) f + 128) >> 8.  The sum before
 * the shift is at most 255 * 256 + 128 < 2^16, so 16-bit arithmetic that
 * wraps is still exact. */
static inline simd_i SAMPLE_H(sample_lerp8x2)(simd_i a, simd_i b, simd_i f2)
{
    const simd_i sum = simd_add_i16(simd_sll_i16(a, 8), simd_mul_i16(simd_sub_i16(b, a), f2));
    return simd_srl_i16(simd_add_i16(sum, simd_set1_i(0x00800080)), 8);
}

/* Channel 0..255 in the low (hi = 0) or high 16 bits of each lane, to 0..1. */
static inline simd_f SAMPLE_H(sample_unorm)(simd_i v, int hi, float scale)
{
    const simd_i c = hi ? simd_srl_i(v, 16) : simd_and_i(v, simd_set1_i(0xffff));
    return simd_mul_f(simd_to_f(c), simd_set1_f(scale));
}

/* What the vector body knows of a texture for one call. */
typedef struct SAMPLE_H(sample_vtex) {
    const uint32_t *base;  /* level 0; every level within 2^31 texels of it */
    bool pow2;             /* every level a power of two in both sizes */
    int wrap_u, wrap_v;    /* MOS_WRAP_REPEAT or MOS_WRAP_CLAMP_TO_EDGE */
} SAMPLE_H(sample_vtex);

/* Texels i and i + 1 of each lane of a level of n texels (sample_index for
 * repeat and clamp-to-edge). */
static inline void SAMPLE_H(sample_index_v)(simd_i i, simd_i n, int wrap, bool pow2, simd_i *i0, simd_i *i1)
{
    const simd_i one = simd_set1_i(1), zero = simd_set1_i(0), nm1 = simd_sub_i(n, one);
    if (wrap == MOS_WRAP_CLAMP_TO_EDGE) {
        const simd_i j = simd_add_i(i, one);
        *i0 = simd_select_i(simd_lt_i(i, zero), zero, simd_min_i(i, nm1));
        *i1 = simd_select_i(simd_lt_i(j, zero), zero, simd_min_i(j, nm1));
        return;
    }
    /* repeat: i & (n - 1), or for other sizes i in [-1, n - 1] from the fraction */
    *i0 = pow2 ? simd_and_i(i, nm1) : simd_select_i(simd_lt_i(i, zero), nm1, simd_min_i(i, nm1));
    *i1 = simd_select_i(simd_lt_i(simd_add_i(*i0, one), n), simd_add_i(*i0, one), zero);
}

/* Bilinear at (lu, lv) in the levels of size (w, h) at texel offset off,
 * per lane: r and b (rb), g and a (ga) in the 16-bit halves, 8 bits each,
 * exactly as sample_bilinear. */
static inline void SAMPLE_H(sample_bilinear_v)(const SAMPLE_H(sample_vtex) *t, simd_i w, simd_i h, simd_i off,
                                               simd_f lu, simd_f lv, simd_i *rb, simd_i *ga)
{
    /* Positions in 1/256 texels, as sample_pos (for a power-of-two level of
     * a texture that is not one, the fraction path gives the same bits as the
     * direct one: both scalings are exact). */
    const simd_f fw = simd_to_f(w), fh = simd_to_f(h);
    simd_f x, y;
    if (t->pow2 || t->wrap_u != MOS_WRAP_REPEAT) x = simd_mul_f(lu, simd_mul_f(fw, simd_set1_f(256.0f)));
    else x = simd_mul_f(simd_mul_f(simd_sub_f(lu, simd_floor_f(lu)), fw), simd_set1_f(256.0f));
    if (t->pow2 || t->wrap_v != MOS_WRAP_REPEAT) y = simd_mul_f(lv, simd_mul_f(fh, simd_set1_f(256.0f)));
    else y = simd_mul_f(simd_mul_f(simd_sub_f(lv, simd_floor_f(lv)), fh), simd_set1_f(256.0f));
    x = simd_keep_f(simd_lt_f(simd_abs_f(x), simd_set1_f(1e9f)), x);
    y = simd_keep_f(simd_lt_f(simd_abs_f(y), simd_set1_f(1e9f)), y);
    const simd_i px = simd_sub_i(simd_round_i(x), simd_set1_i(128));
    const simd_i py = simd_sub_i(simd_round_i(y), simd_set1_i(128));
    simd_i ix0, ix1, iy0, iy1;
    SAMPLE_H(sample_index_v)(simd_sra_i(px, 8), w, t->wrap_u, t->pow2, &ix0, &ix1);
    SAMPLE_H(sample_index_v)(simd_sra_i(py, 8), h, t->wrap_v, t->pow2, &iy0, &iy1);
    const simd_i row0 = simd_add_i(off, simd_mul_i(iy0, w)), row1 = simd_add_i(off, simd_mul_i(iy1, w));
    simd_i t00, t10, t01, t11;
    /* neighbours in every lane: one 64-bit fetch per row */
    if (simd_all(simd_eq_i(ix1, simd_add_i(ix0, simd_set1_i(1))))) {
        simd_gather_pair_i(t->base, simd_add_i(row0, ix0), &t00, &t10);
        simd_gather_pair_i(t->base, simd_add_i(row1, ix0), &t01, &t11);
    } else {
        t00 = simd_gather_i(t->base, simd_add_i(row0, ix0));
        t10 = simd_gather_i(t->base, simd_add_i(row0, ix1));
        t01 = simd_gather_i(t->base, simd_add_i(row1, ix0));
        t11 = simd_gather_i(t->base, simd_add_i(row1, ix1));
    }
    /* Channels r, b (and g, a after >> 8) in the 16-bit halves: x, then y,
     * in 8-bit steps. */
    const simd_i fx = simd_and_i(px, simd_set1_i(255)), fy = simd_and_i(py, simd_set1_i(255));
    const simd_i even = simd_set1_i(0x00ff00ff);
    const simd_i fx2 = simd_add_i(fx, simd_sll_i(fx, 16)), fy2 = simd_add_i(fy, simd_sll_i(fy, 16));
    const simd_i rb0 = SAMPLE_H(sample_lerp8x2)(simd_and_i(t00, even), simd_and_i(t10, even), fx2);
    const simd_i rb1 = SAMPLE_H(sample_lerp8x2)(simd_and_i(t01, even), simd_and_i(t11, even), fx2);
    const simd_i ga0 =
        SAMPLE_H(sample_lerp8x2)(simd_and_i(simd_srl_i(t00, 8), even), simd_and_i(simd_srl_i(t10, 8), even), fx2);
    const simd_i ga1 =
        SAMPLE_H(sample_lerp8x2)(simd_and_i(simd_srl_i(t01, 8), even), simd_and_i(simd_srl_i(t11, 8), even), fx2);
    *rb = SAMPLE_H(sample_lerp8x2)(rb0, rb1, fy2);
    *ga = SAMPLE_H(sample_lerp8x2)(ga0, ga1, fy2);
}

/* Per-level tables: size and texel offset from level 0. */
typedef struct SAMPLE_H(sample_luts) {
    simd_lut16 w, h, off;
} SAMPLE_H(sample_luts);

/* One texel per lane at (lu, lv): level l0, and where some quad blends two
 * (GL_LINEAR_MIPMAP_LINEAR) one more 8-bit step towards level l1 by lw. */
static inline void SAMPLE_H(sample_texel_v)(const SAMPLE_H(sample_vtex) *t, const SAMPLE_H(sample_luts) *lut,
                                            simd_i l0, simd_i l1, simd_i lw, bool two, simd_f lu, simd_f lv,
                                            simd_i *rb, simd_i *ga)
{
    SAMPLE_H(sample_bilinear_v)(t, simd_lut16_get(lut->w, l0), simd_lut16_get(lut->h, l0),
                                simd_lut16_get(lut->off, l0), lu, lv, rb, ga);
    if (two) {
        simd_i rb1, ga1;
        SAMPLE_H(sample_bilinear_v)(t, simd_lut16_get(lut->w, l1), simd_lut16_get(lut->h, l1),
                                    simd_lut16_get(lut->off, l1), lu, lv, &rb1, &ga1);
        const simd_i lw2 = simd_add_i(lw, simd_sll_i(lw, 16));
        *rb = SAMPLE_H(sample_lerp8x2)(*rb, rb1, lw2);
        *ga = SAMPLE_H(sample_lerp8x2)(*ga, ga1, lw2);
    }
}

void SAMPLE_FN(const mos_sampler *s, int quad_count, const float *u, const float *v, float *const out[4],
               float rho2_scale, bool cells)
{
    const float w0 = (float)s->level[0].width, h0 = (float)s->level[0].height;
    /* Per-level tables for simd_lut16_get, padded to 16 entries with the last level:
     * size and texel offset from level 0 (the levels share one block). */
    SAMPLE_H(sample_vtex) t = {s->level[0].texels, true, s->wrap[0], s->wrap[1]};
    _Alignas(64) int32_t tab_w[16], tab_h[16], tab_off[16];
    int64_t end = 0; /* one past the last texel, from base */
    for (int l = 0; l < 16; l++) {
        const int k = l < s->levels ? l : s->levels - 1;
        const int lw = s->level[k].width, lh = s->level[k].height;
        const int64_t off = s->level[k].texels - t.base;
        tab_w[l] = lw;
        tab_h[l] = lh;
        tab_off[l] = (int32_t)off;
        t.pow2 = t.pow2 && !(lw & (lw - 1)) && !(lh & (lh - 1));
        end = off + (int64_t)lw * lh > end ? off + (int64_t)lw * lh : end;
    }
    /* Portable lanes: gather offsets are 32-bit; mirrored repeat is rare. */
    if (end > INT32_MAX || t.wrap_u == MOS_WRAP_MIRRORED_REPEAT || t.wrap_v == MOS_WRAP_MIRRORED_REPEAT) {
        for (int q = 0; q < quad_count; q++) {
            const SAMPLE_H(sample_lod) lod = SAMPLE_H(sample_level)(s, w0, h0, u + 4 * q, v + 4 * q, rho2_scale);
            for (int l = 4 * q; l < 4 * q + 4; l++) SAMPLE_H(sample_lane)(s, lod, u, v, l, cells, out);
        }
        return;
    }
    const SAMPLE_H(sample_luts) lut = {simd_lut16_load(tab_w), simd_lut16_load(tab_h), simd_lut16_load(tab_off)};

    _Alignas(64) int32_t lane_l0[4 * SAMPLE_BLOCK + SIMD_LANES], lane_l1[4 * SAMPLE_BLOCK + SIMD_LANES];
    _Alignas(64) int32_t lane_w[4 * SAMPLE_BLOCK + SIMD_LANES];
    for (int q0 = 0; q0 < quad_count; q0 += SAMPLE_BLOCK) {
        const int n = quad_count - q0 < SAMPLE_BLOCK ? quad_count - q0 : SAMPLE_BLOCK;
        /* The levels first, scalar, as every variant picks them. */
        bool two = false;  /* some quad blends two levels */
        for (int q = 0; q < n; q++) {
            const SAMPLE_H(sample_lod) lod = SAMPLE_H(sample_level)(s, w0, h0, u + 4 * (q0 + q), v + 4 * (q0 + q),
                                                                        rho2_scale);
            for (int i = 0; i < 4; i++) {
                lane_l0[4 * q + i] = lod.l0;
                lane_l1[4 * q + i] = lod.l1;
                lane_w[4 * q + i] = (int32_t)lod.w;
            }
            two = two || lod.l1 != lod.l0;
        }
        for (int l = 4 * n; l < 4 * n + SIMD_LANES; l++) lane_l0[l] = lane_l1[l] = lane_w[l] = 0; /* tail: valid */

        for (int q = 0; q < n; q += SAMPLE_QUADS) {
            const int first = 4 * (q0 + q), lanes = n - q < SAMPLE_QUADS ? 4 * (n - q) : SIMD_LANES;
            const float *cu = u + first, *cv = v + first;
            float *co[4] = {out[0] + first, out[1] + first, out[2] + first, out[3] + first};
            /* A last vector of fewer quads reads and writes padded copies:
             * (u, v) = (0, 0) in the lanes past the end. */
            _Alignas(64) float pad_uv[2][SIMD_LANES], pad_out[4][SIMD_LANES];
            if (lanes < SIMD_LANES) {
                memset(pad_uv, 0, sizeof pad_uv);
                memcpy(pad_uv[0], cu, (size_t)lanes * sizeof(float));
                memcpy(pad_uv[1], cv, (size_t)lanes * sizeof(float));
                cu = pad_uv[0];
                cv = pad_uv[1];
                for (int c = 0; c < 4; c++) co[c] = pad_out[c];
            }
            const simd_f lu = simd_loadu_f(cu), lv = simd_loadu_f(cv);
            const simd_i l0 = simd_loadu_i(lane_l0 + 4 * q), l1 = simd_loadu_i(lane_l1 + 4 * q);
            const simd_i lw = simd_loadu_i(lane_w + 4 * q);
            simd_i rb, ga;
            float scale = 1.0f / 255.0f;
            if (!cells) {
                SAMPLE_H(sample_texel_v)(&t, &lut, l0, l1, lw, two, lu, lv, &rb, &ga);
            } else {
                /* Each lane's quad steps (sample_lane's dux ... dvy), then its
                 * four taps summed: at most 4 * 255 per 16-bit half. */
                _Alignas(64) float step[4][SIMD_LANES];
                for (int i = 0; i < SIMD_LANES; i++) {
                    const int b = i & ~3;
                    step[0][i] = cu[b + 1] - cu[b], step[1][i] = cu[b + 2] - cu[b];
                    step[2][i] = cv[b + 1] - cv[b], step[3][i] = cv[b + 2] - cv[b];
                }
                const simd_f dux = simd_load_f(step[0]), duy = simd_load_f(step[1]);
                const simd_f dvx = simd_load_f(step[2]), dvy = simd_load_f(step[3]);
                rb = ga = simd_set1_i(0);
                for (int k = 0; k < 4; k++) {
                    const simd_f sx = simd_set1_f(SAMPLE_TAP_STEP(k, 0)), sy = simd_set1_f(SAMPLE_TAP_STEP(k, 1));
                    const simd_f tu = simd_add_f(simd_add_f(lu, simd_mul_f(sx, dux)), simd_mul_f(sy, duy));
                    const simd_f tv = simd_add_f(simd_add_f(lv, simd_mul_f(sx, dvx)), simd_mul_f(sy, dvy));
                    simd_i trb, tga;
                    SAMPLE_H(sample_texel_v)(&t, &lut, l0, l1, lw, two, tu, tv, &trb, &tga);
                    rb = simd_add_i(rb, trb);
                    ga = simd_add_i(ga, tga);
                }
                scale = SAMPLE_CELL_SCALE;
            }
            simd_storeu_f(co[0], SAMPLE_H(sample_unorm)(rb, 0, scale));
            simd_storeu_f(co[1], SAMPLE_H(sample_unorm)(ga, 0, scale));
            simd_storeu_f(co[2], SAMPLE_H(sample_unorm)(rb, 1, scale));
            simd_storeu_f(co[3], SAMPLE_H(sample_unorm)(ga, 1, scale));

            if (lanes < SIMD_LANES)
                for (int c = 0; c < 4; c++) memcpy(out[c] + first, pad_out[c], (size_t)lanes * sizeof(float));
        }
    }
}

#endif /* SIMD_LANES */

#undef SAMPLE_BLOCK
#undef SAMPLE_TAP_STEP
#undef SAMPLE_CELL_SCALE
#undef SAMPLE_QUADS
#undef SAMPLE_H
#undef SAMPLE_CAT
#undef SAMPLE_CAT2
#undef SAMPLE_FN
