/* frontend.h — what flows out of the front-end: recorded draws (fe_draw),
 * set-up triangles (fe_tri) and the frame they belong to (pipe_frame).
 * Fed by the api (draw recording); read by binning and the back-end. */
#ifndef MOSAIC_FRONTEND_H
#define MOSAIC_FRONTEND_H

#include <stdbool.h>
#include <stdint.h>

#include "mosaic.h"
#include "util/alloc.h"

struct rt_target;
struct pattern_table;
struct sched;
struct fe_tri;
struct raster_view;
struct raster_quad;
struct raster_counts;

/* One triangle's coverage over a pixel rectangle (raster/raster.h says
 * what it does; raster/select.c picks the instruction set). */
typedef int (*raster_fn)(const struct fe_tri *t, const struct raster_view *v, int x0, int y0, int x1, int y1,
                         struct raster_quad *out, struct raster_counts *counts);

/* A draw frozen at mos_draw: everything a worker needs to shade and ROP. */
typedef struct fe_draw {
    mos_vertex_fn vertex;
    mos_fragment_fn fragment;
    int varying_count;
    const float *vertices;
    int vertex_stride, vertex_count;
    const uint32_t *indices;  /* NULL = non-indexed */
    int first_index, prim_count;
    const void *uniforms;     /* copy in the frame arena */
    const mos_sampler *samplers[MOS_MAX_TEXTURES];
    bool depth_test, depth_write;
    mos_cull cull;
    mos_blend blend;
} fe_draw;

/* A triangle after clip, cull and setup, in window space (y up).  Edge
 * functions work on 24.8 fixed-point coordinates (8 sub-pixel bits):
 *   E_i(X, Y) = a[i] * X + b[i] * Y + c[i], covered iff all three >= 0,
 * with the top-left rule folded into c.  Depth, 1/w and varying/w are
 * affine planes over window pixels relative to (x0, y0). */
typedef struct fe_tri {
    const fe_draw *draw;
    int32_t min_x, min_y, max_x, max_y;  /* pixels that may hold a covered sample */
    int32_t a[3], b[3];
    int64_t c[3];
    float x0, y0;
    float z[3];      /* window depth: z[0] + z[1] * dx + z[2] * dy */
    float inv_w[3];  /* 1/w plane */
    uint32_t varying_count;
    float varying[][3]; /* varying_count planes of v/w */
} fe_tri;

static inline float fe_plane(const float p[3], float dx, float dy)
{
    return p[0] + p[1] * dx + p[2] * dy;
}

/* The frame as the api hands it over: read-only for everyone after that
 * but for the statistics each stage owns. */
typedef struct pipe_frame {
    uint32_t serial;  /* never 0: lazy per-bin clear stamps compare with it */
    struct rt_target *target;
    uint32_t clear_color;  /* packed RGBA8 */
    float clear_depth;
    const fe_draw *draws;
    uint32_t draw_count;
    const struct pattern_table *pattern;
    int bin_px, coarse_px, batch, early;
    raster_fn raster;  /* raster_triangle for this CPU (raster/select.c) */
    double t_start_ms;
    /* front-end statistics */
    double frontend_ms, frontend_stall_ms;
    uint64_t triangles_in, triangles_binned, bin_refs, bin_items;
    mos_result status;  /* MOS_OK, or out of memory in the front-end */
} pipe_frame;

/* The front-end's per-context state. */
typedef struct frontend frontend;
frontend *frontend_create(const mos_allocator *a);
void frontend_destroy(frontend *fe);
/* Runs one frame on the front-end thread: vertex, clip, cull, setup,
 * coarse + fine binning, dispatch to the workers of s. */
void frontend_run_frame(frontend *fe, pipe_frame *f, struct sched *s);

/* Stage functions (vertex.c, clip.c, setup.c). */

/* A vertex after the vertex stage: clip position, the planes it lies
 * outside of (FE_OUT_* bits), and when it is inside all of them its
 * window position snapped to 24.8 fixed point, window depth and 1/w. */
enum {
    FE_OUT_NEAR = 1, FE_OUT_FAR = 2, FE_OUT_W = 4, FE_OUT_LEFT = 8, FE_OUT_RIGHT = 16, FE_OUT_BOTTOM = 32,
    FE_OUT_TOP = 64, FE_OUT_ALL = 127
};
typedef struct fe_post {
    float clip[4];
    uint32_t outcode;
    int32_t x_q8, y_q8;
    float z, inv_w;
} fe_post;

/* The viewport: window size and the guard band in NDC units. */
typedef struct fe_viewport {
    int width, height;
    float guard_x, guard_y;
} fe_viewport;

/* Outcode and window position of one clip-space vertex (the one formula
 * the vertex stage and clipping share, so shared vertices snap alike). */
void fe_post_from_clip(fe_post *p, const float clip[4], const fe_viewport *vp);
/* Window position, depth and 1/w of p->clip (w > 0), whatever its outcode. */
void fe_post_window(fe_post *p, const fe_viewport *vp);

/* Runs the vertex shader over all vertices of d; fills post[n] and
 * var[n * varying_count] (arena memory).  false when out of memory. */
bool fe_vertex_stage(const fe_draw *d, const fe_viewport *vp, arena *ar, fe_post **post, float **var);

/* A vertex as clipping sees it: clip position plus varyings. */
typedef struct fe_vertex {
    float clip[4];
    float var[MOS_MAX_VARYINGS];
} fe_vertex;

/* Clips a triangle against near/far, w > 0 and the guard band.  Writes up to
 * FE_CLIP_MAX_TRIS triangles as vertex triples into out; returns the count. */
#define FE_CLIP_MAX_VERTS 10
#define FE_CLIP_MAX_TRIS (FE_CLIP_MAX_VERTS - 2)
int fe_clip_triangle(const fe_vertex in[3], int varying_count, float guard_x, float guard_y,
                     fe_vertex out[FE_CLIP_MAX_TRIS][3]);

/* Sets up a triangle whose vertices are inside every clip plane (post) with
 * their varyings (var[i] points at varying_count floats).  Returns NULL when
 * it is culled (back-facing, zero area, no pixel centre region on screen),
 * or when out of memory (then *out_of_memory is set). */
fe_tri *fe_setup_triangle(const fe_post *const post[3], const float *const var[3], const fe_draw *d,
                          const fe_viewport *vp, arena *ar, bool *out_of_memory);

#endif
