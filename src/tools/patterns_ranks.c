/* patterns_ranks.c — the rank level of `mosaic patterns`: how evenly a rank
 * pattern spreads a frame's work over mosaic-mpi's ranks (screen tiles of
 * --rank-tile pixels, as rank_tiles.c cuts them), and how far the most loaded
 * worker of any rank stands above a perfect spread over ranks x workers (a
 * rank's 16-pixel bins packed together and dealt by the diagonal pattern, as
 * the library does for a frame with a tile mask).
 * Fed by patterns_analyze.c (covered samples per pixel of each scene view). */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pattern/pattern.h"
#include "tools/patterns.h"

#define PA_RANK_BIN 16  /* the workers' bin edge (the library's default) */

static pa_rank_cell *rank_at(const pa_opts *o, const pa_results *r, int sv, int p, int ri, int wi)
{
    return &r->rank_cells[(((size_t)sv * (size_t)o->npatterns + (size_t)p) * (size_t)o->nranks + (size_t)ri) *
                              (size_t)o->nworkers + (size_t)wi];
}

/* The loads of rank RANK's W workers into load[0 .. W): its bins (MASK,
 * filled here) dealt as the library deals a masked frame's
 * (pattern_build_packed, the diagonal pattern).  0, or -1 (printed). */
static int rank_loads(const pa_opts *o, const uint64_t *cost, int bx, int by, const pattern_table *rt, int rank,
                      int W, uint8_t *mask, double *load)
{
    const int per_tile = o->rank_tile / PA_RANK_BIN;
    bool any = false;
    for (int y = 0; y < by; y++)
        for (int x = 0; x < bx; x++)
            any |= (mask[(size_t)y * (size_t)bx + (size_t)x] = rt->owner[(y / per_tile) * rt->bins_x + x / per_tile] == rank);
    memset(load, 0, (size_t)W * sizeof *load);
    if (!any) return 0;
    pattern_table wt;
    char err[512];
    if (pattern_build_packed(&wt, "diagonal", W, bx, by, mask, NULL, NULL, err, sizeof err) != MOS_OK) {
        fprintf(stderr, "mosaic: patterns: %s\n", err);
        return -1;
    }
    for (size_t b = 0; b < (size_t)bx * (size_t)by; b++)
        if (mask[b]) load[wt.owner[b]] += (double)cost[b];
    pattern_free(&wt, NULL);
    return 0;
}

/* The cell for rank table RT and W workers per rank over bin costs COST; -1 in
 * cv when a worker table could not be built (printed). */
static pa_rank_cell spread(const pa_opts *o, const uint64_t *cost, int bx, int by, const pattern_table *rt, int W,
                           uint8_t *mask, double *load)
{
    const int R = rt->workers;
    double total = 0, worst = 0, sum2 = 0;
    for (int r = 0; r < R; r++) {
        if (rank_loads(o, cost, bx, by, rt, r, W, mask, load) != 0) return (pa_rank_cell){ -1, NAN };
        double sum = 0;
        for (int w = 0; w < W; w++) sum += load[w], worst = fmax(worst, load[w]);
        total += sum;
        sum2 += sum * sum;
    }
    const double mean = total / R, var = fmax(0.0, sum2 / R - mean * mean);
    return (pa_rank_cell){ .cv = mean > 0 ? sqrt(var) / mean : NAN,
                           .over_ideal = total > 0 ? worst / (total / ((double)R * W)) : NAN };
}

int pa_rank_level(const pa_opts *o, pa_results *r, int sv, const uint32_t *count)
{
    const int bx = (o->width + PA_RANK_BIN - 1) / PA_RANK_BIN, by = (o->height + PA_RANK_BIN - 1) / PA_RANK_BIN;
    const int tx = (o->width + o->rank_tile - 1) / o->rank_tile, ty = (o->height + o->rank_tile - 1) / o->rank_tile;
    int maxw = 0;
    for (int i = 0; i < o->nworkers; i++) maxw = o->workers[i] > maxw ? o->workers[i] : maxw;
    uint64_t *cost = calloc((size_t)bx * (size_t)by, sizeof *cost);
    double *load = malloc((size_t)maxw * sizeof *load);
    uint8_t *mask = malloc((size_t)bx * (size_t)by);
    int rc = 1;
    char err[512];
    if (!cost || !load || !mask) {
        fputs("mosaic: patterns: out of memory for the rank level\n", stderr);
        goto done;
    }
    for (int y = 0; y < o->height; y++)
        for (int x = 0; x < o->width; x++)
            cost[(size_t)(y / PA_RANK_BIN) * (size_t)bx + (size_t)(x / PA_RANK_BIN)] +=
                count[(size_t)y * (size_t)o->width + (size_t)x];
    for (int p = 0; p < o->npatterns; p++)
        for (int ri = 0; ri < o->nranks; ri++) {
            pattern_table rt;
            mos_result res = pattern_build(&rt, o->patterns[p], o->ranks[ri], tx, ty, NULL, err, sizeof err);
            if (res != MOS_OK && res != MOS_ERR_PATTERN_WORKERS) {
                fprintf(stderr, "mosaic: patterns: %s\n", err);
                goto done;
            }
            for (int wi = 0; wi < o->nworkers; wi++) {
                pa_rank_cell c = res == MOS_OK ? spread(o, cost, bx, by, &rt, o->workers[wi], mask, load)
                                               : (pa_rank_cell){ NAN, NAN };
                *rank_at(o, r, sv, p, ri, wi) = c;
                if (c.cv == -1) {
                    pattern_free(&rt, NULL);
                    goto done;
                }
            }
            if (res == MOS_OK) pattern_free(&rt, NULL);
        }
    rc = 0;
done:
    free(mask), free(load), free(cost);
    return rc;
}

void pa_print_ranks(const pa_opts *o, const pa_results *r, FILE *f)
{
    fprintf(f, "\nrank level (mosaic-mpi): %d-px tiles over R ranks by each pattern; cv of the ranks' loads (%%),\n"
               "then the most loaded worker (W per rank, %d-px bins, diagonal) over a perfect spread on R x W;\n"
               "means over %d scene view%s\n%-14s",
            o->rank_tile, PA_RANK_BIN, r->nsv, r->nsv == 1 ? "" : "s", "pattern");
    for (int ri = 0; ri < o->nranks; ri++) fprintf(f, " cv R=%-4d", o->ranks[ri]);
    for (int ri = 0; ri < o->nranks; ri++)
        for (int wi = 0; wi < o->nworkers; wi++) fprintf(f, " %4dx%-4d", o->ranks[ri], o->workers[wi]);
    fputc('\n', f);
    for (int p = 0; p < o->npatterns; p++) {
        fprintf(f, "%-14s", o->patterns[p]);
        for (int pass = 0; pass < 2; pass++)
            for (int ri = 0; ri < o->nranks; ri++)
                for (int wi = 0; wi < (pass ? o->nworkers : 1); wi++) {
                    double s = 0;
                    int k = 0;
                    for (int sv = 0; sv < r->nsv; sv++) {
                        const pa_rank_cell *c = rank_at(o, r, sv, p, ri, wi);
                        double v = pass ? c->over_ideal : c->cv;
                        if (!isnan(v)) s += v, k++;
                    }
                    if (k) fprintf(f, pass ? " %9.2f" : " %9.2f", pass ? s / k : 100 * s / k);
                    else fprintf(f, " %9s", "-");
                }
        fputc('\n', f);
    }
}
