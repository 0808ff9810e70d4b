/* backend.h — the back-end's entry points: the per-bin work a worker runs
 * (raster -> shade -> ROP, backend_run_bin; resolve of owned bins at frame
 * end), the render target's storage, the per-worker scratch and the table of
 * per-ISA hot loops.  Its stages' own declarations are in stages.h.
 * Fed by sched/sched.c with FRAME_WORK_BIN items; writes only the bin it is given. */
#ifndef MOSAIC_BACKEND_H
#define MOSAIC_BACKEND_H

#include <stdint.h>

#include "frame/frame.h"
#include "raster/raster.h"
#include "shader/shader.h"
#include "util/alloc.h"

mos_result backend_target_init(frame_target *t, int width, int height, int samples, const mos_allocator *a);
void backend_target_release(frame_target *t, const mos_allocator *a);
/* Sizes bin_stamp for a bin grid (all bins "not cleared"). */
mos_result backend_target_bin_grid(frame_target *t, int bin_px, const mos_allocator *a);
/* Draws the (u, v, t) tables again for another pattern seed (no-op when
 * unchanged).  MOS_ERR_OUT_OF_MEMORY leaves the old tables. */
mos_result backend_target_uvt_seed(frame_target *t, uint32_t seed, const mos_allocator *a);
/* Before a frame (api thread, bin grid set): sizes and zeroes the records
 * WHAT asks for and copies the pattern's owners. */
mos_result backend_target_inspect_begin(frame_target *t, unsigned what, const uint16_t *owner, const mos_allocator *a);

/* What the shade stage hands the ROP, and the per-ISA shade entries of the
 * table below (stages.h says more). */
#define BACKEND_SHADE_LANES (4 * MOS_MAX_BATCH_QUADS)  /* the most one fragment-shader call takes */
typedef struct shade_result {
    uint32_t rgba[4];   /* per lane, packed RGBA8 */
    uint8_t discard[4];
} shade_result;
typedef struct shade_scratch shade_scratch;
typedef void (*shade_quads_fn)(shade_scratch *ss, const raster_quad *quads, int n, int spp, bool cells,
                               shade_result *out);
typedef void (*shade_points_fn)(shade_scratch *ss, const frame_tri *const *tris, const float *x, const float *y,
                                const float *lane_px, bool cells, int n, shade_result *out);
/* The resolve's lookup of a row of sixteen visibility-buffer entries in
 * its table of recent grid quads (recent_quads.h): the visible lanes it
 * did not answer, and the visible lanes << 16. */
typedef struct recent_quads recent_quads;
typedef uint32_t (*recent_row_fn)(const recent_quads *R, const uint32_t *tri, const int32_t *gx, const int32_t *gy,
                                  int32_t *code);
/* The same for a bilinear run's four taps, and the mix of a row's taps
 * (bilinear_row_tmp.h). */
typedef uint64_t (*bilinear_row_fn)(const recent_quads *R, const uint32_t *tri, const float *sx, const float *sy,
                                    int32_t *taps);
typedef void (*mix_row_fn)(const uint32_t *rgba, const int32_t *taps, const float *sx, const float *sy,
                           uint32_t visible, uint32_t *color, int32_t *nearest);
/* The resolve's WRITE of a row of sixteen entries (resolve_row_tmp.h):
 * its lanes as sets of bits, what each lane writes where (or adds to its
 * pixel's sums), and the blur area's record (last_pixel; NULL: none);
 * returns the blur area's new points (low 32 bits) and references (high
 * 32). */
typedef struct resolve_row {
    uint32_t visible;  /* lanes some triangle covers: they count for the blur area */
    uint32_t kept;     /* of those, the ones written (not discarded) */
    uint32_t fill;     /* lanes written with the clear values */
    const int32_t *code;   /* per lane: its (nearest) grid point's code, entry * 4 + lane */
    const uint32_t *rgba;  /* per lane: its colour, or NULL: the cache's at code */
    const float *z;        /* per lane: its depth */
    uint32_t clear_color;
    float clear_depth;
    int32_t idx[16];       /* per lane: its sample in the target */
    uint32_t pixel[16];    /* per lane: its pixel */
    uint32_t *sum;  /* NULL, or instead of writing, the lanes' colours added to their pixels' sums per
                     * channel: [l] red + blue << 16, [16 + l] green + alpha << 16 (at most 64 x 255 each) */
} resolve_row;
typedef uint64_t (*write_row_fn)(const resolve_row *w, const uint32_t *shaded, uint32_t *last_pixel, uint32_t *color,
                                 float *depth);
/* write_row's sums for whole rows of a block, its common case (nearest
 * grid points, nothing discarded, no blur area): rows [0, n) of sixteen
 * codes, row g's visible lanes visible[g]; a visible lane adds
 * shaded[code], another lane in `inside` clear_color.  Returns the count
 * of visible lanes. */
typedef uint32_t (*sum_rows_fn)(const uint32_t *shaded, const int32_t *code, const uint16_t *visible, int n,
                                uint32_t inside, uint32_t clear_color, uint32_t *sum);

/* The hot loops for one instruction set (isa.c), resolved once per
 * context: the table every stage's per-ISA bodies hang off, the raster
 * stage's and the back-end's here, the shader stage's row (the texture
 * sampler, the VM, the built-in shaders) by pointer, since the shaders'
 * batches find that row themselves (shader_isa.h). */
typedef struct backend_isa {
    mos_isa isa;
    raster_fn raster;
    stoch_walk_fn stoch_walk;
    shade_quads_fn shade_quads;
    shade_points_fn shade_points;
    recent_row_fn recent_row;
    bilinear_row_fn bilinear_row;
    mix_row_fn mix_row;
    write_row_fn write_row;
    sum_rows_fn sum_rows;
    const shader_isa *shader;  /* shader_isa_select(isa); its sample is the context's textures' */
} backend_isa;
/* The ISA that `want` resolves to on this CPU (MOS_ISA_AUTO if unavailable). */
mos_isa backend_isa_available(mos_isa want);
const backend_isa *backend_isa_select(mos_isa isa);

typedef struct backend_scratch backend_scratch;
backend_scratch *backend_scratch_create(const mos_allocator *a);
/* Before a frame (api thread): sizes the fragment shaders' scratch for the
 * frame's draws and, when the frame needs one, the stochastic back-end's
 * shading cache.  MOS_ERR_OUT_OF_MEMORY on failure. */
mos_result backend_scratch_reserve(backend_scratch *s, const frame_state *f, const mos_allocator *a);
void backend_scratch_destroy(backend_scratch *s, const mos_allocator *a);
/* The worker's shader scratch, as large as any draw of the frame asks
 * (NULL if none): its fragment batches', and the vertex batches' it runs
 * for the front-end (frame_job). */
void *backend_shader_scratch(backend_scratch *s);

/* Renders triangles tris[0..n) (API order) into fine bin `bin`; LAST: no
 * later work of the frame has the bin (frame_work_item.last): a deferred
 * run leaves its depth out, and the bin is resolved (resolve_stamp). */
void backend_run_bin(backend_scratch *s, const frame_state *f, uint32_t bin, const frame_tri *const *tris,
                     uint32_t n, bool last, frame_worker_stats *st);
/* Resolves bin `bin` (samples -> pixels) into target->resolved, once a
 * frame (frame_target.resolve_stamp). */
void backend_resolve_bin(const frame_state *f, uint32_t bin);

/* A 0..1 colour channel as 8 bits: clamped, rounded, NaN -> 0.  The one
 * conversion for shader outputs and clear colours. */
static inline uint32_t unorm8(float v)
{
    v = v > 0.0f ? v : 0.0f;
    v = v < 1.0f ? v : 1.0f;
    return (uint32_t)(int32_t)(v * 255.0f + 0.5f);
}

#endif
