/* kit.c — what every configuration of `mosaic bench` needs: the clock, medians, the context with the scene
 * uploaded, one timed frame, the llvmpipe child started.  Fed by one.c and blur.c; calls child.c and the API. */
#include "tools/bench/bench.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

int bench_read_raw(const char *path, void *dst, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t got = fread(dst, 1, n, f);
    fclose(f);
    return got == n ? 0 : -1;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_summarize(double *v, int n, double *med, double *lo, double *hi)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    *med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    *lo = v[0];
    *hi = v[n - 1];
}

void bench_logger(mos_result code, const char *message, void *user_data)
{
    bench_result *r = user_data;
    snprintf(r->error, sizeof r->error, "libmosaic: %s: %s", mos_result_name(code),
             message && *message ? message : mos_result_message(code));
}

void bench_note_frame(bench_run *br, int f, double ms)
{
    br->m_ms[f] = ms;
    br->stage[f][0] = br->st->frontend_ms;
    br->stage[f][1] = br->st->frontend_stall_ms;
    br->stage[f][2] = br->st->first_work_ms;
    double busy = 0;
    for (int w = 0; w < br->st->threads && w < MOS_MAX_WORKERS; w++)
        busy += br->st->worker_busy_ms[w];
    br->stage[f][3] = br->st->threads > 0 ? busy / br->st->threads : 0.0;
}

void bench_note_mosaic(bench_run *br, bench_result *r)
{
    const int frames = br->o->frames;
    r->ok = 1;
    r->stats_frame_ms = br->st->frame_ms;
    r->triangles_in = br->st->triangles_in;
    r->triangles_binned = br->st->triangles_binned;
    r->covered_pixels = br->st->covered_pixels;
    r->visibility_samples = br->st->visibility_samples;
    r->shade_invocations = br->st->shade_invocations;
    double lo, hi, *col = malloc((size_t)frames * sizeof *col);
    double *outs[4] = { &r->frontend_ms, &r->frontend_stall_ms, &r->first_work_ms, &r->worker_busy_ms };
    for (int k = 0; col && k < 4; k++) {
        for (int f = 0; f < frames; f++)
            col[f] = br->stage[f][k];
        bench_summarize(col, frames, outs[k], &lo, &hi);
    }
    free(col);
    bench_summarize(br->m_ms, frames, &r->m_median, &r->m_min, &r->m_max);
}

int bench_start_llvmpipe(bench_run *br, bench_result *r, const char *const *extra, bench_child *child)
{
    char size[32], fma[16], view[16], err[1024];
    snprintf(size, sizeof size, "%dx%d", r->width, r->height);
    snprintf(fma, sizeof fma, "%d", r->fma);
    snprintf(view, sizeof view, "%d", r->view);
    char *argv[24] = { (char *)br->o->llvmpipe, (char *)r->scene, "--size", size, "--fma", fma, "--view", view };
    int n = 8;
    for (; extra && *extra && n < 22; extra++)
        argv[n++] = (char *)*extra;
    argv[n++] = "--serve";
    argv[n] = NULL;
    if (bench_child_start(child, argv, r->threads, err, sizeof err) != 0) {
        snprintf(r->error, sizeof r->error, "%s", err);
        return -1;
    }
    snprintf(br->renderer, sizeof br->renderer, "%s", child->renderer);
    return 0;
}

mos_result bench_context(bench_run *br, bench_result *r, int samples, mos_context **ctx, mos_target *rt,
                         scene_gpu **gpu)
{
    mos_context_desc cd = {
        .pipeline = { .threads = r->threads, .pattern = r->pattern, .bin_px = r->bin },
        .logger = { .func = bench_logger, .user_data = r },
    };
    *ctx = NULL, *gpu = NULL;
    *rt = (mos_target){ 0 };
    mos_result res = mos_context_create(&cd, ctx);
    if (res != MOS_OK) {
        *ctx = NULL;
        return res;
    }
    mos_pipeline_desc used;
    mos_context_pipeline(*ctx, &used);
    r->bin = used.bin_px;
    snprintf(r->pattern_used, sizeof r->pattern_used, "%.63s", used.pattern ? used.pattern : "?");
    if ((res = mos_target_create(*ctx, &(mos_target_desc){ .width = r->width, .height = r->height,
                                                            .samples = samples }, rt)) != MOS_OK ||
        (res = scene_upload(br->sc, *ctx, gpu)) != MOS_OK)
        *gpu = NULL;
    return res;
}

mos_result bench_mosaic_frame(mos_context *ctx, const mos_frame_desc *fd, const scene_gpu *gpu,
                              const scene_draw_opts *dopts, mos_frame_stats *st)
{
    mos_result res = mos_begin_frame(ctx, fd);
    if (res != MOS_OK)
        return res;
    if ((res = scene_draw(gpu, ctx, dopts)) != MOS_OK) {
        mos_end_frame(ctx, NULL);  /* leave the context ready for the next frame */
        return res;
    }
    return mos_end_frame(ctx, st);
}

void bench_fail(bench_result *r, const mos_context *ctx, mos_result res)
{
    if (!r->error[0])
        snprintf(r->error, sizeof r->error, "libmosaic: %s: %s", mos_result_name(res),
                 ctx && *mos_last_error(ctx) ? mos_last_error(ctx) : mos_result_message(res));
}
