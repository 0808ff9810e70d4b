/* rop.c — the ROP stage: per covered sample, in API order, depth test and
 * write, then blend the shaded colour into the sample.  Quads of the 2D
 * path: the common case (an opaque, depth-tested, depth-writing draw, the
 * quad inside the target) takes four samples per instruction
 * (rop_quad_opaque); the rest walk the covered samples one by one.  The
 * stochastic back-end's samples go one by one through backend_rop_write
 * (stages.h), from decouple.c's drain.  All do the same per sample.
 * Fed by the shade stage (tile.c) and decouple.c; writes the target's
 * samples of one bin. */
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <string.h>

#include "backend/stages.h"

static uint32_t blend_alpha(uint32_t src, uint32_t dst)
{
    uint32_t a = src >> 24, out = 0;
    for (int ch = 0; ch < 4; ch++) {
        uint32_t s = (src >> (8 * ch)) & 0xffu, d = (dst >> (8 * ch)) & 0xffu;
        out |= ((s * a + d * (255u - a) + 127u) / 255u) << (8 * ch);
    }
    return out;
}

/* src + dst * (1 - a) per channel, rounded, clamped to 255 (a
 * premultiplied source whose colour exceeds its alpha saturates). */
static uint32_t blend_premultiplied(uint32_t src, uint32_t dst)
{
    uint32_t a = src >> 24, out = 0;
    for (int ch = 0; ch < 4; ch++) {
        uint32_t s = (src >> (8 * ch)) & 0xffu, d = (dst >> (8 * ch)) & 0xffu;
        uint32_t v = s + (d * (255u - a) + 127u) / 255u;
        out |= (v > 255u ? 255u : v) << (8 * ch);
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
    case MOS_BLEND_PREMULTIPLIED: return blend_premultiplied(src, dst);
    default: return src;
    }
}

#if defined(__SSE2__)
/* Four slots k..k+3 of a quad's sample rows: lanes 0, 1 (row0) hold slots
 * [0, 2S), lanes 2, 3 (row1) the rest; with one sample, two from each row. */
static inline __m128i rows_load(const uint32_t *row0, const uint32_t *row1, int S, int k)
{
    if (S == 1)
        return _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)row0), _mm_loadl_epi64((const __m128i *)row1));
    return _mm_loadu_si128((const __m128i *)(k < 2 * S ? row0 + k : row1 + (k - 2 * S)));
}

static inline void rows_store(uint32_t *row0, uint32_t *row1, int S, int k, __m128i v)
{
    if (S == 1) {
        _mm_storel_epi64((__m128i *)row0, v);
        _mm_storel_epi64((__m128i *)row1, _mm_unpackhi_epi64(v, v));
        return;
    }
    _mm_storeu_si128((__m128i *)(k < 2 * S ? row0 + k : row1 + (k - 2 * S)), v);
}

/* Lane l's colour in each slot k..k+3 (slot = lane * S + s, S = 1 << log2_s). */
static inline __m128i slot_colors(const uint32_t rgba[4], int S, int log2_s, int k)
{
    if (S == 1) return _mm_loadu_si128((const __m128i *)rgba);
    if (S == 2) return _mm_setr_epi32((int)rgba[k / 2], (int)rgba[k / 2], (int)rgba[k / 2 + 1], (int)rgba[k / 2 + 1]);
    return _mm_set1_epi32((int)rgba[k >> log2_s]);
}

/* An opaque draw that tests and writes depth, a quad whose four pixels lie
 * in the target: per slot, z < depth among `live` -> write depth and colour.
 * A NaN z fails the test, as in the sample walk. */
static inline void rop_quad_opaque(frame_target *t, int S, const raster_quad *q, const float *zq, uint64_t live,
                                   const uint32_t rgba[4])
{
    const int log2_s = __builtin_ctz((unsigned)S);  /* the 2D path's counts are powers of two */
    const size_t row = (size_t)t->width * (size_t)S, at = (size_t)q->y * row + (size_t)q->x * (size_t)S;
    uint32_t *c0 = t->color + at, *c1 = c0 + row;
    uint32_t *d0 = (uint32_t *)(t->depth + at), *d1 = d0 + row;  /* depth moves as bits */
    for (int k = 0; k < 4 * S; k += 4) {
        const unsigned nib = (unsigned)(live >> k) & 15u;
        if (!nib) continue;
        const __m128i on = _mm_cmpgt_epi32(_mm_and_si128(_mm_set1_epi32((int)nib), _mm_setr_epi32(1, 2, 4, 8)),
                                           _mm_setzero_si128());
        const __m128i dv = rows_load(d0, d1, S, k);
        const __m128 zv = _mm_loadu_ps(zq + k);
        const __m128i pass = _mm_and_si128(on, _mm_castps_si128(_mm_cmplt_ps(zv, _mm_castsi128_ps(dv))));
        if (_mm_movemask_epi8(pass) == 0) continue;
        rows_store(d0, d1, S, k, _mm_or_si128(_mm_andnot_si128(pass, dv), _mm_and_si128(pass, _mm_castps_si128(zv))));
        const __m128i cv = rows_load(c0, c1, S, k);
        const __m128i src = slot_colors(rgba, S, log2_s, k);
        rows_store(c0, c1, S, k, _mm_or_si128(_mm_andnot_si128(pass, cv), _mm_and_si128(pass, src)));
    }
}
#endif

/* Quad q's covered samples one by one (any draw, any quad). */
static void rop_quad_samples(frame_target *t, const raster_quad *q, const float *zq, const shade_result *res,
                             float *tri_area)
{
    const int S = t->samples;
    const uint64_t lane_mask = S == 16 ? 0xffffull : (1ull << S) - 1;
    const frame_tri *tri = q->tri;
    const frame_draw *d = tri->draw;
    for (int lane = 0; lane < 4; lane++) {
        uint64_t m = (q->cover >> (lane * S)) & lane_mask;
        if (!m || res->discard[lane]) continue;
        int px = q->x + (lane & 1), py = q->y + (lane >> 1);
        size_t base = ((size_t)py * (size_t)t->width + (size_t)px) * (size_t)S;
        uint32_t src = res->rgba[lane];
        bool wrote = false;
        const float *zl = zq + (size_t)(lane * S);
        for (; m; m &= m - 1) {
            int s = __builtin_ctzll(m);
            wrote |= backend_rop_sample(t, d, base + (size_t)s, zl[s], src);
        }
        if (wrote && tri_area) tri_area[(size_t)py * (size_t)t->width + (size_t)px] = backend_tri_area_px(tri);
    }
}

void backend_rop(frame_target *t, const raster_quad *quads, const float *z, int n, const shade_result *res)
{
    const int S = t->samples;
    const size_t z_stride = (size_t)RASTER_Z_STRIDE(S);
    float *const tri_area = frame_target_records(t, MOS_INSPECT_TRIANGLE_AREA) ? t->inspect.tri_area : NULL;
#if defined(__SSE2__)
    /* The common case, four samples per instruction: an opaque draw that
     * tests and writes depth, a quad inside the target, nothing inspected. */
    const uint64_t lane_mask = S == 16 ? 0xffffull : (1ull << S) - 1;
    const frame_draw *opaque = NULL;  /* the last draw seen to take that path (runs of quads share one) */
    for (int q = 0; q < n; q++) {
        const frame_draw *d = quads[q].tri->draw;
        const float *zq = z + (size_t)q * z_stride;
        if (d != opaque) {
            if (d->blend != MOS_BLEND_OPAQUE || !d->depth_test || !d->depth_write || tri_area) {
                rop_quad_samples(t, &quads[q], zq, &res[q], tri_area);
                continue;
            }
            opaque = d;
        }
        if (quads[q].x + 1 >= t->width || quads[q].y + 1 >= t->height) {
            rop_quad_samples(t, &quads[q], zq, &res[q], tri_area);
            continue;
        }
        uint64_t live = quads[q].cover;
        if (S == 1) {  /* one sample per pixel: lane i is bit i */
            uint32_t discard;
            memcpy(&discard, res[q].discard, sizeof discard);
            if (discard)
                for (int lane = 0; lane < 4; lane++) live &= ~((uint64_t)(res[q].discard[lane] != 0) << lane);
            rop_quad_opaque(t, 1, &quads[q], zq, live, res[q].rgba);
            continue;
        }
        for (int lane = 0; lane < 4; lane++)
            if (res[q].discard[lane]) live &= ~(lane_mask << (lane * S));
        rop_quad_opaque(t, S, &quads[q], zq, live, res[q].rgba);
    }
#else
    for (int q = 0; q < n; q++) rop_quad_samples(t, &quads[q], z + (size_t)q * z_stride, &res[q], tri_area);
#endif
}
