/* patterns.h — private interface of `mosaic patterns` (the bin-pattern load analyzer): options, results, plots.
 * Fed by cli_patterns.c (arguments); patterns_analyze.c fills pa_results, patterns_plot.c draws them. */
#ifndef MOSAIC_TOOLS_PATTERNS_H
#define MOSAIC_TOOLS_PATTERNS_H

#include <stdint.h>
#include <stdio.h>

#include "mosaic.h"

#define PA_MAX_LIST 64      /* entries of --bins, --batches, --patterns */
#define PA_MAX_RAST 256     /* largest rasterizer count */

typedef struct pa_opts {
    int width, height;
    int bins[PA_MAX_LIST], nbins;
    int rast[PA_MAX_RAST], nrast;          /* rasterizer counts, ascending */
    int batches[PA_MAX_LIST], nbatches;
    const char *patterns[PA_MAX_LIST];
    int npatterns;
    const char *csv_path, *plot_dir, *bin_costs;
    char **scenes;
    int nscenes;
    int threads;    /* worker threads of the counting renders (0 = the cores it may run on) */
    int progress;   /* progress bar on stderr */
    /* The rank level (mosaic-mpi, one level up): tiles of rank_tile pixels
     * owned by ranks[] ranks through each pattern, each rank's 16-pixel bins
     * over workers[] workers (diagonal, the library's default); none = off. */
    int ranks[PA_MAX_LIST], nranks;
    int workers[PA_MAX_LIST], nworkers;
    int rank_tile;
} pa_opts;

/* One (scene view, pattern, bin, rasterizers, batches) cell: averages over the
 * M batch slices that received fragments, and the summed per-slice maxima. */
typedef struct pa_cell {
    double cv, max_over_mean;  /* NaN when no slice had fragments or the pattern rejects N */
    double max_load_sum;       /* sum over slices of the most loaded rasterizer's cost */
} pa_cell;

/* One (scene view, pattern, ranks, workers) cell of the rank level. */
typedef struct pa_rank_cell {
    double cv;          /* of the ranks' loads (NaN: the pattern rejects the rank count) */
    double over_ideal;  /* the most loaded worker of any rank over total / (ranks x workers) */
} pa_rank_cell;

typedef struct pa_results {
    int nsv;                   /* scene views analysed */
    char (*sv_name)[128];      /* "scene/view" */
    pa_cell *cells;            /* [sv][pattern][bin][rast][batch] */
    uint64_t saturated_splits; /* slices re-rendered in halves because a pixel hit 255 */
    uint64_t fragments;        /* covered samples counted, all views, M = first batch count */
    pa_rank_cell *rank_cells;  /* [sv][pattern][ranks][workers] when o->nranks */
} pa_results;

static inline pa_cell *pa_at(const pa_opts *o, const pa_results *r, int sv, int p, int b, int n, int m)
{
    return &r->cells[((((size_t)sv * (size_t)o->npatterns + (size_t)p) * (size_t)o->nbins + (size_t)b) * (size_t)o->nrast + (size_t)n) * (size_t)o->nbatches + (size_t)m];
}

/* patterns_analyze.c: renders and measures every scene; 0, or 1 after a message on stderr. */
int pa_analyze(const pa_opts *o, pa_results *r);
void pa_results_free(pa_results *r);
/* Writes the CSV (header scene,pattern,bin,rasterizers,batches,cv,max_over_mean;
 * scene "all" rows are the mean over scene views). */
int pa_write_csv(const pa_opts *o, const pa_results *r, const char *path);
/* Prints the simulated scale-out (speedup over diagonal) to F. */
void pa_print_scaleout(const pa_opts *o, const pa_results *r, FILE *f);

/* patterns_ranks.c: the rank level of scene view SV from its covered samples per
 * pixel (COUNT, rows bottom first): 0, or 1 after a message on stderr.  And its
 * table (means over the scene views) on F. */
int pa_rank_level(const pa_opts *o, pa_results *r, int sv, const uint32_t *count);
void pa_print_ranks(const pa_opts *o, const pa_results *r, FILE *f);

/* patterns_plot.c: Figures 11, 12 (gnuplot), 6 (tile PNGs) and the tinted frame. */
int pa_plot(const pa_opts *o, const pa_results *r, const char *dir);

#endif
