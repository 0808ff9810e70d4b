/* main.c — mosaic-mpi: `mpirun -n N mosaic-mpi render SCENE [options]`, one frame sort-first over MPI ranks.
 * Fed by mpirun (argv, parsed by render_opts like `mosaic render`); drives scene/, libmosaic with a tile mask
 * per rank (rank_tiles.c), MPI collectives (status, MPI_Gatherv of packed tiles) and image/ (PNG on rank 0). */
#include <mpi.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "image/image.h"
#include "tools/mpi/job.h"
#include "tools/sequence.h"

static const char mpi_usage_head[] =
    "usage: mpirun -n N mosaic-mpi render SCENE [options]\n"
    "\n"
    "Renders the scene file SCENE across N MPI ranks and writes one PNG, bit-identical\n"
    "to `mosaic render SCENE` with the same options, whatever N and the rank pattern.\n"
    "Every rank loads the scene; the screen is cut into tiles that the ranks own through\n"
    "a pattern table (the worker patterns' names, ranks in place of workers); each rank\n"
    "renders its tiles with its own --threads workers, and rank 0 gathers the tiles.\n"
    "\n"
    "Output (rank 0):\n"
    "  -o, --output FILE    PNG to write (default: SCENE's base name + .png in the\n"
    "                       current directory); written whole or not at all\n"
    "  --stats-json FILE    rank 0's frame statistics plus, per rank: tiles, render ms,\n"
    "                       wait ms, samples; the load cv over ranks; gather bytes, ms\n"
    "Ranks:\n"
    "  --rank-tile PX       screen tile edge in pixels, rounded up to a multiple of\n"
    "                       --bin (default 128)\n"
    "  --rank-pattern NAME  tile -> rank pattern, any worker pattern ('mosaic patterns\n"
    "                       --list', NAME:SEED, file:PATH); default " RANK_PATTERN_DEFAULT "\n";
static const char mpi_usage_sequence[] =
    "  Under MPI the frames are dealt to the ranks in turn, each frame whole on one\n"
    "  rank (every rank writes its own frames: a shared file system); rank 0 prints\n"
    "  a line per finished frame.  A failed frame is reported with its rank and the\n"
    "  job ends non-zero once the others are done; --resume renders what is missing.\n";
static const char mpi_usage_tail[] =
    "  -h, --help           show this help\n"
    "\n"
    "A rank that fails (bad option, scene it cannot read, out of memory) ends the job:\n"
    "rank 0 prints 'mosaic-mpi: rank R: reason' for each, no file is written, exit 1\n"
    "(2 for bad arguments).  At most 256 ranks (the pattern registry's worker limit).\n";

void job_fail(rank_status *st, int code, const char *fmt, ...)
{
    if (st->code != EXIT_OK) return;  /* the first reason is the one */
    st->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->msg, sizeof st->msg, fmt, ap);
    va_end(ap);
}

/* The library's messages of this rank, for its status. */
static void mpi_logger(mos_result code, const char *message, void *user_data)
{
    rank_status *st = user_data;
    job_fail(st, EXIT_FAIL, "libmosaic: %s: %s", mos_result_name(code),
         message && *message ? message : mos_result_message(code));
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int mpi_extra(cli_args *a, void *user)
{
    mpi_opts *m = user;
    const char *v;
    int r;
    if ((r = cli_option(a, "--rank-tile", &v)) != 0)
        return r < 0 || cli_parse_int(a->cmd, "--rank-tile", v, 4, 16384, &m->rank_tile) ? -1 : 1;
    if ((r = cli_option(a, "--rank-pattern", &v)) != 0) {
        if (r < 0) return -1;
        if (!render_pattern_known(v)) {
            cli_usage_error(a->cmd, "--rank-pattern: unknown pattern '%s' (see 'mosaic patterns --list')", v);
            return -1;
        }
        m->rank_pattern = v;
        return 1;
    }
    return 0;
}

/* Runs render_parse with its messages caught in a temporary file: rank 0
 * prints them as they are, the others keep them for their status (printed
 * by rank 0 when they differ from its own: the same arguments give the same
 * message, printed once). */
static int parse(job *j, int argc, char **argv)
{
    render_parse_cfg cfg = {.cmd = "mosaic-mpi", .sequences = true, .extra = mpi_extra, .user = &j->m};
    FILE *tmp = tmpfile();
    int saved = -1;
    fflush(stderr);
    if (tmp && (saved = dup(2)) >= 0) dup2(fileno(tmp), 2);
    int rc = render_parse(argc, argv, &j->o, &cfg);
    if (saved >= 0) {
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
    }
    if (tmp) {
        rewind(tmp);
        size_t n = fread(j->parse_msg, 1, sizeof j->parse_msg - 1, tmp);
        j->parse_msg[n] = '\0';
        fclose(tmp);
    }
    if (j->rank == 0) fputs(j->parse_msg, stderr);
    /* the first line, without its "mosaic-mpi: " */
    j->parse_msg[strcspn(j->parse_msg, "\n")] = '\0';
    if (strncmp(j->parse_msg, "mosaic-mpi: ", 12) == 0) memmove(j->parse_msg, j->parse_msg + 12, strlen(j->parse_msg + 12) + 1);
    return rc;
}

/* The scene, the context, the target, the rank tiles and this rank's mask. */
static void setup(job *j)
{
    render_opts *o = &j->o;
    rank_status *st = &j->status;
    if (j->rank == 0) {  /* a sequence's first frame stands for the rest */
        char err[1024];
        if (render_check_outputs(o, err, sizeof err) != 0) {
            job_fail(st, EXIT_FAIL, "%s", err);
            return;
        }
    }
    char err[1024] = "";
    mos_result r = scene_load_ex(o->scene_path, &(scene_load_opts){.glsl_builtins = o->glsl_builtins}, &j->sc, err,
                                 sizeof err);
    if (r == MOS_OK) r = scene_check_view(j->sc, o->scene_path, o->view, err, sizeof err);
    if (r != MOS_OK) {
        job_fail(st, EXIT_FAIL, "%s", *err ? err : mos_result_message(r));
        return;
    }
    if (j->rank == 0)
        for (int i = 0; i < scene_warning_count(j->sc); i++) fprintf(stderr, "mosaic-mpi: %s\n", scene_warning(j->sc, i));
    const char *isa_env = getenv("MOSAIC_ISA");
    if (o->isa == MOS_ISA_AUTO && isa_env && *isa_env && cli_parse_isa("mosaic-mpi", isa_env, &o->isa)) {
        job_fail(st, EXIT_USAGE, "MOSAIC_ISA: unknown instruction set '%s'", isa_env);
        return;
    }
    mos_context_desc cd = {.pipeline = o->pipeline, .isa = o->isa, .logger = {.func = mpi_logger, .user_data = st}};
    if ((r = mos_context_create(&cd, &j->ctx)) != MOS_OK) {
        j->ctx = NULL;
        job_fail(st, EXIT_FAIL, "mos_context_create: %s", mos_result_name(r));
        return;
    }
    if (mos_target_create(j->ctx, &(mos_target_desc){.width = o->width, .height = o->height, .samples = o->spp},
                          &j->rt) != MOS_OK ||
        scene_upload(j->sc, j->ctx, &j->gpu) != MOS_OK) {
        job_fail(st, EXIT_FAIL, "%s", mos_last_error(j->ctx));
        return;
    }
    mos_pipeline_desc used;
    mos_context_pipeline(j->ctx, &used);
    /* A launcher that binds each rank to one core (Open MPI does for 1 or 2
     * ranks) makes --threads N share it: 16 threads ran 4.5x slower so. */
    cpu_set_t cores;
    if (sched_getaffinity(0, sizeof cores, &cores) == 0 && CPU_COUNT(&cores) < used.threads &&
        CPU_COUNT(&cores) < sysconf(_SC_NPROCESSORS_ONLN))
        fprintf(stderr,
                "mosaic-mpi: rank %d: warning: %d worker threads share the %d core(s) this rank may run on; "
                "launch with the ranks unbound (Open MPI: mpirun --bind-to none) or bound to as many cores "
                "as --threads\n",
                j->rank, used.threads, CPU_COUNT(&cores));
    int tile_px = rank_tile_px(j->m.rank_tile, used.bin_px);
    r = rank_tiles_build(&j->tiles, j->m.rank_pattern, j->ranks, o->width, o->height, tile_px, err, sizeof err);
    if (r != MOS_OK) {
        job_fail(st, r == MOS_ERR_OUT_OF_MEMORY ? EXIT_FAIL : EXIT_USAGE, "--rank-pattern %s over %d ranks: %s",
             j->m.rank_pattern, j->ranks, err);
        return;
    }
    j->mask = malloc((size_t)j->tiles.tiles_x * (size_t)j->tiles.tiles_y);
    j->image = calloc((size_t)o->width * (size_t)o->height, 4);
    j->packed_bytes = rank_tiles_bytes(&j->tiles, j->rank);
    j->packed = malloc(j->packed_bytes ? j->packed_bytes : 1);
    j->frame_ms = calloc((size_t)o->frames, sizeof *j->frame_ms);
    if (!j->mask || !j->image || !j->packed || !j->frame_ms) {
        job_fail(st, EXIT_FAIL, "out of memory for a %dx%d image", o->width, o->height);
        return;
    }
    rank_tiles_mask(&j->tiles, j->rank, j->mask);
}

/* As cli_render.c's job_frames, with the tile mask when TILES. */
void job_render(job *j, double time, bool tiles)
{
    const render_opts *o = &j->o;
    rank_status *st = &j->status;
    mos_frame_desc fd = {.target = j->rt, .blur = o->blur, .inspect = o->blur_area ? MOS_INSPECT_BLUR_AREA : 0};
    if (tiles) {
        fd.tile_mask = j->mask;
        fd.tile_px = j->tiles.tile_px;
    }
    scene_clear_color(j->sc, fd.clear_rgba);
    scene_draw_opts dopts = render_draw_opts(o);
    dopts.time = time;
    scene_frame_lens(j->gpu, &dopts, &fd.blur);
    const int subframes = o->accum > 0 ? o->accum : 1;
    double t0 = now_ms();
    for (int f = 0; f < o->frames; f++) {
        j->frame_ms[f] = 0;
        for (int k = 0; k < subframes; k++) {
            if (o->accum) {
                mos_accum_pinhole(k, fd.blur.pinhole);
                mos_accum_jitter(k, fd.blur.pixel_offset);
            }
            if (mos_begin_frame(j->ctx, &fd) != MOS_OK) {
                job_fail(st, EXIT_FAIL, "%s", mos_last_error(j->ctx));
                return;
            }
            if (scene_draw(j->gpu, j->ctx, &dopts) != MOS_OK) {
                job_fail(st, EXIT_FAIL, "scene_draw: %s", mos_last_error(j->ctx));
                mos_end_frame(j->ctx, NULL);
                return;
            }
            if (mos_end_frame(j->ctx, &j->st) != MOS_OK) {
                job_fail(st, EXIT_FAIL, "%s", mos_last_error(j->ctx));
                return;
            }
            j->frame_ms[f] += j->st.frame_ms;
            if (o->accum && f == o->frames - 1 && mos_target_accumulate(j->ctx, j->rt, k == 0) != MOS_OK) {
                job_fail(st, EXIT_FAIL, "%s", mos_last_error(j->ctx));
                return;
            }
        }
    }
    j->render_ms = now_ms() - t0;
    mos_result r = o->accum ? mos_target_read_accumulated(j->ctx, j->rt, j->image, (size_t)o->width * 4, NULL)
                            : mos_target_read_rgba8(j->ctx, j->rt, j->image, (size_t)o->width * 4);
    if (r != MOS_OK) {
        job_fail(st, EXIT_FAIL, "%s", mos_last_error(j->ctx));
        return;
    }
    if (tiles) rank_tiles_pack(&j->tiles, j->rank, j->image, j->packed);
}

/* Every rank's status at rank 0, and whether all are ok (on every rank).
 * Rank 0 prints "mosaic-mpi: rank R: reason" for each failed rank. */
static int all_ok(job *j, int *exit_code)
{
    int mine = j->status.code, worst = 0;
    MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst == EXIT_OK) return 1;
    rank_status *all = j->rank == 0 ? calloc((size_t)j->ranks, sizeof *all) : NULL;
    MPI_Gather(&j->status, (int)sizeof j->status, MPI_BYTE, all, (int)sizeof j->status, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (j->rank == 0) {
        /* One line per failed rank and reason: a reason already shown (by
         * rank 0's option parser, or for a lower rank) is not repeated. */
        for (int r = 0; r < j->ranks && all; r++) {
            if (all[r].code == EXIT_OK || !all[r].msg[0]) continue;
            bool shown = all[0].code != EXIT_OK && all[0].shown && strcmp(all[r].msg, all[0].msg) == 0;
            for (int q = 0; q < r && !shown; q++) shown = all[q].code != EXIT_OK && strcmp(all[r].msg, all[q].msg) == 0;
            if (!shown) fprintf(stderr, "mosaic-mpi: rank %d: %s\n", r, all[r].msg);
        }
        int failed = 0;
        for (int r = 0; r < j->ranks && all; r++) failed += all[r].code != EXIT_OK;
        fprintf(stderr, "mosaic-mpi: %d of %d ranks failed; nothing written\n", all ? failed : -1, j->ranks);
        free(all);
    }
    *exit_code = worst;
    return 0;
}

/* One JSON array of N doubles (or integers when INTS). */
static void json_array(FILE *f, const char *key, const double *v, int n, int ints)
{
    fprintf(f, ",\n  \"%s\": [", key);
    for (int i = 0; i < n; i++) fprintf(f, ints ? "%s%.0f" : "%s%.6g", i ? ", " : "", v[i]);
    fputc(']', f);
}

/* Rank 0's --stats-json: its frame statistics (cli_stats_json: its own
 * tiles) and the ranks' (PER: ranks x 4 doubles: tiles, render ms, wait ms,
 * samples). */
static char *stats_json(const job *j, const double *per, double gather_ms, size_t gather_bytes)
{
    char *base = cli_stats_json(&j->st, j->frame_ms, j->o.frames, scene_warning_count(j->sc));
    if (!base) return NULL;
    char *end = strrchr(base, '}');
    if (end) *end = '\0';
    while (end && end > base && (end[-1] == '\n' || end[-1] == ' ')) *--end = '\0';
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f) {
        free(base);
        return NULL;
    }
    fputs(base, f);
    free(base);
    const int n = j->ranks;
    double *col = malloc((size_t)n * sizeof *col);
    if (!col) {
        fclose(f);
        free(buf);
        return NULL;
    }
    fprintf(f, ",\n  \"ranks\": %d,\n  \"rank_pattern\": \"%s\",\n  \"rank_tile\": %d", n, j->m.rank_pattern,
            j->tiles.tile_px);
    static const char *const keys[4] = {"rank_tiles", "rank_render_ms", "rank_wait_ms", "rank_samples"};
    for (int c = 0; c < 4; c++) {
        for (int r = 0; r < n; r++) col[r] = per[r * 4 + c];
        json_array(f, keys[c], col, n, c == 0 || c == 3);
    }
    double mean = 0, var = 0, max = 0;
    for (int r = 0; r < n; r++) mean += per[r * 4 + 1] / n;
    for (int r = 0; r < n; r++) {
        double d = per[r * 4 + 1] - mean;
        var += d * d / n;
        if (per[r * 4 + 1] > max) max = per[r * 4 + 1];
    }
    fprintf(f, ",\n  \"rank_load_cv\": %.6g,\n  \"rank_load_max_over_mean\": %.6g", mean > 0 ? sqrt(var) / mean : 0.0,
            mean > 0 ? max / mean : 0.0);
    fprintf(f, ",\n  \"gather_bytes\": %zu,\n  \"gather_ms\": %.6g\n}\n", gather_bytes, gather_ms);
    free(col);
    fclose(f);
    return buf;
}

/* Rank 0: the gathered tiles into one image, written with the stats. */
static int gather_and_write(job *j)
{
    const int n = j->ranks;
    int *counts = NULL, *displs = NULL;
    uint8_t *all = NULL;
    int ok = 1;
    size_t total = 0;
    if (j->rank == 0) {
        counts = malloc((size_t)n * sizeof *counts);
        displs = malloc((size_t)n * sizeof *displs);
        if (counts && displs) {
            for (int r = 0; r < n; r++) {
                size_t b = rank_tiles_bytes(&j->tiles, r);
                if (b > (size_t)INT32_MAX || total > (size_t)INT32_MAX - b) ok = 0;  /* MPI counts are int */
                counts[r] = (int)b;
                displs[r] = (int)total;
                total += b;
            }
            all = ok ? malloc(total ? total : 1) : NULL;
        }
        if (!counts || !displs || !all) ok = 0;
    }
    /* Rank 0's buffers decide whether the gather happens. */
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    double t0 = now_ms(), gather_ms = 0;
    if (ok) {
        MPI_Gatherv(j->packed, (int)j->packed_bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
        gather_ms = now_ms() - t0;
    }
    double mine[4] = {(double)rank_tiles_count(&j->tiles, j->rank), j->render_ms, j->wait_ms,
                      (double)j->st.visibility_samples};
    double *per = j->rank == 0 ? malloc((size_t)n * sizeof mine) : NULL;
    MPI_Gather(mine, 4, MPI_DOUBLE, per, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    int rc = EXIT_OK;
    if (j->rank == 0) {
        const render_opts *o = &j->o;
        char err[1024], *json = NULL;
        if (!ok || !per) {
            fprintf(stderr, "mosaic-mpi: rank 0: out of memory (or over 2 GiB) gathering a %dx%d image; nothing written\n",
                    o->width, o->height);
            rc = EXIT_FAIL;
        } else {
            for (int r = 0; r < n; r++) rank_tiles_unpack(&j->tiles, r, all + displs[r], j->image);
            if (o->stats_path && !(json = stats_json(j, per, gather_ms, total))) {
                fprintf(stderr, "mosaic-mpi: rank 0: out of memory formatting statistics\n");
                rc = EXIT_FAIL;
            } else if (img_write_png(o->out_path, o->width, o->height, j->image, (size_t)o->width * 4, err,
                                     sizeof err) != MOS_OK ||
                       (json && img_write_file(o->stats_path, json, strlen(json), err, sizeof err) != 0)) {
                fprintf(stderr, "mosaic-mpi: rank 0: %s\n", err);
                rc = EXIT_FAIL;
            } else {
                mos_pipeline_desc used;
                mos_context_pipeline(j->ctx, &used);
                printf("wrote %s (%dx%d, %d spp) frame_ms=%.3f ranks=%d rank_pattern=%s rank_tile=%d threads=%d "
                       "pattern=%s gather_ms=%.3f\n",
                       o->out_path, o->width, o->height, o->spp, cli_median(j->frame_ms, o->frames), n,
                       j->m.rank_pattern, j->tiles.tile_px, used.threads, used.pattern ? used.pattern : "?",
                       gather_ms);
            }
            free(json);
        }
    }
    free(per);
    free(all);
    free(counts);
    free(displs);
    return rc;
}

static void job_free(job *j)
{
    render_context_free(j->ctx, j->rt, j->gpu);
    if (j->sc) scene_free(j->sc);
    rank_tiles_free(&j->tiles);
    free(j->mask);
    free(j->image);
    free(j->packed);
    free(j->frame_ms);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    job j = {.o = {.width = 1920, .height = 1080, .spp = 1, .frames = 1},
             .m = {.rank_tile = RANK_TILE_DEFAULT, .rank_pattern = RANK_PATTERN_DEFAULT}};
    MPI_Comm_rank(MPI_COMM_WORLD, &j.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &j.ranks);
    int rc = EXIT_OK;
    if (argc < 2 || strcmp(argv[1], "render") != 0) {
        if (j.rank == 0)
            fprintf(stderr, "mosaic-mpi: expected 'render SCENE [options]'\nTry 'mosaic-mpi render --help'.\n");
        MPI_Finalize();
        return EXIT_USAGE;
    }
    /* argv[1] is the subcommand, as render_parse wants it (ARGV[0]). */
    int prc = parse(&j, argc - 1, argv + 1);
    if (prc < 0) {  /* --help */
        if (j.rank == 0) {
            fputs(mpi_usage_head, stdout);
            fputs(render_opts_usage, stdout);
            fputs(render_sequence_usage, stdout);
            fputs(mpi_usage_sequence, stdout);
            fputs(mpi_usage_tail, stdout);
        }
        MPI_Finalize();
        return EXIT_OK;
    }
    if (prc != CLI_EXIT_OK) {
        /* printed by rank 0's parser; the status below ends every rank */
        job_fail(&j.status, EXIT_USAGE, "%s", j.parse_msg[0] ? j.parse_msg : "bad arguments");
        j.status.shown = j.rank == 0;
    } else {
        if (!j.o.out_path)
            j.o.out_path = j.o.sequence ? seq_default_pattern(j.o.scene_path, j.default_out, sizeof j.default_out)
                                        : render_default_output(j.o.scene_path, j.default_out, sizeof j.default_out);
        if (j.ranks > 256) job_fail(&j.status, EXIT_USAGE, "at most 256 ranks (%d)", j.ranks);
        setup(&j);
    }
    if (all_ok(&j, &rc) && j.o.sequence) {
        rc = job_sequence(&j);
    } else if (rc == EXIT_OK) {
        job_render(&j, 0.0, true);
        double t0 = now_ms();
        int ok = all_ok(&j, &rc);  /* waits for the slowest rank */
        j.wait_ms = now_ms() - t0;
        if (ok) rc = gather_and_write(&j);
    }
    job_free(&j);
    MPI_Finalize();
    return rc;
}
