/* target.c — render target storage: per-sample colour and depth, the
 * resolved image and the per-bin clear stamps.  Fed by the api. */
#include <string.h>

#include "backend/backend.h"

mos_result rt_target_init(rt_target *t, int width, int height, int samples, const mos_allocator *a)
{
    memset(t, 0, sizeof *t);
    size_t pixels = (size_t)width * (size_t)height;
    t->width = width;
    t->height = height;
    t->samples = samples;
    t->color = util_calloc(a, pixels * (size_t)samples, sizeof *t->color);
    t->depth = util_calloc(a, pixels * (size_t)samples, sizeof *t->depth);
    t->resolved = util_calloc(a, pixels, sizeof *t->resolved);
    t->uvt = util_alloc(a, raster_uvt_floats(samples) * sizeof *t->uvt);
    if (!t->color || !t->depth || !t->resolved || !t->uvt) {
        rt_target_release(t, a);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    raster_samples_get(samples, &t->positions);
    raster_uvt_fill(samples, t->uvt);
    mos_result r = raster_ranked_init(&t->ranked, samples, t->uvt, &t->positions, a);
    if (r != MOS_OK) rt_target_release(t, a);
    return r;
}

void rt_target_release(rt_target *t, const mos_allocator *a)
{
    util_free(a, t->color);
    util_free(a, t->depth);
    util_free(a, t->resolved);
    util_free(a, t->uvt);
    raster_ranked_release(&t->ranked, a);
    util_free(a, t->bin_stamp);
    memset(t, 0, sizeof *t);
}

mos_result rt_target_bin_grid(rt_target *t, int bin_px, const mos_allocator *a)
{
    int bx = (t->width + bin_px - 1) / bin_px, by = (t->height + bin_px - 1) / bin_px;
    if (t->bin_stamp && t->stamp_bin_px == bin_px) return MOS_OK;
    uint32_t *stamp = util_calloc(a, (size_t)bx * (size_t)by, sizeof *stamp);
    if (!stamp) return MOS_ERR_OUT_OF_MEMORY;
    util_free(a, t->bin_stamp);
    t->bin_stamp = stamp;
    t->stamp_bins_x = bx;
    t->stamp_bins_y = by;
    t->stamp_bin_px = bin_px;
    return MOS_OK;
}
