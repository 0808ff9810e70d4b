/* backend.h — the per-bin back-end a worker runs: raster -> shade -> ROP,
 * then resolve of owned bins at frame end; and the render target storage.
 * Fed by sched/worker.c with WORK_BIN items; writes only the bin it is given. */
#ifndef MOSAIC_BACKEND_H
#define MOSAIC_BACKEND_H

#include <stdint.h>

#include "frontend/frontend.h"
#include "raster/raster.h"

/* Colour (RGBA8, r in the low byte) and depth per sample, rows bottom up:
 * sample s of pixel (x, y) is [(y * width + x) * samples + s]. */
typedef struct rt_target {
    int width, height, samples;
    raster_samples positions;  /* (x, y) of each sample in a pixel */
    float *uvt;  /* the lens/time pattern (raster_uvt_fill) */
    raster_ranked ranked;  /* its samples ranked by t and u */
    uint32_t *color;
    float *depth;
    uint32_t *resolved;  /* [y][x], bottom up */
    /* Lazy clear: bin_stamp[bin] == frame serial once the bin's samples
     * were cleared this frame (only the bin's owner reads or writes it). */
    uint32_t *bin_stamp;
    int stamp_bins_x, stamp_bins_y, stamp_bin_px;
    /* The last frame rendered into the target: bins whose stamp differs
     * hold stale samples and read back as last_clear. */
    uint32_t last_serial, last_clear;
} rt_target;

/* Sample s of pixel (x, y) as the last frame left it (lazy clears applied). */
static inline uint32_t rt_target_sample(const rt_target *t, int x, int y, int s)
{
    if (t->bin_stamp) {
        int bin = (y / t->stamp_bin_px) * t->stamp_bins_x + x / t->stamp_bin_px;
        if (t->bin_stamp[bin] != t->last_serial) return t->last_clear;
    }
    return t->color[((size_t)y * (size_t)t->width + (size_t)x) * (size_t)t->samples + (size_t)s];
}

mos_result rt_target_init(rt_target *t, int width, int height, int samples, const mos_allocator *a);
void rt_target_release(rt_target *t, const mos_allocator *a);
/* Sizes bin_stamp for a bin grid (all bins "not cleared"). */
mos_result rt_target_bin_grid(rt_target *t, int bin_px, const mos_allocator *a);

/* What a worker counts while running bins. */
typedef struct backend_stats {
    uint64_t fragments;       /* covered samples */
    uint64_t covered_pixels;
    uint64_t shade_invocations;
    uint64_t cache_hits, cache_misses, cache_stalls;
    uint64_t blur_refs, blur_points;  /* (grid point, pixel) uses; grid points used */
} backend_stats;

typedef struct backend_scratch backend_scratch;
backend_scratch *backend_scratch_create(const mos_allocator *a);
/* Before a frame (api thread): sizes the stochastic back-end's shading
 * cache when the frame needs one.  MOS_ERR_OUT_OF_MEMORY on failure. */
mos_result backend_scratch_reserve(backend_scratch *s, const pipe_frame *f, const mos_allocator *a);
void backend_scratch_destroy(backend_scratch *s, const mos_allocator *a);

/* Renders triangles tris[0..n) (API order) into fine bin `bin`. */
void backend_run_bin(backend_scratch *s, const pipe_frame *f, uint32_t bin, const fe_tri *const *tris,
                     uint32_t n, backend_stats *st);
/* Resolves bin `bin` (samples -> pixels) into target->resolved. */
void backend_resolve_bin(const pipe_frame *f, uint32_t bin);

/* A 0..1 colour channel as 8 bits: clamped, rounded, NaN -> 0.  The one
 * conversion for shader outputs and clear colours. */
static inline uint32_t unorm8(float v)
{
    v = v > 0.0f ? v : 0.0f;
    v = v < 1.0f ? v : 1.0f;
    return (uint32_t)(int32_t)(v * 255.0f + 0.5f);
}

/* Shade and ROP stages (shade.c, rop.c): quads[0..n) in API order. */
#define BACKEND_SHADE_LANES 64  /* one fragment-shader call: 16 quads */
typedef struct shade_result {
    uint32_t rgba[4];   /* per lane, packed RGBA8 */
    uint8_t discard[4];
} shade_result;
typedef struct shade_scratch shade_scratch;
void backend_shade(shade_scratch *ss, const raster_quad *quads, int n, int spp, shade_result *out);
/* Shades n quads whose 4 lanes each sit at (x, y)[4 q + lane] in the
 * planes' space of tris[q] (the decoupled shading grid); all lanes live. */
void backend_shade_points(shade_scratch *ss, const fe_tri *const *tris, const float *x, const float *y, int n,
                          shade_result *out);
uint32_t backend_blend(mos_blend mode, uint32_t src, uint32_t dst);
void backend_rop(rt_target *t, const raster_samples *sp, const raster_quad *quads, int n, const shade_result *res);

#endif
