/* inspect.c — what the last frame recorded about itself (mos_frame_desc.inspect):
 * per-bin owner, time and counts, and per-pixel maps.  Fed by viewers and tools. */
#include <string.h>

#include "api/context.h"

/* The target behind HANDLE, when it is not being rendered. */
mos_result mos_target_read_bins(mos_context *ctx, mos_target handle, mos_bin_info *out, size_t capacity,
                                mos_bin_grid *grid)
{
    static const char fn[] = "mos_target_read_bins";
    if (!ctx) return MOS_ERR_INVALID_ARGUMENT;
    frame_target *t = NULL;
    mos_result r = ctx_idle_target(ctx, handle, fn, &t);
    if (r != MOS_OK) return r;
    const frame_inspect *in = &t->inspect;
    if (!in->owner || !in->grid.bins_x)
        return ctx_fail(ctx, MOS_ERR_FRAME_STATE, "%s: the target has not been rendered yet", fn);
    const size_t bins = (size_t)in->grid.bins_x * (size_t)in->grid.bins_y;
    if (grid) *grid = in->grid;
    if (!out) return MOS_OK;
    if (capacity < bins)
        return ctx_fail(ctx, MOS_ERR_BAD_SIZE, "%s: %zu records do not hold %zu bins", fn, capacity, bins);
    const bool recorded = in->what & MOS_INSPECT_BINS;
    for (size_t b = 0; b < bins; b++) {
        mos_bin_info *o = &out[b];
        memset(o, 0, sizeof *o);
        o->worker = in->owner[b];
        if (!recorded) continue;
        o->triangles = in->bin_tris[b];
        o->samples = in->bin_samples[b];
        o->ms = in->bin_ms[b];
        o->blurred_spread = in->bin_blurred[b] ? in->bin_spread[b] / in->bin_blurred[b] : 0.0;
    }
    return MOS_OK;
}

mos_result mos_target_read_map(mos_context *ctx, mos_target handle, mos_inspect map, float *out, size_t row_floats)
{
    static const char fn[] = "mos_target_read_map";
    if (!ctx) return MOS_ERR_INVALID_ARGUMENT;
    frame_target *t = NULL;
    mos_result r = ctx_idle_target(ctx, handle, fn, &t);
    if (r != MOS_OK) return r;
    const float *src = NULL;
    switch (map) {
    case MOS_INSPECT_SHADES: src = t->inspect.shades; break;
    case MOS_INSPECT_OVERDRAW: src = t->inspect.overdraw; break;
    case MOS_INSPECT_TRIANGLE_AREA: src = t->inspect.tri_area; break;
    default: return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "%s: %d is not a per-pixel map", fn, (int)map);
    }
    if (!out) return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "%s: NULL destination", fn);
    if (row_floats < (size_t)t->width)
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "%s: row_floats %zu < width %d", fn, row_floats, t->width);
    if (!(t->inspect.what & (unsigned)map) || !src)
        return ctx_fail(ctx, MOS_ERR_FRAME_STATE, "%s: the target's last frame did not record this map", fn);
    for (int y = 0; y < t->height; y++)
        memcpy(out + (size_t)(t->height - 1 - y) * row_floats, src + (size_t)y * (size_t)t->width,
               (size_t)t->width * sizeof *out);
    return MOS_OK;
}
