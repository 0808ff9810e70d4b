/* cli_bench.c — `mosaic bench`: a suite of configurations, Mosaic in-process A/B against llvmpipe in a child.
 * Fed by mosaic.c (and bench/bench.mk's `make bench`); drives scene/, the public API, bench_child/agree/out.c. */
#include "tools/bench.h"
#include "tools/cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "image/image.h"
#include "scene/scene.h"

static const char bench_usage[] =
    "usage: mosaic bench [options]\n"
    "\n"
    "Renders every configuration of a suite (the product of the lists below, or a\n"
    "suite file) for F frames after warm-up and reports median/min/max frame time,\n"
    "triangles/s, samples/s and the per-stage times of the statistics.  With\n"
    "--vs llvmpipe the reference renderer (build/mosaic-llvmpipe, a child process\n"
    "per configuration with LP_NUM_THREADS = threads) draws the same frames,\n"
    "interleaved frame by frame with Mosaic (A/B/A/B), and each configuration\n"
    "prints 'ratio scene=.. size=.. threads=.. spp=.. mode=.. mosaic_ms=..\n"
    "llvmpipe_ms=.. ratio=..' (Mosaic time / llvmpipe time, lower is better) and\n"
    "the agreement of the two images (pixels within 2/255 per channel; whether\n"
    "the differing ones all lie on triangle edges of llvmpipe's ID render).\n"
    "\n"
    "Lists take commas or spaces (\"1,2\").  Configuration:\n"
    "  --scene S           scene file; repeat for several (default scenes/default.scene)\n"
    "  --size WxH          image size (default 1920x1080)\n"
    "  --threads LIST      worker threads (default: online cores)\n"
    "  --spp LIST          samples per pixel (default 1; 1..16, with --blur 1, 2, 4, 8,\n"
    "                      16, 27, 32 or 64)\n"
    "  --mode LIST         cheap (built-in shaders as they are) and/or expensive\n"
    "                      (plus N dependent multiply-adds per fragment) (default cheap)\n"
    "  --fma LIST          N for the expensive mode (default 200)\n"
    "  --pattern LIST      bin -> worker patterns (default: the library's)\n"
    "  --bin LIST          fine bin edges in pixels (default: the library's)\n"
    "  --view I            camera index (default 0)\n"
    "  --frames F          timed frames per configuration (default 5)\n"
    "  --warmup W          untimed frames first (default 1)\n"
    "  --suite FILE        read options from FILE, one 'name value...' per line ('#'\n"
    "                      comments); options after --suite override its lists\n"
    "Reference:\n"
    "  --vs llvmpipe       run the reference renderer A/B\n"
    "  --llvmpipe PATH     its binary (default: mosaic-llvmpipe next to mosaic)\n"
    "  --check PCT         exit 1 unless every configuration has >= PCT %% of pixels\n"
    "                      within 2/255 and no differing pixel off an edge (for tests)\n"
    "Blur against the accumulation buffer (with --vs llvmpipe):\n"
    "  --blur MODE         Mosaic renders the scene's motion and lens at S = spp samples\n"
    "                      per pixel in MODE (decoupled or supersample); llvmpipe renders\n"
    "                      K = S pinhole sub-frames at mos_accum_pinhole(0..K-1), one\n"
    "                      sample each, and averages them (mosaic-llvmpipe --accum K);\n"
    "                      Mosaic's --mode accum does the same.  Each is timed (the whole\n"
    "                      accumulation) and compared with a ground truth, Mosaic's\n"
    "                      accumulation of --truth sub-frames from sub-frame 65536 on\n"
    "                      (none of the measured ones; PSNR over R, G, B); then\n"
    "                      llvmpipe adds sub-frames one at a time until its PSNR reaches\n"
    "                      Mosaic's, and that K is timed too.  Prints 'blur ...' lines;\n"
    "                      writes DIR/blur.md and DIR/blur.csv\n"
    "  --truth K           sub-frames of the ground truth (default 1024)\n"
    "  --truth-spp S       MSAA samples of each ground-truth sub-frame (default 1)\n"
    "  --truth-dir DIR     ground truths are cached here, by scene (name and file\n"
    "                      hash), size, view, K and S (default DIR/truth)\n"
    "  --max-accum K       the equal-PSNR search stops at K sub-frames (default --truth)\n"
    "Output (default directory out/bench):\n"
    "  --out DIR           directory for bench.json, ratios.md, plots, images\n"
    "  --csv FILE          CSV (default DIR/bench.csv), header\n"
    "                      " BENCH_CSV_HEADER "\n"
    "  --json FILE         JSON (default DIR/bench.json)\n"
    "  --no-plots          skip gnuplot (frame_ms.png, ratio.png, stages.png)\n"
    "  --keep-images       write DIR/img/CONFIG-{mosaic,llvmpipe,diff}.png\n"
    "  -h, --help          show this help\n"
    "Exit status: 0 ok, 1 a configuration failed (or --check did), 2 bad arguments.\n";

#define BENCH_TOL 2

double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Splits V at commas/spaces into at most BENCH_MAX_LIST ints. */
static int parse_int_list(const char *opt, const char *v, long lo, long hi, int *out, int *n)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", v);
    *n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
        if (*n == BENCH_MAX_LIST)
            return cli_usage_error("bench", "%s: at most %d values", opt, BENCH_MAX_LIST);
        if (cli_parse_int("bench", opt, t, lo, hi, &out[*n]))
            return CLI_EXIT_USAGE;
        (*n)++;
    }
    if (*n == 0)
        return cli_usage_error("bench", "%s: expected a list, got '%s'", opt, v);
    return 0;
}

static char *bench_keep(bench_opts *o, const char *s, size_t n)
{
    if (o->n_owned == (int)(sizeof o->owned / sizeof o->owned[0]))
        return NULL;
    char *d = strndup(s, n);
    if (d)
        o->owned[o->n_owned++] = d;
    return d;
}

/* One option NAME with value V (from the command line or a suite file). */
static int bench_option(bench_opts *o, const char *name, const char *v)
{
    char buf[1024];
    if (strcmp(name, "--scene") == 0) {
        snprintf(buf, sizeof buf, "%s", v);
        for (char *save = NULL, *t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
            if (o->scene_count == BENCH_MAX_SCENES)
                return cli_usage_error("bench", "--scene: at most %d scenes", BENCH_MAX_SCENES);
            const char *s = bench_keep(o, t, strlen(t));
            if (!s)
                return cli_usage_error("bench", "too many values");
            o->scenes[o->scene_count++] = s;
        }
        return 0;
    }
    if (strcmp(name, "--size") == 0)
        return cli_parse_size("bench", name, v, 16384, &o->width, &o->height) ? CLI_EXIT_USAGE : 0;
    if (strcmp(name, "--threads") == 0)
        return parse_int_list(name, v, 1, MOS_MAX_WORKERS, o->threads, &o->n_threads);
    if (strcmp(name, "--spp") == 0)
        return parse_int_list(name, v, 1, 64, o->spp, &o->n_spp);
    if (strcmp(name, "--blur") == 0) {
        if (strcmp(v, "decoupled") && strcmp(v, "supersample"))
            return cli_usage_error("bench", "--blur: expected decoupled or supersample, got '%s'", v);
        o->blur = v[0] == 'd' ? MOS_SAMPLING_DECOUPLED : MOS_SAMPLING_SUPERSAMPLE;
        return 0;
    }
    if (strcmp(name, "--truth") == 0)
        return cli_parse_int("bench", name, v, 1, 65536, &o->truth_k) ? CLI_EXIT_USAGE : 0;
    if (strcmp(name, "--truth-spp") == 0)
        return cli_parse_int("bench", name, v, 1, 64, &o->truth_spp) ? CLI_EXIT_USAGE : 0;
    if (strcmp(name, "--max-accum") == 0)
        return cli_parse_int("bench", name, v, 1, 65536, &o->max_accum) ? CLI_EXIT_USAGE : 0;
    if (strcmp(name, "--fma") == 0)
        return parse_int_list(name, v, 0, 1 << 16, o->fma, &o->n_fma);
    if (strcmp(name, "--bin") == 0)
        return parse_int_list(name, v, 4, 256, o->bins, &o->n_bin);
    if (strcmp(name, "--view") == 0)
        return cli_parse_int("bench", name, v, 0, 1 << 20, &o->view) ? CLI_EXIT_USAGE : 0;
    if (strcmp(name, "--frames") == 0)
        return cli_parse_int("bench", name, v, 1, 10000, &o->frames) ? CLI_EXIT_USAGE : 0;
    if (strcmp(name, "--warmup") == 0)
        return cli_parse_int("bench", name, v, 0, 10000, &o->warmup) ? CLI_EXIT_USAGE : 0;
    if (strcmp(name, "--mode") == 0 || strcmp(name, "--pattern") == 0) {
        int is_mode = name[2] == 'm', n = 0;
        snprintf(buf, sizeof buf, "%s", v);
        for (char *save = NULL, *t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
            if (n == (is_mode ? 2 : BENCH_MAX_LIST))
                return cli_usage_error("bench", "%s: too many values", name);
            if (is_mode) {
                if (strcmp(t, "cheap") && strcmp(t, "expensive"))
                    return cli_usage_error("bench", "--mode: expected cheap or expensive, got '%s'", t);
                o->expensive[n++] = strcmp(t, "expensive") == 0;
            } else {
                const char *s = bench_keep(o, t, strlen(t));
                if (!s)
                    return cli_usage_error("bench", "too many values");
                o->patterns[n++] = s;
            }
        }
        if (n == 0)
            return cli_usage_error("bench", "%s: expected a list, got '%s'", name, v);
        *(is_mode ? &o->n_mode : &o->n_pattern) = n;
        return 0;
    }
    if (strcmp(name, "--vs") == 0) {
        if (strcmp(v, "llvmpipe") != 0)
            return cli_usage_error("bench", "--vs: the only reference is 'llvmpipe', got '%s'", v);
        o->vs_llvmpipe = 1;
        return 0;
    }
    if (strcmp(name, "--check") == 0) {
        char *end;
        errno = 0;
        double p = strtod(v, &end);
        if (!*v || *end || errno || !(p >= 0.0 && p <= 100.0))
            return cli_usage_error("bench", "--check: expected a percentage 0..100, got '%s'", v);
        o->check_pct = p;
        return 0;
    }
    const char **dst = strcmp(name, "--llvmpipe") == 0 ? &o->llvmpipe
                     : strcmp(name, "--truth-dir") == 0 ? &o->truth_dir
                     : strcmp(name, "--out") == 0      ? &o->out_dir
                     : strcmp(name, "--csv") == 0      ? &o->csv
                     : strcmp(name, "--json") == 0     ? &o->json
                                                       : NULL;
    if (dst) {
        if (!*v)
            return cli_usage_error("bench", "%s: expected a path, got ''", name);
        *dst = v;
        return 0;
    }
    return cli_usage_error("bench", "unknown option '%s'", name);
}

/* Suite file: "name value..." per line, '#' starts a comment.  Errors name file:line:col. */
static int bench_suite(bench_opts *o, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "mosaic: %s: %s\n", path, strerror(errno));
        return CLI_EXIT_USAGE;
    }
    char line[1024];
    int lineno = 0, rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "#\r\n")] = '\0';
        char *p = line + strspn(line, " \t");
        if (!*p)
            continue;
        size_t klen = strcspn(p, " \t");
        char *val = p + klen + strspn(p + klen, " \t");
        char name[64];
        snprintf(name, sizeof name, "--%.*s", (int)(klen < 60 ? klen : 60), p);
        char *end = val + strlen(val);
        while (end > val && (end[-1] == ' ' || end[-1] == '\t'))
            *--end = '\0';
        static const char *const known[] = { "--scene", "--size", "--threads", "--spp", "--mode", "--fma",
                                             "--pattern", "--bin", "--view", "--frames", "--warmup", "--blur",
                                             "--truth", "--truth-spp", "--max-accum", NULL };
        int ok = 0;
        for (int i = 0; known[i]; i++)
            ok |= strcmp(known[i], name) == 0;
        if (!ok || !*val) {
            fprintf(stderr, "mosaic: %s:%d:%d: %s '%s'\n", path, lineno, (int)(p - line) + 1,
                    ok ? "missing value for" : "unknown suite setting", name + 2);
            rc = CLI_EXIT_USAGE;
            break;
        }
        /* Scene paths are taken as written (relative to the working directory). */
        char *kept = bench_keep(o, val, strlen(val));
        if (!kept) {
            fprintf(stderr, "mosaic: %s:%d:1: too many settings\n", path, lineno);
            rc = CLI_EXIT_USAGE;
            break;
        }
        if (bench_option(o, name, kept) != 0) {
            fprintf(stderr, "mosaic: (in %s:%d:%d)\n", path, lineno, (int)(val - line) + 1);
            rc = CLI_EXIT_USAGE;
        }
    }
    fclose(f);
    return rc;
}

static int bench_parse(int argc, char **argv, bench_opts *o)
{
    cli_args a = { .argc = argc, .argv = argv, .cmd = "bench" };
    static const char *const with_value[] = { "--scene", "--size", "--threads", "--spp", "--mode", "--fma",
                                              "--pattern", "--bin", "--view", "--frames", "--warmup",
                                              "--suite", "--vs", "--llvmpipe", "--check", "--out", "--csv",
                                              "--json", "--blur", "--truth", "--truth-spp", "--max-accum",
                                              "--truth-dir", NULL };
    for (a.i = 1; a.i < argc; a.i++) {
        const char *arg = argv[a.i], *v;
        int r;
        if ((r = cli_help(&a)) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
            fputs(bench_usage, stdout);
            return -1;
        }
        if ((r = cli_flag(&a, "--no-plots")) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
            o->no_plots = 1;
            continue;
        }
        if ((r = cli_flag(&a, "--keep-images")) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
            o->keep_images = 1;
            continue;
        }
        int matched = 0;
        for (int k = 0; with_value[k] && !matched; k++) {
            if ((r = cli_option(&a, with_value[k], &v)) == 0)
                continue;
            if (r < 0)
                return CLI_EXIT_USAGE;
            matched = 1;
            int rc = strcmp(with_value[k], "--suite") == 0 ? bench_suite(o, v) : bench_option(o, with_value[k], v);
            if (rc)
                return rc;
        }
        if (!matched) {
            if (cli_is_option(&a))
                return cli_usage_error("bench", "unknown option '%s'", arg);
            return cli_usage_error("bench", "unexpected argument '%s' (scenes go after --scene)", arg);
        }
    }
    return 0;
}

/* "default" from "scenes/default.scene". */
static void scene_base(const char *path, char *buf, size_t size)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = strrchr(b, '.');
    snprintf(buf, size, "%.*s", dot && dot != b ? (int)(dot - b) : (int)strlen(b), b);
}

static void bench_progress(int done, int total, const char *what, double elapsed_s)
{
    const int width = 30;
    int fill = total ? done * width / total : width;
    char bar[64];
    for (int i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '-';
    bar[width] = '\0';
    double eta = done ? elapsed_s / done * (total - done) : 0.0;
    int tty = isatty(2);
    fprintf(stderr, "%s[%s] %d/%d %.0fs elapsed, ~%.0fs left  %-48.48s%s", tty ? "\r" : "", bar, done, total,
            elapsed_s, eta, what, tty ? "" : "\n");
    if (tty && done == total)
        fputc('\n', stderr);
    fflush(stderr);
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

void bench_context_free(mos_context *ctx, mos_target rt, scene_gpu *gpu)
{
    if (!ctx)
        return;
    if (gpu)
        scene_gpu_free(gpu, ctx);
    if (rt.id)
        mos_target_destroy(ctx, rt);
    mos_context_destroy(ctx);
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

static mos_result note_motion(const scene_export_draw *d, void *user)
{
    *(bool *)user |= d->uniforms_t1 != NULL;
    return MOS_OK;
}

/* Why a sharp A/B cannot hold for scene S with OPTS: llvmpipe renders a
 * sharp frame, so a scene that moves or has a lens would be compared with
 * another image.  0, or -1 with the reason in why. */
static int blur_refusal(const scene *s, const scene_draw_opts *opts, char *why, size_t why_size)
{
    bool moves = false;
    mos_blur_desc lens = { 0 };
    scene_export_frame(s, opts, note_motion, &moves);
    scene_lens(s, opts, &lens);
    const bool lensed = lens.lens_x != 0.0f || lens.lens_y != 0.0f;
    if (!moves && !lensed)
        return 0;
    snprintf(why, why_size,
             "the scene has %s; --vs llvmpipe compares sharp frames, so compare it with --blur decoupled or "
             "--blur supersample (llvmpipe's accumulation of the same %s)",
             moves && lensed ? "motion and a lens" : moves ? "motion" : "a lens",
             moves && lensed ? "motion and lens" : moves ? "motion" : "lens");
    return -1;
}

/* Runs one configuration R (filled in) A/B; fills its measurements.  The
 * frame is the one `mosaic render` makes with the same options (its motion
 * and lens included). */
static void bench_one(bench_run *br, bench_result *r)
{
    const bench_opts *o = br->o;
    mos_context *ctx = NULL;
    mos_target rt = { 0 };
    scene_gpu *gpu = NULL;
    bench_child child = { .pid = -1 };
    int child_up = 0;
    char err[1024], reply[256];
    const size_t pixels = (size_t)r->width * (size_t)r->height;

    const scene_draw_opts dopts = { .width = r->width, .height = r->height, .fma = r->fma, .view = r->view };
    if (o->vs_llvmpipe && blur_refusal(br->sc, &dopts, r->error, sizeof r->error) != 0)
        return;
    /* Start the reference first: it loads the scene while we do. */
    if (o->vs_llvmpipe) {
        char spp[16];
        snprintf(spp, sizeof spp, "%d", r->spp);
        const char *const extra[] = { "--spp", spp, NULL };
        child_up = bench_start_llvmpipe(br, r, extra, &child) == 0;
    }

    mos_result res = bench_context(br, r, r->spp, &ctx, &rt, &gpu);
    if (res != MOS_OK)
        goto fail;
    mos_frame_desc fd = { .target = rt };
    scene_clear_color(br->sc, fd.clear_rgba);
    scene_frame_lens(gpu, &dopts, &fd.blur);  /* the view was checked by the caller */

    /* Warm-up, then A/B/A/B: one Mosaic frame, one llvmpipe frame. */
    for (int f = -o->warmup; f < o->frames; f++) {
        double t0 = bench_now_ms();
        if ((res = bench_mosaic_frame(ctx, &fd, gpu, &dopts, br->st)) != MOS_OK)
            goto fail;
        if (f >= 0)
            bench_note_frame(br, f, bench_now_ms() - t0);
        if (child_up) {
            if (bench_child_cmd(&child, "frame", reply, sizeof reply, err, sizeof err) != 0 ||
                strncmp(reply, "ms ", 3) != 0) {
                snprintf(r->error, sizeof r->error, "%s", err);
                bench_child_stop(&child);
                child_up = 0;
            } else if (f >= 0) {
                br->l_ms[f] = strtod(reply + 3, NULL);
            }
        }
    }
    bench_note_mosaic(br, r);
    if (child_up) {
        r->lp_ok = 1;
        bench_summarize(br->l_ms, o->frames, &r->l_median, &r->l_min, &r->l_max);
        /* Agreement: Mosaic's image, llvmpipe's image, llvmpipe's ID render. */
        char cmd[4300];
        int have_ids = 0;
        snprintf(cmd, sizeof cmd, "rgba %s", br->tmp_rgba);
        if ((res = mos_target_read_rgba8(ctx, rt, br->m_rgba, (size_t)r->width * 4)) == MOS_OK &&
            bench_child_cmd(&child, cmd, reply, sizeof reply, err, sizeof err) == 0 &&
            bench_read_raw(br->tmp_rgba, br->l_rgba, pixels * 4) == 0) {
            snprintf(cmd, sizeof cmd, "ids %s", br->tmp_ids);
            have_ids = bench_child_cmd(&child, cmd, reply, sizeof reply, err, sizeof err) == 0 &&
                       bench_read_raw(br->tmp_ids, br->ids, pixels * 4) == 0;
            bench_agreement ag;
            bench_agree(br->m_rgba, br->l_rgba, have_ids ? br->ids : NULL, r->width, r->height, BENCH_TOL, &ag);
            r->agree_ok = 1;
            r->agree_pct = ag.pixels ? 100.0 * (double)ag.agree / (double)ag.pixels : 0.0;
            r->diff_pixels = ag.diff;
            r->diff_off_edge = ag.diff_off_edge;
            r->max_abs = ag.max_abs;
            if (o->keep_images) {
                char path[4400];
                snprintf(path, sizeof path, "%s/%s-%dx%d-t%d-s%d-%s-mosaic.png", br->img_dir, r->scene_name, r->width,
                         r->height, r->threads, r->spp, r->mode);
                img_write_png(path, r->width, r->height, br->m_rgba, (size_t)r->width * 4, err, sizeof err);
                snprintf(path, sizeof path, "%s/%s-%dx%d-t%d-s%d-%s-llvmpipe.png", br->img_dir, r->scene_name,
                         r->width, r->height, r->threads, r->spp, r->mode);
                img_write_png(path, r->width, r->height, br->l_rgba, (size_t)r->width * 4, err, sizeof err);
                snprintf(path, sizeof path, "%s/%s-%dx%d-t%d-s%d-%s-diff.png", br->img_dir, r->scene_name,
                         r->width, r->height, r->threads, r->spp, r->mode);
                bench_write_diff_png(path, br->m_rgba, br->l_rgba, have_ids ? br->ids : NULL, r->width,
                                     r->height, BENCH_TOL, err, sizeof err);
            }
        } else if (!r->error[0]) {
            snprintf(r->error, sizeof r->error, "agreement: %s", res != MOS_OK ? mos_result_name(res) : err);
        }
        unlink(br->tmp_rgba);
        unlink(br->tmp_ids);
    }
    goto done;
fail:
    bench_fail(r, ctx, res);
done:
    if (child_up)
        bench_child_stop(&child);
    bench_context_free(ctx, rt, gpu);
}

/* Directory of the running executable + "/mosaic-llvmpipe". */
static void default_llvmpipe(char *buf, size_t size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(buf, size, "build/mosaic-llvmpipe");
        return;
    }
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    snprintf(buf, size, "%s/mosaic-llvmpipe", exe);
}

static int mkdir_p(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

int cli_bench_main(int argc, char **argv)
{
    bench_opts o = { .width = 1920, .height = 1080, .frames = 5, .warmup = 1, .check_pct = -1.0, .truth_k = 1024,
                     .truth_spp = 1 };
    int rc = bench_parse(argc, argv, &o);
    bench_result *res = NULL;
    scene **scenes = NULL;
    bench_run br = { .o = &o };
    if (rc != 0)
        goto out;
    /* A reference child that dies must not kill us through its closed stdin. */
    signal(SIGPIPE, SIG_IGN);

    /* Defaults for lists left empty. */
    if (!o.scene_count)
        o.scenes[o.scene_count++] = "scenes/default.scene";
    if (!o.n_threads) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        o.threads[o.n_threads++] = n > 0 && n <= MOS_MAX_WORKERS ? (int)n : 1;
    }
    if (!o.n_spp)
        o.spp[o.n_spp++] = 1;
    if (!o.n_mode)
        o.expensive[o.n_mode++] = 0;
    if (!o.n_fma)
        o.fma[o.n_fma++] = 200;
    if (!o.n_pattern)
        o.patterns[o.n_pattern++] = NULL;
    if (!o.n_bin)
        o.bins[o.n_bin++] = 0;
    for (int i = 0; i < o.n_bin; i++)
        if (o.bins[i] & (o.bins[i] - 1)) {
            rc = cli_usage_error("bench", "--bin: expected powers of two in 4..256, got %d", o.bins[i]);
            goto out;
        }
    /* --blur: Mosaic's blur sample counts (llvmpipe accumulates that many 1-sample
     * sub-frames); else llvmpipe's MSAA draws them, 1..16. */
    for (int i = 0; i < o.n_spp; i++) {
        const int s = o.spp[i];
        const int blur_ok = s == 1 || s == 2 || s == 4 || s == 8 || s == 16 || s == 27 || s == 32 || s == 64;
        if (o.blur ? !blur_ok : s > 16) {
            rc = cli_usage_error("bench", "--spp: %d is not one of %s", s,
                                 o.blur ? "1, 2, 4, 8, 16, 27, 32, 64 (--blur)" : "1..16 (27, 32, 64 need --blur)");
            goto out;
        }
    }
    if (o.blur && !o.vs_llvmpipe) {
        rc = cli_usage_error("bench", "--blur needs --vs llvmpipe");
        goto out;
    }
    if (o.blur && o.check_pct >= 0) {
        rc = cli_usage_error("bench", "--check compares sharp images; it does not go with --blur");
        goto out;
    }
    if (!o.max_accum)
        o.max_accum = o.truth_k;
    char llvmpipe_buf[PATH_MAX + 32];
    if (!o.llvmpipe) {
        default_llvmpipe(llvmpipe_buf, sizeof llvmpipe_buf);
        o.llvmpipe = llvmpipe_buf;
    }
    if (o.vs_llvmpipe && access(o.llvmpipe, X_OK) != 0) {
        fprintf(stderr, "mosaic: %s: not found or not executable (build it: make -f bench/bench.mk llvmpipe)\n",
                o.llvmpipe);
        rc = CLI_EXIT_FAIL;
        goto out;
    }
    if (o.check_pct >= 0 && !o.vs_llvmpipe) {
        rc = cli_usage_error("bench", "--check needs --vs llvmpipe");
        goto out;
    }
    if (!o.out_dir)
        o.out_dir = "out/bench";
    if (mkdir_p(o.out_dir) != 0) {
        fprintf(stderr, "mosaic: %s: %s\n", o.out_dir, strerror(errno));
        rc = CLI_EXIT_FAIL;
        goto out;
    }
    char csv_buf[4200], json_buf[4200], md_buf[4200];
    if (!o.csv)
        snprintf(csv_buf, sizeof csv_buf, "%s/bench.csv", o.out_dir), o.csv = csv_buf;
    if (!o.json)
        snprintf(json_buf, sizeof json_buf, "%s/bench.json", o.out_dir), o.json = json_buf;
    snprintf(md_buf, sizeof md_buf, "%s/ratios.md", o.out_dir);
    snprintf(br.tmp_rgba, sizeof br.tmp_rgba, "%s/.llvmpipe-%ld.rgba", o.out_dir, (long)getpid());
    snprintf(br.tmp_ids, sizeof br.tmp_ids, "%s/.llvmpipe-%ld.ids", o.out_dir, (long)getpid());
    snprintf(br.img_dir, sizeof br.img_dir, "%s/img", o.out_dir);
    if (o.keep_images && mkdir_p(br.img_dir) != 0) {
        fprintf(stderr, "mosaic: %s: %s\n", br.img_dir, strerror(errno));
        rc = CLI_EXIT_FAIL;
        goto out;
    }
    char truth_buf[4200], blur_md[4200], blur_csv[4200];
    snprintf(blur_md, sizeof blur_md, "%s/blur.md", o.out_dir);
    snprintf(blur_csv, sizeof blur_csv, "%s/blur.csv", o.out_dir);
    if (!o.truth_dir)
        snprintf(truth_buf, sizeof truth_buf, "%s/truth", o.out_dir), o.truth_dir = truth_buf;
    if (o.blur && mkdir_p(o.truth_dir) != 0) {
        fprintf(stderr, "mosaic: %s: %s\n", o.truth_dir, strerror(errno));
        rc = CLI_EXIT_FAIL;
        goto out;
    }
    char err[1024];
    if (cli_check_writable(o.csv, err, sizeof err) || cli_check_writable(o.json, err, sizeof err)) {
        fprintf(stderr, "mosaic: %s\n", err);
        rc = CLI_EXIT_FAIL;
        goto out;
    }

    /* Configurations: scene x threads x spp x mode(fma) x pattern x bin. */
    int modes = 0;
    int fmas[1 + BENCH_MAX_LIST];
    for (int m = 0; m < o.n_mode; m++) {
        if (!o.expensive[m])
            fmas[modes++] = 0;
        else
            for (int k = 0; k < o.n_fma; k++)
                fmas[modes++] = o.fma[k];
    }
    const int total = o.scene_count * o.n_threads * o.n_spp * modes * o.n_pattern * o.n_bin;
    res = calloc((size_t)total, sizeof *res);
    scenes = calloc((size_t)o.scene_count, sizeof *scenes);
    br.st = calloc(1, sizeof *br.st);
    br.m_ms = calloc((size_t)o.frames, sizeof *br.m_ms);
    br.l_ms = calloc((size_t)o.frames, sizeof *br.l_ms);
    br.stage = calloc((size_t)o.frames, sizeof *br.stage);
    const size_t px = (size_t)o.width * (size_t)o.height;
    br.m_rgba = malloc(px * 4);
    br.l_rgba = malloc(px * 4);
    br.ids = malloc(px * 4);
    if (!res || !scenes || !br.st || !br.m_ms || !br.l_ms || !br.stage || !br.m_rgba || !br.l_rgba || !br.ids) {
        fprintf(stderr, "mosaic: out of memory\n");
        rc = CLI_EXIT_FAIL;
        goto out;
    }
    int n = 0;
    for (int s = 0; s < o.scene_count; s++)
        for (int t = 0; t < o.n_threads; t++)
            for (int p = 0; p < o.n_spp; p++)
                for (int m = 0; m < modes; m++)
                    for (int pt = 0; pt < o.n_pattern; pt++)
                        for (int b = 0; b < o.n_bin; b++) {
                            bench_result *r = &res[n++];
                            r->scene = o.scenes[s];
                            scene_base(r->scene, r->scene_name, sizeof r->scene_name);
                            r->width = o.width, r->height = o.height, r->view = o.view;
                            r->threads = o.threads[t], r->spp = o.spp[p], r->fma = fmas[m];
                            r->pattern = o.patterns[pt], r->bin = o.bins[b];
                            if (r->fma)
                                snprintf(r->mode, sizeof r->mode, "fma%d", r->fma);
                            else
                                snprintf(r->mode, sizeof r->mode, "cheap");
                        }

    char machine[384];
    bench_machine(machine, sizeof machine);
    printf("# mosaic bench: %d configurations, %d frames each after %d warm-up, %s%s\n", total, o.frames,
           o.warmup, machine, o.vs_llvmpipe ? ", A/B against llvmpipe" : "");
    fflush(stdout);
    const double t_start = bench_now_ms();
    int failed = 0, check_failed = 0;
    for (int i = 0; i < total; i++) {
        bench_result *r = &res[i];
        char what[160];
        snprintf(what, sizeof what, "%s %dx%d t%d s%d %s", r->scene_name, r->width, r->height, r->threads, r->spp,
                 r->mode);
        bench_progress(i, total, what, (bench_now_ms() - t_start) * 1e-3);
        int si = 0;
        while (o.scenes[si] != r->scene)
            si++;
        if (!scenes[si]) {
            mos_result lr = scene_load(r->scene, &scenes[si], err, sizeof err);
            if (lr != MOS_OK) {
                scenes[si] = NULL;
                snprintf(r->error, sizeof r->error, "%s", *err ? err : mos_result_message(lr));
            }
        }
        if (scenes[si] && scene_check_view(scenes[si], r->scene, r->view, err, sizeof err) != MOS_OK)
            snprintf(r->error, sizeof r->error, "%s", err);
        else if (scenes[si]) {
            br.sc = scenes[si];
            if (o.blur)
                bench_blur_one(&br, r);
            else
                bench_one(&br, r);
        }
        if (isatty(2))
            fputc('\n', stderr);
        if (!r->ok || (o.vs_llvmpipe && !r->lp_ok))
            failed = 1;
        if (r->ok) {
            const double sec = r->m_median * 1e-3;
            printf("bench scene=%s size=%dx%d threads=%d spp=%d mode=%s pattern=%s bin=%d median_ms=%.3f "
                   "min_ms=%.3f max_ms=%.3f tris_per_s=%.4g samples_per_s=%.4g frontend_ms=%.3f "
                   "frontend_stall_ms=%.3f first_work_ms=%.3f worker_busy_ms=%.3f\n",
                   r->scene_name, r->width, r->height, r->threads, r->spp, r->mode,
                   r->pattern_used[0] ? r->pattern_used : "-", r->bin, r->m_median, r->m_min, r->m_max,
                   sec > 0 ? (double)r->triangles_in / sec : 0.0,
                   sec > 0 ? (double)r->visibility_samples / sec : 0.0, r->frontend_ms, r->frontend_stall_ms,
                   r->first_work_ms, r->worker_busy_ms);
        }
        if (r->blur && r->ok && r->lp_ok) {
            printf("blur scene=%s size=%dx%d threads=%d spp=%d mode=%s mosaic=%s mosaic_ms=%.3f mosaic_psnr=%.3f "
                   "llvmpipe_accum=%d llvmpipe_ms=%.3f llvmpipe_psnr=%.3f ratio=%.3f mosaic_accum_ms=%.3f "
                   "mosaic_accum_psnr=%.3f accum_agree_psnr=%.3f equal_k=%d equal_k_psnr=%.3f "
                   "equal_k_llvmpipe_ms=%.3f equal_ratio=%.3f truth=%dx%dspp%s\n",
                   r->scene_name, r->width, r->height, r->threads, r->spp, r->mode,
                   o.blur == MOS_SAMPLING_DECOUPLED ? "decoupled" : "supersample", r->m_median, r->m_psnr, r->spp,
                   r->l_median, r->l_psnr, r->m_median / r->l_median, r->ma_median, r->ma_psnr, r->accum_agree_psnr,
                   r->eq_k, r->eq_psnr, r->eq_k ? r->eq_median : NAN, r->eq_k ? r->m_median / r->eq_median : NAN,
                   r->truth_k, r->truth_spp, r->truth_cached ? ",cached" : "");
        } else if (r->ok && r->lp_ok) {
            printf("ratio scene=%s size=%dx%d threads=%d spp=%d mode=%s mosaic_ms=%.3f llvmpipe_ms=%.3f "
                   "ratio=%.3f",
                   r->scene_name, r->width, r->height, r->threads, r->spp, r->mode, r->m_median, r->l_median,
                   r->m_median / r->l_median);
            if (r->agree_ok)
                printf(" agree=%.3f%% differing=%llu off_edge=%llu max_abs=%d edges_only=%s", r->agree_pct,
                       (unsigned long long)r->diff_pixels, (unsigned long long)r->diff_off_edge, r->max_abs,
                       r->diff_off_edge ? "no" : "yes");
            putchar('\n');
        }
        if (r->error[0])
            printf("error scene=%s threads=%d spp=%d mode=%s: %s\n", r->scene_name, r->threads, r->spp, r->mode,
                   r->error);
        if (o.check_pct >= 0) {
            int pass = r->agree_ok && r->agree_pct >= o.check_pct && r->diff_off_edge == 0;
            printf("%s agreement scene=%s size=%dx%d spp=%d mode=%s within_2=%.3f%% (need %.2f%%) "
                   "off_edge=%llu\n",
                   pass ? "PASS" : "FAIL", r->scene_name, r->width, r->height, r->spp, r->mode,
                   r->agree_ok ? r->agree_pct : 0.0, o.check_pct, (unsigned long long)r->diff_off_edge);
            check_failed |= !pass;
        }
        fflush(stdout);
    }
    bench_progress(total, total, "done", (bench_now_ms() - t_start) * 1e-3);

    /* Outputs. */
    char command[2048] = "mosaic bench";
    for (int i = 1; i < argc; i++) {
        size_t l = strlen(command);
        snprintf(command + l, sizeof command - l, " %s", argv[i]);
    }
    const char *renderer = o.vs_llvmpipe ? br.renderer : NULL;
    if (o.blur && bench_write_blur(blur_md, blur_csv, res, total,
                                   o.blur == MOS_SAMPLING_DECOUPLED ? "decoupled" : "supersample", br.renderer,
                                   machine, command, err, sizeof err)) {
        fprintf(stderr, "mosaic: %s\n", err);
        failed = 1;
    } else if (o.blur) {
        printf("wrote %s %s\n", blur_md, blur_csv);
    }
    if (bench_write_csv(o.csv, res, total, o.vs_llvmpipe, err, sizeof err) ||
        bench_write_json(o.json, res, total, renderer, machine, err, sizeof err) ||
        bench_write_markdown(md_buf, res, total, renderer, machine, command, err, sizeof err)) {
        fprintf(stderr, "mosaic: %s\n", err);
        failed = 1;
    } else {
        printf("wrote %s %s %s\n", o.csv, o.json, md_buf);
    }
    if (!o.no_plots) {
        if (bench_plot(o.out_dir, res, total, o.vs_llvmpipe, err, sizeof err) != 0) {
            fprintf(stderr, "mosaic: plots: %s\n", err);
            failed = 1;
        } else {
            printf("wrote %s/frame_ms.png%s %s/stages.png\n", o.out_dir,
                   o.vs_llvmpipe ? " ratio.png" : "", o.out_dir);
        }
    }
    if (o.vs_llvmpipe)
        printf("# reference: %s\n", br.renderer[0] ? br.renderer : "(did not start)");
    rc = failed || check_failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
out:
    if (scenes)
        for (int s = 0; s < o.scene_count; s++)
            if (scenes[s])
                scene_free(scenes[s]);
    free(scenes);
    free(res);
    free(br.st);
    free(br.m_ms);
    free(br.l_ms);
    free(br.stage);
    free(br.m_rgba);
    free(br.l_rgba);
    free(br.ids);
    for (int i = 0; i < o.n_owned; i++)
        free(o.owned[i]);
    return rc < 0 ? CLI_EXIT_OK : rc;
}
