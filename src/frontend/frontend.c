/* frontend.c — the front-end thread's frame: for each draw in API order the
 * vertex stage, then per triangle NaN/Inf rejection, clipping, setup and
 * culling, and the coarse binning pass in batches (binning/).
 * Fed by sched.c with a pipe_frame; feeds the workers through binning. */
#include <math.h>

#include "binning/binning.h"
#include "frontend/frontend.h"
#include "sched/sched.h"
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
    arena_init(&fe->arena, a, (size_t)4 << 20);
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

static bool finite_clip(const float c[4])
{
    return isfinite(c[0]) && isfinite(c[1]) && isfinite(c[2]) && isfinite(c[3]);
}

static void broadcast(sched *s, pipe_frame *f, work_kind kind)
{
    work_item it = {.kind = kind, .frame = f};
    for (int w = 0; w < s->worker_count; w++) f->frontend_stall_ms += sched_push(s, w, &it);
}

/* Vertex stage, assembly, clip, setup and coarse binning of one draw. */
static bool run_draw(frontend *fe, pipe_frame *f, const fe_draw *d, float guard_x, float guard_y)
{
    float *clip, *var;
    if (!fe_vertex_stage(d, &fe->arena, &clip, &var)) return false;
    const int nvar = d->varying_count;
    const int width = f->target->width, height = f->target->height;
    for (int p = 0; p < d->prim_count; p++) {
        fe_vertex v[3];
        bool finite = true;
        for (int k = 0; k < 3; k++) {
            uint32_t i = d->indices ? d->indices[d->first_index + 3 * p + k] : (uint32_t)(d->first_index + 3 * p + k);
            for (int c = 0; c < 4; c++) v[k].clip[c] = clip[(size_t)i * 4 + (size_t)c];
            for (int c = 0; c < nvar; c++) v[k].var[c] = var[(size_t)i * (size_t)nvar + (size_t)c];
            finite = finite && finite_clip(v[k].clip);
        }
        f->triangles_in++;
        if (!finite) continue;  /* NaN/Inf positions are culled */
        fe_vertex out[FE_CLIP_MAX_TRIS][3];
        int n = fe_clip_triangle(v, nvar, guard_x, guard_y, out);
        for (int k = 0; k < n; k++) {
            bool oom = false;
            fe_tri *t = fe_setup_triangle(out[k], d, width, height, &fe->arena, &oom);
            if (oom) return false;
            if (!t) continue;
            t->seq = (uint32_t)f->triangles_binned++;
            binner_add(&fe->binner, t);
            if (fe->binner.out_of_memory) return false;
        }
    }
    return true;
}

void frontend_run_frame(frontend *fe, pipe_frame *f, sched *s)
{
    double t0 = util_now_ms();
    arena_reset(&fe->arena);
    broadcast(s, f, WORK_FRAME_BEGIN);
    f->status = MOS_OK;
    if (!binner_begin_frame(&fe->binner, f, s, &fe->arena, fe->allocator)) {
        f->status = MOS_ERR_OUT_OF_MEMORY;
    } else {
        /* Guard band in NDC: window x within [-GUARD, width + GUARD]. */
        float guard_x = 1.0f + 2.0f * FE_GUARD_PX / (float)f->target->width;
        float guard_y = 1.0f + 2.0f * FE_GUARD_PX / (float)f->target->height;
        for (uint32_t i = 0; i < f->draw_count && f->status == MOS_OK; i++)
            if (!run_draw(fe, f, &f->draws[i], guard_x, guard_y)) f->status = MOS_ERR_OUT_OF_MEMORY;
        if (f->status == MOS_OK) binner_flush(&fe->binner);
        if (fe->binner.out_of_memory) f->status = MOS_ERR_OUT_OF_MEMORY;
    }
    broadcast(s, f, WORK_FRAME_END);
    f->frontend_ms = util_now_ms() - t0 - f->frontend_stall_ms;
}
