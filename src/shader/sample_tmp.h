/* sample_tmp.h — the body of mos_sample_quads, included once per ISA by the
 * texture sampling files, which define SAMPLE_FN (the function's name:
 * texture_sample_quads_scalar, _avx2, _avx512) and SAMPLE_LANES (4: portable
 * C, 8: AVX2, 16: AVX-512F/DQ/BW/VL) and, for 8 and 16, have already set
 * `#pragma GCC target(...)` for that ISA.  Every variant computes the same
 * bits as the portable one for every input, NaN and Inf included: the mip
 * level of a quad stays scalar; the vector variants do the per-lane work
 * (position, wrap, texel gathers, 8-bit bilinear steps) one vector of
 * SAMPLE_LANES / 4 quads at a time.  The arithmetic is llvmpipe's for an
 * RGBA8 texture with GL_LINEAR_MIPMAP_NEAREST and repeat wrap (Mesa 22.3,
 * gallivm's 8-bit path): given the same texture coordinates both renderers
 * return the same texel values.
 *
 * Needs shader/texture.h, <math.h>, <stdint.h>, <string.h>.  Helpers are
 * named with the lane count appended (sample_level_8 ...), so one file may
 * include this once per ISA. */

#ifndef SAMPLE_FN
#error "define SAMPLE_FN and SAMPLE_LANES before including sample_tmp.h"
#endif

#define SAMPLE_CAT2(a, b) a##_##b
#define SAMPLE_CAT(a, b) SAMPLE_CAT2(a, b)
#define SAMPLE_H(name) SAMPLE_CAT(name, SAMPLE_LANES)
#define SAMPLE_QUADS (SAMPLE_LANES / 4) /* quads per vector */
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
 * lane 0 along x, lane 2 minus lane 0 along y (the squares are not
 * contracted into FMAs: -ffp-contract=off). */
static inline SAMPLE_H(sample_lod) SAMPLE_H(sample_level)(const mos_sampler *s, float w0, float h0, const float *uq,
                                                          const float *vq)
{
    float dux = (uq[1] - uq[0]) * w0, dvx = (vq[1] - vq[0]) * h0;
    float duy = (uq[2] - uq[0]) * w0, dvy = (vq[2] - vq[0]) * h0;
    float rx = dux * dux + dvx * dvx, ry = duy * duy + dvy * dvy;
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
static inline void SAMPLE_H(sample_lane)(const mos_sampler *s, SAMPLE_H(sample_lod) lod, float u, float v,
                                         float *const out[4], int lane)
{
    uint32_t r[4], r1[4];
    SAMPLE_H(sample_bilinear)(s, lod.l0, u, v, r);
    if (lod.l1 != lod.l0) {
        SAMPLE_H(sample_bilinear)(s, lod.l1, u, v, r1);
        for (int c = 0; c < 4; c++) r[c] = SAMPLE_H(sample_lerp8)(r[c], r1[c], lod.w);
    }
    for (int c = 0; c < 4; c++) out[c][lane] = (float)r[c] * (1.0f / 255.0f);
}

#if SAMPLE_LANES == 4

void SAMPLE_FN(const mos_sampler *s, int quad_count, const float *u, const float *v, float *const out[4])
{
    const float w0 = (float)s->level[0].width, h0 = (float)s->level[0].height;
    for (int q = 0; q < quad_count; q++) {
        const SAMPLE_H(sample_lod) lod = SAMPLE_H(sample_level)(s, w0, h0, u + 4 * q, v + 4 * q);
        for (int l = 4 * q; l < 4 * q + 4; l++) SAMPLE_H(sample_lane)(s, lod, u[l], v[l], out, l);
    }
}

#else /* SAMPLE_LANES 8 or 16 */

#include <immintrin.h>

/* The few vector operations the body needs, per width.  SV_M is a lane
 * mask: a vector of all-ones lanes for AVX2, a k-register for AVX-512.
 * SV_LUT looks up a 16-entry per-level table (SV_LUT_DECL) by lane level. */
#if SAMPLE_LANES == 8
#define SV_F __m256
#define SV_I __m256i
#define SV_M __m256i
#define SV_LOADF(p) _mm256_loadu_ps(p)
#define SV_STOREF(p, a) _mm256_storeu_ps(p, a)
#define SV_LOADI(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define SV_F1(x) _mm256_set1_ps(x)
#define SV_I1(x) _mm256_set1_epi32(x)
#define SV_MULF(a, b) _mm256_mul_ps(a, b)
#define SV_SUBF(a, b) _mm256_sub_ps(a, b)
#define SV_ABSF(a) _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a)
#define SV_LTF(a, b) _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_LT_OQ)) /* false on NaN */
#define SV_KEEPF(m, a) _mm256_and_ps(_mm256_castsi256_ps(m), a) /* m ? a : 0 */
#define SV_CVTF(a) _mm256_cvtepi32_ps(a)
#define SV_FLOORF(a) _mm256_floor_ps(a)
#define SV_CVTROUND(a) _mm256_cvtps_epi32(a) /* round half to even (MXCSR), as lrintf */
#define SV_MIN(a, b) _mm256_min_epi32(a, b)
#define SV_SRL16(a, n) _mm256_srli_epi16(a, n)
#define SV_ADD(a, b) _mm256_add_epi32(a, b)
#define SV_SUB(a, b) _mm256_sub_epi32(a, b)
#define SV_MUL(a, b) _mm256_mullo_epi32(a, b)
#define SV_AND(a, b) _mm256_and_si256(a, b)
#define SV_SRA(a, n) _mm256_srai_epi32(a, n)
#define SV_SRL(a, n) _mm256_srli_epi32(a, n)
#define SV_SLL(a, n) _mm256_slli_epi32(a, n)
#define SV_ADD16(a, b) _mm256_add_epi16(a, b)
#define SV_SUB16(a, b) _mm256_sub_epi16(a, b)
#define SV_MUL16(a, b) _mm256_mullo_epi16(a, b)
#define SV_SLL16(a, n) _mm256_slli_epi16(a, n)
#define SV_LT(a, b) _mm256_cmpgt_epi32(b, a)
#define SV_EQ(a, b) _mm256_cmpeq_epi32(a, b)
#define SV_SEL(m, a, b) _mm256_blendv_epi8(b, a, m) /* m ? a : b */
#define SV_GATHER(base, idx) _mm256_i32gather_epi32((const int *)(const void *)(base), idx, 4)
#define SV_ALL(m) (_mm256_movemask_ps(_mm256_castsi256_ps(m)) == 0xff)
/* Texels idx and idx + 1 of every lane, as two 4-lane 64-bit gathers
 * whose halves are then split into left and right. */
#define SV_GATHER2(base, idx, left, right)                                                                    \
    do {                                                                                                     \
        const __m256 lo_ = _mm256_castsi256_ps(                                                              \
            _mm256_i32gather_epi64((const long long *)(const void *)(base), _mm256_castsi256_si128(idx), 4));   \
        const __m256 hi_ = _mm256_castsi256_ps(                                                              \
            _mm256_i32gather_epi64((const long long *)(const void *)(base), _mm256_extracti128_si256(idx, 1), 4)); \
        left = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(lo_, hi_, 0x88)), 0xd8);        \
        right = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(lo_, hi_, 0xdd)), 0xd8);       \
    } while (0)
/* 16 entries in two halves: vpermd uses the low 3 bits of the index. */
#define SV_LUT_DECL(name, table) \
    const __m256i name##_lo = SV_LOADI(table), name##_hi = SV_LOADI((table) + 8)
#define SV_LUT(name, idx)                                                                                  \
    _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(name##_lo, idx), _mm256_permutevar8x32_epi32(name##_hi, idx), \
                       _mm256_cmpgt_epi32(idx, _mm256_set1_epi32(7)))
#elif SAMPLE_LANES == 16
#define SV_F __m512
#define SV_I __m512i
#define SV_M __mmask16
#define SV_LOADF(p) _mm512_loadu_ps(p)
#define SV_STOREF(p, a) _mm512_storeu_ps(p, a)
#define SV_LOADI(p) _mm512_loadu_si512((const void *)(p))
#define SV_F1(x) _mm512_set1_ps(x)
#define SV_I1(x) _mm512_set1_epi32(x)
#define SV_MULF(a, b) _mm512_mul_ps(a, b)
#define SV_SUBF(a, b) _mm512_sub_ps(a, b)
#define SV_ABSF(a) _mm512_abs_ps(a)
#define SV_LTF(a, b) _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ) /* false on NaN */
#define SV_KEEPF(m, a) _mm512_maskz_mov_ps(m, a) /* m ? a : 0 */
#define SV_CVTF(a) _mm512_cvtepi32_ps(a)
#define SV_FLOORF(a) _mm512_roundscale_ps(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
#define SV_CVTROUND(a) _mm512_cvtps_epi32(a) /* round half to even (MXCSR), as lrintf */
#define SV_MIN(a, b) _mm512_min_epi32(a, b)
#define SV_SRL16(a, n) _mm512_srli_epi16(a, n)
#define SV_ADD(a, b) _mm512_add_epi32(a, b)
#define SV_SUB(a, b) _mm512_sub_epi32(a, b)
#define SV_MUL(a, b) _mm512_mullo_epi32(a, b)
#define SV_AND(a, b) _mm512_and_si512(a, b)
#define SV_SRA(a, n) _mm512_srai_epi32(a, n)
#define SV_SRL(a, n) _mm512_srli_epi32(a, n)
#define SV_SLL(a, n) _mm512_slli_epi32(a, n)
#define SV_ADD16(a, b) _mm512_add_epi16(a, b)
#define SV_SUB16(a, b) _mm512_sub_epi16(a, b)
#define SV_MUL16(a, b) _mm512_mullo_epi16(a, b)
#define SV_SLL16(a, n) _mm512_slli_epi16(a, n)
#define SV_LT(a, b) _mm512_cmplt_epi32_mask(a, b)
#define SV_EQ(a, b) _mm512_cmpeq_epi32_mask(a, b)
#define SV_SEL(m, a, b) _mm512_mask_blend_epi32(m, b, a) /* m ? a : b */
#define SV_GATHER(base, idx) _mm512_i32gather_epi32(idx, (const void *)(base), 4)
#define SV_ALL(m) ((m) == 0xffff)
/* Texels idx and idx + 1 of every lane, as two 8-lane 64-bit gathers
 * whose halves are then split into left and right. */
#define SV_GATHER2(base, idx, left, right)                                                                       \
    do {                                                                                                        \
        const __m512i lo_ = _mm512_i32gather_epi64(_mm512_castsi512_si256(idx), (const void *)(base), 4);     \
        const __m512i hi_ = _mm512_i32gather_epi64(_mm512_extracti64x4_epi64(idx, 1), (const void *)(base), 4); \
        const __m512i even_ = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);   \
        left = _mm512_permutex2var_epi32(lo_, even_, hi_);                                                     \
        right = _mm512_permutex2var_epi32(lo_, _mm512_add_epi32(even_, _mm512_set1_epi32(1)), hi_);            \
    } while (0)
#define SV_LUT_DECL(name, table) const __m512i name = SV_LOADI(table)
#define SV_LUT(name, idx) _mm512_permutexvar_epi32(idx, name)
#else
#error "SAMPLE_LANES must be 4, 8 or 16"
#endif

/* The 8-bit linear step (sample_lerp8) of two channels held in the 16-bit
 * halves of each lane: ((a << 8) + (b - a) f + 128) >> 8.  The sum before
 * the shift is at most 255 * 256 + 128 < 2^16, so 16-bit arithmetic that
 * wraps is still exact. */
static inline SV_I SAMPLE_H(sample_lerp8x2)(SV_I a, SV_I b, SV_I f2)
{
    return SV_SRL16(SV_ADD16(SV_ADD16(SV_SLL16(a, 8), SV_MUL16(SV_SUB16(b, a), f2)), SV_I1(0x00800080)), 8);
}

/* Channel 0..255 in the low (hi = 0) or high 16 bits of each lane, to 0..1. */
static inline SV_F SAMPLE_H(sample_unorm)(SV_I v, int hi)
{
    return SV_MULF(SV_CVTF(hi ? SV_SRL(v, 16) : SV_AND(v, SV_I1(0xffff))), SV_F1(1.0f / 255.0f));
}

/* What the vector body knows of a texture for one call. */
typedef struct SAMPLE_H(sample_vtex) {
    const uint32_t *base;  /* level 0; every level within 2^31 texels of it */
    bool pow2;             /* every level a power of two in both sizes */
    int wrap_u, wrap_v;    /* MOS_WRAP_REPEAT or MOS_WRAP_CLAMP_TO_EDGE */
} SAMPLE_H(sample_vtex);

/* Texels i and i + 1 of each lane of a level of n texels (sample_index for
 * repeat and clamp-to-edge). */
static inline void SAMPLE_H(sample_index_v)(SV_I i, SV_I n, int wrap, bool pow2, SV_I *i0, SV_I *i1)
{
    const SV_I one = SV_I1(1), zero = SV_I1(0), nm1 = SV_SUB(n, one);
    if (wrap == MOS_WRAP_CLAMP_TO_EDGE) {
        const SV_I j = SV_ADD(i, one);
        *i0 = SV_SEL(SV_LT(i, zero), zero, SV_MIN(i, nm1));
        *i1 = SV_SEL(SV_LT(j, zero), zero, SV_MIN(j, nm1));
        return;
    }
    /* repeat: i & (n - 1), or for other sizes i in [-1, n - 1] from the fraction */
    *i0 = pow2 ? SV_AND(i, nm1) : SV_SEL(SV_LT(i, zero), nm1, SV_MIN(i, nm1));
    *i1 = SV_SEL(SV_LT(SV_ADD(*i0, one), n), SV_ADD(*i0, one), zero);
}

/* Bilinear at (lu, lv) in the levels of size (w, h) at texel offset off,
 * per lane: r and b (rb), g and a (ga) in the 16-bit halves, 8 bits each,
 * exactly as sample_bilinear. */
static inline void SAMPLE_H(sample_bilinear_v)(const SAMPLE_H(sample_vtex) *t, SV_I w, SV_I h, SV_I off, SV_F lu,
                                               SV_F lv, SV_I *rb, SV_I *ga)
{
    /* Positions in 1/256 texels, as sample_pos (for a power-of-two level of
     * a texture that is not one, the fraction path gives the same bits as the
     * direct one: both scalings are exact). */
    const SV_F fw = SV_CVTF(w), fh = SV_CVTF(h);
    SV_F x, y;
    if (t->pow2 || t->wrap_u != MOS_WRAP_REPEAT) x = SV_MULF(lu, SV_MULF(fw, SV_F1(256.0f)));
    else x = SV_MULF(SV_MULF(SV_SUBF(lu, SV_FLOORF(lu)), fw), SV_F1(256.0f));
    if (t->pow2 || t->wrap_v != MOS_WRAP_REPEAT) y = SV_MULF(lv, SV_MULF(fh, SV_F1(256.0f)));
    else y = SV_MULF(SV_MULF(SV_SUBF(lv, SV_FLOORF(lv)), fh), SV_F1(256.0f));
    x = SV_KEEPF(SV_LTF(SV_ABSF(x), SV_F1(1e9f)), x);
    y = SV_KEEPF(SV_LTF(SV_ABSF(y), SV_F1(1e9f)), y);
    const SV_I px = SV_SUB(SV_CVTROUND(x), SV_I1(128)), py = SV_SUB(SV_CVTROUND(y), SV_I1(128));
    SV_I ix0, ix1, iy0, iy1;
    SAMPLE_H(sample_index_v)(SV_SRA(px, 8), w, t->wrap_u, t->pow2, &ix0, &ix1);
    SAMPLE_H(sample_index_v)(SV_SRA(py, 8), h, t->wrap_v, t->pow2, &iy0, &iy1);
    const SV_I row0 = SV_ADD(off, SV_MUL(iy0, w)), row1 = SV_ADD(off, SV_MUL(iy1, w));
    SV_I t00, t10, t01, t11;
    if (SV_ALL(SV_EQ(ix1, SV_ADD(ix0, SV_I1(1))))) { /* neighbours in every lane: one 64-bit fetch per row */
        SV_GATHER2(t->base, SV_ADD(row0, ix0), t00, t10);
        SV_GATHER2(t->base, SV_ADD(row1, ix0), t01, t11);
    } else {
        t00 = SV_GATHER(t->base, SV_ADD(row0, ix0));
        t10 = SV_GATHER(t->base, SV_ADD(row0, ix1));
        t01 = SV_GATHER(t->base, SV_ADD(row1, ix0));
        t11 = SV_GATHER(t->base, SV_ADD(row1, ix1));
    }
    /* Channels r, b (and g, a after >> 8) in the 16-bit halves: x, then y,
     * in 8-bit steps. */
    const SV_I fx = SV_AND(px, SV_I1(255)), fy = SV_AND(py, SV_I1(255)), even = SV_I1(0x00ff00ff);
    const SV_I fx2 = SV_ADD(fx, SV_SLL(fx, 16)), fy2 = SV_ADD(fy, SV_SLL(fy, 16));
    const SV_I rb0 = SAMPLE_H(sample_lerp8x2)(SV_AND(t00, even), SV_AND(t10, even), fx2);
    const SV_I rb1 = SAMPLE_H(sample_lerp8x2)(SV_AND(t01, even), SV_AND(t11, even), fx2);
    const SV_I ga0 = SAMPLE_H(sample_lerp8x2)(SV_AND(SV_SRL(t00, 8), even), SV_AND(SV_SRL(t10, 8), even), fx2);
    const SV_I ga1 = SAMPLE_H(sample_lerp8x2)(SV_AND(SV_SRL(t01, 8), even), SV_AND(SV_SRL(t11, 8), even), fx2);
    *rb = SAMPLE_H(sample_lerp8x2)(rb0, rb1, fy2);
    *ga = SAMPLE_H(sample_lerp8x2)(ga0, ga1, fy2);
}

void SAMPLE_FN(const mos_sampler *s, int quad_count, const float *u, const float *v, float *const out[4])
{
    const float w0 = (float)s->level[0].width, h0 = (float)s->level[0].height;
    /* Per-level tables for SV_LUT, padded to 16 entries with the last level:
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
            const SAMPLE_H(sample_lod) lod = SAMPLE_H(sample_level)(s, w0, h0, u + 4 * q, v + 4 * q);
            for (int l = 4 * q; l < 4 * q + 4; l++) SAMPLE_H(sample_lane)(s, lod, u[l], v[l], out, l);
        }
        return;
    }
    SV_LUT_DECL(lut_w, tab_w);
    SV_LUT_DECL(lut_h, tab_h);
    SV_LUT_DECL(lut_off, tab_off);

    _Alignas(64) int32_t lane_l0[4 * SAMPLE_BLOCK + SAMPLE_LANES], lane_l1[4 * SAMPLE_BLOCK + SAMPLE_LANES];
    _Alignas(64) int32_t lane_w[4 * SAMPLE_BLOCK + SAMPLE_LANES];
    for (int q0 = 0; q0 < quad_count; q0 += SAMPLE_BLOCK) {
        const int n = quad_count - q0 < SAMPLE_BLOCK ? quad_count - q0 : SAMPLE_BLOCK;
        /* The levels first, scalar, as every variant picks them. */
        bool two = false;  /* some quad blends two levels */
        for (int q = 0; q < n; q++) {
            const SAMPLE_H(sample_lod) lod = SAMPLE_H(sample_level)(s, w0, h0, u + 4 * (q0 + q), v + 4 * (q0 + q));
            for (int i = 0; i < 4; i++) {
                lane_l0[4 * q + i] = lod.l0;
                lane_l1[4 * q + i] = lod.l1;
                lane_w[4 * q + i] = (int32_t)lod.w;
            }
            two = two || lod.l1 != lod.l0;
        }
        for (int l = 4 * n; l < 4 * n + SAMPLE_LANES; l++) lane_l0[l] = lane_l1[l] = lane_w[l] = 0; /* tail: valid */

        for (int q = 0; q < n; q += SAMPLE_QUADS) {
            const int first = 4 * (q0 + q), lanes = n - q < SAMPLE_QUADS ? 4 * (n - q) : SAMPLE_LANES;
            const float *cu = u + first, *cv = v + first;
            float *co[4] = {out[0] + first, out[1] + first, out[2] + first, out[3] + first};
            /* A last vector of fewer quads reads and writes padded copies:
             * (u, v) = (0, 0) in the lanes past the end. */
            _Alignas(64) float pad_uv[2][SAMPLE_LANES], pad_out[4][SAMPLE_LANES];
            if (lanes < SAMPLE_LANES) {
                memset(pad_uv, 0, sizeof pad_uv);
                memcpy(pad_uv[0], cu, (size_t)lanes * sizeof(float));
                memcpy(pad_uv[1], cv, (size_t)lanes * sizeof(float));
                cu = pad_uv[0];
                cv = pad_uv[1];
                for (int c = 0; c < 4; c++) co[c] = pad_out[c];
            }
            const SV_F lu = SV_LOADF(cu), lv = SV_LOADF(cv);
            const SV_I l0 = SV_LOADI(lane_l0 + 4 * q);
            SV_I rb, ga;
            SAMPLE_H(sample_bilinear_v)(&t, SV_LUT(lut_w, l0), SV_LUT(lut_h, l0), SV_LUT(lut_off, l0), lu, lv, &rb, &ga);
            if (two) { /* GL_LINEAR_MIPMAP_LINEAR: one more 8-bit step towards level l1 */
                const SV_I l1 = SV_LOADI(lane_l1 + 4 * q), lw = SV_LOADI(lane_w + 4 * q);
                SV_I rb1, ga1;
                SAMPLE_H(sample_bilinear_v)(&t, SV_LUT(lut_w, l1), SV_LUT(lut_h, l1), SV_LUT(lut_off, l1), lu, lv, &rb1,
                                            &ga1);
                const SV_I lw2 = SV_ADD(lw, SV_SLL(lw, 16));
                rb = SAMPLE_H(sample_lerp8x2)(rb, rb1, lw2);
                ga = SAMPLE_H(sample_lerp8x2)(ga, ga1, lw2);
            }
            SV_STOREF(co[0], SAMPLE_H(sample_unorm)(rb, 0));
            SV_STOREF(co[1], SAMPLE_H(sample_unorm)(ga, 0));
            SV_STOREF(co[2], SAMPLE_H(sample_unorm)(rb, 1));
            SV_STOREF(co[3], SAMPLE_H(sample_unorm)(ga, 1));

            if (lanes < SAMPLE_LANES)
                for (int c = 0; c < 4; c++) memcpy(out[c] + first, pad_out[c], (size_t)lanes * sizeof(float));
        }
    }
}

#undef SV_F
#undef SV_I
#undef SV_M
#undef SV_LOADF
#undef SV_STOREF
#undef SV_LOADI
#undef SV_F1
#undef SV_I1
#undef SV_MULF
#undef SV_SUBF
#undef SV_ABSF
#undef SV_LTF
#undef SV_KEEPF
#undef SV_CVTF
#undef SV_FLOORF
#undef SV_CVTROUND
#undef SV_MIN
#undef SV_EQ
#undef SV_SRL16
#undef SV_ADD
#undef SV_SUB
#undef SV_MUL
#undef SV_AND
#undef SV_SRA
#undef SV_SRL
#undef SV_SLL
#undef SV_ADD16
#undef SV_SUB16
#undef SV_MUL16
#undef SV_SLL16
#undef SV_LT
#undef SV_SEL
#undef SV_GATHER
#undef SV_GATHER2
#undef SV_ALL
#undef SV_LUT_DECL
#undef SV_LUT

#endif /* SAMPLE_LANES */

#undef SAMPLE_BLOCK
#undef SAMPLE_QUADS
#undef SAMPLE_H
#undef SAMPLE_CAT
#undef SAMPLE_CAT2
#undef SAMPLE_FN
#undef SAMPLE_LANES
