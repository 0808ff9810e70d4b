/* bench.h — the room of `mosaic bench`: its types and each file's functions, leaves first.
 * Fed by the room's files (and bench/llvmpipe/lp_main.c for agree.c); main.c is the only way in from outside.
 *
 * Every call goes one way, down this list (no file calls back into its caller):
 *   main.c   the driver: options, run, outputs
 *   run.c    directories, buffers, configurations and the loop over them
 *   one.c    one sharp configuration A/B          blur.c   one --blur configuration
 *   kit.c    what a configuration needs: context, timed frame, medians, the child started
 *   options.c, out.c, child.c, agree.c: leaves (the command line; results; the llvmpipe child; agreement) */
#ifndef MOSAIC_TOOLS_BENCH_BENCH_H
#define MOSAIC_TOOLS_BENCH_BENCH_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "mosaic.h"
#include "scene/scene.h"
#include "tools/render_opts.h"

#define BENCH_MAX_LIST 16
#define BENCH_MAX_SCENES 32
#define BENCH_MAX_EQUAL 64  /* equal-PSNR searches remembered per run */
#define BENCH_TOL 2         /* agreement: channels within 2/255 */
#define BENCH_PATH 4200

/* The command line and suite file. */
typedef struct bench_opts {
    const char *scenes[BENCH_MAX_SCENES];
    int scene_count;
    int width, height, view, frames, warmup;
    int threads[BENCH_MAX_LIST], n_threads;
    int spp[BENCH_MAX_LIST], n_spp;
    int fma[BENCH_MAX_LIST], n_fma;
    int expensive[2], n_mode;  /* 0 = cheap, 1 = expensive */
    const char *patterns[BENCH_MAX_LIST];
    int n_pattern;
    int bins[BENCH_MAX_LIST], n_bin;
    int vs_llvmpipe, no_plots, keep_images;
    double check_pct;  /* < 0: off */
    const char *llvmpipe, *out_dir, *csv, *json;
    /* --blur MODE: Mosaic's blur in MODE against accumulation (bench_blur.c) */
    mos_sampling blur;       /* 0 = off; MOS_SAMPLING_DECOUPLED or _SUPERSAMPLE */
    float shading_rate;      /* --shading-rate of Mosaic's blur (0: the library's default) */
    bool bilinear;           /* --bilinear: Mosaic's blur reconstructs bilinearly */
    int truth_k, truth_spp;  /* ground truth: Mosaic accum of truth_k sub-frames at truth_spp MSAA */
    int max_accum;           /* equal-PSNR search: at most this many llvmpipe sub-frames */
    const char *truth_dir;   /* where ground truths are cached (default OUT/truth) */
    char *owned[256];  /* strings from suite files */
    int n_owned;
    /* the defaults of llvmpipe, csv, json and truth_dir (options.c, run.c) */
    char llvmpipe_buf[PATH_MAX + 32], csv_buf[BENCH_PATH], json_buf[BENCH_PATH], truth_buf[BENCH_PATH];
} bench_opts;

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
    /* --blur: Mosaic's blur frame (m_*) against llvmpipe accumulating K = spp pinhole sub-frames
     * (l_*, the whole accumulation per frame); PSNR in dB over R, G, B and mean SSIM (img_ssim)
     * against the ground truth */
    int blur;
    double m_psnr, l_psnr, m_ssim, l_ssim;
    int ma_ok;                 /* Mosaic --mode accum, K = spp */
    double ma_median, ma_min, ma_max, ma_psnr, ma_ssim;
    double accum_agree_psnr;   /* llvmpipe's accumulation against Mosaic's, same K */
    int eq_k;                  /* smallest K whose llvmpipe accumulation reaches m_psnr; 0 = not within max */
    int eq_searched;           /* sub-frames the search went through */
    double eq_psnr, eq_ssim, eq_median, eq_min, eq_max;
    double maq_median, maq_min, maq_max;  /* Mosaic --mode accum at that K */
    int truth_k, truth_spp, truth_cached;
    double truth_ms;
    char error[1100];          /* why something did not run ("" = fine) */
} bench_result;

/* One equal-PSNR search result, reused by configurations that render the same images
 * (the FMA shaders add x * 0: the same image as the cheap one). */
typedef struct bench_equal {
    const char *scene;
    int width, height, view, spp, threads;
    double target_psnr;
    int eq_k, searched;
    double eq_psnr, eq_ssim;
} bench_equal;

/* What one run of the suite shares between configurations. */
typedef struct bench_run {
    const bench_opts *o;
    bench_result *res;  /* the configurations, in the order they run */
    int total;
    scene **scenes;     /* o->scenes loaded, on first use */
    const scene *sc;    /* the current configuration's */
    char machine[384];
    char tmp_rgba[BENCH_PATH], tmp_ids[BENCH_PATH], img_dir[BENCH_PATH];
    char md_path[BENCH_PATH], blur_md[BENCH_PATH], blur_csv[BENCH_PATH];
    char renderer[256];  /* GL_RENDERER of the last child */
    mos_frame_stats *st;
    double *m_ms, *l_ms, (*stage)[4];
    uint8_t *m_rgba, *l_rgba;
    uint32_t *ids;
    bench_equal equal[BENCH_MAX_EQUAL];
    int n_equal;
} bench_run;

/* ---- options.c: the command line ------------------------------------------------- */
/* Parses ARGV (and --suite files) into O: 0, CLI_EXIT_USAGE (message printed) or -1 for --help (printed). */
int bench_parse(int argc, char **argv, bench_opts *o);
/* Defaults for what O left out, and the checks between options: 0, or the exit status (message printed). */
int bench_settle(bench_opts *o);

/* ---- child.c: the reference renderer as a child process (--serve protocol) */
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

/* ---- agree.c: image agreement of Mosaic against llvmpipe -------------------
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

/* ---- out.c: report lines, CSV, JSON, gnuplot, markdown ---------------------------------- */
#define BENCH_CSV_HEADER "scene,renderer,width,height,threads,spp,mode,pattern,bin,median_ms,min_ms,max_ms"
/* All four write into files; 0 or -1 with ERR. */
int bench_write_csv(const char *path, const bench_result *r, int n, int with_llvmpipe, char *err,
                    size_t err_size);
int bench_write_json(const char *path, const bench_result *r, int n, const char *renderer,
                     const char *machine, char *err, size_t err_size);
int bench_write_markdown(const char *path, const bench_result *r, int n, const char *renderer,
                         const char *machine, const char *command, char *err, size_t err_size);
/* --blur: DIR/blur.md (the table) and DIR/blur.csv (header BENCH_BLUR_CSV_HEADER). */
#define BENCH_BLUR_CSV_HEADER                                                                                  \
    "scene,width,height,threads,spp,shader,mosaic_mode,mosaic_ms,mosaic_psnr,llvmpipe_accum,llvmpipe_ms,"      \
    "llvmpipe_psnr,ratio,mosaic_accum_ms,mosaic_accum_psnr,accum_agree_psnr,equal_k,equal_k_psnr,"             \
    "equal_k_llvmpipe_ms,equal_ratio,truth_subframes,truth_spp,mosaic_ssim,llvmpipe_ssim,mosaic_accum_ssim,"     \
    "equal_k_ssim,equal_k_mosaic_accum_ms,equal_mosaic_ratio"
int bench_write_blur(const char *md_path, const char *csv_path, const bench_result *r, int n,
                     const char *mosaic_mode, const char *renderer, const char *machine, const char *command,
                     char *err, size_t err_size);
/* Writes DIR/plot.dat and DIR/plots.gp and runs gnuplot on them (ratio.png,
 * frame_ms.png, stages.png).  0, or -1 with ERR (gnuplot missing or failed). */
int bench_plot(const char *dir, const bench_result *r, int n, int with_llvmpipe, char *err,
               size_t err_size);
/* "CPU model, N online cores" for the reports. */
void bench_machine(char *buf, size_t size);
/* The lines of configuration R on stdout; 1 when its --check failed, else 0. */
int bench_report(const bench_opts *o, const bench_result *r);
/* All the files of the finished run BR (ARGV: the command for the reports); 1 when one failed, else 0. */
int bench_write_outputs(const bench_run *br, int argc, char **argv);

/* ---- kit.c: what the configurations share ------------------------------------------- */
double bench_now_ms(void);
/* Median / min / max of V[N] (sorts V). */
void bench_summarize(double *v, int n, double *med, double *lo, double *hi);
/* Reads exactly N bytes of PATH into DST: 0, or -1. */
int bench_read_raw(const char *path, void *dst, size_t n);
/* libmosaic's logger: the message into ((bench_result *)user_data)->error. */
void bench_logger(mos_result code, const char *message, void *user_data);
/* Starts the reference for R (size, fma, view, LP_NUM_THREADS = threads) with EXTRA arguments
 * (NULL-terminated, at most 14) and --serve; br->renderer from it.  0, or -1 with r->error. */
int bench_start_llvmpipe(bench_run *br, bench_result *r, const char *const *extra, bench_child *child);
/* R's context (its threads, pattern and bin; bench_logger into r->error), a target of SAMPLES per
 * pixel and br->sc uploaded; r->bin and r->pattern_used from the context.  MOS_OK, or the failure;
 * either way what was made is in *CTX, *RT, *GPU for render_context_free (tools/render_opts.h). */
mos_result bench_context(bench_run *br, bench_result *r, int samples, mos_context **ctx, mos_target *rt,
                         scene_gpu **gpu);
/* One Mosaic frame of the scene: begin (FD), draw, end (statistics into ST, which may be NULL). */
mos_result bench_mosaic_frame(mos_context *ctx, const mos_frame_desc *fd, const scene_gpu *gpu,
                              const scene_draw_opts *dopts, mos_frame_stats *st);
/* r->error = libmosaic's failure RES (the context's last error), unless it holds a message. */
void bench_fail(bench_result *r, const mos_context *ctx, mos_result res);
/* Frame F (>= 0) of Mosaic took MS: its time and per-stage times from br->st. */
void bench_note_frame(bench_run *br, int f, double ms);
/* After the frames: R's Mosaic medians, and the last frame's counters from br->st. */
void bench_note_mosaic(bench_run *br, bench_result *r);

/* ---- one.c and blur.c: one configuration (filled in by run.c), measured into R --------- */
/* Sharp: Mosaic and llvmpipe A/B, then the agreement of their images. */
void bench_one(bench_run *br, bench_result *r);
/* --blur: Mosaic's blur against the accumulation buffer. */
void bench_blur_one(bench_run *br, bench_result *r);

/* ---- run.c: the run --------------------------------------------------------------------- */
/* Directories, output paths, buffers and the configurations of O into BR: 0, or the exit status. */
int bench_prepare(bench_opts *o, bench_run *br);
/* Runs and reports every configuration: bit 0 a configuration failed, bit 1 a --check failed. */
int bench_run_all(bench_run *br);
/* Frees what bench_prepare made (safe after a failed or skipped prepare). */
void bench_release(bench_run *br);

#endif
