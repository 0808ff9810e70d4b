/* frontend.h — what flows out of the front-end: recorded draws (fe_draw),
 * set-up triangles (fe_tri) and the frame they belong to (pipe_frame).
 * Fed by the api (draw recording); read by binning and the back-end. */
#ifndef MOSAIC_FRONTEND_H
#define MOSAIC_FRONTEND_H

#include <stdatomic.h>
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
/* A 4x4 block of pixels against a blurred triangle, one sample each
 * (raster/stoch.h says what it does; raster/stoch_block.c picks the ISA). */
struct fe_blur;
struct stoch_hits;
typedef uint32_t (*stoch_block_fn)(const struct fe_blur *b, int x0, int y0, const float *lanes, uint32_t mask,
                                   struct stoch_hits *out);

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
    const void *uniforms_t1;  /* at shutter close (motion blur), or NULL */
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
    const struct fe_blur *blur;  /* NULL: static and sharp (the 2D edges below hold) */
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

/* A triangle that moves during the shutter or is seen through a lens.  Its
 * fe_tri has bounds over the whole shutter and lens, zero edges (binning
 * never rejects a bin by them) and the planes of the shading reference:
 * the triangle at t = 0 seen from the lens centre (t = 1 when that one is
 * degenerate, else a barycentric parameter grid).  Vertices are in
 * window-homogeneous coordinates (X, Y, Z, W): window x = X / W. */
enum fe_blur_kind { FE_BLUR_MOTION = 1, FE_BLUR_DEFOCUS = 2, FE_BLUR_BOTH = 3 };
typedef struct fe_blur {
    int kind;
    bool cull_back;
    float p[3][4], dp[3][4];  /* at t = 0; change to t = 1 */
    float sx, sy, focus;      /* lens: X += u * sx * (W - focus), Y += v * sy * (W - focus) */
    /* Edge e (vertices e+1, e+2): homogeneous line c = c0 + a * c1 + b * c2
     * (MOTION: c0 + t * c1 + t^2 * c2, i.e. a = t, b = t^2; DEFOCUS: a = u,
     * b = v; unused for BOTH, which warps the vertices per sample), built
     * from the two vertices in a canonical order so triangles sharing an
     * edge compute the same bits; sign restores triangle order. */
    float c0[3][3], c1[3][3], c2[3][3];
    float sign[3];
    float ref[3][3];  /* vertex i of the reference as (x W, y W, W) in its grid space */
    float rate;       /* shading-grid points per unit of the reference space */
    /* The rasterizer visits the samples rank by rank (raster.h): ranked by
     * time when the triangle moves, else by lens u.  rank_box[j] bounds
     * what it covers at rank j (x0, y0, x1, y1 inclusive; empty: x0 > x1;
     * 16 bits suffice for targets up to 16384 pixels). */
    int rank_key;
    int16_t (*rank_box)[4];
} fe_blur;

/* out = a x b (3-vectors): the homogeneous line through two points. */
static inline void fe_cross3(float out[3], const float a[3], const float b[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Frame-wide blur settings the front-end and the workers read. */
typedef struct frame_blur {
    mos_sampling mode;      /* MSAA, DECOUPLED or SUPERSAMPLE (AUTO resolved) */
    bool stochastic;        /* workers run the stochastic back-end (backend/decouple.c) */
    bool motion;            /* draws with uniforms_t1 move */
    float lens_x, lens_y, focus_w;
    float pinhole[3];       /* MSAA: u, v, t every draw is seen at */
    float rate;             /* shading-grid points per pixel edge */
    bool adaptive, bilinear;
    int cache_quads;
    /* The target's samples ranked by time (FE_RANK_T) and lens u
     * (FE_RANK_U): ranks and, per key, the [min, max] of each rank. */
    int ranks;
    const float (*rank_range[2])[2];
} frame_blur;
#define FE_RANK_T 0
#define FE_RANK_U 1

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
    stoch_block_fn stoch_block;  /* stoch_block for this CPU (raster/stoch_block.c) */
    frame_blur blur;
    double t_start_ms;
    /* front-end statistics */
    double frontend_ms, frontend_stall_ms;
    uint64_t triangles_in, triangles_binned, bin_refs, bin_items, triangles_blurred;
    mos_result status;  /* MOS_OK, or out of memory in the front-end */
    bool over_memory_limit;  /* out of memory: the frame passed FE_FRAME_MEMORY_LIMIT */
    uint64_t bin_ref_limit;  /* set when the frame passed the binner's limit on bin references */
    atomic_bool abandoned;  /* the front-end failed: workers skip the remaining bins */
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
 * var[n * varying_count] (arena memory), and for a moving draw in a
 * stochastic frame clip1[n * 4], the clip positions at t = 1 (else NULL).
 * MSAA frames see moving and lens-sheared draws at the pinhole (u, v, t).
 * false when out of memory. */
bool fe_vertex_stage(const fe_draw *d, const fe_viewport *vp, const frame_blur *fb, arena *ar, fe_post **post,
                     float **var, float **clip1);

/* A vertex as clipping sees it: clip position plus varyings. */
typedef struct fe_vertex {
    float clip[4];
    float var[MOS_MAX_VARYINGS];
} fe_vertex;

/* Clips a triangle against near/far, w > 0 and the guard band.  Writes up to
 * FE_CLIP_MAX_TRIS triangles as vertex triples into out; returns the count. */
/* The most memory the front-end takes for one frame (transformed vertices,
 * set-up triangles, bin lists); a frame that needs more ends with
 * MOS_ERR_OUT_OF_MEMORY and an incomplete image.  Bin lists have a tighter
 * limit of their own (binning.h). */
#define FE_FRAME_MEMORY_LIMIT ((size_t)4 << 30)

#define FE_CLIP_MAX_VERTS 10
#define FE_CLIP_MAX_TRIS (FE_CLIP_MAX_VERTS - 2)
int fe_clip_triangle(const fe_vertex in[3], int varying_count, float guard_x, float guard_y,
                     fe_vertex out[FE_CLIP_MAX_TRIS][3]);

/* Sets up a triangle whose vertices are inside every clip plane (post) with
 * their varyings (var[i] points at varying_count floats).  Returns NULL when
 * it is culled (back-facing, zero area, no pixel centre region on screen),
 * or when out of memory (then *out_of_memory is set). */
/* The depth, 1/w and varying/w planes of t from vertex 0 at (x0, y0) and
 * vertices 1, 2 at offsets d1, d2 (pixels; inv_det = 1 / (d1 x d2)). */
void fe_setup_planes(fe_tri *t, float x0, float y0, float d1x, float d1y, float d2x, float d2y, float inv_det,
                     const float z[3], const float inv_w[3], const float *const var[3], int varying_count);

fe_tri *fe_setup_triangle(const fe_post *const post[3], const float *const var[3], const fe_draw *d,
                          const fe_viewport *vp, arena *ar, bool *out_of_memory);

/* blur.c: pixel bounds (x0, y0, x1, y1, inclusive) of what b covers while
 * u, v, t stay within range[0], range[1], range[2] (the lens square, not
 * only the disk); false when that is nothing on a width x height screen. */
bool fe_blur_bounds(const fe_blur *b, const float range[3][2], int width, int height, int32_t out[4]);

/* blur.c: sets up a triangle from clip positions at t = 0 and t = 1 (NULL
 * for a draw that does not move) under the frame's lens.  Returns NULL when
 * it is culled, or static and sharp (*sharp set: use clipping and setup),
 * or out of memory (*out_of_memory set). */
fe_tri *fe_setup_blurred(const float *const clip0[3], const float *const clip1[3], const float *const var[3],
                         const fe_draw *d, const frame_blur *fb, const fe_viewport *vp, arena *ar, bool *sharp,
                         bool *out_of_memory);

#endif
