/* run.c — one run of `mosaic bench`: directories and buffers, the configurations (the product of the lists),
 * and the loop that runs each (one.c or blur.c) and reports it (out.c).  Fed by main.c with settled options. */
#include "tools/bench/bench.h"
#include "tools/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* mkdir -p DIR, or the message and CLI_EXIT_FAIL. */
static int make_dir(const char *dir)
{
    if (mkdir_p(dir) == 0)
        return 0;
    fprintf(stderr, "mosaic: %s: %s\n", dir, strerror(errno));
    return CLI_EXIT_FAIL;
}

/* The output directory and the paths in it (O's defaults, BR's own). */
static int bench_paths(bench_opts *o, bench_run *br)
{
    if (!o->out_dir)
        o->out_dir = "out/bench";
    if (make_dir(o->out_dir))
        return CLI_EXIT_FAIL;
    if (!o->csv)
        snprintf(o->csv_buf, sizeof o->csv_buf, "%s/bench.csv", o->out_dir), o->csv = o->csv_buf;
    if (!o->json)
        snprintf(o->json_buf, sizeof o->json_buf, "%s/bench.json", o->out_dir), o->json = o->json_buf;
    snprintf(br->md_path, sizeof br->md_path, "%s/ratios.md", o->out_dir);
    snprintf(br->tmp_rgba, sizeof br->tmp_rgba, "%s/.llvmpipe-%ld.rgba", o->out_dir, (long)getpid());
    snprintf(br->tmp_ids, sizeof br->tmp_ids, "%s/.llvmpipe-%ld.ids", o->out_dir, (long)getpid());
    snprintf(br->img_dir, sizeof br->img_dir, "%s/img", o->out_dir);
    if (o->keep_images && make_dir(br->img_dir))
        return CLI_EXIT_FAIL;
    snprintf(br->blur_md, sizeof br->blur_md, "%s/blur.md", o->out_dir);
    snprintf(br->blur_csv, sizeof br->blur_csv, "%s/blur.csv", o->out_dir);
    if (!o->truth_dir)
        snprintf(o->truth_buf, sizeof o->truth_buf, "%s/truth", o->out_dir), o->truth_dir = o->truth_buf;
    if (o->blur && make_dir(o->truth_dir))
        return CLI_EXIT_FAIL;
    char err[1024];
    if (cli_check_writable(o->csv, err, sizeof err) || cli_check_writable(o->json, err, sizeof err)) {
        fprintf(stderr, "mosaic: %s\n", err);
        return CLI_EXIT_FAIL;
    }
    return 0;
}

/* Configurations: scene x threads x spp x mode(fma) x pattern x bin, into br->res (allocated). */
static int bench_configurations(const bench_opts *o, bench_run *br)
{
    int modes = 0;
    int fmas[1 + BENCH_MAX_LIST];
    for (int m = 0; m < o->n_mode; m++) {
        if (!o->expensive[m])
            fmas[modes++] = 0;
        else
            for (int k = 0; k < o->n_fma; k++)
                fmas[modes++] = o->fma[k];
    }
    br->total = o->scene_count * o->n_threads * o->n_spp * modes * o->n_pattern * o->n_bin;
    br->res = calloc((size_t)br->total, sizeof *br->res);
    br->scenes = calloc((size_t)o->scene_count, sizeof *br->scenes);
    br->st = calloc(1, sizeof *br->st);
    br->m_ms = calloc((size_t)o->frames, sizeof *br->m_ms);
    br->l_ms = calloc((size_t)o->frames, sizeof *br->l_ms);
    br->stage = calloc((size_t)o->frames, sizeof *br->stage);
    const size_t px = (size_t)o->width * (size_t)o->height;
    br->m_rgba = malloc(px * 4);
    br->l_rgba = malloc(px * 4);
    br->ids = malloc(px * 4);
    if (!br->res || !br->scenes || !br->st || !br->m_ms || !br->l_ms || !br->stage || !br->m_rgba ||
        !br->l_rgba || !br->ids) {
        fprintf(stderr, "mosaic: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    bench_result *r = br->res;
    for (int s = 0; s < o->scene_count; s++)
        for (int t = 0; t < o->n_threads; t++)
            for (int p = 0; p < o->n_spp; p++)
                for (int m = 0; m < modes; m++)
                    for (int pt = 0; pt < o->n_pattern; pt++)
                        for (int b = 0; b < o->n_bin; b++, r++) {
                            r->scene = o->scenes[s];
                            scene_base(r->scene, r->scene_name, sizeof r->scene_name);
                            r->width = o->width, r->height = o->height, r->view = o->view;
                            r->threads = o->threads[t], r->spp = o->spp[p], r->fma = fmas[m];
                            r->pattern = o->patterns[pt], r->bin = o->bins[b];
                            if (r->fma)
                                snprintf(r->mode, sizeof r->mode, "fma%d", r->fma);
                            else
                                snprintf(r->mode, sizeof r->mode, "cheap");
                        }
    return 0;
}

int bench_prepare(bench_opts *o, bench_run *br)
{
    int rc = bench_paths(o, br);
    return rc ? rc : bench_configurations(o, br);
}

/* Configuration R: its scene (loaded on first use), its view checked, then one.c or blur.c. */
static void bench_configuration(bench_run *br, bench_result *r)
{
    const bench_opts *o = br->o;
    char err[1024];
    int si = 0;
    while (o->scenes[si] != r->scene)
        si++;
    if (!br->scenes[si]) {
        mos_result lr = scene_load(r->scene, &br->scenes[si], err, sizeof err);
        if (lr != MOS_OK) {
            br->scenes[si] = NULL;
            snprintf(r->error, sizeof r->error, "%s", *err ? err : mos_result_message(lr));
        }
    }
    if (br->scenes[si] && scene_check_view(br->scenes[si], r->scene, r->view, err, sizeof err) != MOS_OK)
        snprintf(r->error, sizeof r->error, "%s", err);
    else if (br->scenes[si]) {
        br->sc = br->scenes[si];
        if (o->blur)
            bench_blur_one(br, r);
        else
            bench_one(br, r);
    }
}

int bench_run_all(bench_run *br)
{
    const bench_opts *o = br->o;
    bench_machine(br->machine, sizeof br->machine);
    printf("# mosaic bench: %d configurations, %d frames each after %d warm-up, %s%s\n", br->total, o->frames,
           o->warmup, br->machine, o->vs_llvmpipe ? ", A/B against llvmpipe" : "");
    fflush(stdout);
    const double t_start = bench_now_ms();
    int failed = 0;
    for (int i = 0; i < br->total; i++) {
        bench_result *r = &br->res[i];
        char what[160];
        snprintf(what, sizeof what, "%s %dx%d t%d s%d %s", r->scene_name, r->width, r->height, r->threads, r->spp,
                 r->mode);
        bench_progress(i, br->total, what, (bench_now_ms() - t_start) * 1e-3);
        bench_configuration(br, r);
        if (isatty(2))
            fputc('\n', stderr);
        if (!r->ok || (o->vs_llvmpipe && !r->lp_ok))
            failed = 1;
        if (bench_report(o, r) != 0)
            failed |= 2;
        fflush(stdout);
    }
    bench_progress(br->total, br->total, "done", (bench_now_ms() - t_start) * 1e-3);
    return failed;
}

void bench_release(bench_run *br)
{
    if (br->scenes)
        for (int s = 0; s < br->o->scene_count; s++)
            if (br->scenes[s])
                scene_free(br->scenes[s]);
    free(br->scenes);
    free(br->res);
    free(br->st);
    free(br->m_ms);
    free(br->l_ms);
    free(br->stage);
    free(br->m_rgba);
    free(br->l_rgba);
    free(br->ids);
}
