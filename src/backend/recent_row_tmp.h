/* recent_row_tmp.h — the body of the resolve's first lookup (resolve.c,
 * LOOKUP) for one row of sixteen visibility-buffer entries: each visible
 * lane whose grid quad the table of recent quads (recent_quads.h) holds
 * gets its code (entry * 4 + the grid point's lane in the quad); returns
 * the visible lanes it did not answer, and the visible lanes << 16.  Included once per ISA by
 * backend_scalar.c, backend_avx2.c and backend_avx512.c, which define
 * RECENT_ROW_FN: with SIMD_LANES 8 or 16 (util/simd.h) the table's four
 * fields are gathered SIMD_LANES lanes at a time (recent_holds_v), else a
 * loop over lanes. */
#include "backend/recent_quads.h"

uint32_t RECENT_ROW_FN(const recent_quads *restrict R, const uint32_t *restrict tri, const int32_t *restrict gx,
                       const int32_t *restrict gy, int32_t *restrict code)
{
    uint32_t miss = 0, covered = 0;
#if defined(SIMD_LANES) && SIMD_LANES > 4
    for (int l = 0; l < 16; l += SIMD_LANES) {
        const simd_i id = simd_loadu_i(tri + l);
        simd_i c;
        const uint32_t hit = recent_holds_v(R, id, simd_loadu_i(gx + l), simd_loadu_i(gy + l), &c);
        const uint32_t cov = recent_covered_v(id);
        simd_storeu_i(code + l, simd_select_i(simd_mask(hit), c, simd_loadu_i(code + l)));
        miss |= (~hit & cov) << l;
        covered |= cov << l;
    }
#else
    for (int l = 0; l < 16; l++) {
        const uint32_t id = tri[l];
        if (id == UINT32_MAX) continue;
        covered |= 1u << l;
        const int32_t x = gx[l], y = gy[l], qx = x >> 1, qy = y >> 1;
        const uint32_t s = RECENT_SLOT(id, qx, qy);
        if (recent_holds(R, s, id, qx, qy)) code[l] = R->slot[s].code + recent_lane(x, y);
        else miss |= 1u << l;
    }
#endif
    return miss | covered << 16;
}

#undef RECENT_ROW_FN
