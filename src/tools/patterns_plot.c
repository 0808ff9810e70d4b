/* patterns_plot.c — the figures of `mosaic patterns --plot DIR`: cv against rasterizers per bin size
 * (seed 000 Figure 11) and against batch count relative to vdc (Figure 12) through gnuplot, an 8x8-bin
 * tile per pattern (Figure 6) and the first view tinted by owning worker (seed 002 Figure 3), as PNG.
 * Fed by cli_patterns.c with the analyzer's results. */
#include "tools/patterns.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "image/image.h"
#include "pattern/pattern.h"
#include "scene/scene.h"

/* A worker's colour: golden-angle hues, alternating lightness. */
static void worker_color(int w, uint8_t rgb[3])
{
    double h = fmod(w * 0.6180339887, 1.0) * 6.0, l = (w & 1) ? 0.55 : 0.8;
    int i = (int)h;
    double f = h - i, q = 1 - f;
    double c[6][3] = { { 1, f, 0 }, { q, 1, 0 }, { 0, 1, f }, { 0, q, 1 }, { f, 0, 1 }, { 1, 0, q } };
    for (int k = 0; k < 3; k++) rgb[k] = (uint8_t)(255 * (0.15 + 0.85 * c[i % 6][k]) * l + 0.5);
}

static int make_dir(const char *dir)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "mosaic: patterns: --plot: cannot create %s: %s\n", dir, strerror(errno));
        return 1;
    }
    return 0;
}

/* Safe file-name form of a pattern name ("file:/a/b" -> "file__a_b"). */
static void file_part(const char *name, char *out, size_t size)
{
    size_t i = 0;
    for (; name[i] && i + 1 < size; i++) {
        char c = name[i];
        out[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ? c : '_';
    }
    out[i] = '\0';
}

static double mean_over_views(const pa_opts *o, const pa_results *r, int p, int b, int n, int m)
{
    double s = 0;
    int k = 0;
    for (int sv = 0; sv < r->nsv; sv++) {
        double v = pa_at(o, r, sv, p, b, n, m)->cv;
        if (!isnan(v)) s += v, k++;
    }
    return k ? s / k : NAN;
}

static int tiles(const pa_opts *o, const char *dir)
{
    enum { BINS = 8, PX = 32 };
    const int size = BINS * PX;
    uint8_t *img = malloc((size_t)size * (size_t)size * 4);
    char path[1024], fp[128], err[512];
    if (!img) return 1;
    for (int p = 0; p < o->npatterns; p++) {
        int workers = strncmp(o->patterns[p], "g80", 3) == 0 ? 6 : 8;
        pattern_table t;
        mos_result res = pattern_build(&t, o->patterns[p], workers, BINS, BINS, NULL, err, sizeof err);
        if (res != MOS_OK) {
            fprintf(stderr, "mosaic: patterns: tile of %s skipped: %s\n", o->patterns[p], err);
            continue;
        }
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                int by = BINS - 1 - y / PX, bx = x / PX;  /* bin (0, 0) at the lower left */
                uint8_t *px = img + ((size_t)y * (size_t)size + (size_t)x) * 4, c[3];
                worker_color(t.owner[by * BINS + bx], c);
                int edge = x % PX == 0 || y % PX == 0;
                for (int k = 0; k < 3; k++) px[k] = edge ? 40 : c[k];
                px[3] = 255;
            }
        pattern_free(&t, NULL);
        file_part(o->patterns[p], fp, sizeof fp);
        snprintf(path, sizeof path, "%s/tile_%s.png", dir, fp);
        if (img_write_png(path, size, size, img, (size_t)size * 4, err, sizeof err) != MOS_OK) {
            fprintf(stderr, "mosaic: patterns: %s\n", err);
            free(img);
            return 1;
        }
    }
    free(img);
    return 0;
}

/* The first view of the first scene, rendered normally, tinted by the owner of
 * each 16x16 bin for 6 rasterizers (the G80's TP layout for g80). */
static int tinted_frames(const pa_opts *o, const char *dir)
{
    enum { WORKERS = 6, BIN = 16 };
    const int w = o->width, h = o->height;
    char err[512], path[1024], fp[128];
    scene *s = NULL;
    mos_context *ctx = NULL;
    scene_gpu *g = NULL;
    mos_target rt = { 0 };
    uint8_t *img = malloc((size_t)w * (size_t)h * 4), *tint = malloc((size_t)w * (size_t)h * 4);
    int rc = 1;
    mos_result r;
    if (!img || !tint) goto done;
    if ((r = scene_load(o->scenes[0], &s, err, sizeof err)) != MOS_OK) {
        fprintf(stderr, "mosaic: patterns: %s\n", err);
        goto done;
    }
    r = mos_context_create(&(mos_context_desc){ .pipeline = { .threads = o->threads } }, &ctx);
    if (r == MOS_OK) r = mos_target_create(ctx, &(mos_target_desc){ .width = w, .height = h, .samples = 1 }, &rt);
    if (r == MOS_OK) r = scene_upload(s, ctx, &g);
    mos_frame_desc fd = { .target = rt };
    scene_clear_color(s, fd.clear_rgba);
    scene_draw_opts so = { .width = w, .height = h };
    if (r == MOS_OK) r = mos_begin_frame(ctx, &fd);
    if (r == MOS_OK) r = scene_draw(g, ctx, &so);
    if (r == MOS_OK) r = mos_end_frame(ctx, NULL);
    if (r == MOS_OK) r = mos_target_read_rgba8(ctx, rt, img, (size_t)w * 4);
    if (r != MOS_OK) {
        fprintf(stderr, "mosaic: patterns: tinted frame: %s: %s\n", mos_result_name(r),
                ctx ? mos_last_error(ctx) : "");
        goto done;
    }
    const int bx_n = (w + BIN - 1) / BIN, by_n = (h + BIN - 1) / BIN;
    for (int p = 0; p < o->npatterns; p++) {
        pattern_table t;
        if (pattern_build(&t, o->patterns[p], WORKERS, bx_n, by_n, NULL, err, sizeof err) != MOS_OK) continue;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int wy = h - 1 - y;  /* image rows are top first, bins bottom first */
                uint8_t c[3];
                worker_color(t.owner[(wy / BIN) * bx_n + x / BIN], c);
                const uint8_t *src = img + ((size_t)y * (size_t)w + (size_t)x) * 4;
                uint8_t *dst = tint + ((size_t)y * (size_t)w + (size_t)x) * 4;
                for (int k = 0; k < 3; k++) dst[k] = (uint8_t)((src[k] * 3 + c[k] * 2) / 5);
                dst[3] = 255;
            }
        pattern_free(&t, NULL);
        file_part(o->patterns[p], fp, sizeof fp);
        snprintf(path, sizeof path, "%s/frame_%s.png", dir, fp);
        if (img_write_png(path, w, h, tint, (size_t)w * 4, err, sizeof err) != MOS_OK) {
            fprintf(stderr, "mosaic: patterns: %s\n", err);
            goto done;
        }
    }
    rc = 0;
done:
    if (ctx) {
        scene_gpu_free(g, ctx);
        if (rt.id) mos_target_destroy(ctx, rt);
        mos_context_destroy(ctx);
    }
    if (s) scene_free(s);
    free(img), free(tint);
    return rc;
}

static void nan_or(FILE *f, double v)
{
    if (isnan(v)) fputs(" NaN", f);
    else fprintf(f, " %.6g", v);
}

static int gnuplot(const pa_opts *o, const pa_results *r, const char *dir)
{
    char path[1024], fp[128];
    /* fig11 data: one file per pattern, columns N, cv% per bin size (M = first batch count) */
    for (int p = 0; p < o->npatterns; p++) {
        file_part(o->patterns[p], fp, sizeof fp);
        snprintf(path, sizeof path, "%s/cv_%s.dat", dir, fp);
        FILE *f = fopen(path, "w");
        if (!f) { perror(path); return 1; }
        fprintf(f, "# rasterizers, cv (%%) per bin size:");
        for (int b = 0; b < o->nbins; b++) fprintf(f, " %d", o->bins[b]);
        fputc('\n', f);
        for (int n = 0; n < o->nrast; n++) {
            fprintf(f, "%d", o->rast[n]);
            for (int b = 0; b < o->nbins; b++) nan_or(f, 100 * mean_over_views(o, r, p, b, n, 0));
            fputc('\n', f);
        }
        fclose(f);
    }
    int vdc = -1, b16 = 0, n6 = -1, n20 = -1;
    for (int p = 0; p < o->npatterns; p++)
        if (strcmp(o->patterns[p], "vdc") == 0) vdc = p;
    for (int b = 0; b < o->nbins; b++)
        if (o->bins[b] == 16) b16 = b;
    for (int n = 0; n < o->nrast; n++) {
        if (o->rast[n] == 6) n6 = n;
        if (o->rast[n] == 20) n20 = n;
    }
    const int fig12 = vdc >= 0 && o->nbatches > 1 && (n6 >= 0 || n20 >= 0);
    if (fig12)
        for (int p = 0; p < o->npatterns; p++) {
            file_part(o->patterns[p], fp, sizeof fp);
            snprintf(path, sizeof path, "%s/rel_%s.dat", dir, fp);
            FILE *f = fopen(path, "w");
            if (!f) { perror(path); return 1; }
            fprintf(f, "# batches, cv / cv(vdc) at bin %d for 6 and 20 rasterizers, cv%% at 6\n", o->bins[b16]);
            for (int m = 0; m < o->nbatches; m++) {
                fprintf(f, "%d", o->batches[m]);
                const int ns[2] = { n6, n20 };
                for (int k = 0; k < 2; k++) {
                    double v = ns[k] < 0 ? NAN : mean_over_views(o, r, p, b16, ns[k], m),
                           ref = ns[k] < 0 ? NAN : mean_over_views(o, r, vdc, b16, ns[k], m);
                    nan_or(f, v / ref);
                }
                nan_or(f, n6 < 0 ? NAN : 100 * mean_over_views(o, r, p, b16, n6, m));
                fputc('\n', f);
            }
            fclose(f);
        }
    snprintf(path, sizeof path, "%s/plots.gp", dir);
    FILE *g = fopen(path, "w");
    if (!g) { perror(path); return 1; }
    fprintf(g, "# gnuplot script written by mosaic patterns; run from %s\n", dir);
    fprintf(g, "set terminal pngcairo size %d,520 font ',10'\nset output 'fig11_cv_vs_rasterizers.png'\n",
            420 * o->nbins + 200);
    fprintf(g, "set multiplot layout 1,%d title 'cv of rasterizer load (mean over %d scene views, %d batch)'\n",
            o->nbins, r->nsv, o->batches[0]);
    fprintf(g, "set xlabel 'rasterizers'\nset ylabel 'cv (%%)'\nset key top left font ',8'\nset grid\n");
    for (int b = 0; b < o->nbins; b++) {
        fprintf(g, "set title '%dx%d bins'\nplot ", o->bins[b], o->bins[b]);
        for (int p = 0; p < o->npatterns; p++) {
            file_part(o->patterns[p], fp, sizeof fp);
            fprintf(g, "%s'cv_%s.dat' using 1:%d with lines lw %d title '%s'", p ? ", " : "", fp, b + 2,
                    strcmp(o->patterns[p], "vdc") == 0 || strcmp(o->patterns[p], "diagonal") == 0 ? 3 : 1,
                    o->patterns[p]);
        }
        fputc('\n', g);
    }
    fputs("unset multiplot\n", g);
    if (fig12) {
        fprintf(g, "set output 'fig12_cv_vs_batches.png'\nset terminal pngcairo size 1500,520 font ',10'\n");
        fprintf(g, "set multiplot layout 1,3 title 'partitioned frames, %dx%d bins'\nset logscale x\n"
                   "set xlabel 'batches M'\n", o->bins[b16], o->bins[b16]);
        const char *titles[3] = { "cv (%), 6 rasterizers", "cv / cv(vdc), 6 rasterizers", "cv / cv(vdc), 20 rasterizers" };
        const int cols[3] = { 4, 2, 3 };
        for (int k = 0; k < 3; k++) {
            fprintf(g, "set title '%s'\nset ylabel '%s'\nplot ", titles[k], k ? "relative cv" : "cv (%)");
            for (int p = 0; p < o->npatterns; p++) {
                file_part(o->patterns[p], fp, sizeof fp);
                fprintf(g, "%s'rel_%s.dat' using 1:%d with linespoints title '%s'", p ? ", " : "", fp, cols[k],
                        o->patterns[p]);
            }
            fputc('\n', g);
        }
        fputs("unset multiplot\n", g);
    }
    fclose(g);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot plots.gp", dir);
    if (strchr(dir, '\'')) {
        fprintf(stderr, "mosaic: patterns: --plot: a quote in '%s'; run gnuplot on %s/plots.gp yourself\n", dir, dir);
        return 1;
    }
    int st = system(cmd);
    if (st != 0) {
        fprintf(stderr, "mosaic: patterns: gnuplot failed (status %d); is gnuplot-nox installed? "
                        "The data and %s/plots.gp are there.\n", st, dir);
        return 1;
    }
    return 0;
}

int pa_plot(const pa_opts *o, const pa_results *r, const char *dir)
{
    if (make_dir(dir)) return 1;
    int rc = tiles(o, dir);
    rc |= tinted_frames(o, dir);
    rc |= gnuplot(o, r, dir);
    return rc;
}
