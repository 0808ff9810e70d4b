/* patterns_analyze.c — the analyzer behind `mosaic patterns SCENE...`: counts fragments per pixel with a
 * real render (scene count_mode), then rasterizer loads, cv and max/mean for every pattern, bin size,
 * rasterizer count and batch split; the CSV and the simulated scale-out.  Fed by cli_patterns.c. */
#include "tools/patterns.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern/pattern.h"
#include "scene/scene.h"

/* ---- progress bar ------------------------------------------------------------------ */

typedef struct pa_progress {
    int on;
    uint64_t done, total;
    int last;  /* last printed per-mille */
} pa_progress;

static void progress_step(pa_progress *p, const char *what)
{
    p->done++;
    if (!p->on || !p->total)
        return;
    int pm = (int)(1000 * p->done / p->total);
    if (pm == p->last && p->done != p->total)
        return;
    p->last = pm;
    char bar[41];
    int fill = pm * 40 / 1000;
    for (int i = 0; i < 40; i++) bar[i] = i < fill ? '#' : '.';
    bar[40] = '\0';
    fprintf(stderr, "\r[%s] %5.1f%% %-40.40s", bar, pm / 10.0, what);
    if (p->done == p->total)
        fputc('\n', stderr);
    fflush(stderr);
}

/* ---- pattern tables ------------------------------------------------------------------ */

/* Owner tables for (pattern, rasterizer count, bin size).  Patterns whose owner
 * does not depend on the grid's size are built once on the largest grid and
 * viewed with its stride; prut (row-major draws) and file: tables per bin size. */
typedef struct pa_table {
    uint16_t *owner;  /* NULL: the pattern rejects this rasterizer count */
    int stride;       /* bins per row of owner */
} pa_table;

typedef struct pa_tables {
    pa_table *t;  /* [pattern][rast][bin] */
    pattern_table *built;
    size_t nbuilt;
} pa_tables;

static int grid_dependent(const char *name)
{
    return strncmp(name, "prut", 4) == 0 || strncmp(name, "file:", 5) == 0;
}

static int tables_build(const pa_opts *o, pa_tables *pt)
{
    const size_t n = (size_t)o->npatterns * (size_t)o->nrast * (size_t)o->nbins;
    pt->t = calloc(n, sizeof *pt->t);
    pt->built = calloc(n, sizeof *pt->built);
    if (!pt->t || !pt->built) {
        fputs("mosaic: patterns: out of memory for the pattern tables\n", stderr);
        return 1;
    }
    int gx = 0, gy = 0;  /* the largest grid */
    for (int b = 0; b < o->nbins; b++) {
        int bx = (o->width + o->bins[b] - 1) / o->bins[b], by = (o->height + o->bins[b] - 1) / o->bins[b];
        gx = bx > gx ? bx : gx, gy = by > gy ? by : gy;
    }
    char err[512];
    for (int p = 0; p < o->npatterns; p++) {
        for (int r = 0; r < o->nrast; r++) {
            for (int b = 0; b < o->nbins; b++) {
                pa_table *t = &pt->t[((size_t)p * (size_t)o->nrast + (size_t)r) * (size_t)o->nbins + (size_t)b];
                if (!grid_dependent(o->patterns[p]) && b > 0) {
                    *t = pt->t[((size_t)p * (size_t)o->nrast + (size_t)r) * (size_t)o->nbins];
                    continue;
                }
                int bx = (o->width + o->bins[b] - 1) / o->bins[b], by = (o->height + o->bins[b] - 1) / o->bins[b];
                if (!grid_dependent(o->patterns[p]))
                    bx = gx, by = gy;
                pattern_table *pb = &pt->built[pt->nbuilt];
                mos_result res = pattern_build(pb, o->patterns[p], o->rast[r], bx, by, NULL, err, sizeof err);
                if (res == MOS_ERR_PATTERN_WORKERS) {
                    t->owner = NULL;  /* e.g. g80 at N != 6: no row */
                    continue;
                }
                if (res != MOS_OK) {
                    fprintf(stderr, "mosaic: patterns: %s\n", err);
                    return 1;
                }
                pt->nbuilt++;
                t->owner = pb->owner;
                t->stride = bx;
            }
        }
    }
    return 0;
}

static void tables_free(pa_tables *pt)
{
    for (size_t i = 0; i < pt->nbuilt; i++) pattern_free(&pt->built[i], NULL);
    free(pt->built);
    free(pt->t);
}

/* ---- counting renders ------------------------------------------------------------------- */

typedef struct pa_render {
    mos_context *ctx;
    mos_target rt;
    scene_gpu *gpu;
    uint8_t *rgba;
    int w, h;
    uint64_t splits;
} pa_render;

/* Adds the covered samples per pixel of triangles [begin, end) into COUNT
 * (rows bottom first).  A pixel at 255 may have saturated: the range is then
 * rendered again as two halves (one triangle covers a pixel at most once). */
static int count_range(pa_render *pr, int view, uint64_t begin, uint64_t end, uint32_t *count)
{
    if (end <= begin)
        return 0;
    mos_frame_desc fd = { .target = pr->rt };
    scene_draw_opts so = { .width = pr->w, .height = pr->h, .view = view, .tri_begin = begin, .tri_end = end,
                           .count_mode = true };
    mos_result r;
    if ((r = mos_begin_frame(pr->ctx, &fd)) != MOS_OK || (r = scene_draw(pr->gpu, pr->ctx, &so)) != MOS_OK ||
        (r = mos_end_frame(pr->ctx, NULL)) != MOS_OK ||
        (r = mos_target_read_rgba8(pr->ctx, pr->rt, pr->rgba, (size_t)pr->w * 4)) != MOS_OK) {
        fprintf(stderr, "\nmosaic: patterns: counting render failed: %s: %s\n", mos_result_name(r),
                mos_last_error(pr->ctx));
        return 1;
    }
    const size_t npx = (size_t)pr->w * (size_t)pr->h;
    int saturated = 0;
    for (size_t i = 0; i < npx && !saturated; i++) saturated = pr->rgba[4 * i] == 255;
    if (saturated && end - begin > 1) {
        pr->splits++;
        uint64_t mid = begin + (end - begin) / 2;
        return count_range(pr, view, begin, mid, count) || count_range(pr, view, mid, end, count);
    }
    for (int y = 0; y < pr->h; y++) {
        const uint8_t *row = pr->rgba + (size_t)(pr->h - 1 - y) * (size_t)pr->w * 4;
        uint32_t *c = count + (size_t)y * (size_t)pr->w;
        for (int x = 0; x < pr->w; x++) c[x] += row[4 * x];
    }
    return 0;
}

static mos_result sum_tris(const scene_export_draw *d, void *user)
{
    *(uint64_t *)user += d->index_count / 3;
    return MOS_OK;
}

/* ---- loads -------------------------------------------------------------------------------- */

/* Nonzero bins of one slice at one bin size. */
typedef struct pa_bins {
    uint32_t *idx;   /* bin index by * bins_x + bx */
    uint64_t *cost;
    size_t n;
    int bins_x, bins_y;
} pa_bins;

static void bins_from_counts(const uint32_t *count, int w, int h, int bin, uint64_t *grid, pa_bins *out)
{
    const int bx = (w + bin - 1) / bin, by = (h + bin - 1) / bin;
    memset(grid, 0, (size_t)bx * (size_t)by * sizeof *grid);
    for (int y = 0; y < h; y++) {
        uint64_t *g = grid + (size_t)(y / bin) * (size_t)bx;
        const uint32_t *c = count + (size_t)y * (size_t)w;
        for (int x = 0; x < w; x++) g[x / bin] += c[x];
    }
    out->n = 0;
    out->bins_x = bx, out->bins_y = by;
    for (size_t i = 0; i < (size_t)bx * (size_t)by; i++)
        if (grid[i]) out->idx[out->n] = (uint32_t)i, out->cost[out->n++] = grid[i];
}

/* cv, max/mean and max of the loads of N rasterizers under table T. */
static void slice_loads(const pa_bins *bins, const pa_table *t, int n, double *load, double *cv, double *mom,
                        double *max)
{
    memset(load, 0, (size_t)n * sizeof *load);
    for (size_t i = 0; i < bins->n; i++) {
        uint32_t by = bins->idx[i] / (uint32_t)bins->bins_x, bx = bins->idx[i] % (uint32_t)bins->bins_x;
        load[t->owner[(size_t)by * (size_t)t->stride + (size_t)bx]] += (double)bins->cost[i];
    }
    double sum = 0, mx = 0;
    for (int r = 0; r < n; r++) sum += load[r], mx = load[r] > mx ? load[r] : mx;
    const double mean = sum / n;
    double var = 0;
    for (int r = 0; r < n; r++) var += (load[r] - mean) * (load[r] - mean);
    var /= n;
    *cv = mean > 0 ? sqrt(var) / mean : NAN;
    *mom = mean > 0 ? mx / mean : NAN;
    *max = mx;
}

static const char *base_name(const char *path, char *buf, size_t size)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = strrchr(b, '.');
    snprintf(buf, size, "%.*s", dot && dot != b ? (int)(dot - b) : (int)strlen(b), b);
    return buf;
}

/* What pa_analyze's passes share: the pattern tables, the renderer and the scratch buffers. */
typedef struct pa_work {
    const pa_tables *pt;
    pa_render *pr;
    pa_progress *prog;
    uint32_t *count;  /* fragments per pixel of one slice */
    uint64_t *grid;
    pa_bins *bins;    /* per bin size */
    double *load;
} pa_work;

/* View V (scene-view SV, TRIS triangles) cut into o->batches[M] slices: each slice's fragments binned at
 * every bin size and its load spread under every pattern and rasterizer count, averaged into the cells.
 * 0, or -1 (printed). */
static int analyze_batches(const pa_opts *o, pa_results *res, const pa_work *w, int sv, int v, int m,
                           uint64_t tris)
{
    const int nb = o->batches[m];
    /* per-cell accumulators live in the cells: sums, then divided */
    int *used = calloc((size_t)o->npatterns * (size_t)o->nbins * (size_t)o->nrast, sizeof *used);
    if (!used) {
        fputs("mosaic: patterns: out of memory\n", stderr);
        return -1;
    }
    for (int j = 0; j < nb; j++) {
        uint64_t b0 = tris * (uint64_t)j / (uint64_t)nb, b1 = tris * (uint64_t)(j + 1) / (uint64_t)nb;
        memset(w->count, 0, (size_t)o->width * (size_t)o->height * sizeof *w->count);
        if (count_range(w->pr, v, b0, b1, w->count)) {
            free(used);
            return -1;
        }
        if (m == 0)
            for (size_t i = 0; i < (size_t)o->width * (size_t)o->height; i++) res->fragments += w->count[i];
        for (int b = 0; b < o->nbins; b++)
            bins_from_counts(w->count, o->width, o->height, o->bins[b], w->grid, &w->bins[b]);
        for (int p = 0; p < o->npatterns; p++)
            for (int b = 0; b < o->nbins; b++)
                for (int n = 0; n < o->nrast; n++) {
                    const pa_table *t = &w->pt->t[((size_t)p * (size_t)o->nrast + (size_t)n) * (size_t)o->nbins + (size_t)b];
                    if (!t->owner)
                        continue;
                    double cv, mom, mx;
                    slice_loads(&w->bins[b], t, o->rast[n], w->load, &cv, &mom, &mx);
                    pa_cell *c = pa_at(o, res, sv, p, b, n, m);
                    c->max_load_sum += mx;
                    if (!isnan(cv)) {
                        c->cv += cv, c->max_over_mean += mom;
                        used[((size_t)p * (size_t)o->nbins + (size_t)b) * (size_t)o->nrast + (size_t)n]++;
                    }
                }
        progress_step(w->prog, res->sv_name[sv]);
    }
    for (int p = 0; p < o->npatterns; p++)
        for (int b = 0; b < o->nbins; b++)
            for (int n = 0; n < o->nrast; n++) {
                pa_cell *c = pa_at(o, res, sv, p, b, n, m);
                int u = used[((size_t)p * (size_t)o->nbins + (size_t)b) * (size_t)o->nrast + (size_t)n];
                c->cv = u ? c->cv / u : NAN;
                c->max_over_mean = u ? c->max_over_mean / u : NAN;
            }
    free(used);
    return 0;
}

int pa_analyze(const pa_opts *o, pa_results *res)
{
    memset(res, 0, sizeof *res);
    int rc = 1;
    char err[512];
    pa_tables pt = { 0 };
    pa_render pr = { .w = o->width, .h = o->height };
    scene **scenes = calloc((size_t)o->nscenes, sizeof *scenes);
    uint32_t *count = malloc((size_t)o->width * (size_t)o->height * sizeof *count);
    pr.rgba = malloc((size_t)o->width * (size_t)o->height * 4);
    int minbin = o->bins[0];
    for (int b = 1; b < o->nbins; b++) minbin = o->bins[b] < minbin ? o->bins[b] : minbin;
    const size_t grid_n = (size_t)((o->width + minbin - 1) / minbin) * (size_t)((o->height + minbin - 1) / minbin);
    uint64_t *grid = malloc(grid_n * sizeof *grid);
    pa_bins *bins = calloc((size_t)o->nbins, sizeof *bins);
    double *load = malloc(PA_MAX_RAST * sizeof *load);
    if (!scenes || !count || !pr.rgba || !grid || !bins || !load) {
        fputs("mosaic: patterns: out of memory\n", stderr);
        goto done;
    }
    for (int b = 0; b < o->nbins; b++) {
        bins[b].idx = malloc(grid_n * sizeof *bins[b].idx);
        bins[b].cost = malloc(grid_n * sizeof *bins[b].cost);
        if (!bins[b].idx || !bins[b].cost) {
            fputs("mosaic: patterns: out of memory\n", stderr);
            goto done;
        }
    }
    /* scenes and their views */
    pa_progress prog = { .on = o->progress, .last = -1 };
    uint64_t slices = 0;
    for (int m = 0; m < o->nbatches; m++) slices += (uint64_t)o->batches[m];
    for (int s = 0; s < o->nscenes; s++) {
        if (scene_load(o->scenes[s], &scenes[s], err, sizeof err) != MOS_OK) {
            fprintf(stderr, "mosaic: patterns: %s\n", err);
            goto done;
        }
        res->nsv += scene_view_count(scenes[s]);
    }
    prog.total = (uint64_t)res->nsv * slices + 1;
    res->sv_name = calloc((size_t)res->nsv, sizeof *res->sv_name);
    const size_t ncells = (size_t)res->nsv * (size_t)o->npatterns * (size_t)o->nbins * (size_t)o->nrast * (size_t)o->nbatches;
    res->cells = calloc(ncells, sizeof *res->cells);
    if (o->nranks)
        res->rank_cells = calloc((size_t)res->nsv * (size_t)o->npatterns * (size_t)o->nranks * (size_t)o->nworkers,
                                 sizeof *res->rank_cells);
    if (!res->sv_name || !res->cells || (o->nranks && !res->rank_cells)) {
        fputs("mosaic: patterns: out of memory\n", stderr);
        goto done;
    }
    if (tables_build(o, &pt))
        goto done;
    progress_step(&prog, "pattern tables");

    mos_result r = mos_context_create(&(mos_context_desc){ .pipeline = { .threads = o->threads } }, &pr.ctx);
    if (r == MOS_OK)
        r = mos_target_create(pr.ctx, &(mos_target_desc){ .width = o->width, .height = o->height, .samples = 1 },
                              &pr.rt);
    if (r != MOS_OK) {
        fprintf(stderr, "mosaic: patterns: %s: %s\n", mos_result_name(r),
                pr.ctx ? mos_last_error(pr.ctx) : mos_result_message(r));
        goto done;
    }
    const pa_work w = { .pt = &pt, .pr = &pr, .prog = &prog, .count = count, .grid = grid, .bins = bins,
                        .load = load };
    int sv = 0;
    for (int s = 0; s < o->nscenes; s++) {
        if ((r = scene_upload(scenes[s], pr.ctx, &pr.gpu)) != MOS_OK) {
            fprintf(stderr, "mosaic: patterns: %s: upload failed: %s\n", o->scenes[s], mos_last_error(pr.ctx));
            goto done;
        }
        char base[96];
        base_name(o->scenes[s], base, sizeof base);
        for (int v = 0; v < scene_view_count(scenes[s]); v++, sv++) {
            snprintf(res->sv_name[sv], sizeof res->sv_name[sv], "%s/%s", base, scene_view_name(scenes[s], v));
            scene_draw_opts so = { .width = o->width, .height = o->height, .view = v };
            uint64_t tris = 0;
            scene_export_frame(scenes[s], &so, sum_tris, &tris);
            for (int m = 0; m < o->nbatches; m++)
                if (analyze_batches(o, res, &w, sv, v, m, tris) != 0)
                    goto done;
            if (o->nranks) {  /* the whole frame at once, as mosaic-mpi renders it */
                memset(count, 0, (size_t)o->width * (size_t)o->height * sizeof *count);
                if (count_range(&pr, v, 0, tris, count) || pa_rank_level(o, res, sv, count))
                    goto done;
            }
        }
        scene_gpu_free(pr.gpu, pr.ctx);
        pr.gpu = NULL;
    }
    res->saturated_splits = pr.splits;
    rc = 0;
done:
    if (pr.ctx) {
        scene_gpu_free(pr.gpu, pr.ctx);
        if (pr.rt.id)
            mos_target_destroy(pr.ctx, pr.rt);
        mos_context_destroy(pr.ctx);
    }
    tables_free(&pt);
    for (int s = 0; scenes && s < o->nscenes; s++)
        if (scenes[s])
            scene_free(scenes[s]);
    for (int b = 0; bins && b < o->nbins; b++) free(bins[b].idx), free(bins[b].cost);
    free(bins), free(scenes), free(count), free(pr.rgba), free(grid), free(load);
    return rc;
}

void pa_results_free(pa_results *r)
{
    free(r->sv_name);
    free(r->cells);
    free(r->rank_cells);
    memset(r, 0, sizeof *r);
}

/* Mean over the scene views where the cell is defined (NaN when none). */
static double mean_cv(const pa_opts *o, const pa_results *r, int p, int b, int n, int m, int mom)
{
    double s = 0;
    int k = 0;
    for (int sv = 0; sv < r->nsv; sv++) {
        const pa_cell *c = pa_at(o, r, sv, p, b, n, m);
        double v = mom ? c->max_over_mean : c->cv;
        if (!isnan(v))
            s += v, k++;
    }
    return k ? s / k : NAN;
}

static void csv_num(FILE *f, double v)
{
    if (isnan(v))
        fputs(",", f);
    else
        fprintf(f, ",%.6g", v);
}

int pa_write_csv(const pa_opts *o, const pa_results *r, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 1;
    }
    fputs("scene,pattern,bin,rasterizers,batches,cv,max_over_mean\n", f);
    for (int sv = -1; sv < r->nsv; sv++)
        for (int p = 0; p < o->npatterns; p++)
            for (int b = 0; b < o->nbins; b++)
                for (int n = 0; n < o->nrast; n++)
                    for (int m = 0; m < o->nbatches; m++) {
                        double cv, mom;
                        if (sv < 0) {
                            cv = mean_cv(o, r, p, b, n, m, 0), mom = mean_cv(o, r, p, b, n, m, 1);
                        } else {
                            const pa_cell *c = pa_at(o, r, sv, p, b, n, m);
                            cv = c->cv, mom = c->max_over_mean;
                        }
                        if (isnan(cv))
                            continue;  /* pattern rejects N (g80), or no fragments */
                        fprintf(f, "%s,%s,%d,%d,%d", sv < 0 ? "all" : r->sv_name[sv], o->patterns[p], o->bins[b],
                                o->rast[n], o->batches[m]);
                        csv_num(f, cv);
                        csv_num(f, mom);
                        fputc('\n', f);
                    }
    if (fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

static int find_int(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x) return i;
    return -1;
}

void pa_print_scaleout(const pa_opts *o, const pa_results *r, FILE *f)
{
    int diag = -1;
    for (int p = 0; p < o->npatterns; p++)
        if (strcmp(o->patterns[p], "diagonal") == 0) diag = p;
    if (diag < 0) {
        fputs("scale-out: needs 'diagonal' among --patterns as the baseline\n", f);
        return;
    }
    static const int want_n[] = { 6, 20, 60 }, want_b[] = { 16, 64 };
    for (int m = 0; m < o->nbatches; m++) {
        fprintf(f, "\nsimulated scale-out, %d batch%s: speedup over diagonal = max load(diagonal) / max load(pattern),\n"
                   "bin cost = %s, harmonic mean over %d scene view%s\n",
                o->batches[m], o->batches[m] == 1 ? "" : "es", o->bin_costs ? o->bin_costs : "fragments", r->nsv,
                r->nsv == 1 ? "" : "s");
        fprintf(f, "%-14s", "pattern");
        for (int bi = 0; bi < 2; bi++)
            for (int ni = 0; ni < 3; ni++) fprintf(f, " %3dpx/N=%-3d", want_b[bi], want_n[ni]);
        fputc('\n', f);
        for (int p = 0; p < o->npatterns; p++) {
            fprintf(f, "%-14s", o->patterns[p]);
            for (int bi = 0; bi < 2; bi++)
                for (int ni = 0; ni < 3; ni++) {
                    int b = find_int(o->bins, o->nbins, want_b[bi]), n = find_int(o->rast, o->nrast, want_n[ni]);
                    double inv = 0;
                    int k = 0;
                    for (int sv = 0; b >= 0 && n >= 0 && sv < r->nsv; sv++) {
                        const pa_cell *c = pa_at(o, r, sv, p, b, n, m), *d = pa_at(o, r, sv, diag, b, n, m);
                        if (c->max_load_sum > 0 && d->max_load_sum > 0)
                            inv += c->max_load_sum / d->max_load_sum, k++;
                    }
                    if (k)
                        fprintf(f, " %11.3f", k / inv);
                    else
                        fprintf(f, " %11s", "-");
                }
            fputc('\n', f);
        }
    }
}
