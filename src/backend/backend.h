/* backend.h — the per-bin back-end a worker runs: raster -> shade -> ROP,
 * then resolve of owned bins at frame end; and the render target storage.
 * Fed by sched/worker.c with WORK_BIN items; writes only the bin it is given. */
#ifndef MOSAIC_BACKEND_H
#define MOSAIC_BACKEND_H

#include <stdint.h>

#include "frame/frame.h"
#include "raster/raster.h"
#include "shader/shader.h"
#include "util/alloc.h"

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
        return (float)((double)(cross < 0 ? -cross : cross) / (2.0 * FRAME_SUBPIXELS * FRAME_SUBPIXELS));
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

/* Shade stage (shade.c, shade_tmp.h): quads[0..n) in API order. */
#define BACKEND_SHADE_LANES 64  /* one fragment-shader call: 16 quads */
typedef struct shade_result {
    uint32_t rgba[4];   /* per lane, packed RGBA8 */
    uint8_t discard[4];
} shade_result;
typedef struct shade_scratch shade_scratch;
typedef void (*shade_quads_fn)(shade_scratch *ss, const raster_quad *quads, int n, int spp, shade_result *out);
typedef void (*shade_points_fn)(shade_scratch *ss, const fe_tri *const *tris, const float *x, const float *y, int n,
                                shade_result *out);

/* The hot loops for one instruction set (isa.c), resolved once per context. */
typedef struct backend_isa {
    mos_isa isa;
    raster_fn raster;
    stoch_block_fn stoch_block;
    texture_sample_fn sample;  /* for the context's textures (mos_sampler.sample) */
    shade_quads_fn shade_quads;
    shade_points_fn shade_points;
} backend_isa;
/* The ISA that `want` resolves to on this CPU (MOS_ISA_AUTO if unavailable). */
mos_isa backend_isa_available(mos_isa want);
const backend_isa *backend_isa_select(mos_isa isa);

typedef struct backend_scratch backend_scratch;
backend_scratch *backend_scratch_create(const mos_allocator *a);
/* Before a frame (api thread): sizes the stochastic back-end's shading
 * cache when the frame needs one.  MOS_ERR_OUT_OF_MEMORY on failure. */
mos_result backend_scratch_reserve(backend_scratch *s, const pipe_frame *f, const mos_allocator *a);
void backend_scratch_destroy(backend_scratch *s, const mos_allocator *a);

/* Renders triangles tris[0..n) (API order) into fine bin `bin`. */
void backend_run_bin(backend_scratch *s, const pipe_frame *f, uint32_t bin, const fe_tri *const *tris,
                     uint32_t n, worker_stats *st);
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
shade_scratch *shade_scratch_create(const mos_allocator *a);
void shade_scratch_destroy(shade_scratch *s, const mos_allocator *a);
/* Makes room for a fragment shader's scratch of `bytes` (before a frame). */
mos_result shade_scratch_reserve(shade_scratch *s, size_t bytes, const mos_allocator *a);
/* The build of the shade stage to run, and the instruction set the fragment
 * shaders are told (per bin, from the frame). */
void backend_shade_isa(shade_scratch *ss, const backend_isa *hot);
void backend_shade(shade_scratch *ss, const raster_quad *quads, int n, int spp, shade_result *out);
/* Shades n quads whose 4 lanes each sit at (x, y)[4 q + lane] in the
 * planes' space of tris[q] (the decoupled shading grid); all lanes live. */
void backend_shade_points(shade_scratch *ss, const fe_tri *const *tris, const float *x, const float *y, int n,
                          shade_result *out);
uint32_t backend_blend(mos_blend mode, uint32_t src, uint32_t dst);
/* The ROP's rule for one sample (colour/depth index idx) of a draw: depth
 * test, depth write, blend.  false when the depth test rejected it.  The
 * quad ROP (rop.c) and the stochastic back-end's queue (decouple.c) both
 * write samples through it (rop.c's four-at-a-time path does the same). */
static inline bool backend_rop_sample(rt_target *t, const fe_draw *d, size_t idx, float z, uint32_t src)
{
    if (d->depth_test && !(z < t->depth[idx])) return false;
    if (d->depth_write) t->depth[idx] = z;
    t->color[idx] = backend_blend(d->blend, src, t->color[idx]);
    return true;
}
/* The depth of quad q's slot k is z[q * RASTER_Z_STRIDE(spp) + k] (raster_fn). */
void backend_rop(rt_target *t, const raster_quad *quads, const float *z, int n, const shade_result *res);

#endif
