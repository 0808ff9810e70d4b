/* target.c — render target storage: per-sample colour and depth, the
 * resolved image and the per-bin clear stamps.  Fed by the api. */
#include <string.h>

#include "backend/backend.h"

/* The lens/time pattern of SEED: its tuples, the per-pixel table derived
 * from them and its rankings, replacing the target's only once all are
 * made (out of memory leaves the old pattern). */
static mos_result uvt_build(frame_target *t, uint32_t seed, const mos_allocator *a)
{
    frame_ranked ranked;
    float *uvt = util_alloc(a, raster_uvt_floats(t->samples) * sizeof *uvt);
    if (!uvt) return MOS_ERR_OUT_OF_MEMORY;
    frame_tuples tuples;
    raster_tuples_fill(t->samples, seed, &t->positions, &tuples);
    raster_uvt_fill(&tuples, uvt);
    if (raster_ranked_init(&ranked, t->samples, uvt, &t->positions, a) != MOS_OK) {
        util_free(a, uvt);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    util_free(a, t->uvt);
    raster_ranked_release(&t->ranked, a);
    t->uvt = uvt;
    *t->tuples = tuples;
    t->ranked = ranked;
    t->uvt_seed = seed;
    return MOS_OK;
}

mos_result backend_target_init(frame_target *t, int width, int height, int samples, const mos_allocator *a)
{
    memset(t, 0, sizeof *t);
    size_t pixels = (size_t)width * (size_t)height;
    t->width = width;
    t->height = height;
    t->samples = samples;
    t->color = util_calloc(a, pixels * (size_t)samples, sizeof *t->color);
    t->depth = util_calloc(a, pixels * (size_t)samples, sizeof *t->depth);
    t->resolved = util_calloc(a, pixels, sizeof *t->resolved);
    t->tuples = util_alloc(a, sizeof *t->tuples);
    raster_samples_get(samples, &t->positions);
    if (!t->color || !t->depth || !t->resolved || !t->tuples || uvt_build(t, 0, a) != MOS_OK) {
        backend_target_release(t, a);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    return MOS_OK;
}

static void inspect_release(frame_inspect *in, const mos_allocator *a)
{
    util_free(a, in->shades);
    util_free(a, in->overdraw);
    util_free(a, in->tri_area);
    util_free(a, in->bin_ms);
    util_free(a, in->bin_samples);
    util_free(a, in->bin_tris);
    util_free(a, in->bin_blurred);
    util_free(a, in->bin_spread);
    util_free(a, in->owner);
    memset(in, 0, sizeof *in);
}

void backend_target_release(frame_target *t, const mos_allocator *a)
{
    inspect_release(&t->inspect, a);
    util_free(a, t->color);
    util_free(a, t->depth);
    util_free(a, t->resolved);
    util_free(a, t->accum);
    util_free(a, t->uvt);
    util_free(a, t->tuples);
    raster_ranked_release(&t->ranked, a);
    util_free(a, t->bin_stamp);
    util_free(a, t->resolve_stamp);
    memset(t, 0, sizeof *t);
}

mos_result backend_target_bin_grid(frame_target *t, int bin_px, const mos_allocator *a)
{
    int bx = (t->width + bin_px - 1) / bin_px, by = (t->height + bin_px - 1) / bin_px;
    if (t->bin_stamp && t->grid.bin_px == bin_px) return MOS_OK;
    uint32_t *stamp = util_calloc(a, (size_t)bx * (size_t)by, sizeof *stamp);
    uint32_t *resolved = util_calloc(a, (size_t)bx * (size_t)by, sizeof *resolved);
    if (!stamp || !resolved) {
        util_free(a, stamp);
        util_free(a, resolved);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    util_free(a, t->bin_stamp);
    util_free(a, t->resolve_stamp);
    t->bin_stamp = stamp;
    t->resolve_stamp = resolved;
    t->grid = (mos_bin_grid){.bins_x = bx, .bins_y = by, .bin_px = bin_px};
    return MOS_OK;
}

mos_result backend_target_uvt_seed(frame_target *t, uint32_t seed, const mos_allocator *a)
{
    return seed == t->uvt_seed ? MOS_OK : uvt_build(t, seed, a);
}

/* Makes *p hold n zeroed elements of size elem; blocks of one group share
 * a capacity (in elements), which the caller raises once the group is done. */
static bool zeroed(const mos_allocator *a, void **p, size_t n, size_t cap, size_t elem)
{
    if (!*p || n > cap) {
        util_free(a, *p);
        *p = util_calloc(a, n > cap ? n : cap, elem);
        return *p != NULL;
    }
    memset(*p, 0, n * elem);
    return true;
}

mos_result backend_target_inspect_begin(frame_target *t, unsigned what, const uint16_t *owner, const mos_allocator *a)
{
    frame_inspect *in = &t->inspect;
    const size_t pixels = (size_t)t->width * (size_t)t->height;
    const size_t bins = (size_t)t->grid.bins_x * (size_t)t->grid.bins_y;
    const bool pix = what & (MOS_INSPECT_SHADES | MOS_INSPECT_OVERDRAW | MOS_INSPECT_TRIANGLE_AREA);
    const bool bin = what & MOS_INSPECT_BINS;
    in->what = 0;
    t->recording = false;
    bool ok = zeroed(a, (void **)&in->owner, bins, in->owner_cap, sizeof *in->owner);
    if (ok && bins > in->owner_cap) in->owner_cap = bins;
    if (ok && pix) {
        ok = zeroed(a, (void **)&in->shades, pixels, in->pixel_cap, sizeof(float)) &&
             zeroed(a, (void **)&in->overdraw, pixels, in->pixel_cap, sizeof(float)) &&
             zeroed(a, (void **)&in->tri_area, pixels, in->pixel_cap, sizeof(float));
        if (ok && pixels > in->pixel_cap) in->pixel_cap = pixels;
    }
    if (ok && bin) {
        ok = zeroed(a, (void **)&in->bin_ms, bins, in->bin_cap, sizeof *in->bin_ms) &&
             zeroed(a, (void **)&in->bin_samples, bins, in->bin_cap, sizeof *in->bin_samples) &&
             zeroed(a, (void **)&in->bin_tris, bins, in->bin_cap, sizeof *in->bin_tris) &&
             zeroed(a, (void **)&in->bin_blurred, bins, in->bin_cap, sizeof *in->bin_blurred) &&
             zeroed(a, (void **)&in->bin_spread, bins, in->bin_cap, sizeof *in->bin_spread);
        if (ok && bins > in->bin_cap) in->bin_cap = bins;
    }
    if (!ok) {
        inspect_release(in, a);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    memcpy(in->owner, owner, bins * sizeof *in->owner);
    in->what = what;
    in->grid = t->grid;
    t->recording = what != 0;
    return MOS_OK;
}
