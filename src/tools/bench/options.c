/* options.c — `mosaic bench`'s command line and suite files: lists, defaults, validation.
 * Fed by main.c with argv; feeds bench_opts to run.c (calls only cli_args.c and the public API). */
#include "tools/bench/bench.h"
#include "tools/cli.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    "  --threads LIST      worker threads (default: the cores it may run on)\n"
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
    "                      (none of the measured ones; PSNR and mean SSIM over R, G, B,\n"
    "                      as mosaic diff); then\n"
    "                      llvmpipe adds sub-frames one at a time until its PSNR reaches\n"
    "                      Mosaic's, and that K is timed too.  Prints 'blur ...' lines;\n"
    "                      writes DIR/blur.md and DIR/blur.csv\n"
    "  --shading-rate R    with --blur decoupled: shading-grid points per pixel edge\n"
    "                      (as mosaic render's; default the library's, 1)\n"
    "  --bilinear          with --blur decoupled: bilinear reconstruction from the\n"
    "                      shading grid (as mosaic render's)\n"
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
    "  --keep-images       write DIR/img/CONFIG-{mosaic,llvmpipe,diff}.png; with --blur\n"
    "                      DIR/img/CONFIG-blur-{mosaic,llvmpipe-accum,mosaic-accum,truth}.png\n"
    "  -h, --help          show this help\n"
    "Exit status: 0 ok, 1 a configuration failed (or --check did), 2 bad arguments.\n";


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
    if (strcmp(name, "--shading-rate") == 0)
        return cli_parse_float("bench", name, v, 1.0 / 16, 16, &o->shading_rate) ? CLI_EXIT_USAGE : 0;
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
                                             "--truth", "--truth-spp", "--max-accum", "--shading-rate", NULL };
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

int bench_parse(int argc, char **argv, bench_opts *o)
{
    cli_args a = { .argc = argc, .argv = argv, .cmd = "bench" };
    static const char *const with_value[] = { "--scene", "--size", "--threads", "--spp", "--mode", "--fma",
                                              "--pattern", "--bin", "--view", "--frames", "--warmup",
                                              "--suite", "--vs", "--llvmpipe", "--check", "--out", "--csv",
                                              "--json", "--blur", "--truth", "--truth-spp", "--max-accum",
                                              "--truth-dir", "--shading-rate", NULL };
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
        if ((r = cli_flag(&a, "--bilinear")) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
            o->bilinear = true;
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

int bench_settle(bench_opts *o)
{
    /* Defaults for lists left empty. */
    if (!o->scene_count)
        o->scenes[o->scene_count++] = "scenes/default.scene";
    if (!o->n_threads) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        o->threads[o->n_threads++] = n > 0 && n <= MOS_MAX_WORKERS ? (int)n : 1;
    }
    if (!o->n_spp)
        o->spp[o->n_spp++] = 1;
    if (!o->n_mode)
        o->expensive[o->n_mode++] = 0;
    if (!o->n_fma)
        o->fma[o->n_fma++] = 200;
    if (!o->n_pattern)
        o->patterns[o->n_pattern++] = NULL;
    if (!o->n_bin)
        o->bins[o->n_bin++] = 0;
    for (int i = 0; i < o->n_bin; i++)
        if (o->bins[i] & (o->bins[i] - 1))
            return cli_usage_error("bench", "--bin: expected powers of two in 4..256, got %d", o->bins[i]);
    /* --blur: Mosaic's blur sample counts (llvmpipe accumulates that many 1-sample
     * sub-frames); else llvmpipe's MSAA draws them, the sharp ones. */
    for (int i = 0; i < o->n_spp; i++) {
        char list[128], blur_only[64];
        if (!mos_samples_supported(o->spp[i], o->blur != 0))
            return o->blur ? cli_usage_error("bench", "--spp: %d is not one of %s (--blur)", o->spp[i],
                                             cli_samples_text(CLI_SPP_ALL, ", ", list, sizeof list))
                           : cli_usage_error("bench", "--spp: %d is not one of %s (%s need --blur)", o->spp[i],
                                             cli_samples_text(CLI_SPP_SHARP, ", ", list, sizeof list),
                                             cli_samples_text(CLI_SPP_BLUR_ONLY, ", ", blur_only, sizeof blur_only));
    }
    if (o->blur && !o->vs_llvmpipe)
        return cli_usage_error("bench", "--blur needs --vs llvmpipe");
    if (o->shading_rate > 0 && o->blur != MOS_SAMPLING_DECOUPLED)
        return cli_usage_error("bench", "--shading-rate needs --blur decoupled");
    if (o->bilinear && o->blur != MOS_SAMPLING_DECOUPLED)
        return cli_usage_error("bench", "--bilinear needs --blur decoupled");
    if (o->blur && o->check_pct >= 0)
        return cli_usage_error("bench", "--check compares sharp images; it does not go with --blur");
    if (!o->max_accum)
        o->max_accum = o->truth_k;
    if (!o->llvmpipe) {
        default_llvmpipe(o->llvmpipe_buf, sizeof o->llvmpipe_buf);
        o->llvmpipe = o->llvmpipe_buf;
    }
    if (o->vs_llvmpipe && access(o->llvmpipe, X_OK) != 0) {
        fprintf(stderr, "mosaic: %s: not found or not executable (build it: make -f bench/bench.mk llvmpipe)\n",
                o->llvmpipe);
        return CLI_EXIT_FAIL;
    }
    if (o->check_pct >= 0 && !o->vs_llvmpipe)
        return cli_usage_error("bench", "--check needs --vs llvmpipe");
    return 0;
}
