/* backend.h — the per-bin back-end a worker runs: raster -> shade -> ROP,
 * then resolve of owned bins at frame end; and the render target storage.
 * Fed by sched/worker.c with WORK_BIN items; writes only the bin it is given. */
#ifndef MOSAIC_BACKEND_H
#define MOSAIC_BACKEND_H

#include <stdint.h>

#include "frontend/frontend.h"
#include "raster/raster.h"

/* What a frame records about itself (mos_frame_desc.inspect).  Per-pixel
 * maps are [y * width + x], rows bottom up; per-bin records [bin].  The
 * front-end writes bin_tris / bin_blurred / bin_spread, a bin's owner the
 * rest of its bin's entries and pixels: no two threads share an entry. */
typedef struct rt_inspect {
    unsigned what;           /* mos_inspect bits of the frame that wrote it */
    float *shades;           /* fragment-shader lanes run for the pixel */
    float *overdraw;         /* triangles covering a sample of it that passed the early depth test */
    float *tri_area;         /* area in pixels of the triangle last written there */
    double *bin_ms;
    uint64_t *bin_samples;
    uint32_t *bin_tris, *bin_blurred;
    double *bin_spread;      /* sum over the bin's blurred triangles of their bin spread */
    uint16_t *owner;         /* the frame's pattern table (always copied) */
    int bins_x, bins_y, bin_px;
    size_t pixel_cap, bin_cap, owner_cap;  /* elements each group's blocks hold */
} rt_inspect;

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
    uint32_t uvt_seed;       /* mos_blur_desc.seed the (u, v, t) tables were drawn with */
    rt_inspect inspect;      /* records of the last frame */
    bool recording;          /* the frame being rendered fills inspect */
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
/* Draws the (u, v, t) tables again for another pattern seed (no-op when
 * unchanged).  MOS_ERR_OUT_OF_MEMORY leaves the old tables. */
mos_result rt_target_uvt_seed(rt_target *t, uint32_t seed, const mos_allocator *a);
/* Before a frame (api thread, bin grid set): sizes and zeroes the records
 * WHAT asks for and copies the pattern's owners. */
mos_result rt_target_inspect_begin(rt_target *t, unsigned what, const uint16_t *owner, const mos_allocator *a);

/* Area in pixels of a set-up triangle (of a blurred one: at t = 0 seen from
 * the lens centre).  For inspection, not for coverage. */
static inline float backend_tri_area_px(const fe_tri *t)
{
    if (!t->blur) {
        int64_t cross = (int64_t)t->a[0] * t->b[1] - (int64_t)t->a[1] * t->b[0];
        return (float)((double)(cross < 0 ? -cross : cross) / (2.0 * RASTER_SUBPIXELS * RASTER_SUBPIXELS));
    }
    const float(*p)[4] = t->blur->p;
    if (!(p[0][3] > 0.0f && p[1][3] > 0.0f && p[2][3] > 0.0f)) return 0.0f;
    float x[3], y[3];
    for (int i = 0; i < 3; i++) x[i] = p[i][0] / p[i][3], y[i] = p[i][1] / p[i][3];
    float cross = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
    return 0.5f * (cross < 0.0f ? -cross : cross);
}

/* Inspection hooks of the back-end (only while t->recording). */
static inline void rt_inspect_quad(float *map, const rt_target *t, int x, int y)
{
    const int w = t->width, h = t->height;
    for (int l = 0; l < 4; l++) {
        int px = x + (l & 1), py = y + (l >> 1);
        if (px < w && py < h) map[(size_t)py * (size_t)w + (size_t)px] += 1.0f;
    }
}

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
