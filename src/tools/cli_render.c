/* cli_render.c — `mosaic render`: load a scene, render F frames, write PNG and stats JSON.
 * Fed by mosaic.c; drives scene/ (load, upload, draw), the public API and image/ (PNG out). */
#include "tools/cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "image/image.h"
#include "scene/scene.h"

static const char render_usage[] =
    "usage: mosaic render SCENE [options]\n"
    "\n"
    "Renders the scene file SCENE and writes the image as a PNG.\n"
    "\n"
    "Output:\n"
    "  -o, --output FILE    PNG to write (default: SCENE's base name + .png in the\n"
    "                       current directory); written only when rendering succeeds\n"
    "  --stats-json FILE    write the last frame's statistics as one JSON object\n"
    "                       (frame_ms is the median over all frames)\n"
    "Image:\n"
    "  --size WxH           image size in pixels, 1..16384 each (default 1920x1080)\n"
    "  --spp S              visibility samples per pixel: 1, 2, 4, 8, 16, 27, 32, 64\n"
    "                       (default 1)\n"
    "  --view I             camera index when the scene has several (default 0)\n"
    "  --fma N              extra dependent multiply-adds per fragment (default 0)\n"
    "  --frames F           frames to render; stats use the last (default 1)\n"
    "Blur and sampling (the camera's aperture, focus and shutter unless given):\n"
    "  --mode NAME          decoupled (default with blur), supersample, msaa (no blur)\n"
    "                       or accum (K pinhole sub-frames averaged, see --accum)\n"
    "  --accum K            sub-frames of --mode accum, 1..65536 (default 64)\n"
    "  --aperture R         lens radius in world units (0 = pinhole)\n"
    "  --focus D            focus distance in world units (0 = |target - eye|)\n"
    "  --shutter O,C        shutter interval within 0..1 (motion is per unit time)\n"
    "  --shading-rate R     shading-grid points per pixel edge, 1/16..16 (default 1)\n"
    "  --adaptive-rate      coarser shading grid for defocused triangles\n"
    "  --cache QUADS        shading-cache capacity per worker, 4..65536 (default 1024)\n"
    "  --bilinear           bilinear reconstruction from the shading grid\n"
    "Pipeline (0 or absent = the library's default):\n"
    "  --threads N          worker threads, 0..256 (default: online cores)\n"
    "  --pattern NAME       bin -> worker pattern (see 'mosaic patterns --list');\n"
    "                       file:PATH loads a table from a file\n"
    "  --bin S              fine bin edge in pixels, power of two 4..256 (default 16)\n"
    "  --coarse S           coarse tile edge in pixels, multiple of --bin (default 256)\n"
    "  --batch N|frame      primitives per binning batch, or the whole frame\n"
    "                       (default 4096)\n"
    "  --early K            early-draw capacity; 0 turns it off (default 64)\n"
    "  --fifo D             work items per worker FIFO (default 256)\n"
    "  --isa NAME           hot-loop instruction set: auto, scalar, avx2, avx512\n"
    "                       (default auto; also MOSAIC_ISA in the environment)\n"
    "  -h, --help           show this help\n"
    "\n"
    "Prints 'wrote OUT.png (WxH, S spp) frame_ms=MEDIAN threads=N pattern=P'.\n"
    "Exit status: 0 ok, 1 scene/library/file error, 2 bad arguments.\n";

typedef struct render_opts {
    const char *scene_path;
    const char *out_path;
    const char *stats_path;
    int width, height, spp, view, fma, frames;
    mos_pipeline_desc pipeline;
    mos_isa isa;
    mos_blur_desc blur;
    int accum;  /* > 0: --mode accum with this many sub-frames */
    scene_draw_opts draw;  /* blur overrides */
} render_opts;

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

/* Is NAME a registered pattern (or a file: table, which the library checks)? */
static int render_pattern_known(const char *name)
{
    if (strncmp(name, "file:", 5) == 0)
        return name[5] != '\0';
    const char *const *names = mos_pattern_names();
    if (!names)  /* no registry to check against: let the library decide */
        return 1;
    /* NAME or NAME:SEED; whether NAME takes a seed is the library's call. */
    size_t len = strcspn(name, ":");
    for (; *names; names++)
        if (strlen(*names) == len && strncmp(*names, name, len) == 0)
            return 1;
    return 0;
}

static int render_parse(int argc, char **argv, render_opts *o)
{
    cli_args a = { .argc = argc, .argv = argv, .cmd = "render" };
    const char *v;
    int r, n;
    for (a.i = 1; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        if (!a.only_positional && strcmp(arg, "--") == 0) {
            a.only_positional = 1;
        } else if ((r = cli_flag(&a, "--help")) != 0 || (r = cli_flag(&a, "-h")) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
            fputs(render_usage, stdout);
            return -1;
        } else if ((r = cli_option(&a, "-o", &v)) != 0 || (r = cli_option(&a, "--output", &v)) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
            if (!*v)
                return cli_usage_error(a.cmd, "%s: expected a file name, got ''", arg);
            o->out_path = v;
        } else if ((r = cli_option(&a, "--stats-json", &v)) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
            if (!*v)
                return cli_usage_error(a.cmd, "--stats-json: expected a file name, got ''");
            o->stats_path = v;
        } else if ((r = cli_option(&a, "--size", &v)) != 0) {
            if (r < 0 || cli_parse_size(a.cmd, "--size", v, 16384, &o->width, &o->height))
                return CLI_EXIT_USAGE;
        } else if ((r = cli_option(&a, "--threads", &v)) != 0) {
            if (r < 0 || cli_parse_int(a.cmd, "--threads", v, 0, MOS_MAX_WORKERS, &o->pipeline.threads))
                return CLI_EXIT_USAGE;
        } else if ((r = cli_option(&a, "--pattern", &v)) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
            if (!render_pattern_known(v))
                return cli_usage_error(a.cmd,
                                       "--pattern: unknown pattern '%s' (see 'mosaic patterns --list')", v);
            o->pipeline.pattern = v;
        } else if ((r = cli_option(&a, "--bin", &v)) != 0) {
            if (r < 0 || cli_parse_int(a.cmd, "--bin", v, 4, 256, &n))
                return CLI_EXIT_USAGE;
            if (n & (n - 1))
                return cli_usage_error(a.cmd, "--bin: expected a power of two in 4..256, got '%s'", v);
            o->pipeline.bin_px = n;
        } else if ((r = cli_option(&a, "--coarse", &v)) != 0) {
            if (r < 0 || cli_parse_int(a.cmd, "--coarse", v, 4, 16384, &o->pipeline.coarse_px))
                return CLI_EXIT_USAGE;
        } else if ((r = cli_option(&a, "--batch", &v)) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
            if (strcmp(v, "frame") == 0)
                o->pipeline.batch = -1;  /* whole frame */
            else if (cli_parse_int(a.cmd, "--batch", v, 1, 1 << 30, &o->pipeline.batch))
                return CLI_EXIT_USAGE;
        } else if ((r = cli_option(&a, "--early", &v)) != 0) {
            if (r < 0 || cli_parse_int(a.cmd, "--early", v, 0, 1 << 20, &n))
                return CLI_EXIT_USAGE;
            o->pipeline.early = n == 0 ? -1 : n;  /* 0 in the desc means "default" */
        } else if ((r = cli_option(&a, "--fifo", &v)) != 0) {
            if (r < 0 || cli_parse_int(a.cmd, "--fifo", v, 1, 1 << 20, &o->pipeline.fifo_depth))
                return CLI_EXIT_USAGE;
        } else if ((r = cli_option(&a, "--isa", &v)) != 0) {
            if (r < 0 || cli_parse_isa(a.cmd, v, &o->isa))
                return CLI_EXIT_USAGE;
        } else if ((r = cli_option(&a, "--spp", &v)) != 0) {
            if (r < 0 || cli_parse_int(a.cmd, "--spp", v, 1, 64, &o->spp))
                return CLI_EXIT_USAGE;
            static const int valid_spp[] = { 1, 2, 4, 8, 16, 27, 32, 64 };
            int ok = 0;
            for (int k = 0; k < 8; k++)
                ok |= o->spp == valid_spp[k];
            if (!ok)
                return cli_usage_error(a.cmd, "--spp: expected 1, 2, 4, 8, 16, 27, 32 or 64, got '%s'", v);
        } else if ((r = cli_option(&a, "--fma", &v)) != 0) {
            if (r < 0 || cli_parse_int(a.cmd, "--fma", v, 0, 1 << 20, &o->fma))
                return CLI_EXIT_USAGE;
        } else if ((r = cli_option(&a, "--frames", &v)) != 0) {
            if (r < 0 || cli_parse_int(a.cmd, "--frames", v, 1, 100000, &o->frames))
                return CLI_EXIT_USAGE;
        } else if ((r = cli_option(&a, "--view", &v)) != 0) {
            if (r < 0 || cli_parse_int(a.cmd, "--view", v, 0, 1 << 20, &o->view))
                return CLI_EXIT_USAGE;
        } else if ((r = cli_option(&a, "--mode", &v)) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
            static const char *const modes[] = { "auto", "msaa", "decoupled", "supersample" };
            int m = -1;
            for (int k = 0; k < 4; k++)
                if (strcmp(v, modes[k]) == 0)
                    m = k;
            if (strcmp(v, "accum") == 0) {
                m = MOS_SAMPLING_MSAA;
                if (!o->accum)
                    o->accum = 64;
            }
            if (m < 0)
                return cli_usage_error(a.cmd, "--mode: expected decoupled, supersample, accum or msaa, got '%s'", v);
            o->blur.mode = (mos_sampling)m;
        } else if ((r = cli_option(&a, "--accum", &v)) != 0) {
            if (r < 0 || cli_parse_int(a.cmd, "--accum", v, 1, 65536, &o->accum))
                return CLI_EXIT_USAGE;
            o->blur.mode = MOS_SAMPLING_MSAA;
        } else if ((r = cli_option(&a, "--aperture", &v)) != 0) {
            if (r < 0 || cli_parse_float(a.cmd, "--aperture", v, 0, 1e6, &o->draw.aperture))
                return CLI_EXIT_USAGE;
            o->draw.set_aperture = true;
        } else if ((r = cli_option(&a, "--focus", &v)) != 0) {
            if (r < 0 || cli_parse_float(a.cmd, "--focus", v, 0, 1e9, &o->draw.focus))
                return CLI_EXIT_USAGE;
            o->draw.set_focus = true;
        } else if ((r = cli_option(&a, "--shutter", &v)) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
            char open[64];
            const char *comma = strchr(v, ',');
            if (!comma || (size_t)(comma - v) >= sizeof open)
                return cli_usage_error(a.cmd, "--shutter: expected OPEN,CLOSE within 0..1, got '%s'", v);
            memcpy(open, v, (size_t)(comma - v));
            open[comma - v] = '\0';
            if (cli_parse_float(a.cmd, "--shutter", open, 0, 1, &o->draw.shutter[0]) ||
                cli_parse_float(a.cmd, "--shutter", comma + 1, 0, 1, &o->draw.shutter[1]))
                return CLI_EXIT_USAGE;
            if (o->draw.shutter[1] < o->draw.shutter[0])
                return cli_usage_error(a.cmd, "--shutter: CLOSE must not be before OPEN, got '%s'", v);
            o->draw.set_shutter = true;
        } else if ((r = cli_option(&a, "--shading-rate", &v)) != 0) {
            if (r < 0 || cli_parse_float(a.cmd, "--shading-rate", v, 1.0 / 16, 16, &o->blur.shading_rate))
                return CLI_EXIT_USAGE;
        } else if ((r = cli_flag(&a, "--adaptive-rate")) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
            o->blur.adaptive_rate = true;
        } else if ((r = cli_option(&a, "--cache", &v)) != 0) {
            if (r < 0 || cli_parse_int(a.cmd, "--cache", v, 4, 65536, &o->blur.cache_quads))
                return CLI_EXIT_USAGE;
        } else if ((r = cli_flag(&a, "--bilinear")) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
            o->blur.bilinear = true;
        } else if (cli_is_option(&a)) {
            return cli_usage_error(a.cmd, "unknown option '%s'", arg);
        } else if (!o->scene_path) {
            o->scene_path = arg;
        } else {
            return cli_usage_error(a.cmd, "unexpected argument '%s' (scene is already '%s')", arg,
                                   o->scene_path);
        }
    }
    if (!o->scene_path)
        return cli_usage_error("render", "missing SCENE");
    if (o->pipeline.bin_px && o->pipeline.coarse_px && o->pipeline.coarse_px % o->pipeline.bin_px)
        return cli_usage_error("render", "--coarse: %d is not a multiple of --bin %d",
                               o->pipeline.coarse_px, o->pipeline.bin_px);
    return CLI_EXIT_OK;
}

/* The radical inverse of i in base b (the Halton sequence). */
static float radical_inverse(unsigned i, unsigned b)
{
    float f = 1.0f, r = 0.0f;
    for (; i; i /= b) {
        f /= (float)b;
        r += f * (float)(i % b);
    }
    return r;
}

/* Sub-frame k of an accumulation: a lens point uniform on the unit disk and
 * a shutter time, from the Halton sequence in bases 2, 3, 5 (stratified). */
static void accum_sample(int k, float uvt[3])
{
    unsigned i = (unsigned)k + 1;
    float r = sqrtf(radical_inverse(i, 2)), phi = 6.28318531f * radical_inverse(i, 3);
    uvt[0] = r * cosf(phi);
    uvt[1] = r * sinf(phi);
    uvt[2] = radical_inverse(i, 5);
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
    int rc = render_parse(argc, argv, &o);
    if (rc < 0)
        return CLI_EXIT_OK;  /* --help */
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
    double *accum = NULL;
    double *frame_ms = NULL;
    char *json = NULL;
    mos_frame_stats *st = NULL;
    render_log log = { .count = 0 };
    mos_result r;
    rc = CLI_EXIT_FAIL;

    err[0] = '\0';
    r = scene_load(o.scene_path, &sc, err, sizeof err);
    if (r == MOS_OK)
        r = scene_check_view(sc, o.scene_path, o.view, err, sizeof err);
    if (r != MOS_OK) {
        fprintf(stderr, "mosaic: %s\n", *err ? err : mos_result_message(r));
        goto done;
    }

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
    const size_t values = (size_t)o.width * (size_t)o.height * 4;
    if (o.accum && !(accum = calloc(values, sizeof *accum))) {
        fprintf(stderr, "mosaic: out of memory for the accumulation buffer\n");
        goto done;
    }
    for (int f = 0; f < o.frames; f++) {
        frame_ms[f] = 0;
        for (int k = 0; k < subframes; k++) {
            if (o.accum)
                accum_sample(k, fd.blur.pinhole);
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
                r = mos_target_read_rgba8(ctx, rt, pixels, (size_t)o.width * 4);
                if (r != MOS_OK) {
                    render_fail("mos_target_read_rgba8", r, ctx, &log);
                    goto done;
                }
                for (size_t i = 0; i < values; i++)
                    accum[i] += pixels[i];
            }
        }
    }
    if (o.accum) {
        for (size_t i = 0; i < values; i++)
            pixels[i] = (uint8_t)(accum[i] / (double)subframes + 0.5);
    } else {
        r = mos_target_read_rgba8(ctx, rt, pixels, (size_t)o.width * 4);
        if (r != MOS_OK) {
            render_fail("mos_target_read_rgba8", r, ctx, &log);
            goto done;
        }
    }

    if (o.stats_path && !(json = cli_stats_json(st, frame_ms, o.frames))) {
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
    free(accum);
    free(frame_ms);
    free(st);
    return rc;
}
