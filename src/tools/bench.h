/* bench.h — private interface of `mosaic bench`: configurations, results, the llvmpipe child, outputs.
 * Fed by cli_bench.c (suite and run loop); bench_child.c, bench_agree.c and bench_out.c serve it. */
#ifndef MOSAIC_TOOLS_BENCH_H
#define MOSAIC_TOOLS_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "mosaic.h"

/* One configuration of the suite and what was measured on it. */
typedef struct bench_result {
    /* configuration */
    const char *scene;  /* path */
    char scene_name[64];
    int width, height, threads, spp, fma, view, bin;
    const char *pattern;  /* asked for; NULL = library default */
    char pattern_used[64];  /* what the context reported (bin too) */
    char mode[32];        /* "cheap" or "fmaN" */
    /* Mosaic: wall time of begin_frame .. end_frame per frame, medians of the stats */
    int ok;               /* Mosaic ran */
    double m_median, m_min, m_max;
    double frontend_ms, frontend_stall_ms, first_work_ms, worker_busy_ms, stats_frame_ms;
    uint64_t triangles_in, triangles_binned, covered_pixels, visibility_samples, shade_invocations;
    /* llvmpipe */
    int lp_ok;
    double l_median, l_min, l_max;
    /* agreement of the two images (lp_ok only) */
    int agree_ok;
    double agree_pct;          /* pixels within 2/255 on every channel */
    uint64_t diff_pixels, diff_off_edge;
    int max_abs;
    char error[1100];          /* why something did not run ("" = fine) */
} bench_result;

/* ---- bench_child.c: the reference renderer as a child process (--serve protocol) */
typedef struct bench_child {
    pid_t pid;
    FILE *in, *out;  /* its stdin (we write), its stdout (we read) */
    char renderer[256];
} bench_child;

/* Starts ARGV[0] (argv NULL-terminated) with LP_NUM_THREADS=THREADS and waits for
 * "ready RENDERER".  0, or -1 with ERR. */
int bench_child_start(bench_child *c, char *const argv[], int threads, char *err, size_t err_size);
/* Sends CMD and reads one reply line into REPLY (without newline).  0, or -1 with
 * ERR (child gone, or it answered "error ..."). */
int bench_child_cmd(bench_child *c, const char *cmd, char *reply, size_t reply_size, char *err,
                    size_t err_size);
/* Sends "quit", closes the pipes and reaps the child. */
void bench_child_stop(bench_child *c);

/* ---- bench_agree.c: image agreement of Mosaic against llvmpipe -------------------
 * A pixel agrees when all four channels differ by at most TOL.  A differing pixel
 * is on an edge when its 3x3 neighbourhood in the ID render (draw << 20 |
 * primitive + 1, 0 = background) holds more than one ID. */
typedef struct bench_agreement {
    uint64_t pixels, agree, diff, diff_off_edge;
    int max_abs;
} bench_agreement;
void bench_agree(const uint8_t *a, const uint8_t *b, const uint32_t *ids, int width, int height, int tol,
                 bench_agreement *out);
/* Writes a PNG of the differences: red off-edge, yellow on-edge, grey where A is. */
int bench_write_diff_png(const char *path, const uint8_t *a, const uint8_t *b, const uint32_t *ids,
                         int width, int height, int tol, char *err, size_t err_size);

/* ---- bench_out.c: CSV, JSON, gnuplot, markdown ---------------------------------- */
#define BENCH_CSV_HEADER "scene,renderer,width,height,threads,spp,mode,pattern,bin,median_ms,min_ms,max_ms"
/* All four write into files; 0 or -1 with ERR. */
int bench_write_csv(const char *path, const bench_result *r, int n, int with_llvmpipe, char *err,
                    size_t err_size);
int bench_write_json(const char *path, const bench_result *r, int n, const char *renderer,
                     const char *machine, char *err, size_t err_size);
int bench_write_markdown(const char *path, const bench_result *r, int n, const char *renderer,
                         const char *machine, const char *command, char *err, size_t err_size);
/* Writes DIR/plot.dat and DIR/plots.gp and runs gnuplot on them (ratio.png,
 * frame_ms.png, stages.png).  0, or -1 with ERR (gnuplot missing or failed). */
int bench_plot(const char *dir, const bench_result *r, int n, int with_llvmpipe, char *err,
               size_t err_size);
/* "CPU model, N online cores" for the reports. */
void bench_machine(char *buf, size_t size);

#endif
