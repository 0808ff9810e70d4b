/* cli_render.c — `mosaic render`: load a scene, render F frames, write PNG and stats JSON.
 * Fed by mosaic.c; drives scene/ (load, upload, draw), the public API and image/ (PNG out). */
#include "tools/render_opts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "image/image.h"
#include "scene/scene.h"
#include "tools/sequence.h"

static const char render_usage_head[] =
    "usage: mosaic render SCENE [options]\n"
    "\n"
    "Renders the scene file SCENE and writes the image as a PNG.\n"
    "\n"
    "Output:\n"
    "  -o, --output FILE    PNG to write (default: SCENE's base name + .png in the\n"
    "                       current directory); written only when rendering succeeds\n"
    "  --stats-json FILE    write the last frame's statistics as one JSON object\n"
    "                       (frame_ms is the median over all frames)\n";
static const char render_usage_sequence_tail[] =
    "  Each frame is written when done, whole (a temporary file renamed), with a\n"
    "  'wrote' line; a failed frame ends the run (exit 1), and --resume goes on\n"
    "  from there.\n";
static const char render_usage_tail[] =
    "  -h, --help           show this help\n"
    "\n"
    "Prints 'wrote OUT.png (WxH, S spp) frame_ms=MEDIAN threads=N pattern=P'\n"
    "(and ' frame=K (I/N)' in a sequence).\n"
    "Exit status: 0 ok, 1 scene/library/file error, 2 bad arguments.\n";

/* What the logger saw last, so a failure is not reported twice. */
typedef struct render_log {
    char last[512];
    int count;
} render_log;

static void render_logger(mos_result code, const char *message, void *user_data)
{
    render_log *log = user_data;
    fprintf(stderr, "mosaic: libmosaic: %s: %s\n", mos_result_name(code),
            message && *message ? message : mos_result_message(code));
    snprintf(log->last, sizeof log->last, "%s", message ? message : "");
    log->count++;
}

/* "mosaic: STEP failed: MOS_ERR_X: message" (shortened when the logger has
 * already printed the message).  Returns CLI_EXIT_FAIL. */
static int render_fail(const char *step, mos_result r, const mos_context *ctx,
                       const render_log *log)
{
    const char *msg = ctx ? mos_last_error(ctx) : log->count ? log->last : "";
    if (log->count && *msg && strcmp(msg, log->last) == 0)
        fprintf(stderr, "mosaic: %s failed (%s)\n", step, mos_result_name(r));
    else
        fprintf(stderr, "mosaic: %s failed: %s: %s\n", step, mos_result_name(r),
                *msg ? msg : mos_result_message(r));
    return CLI_EXIT_FAIL;
}

/* One `mosaic render`: the options and what the render made, freed by job_free. */
typedef struct render_job {
    render_opts o;
    scene *sc;
    scene_gpu *gpu;
    mos_context *ctx;
    mos_target rt;
    uint8_t *pixels;
    double *frame_ms;
    mos_frame_stats *st;
    render_log log;
} render_job;

/* The scene loaded (its warnings printed) and its view checked: 0, or -1 (printed). */
static int job_load(render_job *j)
{
    char err[1024] = "";
    mos_result r = scene_load_ex(j->o.scene_path, &(scene_load_opts){ .glsl_builtins = j->o.glsl_builtins }, &j->sc,
                                 err, sizeof err);
    if (r == MOS_OK)
        r = scene_check_view(j->sc, j->o.scene_path, j->o.view, err, sizeof err);
    if (r != MOS_OK) {
        fprintf(stderr, "mosaic: %s\n", *err ? err : mos_result_message(r));
        return -1;
    }
    for (int i = 0; i < scene_warning_count(j->sc); i++)
        fprintf(stderr, "mosaic: %s\n", scene_warning(j->sc, i));
    return 0;
}

/* The context (ISA from --isa or MOSAIC_ISA), the target, the scene uploaded, the buffers: 0, or -1 (printed). */
static int job_open(render_job *j)
{
    render_opts *o = &j->o;
    const char *isa_env = getenv("MOSAIC_ISA");
    if (o->isa == MOS_ISA_AUTO && isa_env && *isa_env && cli_parse_isa("render", isa_env, &o->isa))
        return -1;
    mos_context_desc cd = {
        .pipeline = o->pipeline,
        .isa = o->isa,
        .logger = { .func = render_logger, .user_data = &j->log },
    };
    mos_result r = mos_context_create(&cd, &j->ctx);
    if (r != MOS_OK) {
        j->ctx = NULL;
        return render_fail("mos_context_create", r, NULL, &j->log), -1;
    }
    r = mos_target_create(j->ctx, &(mos_target_desc){ .width = o->width, .height = o->height, .samples = o->spp },
                          &j->rt);
    if (r != MOS_OK)
        return render_fail("mos_target_create", r, j->ctx, &j->log), -1;
    r = scene_upload(j->sc, j->ctx, &j->gpu);
    if (r != MOS_OK) {
        j->gpu = NULL;
        return render_fail("scene_upload", r, j->ctx, &j->log), -1;
    }
    j->st = calloc(1, sizeof *j->st);
    j->frame_ms = calloc((size_t)o->frames, sizeof *j->frame_ms);
    j->pixels = malloc((size_t)o->width * (size_t)o->height * 4);
    if (!j->st || !j->frame_ms || !j->pixels) {
        fprintf(stderr, "mosaic: out of memory for a %dx%d image\n", o->width, o->height);
        return -1;
    }
    return 0;
}

/* Sub-frame K of frame F (F, K >= 0): drawn, its time added to frame_ms[F]; with --mode accum the last frame's
 * sub-frames summed in the target.  0, or -1 (printed). */
static int job_subframe(render_job *j, mos_frame_desc *fd, const scene_draw_opts *dopts, int f, int k)
{
    if (j->o.accum) {
        mos_accum_pinhole(k, fd->blur.pinhole);
        mos_accum_jitter(k, fd->blur.pixel_offset);
    }
    mos_result r = mos_begin_frame(j->ctx, fd);
    if (r != MOS_OK)
        return render_fail("mos_begin_frame", r, j->ctx, &j->log), -1;
    r = scene_draw(j->gpu, j->ctx, dopts);
    if (r != MOS_OK) {
        render_fail("scene_draw", r, j->ctx, &j->log);
        mos_end_frame(j->ctx, NULL);  /* leave the context in a sane state */
        return -1;
    }
    r = mos_end_frame(j->ctx, j->st);
    if (r != MOS_OK)
        return render_fail("mos_end_frame", r, j->ctx, &j->log), -1;
    j->frame_ms[f] += j->st->frame_ms;
    if (j->o.accum && f == j->o.frames - 1) {  /* the last frame's sub-frames, summed */
        r = mos_target_accumulate(j->ctx, j->rt, k == 0);
        if (r != MOS_OK)
            return render_fail("mos_target_accumulate", r, j->ctx, &j->log), -1;
    }
    return 0;
}

/* The frames of scene time TIME (each --accum sub-frames or one; --frames repeats it), then the image into
 * j->pixels: 0, or -1 (printed). */
static int job_frames(render_job *j, double time)
{
    const render_opts *o = &j->o;
    mos_frame_desc fd = { .target = j->rt, .blur = o->blur, .inspect = o->blur_area ? MOS_INSPECT_BLUR_AREA : 0 };
    scene_clear_color(j->sc, fd.clear_rgba);
    scene_draw_opts dopts = render_draw_opts(o);
    dopts.time = time;
    scene_frame_lens(j->gpu, &dopts, &fd.blur);  /* the view was checked after loading */
    const int subframes = o->accum > 0 ? o->accum : 1;
    for (int f = 0; f < o->frames; f++) {
        j->frame_ms[f] = 0;
        for (int k = 0; k < subframes; k++)
            if (job_subframe(j, &fd, &dopts, f, k) != 0)
                return -1;
    }
    mos_result r = o->accum ? mos_target_read_accumulated(j->ctx, j->rt, j->pixels, (size_t)o->width * 4, NULL)
                            : mos_target_read_rgba8(j->ctx, j->rt, j->pixels, (size_t)o->width * 4);
    if (r != MOS_OK)
        return render_fail(o->accum ? "mos_target_read_accumulated" : "mos_target_read_rgba8", r, j->ctx, &j->log),
               -1;
    return 0;
}

/* Starts writing frame FRAME's image, rendered into seq_ring_pixels, as the PNG OUT with the statistics
 * JSON STATS ("": none) through the ring; the "wrote" line (PROGRESS after it) waits in the writer's note.
 * 0, or -1 (printed). */
static int job_start_write(render_job *j, seq_ring *ring, int frame, const char *out, const char *stats,
                           const char *progress)
{
    const render_opts *o = &j->o;
    char *json = NULL;
    if (*stats && !(json = cli_stats_json(j->st, j->frame_ms, o->frames, scene_warning_count(j->sc)))) {
        fprintf(stderr, "mosaic: out of memory formatting statistics\n");
        return -1;
    }
    mos_pipeline_desc used;
    mos_context_pipeline(j->ctx, &used);
    seq_writer *w = seq_ring_writer(ring);
    w->frame = frame;
    snprintf(w->note, sizeof w->note, "wrote %s (%dx%d, %d spp) frame_ms=%.3f threads=%d pattern=%s%s", out,
             o->width, o->height, o->spp, cli_median(j->frame_ms, o->frames), used.threads,
             used.pattern ? used.pattern : "?", progress);
    seq_ring_start(ring, out, *stats ? stats : NULL, o->width, o->height, json);
    return 0;
}

/* Write W has ended: its "wrote" line printed, or its error.  0, or -1 (printed). */
static int job_end_write(const render_job *j, seq_writer *w)
{
    if (!w->busy)
        return 0;
    if (seq_write_finish(w) != 0) {
        if (j->o.sequence)
            fprintf(stderr, "mosaic: frame %d: %s\n", w->frame, w->err);
        else
            fprintf(stderr, "mosaic: %s\n", w->err);
        return -1;
    }
    puts(w->note);
    fflush(stdout);
    return 0;
}

/* The image, or a sequence's frames first..last, each rendered and written unless --resume finds its
 * file; a sequence's PNGs are written by up to SEQ_WRITERS_MAX threads while the next frames render
 * (sequence.h, seq_ring).  0, or -1 (printed; the frames started before the failed one are written). */
static int job_images(render_job *j)
{
    const render_opts *o = &j->o;
    const int first = o->sequence ? o->first : 0, last = o->sequence ? o->last : 0, n = last - first + 1;
    int skipped = 0, failed = -1;
    uint8_t *own = j->pixels;
    seq_ring ring;
    seq_ring_init(&ring, own, o->width, o->height, n);
    for (int k = first; k <= last && failed < 0; k++) {
        char out[SEQ_PATH_MAX], stats[SEQ_PATH_MAX], progress[64] = "";
        if (!render_frame_paths(o, k, out, stats)) {
            fprintf(stderr, "mosaic: frame %d: the output file name is too long\n", k);
            failed = k;
        } else if (o->resume && seq_frame_done(out)) {
            skipped++;
        } else {
            if (o->sequence)
                snprintf(progress, sizeof progress, " frame=%d (%d/%d)", k, k - first + 1, n);
            seq_writer *w = seq_ring_writer(&ring);
            j->pixels = seq_ring_pixels(&ring);
            if (job_frames(j, k) != 0)
                failed = k;
            else if (job_end_write(j, w) != 0)
                failed = w->frame;
            else if (job_start_write(j, &ring, k, out, stats, progress) != 0)
                failed = k;
        }
    }
    for (seq_writer *w; (w = seq_ring_oldest(&ring)) != NULL;)
        if (job_end_write(j, w) != 0 && failed < 0)
            failed = w->frame;
    j->pixels = own;
    seq_ring_free(&ring);
    if (failed >= 0 && o->sequence)
        fprintf(stderr, "mosaic: frame %d failed; --resume renders the frames that are missing\n", failed);
    if (skipped)
        printf("resume: %d of %d frames were already written\n", skipped, n);
    return failed >= 0 ? -1 : 0;
}

static void job_free(render_job *j)
{
    render_context_free(j->ctx, j->rt, j->gpu);
    if (j->sc)
        scene_free(j->sc);
    free(j->pixels);
    free(j->frame_ms);
    free(j->st);
}

int cli_render_main(int argc, char **argv)
{
    render_job j = { .o = { .width = 1920, .height = 1080, .spp = 1, .frames = 1 } };
    int rc = render_parse(argc, argv, &j.o, NULL);
    if (rc < 0) {  /* --help */
        fputs(render_usage_head, stdout);
        fputs(render_opts_usage, stdout);
        fputs(render_sequence_usage, stdout);
        fputs(render_usage_sequence_tail, stdout);
        fputs(render_usage_tail, stdout);
        return CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    char default_out[512];
    if (!j.o.out_path)
        j.o.out_path = j.o.sequence ? seq_default_pattern(j.o.scene_path, default_out, sizeof default_out)
                                    : render_default_output(j.o.scene_path, default_out, sizeof default_out);
    char err[1024];
    if (render_check_outputs(&j.o, err, sizeof err) != 0) {
        fprintf(stderr, "mosaic: %s\n", err);
        return CLI_EXIT_FAIL;
    }
    rc = job_load(&j) == 0 && job_open(&j) == 0 && job_images(&j) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
    job_free(&j);
    return rc;
}
