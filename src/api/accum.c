/* accum.c — the accumulation buffer (mos_target_accumulate,
 * mos_target_read_accumulated): a target's running per-channel sum of
 * resolved frames and their rounded mean, for every front end that averages
 * frames (mosaic render --mode accum, the viewer's progressive blur).
 * Fed by the application between frames; reads the target's resolved image. */
#include <string.h>

#include "api/context.h"

mos_result mos_target_accumulate(mos_context *ctx, mos_target h, bool restart)
{
    if (!ctx) return MOS_ERR_INVALID_ARGUMENT;
    frame_target *t;
    mos_result r = ctx_idle_target(ctx, h, "mos_target_accumulate", &t);
    if (r != MOS_OK) return r;
    const size_t n = (size_t)t->width * (size_t)t->height;
    if (!t->accum) {
        t->accum = util_alloc(&ctx->allocator, n * 4 * sizeof *t->accum);
        if (!t->accum) return ctx_fail(ctx, MOS_ERR_OUT_OF_MEMORY, "mos_target_accumulate: out of memory");
        restart = true;
    }
    if (restart) t->accum_frames = 0;
    if (t->accum_frames >= MOS_ACCUM_MAX_FRAMES)
        return ctx_fail(ctx, MOS_ERR_BAD_SIZE, "mos_target_accumulate: the buffer holds %d frames, the most it can",
                        MOS_ACCUM_MAX_FRAMES);
    uint32_t *sum = t->accum;
    if (t->accum_frames == 0) memset(sum, 0, n * 4 * sizeof *sum);
    for (size_t i = 0; i < n; i++) {
        const uint32_t c = t->resolved[i];
        for (int ch = 0; ch < 4; ch++) sum[4 * i + (size_t)ch] += (c >> (8 * ch)) & 0xffu;
    }
    t->accum_frames++;
    return MOS_OK;
}

mos_result mos_target_read_accumulated(mos_context *ctx, mos_target h, uint8_t *rgba, size_t row_bytes, int *frames)
{
    if (!ctx) return MOS_ERR_INVALID_ARGUMENT;
    frame_target *t;
    mos_result r = ctx_idle_target(ctx, h, "mos_target_read_accumulated", &t);
    if (r != MOS_OK) return r;
    if (!rgba) return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_target_read_accumulated: NULL destination");
    const size_t need = (size_t)t->width * 4;
    if (row_bytes < need)
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_target_read_accumulated: row_bytes %zu < %zu", row_bytes,
                        need);
    if (!t->accum || t->accum_frames == 0)
        return ctx_fail(ctx, MOS_ERR_FRAME_STATE, "mos_target_read_accumulated: no frame was accumulated");
    /* round(sum / m) with ties up, in integers: (2 sum + m) / (2 m). */
    const uint64_t m = (uint64_t)t->accum_frames;
    for (int y = 0; y < t->height; y++) {
        const uint32_t *src = t->accum + (size_t)y * (size_t)t->width * 4;
        uint8_t *dst = rgba + (size_t)(t->height - 1 - y) * row_bytes;
        for (size_t i = 0; i < need; i++) dst[i] = (uint8_t)((2 * (uint64_t)src[i] + m) / (2 * m));
    }
    if (frames) *frames = t->accum_frames;
    return MOS_OK;
}
