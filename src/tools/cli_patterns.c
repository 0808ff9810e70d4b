/* cli_patterns.c — `mosaic patterns`: --list (the registered bin -> worker patterns) and the load analyzer
 * over scenes (arguments here; work in patterns_analyze.c and patterns_plot.c).  Fed by mosaic.c. */
#include "tools/cli.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pattern/pattern.h"
#include "tools/patterns.h"

static const char patterns_usage[] =
    "usage: mosaic patterns [--list]\n"
    "       mosaic patterns SCENE... [OPTIONS]\n"
    "\n"
    "Without a scene: lists the registered bin -> worker patterns, one per line:\n"
    "NAME  DESCRIPTION.  Any of them can be passed to 'mosaic render --pattern';\n"
    "the randomized ones (prut, hmd, sudoku) take a seed as NAME:SEED (decimal,\n"
    "default 5489), and file:PATH reads a tile from a text file:\n"
    "    # comment             the first line is the worker count, then one line\n"
    "    workers 4             per bin row of the tile, TOP row first, worker\n"
    "    0 1 2 3               indices 0..N-1; the tile repeats over the screen\n"
    "    2 3 0 1               and every worker must own a bin of it.\n"
    "\n"
    "With scenes: the load analyzer (seed 000's study).  Renders every view of\n"
    "every SCENE once per batch slice, counting covered samples per pixel (1 spp,\n"
    "depth test off, the scene's culling kept), then for every pattern, bin size\n"
    "and rasterizer count computes the per-rasterizer loads, their coefficient of\n"
    "variation cv and max/mean; with M batches the triangle stream is split into M\n"
    "equal slices in API order and the per-slice values averaged.  Prints the\n"
    "mean cv table and the simulated scale-out (frame time = most loaded\n"
    "rasterizer's summed bin costs; speedup over diagonal, N = 6, 20, 60, bins 16, 64).\n"
    "\n"
    "  --size WxH          frame size (default 1920x1080)\n"
    "  --bins LIST         bin edges in pixels (default 4,8,16,32,64,128,192)\n"
    "  --rasterizers LIST  rasterizer counts, e.g. 2-64 or 6,20,60 (default 2-64)\n"
    "  --batches LIST      batch counts M (default 1), e.g. 1,10,100\n"
    "  --patterns LIST     patterns to compare (default: all registered)\n"
    "  --csv FILE          write scene,pattern,bin,rasterizers,batches,cv,max_over_mean\n"
    "                      (scene 'all' = mean over the scene views)\n"
    "  --plot DIR          write PNG plots (gnuplot): fig11_cv_vs_rasterizers.png,\n"
    "                      fig12_cv_vs_batches.png, tile_PATTERN.png (8x8 bins),\n"
    "                      frame_PATTERN.png (first view tinted by owning worker)\n"
    "  --bin-costs KIND    cost of a bin for the scale-out: fragments (default:\n"
    "                      covered samples)\n"
    "  --ranks LIST        the rank level (mosaic-mpi): per rank count, the cv of\n"
    "                      the ranks' loads with screen tiles owned by each\n"
    "                      pattern, and the most loaded worker over a perfect spread\n"
    "                      (e.g. 4,16,64; default: off)\n"
    "  --workers LIST      workers per rank of the rank level (default 16,64)\n"
    "  --rank-tile PX      rank tile edge, a multiple of 16 (default 128)\n"
    "  --threads N         worker threads of the counting renders (default: cores)\n"
    "  --quiet             no progress bar\n"
    "  --list              list the patterns\n"
    "  -h, --help          show this help\n";

static int list_patterns(void)
{
    const char *const *names = mos_pattern_names();
    if (!names || !*names) {
        fputs("mosaic: patterns: no patterns are registered\n", stderr);
        return CLI_EXIT_FAIL;
    }
    int width = 0;
    for (const char *const *n = names; *n; n++)
        width = (int)strlen(*n) > width ? (int)strlen(*n) : width;
    for (const char *const *n = names; *n; n++) {
        const char *d = mos_pattern_describe(*n);
        printf("%-*s  %s\n", width, *n, d ? d : "");
    }
    return CLI_EXIT_OK;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* "A,B-C,..." into OUT (sorted, unique), each in LO..HI; -1 after a message. */
static int parse_int_list(const char *opt, const char *s, int lo, int hi, int *out, int cap, int *count)
{
    int n = 0;
    const char *p = s;
    char tok[64];
    while (*p) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof tok)
            return cli_usage_error("patterns", "%s: expected a list like 4,8,16 or 2-64, got '%s'", opt, s);
        memcpy(tok, p, len);
        tok[len] = '\0';
        char *dash = strchr(tok, '-');
        int a, b;
        if (dash) {
            *dash = '\0';
            if (cli_parse_int("patterns", opt, tok, lo, hi, &a) || cli_parse_int("patterns", opt, dash + 1, lo, hi, &b))
                return -1;
            if (b < a)
                return cli_usage_error("patterns", "%s: empty range '%s-%s'", opt, tok, dash + 1);
        } else {
            if (cli_parse_int("patterns", opt, tok, lo, hi, &a))
                return -1;
            b = a;
        }
        for (int v = a; v <= b; v++) {
            if (n >= cap)
                return cli_usage_error("patterns", "%s: more than %d values", opt, cap);
            out[n++] = v;
        }
        p += len;
        if (*p == ',') {
            p++;
            if (!*p)
                return cli_usage_error("patterns", "%s: trailing ',' in '%s'", opt, s);
        }
    }
    if (n == 0)
        return cli_usage_error("patterns", "%s: expected at least one value", opt);
    qsort(out, (size_t)n, sizeof *out, cmp_int);
    int u = 0;
    for (int i = 0; i < n; i++)
        if (u == 0 || out[u - 1] != out[i]) out[u++] = out[i];
    *count = u;
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The mean cv table on stdout: patterns x (bin, rasterizers) for M = first batch count. */
static void print_cv_table(const pa_opts *o, const pa_results *r)
{
    static const int want_n[] = { 6, 20, 60 };
    printf("cv (%%), mean over %d scene view%s, %d batch%s\n%-14s", r->nsv, r->nsv == 1 ? "" : "s", o->batches[0],
           o->batches[0] == 1 ? "" : "es", "pattern");
    for (int b = 0; b < o->nbins; b++)
        for (int k = 0; k < 3; k++) printf(" %3dpx/N=%-3d", o->bins[b], want_n[k]);
    putchar('\n');
    for (int p = 0; p < o->npatterns; p++) {
        printf("%-14s", o->patterns[p]);
        for (int b = 0; b < o->nbins; b++)
            for (int k = 0; k < 3; k++) {
                int n = -1;
                for (int i = 0; i < o->nrast; i++)
                    if (o->rast[i] == want_n[k]) n = i;
                double s = 0;
                int c = 0;
                for (int sv = 0; n >= 0 && sv < r->nsv; sv++) {
                    double v = pa_at(o, r, sv, p, b, n, 0)->cv;
                    if (v == v) s += v, c++;
                }
                if (c)
                    printf(" %11.3f", 100 * s / c);
                else
                    printf(" %11s", "-");
            }
        putchar('\n');
    }
}

/* The analyzer's options (size, lists, the rank level, threads, patterns):
 * 0 taken, 1 not one of them, -1 a usage error (printed).  *PATTERN_LIST
 * holds --patterns' copy (the names point into it). */
static int analysis_option(cli_args *a, pa_opts *o, char **pattern_list)
{
    const char *v;
    int r;
    if ((r = cli_option(a, "--size", &v)) != 0) {
        if (r < 0 || cli_parse_size(a->cmd, "--size", v, 16384, &o->width, &o->height)) return -1;
    } else if ((r = cli_option(a, "--bins", &v)) != 0) {
        if (r < 0 || parse_int_list("--bins", v, 1, 4096, o->bins, PA_MAX_LIST, &o->nbins)) return -1;
    } else if ((r = cli_option(a, "--rasterizers", &v)) != 0) {
        if (r < 0 || parse_int_list("--rasterizers", v, 1, PA_MAX_RAST, o->rast, PA_MAX_RAST, &o->nrast)) return -1;
    } else if ((r = cli_option(a, "--batches", &v)) != 0) {
        if (r < 0 || parse_int_list("--batches", v, 1, 100000, o->batches, PA_MAX_LIST, &o->nbatches)) return -1;
    } else if ((r = cli_option(a, "--ranks", &v)) != 0) {
        if (r < 0 || parse_int_list("--ranks", v, 1, 256, o->ranks, PA_MAX_LIST, &o->nranks)) return -1;
    } else if ((r = cli_option(a, "--workers", &v)) != 0) {
        if (r < 0 || parse_int_list("--workers", v, 1, MOS_MAX_WORKERS, o->workers, PA_MAX_LIST, &o->nworkers)) return -1;
    } else if ((r = cli_option(a, "--rank-tile", &v)) != 0) {
        if (r < 0 || cli_parse_int(a->cmd, "--rank-tile", v, 16, 16384, &o->rank_tile)) return -1;
        if (o->rank_tile % 16) { cli_usage_error(a->cmd, "--rank-tile: expected a multiple of 16, got '%s'", v); return -1; }
    } else if ((r = cli_option(a, "--threads", &v)) != 0) {
        if (r < 0 || cli_parse_int(a->cmd, "--threads", v, 0, MOS_MAX_WORKERS, &o->threads)) return -1;
    } else if ((r = cli_option(a, "--patterns", &v)) != 0) {
        if (r < 0) return -1;
        free(*pattern_list);
        *pattern_list = strdup(v);
        o->npatterns = 0;
        for (char *save = NULL, *t = strtok_r(*pattern_list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            if (o->npatterns >= PA_MAX_LIST) { cli_usage_error(a->cmd, "--patterns: too many"); return -1; }
            pattern_table probe;
            char err[512];
            mos_result pr = pattern_build(&probe, t, 6, 1, 1, NULL, err, sizeof err);
            if (pr == MOS_OK) pattern_free(&probe, NULL);
            else if (pr != MOS_ERR_PATTERN_WORKERS) { cli_usage_error(a->cmd, "--patterns: %s", err); return -1; }
            o->patterns[o->npatterns++] = t;
        }
    } else {
        return 1;
    }
    return 0;
}

/* The outputs: --csv, --plot, --bin-costs; as analysis_option. */
static int output_option(cli_args *a, pa_opts *o)
{
    const char *v;
    int r;
    if ((r = cli_option(a, "--csv", &v)) != 0) {
        if (r < 0) return -1;
        if (!*v) { cli_usage_error(a->cmd, "--csv: expected a file name, got ''"); return -1; }
        o->csv_path = v;
    } else if ((r = cli_option(a, "--plot", &v)) != 0) {
        if (r < 0) return -1;
        if (!*v) { cli_usage_error(a->cmd, "--plot: expected a directory, got ''"); return -1; }
        o->plot_dir = v;
    } else if ((r = cli_option(a, "--bin-costs", &v)) != 0) {
        if (r < 0) return -1;
        if (strcmp(v, "fragments") != 0) {
            cli_usage_error(a->cmd, "--bin-costs: expected 'fragments', got '%s'", v);
            return -1;
        }
        o->bin_costs = v;
    } else {
        return 1;
    }
    return 0;
}

int cli_patterns_main(int argc, char **argv)
{
    cli_args a = { .argc = argc, .argv = argv, .cmd = "patterns" };
    pa_opts o = { .width = 1920, .height = 1080, .progress = 1 };
    static const int default_bins[] = { 4, 8, 16, 32, 64, 128, 192 };
    o.nbins = 7;
    memcpy(o.bins, default_bins, sizeof default_bins);
    for (int i = 2; i <= 64; i++) o.rast[o.nrast++] = i;
    o.batches[0] = 1, o.nbatches = 1;
    o.workers[0] = 16, o.workers[1] = 64, o.nworkers = 2;
    o.rank_tile = 128;
    char **scenes = calloc((size_t)argc + 1, sizeof *scenes);
    char *pattern_list = NULL;
    int rc = CLI_EXIT_USAGE, r, want_list = 0;
    if (!scenes)
        return CLI_EXIT_FAIL;
    for (a.i = 1; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        if (cli_end_of_options(&a)) {
            continue;
        } else if ((r = cli_help(&a)) != 0) {
            if (r < 0) goto out;
            fputs(patterns_usage, stdout);
            rc = CLI_EXIT_OK;
            goto out;
        } else if ((r = cli_flag(&a, "--list")) != 0) {
            if (r < 0) goto out;
            want_list = 1;
        } else if ((r = cli_flag(&a, "--quiet")) != 0) {
            if (r < 0) goto out;
            o.progress = 0;
        } else if ((r = analysis_option(&a, &o, &pattern_list)) != 1 || (r = output_option(&a, &o)) != 1) {
            if (r < 0) goto out;
        } else if (cli_is_option(&a)) {
            cli_usage_error(a.cmd, "unknown option '%s'", arg);
            goto out;
        } else {
            scenes[o.nscenes++] = argv[a.i];
        }
    }
    if (o.nscenes == 0 || want_list) {
        rc = o.nscenes ? (cli_usage_error(a.cmd, "--list takes no scenes"), CLI_EXIT_USAGE) : list_patterns();
        goto out;
    }
    if (o.npatterns == 0)
        for (const char *const *n = mos_pattern_names(); *n && o.npatterns < PA_MAX_LIST; n++)
            o.patterns[o.npatterns++] = *n;
    o.scenes = scenes;
    double t0 = now_s();
    pa_results res;
    if (pa_analyze(&o, &res)) {
        rc = CLI_EXIT_FAIL;
        goto out;
    }
    rc = CLI_EXIT_OK;
    print_cv_table(&o, &res);
    pa_print_scaleout(&o, &res, stdout);
    if (o.nranks)
        pa_print_ranks(&o, &res, stdout);
    if (res.saturated_splits)
        fprintf(stderr, "mosaic: patterns: %llu slice(s) reached 255 fragments on a pixel and were counted in halves\n",
                (unsigned long long)res.saturated_splits);
    if (o.csv_path && pa_write_csv(&o, &res, o.csv_path))
        rc = CLI_EXIT_FAIL;
    if (o.plot_dir && pa_plot(&o, &res, o.plot_dir))
        rc = CLI_EXIT_FAIL;
    fprintf(stderr, "mosaic: patterns: %d scene view(s), %llu fragments, %.1f s\n", res.nsv,
            (unsigned long long)res.fragments, now_s() - t0);
    pa_results_free(&res);
out:
    free(pattern_list);
    free(scenes);
    return rc;
}
