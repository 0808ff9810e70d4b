/* render_opts.c — parsing the options of `mosaic render` (image, blur, pipeline), for the CLI and the viewer.
 * Fed by cli_render.c and view/view.c (argv) and view/script.c (one option at a time); frees what a
 * render made for them and bench/. */
#include "tools/render_opts.h"

#include <stdio.h>
#include <string.h>

const char render_opts_usage[] =
    "Image:\n"
    "  --size WxH           image size in pixels, 1..16384 each (default 1920x1080)\n"
    "  --spp S              visibility samples per pixel: 1, 2, 4, 8, 16, 27, 32, 64\n"
    "                       (default 1)\n"
    "  --view I             camera index when the scene has several (default 0)\n"
    "  --fma N              extra dependent multiply-adds per fragment (default 0)\n"
    "  --frames F           frames to render; stats use the last (default 1)\n"
    "  --blur-area          count the blur area statistic (--stats-json's blur_area;\n"
    "                       a look-up per visible sample, some percent of the time)\n"
    "Blur and sampling (the camera's aperture, focus and shutter unless given):\n"
    "  --mode NAME          decoupled (default with blur), supersample, msaa (no blur)\n"
    "                       or accum (K pinhole sub-frames averaged, see --accum)\n"
    "  --accum K            sub-frames of --mode accum, 1..65536 (default 64)\n"
    "  --aperture R         lens radius in world units (0 = pinhole)\n"
    "  --focus D            focus distance in world units (0 = |target - eye|)\n"
    "  --shutter O,C        shutter interval within 0..1 (motion is per unit time)\n"
    "  --shading-rate R     shading-grid points per pixel edge, 1/16..16 (default 1)\n"
    "  --adaptive-rate      coarser shading grid for defocused triangles\n"
    "  --cache QUADS        shading-cache capacity per worker, 4..65536 (default 1024\n"
    "                       per 16x16 pixels of bin)\n"
    "  --bilinear           bilinear reconstruction from the shading grid\n"
    "Pipeline (0 or absent = the library's default):\n"
    "  --threads N          worker threads, 0..256 (default: the cores it may run on)\n"
    "  --pattern NAME       bin -> worker pattern (see 'mosaic patterns --list');\n"
    "                       file:PATH loads a table from a file\n"
    "  --bin S              fine bin edge in pixels, power of two 4..256 (default 16;\n"
    "                       32 with blur)\n"
    "  --coarse S           coarse tile edge in pixels, multiple of --bin (default 256)\n"
    "  --batch N|frame      primitives per binning batch, or the whole frame\n"
    "                       (default 4096; the whole frame with blur)\n"
    "  --early K            early-draw capacity; 0 turns it off (default 64)\n"
    "  --fifo D             work items per worker FIFO (default 256)\n"
    "  --isa NAME           hot-loop instruction set: auto, scalar, avx2, avx512\n"
    "                       (default auto; also MOSAIC_ISA in the environment)\n"
    "Shaders:\n"
    "  --glsl-builtins DIR  draw the built-in shaders with their GLSL versions in DIR\n"
    "                       (builtin.vert, flat.frag, lambert.frag, textured.frag)\n"
    "                       on Mosaic's shader VM instead of native C\n";

const char render_sequence_usage[] =
    "Sequences (frame k's shutter covers scene time [k, k + 1): motion continues,\n"
    "cameras follow their path):\n"
    "  --sequence A:B       render frames A..B, each to -o with its number in a %d\n"
    "                       field (%04d; default SCENE_%04d.png)\n"
    "  --frame-index I      render frame I only (the form for a job array)\n"
    "  --resume             skip the frames whose file already exists\n";

void render_context_free(mos_context *ctx, mos_target rt, scene_gpu *gpu)
{
    if (!ctx)
        return;
    if (gpu)
        scene_gpu_free(gpu, ctx);
    if (rt.id)
        mos_target_destroy(ctx, rt);
    mos_context_destroy(ctx);
}

scene_draw_opts render_draw_opts(const render_opts *o)
{
    scene_draw_opts dopts = o->draw;
    dopts.width = o->width;
    dopts.height = o->height;
    dopts.fma = o->fma;
    dopts.view = o->view;
    return dopts;
}

const char *render_default_output(const char *scene_path, char *buf, size_t size)
{
    int n;
    const char *base = seq_scene_base(scene_path, &n);
    if (n == 0)
        snprintf(buf, size, "out.png");
    else
        snprintf(buf, size, "%.*s.png", n, base);
    return buf;
}

bool render_frame_paths(const render_opts *o, int k, char out[SEQ_PATH_MAX], char stats[SEQ_PATH_MAX])
{
    stats[0] = '\0';
    if (!o->sequence)  /* one image: its names as given, '%' and all */
        return snprintf(out, SEQ_PATH_MAX, "%s", o->out_path) < SEQ_PATH_MAX &&
               (!o->stats_path || snprintf(stats, SEQ_PATH_MAX, "%s", o->stats_path) < SEQ_PATH_MAX);
    return seq_frame_path(o->out_path, k, out, SEQ_PATH_MAX) &&
           (!o->stats_path || seq_frame_path(o->stats_path, k, stats, SEQ_PATH_MAX));
}

int render_check_outputs(const render_opts *o, char *err, size_t err_size)
{
    char out[SEQ_PATH_MAX], stats[SEQ_PATH_MAX];
    if (!render_frame_paths(o, o->sequence ? o->first : 0, out, stats)) {
        snprintf(err, err_size, "an output file name is too long");
        return -1;
    }
    return cli_check_writable(out, err, err_size) != 0 || (*stats && cli_check_writable(stats, err, err_size) != 0)
               ? -1
               : 0;
}

/* Is NAME a registered pattern (or a file: table, which the library checks)? */
int render_pattern_known(const char *name)
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

/* What an option group's parser says of argv[a->i]: taken (0), a usage error
 * (CLI_EXIT_USAGE, printed), or not one of its options. */
enum { OPT_TAKEN = 0, OPT_NOT_MINE = -2 };

/* -o, --stats-json, --size, --spp, --fma, --frames, --view, --blur-area. */
static int image_option(cli_args *a, render_opts *o)
{
    const char *v, *arg = a->argv[a->i];
    int r;
    if ((r = cli_option(a, "-o", &v)) != 0 || (r = cli_option(a, "--output", &v)) != 0) {
        if (r < 0)
            return CLI_EXIT_USAGE;
        if (!*v)
            return cli_usage_error(a->cmd, "%s: expected a file name, got ''", arg);
        o->out_path = v;
    } else if ((r = cli_option(a, "--stats-json", &v)) != 0) {
        if (r < 0)
            return CLI_EXIT_USAGE;
        if (!*v)
            return cli_usage_error(a->cmd, "--stats-json: expected a file name, got ''");
        o->stats_path = v;
    } else if ((r = cli_option(a, "--size", &v)) != 0) {
        if (r < 0 || cli_parse_size(a->cmd, "--size", v, 16384, &o->width, &o->height))
            return CLI_EXIT_USAGE;
    } else if ((r = cli_option(a, "--spp", &v)) != 0) {
        if (r < 0 || cli_parse_int(a->cmd, "--spp", v, 1, 64, &o->spp))
            return CLI_EXIT_USAGE;
        char list[128];
        if (!mos_samples_supported(o->spp, true))
            return cli_usage_error(a->cmd, "--spp: expected %s, got '%s'",
                                   cli_samples_text(CLI_SPP_ALL, " or ", list, sizeof list), v);
    } else if ((r = cli_option(a, "--fma", &v)) != 0) {
        if (r < 0 || cli_parse_int(a->cmd, "--fma", v, 0, 1 << 20, &o->fma))
            return CLI_EXIT_USAGE;
    } else if ((r = cli_option(a, "--frames", &v)) != 0) {
        if (r < 0 || cli_parse_int(a->cmd, "--frames", v, 1, 100000, &o->frames))
            return CLI_EXIT_USAGE;
    } else if ((r = cli_option(a, "--view", &v)) != 0) {
        if (r < 0 || cli_parse_int(a->cmd, "--view", v, 0, 1 << 20, &o->view))
            return CLI_EXIT_USAGE;
    } else if ((r = cli_flag(a, "--blur-area")) != 0) {
        if (r < 0)
            return CLI_EXIT_USAGE;
        o->blur_area = true;
    } else {
        return OPT_NOT_MINE;
    }
    return OPT_TAKEN;
}

/* --threads, --pattern, --bin, --coarse, --batch, --early, --fifo, --glsl-builtins, --isa. */
static int pipeline_option(cli_args *a, render_opts *o)
{
    const char *v;
    int r, n;
    if ((r = cli_option(a, "--threads", &v)) != 0) {
        if (r < 0 || cli_parse_int(a->cmd, "--threads", v, 0, MOS_MAX_WORKERS, &o->pipeline.threads))
            return CLI_EXIT_USAGE;
    } else if ((r = cli_option(a, "--pattern", &v)) != 0) {
        if (r < 0)
            return CLI_EXIT_USAGE;
        if (!render_pattern_known(v))
            return cli_usage_error(a->cmd, "--pattern: unknown pattern '%s' (see 'mosaic patterns --list')", v);
        o->pipeline.pattern = v;
    } else if ((r = cli_option(a, "--bin", &v)) != 0) {
        if (r < 0 || cli_parse_int(a->cmd, "--bin", v, 4, 256, &n))
            return CLI_EXIT_USAGE;
        if (n & (n - 1))
            return cli_usage_error(a->cmd, "--bin: expected a power of two in 4..256, got '%s'", v);
        o->pipeline.bin_px = n;
    } else if ((r = cli_option(a, "--coarse", &v)) != 0) {
        if (r < 0 || cli_parse_int(a->cmd, "--coarse", v, 4, 16384, &o->pipeline.coarse_px))
            return CLI_EXIT_USAGE;
    } else if ((r = cli_option(a, "--batch", &v)) != 0) {
        if (r < 0)
            return CLI_EXIT_USAGE;
        if (strcmp(v, "frame") == 0)
            o->pipeline.batch = -1;  /* whole frame */
        else if (cli_parse_int(a->cmd, "--batch", v, 1, 1 << 30, &o->pipeline.batch))
            return CLI_EXIT_USAGE;
    } else if ((r = cli_option(a, "--early", &v)) != 0) {
        if (r < 0 || cli_parse_int(a->cmd, "--early", v, 0, 1 << 20, &n))
            return CLI_EXIT_USAGE;
        o->pipeline.early = n == 0 ? -1 : n;  /* 0 in the desc means "default" */
    } else if ((r = cli_option(a, "--fifo", &v)) != 0) {
        if (r < 0 || cli_parse_int(a->cmd, "--fifo", v, 1, 1 << 20, &o->pipeline.fifo_depth))
            return CLI_EXIT_USAGE;
    } else if ((r = cli_option(a, "--glsl-builtins", &v)) != 0) {
        if (r < 0)
            return CLI_EXIT_USAGE;
        o->glsl_builtins = v;
    } else if ((r = cli_option(a, "--isa", &v)) != 0) {
        if (r < 0 || cli_parse_isa(a->cmd, v, &o->isa))
            return CLI_EXIT_USAGE;
    } else {
        return OPT_NOT_MINE;
    }
    return OPT_TAKEN;
}

/* --mode NAME (accum: --mode msaa with sub-frames, 64 unless --accum says). */
static int parse_mode(const cli_args *a, const char *v, render_opts *o)
{
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
        return cli_usage_error(a->cmd, "--mode: expected decoupled, supersample, accum or msaa, got '%s'", v);
    o->blur.mode = (mos_sampling)m;
    return OPT_TAKEN;
}

/* --shutter OPEN,CLOSE. */
static int parse_shutter(const cli_args *a, const char *v, render_opts *o)
{
    char open[64];
    const char *comma = strchr(v, ',');
    if (!comma || (size_t)(comma - v) >= sizeof open)
        return cli_usage_error(a->cmd, "--shutter: expected OPEN,CLOSE within 0..1, got '%s'", v);
    memcpy(open, v, (size_t)(comma - v));
    open[comma - v] = '\0';
    if (cli_parse_float(a->cmd, "--shutter", open, 0, 1, &o->draw.shutter[0]) ||
        cli_parse_float(a->cmd, "--shutter", comma + 1, 0, 1, &o->draw.shutter[1]))
        return CLI_EXIT_USAGE;
    if (o->draw.shutter[1] < o->draw.shutter[0])
        return cli_usage_error(a->cmd, "--shutter: CLOSE must not be before OPEN, got '%s'", v);
    o->draw.set_shutter = true;
    return OPT_TAKEN;
}

/* --mode, --accum, --aperture, --focus, --shutter, --shading-rate, --adaptive-rate, --cache, --bilinear. */
static int blur_option(cli_args *a, render_opts *o)
{
    const char *v;
    int r;
    if ((r = cli_option(a, "--mode", &v)) != 0) {
        return r < 0 ? CLI_EXIT_USAGE : parse_mode(a, v, o);
    } else if ((r = cli_option(a, "--accum", &v)) != 0) {
        if (r < 0 || cli_parse_int(a->cmd, "--accum", v, 1, 65536, &o->accum))
            return CLI_EXIT_USAGE;
        o->blur.mode = MOS_SAMPLING_MSAA;
    } else if ((r = cli_option(a, "--aperture", &v)) != 0) {
        if (r < 0 || cli_parse_float(a->cmd, "--aperture", v, 0, 1e6, &o->draw.aperture))
            return CLI_EXIT_USAGE;
        o->draw.set_aperture = true;
    } else if ((r = cli_option(a, "--focus", &v)) != 0) {
        if (r < 0 || cli_parse_float(a->cmd, "--focus", v, 0, 1e9, &o->draw.focus))
            return CLI_EXIT_USAGE;
        o->draw.set_focus = true;
    } else if ((r = cli_option(a, "--shutter", &v)) != 0) {
        return r < 0 ? CLI_EXIT_USAGE : parse_shutter(a, v, o);
    } else if ((r = cli_option(a, "--shading-rate", &v)) != 0) {
        if (r < 0 || cli_parse_float(a->cmd, "--shading-rate", v, 1.0 / 16, 16, &o->blur.shading_rate))
            return CLI_EXIT_USAGE;
    } else if ((r = cli_flag(a, "--adaptive-rate")) != 0) {
        if (r < 0)
            return CLI_EXIT_USAGE;
        o->blur.adaptive_rate = true;
    } else if ((r = cli_option(a, "--cache", &v)) != 0) {
        if (r < 0 || cli_parse_int(a->cmd, "--cache", v, 4, 65536, &o->blur.cache_quads))
            return CLI_EXIT_USAGE;
    } else if ((r = cli_flag(a, "--bilinear")) != 0) {
        if (r < 0)
            return CLI_EXIT_USAGE;
        o->blur.bilinear = true;
    } else {
        return OPT_NOT_MINE;
    }
    return OPT_TAKEN;
}

/* --sequence, --frame-index, --resume. */
static int sequence_option(cli_args *a, render_opts *o)
{
    const char *v;
    int r;
    if ((r = cli_option(a, "--sequence", &v)) != 0) {
        if (r < 0)
            return CLI_EXIT_USAGE;
        char first[32];
        const char *colon = strchr(v, ':');
        if (!colon || (size_t)(colon - v) >= sizeof first)
            return cli_usage_error(a->cmd, "--sequence: expected FIRST:LAST, got '%s'", v);
        memcpy(first, v, (size_t)(colon - v));
        first[colon - v] = '\0';
        if (cli_parse_int(a->cmd, "--sequence", first, 0, SEQ_MAX_FRAME, &o->first) ||
            cli_parse_int(a->cmd, "--sequence", colon + 1, 0, SEQ_MAX_FRAME, &o->last))
            return CLI_EXIT_USAGE;
        if (o->last < o->first)
            return cli_usage_error(a->cmd, "--sequence: LAST must not be before FIRST, got '%s'", v);
        o->sequence = true;
    } else if ((r = cli_option(a, "--frame-index", &v)) != 0) {
        if (r < 0 || cli_parse_int(a->cmd, "--frame-index", v, 0, SEQ_MAX_FRAME, &o->first))
            return CLI_EXIT_USAGE;
        o->last = o->first;
        o->sequence = true;
    } else if ((r = cli_flag(a, "--resume")) != 0) {
        if (r < 0)
            return CLI_EXIT_USAGE;
        o->resume = true;
    } else {
        return OPT_NOT_MINE;
    }
    return OPT_TAKEN;
}

/* The output names of a sequence: a frame-number field in -o and
 * --stats-json when there is more than one frame, none anywhere else. */
static int check_sequence_names(const cli_args *a, const render_opts *o)
{
    if (o->resume && !o->sequence)
        return cli_usage_error(a->cmd, "--resume: only with --sequence or --frame-index");
    const char *paths[2] = { o->out_path, o->stats_path }, *names[2] = { "-o", "--stats-json" };
    for (int i = 0; i < 2; i++) {
        char err[512];
        if (!paths[i])
            continue;
        int field = o->sequence ? seq_pattern_field(paths[i], err, sizeof err) : 1;
        if (field < 0)
            return cli_usage_error(a->cmd, "%s: %s", names[i], err);
        if (field == 1 && o->sequence && o->last > o->first)
            return cli_usage_error(a->cmd, "%s: '%s' has no frame-number field (%%04d) for frames %d..%d", names[i],
                                   paths[i], o->first, o->last);
    }
    return CLI_EXIT_OK;
}

/* argv[a->i] when no group took it: the caller's own option, else SCENE. */
static int other_argument(cli_args *a, render_opts *o, const render_parse_cfg *cfg)
{
    const char *arg = a->argv[a->i];
    int r;
    if (cfg->extra && (r = cfg->extra(a, cfg->user)) != 0)
        return r < 0 ? CLI_EXIT_USAGE : OPT_TAKEN;
    if (cli_is_option(a))
        return cli_usage_error(a->cmd, "unknown option '%s'", arg);
    if (o->scene_path)
        return cli_usage_error(a->cmd, "unexpected argument '%s' (scene is already '%s')", arg, o->scene_path);
    o->scene_path = arg;
    return OPT_TAKEN;
}

int render_parse(int argc, char **argv, render_opts *o, const render_parse_cfg *cfg)
{
    static const render_parse_cfg render_cfg = { .cmd = "render", .sequences = true };
    if (!cfg)
        cfg = &render_cfg;
    cli_args a = { .argc = argc, .argv = argv, .cmd = cfg->cmd };
    for (a.i = 1; a.i < argc; a.i++) {
        int r;
        if (cli_end_of_options(&a))
            continue;
        if ((r = cli_help(&a)) != 0)
            return r < 0 ? CLI_EXIT_USAGE : -1;
        if ((r = image_option(&a, o)) == OPT_NOT_MINE && (r = pipeline_option(&a, o)) == OPT_NOT_MINE &&
            (r = blur_option(&a, o)) == OPT_NOT_MINE && (!cfg->sequences || (r = sequence_option(&a, o)) == OPT_NOT_MINE))
            r = other_argument(&a, o, cfg);
        if (r != OPT_TAKEN)
            return r;
    }
    if (!o->scene_path && !cfg->scene_optional)
        return cli_usage_error(a.cmd, "missing SCENE");
    if (o->pipeline.bin_px && o->pipeline.coarse_px && o->pipeline.coarse_px % o->pipeline.bin_px)
        return cli_usage_error(a.cmd, "--coarse: %d is not a multiple of --bin %d",
                               o->pipeline.coarse_px, o->pipeline.bin_px);
    return check_sequence_names(&a, o);
}
