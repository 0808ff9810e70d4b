/* frame.h — the one contract between stages: what a frame is once the api
 * hands it over (frame_state), the draws and set-up triangles it carries
 * (frame_draw, frame_tri, frame_tri_blur), the render target the workers write
 * (frame_target), the work items the front-end queues for the workers and the
 * statistics each worker keeps.  In the manner of llvmpipe's lp_scene.h:
 * every stage includes this and its neighbours' entry-point headers, never
 * their private ones (`make check-includes`).  Every type here is named
 * frame_*, for the frame it belongs to. */
#ifndef MOSAIC_FRAME_H
#define MOSAIC_FRAME_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mosaic.h"
#include "util/alloc.h"
#include "util/clock.h"

struct pattern_table;
struct backend_isa;

/* Window coordinates are 24.8 fixed point: 8 sub-pixel bits. */
#define FRAME_SUBPIXEL_BITS 8
#define FRAME_SUBPIXELS (1 << FRAME_SUBPIXEL_BITS)
#define FRAME_MAX_POSITIONS 64  /* visibility samples per pixel in all */

/* Sample positions inside a pixel in 1/256 pixel from its lower-left
 * corner: the D3D standard patterns (1/16-pixel grid) up to 16, n-rooks
 * patterns for 27, 32 and 64. */
typedef struct frame_samples {
    int count;
    int32_t dx[FRAME_MAX_POSITIONS], dy[FRAME_MAX_POSITIONS];
    float fx[FRAME_MAX_POSITIONS], fy[FRAME_MAX_POSITIONS];  /* same, in pixels */
} frame_samples;

/* The lens/time pattern as a bounded set of (u, v, t) tuples, each of which
 * the stochastic rasterizer draws as a plain 2D triangle (Fatahalian et
 * al. 2009, interleaved UVT): pixel (x, y) is of class (x & 1) | (y & 1)
 * << 1, each class has its own spp tuples (a low-discrepancy set), and the
 * tuples are held in spp groups of one per class, close together in (u, v,
 * t) so that a group's four triangles nearly coincide: tuple 4 g + c is
 * class c's in group g, its sample index sample[4 g + c] (sample s of a
 * pixel of class c sees the tuple whose sample is s).  lane_sample[g][l]
 * is the sample index that lane l of a 4x4 block (class (l & 1) | (l >> 2
 * & 1) << 1) takes in group g, lane_x / lane_y where that sample lies
 * (raster_tuples_fill). */
#define FRAME_CLASSES 4
#define FRAME_MAX_TUPLES (FRAME_CLASSES * FRAME_MAX_POSITIONS)
typedef struct frame_tuples {
    int spp;
    _Alignas(64) float u[FRAME_MAX_TUPLES], v[FRAME_MAX_TUPLES], t[FRAME_MAX_TUPLES];
    uint8_t sample[FRAME_MAX_TUPLES];
    _Alignas(16) uint8_t lane_sample[FRAME_MAX_POSITIONS][16];
    _Alignas(64) int32_t lane_sample_i32[FRAME_MAX_POSITIONS][16];  /* the same, for 32-bit vector adds */
    /* and that sample's position from the block's lower-left corner, and
     * from its pixel's centre (stoch_lane_offsets at one grid point per
     * pixel: the same in every block) */
    _Alignas(64) float lane_x[FRAME_MAX_POSITIONS][16], lane_y[FRAME_MAX_POSITIONS][16];
    _Alignas(64) float lane_cx[FRAME_MAX_POSITIONS][16], lane_cy[FRAME_MAX_POSITIONS][16];
} frame_tuples;

/* The target's lens/time samples ranked by t and by u, as planes the
 * stochastic rasterizer reads sixteen pixels at a time (layout: raster.h). */
typedef struct frame_ranked {
    int spp;
    float *plane;  /* 64-byte aligned, inside `block` */
    uint8_t *sample;
    void *block;
    float range[2][FRAME_MAX_POSITIONS][2];
} frame_ranked;

/* What a frame records about itself (mos_frame_desc.inspect).  Per-pixel
 * maps are [y * width + x], rows bottom up; per-bin records [bin].  The
 * front-end writes bin_tris / bin_blurred / bin_spread, a bin's owner the
 * rest of its bin's entries and pixels: no two threads share an entry. */
typedef struct frame_inspect {
    unsigned what;           /* mos_inspect bits of the frame that wrote it */
    float *shades;           /* fragment-shader lanes run for the pixel */
    float *overdraw;         /* triangles covering a sample of it that passed the early depth test */
    float *tri_area;         /* area in pixels of the triangle last written there */
    double *bin_ms;
    uint64_t *bin_samples;
    uint32_t *bin_tris, *bin_blurred;
    double *bin_spread;      /* sum over the bin's blurred triangles of their bin spread */
    uint16_t *owner;         /* the frame's pattern table (always copied) */
    mos_bin_grid grid;       /* the frame's bins (frame_target.grid) */
    size_t pixel_cap, bin_cap, owner_cap;  /* elements each group's blocks hold */
} frame_inspect;

/* Colour (RGBA8, r in the low byte) and depth per sample, rows bottom up:
 * sample s of pixel (x, y) is [(y * width + x) * samples + s]. */
typedef struct frame_target {
    int width, height, samples;
    frame_samples positions;  /* (x, y) of each sample in a pixel */
    float *uvt;  /* the lens/time pattern per pixel (raster_uvt_fill) */
    frame_tuples *tuples;  /* the same pattern as tuples (raster_tuples_fill) */
    frame_ranked ranked;  /* its samples ranked by t and u */
    uint32_t *color;
    float *depth;
    uint32_t *resolved;  /* [y][x], bottom up */
    bool keep_samples;   /* every frame stores every sample (mos_target_desc) */
    /* Lazy clear: bin_stamp[bin] == frame serial once the bin's samples
     * were cleared this frame (only the bin's owner reads or writes it). */
    uint32_t *bin_stamp;
    /* and resolve_stamp[bin] == frame serial once the bin was resolved
     * this frame (after its last work, while its samples are in cache, or
     * at the frame's end) */
    uint32_t *resolve_stamp;
    mos_bin_grid grid;  /* the bins of bin_stamp: the fine-bin grid, made once per frame
                         * (backend_target_bin_grid) and carried by frame_state */
    /* The last frame rendered into the target: bins whose stamp differs
     * hold stale samples and read back as last_clear. */
    uint32_t last_serial, last_clear;
    uint32_t uvt_seed;       /* mos_blur_desc.seed the (u, v, t) tables were drawn with */
    frame_inspect inspect;      /* records of the last frame */
    uint32_t *accum;         /* the accumulation buffer: [y][x][channel] sums, bottom up (api/accum.c) */
    int accum_frames;        /* frames in it */
    bool recording;          /* the frame being rendered fills inspect */
} frame_target;

/* Whether the frame being rendered records any of `bits` (mos_inspect). */
static inline bool frame_target_records(const frame_target *t, unsigned bits)
{
    return t->recording && (t->inspect.what & bits) != 0;
}

/* Sample s of pixel (x, y) as the last frame left it (lazy clears applied). */
static inline uint32_t frame_target_sample(const frame_target *t, int x, int y, int s)
{
    if (t->bin_stamp) {
        int bin = (y / t->grid.bin_px) * t->grid.bins_x + x / t->grid.bin_px;
        if (t->bin_stamp[bin] != t->last_serial) return t->last_clear;
    }
    return t->color[((size_t)y * (size_t)t->width + (size_t)x) * (size_t)t->samples + (size_t)s];
}

/* A draw frozen at mos_draw: everything a worker needs to shade and ROP. */
#define FRAME_DEFAULT_BATCH_QUADS 16  /* mos_shader_desc.batch_quads 0 */
typedef struct frame_draw {
    mos_vertex_fn vertex;
    mos_fragment_fn fragment;
    int varying_count;
    void *user;            /* the shader object's (mos_shader_desc.user, scratch_bytes, batch_quads) */
    size_t scratch_bytes;
    int batch_quads;       /* 1..MOS_MAX_BATCH_QUADS quads per fragment batch */
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
    bool never_discards;  /* the shader's promise or the draw's (mos_shader_desc.never_discards) */
} frame_draw;

/* A triangle after clip, cull and setup, in window space (y up).  Edge
 * functions work on 24.8 fixed-point coordinates (8 sub-pixel bits):
 *   E_i(X, Y) = a[i] * X + b[i] * Y + c[i], covered iff all three >= 0,
 * with the top-left rule folded into c.  Depth, 1/w and varying/w are
 * affine planes over window pixels relative to (x0, y0). */
typedef struct frame_tri {
    const frame_draw *draw;
    const struct frame_tri_blur *blur;  /* NULL: static and sharp (the 2D edges below hold) */
    int32_t min_x, min_y, max_x, max_y;  /* pixels that may hold a covered sample */
    int32_t a[3], b[3];
    int64_t c[3];
    float x0, y0;
    float z[3];      /* window depth: z[0] + z[1] * dx + z[2] * dy */
    float inv_w[3];  /* 1/w plane (set when there are varyings) */
    uint16_t varying_count;
    uint16_t flags;  /* FRAME_TRI_* */
    float varying[][3]; /* varying_count planes of v/w */
} frame_tri;

/* frame_tri.flags: FRAME_TRI_SMALL, the vertices lie within FRAME_TRI_SMALL_PX
 * pixels of each other in x and in y, so the edge values of every sample
 * within 8 pixels of the triangle's bounds fit in 32 bits (|a|, |b| <
 * 2^12, distances < 2^13 sub-pixels: |E| < 2^26); the rasterizer takes its
 * one-block path on them. */
#define FRAME_TRI_SMALL 1u
#define FRAME_TRI_SMALL_PX 16

static inline float frame_plane(const float p[3], float dx, float dy)
{
    return p[0] + p[1] * dx + p[2] * dy;
}

/* A triangle that moves during the shutter or is seen through a lens.  Its
 * frame_tri has bounds over the whole shutter and lens, zero edges (binning
 * never rejects a bin by them) and the planes of the shading reference:
 * the triangle at t = 0 seen from the lens centre (t = 1 when that one is
 * degenerate, else a barycentric parameter grid).  Vertices are in
 * window-homogeneous coordinates (X, Y, Z, W): window x = X / W. */
enum frame_blur_kind { FRAME_BLUR_MOTION = 1, FRAME_BLUR_DEFOCUS = 2, FRAME_BLUR_BOTH = 3 };
typedef struct frame_tri_blur {
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
    bool centred;     /* frame_blur.centred, where the reference is in window pixels (not the barycentric grid) */
    /* The rasterizer visits the samples rank by rank (raster.h): ranked by
     * time when the triangle moves, else by lens u; rank holds where the
     * triangle can be at each rank (below). */
    int rank_key;
    int rank_shift;   /* rank bounds are in 2^-rank_shift pixels */
    int16_t *rank;    /* end e of rank j at rank[e * FRAME_RANK_STRIDE(ranks) + j] */
    /* Edge bounds (below), when `edges` (else their rows are not written):
     * direction k's unit normal and the origin its ends count from, in
     * pixels. */
    bool edges;
    float edge_n[3][2], edge_o[3];
} frame_tri_blur;

/* Where a blurred triangle can be while the lens and shutter stay inside
 * one rank's slice of them (the rank's range of u, or of t with u in
 * [-1, 1]; v in [-1, 1]), per sample: at lens position (u, v) its image
 * lies in x_lo(u) <= x <= x_hi(u) and y_lo(v) <= y <= y_hi(v), window
 * pixels, each bound a line through its values at the two ends of the
 * range (the low end first): the dual-space bounds of Laine et al. (a
 * warped vertex is linear in u at a fixed t and monotone in t, so the
 * chord of the extreme corners bounds them all).  Rounded outward to
 * 2^-rank_shift pixels; the rank's pixel box is their extent (empty:
 * x_lo above x_hi at both ends).  Stored end by end over the ranks (the
 * rasterizer finds the ranks that meet a bin sixteen at a time), each
 * row padded to a multiple of 16 ranks with empty ones. */
enum { FRAME_RANK_XL0, FRAME_RANK_XL1, FRAME_RANK_YL0, FRAME_RANK_YL1,
       FRAME_RANK_XH0, FRAME_RANK_XH1, FRAME_RANK_YH0, FRAME_RANK_YH1,
       FRAME_RANK_ENDS };
/* The same bounds along three more directions n_k, the outward normals of
 * the triangle's edges at mid-shutter through the lens centre: at lens
 * position (u, v) the image lies in n_k . (x, y) <= h_k(s), s = n_kx sx u +
 * n_ky sy v, h_k the chord through its values at the two ends of the rank's
 * s range (low end first), stored as edge_o[k] + end * 2^-rank_shift after
 * the box's ends (row FRAME_RANK_ENDS + 2k + end); INT16_MAX: no bound (and
 * none at all unless frame_tri_blur.edges).  Box and edges are Laine et al.'s
 * dual-space bounds along seven directions, so a rank tests a sample
 * against the triangle's swept outline, not its box. */
#define FRAME_RANK_EDGE_ROWS 6
#define FRAME_RANK_ROWS (FRAME_RANK_ENDS + FRAME_RANK_EDGE_ROWS)
#define FRAME_RANK_STRIDE(ranks) (((ranks) + 15) & ~15)

/* The s range of edge bound k over lens u in [u0, u1], v in [-1, 1]: the
 * front-end's chord ends and the rasterizer's line take it from here. */
static inline void frame_edge_s_range(const frame_tri_blur *b, int k, float u0, float u1, float *s_lo, float *s_hi)
{
    const float s_u0 = b->edge_n[k][0] * b->sx * u0, s_u1 = b->edge_n[k][0] * b->sx * u1;
    const float s_v = b->edge_n[k][1] * b->sy, half_v = s_v < 0.0f ? -s_v : s_v;  /* v in [-1, 1] */
    *s_lo = (s_u0 < s_u1 ? s_u0 : s_u1) - half_v;
    *s_hi = (s_u0 > s_u1 ? s_u0 : s_u1) + half_v;
}

/* out = a x b (3-vectors): the homogeneous line through two points. */
static inline void frame_cross3(float out[3], const float a[3], const float b[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* The fine bin of frames the stochastic back-end draws when the pipeline
 * leaves the bin size to the library: a walk's set-up per (triangle, bin)
 * and the shading cache's reach per bin pay for a larger bin. */
#define FRAME_BLUR_BIN_PX 32
/* And for decoupled blur, whose visibility buffer holds a whole bin (64 x
 * 64 pixels at 64 samples, VIS_MAX_ENTRIES): 3-12 % faster than 32 at 1080p
 * on the blur scenes, 8-64 spp (bench/RESULTS.md), where the target has
 * enough such bins to share among the workers. */
#define FRAME_DECOUPLED_BIN_PX 64
#define FRAME_DECOUPLED_BINS_PER_WORKER 16

/* Frame-wide blur settings the front-end and the workers read. */
typedef struct frame_blur {
    mos_sampling mode;      /* MSAA, DECOUPLED or SUPERSAMPLE (AUTO resolved) */
    bool stochastic;        /* workers run the stochastic back-end (backend/decouple.c) */
    bool every_triangle;    /* for every triangle, not only the blurred ones (decided once, api/frame.c) */
    bool motion;            /* draws with uniforms_t1 move */
    float lens_x, lens_y, focus_w;
    float pinhole[3];       /* MSAA: u, v, t every draw is seen at */
    float jitter_x, jitter_y;  /* MSAA: clip x, y moved by these times w (mos_blur_desc.pixel_offset) */
    float rate;             /* shading-grid points per pixel edge */
    bool adaptive, bilinear;
    bool cells;             /* a shade stands for its cell (mos_fs_batch.cells): DECOUPLED, blurred, nearest lookups */
    bool centred;           /* grid points from the samples' pixel centres (stoch_lane_offsets): DECOUPLED */
    int cache_quads;
    /* The target's samples ranked by time (FRAME_RANK_T) and lens u
     * (FRAME_RANK_U): ranks and, per key, the [min, max] of each rank. */
    int ranks;
    const float (*rank_range[2])[2];
} frame_blur;
#define FRAME_RANK_T 0
#define FRAME_RANK_U 1

/* The frame as the api hands it over: read-only for everyone after that
 * but for the statistics each stage owns. */
typedef struct frame_state {
    uint32_t serial;  /* never 0: lazy per-bin clear stamps compare with it */
    frame_target *target;
    uint32_t clear_color;  /* packed RGBA8 */
    float clear_depth;
    const frame_draw *draws;
    uint32_t draw_count;
    const struct pattern_table *pattern;
    /* Part of the screen (mos_frame_desc.tile_mask): bin_mask[bin] non-zero
     * for the fine bins the frame renders, coarse_mask[ty * tiles_x + tx]
     * for the coarse tiles holding at least one of them (the binner's
     * coarse grid); both NULL = every bin.
     * The binner skips the others and their owners do not resolve them. */
    const uint8_t *bin_mask, *coarse_mask;
    mos_bin_grid grid;  /* the target's (frame_target.grid) */
    int coarse_px, batch, early;
    const struct backend_isa *hot;  /* the back-end's hot loops for this CPU (backend_isa_select) */
    mos_isa isa;                    /* hot->isa, for the stages that may not see backend_isa (the
                                     * front-end's vertex batches): what shader batches are told */
    frame_blur blur;
    size_t tri_bytes;  /* the most one set-up triangle takes (its frame_tri_blur and rank bounds too) */
    double t_start_ms;
    /* front-end statistics */
    double frontend_ms, frontend_stall_ms, frontend_cpu_ms;
    double frontend_job_cpu_ms;  /* of frontend_cpu_ms, spent in or waiting on data-parallel jobs */
    uint64_t triangles_in, triangles_binned, bin_refs, bin_items, triangles_blurred;
    mos_result status;  /* MOS_OK, or out of memory in the front-end */
    bool over_memory_limit;  /* out of memory: the frame passed FRAME_MEMORY_LIMIT */
    uint64_t bin_ref_limit;  /* set when the frame passed the binner's limit on bin references */
    atomic_bool abandoned;  /* the front-end failed: workers skip the remaining bins */
    _Atomic(struct frame_job *) job;  /* the front-end's job open to helpers, or NULL */
} frame_state;

/* What a worker counts while running bins, one list (X(name)) for the
 * struct and for the api's sum over workers: covered samples (fragments),
 * covered pixels, fragment-shader lanes run, shading-cache hits, misses and
 * stalls, (grid point, pixel) uses and grid points used of the blur path,
 * bins resolved straight to their pixels, chunks of front-end jobs run for
 * the front-end, and the stochastic rasterizer's sample slots inside a
 * rank's box, given the full test and found covered. */
#define WORKER_STATS(X)                                                                           \
    X(fragments) X(covered_pixels) X(shade_invocations) X(cache_hits) X(cache_misses) X(cache_stalls) \
    X(blur_refs) X(blur_points) X(pixel_bins) X(frontend_chunks) X(stoch_candidates) X(stoch_tested)  \
    X(stoch_covered)
#define WORKER_STATS_FIELD_(name) uint64_t name;
typedef struct frame_worker_stats {
    WORKER_STATS(WORKER_STATS_FIELD_)
} frame_worker_stats;
#undef WORKER_STATS_FIELD_

typedef enum frame_work_kind {
    FRAME_WORK_FRAME_BEGIN,  /* frame: a new frame's state */
    FRAME_WORK_BIN,          /* bin + tris[count]: triangles for one fine bin, API order */
    FRAME_WORK_FRAME_END,    /* resolve owned bins, then report done */
    FRAME_WORK_HELP,         /* a front-end job is open: wakes a worker to help (frame_job) */
    FRAME_WORK_QUIT,
} frame_work_kind;

/* A data-parallel loop of the front-end (vertex stage, triangle setup,
 * the fine binning pass) that workers may help with: chunks [0, count) are
 * claimed one at a time through `next`; run(job, chunk, helper) does one,
 * writing only that chunk's outputs, and done[chunk] is then set (release).
 * The front-end publishes the job in frame_state.job while it is open
 * (frame_job_open), claims chunks too and reads the outputs in chunk order
 * once done (frame_job_wait); a worker runs chunks between its own work
 * items while its queue is empty.
 * Which thread ran a chunk changes no output.  helper 0 is the front-end,
 * 1 + w worker w (per-helper memory); scratch is the helper's
 * shader scratch (as large as any draw's scratch_bytes, NULL if none). */
typedef struct frame_job {
    void (*run)(struct frame_job *job, uint32_t chunk, int helper, void *scratch);
    uint32_t count;
    atomic_uint next;
    atomic_uchar *done;
} frame_job;

/* Claims and runs one chunk of j; false when none was left to claim. */
static inline bool frame_job_step(frame_job *j, int helper, void *scratch)
{
    if (atomic_load_explicit(&j->next, memory_order_relaxed) >= j->count) return false;  /* no claim: next never wraps */
    uint32_t c = atomic_fetch_add_explicit(&j->next, 1, memory_order_relaxed);
    if (c >= j->count) return false;
    j->run(j, c, helper, scratch);
    atomic_store_explicit(&j->done[c], 1, memory_order_release);
    return true;
}

typedef struct frame_work_item {
    uint32_t kind;
    uint32_t bin;
    uint32_t count;
    bool last;  /* FRAME_WORK_BIN: no later item of the frame has this bin (its depth is not read again) */
    const struct frame_tri *const *tris;
    struct frame_state *frame;
    frame_job *job;
} frame_work_item;

/* How the front-end hands work to the workers: push(queues, worker, items,
 * count) queues the items, in order, for one worker (waking it once, not
 * per item) and returns the milliseconds it waited on a full queue;
 * offer(queues, worker, item) queues it only when the worker's queue is
 * empty (a wake-up), and says whether it did (sched builds it; binning and
 * the front-end call it). */
typedef struct frame_dispatch {
    double (*push)(void *queues, int worker, const frame_work_item *items, uint32_t count);
    bool (*offer)(void *queues, int worker, const frame_work_item *it);
    void *queues;
    int workers;
} frame_dispatch;

/* The front-end's side of a job (frontend.c, binning/), on its own thread.
 * frame_job_open starts j over `count` chunks (j in memory that outlives the
 * frame's workers: a frame arena) and, when there is more than one, opens
 * it to the workers through f->job and wakes the idle ones (an offer lands
 * only in an empty queue); it returns the job it displaced, for
 * frame_job_close to reopen (a batch's fine pass runs while a draw's setup
 * job is open).  false when out of memory. */
static inline bool frame_job_open(frame_state *f, const frame_dispatch *d, arena *ar, frame_job *j,
                                  uint32_t count, void (*run)(frame_job *, uint32_t, int, void *),
                                  frame_job **displaced)
{
    *displaced = atomic_load_explicit(&f->job, memory_order_relaxed);
    j->run = run;
    j->count = count;
    atomic_init(&j->next, 0);
    j->done = arena_alloc(ar, (count ? count : 1) * sizeof *j->done, 64);
    if (!j->done) return false;
    for (uint32_t c = 0; c < count; c++) atomic_init(&j->done[c], 0);
    if (count > 1) {
        atomic_store_explicit(&f->job, j, memory_order_release);
        frame_work_item it = {.kind = FRAME_WORK_HELP};
        for (int w = 0; w < d->workers; w++) d->offer(d->queues, w, &it);
    }
    return true;
}
/* Waits until chunk c of j is done, running unclaimed chunks meanwhile; the
 * thread CPU time this takes is data-parallel work (or waiting for it), not
 * the front-end's serial part: it goes to f->frontend_job_cpu_ms. */
static inline void frame_job_wait(frame_state *f, frame_job *j, uint32_t c, void *scratch)
{
    if (atomic_load_explicit(&j->done[c], memory_order_acquire)) return;
    const double cpu0 = util_thread_cpu_ms();
    while (!atomic_load_explicit(&j->done[c], memory_order_acquire))
        if (!frame_job_step(j, 0, scratch)) sched_yield();  /* a worker runs it */
    f->frontend_job_cpu_ms += util_thread_cpu_ms() - cpu0;
}
/* Every chunk of the open job is done (or the frame ends): reopens the job
 * it displaced (waking the idle workers again), if any, else closes the
 * front-end's job to the workers. */
static inline void frame_job_close(frame_state *f, const frame_dispatch *d, frame_job *displaced)
{
    atomic_store_explicit(&f->job, displaced, memory_order_release);
    if (!displaced) return;
    frame_work_item it = {.kind = FRAME_WORK_HELP};
    for (int w = 0; w < d->workers; w++) d->offer(d->queues, w, &it);
}

#endif
