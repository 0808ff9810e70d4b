/* shade.c — the shade stage's entries: per-worker scratch, and backend_shade
 * / backend_shade_points, which run this frame's per-ISA build of the
 * stage (shade_tmp.h).  Fed by tile.c and decouple.c; feeds the ROP. */
#include "backend/shade.h"

shade_scratch *shade_scratch_create(const mos_allocator *a) { return util_calloc(a, 1, sizeof(shade_scratch)); }

void shade_scratch_destroy(shade_scratch *s, const mos_allocator *a)
{
    if (!s) return;
    util_free(a, s->user_scratch);
    util_free(a, s);
}

mos_result shade_scratch_reserve(shade_scratch *s, size_t bytes, const mos_allocator *a)
{
    if (bytes <= s->user_scratch_cap) return MOS_OK;
    void *p = util_alloc(a, bytes);  /* 64-byte aligned */
    if (!p) return MOS_ERR_OUT_OF_MEMORY;
    util_free(a, s->user_scratch);
    s->user_scratch = p;
    s->user_scratch_cap = bytes;
    return MOS_OK;
}

void *shade_user_scratch(shade_scratch *s) { return s->user_scratch; }

void backend_shade_isa(shade_scratch *ss, const backend_isa *hot) { ss->hot = hot; }

void backend_shade(shade_scratch *ss, const raster_quad *quads, int n, int spp, bool cells, shade_result *out)
{
    ss->hot->shade_quads(ss, quads, n, spp, cells, out);
}

void backend_shade_points(shade_scratch *ss, const frame_tri *const *tris, const float *x, const float *y,
                          const float *lane_px, bool cells, int n, shade_result *out)
{
    ss->hot->shade_points(ss, tris, x, y, lane_px, cells, n, out);
}
