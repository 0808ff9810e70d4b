/* context.c — mos_context lifecycle, pipeline configuration with defaults
 * and validation, and the last-error message.  Fed by the application. */
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "api/context.h"

mos_result ctx_fail(mos_context *ctx, mos_result code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->last_error, sizeof ctx->last_error, fmt, ap);
    va_end(ap);
    if (ctx->logger.func) ctx->logger.func(code, ctx->last_error, ctx->logger.user_data);
    return code;
}

void ctx_clear_error(mos_context *ctx) { ctx->last_error[0] = '\0'; }

void ctx_packed_free(mos_context *ctx)
{
    pattern_free(&ctx->packed, &ctx->allocator);
    util_free(&ctx->allocator, ctx->packed_mask);
    ctx->packed_mask = NULL;
}

void ctx_patterns_free(mos_context *ctx)
{
    pattern_free(&ctx->pattern, &ctx->allocator);
    ctx_packed_free(ctx);
}

const char *mos_last_error(const mos_context *ctx) { return ctx ? ctx->last_error : "no context"; }

/* The cores this process may run on: its affinity mask (taskset, a
 * cgroup's cpuset, an MPI launcher's binding), else the online cores. */
static int usable_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef __linux__
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) n = CPU_COUNT(&set);
#endif
    return n < 1 ? 1 : n > MOS_MAX_WORKERS ? MOS_MAX_WORKERS : (int)n;
}

/* Fills defaults into *out and validates; the message goes to err. */
static mos_result resolve_pipeline(const mos_pipeline_desc *in, mos_pipeline_desc *out, const mos_allocator *a,
                                   char *err, size_t n)
{
    mos_pipeline_desc d = in ? *in : (mos_pipeline_desc){0};
    if (d.threads == 0) d.threads = usable_cores();
    if (!d.pattern) d.pattern = "diagonal";
    if (d.bin_px == 0) d.bin_px = 16;
    if (d.coarse_px == 0) d.coarse_px = d.bin_px > 256 ? d.bin_px : 256;
    if (d.batch == 0) d.batch = 4096;
    if (d.batch < 0) d.batch = -1;
    if (d.early == 0) d.early = 64;
    if (d.early < 0) d.early = 0;
    if (d.fifo_depth == 0) d.fifo_depth = 256;
    *out = d;
    if (d.threads < 1 || d.threads > MOS_MAX_WORKERS) {
        snprintf(err, n, "threads must be 1..%d (got %d)", MOS_MAX_WORKERS, d.threads);
        return MOS_ERR_INVALID_ARGUMENT;
    }
    if (d.bin_px < 4 || d.bin_px > 256 || (d.bin_px & (d.bin_px - 1))) {
        snprintf(err, n, "fine bin size must be a power of two in 4..256 (got %d)", d.bin_px);
        return MOS_ERR_BAD_SIZE;
    }
    if (d.coarse_px < d.bin_px || d.coarse_px > 4096 || d.coarse_px % d.bin_px) {
        snprintf(err, n, "coarse tile size must be a multiple of the bin size (%d) up to 4096 (got %d)", d.bin_px,
                 d.coarse_px);
        return MOS_ERR_BAD_SIZE;
    }
    if (d.batch > (1 << 26)) {
        snprintf(err, n, "batch must be at most %d primitives (got %d)", 1 << 26, d.batch);
        return MOS_ERR_BAD_SIZE;
    }
    if (d.early > 65536) {
        snprintf(err, n, "early-draw capacity must be at most 65536 (got %d)", d.early);
        return MOS_ERR_BAD_SIZE;
    }
    if (d.fifo_depth < 1 || d.fifo_depth > 65536) {
        snprintf(err, n, "FIFO depth must be 1..65536 (got %d)", d.fifo_depth);
        return MOS_ERR_BAD_SIZE;
    }
    /* Let the generator judge the worker count now, not at the first frame. */
    pattern_table probe;
    mos_result r = pattern_build(&probe, d.pattern, d.threads, 1, 1, a, err, n);
    if (r == MOS_OK) pattern_free(&probe, a);
    return r;
}

mos_result mos_context_configure(mos_context *ctx, const mos_pipeline_desc *desc)
{
    if (!ctx) return MOS_ERR_INVALID_ARGUMENT;
    if (ctx->in_frame) return ctx_fail(ctx, MOS_ERR_FRAME_STATE, "mos_context_configure: a frame is being recorded");
    mos_pipeline_desc d;
    char err[256];
    mos_result r = resolve_pipeline(desc, &d, &ctx->allocator, err, sizeof err);
    if (r != MOS_OK) return ctx_fail(ctx, r, "mos_context_configure: %s", err);
    if (strlen(d.pattern) >= sizeof ctx->pattern_name)
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT,
                        "mos_context_configure: pattern name is longer than %zu characters", sizeof ctx->pattern_name - 1);

    bool restart = !ctx->sched_running || d.threads != ctx->pipeline.threads ||
                   d.fifo_depth != ctx->pipeline.fifo_depth;
    if (restart) {
        if (ctx->sched_running) sched_stop(&ctx->sched);
        ctx->sched_running = false;
        r = sched_start(&ctx->sched, d.threads, d.fifo_depth, &ctx->allocator);
        if (r != MOS_OK) {
            /* Fall back to the previous shape if there was one. */
            if (ctx->pipeline.threads &&
                sched_start(&ctx->sched, ctx->pipeline.threads, ctx->pipeline.fifo_depth, &ctx->allocator) == MOS_OK)
                ctx->sched_running = true;
            return ctx_fail(ctx, r, "mos_context_configure: could not start %d worker threads", d.threads);
        }
        ctx->sched_running = true;
    }
    if (d.pattern != ctx->pattern_name)  /* (the caller may pass mos_context_pipeline's own) */
        snprintf(ctx->pattern_name, sizeof ctx->pattern_name, "%s", d.pattern);
    d.pattern = ctx->pattern_name;
    ctx_patterns_free(ctx);  /* rebuilt at the next frame */
    ctx->pipeline = d;
    ctx->bin_auto = !desc || desc->bin_px == 0;
    ctx->batch_auto = !desc || desc->batch == 0;
    ctx_clear_error(ctx);
    return MOS_OK;
}

void mos_context_pipeline(const mos_context *ctx, mos_pipeline_desc *out)
{
    if (ctx && out) *out = ctx->pipeline;
}

mos_result mos_context_create(const mos_context_desc *desc, mos_context **out)
{
    if (!out) return MOS_ERR_INVALID_ARGUMENT;
    *out = NULL;
    mos_context_desc d = desc ? *desc : (mos_context_desc){0};
    if ((d.allocator.alloc != NULL) != (d.allocator.free != NULL)) {
        if (d.logger.func)
            d.logger.func(MOS_ERR_INVALID_ARGUMENT, "mos_context_create: allocator needs both alloc and free",
                          d.logger.user_data);
        return MOS_ERR_INVALID_ARGUMENT;
    }
    if ((unsigned)d.isa > MOS_ISA_AVX512) {
        if (d.logger.func)
            d.logger.func(MOS_ERR_INVALID_ARGUMENT, "mos_context_create: unknown instruction set (isa)",
                          d.logger.user_data);
        return MOS_ERR_INVALID_ARGUMENT;
    }
    mos_context *ctx = util_calloc(&d.allocator, 1, sizeof *ctx);
    if (!ctx) {
        if (d.logger.func) d.logger.func(MOS_ERR_OUT_OF_MEMORY, "mos_context_create: out of memory", d.logger.user_data);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    ctx->allocator = d.allocator;
    ctx->logger = d.logger;
    ctx->isa = backend_isa_available(d.isa);
    if (ctx->isa == MOS_ISA_AUTO) {
        ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_context_create: this CPU lacks the requested instruction set");
        util_free(&d.allocator, ctx);
        return MOS_ERR_INVALID_ARGUMENT;
    }
    ctx->hot = backend_isa_select(ctx->isa);
    arena_init(&ctx->draw_arena, &ctx->allocator, (size_t)64 << 10, SIZE_MAX);
    mos_result r = mos_context_configure(ctx, &d.pipeline);
    if (r != MOS_OK) {
        mos_context_destroy(ctx);
        return r;
    }
    *out = ctx;
    return MOS_OK;
}

void mos_context_destroy(mos_context *ctx)
{
    if (!ctx) return;
    if (ctx->sched_running) sched_stop(&ctx->sched);
    pool_release_all(ctx);
    ctx_patterns_free(ctx);
    arena_release(&ctx->draw_arena);
    util_free(&ctx->allocator, ctx->draws);
    mos_allocator a = ctx->allocator;
    util_free(&a, ctx);
}
