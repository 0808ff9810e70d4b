/* frontend.c — the front-end thread's frame: for each draw in API order the
 * vertex stage, then per triangle NaN/Inf rejection, clipping, setup and
 * culling, and the coarse binning pass in batches (binning/).
 * Fed by sched.c with a frame_state; feeds the workers through binning. */
#include <math.h>
#include <stddef.h>

#include "binning/binning.h"
#include "frontend/frontend.h"
#include "util/clock.h"

#define FE_GUARD_PX 8192.0f  /* guard band beyond each screen edge */

struct frontend {
    const mos_allocator *allocator;
    arena arena;  /* per-frame: vertices, triangles, bin lists */
    /* per-frame, one per worker: the triangles it sets up for the front-end
     * (only that worker allocates from it; reset with the frame) */
    arena *worker_arenas;
    int worker_arena_count;
    binner binner;
};

frontend *frontend_create(const mos_allocator *a)
{
    frontend *fe = util_calloc(a, 1, sizeof *fe);
    if (!fe) return NULL;
    fe->allocator = a;
    arena_init(&fe->arena, a, (size_t)4 << 20, FRAME_MEMORY_LIMIT);
    fe->binner.allocator = a;
    return fe;
}

void frontend_destroy(frontend *fe)
{
    if (!fe) return;
    arena_release(&fe->arena);
    for (int i = 0; i < fe->worker_arena_count; i++) arena_release(&fe->worker_arenas[i]);
    util_free(fe->allocator, fe->worker_arenas);
    binner_release(&fe->binner);
    util_free(fe->allocator, fe);
}

static void broadcast(const frame_dispatch *d, frame_state *f, frame_work_kind kind)
{
    frame_work_item it = {.kind = kind, .frame = f};
    for (int w = 0; w < d->workers; w++) f->frontend_stall_ms += d->push(d->queues, w, &it, 1);
}

/* ---- Vertex stage and setup as jobs the workers may help with
 * (frame_job): both write per-chunk outputs only; the front-end waits for
 * the vertex stage, then bins the set-up triangles chunk by chunk in API
 * order.  Which thread ran a chunk changes nothing in the image. */

#define SETUP_CHUNK 1024  /* primitives per setup chunk */

enum { PRIM_CULLED, PRIM_SET_UP, PRIM_SET_UP_BLURRED, PRIM_CLIP, PRIM_OUT_OF_MEMORY };

/* What the helpers of one frame share (arena memory: a worker may pop a
 * job's offer after the draw is done, and then finds nothing to claim). */
typedef struct frame_ctx {
    const frame_state *f;
    fe_viewport vp;
    fe_vertex_temp *temp;  /* per helper */
    arena **arenas;        /* per helper: where the triangles it sets up are kept */
    void *scratch;         /* the front-end's shader scratch (workers bring theirs) */
    const binner *binner;  /* for the coarse tiles of each set-up triangle */
} frame_ctx;

/* One draw's two jobs and their outputs. */
typedef struct draw_jobs {
    frame_job vertex, setup;
    const frame_ctx *fc;
    const frame_draw *d;
    fe_vertices v;
    bool blurred;       /* the triangles take blurred setup (moving, or seen through a lens) */
    size_t slot_bytes;  /* of a set-up triangle of this draw */
    const frame_tri **tri; /* per primitive: its set-up triangle, if kept */
    coarse_rect *rect;  /* per primitive: the coarse tiles of that triangle */
    uint8_t *state;     /* per primitive: PRIM_* */
} draw_jobs;

#define DRAW_JOBS_OF(job, member) ((draw_jobs *)((char *)(job) - offsetof(draw_jobs, member)))

static void run_vertex_chunk(frame_job *j, uint32_t chunk, int helper, void *scratch)
{
    const draw_jobs *dj = DRAW_JOBS_OF(j, vertex);
    fe_vertex_chunk(&dj->v, chunk, dj->d, &dj->fc->vp, &dj->fc->f->blur, dj->fc->f->isa, &dj->fc->temp[helper],
                    scratch);
}

/* The vertex indices of primitive p. */
static inline void prim_indices(const frame_draw *d, int p, uint32_t vi[3])
{
    for (int k = 0; k < 3; k++)
        vi[k] = d->indices ? d->indices[d->first_index + 3 * p + k] : (uint32_t)(d->first_index + 3 * p + k);
}

/* The vertices of primitive p: post, varyings and positions at t = 1. */
static void assemble(const draw_jobs *dj, int p, const fe_post *pv[3], const float *vv[3], const float *cv[3])
{
    uint32_t vi[3];
    prim_indices(dj->d, p, vi);
    for (int k = 0; k < 3; k++) {
        pv[k] = &dj->v.post[vi[k]];
        vv[k] = dj->v.var + (size_t)vi[k] * (size_t)dj->d->varying_count;
        cv[k] = dj->v.clip1 ? dj->v.clip1 + 4 * (size_t)vi[k] : NULL;
    }
}

/* A triangle set up on the stack (slot, `bytes` of it) kept in ar; NULL
 * when out of memory. */
static const frame_tri *keep_triangle(arena *ar, const void *slot, size_t bytes)
{
    void *t = arena_alloc(ar, bytes, 64);
    return t ? fe_tri_move(t, slot, bytes) : NULL;
}

/* Where a setup chunk sets its triangles up: slots of its draw's size taken
 * from the helper's arena SETUP_POOL_SLOTS at a time; a kept triangle keeps
 * its slot, a culled one leaves it to the next. */
#define SETUP_POOL_SLOTS 32
typedef struct slot_pool {
    unsigned char *at, *end;
    size_t bytes;
    arena *ar;
} slot_pool;

static inline void *pool_slot(slot_pool *sp)
{
    if (sp->at == sp->end) {
        sp->at = arena_alloc(sp->ar, SETUP_POOL_SLOTS * sp->bytes, 64);
        sp->end = sp->at ? sp->at + SETUP_POOL_SLOTS * sp->bytes : NULL;
    }
    return sp->at;
}

/* Sets up primitive p in the pool's next slot, keeping it (and the coarse
 * tiles it overlaps, so that binning in API order need not read it again)
 * if it is not culled, or says why not: culled, left to the front-end's
 * clipping, or out of memory. */
static uint8_t setup_primitive(const draw_jobs *dj, int p, slot_pool *pool)
{
    const frame_draw *d = dj->d;
    uint32_t vi[3];
    prim_indices(d, p, vi);
    const fe_post *pv[3] = {&dj->v.post[vi[0]], &dj->v.post[vi[1]], &dj->v.post[vi[2]]};
    const size_t vc = (size_t)d->varying_count;
    const float *vv[3] = {dj->v.var + vi[0] * vc, dj->v.var + vi[1] * vc, dj->v.var + vi[2] * vc};
    if (!dj->blurred && (pv[0]->outcode | pv[1]->outcode | pv[2]->outcode))
        return pv[0]->outcode & pv[1]->outcode & pv[2]->outcode ? PRIM_CULLED : PRIM_CLIP;  /* outside one plane */
    const uint32_t near = FE_OUT_NEAR | FE_OUT_W;
    if (dj->blurred && !dj->v.clip1 && ((pv[0]->outcode | pv[1]->outcode | pv[2]->outcode) & near))
        return pv[0]->outcode & pv[1]->outcode & pv[2]->outcode & near ? PRIM_CULLED : PRIM_CLIP;  /* lens only */
    void *slot = pool_slot(pool);
    if (!slot) return PRIM_OUT_OF_MEMORY;
    bool kept;
    if (dj->blurred) {
        const float *c0[3] = {pv[0]->clip, pv[1]->clip, pv[2]->clip}, *c1[3];
        for (int k = 0; k < 3; k++) c1[k] = dj->v.clip1 ? dj->v.clip1 + 4 * (size_t)vi[k] : NULL;
        kept = fe_setup_blurred(c0, dj->v.clip1 ? c1 : NULL, vv, d, &dj->fc->f->blur, &dj->fc->vp, slot) != NULL;
    } else {
        kept = fe_setup_triangle(pv, vv, d, &dj->fc->vp, slot);
    }
    if (!kept) return PRIM_CULLED;
    const frame_tri *t = slot;
    dj->tri[p] = t;
    dj->rect[p] = binner_rect(dj->fc->binner, t);
    pool->at += pool->bytes;
    return t->blur ? PRIM_SET_UP_BLURRED : PRIM_SET_UP;
}

static void run_setup_chunk(frame_job *j, uint32_t chunk, int helper, void *scratch)
{
    const draw_jobs *dj = DRAW_JOBS_OF(j, setup);
    const int p0 = (int)chunk * SETUP_CHUNK, p1 = p0 + SETUP_CHUNK < dj->d->prim_count ? p0 + SETUP_CHUNK : dj->d->prim_count;
    slot_pool pool = {.bytes = dj->slot_bytes, .ar = dj->fc->arenas[helper]};
    for (int p = p0; p < p1; p++) dj->state[p] = setup_primitive(dj, p, &pool);
}

/* ---- Binning in API order, on the front-end thread. */

/* A set-up triangle into its coarse tiles `rect` (binner_rect), counted;
 * false when out of memory. */
static bool bin_triangle(frontend *fe, frame_state *f, const frame_tri *t, coarse_rect rect)
{
    f->triangles_binned++;
    f->triangles_blurred += t->blur != NULL;
    binner_add(&fe->binner, t, rect);
    return !fe->binner.out_of_memory;
}

/* A triangle made by clipping: set up on the stack, kept only if not culled. */
static bool bin_clipped(frontend *fe, frame_state *f, const frame_draw *d, const fe_post *const p[3],
                        const float *const v[3], const fe_viewport *vp)
{
    _Alignas(64) unsigned char buf[FE_ROUND64(sizeof(frame_tri) + MOS_MAX_VARYINGS * sizeof(float[3]))];
    if (!fe_setup_triangle(p, v, d, vp, (frame_tri *)buf)) return true;
    const frame_tri *t = keep_triangle(&fe->arena, buf, fe_tri_bytes(d));
    return t && bin_triangle(fe, f, t, binner_rect(&fe->binner, t));
}

/* The clipper's vertices of a triangle; false when a position is NaN or
 * infinite. */
static bool clip_input(const frame_draw *d, const fe_post *const p[3], const float *const v[3], fe_vertex in[3])
{
    for (int k = 0; k < 3; k++) {
        for (int c = 0; c < 4; c++) {
            in[k].clip[c] = p[k]->clip[c];
            if (!isfinite(in[k].clip[c])) return false;
        }
        for (int c = 0; c < d->varying_count; c++) in[k].var[c] = v[k][c];
    }
    return true;
}

/* The rare path: a triangle crossing the near/far plane or the guard band. */
static bool clip_and_bin(frontend *fe, frame_state *f, const frame_draw *d, const fe_post *const p[3],
                         const float *const v[3], const fe_viewport *vp)
{
    fe_vertex in[3], out[FE_CLIP_MAX_TRIS][3];
    if (!clip_input(d, p, v, in)) return true;  /* NaN/Inf positions are culled */
    int n = fe_clip_triangle(in, d->varying_count, vp->guard_x, vp->guard_y, out);
    for (int i = 0; i < n; i++) {
        fe_post cp[3];
        const fe_post *cpp[3] = {&cp[0], &cp[1], &cp[2]};
        const float *cv[3] = {out[i][0].var, out[i][1].var, out[i][2].var};
        /* Clipped vertices lie on the planes (up to rounding): snap them
         * without classifying again. */
        bool inside = true;
        for (int k = 0; k < 3; k++) {
            for (int c = 0; c < 4; c++) cp[k].clip[c] = out[i][k].clip[c];
            cp[k].outcode = 0;
            inside = inside && cp[k].clip[3] > 0.0f;
            if (inside) fe_post_window(&cp[k], vp);
        }
        if (inside && !bin_clipped(fe, f, d, cpp, cv, vp)) return false;
    }
    return true;
}

/* A triangle seen through a lens, not moving, that reaches behind the near
 * plane: no view from the lens centre holds it, so its shading grid would be
 * the barycentric fallback (coarse on a triangle that large).  Cut at the
 * near plane, the same cut from every lens point (fe_clip_triangle_near),
 * each piece is set up blurred and binned.  Rare: set up in the arena
 * directly. */
static bool clip_near_and_bin(frontend *fe, frame_state *f, const frame_draw *d, const fe_post *const p[3],
                              const float *const v[3], const fe_viewport *vp)
{
    fe_vertex in[3], out[FE_CLIP_MAX_TRIS][3];
    if (!clip_input(d, p, v, in)) return true;  /* NaN/Inf positions are culled */
    const int n = fe_clip_triangle_near(in, d->varying_count, out);
    const size_t bytes = fe_blurred_bytes(d, &f->blur);
    for (int i = 0; i < n; i++) {
        void *slot = arena_alloc(&fe->arena, bytes, 64);
        if (!slot) return false;
        const float *c0[3] = {out[i][0].clip, out[i][1].clip, out[i][2].clip};
        const float *cv[3] = {out[i][0].var, out[i][1].var, out[i][2].var};
        const frame_tri *t = fe_setup_blurred(c0, NULL, cv, d, &f->blur, vp, slot);
        if (t && !bin_triangle(fe, f, t, binner_rect(&fe->binner, t))) return false;  /* a culled one leaves its slot unused: a rare path */
    }
    return true;
}

/* Vertex stage, assembly, clip, setup and coarse binning of one draw. */
static bool run_draw(frontend *fe, frame_state *f, const frame_draw *d, const frame_ctx *fc, const frame_dispatch *disp)
{
    draw_jobs *dj = arena_alloc(&fe->arena, sizeof *dj, 64);
    if (!dj || !fe_vertex_begin(&dj->v, d, &f->blur, &fe->arena)) return false;
    dj->fc = fc;
    dj->d = d;
    /* MSAA frames saw blur at the pinhole (vertex stage). */
    dj->blurred = f->blur.mode != MOS_SAMPLING_MSAA && (dj->v.clip1 || fe_blur_has_lens(&f->blur, &fc->vp));
    dj->slot_bytes = dj->blurred ? fe_blurred_bytes(d, &f->blur) : fe_tri_bytes(d);
    const size_t prims = (size_t)d->prim_count;
    dj->tri = arena_alloc(&fe->arena, (prims ? prims : 1) * sizeof *dj->tri, 64);
    dj->rect = arena_alloc(&fe->arena, (prims ? prims : 1) * sizeof *dj->rect, 64);
    dj->state = arena_alloc(&fe->arena, prims ? prims : 1, 64);
    if (!dj->tri || !dj->rect || !dj->state) return false;

    frame_job *none;  /* no job is open between draws */
    if (!frame_job_open(f, disp, &fe->arena, &dj->vertex, dj->v.chunks, run_vertex_chunk, &none)) return false;
    for (uint32_t c = 0; c < dj->v.chunks; c++) frame_job_wait(f, &dj->vertex, c, fc->scratch);
    frame_job_close(f, disp, NULL);
    const uint32_t setup_chunks = (uint32_t)((prims + SETUP_CHUNK - 1) / SETUP_CHUNK);
    if (!frame_job_open(f, disp, &fe->arena, &dj->setup, setup_chunks, run_setup_chunk, &none)) return false;
    for (uint32_t c = 0; c < setup_chunks; c++) {
        frame_job_wait(f, &dj->setup, c, fc->scratch);
        if (c + 1 == setup_chunks) frame_job_close(f, disp, NULL);
        const int p0 = (int)c * SETUP_CHUNK;
        const int p1 = p0 + SETUP_CHUNK < d->prim_count ? p0 + SETUP_CHUNK : d->prim_count;
        f->triangles_in += (uint64_t)(p1 - p0);
        for (int p = p0; p < p1; p++) {
            const uint8_t state = dj->state[p];
            if (state == PRIM_OUT_OF_MEMORY) return false;
            if (state == PRIM_SET_UP || state == PRIM_SET_UP_BLURRED) {
                if (!bin_triangle(fe, f, dj->tri[p], dj->rect[p])) return false;
            } else if (state == PRIM_CLIP) {
                const fe_post *pv[3];
                const float *vv[3], *cv[3];
                assemble(dj, p, pv, vv, cv);
                if (!(dj->blurred ? clip_near_and_bin : clip_and_bin)(fe, f, d, pv, vv, &fc->vp)) return false;
            }
        }
    }
    return true;
}

/* The frame's viewport, each helper's vertex-stage memory (the front-end
 * and every worker) and the front-end's shader scratch, as large as any
 * draw asks. */
static const frame_ctx *frame_ctx_create(frontend *fe, const frame_state *f, int workers)
{
    frame_ctx *fc = arena_alloc(&fe->arena, sizeof *fc, 64);
    if (!fc) return NULL;
    fc->f = f;
    /* Guard band in NDC: window x within [-GUARD, width + GUARD]. */
    fc->vp = (fe_viewport){
        .width = f->target->width,
        .height = f->target->height,
        .guard_x = 1.0f + 2.0f * FE_GUARD_PX / (float)f->target->width,
        .guard_y = 1.0f + 2.0f * FE_GUARD_PX / (float)f->target->height,
    };
    size_t scratch_bytes = 0;
    int varyings = 0;
    for (uint32_t i = 0; i < f->draw_count; i++) {
        scratch_bytes = f->draws[i].scratch_bytes > scratch_bytes ? f->draws[i].scratch_bytes : scratch_bytes;
        varyings = f->draws[i].varying_count > varyings ? f->draws[i].varying_count : varyings;
    }
    fc->temp = arena_alloc(&fe->arena, (size_t)(workers + 1) * sizeof *fc->temp, 64);
    fc->arenas = arena_alloc(&fe->arena, (size_t)(workers + 1) * sizeof *fc->arenas, 64);
    fc->scratch = scratch_bytes ? arena_alloc(&fe->arena, scratch_bytes, 64) : NULL;
    fc->binner = &fe->binner;
    if (!fc->temp || !fc->arenas || (scratch_bytes && !fc->scratch)) return NULL;
    fc->arenas[0] = &fe->arena;
    for (int w = 0; w < workers; w++) fc->arenas[1 + w] = &fe->worker_arenas[w];
    for (int h = 0; h <= workers; h++)
        if (!fe_vertex_temp_init(&fc->temp[h], varyings, &fe->arena)) return NULL;
    return fc;
}

/* One arena per worker for the triangles it sets up, all empty; false when
 * out of memory. */
static bool worker_arenas_reset(frontend *fe, int workers)
{
    if (workers > fe->worker_arena_count) {
        arena *a = util_calloc(fe->allocator, (size_t)workers, sizeof *a);
        if (!a) return false;
        for (int i = 0; i < workers; i++) {
            if (i < fe->worker_arena_count) a[i] = fe->worker_arenas[i];  /* arenas move by value */
            else arena_init(&a[i], fe->allocator, (size_t)1 << 20, FRAME_MEMORY_LIMIT);
        }
        util_free(fe->allocator, fe->worker_arenas);
        fe->worker_arenas = a;
        fe->worker_arena_count = workers;
    }
    for (int i = 0; i < fe->worker_arena_count; i++) arena_reset(&fe->worker_arenas[i]);
    return true;
}

void frontend_run_frame(frontend *fe, frame_state *f, const frame_dispatch *d)
{
    const double t0 = util_now_ms(), cpu0 = util_thread_cpu_ms();
    arena_reset(&fe->arena);
    const bool arenas_ok = worker_arenas_reset(fe, d->workers);
    broadcast(d, f, FRAME_WORK_FRAME_BEGIN);
    f->status = MOS_OK;
    uint64_t max_tris = 0;  /* clipping makes up to FE_CLIP_MAX_TRIS of each primitive */
    for (uint32_t i = 0; i < f->draw_count; i++) max_tris += (uint64_t)f->draws[i].prim_count * FE_CLIP_MAX_TRIS;
    /* Helper h (the front-end, then each worker) sets triangles up and
     * sorts fine bins in fc->arenas[h]. */
    const frame_ctx *fc = arenas_ok ? frame_ctx_create(fe, f, d->workers) : NULL;
    if (!fc || !binner_begin_frame(&fe->binner, f, d, max_tris, fc->arenas, fe->allocator)) {
        f->status = MOS_ERR_OUT_OF_MEMORY;
    } else {
        for (uint32_t i = 0; i < f->draw_count && f->status == MOS_OK; i++)
            if (!run_draw(fe, f, &f->draws[i], fc, d)) f->status = MOS_ERR_OUT_OF_MEMORY;
        if (f->status == MOS_OK) binner_finish(&fe->binner);
        if (fe->binner.out_of_memory) f->status = MOS_ERR_OUT_OF_MEMORY;
    }
    if (f->status != MOS_OK) {
        /* The image will be incomplete anyway: spare the workers the bins
         * still queued. */
        f->over_memory_limit = fe->arena.over_limit;
        for (int i = 0; i < fe->worker_arena_count; i++)
            f->over_memory_limit = f->over_memory_limit || fe->worker_arenas[i].over_limit;
        if (fe->binner.over_budget) f->bin_ref_limit = fe->binner.bin_ref_limit;
        atomic_store_explicit(&f->abandoned, true, memory_order_relaxed);
    }
    frame_job_close(f, d, NULL);  /* also when a draw ended early, out of memory */
    broadcast(d, f, FRAME_WORK_FRAME_END);
    f->frontend_ms = util_now_ms() - t0 - f->frontend_stall_ms;
    f->frontend_cpu_ms = util_thread_cpu_ms() - cpu0;
}
