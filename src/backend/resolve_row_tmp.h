/* resolve_row_tmp.h — the resolve's WRITE of one row of sixteen
 * visibility-buffer entries (resolve.c, resolve_row in backend.h): the
 * blur area's record where last_pixel is given (a frame that inspects it;
 * the ordered path's drain counts it alike: a sample whose grid point was
 * last used from another pixel, or never, adds a reference, a point never
 * used before adds a point; last_pixel then holds the sample's pixel);
 * then either each kept lane's colour and (with depth) depth to its target
 * sample and the fill lanes' clear values, or, where w->sum is given (a
 * bin resolved straight to its pixels), those colours added to their
 * pixels' sums instead.
 * Included once per ISA by backend_scalar.c, backend_avx2.c and
 * backend_avx512.c, which define WRITE_ROW_FN and SUM_ROWS_FN: with SIMD_LANES 16 the
 * record and the writes in vector passes (lanes that repeat an earlier
 * lane's grid point count as the sequential loop counts them: from another
 * pixel, as a row's lanes are sixteen pixels; the scatters keep the last
 * lane's value), with SIMD_LANES 8 the sums, else loops over lanes; and
 * SUM_ROWS_FN, the sums of a block's whole rows (sum_rows in backend.h),
 * SIMD_LANES lanes of the sums kept in registers over the rows. */
#include "backend/backend.h"

/* Colour c added to its pixel's sums (resolve_row.sum): red + blue << 16
 * at [l], green + alpha << 16 at [16 + l]; and the same for SIMD_LANES
 * lanes of colours into the sums rb and ga. */
static inline void resolve_sum_add(uint32_t *sum, int l, uint32_t c)
{
    sum[l] += c & 0x00ff00ffu;
    sum[16 + l] += (c >> 8) & 0x00ff00ffu;
}
#if defined(SIMD_LANES) && SIMD_LANES >= 8
SIMD_OP void resolve_sum_add_v(simd_i c, simd_i *rb, simd_i *ga)
{
    const simd_i low = simd_set1_i(0x00ff00ff);
    *rb = simd_add_i(*rb, simd_and_i(c, low));
    *ga = simd_add_i(*ga, simd_and_i(simd_srl_i(c, 8), low));
}
#endif

uint64_t WRITE_ROW_FN(const resolve_row *restrict w, const uint32_t *restrict shaded, uint32_t *restrict last_pixel,
                      uint32_t *restrict color, float *restrict depth)
{
    uint64_t points = 0, refs = 0;
#if defined(SIMD_LANES) && SIMD_LANES == 16
    if (last_pixel) {
        const simd_m m = simd_mask(w->visible);
        const simd_i code = simd_loadu_i(w->code), pixel = simd_loadu_i(w->pixel);
        const simd_i last = simd_gather_i_masked(last_pixel, code, m);
        const uint32_t repeats = simd_bits(simd_repeats(code, m)), first = w->visible & ~repeats;
        points = (uint32_t)__builtin_popcount(first & simd_bits(simd_eq_i(last, simd_set1_i(-1))));
        refs = (uint32_t)__builtin_popcount(first & ~simd_bits(simd_eq_i(last, pixel))) +
               (uint32_t)__builtin_popcount(repeats);
        simd_scatter_i_masked(last_pixel, code, pixel, m);
    }
#else
    for (uint32_t v = last_pixel ? w->visible : 0; v; v &= v - 1) {
        const int l = __builtin_ctz(v);
        const size_t at = (size_t)w->code[l];
        const uint32_t last = last_pixel[at];
        points += last == UINT32_MAX;
        refs += last != w->pixel[l];
        last_pixel[at] = w->pixel[l];
    }
#endif
    if (w->sum) {  /* kept lanes their colour, fill lanes the clear colour, per channel into the pixels' sums */
#if defined(SIMD_LANES) && SIMD_LANES >= 8
        const simd_i clear = simd_set1_i((int32_t)w->clear_color);
        for (int h = 0; h < 16; h += SIMD_LANES) {
            const simd_m kept = simd_mask(w->kept >> h), fill = simd_mask(w->fill >> h);
            simd_i c = w->rgba ? simd_loadu_i(w->rgba + h) : simd_gather_i_masked(shaded, simd_loadu_i(w->code + h), kept);
            c = simd_select_i(kept, c, simd_select_i(fill, clear, simd_zero_i()));
            simd_i rb = simd_loadu_i(w->sum + h), ga = simd_loadu_i(w->sum + 16 + h);
            resolve_sum_add_v(c, &rb, &ga);
            simd_storeu_i(w->sum + h, rb);
            simd_storeu_i(w->sum + 16 + h, ga);
        }
#else
        for (int l = 0; l < 16; l++) {
            const uint32_t bit = 1u << l;
            resolve_sum_add(w->sum, l,
                            (w->kept & bit)   ? (w->rgba ? w->rgba[l] : shaded[w->code[l]])
                            : (w->fill & bit) ? w->clear_color
                                              : 0u);
        }
#endif
        return points | refs << 32;
    }
#if defined(SIMD_LANES) && SIMD_LANES == 16
    const simd_m kept = simd_mask(w->kept), fill = simd_mask(w->fill);
    const simd_i idx = simd_loadu_i(w->idx);
    const simd_i rgba = w->rgba ? simd_loadu_i(w->rgba) : simd_gather_i_masked(shaded, simd_loadu_i(w->code), kept);
    simd_scatter_i_masked(color, idx, rgba, kept);
    simd_scatter_i_masked(color, idx, simd_set1_i((int32_t)w->clear_color), fill);
    if (depth) {
        simd_scatter_i_masked(depth, idx, simd_loadu_i(w->z), kept);
        simd_scatter_i_masked(depth, idx, _mm512_castps_si512(simd_set1_f(w->clear_depth)), fill);
    }
#else
    for (uint32_t v = w->kept; v; v &= v - 1) {
        const int l = __builtin_ctz(v);
        const size_t i = (size_t)w->idx[l];
        color[i] = w->rgba ? w->rgba[l] : shaded[w->code[l]];
        if (depth) depth[i] = w->z[l];
    }
    for (uint32_t v = w->fill; v; v &= v - 1) {
        const int l = __builtin_ctz(v);
        const size_t i = (size_t)w->idx[l];
        color[i] = w->clear_color;
        if (depth) depth[i] = w->clear_depth;
    }
#endif
    return points | refs << 32;
}

uint32_t SUM_ROWS_FN(const uint32_t *restrict shaded, const int32_t *restrict code, const uint16_t *restrict visible,
                     int n, uint32_t inside, uint32_t clear_color, uint32_t *restrict sum)
{
    uint32_t count = 0;
    for (int g = 0; g < n; g++) count += (uint32_t)__builtin_popcount(visible[g]);
#if defined(SIMD_LANES) && SIMD_LANES >= 8
    for (int h = 0; h < 16; h += SIMD_LANES) {  /* the sums of SIMD_LANES lanes stay in registers over the rows */
        const simd_i fill = simd_select_i(simd_mask(inside >> h), simd_set1_i((int32_t)clear_color), simd_zero_i());
        simd_i rb = simd_loadu_i(sum + h), ga = simd_loadu_i(sum + 16 + h);
        for (int g = 0; g < n; g++) {
            const simd_m m = simd_mask((uint32_t)visible[g] >> h);
            resolve_sum_add_v(simd_select_i(m, simd_gather_i_masked(shaded, simd_loadu_i(code + 16 * g + h), m), fill),
                              &rb, &ga);
        }
        simd_storeu_i(sum + h, rb);
        simd_storeu_i(sum + 16 + h, ga);
    }
#else
    for (int g = 0; g < n; g++)
        for (int l = 0; l < 16; l++) {
            const uint32_t bit = 1u << l;
            resolve_sum_add(sum, l, (visible[g] & bit) ? shaded[code[16 * g + l]] : (inside & bit) ? clear_color : 0u);
        }
#endif
    return count;
}

#undef WRITE_ROW_FN
#undef SUM_ROWS_FN
