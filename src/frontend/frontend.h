/* frontend.h — the front-end thread's entry point (frontend_run_frame) and
 * its stages: vertex, clip, setup of sharp and blurred triangles.  What it
 * produces (frame_tri, frame_tri_blur) is declared in frame/frame.h.
 * Fed by sched (one frame at a time); feeds binning. */
#ifndef MOSAIC_FRONTEND_H
#define MOSAIC_FRONTEND_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "frame/frame.h"
#include "util/alloc.h"

/* The front-end's per-context state. */
typedef struct frontend frontend;
frontend *frontend_create(const mos_allocator *a);
void frontend_destroy(frontend *fe);
/* Runs one frame on the front-end thread: vertex, clip, cull, setup,
 * coarse + fine binning, each bin's work handed to its owner through d. */
void frontend_run_frame(frontend *fe, frame_state *f, const frame_dispatch *d);

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

/* The vertex stage of one draw, in chunks of FE_VERTEX_CHUNK vertices
 * that may run on any thread (vertex.c).  Outputs: post[n] and
 * var[n * varying_count], and for a moving draw in a stochastic frame
 * clip1[n * 4], the clip positions at t = 1 (else NULL).  MSAA frames see
 * moving and lens-sheared draws at the pinhole (u, v, t). */
#define FE_VERTEX_CHUNK 256
typedef struct fe_vertices {
    fe_post *post;
    float *var, *clip1;
    bool moving, warp;  /* shaded at t = 1 too; warped to the pinhole */
    uint32_t chunks;
} fe_vertices;
/* One thread's working memory for chunks: positions at t = 0 and t = 1,
 * varyings at t = 1 (discarded). */
typedef struct fe_vertex_temp {
    float *clip, *clip1, *var1;
} fe_vertex_temp;
bool fe_vertex_temp_init(fe_vertex_temp *t, int max_varyings, arena *ar);
/* Allocates the outputs of d's vertex stage; false when out of memory. */
bool fe_vertex_begin(fe_vertices *v, const frame_draw *d, const frame_blur *fb, arena *ar);
/* Shades and classifies chunk `chunk` of d's vertices into v; scratch is
 * the vertex shader's (d->scratch_bytes), isa the instruction set it is told. */
void fe_vertex_chunk(const fe_vertices *v, uint32_t chunk, const frame_draw *d, const fe_viewport *vp,
                     const frame_blur *fb, mos_isa isa, const fe_vertex_temp *tmp, void *scratch);

/* A vertex as clipping sees it: clip position plus varyings. */
typedef struct fe_vertex {
    float clip[4];
    float var[MOS_MAX_VARYINGS];
} fe_vertex;

/* Clips a triangle against near/far, w > 0 and the guard band.  Writes up to
 * FE_CLIP_MAX_TRIS triangles as vertex triples into out; returns the count. */
/* The most memory the front-end's arena takes for one frame (transformed
 * vertices, set-up triangles, bin lists), and each worker's arena (the
 * triangles it sets up for the front-end); a frame that needs more ends
 * with MOS_ERR_OUT_OF_MEMORY and an incomplete image.  Bin lists have a
 * tighter limit of their own (binning.h). */
#define FRAME_MEMORY_LIMIT ((size_t)4 << 30)

#define FE_CLIP_MAX_VERTS 10
#define FE_CLIP_MAX_TRIS (FE_CLIP_MAX_VERTS - 2)
int fe_clip_triangle(const fe_vertex in[3], int varying_count, float guard_x, float guard_y,
                     fe_vertex out[FE_CLIP_MAX_TRIS][3]);
/* The same against the near plane and w > 0 only: for a triangle seen
 * through a lens that does not move, whose shear moves x and y but not z
 * or w, so these planes cut it the same way from every point of the lens
 * (and its pieces have a reference view, fe_setup_blurred's). */
int fe_clip_triangle_near(const fe_vertex in[3], int varying_count, fe_vertex out[FE_CLIP_MAX_TRIS][3]);

/* The depth, 1/w and varying/w planes of t from vertex 0 at (x0, y0) and
 * vertices 1, 2 at offsets d1, d2 (pixels; inv_det = 1 / (d1 x d2)). */
void fe_setup_planes(frame_tri *t, float x0, float y0, float d1x, float d1y, float d2x, float d2y, float inv_det,
                     const float z[3], const float inv_w[3], const float *const var[3], int varying_count);

/* Bytes of a set-up triangle of d (a multiple of 64, as the slots of one
 * draw's triangles are laid out). */
#define FE_ROUND64(n) (((n) + (size_t)63) & ~(size_t)63)
static inline size_t fe_tri_bytes(const frame_draw *d)
{
    return FE_ROUND64(sizeof(frame_tri) + (size_t)d->varying_count * sizeof(float[3]));
}

/* Sets up into t (fe_tri_bytes(d), 64-byte aligned) a triangle whose
 * vertices are inside every clip plane (post) with their varyings (var[i]
 * points at varying_count floats).  false when it is culled (back-facing,
 * zero area, no pixel centre region on screen). */
bool fe_setup_triangle(const fe_post *const post[3], const float *const var[3], const frame_draw *d,
                       const fe_viewport *vp, frame_tri *t);

/* blur.c: pixel bounds (x0, y0, x1, y1, inclusive) of what b covers while
 * u, v, t stay within range[0], range[1], range[2] (the lens square, not
 * only the disk); false when that is nothing on a width x height screen. */
bool fe_blur_bounds(const frame_tri_blur *b, const float range[3][2], int width, int height, int32_t out[4]);

/* blur.c: sets up into slot (fe_blurred_bytes, 64-byte aligned: the
 * triangle, its frame_tri_blur and rank bounds) a triangle from clip positions at
 * t = 0 and t = 1 (NULL for a draw that does not move) under the frame's
 * lens.  NULL when it is culled.  Only for draws that move or see a lens. */
size_t fe_blurred_bytes(const frame_draw *d, const frame_blur *fb);
/* Copies a set-up triangle of `bytes` (sharp, or blurred with its frame_tri_blur
 * and rank bounds in the same block) from src to dst (64-byte aligned),
 * pointing the copy's pointers into the copy. */
frame_tri *fe_tri_move(void *dst, const void *src, size_t bytes);
/* Whether the frame's lens shears anything on a viewport this size (the
 * test fe_setup_blurred makes: a draw that neither moves nor sees a lens is
 * set up sharp). */
bool fe_blur_has_lens(const frame_blur *fb, const fe_viewport *vp);
frame_tri *fe_setup_blurred(const float *const clip0[3], const float *const clip1[3], const float *const var[3],
                         const frame_draw *d, const frame_blur *fb, const fe_viewport *vp, void *slot);

#endif
