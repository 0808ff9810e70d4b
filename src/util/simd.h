/* simd.h — the one SIMD vocabulary of the per-ISA bodies: the vector types
 * and operations that the bodies compiled once per instruction set
 * (shader/vm_tmp.h, shader/sample_tmp.h, raster/simd_tmp.h) are written in,
 * defined here once per ISA.  A per-ISA file defines SIMD_LANES, the 32-bit
 * lanes of a vector, before it includes this (first, so that the target is
 * in force for everything after it):
 *   4   portable C (SSE2 on x86-64): GCC's generic vector types only;
 *   8   AVX2 (with FMA, BMI2): sets that target for the rest of the file;
 *   16  AVX-512 F/DQ/BW/VL: likewise.
 * Integer vectors hold 32-bit lanes, or twice as many 16-bit ones (the _i16
 * operations), or half as many 64-bit ones (_q); a lane mask (simd_m) is a
 * comparison's result, all-ones lanes in AVX2 and a k-register in AVX-512,
 * and becomes bits with simd_bits.  Each operation is the instruction it
 * wraps (or a fixed sequence of them), so a body gives the same bits on
 * every ISA wherever its portable twin does.  Fed by the per-ISA files
 * (vm_avx512.c, sample_avx2.c, raster_avx2.c, ...) and the bodies they include. */
#ifndef MOSAIC_UTIL_SIMD_H
#define MOSAIC_UTIL_SIMD_H

#include <stdbool.h>
#include <stdint.h>

#include "util/cpu.h"

#if !defined(SIMD_LANES) || (SIMD_LANES != 4 && SIMD_LANES != 8 && SIMD_LANES != 16)
#error "define SIMD_LANES (4: portable, 8: AVX2, 16: AVX-512) before including util/simd.h"
#endif

#if SIMD_LANES > 4
#if !defined(UTIL_X86)
#error "SIMD_LANES 8 and 16 need gcc on x86-64 (util/cpu.h: UTIL_X86)"
#endif
#if SIMD_LANES == 8
#pragma GCC target("avx2,fma,bmi,bmi2,popcnt,lzcnt")
#else
#pragma GCC target("avx512f,avx512dq,avx512bw,avx512vl,avx512cd,avx2,fma,bmi,bmi2,popcnt,lzcnt")
#endif
#include <immintrin.h>
#endif

/* GCC's vector types of the ISA's width, for code written with operators
 * (the VM's chains), and the bitwise select of two of them by a
 * comparison's 0 / -1 lanes. */
#define SIMD_BYTES (4 * SIMD_LANES)
typedef float simd_vf __attribute__((vector_size(SIMD_BYTES)));
typedef int32_t simd_vi __attribute__((vector_size(SIMD_BYTES)));
static inline simd_vf simd_vselect(simd_vi m, simd_vf a, simd_vf b)
{
    return (simd_vf)((m & (simd_vi)a) | (~m & (simd_vi)b));
}

#if SIMD_LANES > 4

#define SIMD_OP static inline __attribute__((always_inline))
#define SIMD_ALL_BITS ((1u << SIMD_LANES) - 1u)  /* simd_bits of a mask with every lane */

#if SIMD_LANES == 8
typedef __m256 simd_f;
typedef __m256i simd_i;
typedef __m256i simd_m;
#define SIMD_X(avx2, avx512) avx2
#else
typedef __m512 simd_f;
typedef __m512i simd_i;
typedef __mmask16 simd_m;
#define SIMD_X(avx2, avx512) avx512
#endif
/* One intrinsic per ISA: SIMD_X picks the AVX2 or the AVX-512 name. */
#define SIMD_MM(name) SIMD_X(_mm256_##name, _mm512_##name)

/* ---- memory: load = 64-byte aligned, loadu = any address ---------------- */
SIMD_OP simd_f simd_load_f(const float *p) { return SIMD_MM(load_ps)(p); }
SIMD_OP simd_f simd_loadu_f(const float *p) { return SIMD_MM(loadu_ps)(p); }
SIMD_OP void simd_store_f(float *p, simd_f a) { SIMD_MM(store_ps)(p, a); }
SIMD_OP void simd_storeu_f(float *p, simd_f a) { SIMD_MM(storeu_ps)(p, a); }
SIMD_OP simd_i simd_load_i(const void *p)
{
    return SIMD_X(_mm256_load_si256((const __m256i *)p), _mm512_load_si512(p));
}
SIMD_OP simd_i simd_loadu_i(const void *p)
{
    return SIMD_X(_mm256_loadu_si256((const __m256i *)p), _mm512_loadu_si512(p));
}
SIMD_OP void simd_storeu_i(void *p, simd_i a)
{
    SIMD_X(_mm256_storeu_si256((__m256i *)p, a), _mm512_storeu_si512(p, a));
}
/* SIMD_LANES bytes at p, each zero-extended to a lane. */
SIMD_OP simd_i simd_loadu_u8(const uint8_t *p)
{
    return SIMD_X(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)p)),
                  _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)p)));
}
/* Columns [0, cols) of a row of four floats, cols 1..4, the rest 0; reads
 * nothing past them (a row may end the buffer, or another worker's bin
 * follow). */
SIMD_OP __m128 simd_row4_f(const float *row, int cols)
{
#if SIMD_LANES == 8
    if (cols == 4) return _mm_loadu_ps(row);
    if (cols == 2) return _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)row)); /* may-alias load */
    return _mm_maskload_ps(row, _mm_cmpgt_epi32(_mm_set1_epi32(cols), _mm_setr_epi32(0, 1, 2, 3)));
#else
    return _mm_maskz_loadu_ps((__mmask8)((1u << cols) - 1u), row);
#endif
}
/* SIMD_LANES / 4 rows of four floats as one vector, row[0] in the low lanes. */
SIMD_OP simd_f simd_rows_f(const __m128 *row)
{
#if SIMD_LANES == 8
    return _mm256_set_m128(row[1], row[0]);
#else
    const __m512 d = _mm512_insertf32x4(_mm512_castps128_ps512(row[0]), row[1], 1);
    return _mm512_insertf32x4(_mm512_insertf32x4(d, row[2], 2), row[3], 3);
#endif
}

/* ---- broadcasts and lane constants --------------------------------------- */
SIMD_OP simd_f simd_set1_f(float x) { return SIMD_MM(set1_ps)(x); }
SIMD_OP simd_i simd_set1_i(int32_t x) { return SIMD_MM(set1_epi32)(x); }
SIMD_OP simd_i simd_set1_q(int64_t x) { return SIMD_X(_mm256_set1_epi64x(x), _mm512_set1_epi64(x)); }
SIMD_OP simd_i simd_zero_i(void) { return SIMD_X(_mm256_setzero_si256(), _mm512_setzero_si512()); }
/* Lane l = 4 * y + x of SIMD_LANES / 4 rows of a 4x4 block: its x (0..3)
 * and its y (0..SIMD_LANES / 4 - 1). */
#if SIMD_LANES == 8
#define SIMD_LANE_X 0, 1, 2, 3, 0, 1, 2, 3
#define SIMD_LANE_Y 0, 0, 0, 0, 1, 1, 1, 1
#else
#define SIMD_LANE_X 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3
#define SIMD_LANE_Y 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3
#endif
#define SIMD_APPLY(f, ...) f(__VA_ARGS__) /* the lists expanded before the setr macros see them */
SIMD_OP simd_f simd_lane_x_f(void) { return SIMD_APPLY(SIMD_MM(setr_ps), SIMD_LANE_X); }
SIMD_OP simd_f simd_lane_y_f(void) { return SIMD_APPLY(SIMD_MM(setr_ps), SIMD_LANE_Y); }
SIMD_OP simd_i simd_lane_x_i(void) { return SIMD_APPLY(SIMD_MM(setr_epi32), SIMD_LANE_X); }
SIMD_OP simd_i simd_lane_y_i(void) { return SIMD_APPLY(SIMD_MM(setr_epi32), SIMD_LANE_Y); }
/* The 64-bit lanes of a 4x4 block's first SIMD_LANES / 8 rows, lane l =
 * 4 * y + x holding sx * x + sy * y. */
SIMD_OP simd_i simd_lanes4x4_q(int64_t sx, int64_t sy)
{
    const __m256i row0 = _mm256_setr_epi64x(0, sx, 2 * sx, 3 * sx);
#if SIMD_LANES == 8
    (void)sy;
    return row0;
#else
    return _mm512_inserti64x4(_mm512_castsi256_si512(row0), _mm256_add_epi64(row0, _mm256_set1_epi64x(sy)), 1);
#endif
}

/* ---- float arithmetic (each rounded: nothing contracts) ------------------ */
SIMD_OP simd_f simd_add_f(simd_f a, simd_f b) { return SIMD_MM(add_ps)(a, b); }
SIMD_OP simd_f simd_sub_f(simd_f a, simd_f b) { return SIMD_MM(sub_ps)(a, b); }
SIMD_OP simd_f simd_mul_f(simd_f a, simd_f b) { return SIMD_MM(mul_ps)(a, b); }
/* a > b ? a : b and a < b ? a : b, lane by lane: b where either is NaN, as
 * the C expressions have it (GCC does not vectorize those to one
 * instruction without -ffinite-math-only). */
SIMD_OP simd_f simd_max_f(simd_f a, simd_f b) { return SIMD_MM(max_ps)(a, b); }
SIMD_OP simd_f simd_min_f(simd_f a, simd_f b) { return SIMD_MM(min_ps)(a, b); }
SIMD_OP simd_f simd_abs_f(simd_f a)
{
    return SIMD_X(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), a), _mm512_abs_ps(a));
}
SIMD_OP simd_f simd_floor_f(simd_f a)
{
    return SIMD_X(_mm256_floor_ps(a), _mm512_roundscale_ps(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
}
SIMD_OP simd_f simd_to_f(simd_i a) { return SIMD_MM(cvtepi32_ps)(a); }
/* Toward zero, as a C cast (for values within the int32 range). */
SIMD_OP simd_i simd_trunc_i(simd_f a) { return SIMD_MM(cvttps_epi32)(a); }
/* Rounded half to even (the MXCSR default), as lrintf. */
SIMD_OP simd_i simd_round_i(simd_f a) { return SIMD_MM(cvtps_epi32)(a); }

/* ---- integer arithmetic: 32-bit lanes (mul: the low 32 bits) ------------- */
SIMD_OP simd_i simd_add_i(simd_i a, simd_i b) { return SIMD_MM(add_epi32)(a, b); }
SIMD_OP simd_i simd_sub_i(simd_i a, simd_i b) { return SIMD_MM(sub_epi32)(a, b); }
SIMD_OP simd_i simd_mul_i(simd_i a, simd_i b) { return SIMD_MM(mullo_epi32)(a, b); }
SIMD_OP simd_i simd_min_i(simd_i a, simd_i b) { return SIMD_MM(min_epi32)(a, b); }
SIMD_OP simd_i simd_and_i(simd_i a, simd_i b) { return SIMD_X(_mm256_and_si256(a, b), _mm512_and_si512(a, b)); }
SIMD_OP simd_i simd_or_i(simd_i a, simd_i b) { return SIMD_X(_mm256_or_si256(a, b), _mm512_or_si512(a, b)); }
SIMD_OP simd_i simd_or3_i(simd_i a, simd_i b, simd_i c)
{
    return SIMD_X(_mm256_or_si256(_mm256_or_si256(a, b), c), _mm512_ternarylogic_epi64(a, b, c, 0xfe));
}
/* Shifts by a constant count (an immediate: macros, not functions). */
#define simd_sra_i(a, n) SIMD_MM(srai_epi32)(a, n)
#define simd_srl_i(a, n) SIMD_MM(srli_epi32)(a, n)
#define simd_sll_i(a, n) SIMD_MM(slli_epi32)(a, n)
/* 16-bit lanes (two per 32-bit lane), wrapping. */
SIMD_OP simd_i simd_add_i16(simd_i a, simd_i b) { return SIMD_MM(add_epi16)(a, b); }
SIMD_OP simd_i simd_sub_i16(simd_i a, simd_i b) { return SIMD_MM(sub_epi16)(a, b); }
SIMD_OP simd_i simd_mul_i16(simd_i a, simd_i b) { return SIMD_MM(mullo_epi16)(a, b); }
#define simd_sll_i16(a, n) SIMD_MM(slli_epi16)(a, n)
#define simd_srl_i16(a, n) SIMD_MM(srli_epi16)(a, n)
/* 64-bit lanes, SIMD_LANES / 2 of them. */
SIMD_OP simd_i simd_add_q(simd_i a, simd_i b) { return SIMD_MM(add_epi64)(a, b); }

/* ---- comparisons, masks and sign bits ------------------------------------ */
/* a < b, false where either is NaN. */
SIMD_OP simd_m simd_lt_f(simd_f a, simd_f b)
{
    return SIMD_X(_mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_LT_OQ)), _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ));
}
SIMD_OP simd_m simd_lt_i(simd_i a, simd_i b) { return SIMD_X(_mm256_cmpgt_epi32(b, a), _mm512_cmplt_epi32_mask(a, b)); }
SIMD_OP simd_m simd_eq_i(simd_i a, simd_i b) { return SIMD_X(_mm256_cmpeq_epi32(a, b), _mm512_cmpeq_epi32_mask(a, b)); }
/* m ? a : 0 and m ? a : b, per lane. */
SIMD_OP simd_f simd_keep_f(simd_m m, simd_f a)
{
    return SIMD_X(_mm256_and_ps(_mm256_castsi256_ps(m), a), _mm512_maskz_mov_ps(m, a));
}
SIMD_OP simd_i simd_select_i(simd_m m, simd_i a, simd_i b)
{
    return SIMD_X(_mm256_blendv_epi8(b, a, m), _mm512_mask_blend_epi32(m, b, a));
}
/* A mask as bits (lane l is bit l), and bits as a mask. */
SIMD_OP uint32_t simd_bits(simd_m m)
{
    return SIMD_X((uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(m)), (uint32_t)m);
}
SIMD_OP simd_m simd_mask(uint32_t bits)
{
#if SIMD_LANES == 8
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)bits), bit), bit);
#else
    return (__mmask16)bits;
#endif
}
SIMD_OP bool simd_all(simd_m m) { return simd_bits(m) == SIMD_ALL_BITS; }
/* The sign bits of the 32-bit lanes; of the 64-bit lanes. */
SIMD_OP uint32_t simd_sign_i(simd_i a)
{
    return SIMD_X((uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(a)), (uint32_t)_mm512_movepi32_mask(a));
}
SIMD_OP uint32_t simd_sign_q(simd_i a)
{
    return SIMD_X((uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(a)), (uint32_t)_mm512_movepi64_mask(a));
}

/* ---- gathers (32-bit indices, in elements of 4 bytes) -------------------- */
SIMD_OP simd_i simd_gather_i(const uint32_t *base, simd_i idx)
{
    return SIMD_X(_mm256_i32gather_epi32((const int *)(const void *)base, idx, 4),
                  _mm512_i32gather_epi32(idx, (const void *)base, 4));
}
/* Elements idx and idx + 1 of every lane, as 64-bit gathers whose halves
 * are then split into *left and *right. */
SIMD_OP void simd_gather_pair_i(const uint32_t *base, simd_i idx, simd_i *left, simd_i *right)
{
#if SIMD_LANES == 8
    const __m256 lo = _mm256_castsi256_ps(
        _mm256_i32gather_epi64((const long long *)(const void *)base, _mm256_castsi256_si128(idx), 4));
    const __m256 hi = _mm256_castsi256_ps(
        _mm256_i32gather_epi64((const long long *)(const void *)base, _mm256_extracti128_si256(idx, 1), 4));
    *left = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(lo, hi, 0x88)), 0xd8);
    *right = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(lo, hi, 0xdd)), 0xd8);
#else
    const __m512i lo = _mm512_i32gather_epi64(_mm512_castsi512_si256(idx), (const void *)base, 4);
    const __m512i hi = _mm512_i32gather_epi64(_mm512_extracti64x4_epi64(idx, 1), (const void *)base, 4);
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    *left = _mm512_permutex2var_epi32(lo, even, hi);
    *right = _mm512_permutex2var_epi32(lo, _mm512_add_epi32(even, _mm512_set1_epi32(1)), hi);
#endif
}
#if SIMD_LANES == 16
/* base[idx] = a in the lanes of m, in lane order (where two lanes' idx
 * are equal the later one's value stays).  AVX-512 only: AVX2 has no
 * scatter. */
SIMD_OP void simd_scatter_i_masked(void *base, simd_i idx, simd_i a, simd_m m)
{
    _mm512_mask_i32scatter_epi32(base, m, idx, a, 4);
}
/* The lanes of m whose idx an earlier lane of m has too. */
SIMD_OP simd_m simd_repeats(simd_i idx, simd_m m)
{
    return _mm512_mask_test_epi32_mask(m, _mm512_conflict_epi32(idx), _mm512_set1_epi32((int)m));
}
#endif
/* base[idx] in the lanes of m, 0 in the others (which read nothing). */
SIMD_OP simd_i simd_gather_i_masked(const uint32_t *base, simd_i idx, simd_m m)
{
    return SIMD_X(_mm256_mask_i32gather_epi32(_mm256_setzero_si256(), (const int *)(const void *)base, idx, m, 4),
                  _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), m, idx, (const void *)base, 4));
}
SIMD_OP simd_f simd_gather_f_masked(const float *base, simd_i idx, simd_m m)
{
    return SIMD_X(_mm256_mask_i32gather_ps(_mm256_setzero_ps(), base, idx, _mm256_castsi256_ps(m), 4),
                  _mm512_mask_i32gather_ps(_mm512_setzero_ps(), m, idx, base, 4));
}

/* ---- a 16-entry table looked up by lane (0..15) -------------------------- */
#if SIMD_LANES == 8
typedef struct simd_lut16 {
    __m256i lo, hi;  /* vpermd reads the low 3 bits of the index */
} simd_lut16;
SIMD_OP simd_lut16 simd_lut16_load(const int32_t *table)
{
    return (simd_lut16){simd_loadu_i(table), simd_loadu_i(table + 8)};
}
SIMD_OP simd_i simd_lut16_get(simd_lut16 t, simd_i idx)
{
    return _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(t.lo, idx), _mm256_permutevar8x32_epi32(t.hi, idx),
                              _mm256_cmpgt_epi32(idx, _mm256_set1_epi32(7)));
}
#else
typedef __m512i simd_lut16;
SIMD_OP simd_lut16 simd_lut16_load(const int32_t *table) { return simd_loadu_i(table); }
SIMD_OP simd_i simd_lut16_get(simd_lut16 t, simd_i idx) { return _mm512_permutexvar_epi32(idx, t); }
#endif

/* ---- compress: the lanes of `bits`, packed -------------------------------- */
/* Writes the 32-bit lanes of a that bits selects to dst, in lane order,
 * then anything up to SIMD_LANES lanes in all (dst has the room); the
 * caller advances dst by popcount(bits). */
SIMD_OP void simd_compress_i(void *dst, simd_i a, uint32_t bits)
{
#if SIMD_LANES == 8
    /* The lanes of an 8-lane mask in order, a byte each (the rest 0): the
     * permutation that packs them to the front. */
    static const uint64_t pack8[256] = {
        0x0000000000000000u, 0x0000000000000000u, 0x0000000000000001u, 0x0000000000000100u,
        0x0000000000000002u, 0x0000000000000200u, 0x0000000000000201u, 0x0000000000020100u,
        0x0000000000000003u, 0x0000000000000300u, 0x0000000000000301u, 0x0000000000030100u,
        0x0000000000000302u, 0x0000000000030200u, 0x0000000000030201u, 0x0000000003020100u,
        0x0000000000000004u, 0x0000000000000400u, 0x0000000000000401u, 0x0000000000040100u,
        0x0000000000000402u, 0x0000000000040200u, 0x0000000000040201u, 0x0000000004020100u,
        0x0000000000000403u, 0x0000000000040300u, 0x0000000000040301u, 0x0000000004030100u,
        0x0000000000040302u, 0x0000000004030200u, 0x0000000004030201u, 0x0000000403020100u,
        0x0000000000000005u, 0x0000000000000500u, 0x0000000000000501u, 0x0000000000050100u,
        0x0000000000000502u, 0x0000000000050200u, 0x0000000000050201u, 0x0000000005020100u,
        0x0000000000000503u, 0x0000000000050300u, 0x0000000000050301u, 0x0000000005030100u,
        0x0000000000050302u, 0x0000000005030200u, 0x0000000005030201u, 0x0000000503020100u,
        0x0000000000000504u, 0x0000000000050400u, 0x0000000000050401u, 0x0000000005040100u,
        0x0000000000050402u, 0x0000000005040200u, 0x0000000005040201u, 0x0000000504020100u,
        0x0000000000050403u, 0x0000000005040300u, 0x0000000005040301u, 0x0000000504030100u,
        0x0000000005040302u, 0x0000000504030200u, 0x0000000504030201u, 0x0000050403020100u,
        0x0000000000000006u, 0x0000000000000600u, 0x0000000000000601u, 0x0000000000060100u,
        0x0000000000000602u, 0x0000000000060200u, 0x0000000000060201u, 0x0000000006020100u,
        0x0000000000000603u, 0x0000000000060300u, 0x0000000000060301u, 0x0000000006030100u,
        0x0000000000060302u, 0x0000000006030200u, 0x0000000006030201u, 0x0000000603020100u,
        0x0000000000000604u, 0x0000000000060400u, 0x0000000000060401u, 0x0000000006040100u,
        0x0000000000060402u, 0x0000000006040200u, 0x0000000006040201u, 0x0000000604020100u,
        0x0000000000060403u, 0x0000000006040300u, 0x0000000006040301u, 0x0000000604030100u,
        0x0000000006040302u, 0x0000000604030200u, 0x0000000604030201u, 0x0000060403020100u,
        0x0000000000000605u, 0x0000000000060500u, 0x0000000000060501u, 0x0000000006050100u,
        0x0000000000060502u, 0x0000000006050200u, 0x0000000006050201u, 0x0000000605020100u,
        0x0000000000060503u, 0x0000000006050300u, 0x0000000006050301u, 0x0000000605030100u,
        0x0000000006050302u, 0x0000000605030200u, 0x0000000605030201u, 0x0000060503020100u,
        0x0000000000060504u, 0x0000000006050400u, 0x0000000006050401u, 0x0000000605040100u,
        0x0000000006050402u, 0x0000000605040200u, 0x0000000605040201u, 0x0000060504020100u,
        0x0000000006050403u, 0x0000000605040300u, 0x0000000605040301u, 0x0000060504030100u,
        0x0000000605040302u, 0x0000060504030200u, 0x0000060504030201u, 0x0006050403020100u,
        0x0000000000000007u, 0x0000000000000700u, 0x0000000000000701u, 0x0000000000070100u,
        0x0000000000000702u, 0x0000000000070200u, 0x0000000000070201u, 0x0000000007020100u,
        0x0000000000000703u, 0x0000000000070300u, 0x0000000000070301u, 0x0000000007030100u,
        0x0000000000070302u, 0x0000000007030200u, 0x0000000007030201u, 0x0000000703020100u,
        0x0000000000000704u, 0x0000000000070400u, 0x0000000000070401u, 0x0000000007040100u,
        0x0000000000070402u, 0x0000000007040200u, 0x0000000007040201u, 0x0000000704020100u,
        0x0000000000070403u, 0x0000000007040300u, 0x0000000007040301u, 0x0000000704030100u,
        0x0000000007040302u, 0x0000000704030200u, 0x0000000704030201u, 0x0000070403020100u,
        0x0000000000000705u, 0x0000000000070500u, 0x0000000000070501u, 0x0000000007050100u,
        0x0000000000070502u, 0x0000000007050200u, 0x0000000007050201u, 0x0000000705020100u,
        0x0000000000070503u, 0x0000000007050300u, 0x0000000007050301u, 0x0000000705030100u,
        0x0000000007050302u, 0x0000000705030200u, 0x0000000705030201u, 0x0000070503020100u,
        0x0000000000070504u, 0x0000000007050400u, 0x0000000007050401u, 0x0000000705040100u,
        0x0000000007050402u, 0x0000000705040200u, 0x0000000705040201u, 0x0000070504020100u,
        0x0000000007050403u, 0x0000000705040300u, 0x0000000705040301u, 0x0000070504030100u,
        0x0000000705040302u, 0x0000070504030200u, 0x0000070504030201u, 0x0007050403020100u,
        0x0000000000000706u, 0x0000000000070600u, 0x0000000000070601u, 0x0000000007060100u,
        0x0000000000070602u, 0x0000000007060200u, 0x0000000007060201u, 0x0000000706020100u,
        0x0000000000070603u, 0x0000000007060300u, 0x0000000007060301u, 0x0000000706030100u,
        0x0000000007060302u, 0x0000000706030200u, 0x0000000706030201u, 0x0000070603020100u,
        0x0000000000070604u, 0x0000000007060400u, 0x0000000007060401u, 0x0000000706040100u,
        0x0000000007060402u, 0x0000000706040200u, 0x0000000706040201u, 0x0000070604020100u,
        0x0000000007060403u, 0x0000000706040300u, 0x0000000706040301u, 0x0000070604030100u,
        0x0000000706040302u, 0x0000070604030200u, 0x0000070604030201u, 0x0007060403020100u,
        0x0000000000070605u, 0x0000000007060500u, 0x0000000007060501u, 0x0000000706050100u,
        0x0000000007060502u, 0x0000000706050200u, 0x0000000706050201u, 0x0000070605020100u,
        0x0000000007060503u, 0x0000000706050300u, 0x0000000706050301u, 0x0000070605030100u,
        0x0000000706050302u, 0x0000070605030200u, 0x0000070605030201u, 0x0007060503020100u,
        0x0000000007060504u, 0x0000000706050400u, 0x0000000706050401u, 0x0000070605040100u,
        0x0000000706050402u, 0x0000070605040200u, 0x0000070605040201u, 0x0007060504020100u,
        0x0000000706050403u, 0x0000070605040300u, 0x0000070605040301u, 0x0007060504030100u,
        0x0000070605040302u, 0x0007060504030200u, 0x0007060504030201u, 0x0706050403020100u,
    };
    const __m256i order = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)&pack8[bits & 0xffu]));
    _mm256_storeu_si256((__m256i *)dst, _mm256_permutevar8x32_epi32(a, order));
#else
    _mm512_storeu_si512(dst, _mm512_maskz_compress_epi32((__mmask16)bits, a));
#endif
}

#endif /* SIMD_LANES > 4 */
#endif
