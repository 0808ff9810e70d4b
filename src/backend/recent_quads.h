/* recent_quads.h — the resolve's table of the grid quads it last used
 * (resolve.c, LOOKUP) and the resolve's per-ISA row bodies: the lookups
 * that ask it (recent_row_tmp.h, bilinear_row_tmp.h), the bilinear mix
 * (bilinear_row_tmp.h) and the writes and sums (resolve_row_tmp.h), in the
 * ISA table as backend_isa.recent_row, bilinear_row, mix_row, write_row and
 * sum_rows.
 * Private to backend/. */
#ifndef MOSAIC_BACKEND_RECENT_QUADS_H
#define MOSAIC_BACKEND_RECENT_QUADS_H

#include <string.h>

#include "backend/backend.h"

/* Direct-mapped by the low bits of the quad and the triangle's index
 * (RECENT_SLOT), each slot its quad, its triangle (UINT32_MAX: empty, as
 * VIS_NONE) and cache entry, times 4: two pairs, one 64-bit gather each.
 * Sixty-four quads a side (a 64-pixel bin's samples land on a wider
 * stretch of a moving triangle's grid) and sixteen triangles (a blurred
 * row meets many small ones): 65536 slots, 1 MiB a worker.  With 64-pixel
 * bins, 6 bits a side took 0.93 of 4's time at 64 spp and 0.96 at 27
 * (bench/RESULTS.md; 4 was the best of 2..5 with 16-pixel bins). */
#define RECENT_QUAD_BITS 6  /* bits of qx and of qy in a slot's index */
#define RECENT_ID_BITS 4    /* bits of the triangle's index */
#define RECENT_SLOTS (1 << (2 * RECENT_QUAD_BITS + RECENT_ID_BITS))
_Static_assert(RECENT_SLOTS <= 65536, "recent_quads.filled holds slot numbers in 16 bits");
typedef struct recent_slot {
    int32_t qx, qy;
    uint32_t id;
    int32_t code;
} recent_slot;
struct recent_quads {
    _Alignas(64) recent_slot slot[RECENT_SLOTS];
    uint16_t filled[RECENT_SLOTS];  /* the slots filled since the table was last emptied */
    int filled_count;
};
#define RECENT_QUAD_MASK ((1u << RECENT_QUAD_BITS) - 1u)
#define RECENT_ID_MASK ((1u << RECENT_ID_BITS) - 1u)
#define RECENT_SLOT(id, qx, qy)                                                                    \
    (((uint32_t)(qx)&RECENT_QUAD_MASK) | ((uint32_t)(qy)&RECENT_QUAD_MASK) << RECENT_QUAD_BITS |      \
     ((id)&RECENT_ID_MASK) << (2 * RECENT_QUAD_BITS))

/* Whether slot s holds grid quad (qx, qy) of triangle id. */
static inline bool recent_holds(const recent_quads *R, uint32_t s, uint32_t id, int32_t qx, int32_t qy)
{
    const recent_slot *q = &R->slot[s];
    return (q->id == id) & (q->qx == qx) & (q->qy == qy);
}
/* Every slot empty (id VIS_NONE: all bits set, every field defined), for
 * a new table. */
static inline void recent_init(recent_quads *R)
{
    memset(R->slot, 0xff, sizeof R->slot);
    R->filled_count = 0;
}
/* Slot s holds grid quad (qx, qy) of triangle id, entry e. */
static inline void recent_put(recent_quads *R, uint32_t s, uint32_t id, int32_t qx, int32_t qy, int32_t e)
{
    if (R->slot[s].id == UINT32_MAX) R->filled[R->filled_count++] = (uint16_t)s;  /* each slot once */
    R->slot[s] = (recent_slot){.qx = qx, .qy = qy, .id = id, .code = 4 * e};
}
/* Every slot empty again: only those filled (a run fills about a
 * quarter of them; clearing the whole table cost 64 KiB of stores a run). */
static inline void recent_empty(recent_quads *R)
{
    for (int i = 0; i < R->filled_count; i++) R->slot[R->filled[i]].id = UINT32_MAX;
    R->filled_count = 0;
}

/* The lane of grid point (gx, gy) in its quad (gx >> 1, gy >> 1). */
static inline int32_t recent_lane(int32_t gx, int32_t gy) { return (gx & 1) | (gy & 1) << 1; }

#if defined(SIMD_LANES) && SIMD_LANES > 4
/* The lanes of a row's triangle indices that some triangle covers (not
 * VIS_NONE), as bits. */
SIMD_OP uint32_t recent_covered_v(simd_i id) { return ~simd_bits(simd_eq_i(id, simd_set1_i(-1))) & SIMD_ALL_BITS; }

/* recent_holds for SIMD_LANES lanes at once (the ISA files' bodies, which
 * include util/simd.h first): the lanes whose grid point (x, y) of
 * triangle id the table holds, as bits, and every lane's code from its
 * slot plus the point's lane in its quad (meaningful where held).  A lane
 * no triangle covers (id VIS_NONE) asks for point (0, 0): its x and y
 * come from entries the visibility buffer never wrote. */
SIMD_OP uint32_t recent_holds_v(const recent_quads *R, simd_i id, simd_i x, simd_i y, simd_i *code)
{
    const simd_i quad = simd_set1_i((int32_t)RECENT_QUAD_MASK), one = simd_set1_i(1), zero = simd_set1_i(0);
    const simd_m empty = simd_eq_i(id, simd_set1_i(-1));  /* recent_covered_v's others, as a mask */
    x = simd_select_i(empty, zero, x);
    y = simd_select_i(empty, zero, y);
    const simd_i qx = simd_sra_i(x, 1), qy = simd_sra_i(y, 1);
    const simd_i s = simd_or3_i(simd_and_i(qx, quad), simd_sll_i(simd_and_i(qy, quad), RECENT_QUAD_BITS),
                                simd_sll_i(simd_and_i(id, simd_set1_i((int32_t)RECENT_ID_MASK)),
                                           2 * RECENT_QUAD_BITS));  /* RECENT_SLOT */
    const simd_i lane = simd_or_i(simd_and_i(x, one), simd_sll_i(simd_and_i(y, one), 1));  /* recent_lane */
    simd_i sx, sy, sid, scode;
    const uint32_t *base = (const uint32_t *)(const void *)R->slot;
    const simd_i at = simd_sll_i(s, 2);  /* the slot's first field, in 4-byte elements */
    simd_gather_pair_i(base, at, &sx, &sy);
    simd_gather_pair_i(base + 2, at, &sid, &scode);
    *code = simd_add_i(scode, lane);
    return simd_bits(simd_eq_i(sid, id)) & simd_bits(simd_eq_i(sx, qx)) & simd_bits(simd_eq_i(sy, qy));
}
#endif

/* The per-ISA bodies of backend_isa.recent_row, bilinear_row, mix_row,
 * write_row and sum_rows. */
#define RECENT_ISA_DECLARE(isa)                                                                                    \
    uint32_t recent_row_##isa(const recent_quads *R, const uint32_t *tri, const int32_t *gx, const int32_t *gy,    \
                              int32_t *code);                                                                      \
    uint64_t bilinear_row_##isa(const recent_quads *R, const uint32_t *tri, const float *sx, const float *sy,      \
                                int32_t *taps);                                                                    \
    void mix_row_##isa(const uint32_t *rgba, const int32_t *taps, const float *sx, const float *sy, uint32_t visible, \
                       uint32_t *color, int32_t *nearest);                                                         \
    uint64_t write_row_##isa(const resolve_row *w, const uint32_t *shaded, uint32_t *last_pixel, uint32_t *color,  \
                             float *depth);                                                                        \
    uint32_t sum_rows_##isa(const uint32_t *shaded, const int32_t *code, const uint16_t *visible, int n,           \
                            uint32_t inside, uint32_t clear_color, uint32_t *sum);
RECENT_ISA_DECLARE(scalar)
#if defined(UTIL_X86)
RECENT_ISA_DECLARE(avx2)
RECENT_ISA_DECLARE(avx512)
#endif
#undef RECENT_ISA_DECLARE

#endif
