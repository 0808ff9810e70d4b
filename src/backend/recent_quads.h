/* recent_quads.h — the resolve's table of the grid quads it last used
 * (resolve.c, LOOKUP) and its per-ISA row lookup (recent_row_tmp.h, in the
 * ISA table as backend_isa.recent_row).  Private to backend/. */
#ifndef MOSAIC_BACKEND_RECENT_QUADS_H
#define MOSAIC_BACKEND_RECENT_QUADS_H

#include "backend/backend.h"

/* Direct-mapped by the low bits of the quad and the triangle's index
 * (RECENT_SLOT), a table per field: their triangle (UINT32_MAX: empty, as
 * VIS_NONE), quad and cache entry, times 4. */
#define RECENT_QUAD_BITS 4  /* bits of qx and of qy in a slot's index */
#define RECENT_SLOTS (4 << (2 * RECENT_QUAD_BITS))
struct recent_quads {
    _Alignas(64) uint32_t id[RECENT_SLOTS];
    _Alignas(64) int32_t qx[RECENT_SLOTS], qy[RECENT_SLOTS], code[RECENT_SLOTS];
};
#define RECENT_QUAD_MASK ((1u << RECENT_QUAD_BITS) - 1u)
#define RECENT_SLOT(id, qx, qy)                                                                    \
    (((uint32_t)(qx)&RECENT_QUAD_MASK) | ((uint32_t)(qy)&RECENT_QUAD_MASK) << RECENT_QUAD_BITS |      \
     ((id)&3u) << (2 * RECENT_QUAD_BITS))

/* Whether slot s holds grid quad (qx, qy) of triangle id. */
static inline bool recent_holds(const recent_quads *R, uint32_t s, uint32_t id, int32_t qx, int32_t qy)
{
    return (R->id[s] == id) & (R->qx[s] == qx) & (R->qy[s] == qy);
}
/* The lane of grid point (gx, gy) in its quad (gx >> 1, gy >> 1). */
static inline int32_t recent_lane(int32_t gx, int32_t gy) { return (gx & 1) | (gy & 1) << 1; }

/* The per-ISA bodies of backend_isa.recent_row (recent_row_fn). */
uint32_t recent_row_scalar(const recent_quads *R, const uint32_t *tri, const int32_t *gx, const int32_t *gy,
                           int32_t *code);
#if defined(UTIL_X86)
uint32_t recent_row_avx2(const recent_quads *R, const uint32_t *tri, const int32_t *gx, const int32_t *gy,
                         int32_t *code);
uint32_t recent_row_avx512(const recent_quads *R, const uint32_t *tri, const int32_t *gx, const int32_t *gy,
                           int32_t *code);
#endif

#endif
