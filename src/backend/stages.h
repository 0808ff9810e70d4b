/* stages.h — the back-end's own stages, private to backend/: the shade stage
 * (shade.c: scratch and entries; shade_tmp.h: the per-ISA body), the ROP
 * (rop.c) and the inspection hooks the per-bin loops share.  tile.c,
 * decouple.c, rop.c and the shade stage include it. */
#ifndef MOSAIC_BACKEND_STAGES_H
#define MOSAIC_BACKEND_STAGES_H

#include "backend/backend.h"

/* Area in pixels of a set-up triangle (of a blurred one: at t = 0 seen from
 * the lens centre).  For inspection, not for coverage. */
static inline float backend_tri_area_px(const frame_tri *t)
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
static inline void backend_inspect_quad(float *map, const frame_target *t, int x, int y)
{
    const int w = t->width, h = t->height;
    for (int l = 0; l < 4; l++) {
        int px = x + (l & 1), py = y + (l >> 1);
        if (px < w && py < h) map[(size_t)py * (size_t)w + (size_t)px] += 1.0f;
    }
}

/* The clear of pixels [x0, x1) x [y0, y1) of t (within it): every sample
 * to colour and depth. */
static inline void backend_clear_rect(frame_target *t, int x0, int y0, int x1, int y1, uint32_t color, float depth)
{
    const size_t S = (size_t)t->samples;
    for (int y = y0; y < y1; y++) {
        const size_t row = ((size_t)y * (size_t)t->width + (size_t)x0) * S, n = (size_t)(x1 - x0) * S;
        for (size_t i = 0; i < n; i++) {
            t->color[row + i] = color;
            t->depth[row + i] = depth;
        }
    }
}

/* The resolved image's pixels [x0, x1) x [y0, y1) of t (within it) to
 * colour. */
static inline void backend_clear_pixels(frame_target *t, int x0, int y0, int x1, int y1, uint32_t color)
{
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) t->resolved[(size_t)y * (size_t)t->width + (size_t)x] = color;
}

/* Shade and ROP stages: quads[0..n) in API order. */
shade_scratch *shade_scratch_create(const mos_allocator *a);
void shade_scratch_destroy(shade_scratch *s, const mos_allocator *a);
/* Makes room for a fragment shader's scratch of `bytes` (before a frame). */
mos_result shade_scratch_reserve(shade_scratch *s, size_t bytes, const mos_allocator *a);
void *shade_user_scratch(shade_scratch *s);
/* The build of the shade stage to run, and the instruction set the fragment
 * shaders are told (per bin, from the frame). */
void backend_shade_isa(shade_scratch *ss, const backend_isa *hot);
/* Shades n pixel quads (the 2D path), with cells each lane standing for its
 * pixel (frame_blur.cells). */
void backend_shade(shade_scratch *ss, const raster_quad *quads, int n, int spp, bool cells, shade_result *out);
/* Shades n quads whose 4 lanes each sit at (x, y)[4 q + lane] in the
 * planes' space of tris[q] (the decoupled shading grid), lane_px[q] pixels
 * apart (the shader's texture levels are taken per pixel), with cells each
 * lane standing for its cell of the grid (mos_fs_batch.cells); all lanes
 * live. */
void backend_shade_points(shade_scratch *ss, const frame_tri *const *tris, const float *x, const float *y,
                          const float *lane_px, bool cells, int n, shade_result *out);
uint32_t backend_blend(mos_blend mode, uint32_t src, uint32_t dst);
/* The ROP's rule for one sample (colour/depth index idx) of a draw: depth
 * test, depth write, blend.  false when the depth test rejected it.  Both
 * entries of the ROP (rop.c) write samples through it (its four-at-a-time
 * path does the same). */
static inline bool backend_rop_sample(frame_target *t, const frame_draw *d, size_t idx, float z, uint32_t src)
{
    if (d->depth_test && !(z < t->depth[idx])) return false;
    if (d->depth_write) t->depth[idx] = z;
    t->color[idx] = d->blend == MOS_BLEND_OPAQUE ? src : backend_blend(d->blend, src, t->color[idx]);
    return true;
}
/* The ROP, one stage with two entries, each in API order: shaded quads of
 * the 2D path (the depth of quad q's slot k is z[q * RASTER_Z_STRIDE(spp)
 * + k], raster_fn), and single samples of the stochastic back-end, which
 * decouple.c's drain writes one by one as it colours them
 * (backend_rop_write). */
void backend_rop(frame_target *t, const raster_quad *quads, const float *z, int n, const shade_result *res);
/* The ROP of a run of single samples: tri_area is the inspection map or
 * NULL; `draw` the last draw seen, `plain` whether it is the common case
 * (opaque, depth test and write, nothing inspected), which skips the
 * draw's flags. */
typedef struct rop_run {
    float *tri_area;
    const frame_draw *draw;
    bool plain;
} rop_run;
static inline rop_run backend_rop_run(const frame_target *t)
{
    return (rop_run){.tri_area = frame_target_records(t, MOS_INSPECT_TRIANGLE_AREA) ? t->inspect.tri_area
                                                                                              : NULL};
}
static inline void backend_rop_write(frame_target *t, rop_run *r, const frame_tri *tri, size_t idx, float z, uint32_t rgba)
{
    const frame_draw *d = tri->draw;
    if (d != r->draw) {
        r->draw = d;
        r->plain = d->blend == MOS_BLEND_OPAQUE && d->depth_test && d->depth_write && !r->tri_area;
    }
    if (r->plain) {
        if (z < t->depth[idx]) {
            t->depth[idx] = z;
            t->color[idx] = rgba;
        }
        return;
    }
    if (backend_rop_sample(t, d, idx, z, rgba) && r->tri_area)
        r->tri_area[idx / (size_t)t->samples] = backend_tri_area_px(tri);
}

#endif
