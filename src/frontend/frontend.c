/* frontend.c — the front-end thread's frame: for each draw in API order the
 * vertex stage, then per triangle NaN/Inf rejection, clipping, setup and
 * culling, and the coarse binning pass in batches (binning/).
 * Fed by sched.c with a pipe_frame; feeds the workers through binning. */
#include <math.h>

#include "binning/binning.h"
#include "frontend/frontend.h"
#include "util/clock.h"

#define FE_GUARD_PX 8192.0f  /* guard band beyond each screen edge */

struct frontend {
    const mos_allocator *allocator;
    arena arena;  /* per-frame: vertices, triangles, bin lists */
    binner binner;
};

frontend *frontend_create(const mos_allocator *a)
{
    frontend *fe = util_calloc(a, 1, sizeof *fe);
    if (!fe) return NULL;
    fe->allocator = a;
    arena_init(&fe->arena, a, (size_t)4 << 20, FE_FRAME_MEMORY_LIMIT);
    fe->binner.allocator = a;
    return fe;
}

void frontend_destroy(frontend *fe)
{
    if (!fe) return;
    arena_release(&fe->arena);
    binner_release(&fe->binner);
    util_free(fe->allocator, fe);
}

static void broadcast(const frame_dispatch *d, pipe_frame *f, work_kind kind)
{
    work_item it = {.kind = kind, .frame = f};
    for (int w = 0; w < d->workers; w++) f->frontend_stall_ms += d->push(d->queues, w, &it);
}

static bool bin_triangle(frontend *fe, pipe_frame *f, const fe_draw *d, const fe_post *const p[3],
                         const float *const v[3], const fe_viewport *vp)
{
    bool oom = false;
    fe_tri *t = fe_setup_triangle(p, v, d, vp, &fe->arena, &oom);
    if (oom) return false;
    if (!t) return true;
    f->triangles_binned++;
    binner_add(&fe->binner, t);
    return !fe->binner.out_of_memory;
}

/* The rare path: a triangle crossing the near/far plane or the guard band. */
static bool clip_and_bin(frontend *fe, pipe_frame *f, const fe_draw *d, const fe_post *const p[3],
                         const float *const v[3], const fe_viewport *vp)
{
    fe_vertex in[3], out[FE_CLIP_MAX_TRIS][3];
    for (int k = 0; k < 3; k++) {
        for (int c = 0; c < 4; c++) {
            in[k].clip[c] = p[k]->clip[c];
            if (!isfinite(in[k].clip[c])) return true;  /* NaN/Inf positions are culled */
        }
        for (int c = 0; c < d->varying_count; c++) in[k].var[c] = v[k][c];
    }
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
        if (inside && !bin_triangle(fe, f, d, cpp, cv, vp)) return false;
    }
    return true;
}

/* A static, sharp triangle: setup directly when inside every clip plane,
 * dropped when outside one, else clipped first.  false when out of memory. */
static bool sharp_and_bin(frontend *fe, pipe_frame *f, const fe_draw *d, const fe_post *const p[3],
                          const float *const v[3], const fe_viewport *vp)
{
    if (!(p[0]->outcode | p[1]->outcode | p[2]->outcode)) return bin_triangle(fe, f, d, p, v, vp);
    if (p[0]->outcode & p[1]->outcode & p[2]->outcode) return true;  /* outside one plane */
    return clip_and_bin(fe, f, d, p, v, vp);
}

/* A triangle of a frame with blur: blurred setup, or (static and sharp)
 * the usual path.  c1 = positions at t = 1, NULL for a static draw. */
static bool blur_and_bin(frontend *fe, pipe_frame *f, const fe_draw *d, const fe_post *const p[3],
                         const float *const v[3], const float *const c1[3], const fe_viewport *vp)
{
    const float *c0[3] = {p[0]->clip, p[1]->clip, p[2]->clip};
    bool sharp = false, oom = false;
    fe_tri *t = fe_setup_blurred(c0, c1, v, d, &f->blur, vp, &fe->arena, &sharp, &oom);
    if (oom) return false;
    if (sharp) return sharp_and_bin(fe, f, d, p, v, vp);
    if (!t) return true;
    f->triangles_binned++;
    f->triangles_blurred++;
    binner_add(&fe->binner, t);
    return !fe->binner.out_of_memory;
}

/* Vertex stage, assembly, clip, setup and coarse binning of one draw. */
static bool run_draw(frontend *fe, pipe_frame *f, const fe_draw *d, const fe_viewport *vp, void *vs_scratch)
{
    fe_post *post;
    float *var, *clip1;
    if (!fe_vertex_stage(d, vp, &f->blur, &fe->arena, vs_scratch, &post, &var, &clip1)) return false;
    const bool blurred = f->blur.mode != MOS_SAMPLING_MSAA;  /* MSAA frames saw blur at the pinhole */
    const size_t nvar = (size_t)d->varying_count;
    for (int p = 0; p < d->prim_count; p++) {
        const fe_post *pv[3];
        const float *vv[3], *cv[3] = {NULL, NULL, NULL};
        for (int k = 0; k < 3; k++) {
            uint32_t i = d->indices ? d->indices[d->first_index + 3 * p + k] : (uint32_t)(d->first_index + 3 * p + k);
            pv[k] = &post[i];
            vv[k] = var + (size_t)i * nvar;
            if (clip1) cv[k] = clip1 + 4 * (size_t)i;
        }
        f->triangles_in++;
        bool ok = blurred ? blur_and_bin(fe, f, d, pv, vv, clip1 ? cv : NULL, vp) : sharp_and_bin(fe, f, d, pv, vv, vp);
        if (!ok) return false;
    }
    return true;
}

void frontend_run_frame(frontend *fe, pipe_frame *f, const frame_dispatch *d)
{
    double t0 = util_now_ms();
    arena_reset(&fe->arena);
    broadcast(d, f, WORK_FRAME_BEGIN);
    f->status = MOS_OK;
    uint64_t max_tris = 0;  /* clipping makes up to FE_CLIP_MAX_TRIS of each primitive */
    for (uint32_t i = 0; i < f->draw_count; i++) max_tris += (uint64_t)f->draws[i].prim_count * FE_CLIP_MAX_TRIS;
    if (!binner_begin_frame(&fe->binner, f, d, max_tris, &fe->arena, fe->allocator)) {
        f->status = MOS_ERR_OUT_OF_MEMORY;
    } else {
        /* Guard band in NDC: window x within [-GUARD, width + GUARD]. */
        fe_viewport vp = {
            .width = f->target->width,
            .height = f->target->height,
            .guard_x = 1.0f + 2.0f * FE_GUARD_PX / (float)f->target->width,
            .guard_y = 1.0f + 2.0f * FE_GUARD_PX / (float)f->target->height,
        };
        /* One vertex-shader scratch for the frame, as large as any draw's
         * shader asks: vertex batches run one at a time on this thread. */
        size_t scratch_bytes = 0;
        for (uint32_t i = 0; i < f->draw_count; i++)
            scratch_bytes = f->draws[i].scratch_bytes > scratch_bytes ? f->draws[i].scratch_bytes : scratch_bytes;
        void *vs_scratch = scratch_bytes ? arena_alloc(&fe->arena, scratch_bytes, 64) : NULL;
        if (scratch_bytes && !vs_scratch) f->status = MOS_ERR_OUT_OF_MEMORY;
        for (uint32_t i = 0; i < f->draw_count && f->status == MOS_OK; i++)
            if (!run_draw(fe, f, &f->draws[i], &vp, vs_scratch)) f->status = MOS_ERR_OUT_OF_MEMORY;
        if (f->status == MOS_OK) binner_flush(&fe->binner);
        if (fe->binner.out_of_memory) f->status = MOS_ERR_OUT_OF_MEMORY;
    }
    if (f->status != MOS_OK) {
        /* The image will be incomplete anyway: spare the workers the bins
         * still queued. */
        f->over_memory_limit = fe->arena.over_limit;
        if (fe->binner.over_budget) f->bin_ref_limit = fe->binner.bin_ref_limit;
        atomic_store_explicit(&f->abandoned, true, memory_order_relaxed);
    }
    broadcast(d, f, WORK_FRAME_END);
    f->frontend_ms = util_now_ms() - t0 - f->frontend_stall_ms;
}
