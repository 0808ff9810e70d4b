/* cli_render.c — `mosaic render`: load a scene, render F frames, write PNG and stats JSON.
 * Fed by mosaic.c; drives scene/ (load, upload, draw), the public API and image/ (PNG out). */
#include "tools/render_opts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "image/image.h"
#include "scene/scene.h"

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
static const char render_usage_tail[] =
    "  -h, --help           show this help\n"
    "\n"
    "Prints 'wrote OUT.png (WxH, S spp) frame_ms=MEDIAN threads=N pattern=P'.\n"
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

/* SCENE's base name with its extension replaced by .png, in BUF. */
static const char *render_default_output(const char *scene_path, char *buf, size_t size)
{
    const char *base = strrchr(scene_path, '/');
    base = base ? base + 1 : scene_path;
    const char *dot = strrchr(base, '.');
    int n = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
    if (n == 0)
        snprintf(buf, size, "out.png");
    else
        snprintf(buf, size, "%.*s.png", n, base);
    return buf;
}

int cli_render_main(int argc, char **argv)
{
    render_opts o = { .width = 1920, .height = 1080, .spp = 1, .frames = 1 };
    int rc = render_parse(argc, argv, &o, NULL);
    if (rc < 0) {  /* --help */
        fputs(render_usage_head, stdout);
        fputs(render_opts_usage, stdout);
        fputs(render_usage_tail, stdout);
        return CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK)
        return rc;

    char default_out[512], err[1024];
    if (!o.out_path)
        o.out_path = render_default_output(o.scene_path, default_out, sizeof default_out);
    /* Fail before a long render when an output cannot be created. */
    if (cli_check_writable(o.out_path, err, sizeof err) != 0 ||
        (o.stats_path && cli_check_writable(o.stats_path, err, sizeof err) != 0)) {
        fprintf(stderr, "mosaic: %s\n", err);
        return CLI_EXIT_FAIL;
    }

    scene *sc = NULL;
    scene_gpu *gpu = NULL;
    mos_context *ctx = NULL;
    mos_target rt = { 0 };
    uint8_t *pixels = NULL;
    double *frame_ms = NULL;
    char *json = NULL;
    mos_frame_stats *st = NULL;
    render_log log = { .count = 0 };
    mos_result r;
    rc = CLI_EXIT_FAIL;

    err[0] = '\0';
    r = scene_load_ex(o.scene_path, &(scene_load_opts){ .glsl_builtins = o.glsl_builtins }, &sc, err, sizeof err);
    if (r == MOS_OK)
        r = scene_check_view(sc, o.scene_path, o.view, err, sizeof err);
    if (r != MOS_OK) {
        fprintf(stderr, "mosaic: %s\n", *err ? err : mos_result_message(r));
        goto done;
    }
    for (int i = 0; i < scene_warning_count(sc); i++)
        fprintf(stderr, "mosaic: %s\n", scene_warning(sc, i));

    const char *isa_env = getenv("MOSAIC_ISA");
    if (o.isa == MOS_ISA_AUTO && isa_env && *isa_env && cli_parse_isa("render", isa_env, &o.isa)) {
        r = MOS_ERR_INVALID_ARGUMENT;
        goto done;
    }
    mos_context_desc cd = {
        .pipeline = o.pipeline,
        .isa = o.isa,
        .logger = { .func = render_logger, .user_data = &log },
    };
    r = mos_context_create(&cd, &ctx);
    if (r != MOS_OK) {
        ctx = NULL;
        render_fail("mos_context_create", r, NULL, &log);
        goto done;
    }
    r = mos_target_create(ctx, &(mos_target_desc){ .width = o.width, .height = o.height,
                                                   .samples = o.spp }, &rt);
    if (r != MOS_OK) {
        render_fail("mos_target_create", r, ctx, &log);
        goto done;
    }
    r = scene_upload(sc, ctx, &gpu);
    if (r != MOS_OK) {
        gpu = NULL;
        render_fail("scene_upload", r, ctx, &log);
        goto done;
    }

    st = calloc(1, sizeof *st);
    frame_ms = calloc((size_t)o.frames, sizeof *frame_ms);
    pixels = malloc((size_t)o.width * (size_t)o.height * 4);
    if (!st || !frame_ms || !pixels) {
        fprintf(stderr, "mosaic: out of memory for a %dx%d image\n", o.width, o.height);
        goto done;
    }

    mos_frame_desc fd = { .target = rt, .blur = o.blur };
    scene_clear_color(sc, fd.clear_rgba);
    scene_draw_opts dopts = o.draw;
    dopts.width = o.width;
    dopts.height = o.height;
    dopts.fma = o.fma;
    dopts.view = o.view;
    scene_frame_lens(gpu, &dopts, &fd.blur);  /* the view was checked after loading */
    const int subframes = o.accum > 0 ? o.accum : 1;
    for (int f = 0; f < o.frames; f++) {
        frame_ms[f] = 0;
        for (int k = 0; k < subframes; k++) {
            if (o.accum)
                mos_accum_pinhole(k, fd.blur.pinhole);
            r = mos_begin_frame(ctx, &fd);
            if (r != MOS_OK) {
                render_fail("mos_begin_frame", r, ctx, &log);
                goto done;
            }
            r = scene_draw(gpu, ctx, &dopts);
            if (r != MOS_OK) {
                render_fail("scene_draw", r, ctx, &log);
                mos_end_frame(ctx, NULL);  /* leave the context in a sane state */
                goto done;
            }
            r = mos_end_frame(ctx, st);
            if (r != MOS_OK) {
                render_fail("mos_end_frame", r, ctx, &log);
                goto done;
            }
            frame_ms[f] += st->frame_ms;
            if (o.accum && f == o.frames - 1) {  /* the last frame's sub-frames, summed */
                r = mos_target_accumulate(ctx, rt, k == 0);
                if (r != MOS_OK) {
                    render_fail("mos_target_accumulate", r, ctx, &log);
                    goto done;
                }
            }
        }
    }
    r = o.accum ? mos_target_read_accumulated(ctx, rt, pixels, (size_t)o.width * 4, NULL)
                : mos_target_read_rgba8(ctx, rt, pixels, (size_t)o.width * 4);
    if (r != MOS_OK) {
        render_fail(o.accum ? "mos_target_read_accumulated" : "mos_target_read_rgba8", r, ctx, &log);
        goto done;
    }

    if (o.stats_path && !(json = cli_stats_json(st, frame_ms, o.frames, scene_warning_count(sc)))) {
        fprintf(stderr, "mosaic: out of memory formatting statistics\n");
        goto done;
    }
    r = img_write_png(o.out_path, o.width, o.height, pixels, (size_t)o.width * 4, err, sizeof err);
    if (r != MOS_OK) {
        fprintf(stderr, "mosaic: %s\n", err);
        goto done;
    }
    if (json && img_write_file(o.stats_path, json, strlen(json), err, sizeof err) != 0) {
        fprintf(stderr, "mosaic: %s\n", err);
        goto done;
    }

    mos_pipeline_desc used;
    mos_context_pipeline(ctx, &used);
    printf("wrote %s (%dx%d, %d spp) frame_ms=%.3f threads=%d pattern=%s\n", o.out_path, o.width,
           o.height, o.spp, cli_median(frame_ms, o.frames), used.threads,
           used.pattern ? used.pattern : "?");
    rc = CLI_EXIT_OK;

done:
    if (ctx) {
        if (gpu)
            scene_gpu_free(gpu, ctx);
        if (rt.id)
            mos_target_destroy(ctx, rt);
        mos_context_destroy(ctx);
    }
    if (sc)
        scene_free(sc);
    free(json);
    free(pixels);
    free(frame_ms);
    free(st);
    return rc;
}
