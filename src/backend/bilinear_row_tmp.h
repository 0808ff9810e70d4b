/* bilinear_row_tmp.h — the resolve's two bilinear bodies (resolve.c) for
 * one row of sixteen visibility-buffer entries, each visible lane at point
 * (sx, sy) of its triangle's shading grid (bilinear.h):
 *  - BILINEAR_ROW_FN, LOOKUP: the codes of the four grid points around each
 *    lane that the table of recent quads (recent_quads.h) holds, to
 *    taps[16 k + lane] for corner k; returns the (corner, lane) pairs it did
 *    not answer, bit 16 k + lane;
 *  - MIX_ROW_FN, WRITE: each visible lane's colour, its four taps mixed
 *    (none of the cache's lanes discarded), and its nearest tap's code.
 * Included once per ISA by backend_scalar.c, backend_avx2.c and
 * backend_avx512.c, which define both names: with SIMD_LANES 8 or 16
 * (util/simd.h) SIMD_LANES lanes at a time, else a loop over the visible
 * lanes; the same bits either way (bilinear.h's arithmetic, exact). */
#include "backend/bilinear.h"
#include "backend/recent_quads.h"

#if defined(SIMD_LANES) && SIMD_LANES > 4
/* bilinear_point for SIMD_LANES lanes: the grid point, and the weight in w. */
SIMD_OP simd_i bilinear_point_v(simd_f s, simd_i *w)
{
    const simd_f half = simd_set1_f(0.5f), p = simd_sub_f(s, half), below = simd_floor_f(p);
    *w = simd_trunc_i(simd_add_f(simd_mul_f(simd_sub_f(p, below), simd_set1_f((float)BILINEAR_ONE)), half));
    return simd_round_i(below);  /* exact: an integer */
}
#endif

uint64_t BILINEAR_ROW_FN(const recent_quads *restrict R, const uint32_t *restrict tri, const float *restrict sx,
                         const float *restrict sy, int32_t *restrict taps)
{
    uint64_t miss = 0;
#if defined(SIMD_LANES) && SIMD_LANES > 4
    for (int l = 0; l < 16; l += SIMD_LANES) {
        const simd_i id = simd_loadu_i(tri + l);
        const uint32_t visible = recent_covered_v(id);
        simd_i wx, wy;  /* unused here */
        const simd_i ix = bilinear_point_v(simd_loadu_f(sx + l), &wx), iy = bilinear_point_v(simd_loadu_f(sy + l), &wy);
        for (int k = 0; k < 4; k++) {
            simd_i c;
            const uint32_t hit =
                recent_holds_v(R, id, simd_add_i(ix, simd_set1_i(k & 1)), simd_add_i(iy, simd_set1_i(k >> 1)), &c);
            simd_storeu_i(taps + 16 * k + l, c);
            miss |= (uint64_t)(~hit & visible) << (16 * k + l);
        }
    }
#else
    for (int l = 0; l < 16; l++) {
        const uint32_t id = tri[l];
        if (id == UINT32_MAX) continue;
        int32_t ix, iy, wx, wy;
        bilinear_point(sx[l], &ix, &wx);
        bilinear_point(sy[l], &iy, &wy);
        for (int k = 0; k < 4; k++) {
            const int32_t x = ix + (k & 1), y = iy + (k >> 1), qx = x >> 1, qy = y >> 1;
            const uint32_t s = RECENT_SLOT(id, qx, qy);
            if (recent_holds(R, s, id, qx, qy)) taps[16 * k + l] = R->slot[s].code + recent_lane(x, y);
            else miss |= UINT64_C(1) << (16 * k + l);
        }
    }
#endif
    return miss;
}

void MIX_ROW_FN(const uint32_t *restrict rgba, const int32_t *restrict taps, const float *restrict sx,
                const float *restrict sy, uint32_t visible, uint32_t *restrict color, int32_t *restrict nearest)
{
#if defined(SIMD_LANES) && SIMD_LANES > 4
    const simd_i whole = simd_set1_i(BILINEAR_ONE), mid = simd_set1_i(BILINEAR_ONE / 2 - 1),
                 byte = simd_set1_i(0xff), round = simd_set1_i(1 << 15);
    for (int l = 0; l < 16; l += SIMD_LANES) {
        const uint32_t lanes = (visible >> l) & SIMD_ALL_BITS;
        if (!lanes) continue;
        const simd_m m = simd_mask(lanes);
        simd_i w[2];  /* the weights along x and y */
        bilinear_point_v(simd_loadu_f(sx + l), &w[0]);
        bilinear_point_v(simd_loadu_f(sy + l), &w[1]);
        const simd_i vx = simd_sub_i(whole, w[0]), vy = simd_sub_i(whole, w[1]);
        const simd_i weight[4] = {simd_mul_i(vx, vy), simd_mul_i(w[0], vy), simd_mul_i(vx, w[1]),
                                  simd_mul_i(w[0], w[1])};
        simd_i c[4], r = round, g = round, b = round, a = round;  /* the channels' sums */
        for (int k = 0; k < 4; k++) {
            c[k] = simd_loadu_i(taps + 16 * k + l);
            const simd_i v = simd_gather_i_masked(rgba, c[k], m);
            r = simd_add_i(r, simd_mul_i(weight[k], simd_and_i(v, byte)));
            g = simd_add_i(g, simd_mul_i(weight[k], simd_and_i(simd_srl_i(v, 8), byte)));
            b = simd_add_i(b, simd_mul_i(weight[k], simd_and_i(simd_srl_i(v, 16), byte)));
            a = simd_add_i(a, simd_mul_i(weight[k], simd_srl_i(v, 24)));
        }
        simd_storeu_i(color + l, simd_or_i(simd_or3_i(simd_srl_i(r, 16), simd_sll_i(simd_srl_i(g, 16), 8),
                                                      simd_sll_i(simd_srl_i(b, 16), 16)),
                                           simd_sll_i(simd_srl_i(a, 16), 24)));
        /* bilinear_nearest: corner 1 where wx >= 128, 2 where wy >= 128 */
        const simd_m right = simd_lt_i(mid, w[0]), down = simd_lt_i(mid, w[1]);
        simd_storeu_i(nearest + l, simd_select_i(down, simd_select_i(right, c[3], c[2]),
                                                 simd_select_i(right, c[1], c[0])));
    }
#else
    for (uint32_t m = visible; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        int32_t ix, iy, wx, wy;
        bilinear_point(sx[l], &ix, &wx);
        bilinear_point(sy[l], &iy, &wy);
        const int32_t code[4] = {taps[l], taps[16 + l], taps[32 + l], taps[48 + l]};
        color[l] = bilinear_blend(rgba, code, wx, wy, 0xfu);
        nearest[l] = code[bilinear_nearest(wx, wy)];
    }
#endif
}

#undef BILINEAR_ROW_FN
#undef MIX_ROW_FN
