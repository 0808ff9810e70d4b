/* switches.c — every live setting of mosaic-view by name: its value as text, a step forward or back, `set NAME VALUE`.
 * Fed by panel.c (rows), view.c (keys) and script.c (`set`); applies through render.c (vr_apply) and the viewer's state. */
#include "tools/view/view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ORDER SWITCHES: sw_format, sw_step and sw_set switch on these indices. */
enum {
    SW_THREADS, SW_PATTERN, SW_BIN, SW_COARSE, SW_BATCH, SW_EARLY, SW_FIFO, SW_SPP, SW_MODE, SW_ACCUM,
    SW_APERTURE, SW_FOCUS, SW_SHUTTER, SW_RATE, SW_ADAPTIVE, SW_BILINEAR, SW_CACHE, SW_ISA, SW_FMA,
    SW_VIEW, SW_SIZE, SW_PROGRESSIVE, SW_CONTINUOUS, SW_ALPHA, SW_COST, SW_HUD, SW_COUNT
};

static const view_switch switches[SW_COUNT] = {
    [SW_THREADS] = { "threads", 't', "worker threads (logical rasterizers)" },
    [SW_PATTERN] = { "pattern", 'p', "bin -> worker pattern" },
    [SW_BIN] = { "bin", 'b', "fine bin edge, pixels" },
    [SW_COARSE] = { "coarse", 'c', "coarse tile edge, pixels" },
    [SW_BATCH] = { "batch", 'g', "primitives per binning batch" },
    [SW_EARLY] = { "early", 'e', "early-draw capacity (0 = off)" },
    [SW_FIFO] = { "fifo", 'y', "work items per worker FIFO" },
    [SW_SPP] = { "spp", 'x', "visibility samples per pixel" },
    [SW_MODE] = { "mode", 'm', "sampling: auto, msaa, decoupled, supersample, accum" },
    [SW_ACCUM] = { "accum", 'k', "sub-frames of accum mode" },
    [SW_APERTURE] = { "aperture", 'a', "lens radius, world units" },
    [SW_FOCUS] = { "focus", 'j', "focus distance (click the image to focus)" },
    [SW_SHUTTER] = { "shutter", 'u', "shutter interval" },
    [SW_RATE] = { "shading-rate", 'z', "shading-grid points per pixel edge" },
    [SW_ADAPTIVE] = { "adaptive-rate", 0, "coarser shading for defocused triangles" },
    [SW_BILINEAR] = { "bilinear", 0, "bilinear reconstruction from the shading grid" },
    [SW_CACHE] = { "cache", 'v', "shading-cache quads per worker" },
    [SW_ISA] = { "isa", 'i', "hot-loop instruction set" },
    [SW_FMA] = { "fma", 'f', "extra multiply-adds per fragment" },
    [SW_VIEW] = { "view", 'n', "the scene's views (also keys 1-9)" },
    [SW_SIZE] = { "size", 0, "render size: window (follows it) or WxH" },
    [SW_PROGRESSIVE] = { "progressive", 'l', "frames accumulated when still (blur)" },
    [SW_CONTINUOUS] = { "continuous", 0, "render every frame, even when still" },
    [SW_ALPHA] = { "overlay-alpha", 0, "overlay opacity (also [ and ])" },
    [SW_COST] = { "cost", 0, "cost overlay metric: ms, samples, triangles" },
    [SW_HUD] = { "hud", 'h', "statistics, graphs and configuration" },
};

int sw_count(void) { return SW_COUNT; }
const view_switch *sw_get(int i) { return i >= 0 && i < SW_COUNT ? &switches[i] : NULL; }

int sw_find(const char *name)
{
    if (strcmp(name, "rate") == 0)
        name = "shading-rate";
    for (int i = 0; i < SW_COUNT; i++)
        if (strcmp(switches[i].name, name) == 0)
            return i;
    return -1;
}

static const char *const mode_names[] = { "auto", "msaa", "decoupled", "supersample", "accum" };
static const char *const isa_names[] = { "auto", "scalar", "avx2", "avx512" };
static const char *const cost_names[] = { "ms", "samples", "triangles" };

static const char *on_off(bool b) { return b ? "on" : "off"; }

void sw_format(const view_app *app, int i, char *buf, size_t size)
{
    const render_opts *o = &app->ro;
    const mos_pipeline_desc *u = &app->used;
    switch (i) {
    case SW_THREADS: snprintf(buf, size, "%d%s", u->threads, o->pipeline.threads ? "" : " (cores)"); break;
    case SW_PATTERN: snprintf(buf, size, "%s", u->pattern ? u->pattern : "?"); break;
    case SW_BIN: snprintf(buf, size, "%d", u->bin_px); break;
    case SW_COARSE: snprintf(buf, size, "%d", u->coarse_px); break;
    case SW_BATCH:
        if (u->batch < 0) snprintf(buf, size, "frame");
        else snprintf(buf, size, "%d", u->batch);
        break;
    case SW_EARLY:
        if (u->early <= 0) snprintf(buf, size, "off");
        else snprintf(buf, size, "%d", u->early);
        break;
    case SW_FIFO: snprintf(buf, size, "%d", u->fifo_depth); break;
    case SW_SPP: snprintf(buf, size, "%d", o->spp); break;
    case SW_MODE:
        if (o->accum > 0) snprintf(buf, size, "accum");
        else if (o->blur.mode == MOS_SAMPLING_AUTO) snprintf(buf, size, "auto (%s)", app->is_blurred ? "decoupled" : "msaa");
        else snprintf(buf, size, "%s", mode_names[o->blur.mode]);
        break;
    case SW_ACCUM:
        if (o->accum > 0) snprintf(buf, size, "%d", o->accum);
        else snprintf(buf, size, "-");
        break;
    case SW_APERTURE:
        if (o->draw.set_aperture) snprintf(buf, size, "%g", o->draw.aperture);
        else snprintf(buf, size, "scene");
        break;
    case SW_FOCUS:
        if (o->draw.set_focus && o->draw.focus > 0) snprintf(buf, size, "%.3g", o->draw.focus);
        else snprintf(buf, size, "auto");
        break;
    case SW_SHUTTER:
        if (o->draw.set_shutter) snprintf(buf, size, "%g,%g", o->draw.shutter[0], o->draw.shutter[1]);
        else snprintf(buf, size, "scene");
        break;
    case SW_RATE: snprintf(buf, size, "%g", o->blur.shading_rate > 0 ? o->blur.shading_rate : 1.0f); break;
    case SW_ADAPTIVE: snprintf(buf, size, "%s", on_off(o->blur.adaptive_rate)); break;
    case SW_BILINEAR: snprintf(buf, size, "%s", on_off(o->blur.bilinear)); break;
    case SW_CACHE: snprintf(buf, size, "%d", o->blur.cache_quads > 0 ? o->blur.cache_quads : 1024); break;
    case SW_ISA: snprintf(buf, size, "%s", isa_names[o->isa >= 0 && o->isa <= MOS_ISA_AVX512 ? o->isa : 0]); break;
    case SW_FMA: snprintf(buf, size, "%d", o->fma); break;
    case SW_VIEW: {
        const char *name = app->sc ? scene_view_name(app->sc, o->view) : NULL;
        snprintf(buf, size, "%d %s%s", o->view, name ? name : "?", app->cam.moved ? " (moved)" : "");
        break;
    }
    case SW_SIZE:
        snprintf(buf, size, "%s%dx%d", app->fixed_size ? "" : "window ", app->rt_w, app->rt_h);
        break;
    case SW_PROGRESSIVE:
        if (app->progressive_max > 0) snprintf(buf, size, "%d", app->progressive_max);
        else snprintf(buf, size, "off");
        break;
    case SW_CONTINUOUS: snprintf(buf, size, "%s", on_off(app->continuous)); break;
    case SW_ALPHA: snprintf(buf, size, "%.1f", app->ov.alpha); break;
    case SW_COST: snprintf(buf, size, "%s", cost_names[app->ov.cost_metric % 3]); break;
    case SW_HUD: snprintf(buf, size, "%s", on_off(app->hud_on)); break;
    default: snprintf(buf, size, "?"); break;
    }
}

/* The index in SEQ[N] (ascending) of the value nearest CUR, moved by DIR and clamped. */
static int seq_step(const double *seq, int n, double cur, int dir)
{
    int best = 0;
    for (int k = 1; k < n; k++)
        if (fabs(seq[k] - cur) < fabs(seq[best] - cur))
            best = k;
    best += dir;
    return best < 0 ? 0 : best >= n ? n - 1 : best;
}

#define SEQ_STEP(seq, cur, dir) seq[seq_step(seq, (int)(sizeof seq / sizeof seq[0]), (double)(cur), dir)]

static bool apply(view_app *app, const render_opts *next, const char *what)
{
    char err[1024];
    if (vr_apply(app, next, err, sizeof err) != 0) {
        hud_message(app, true, "%s: %s", what, err);
        return false;
    }
    return true;
}

/* NAME without ":SEED". */
static size_t base_len(const char *name)
{
    return strcspn(name, ":");
}

static bool step_pattern(view_app *app, int dir)
{
    const char *const *names = mos_pattern_names();
    int count = 0, cur = 0;
    while (names && names[count])
        count++;
    if (count == 0)
        return false;
    const char *now = app->used.pattern ? app->used.pattern : "";
    for (int k = 0; k < count; k++)
        if (strlen(names[k]) == base_len(now) && strncmp(names[k], now, base_len(now)) == 0)
            cur = k;
    /* Patterns that refuse the worker count (g80 wants 6) are skipped. */
    for (int t = 1; t < count; t++) {
        render_opts next = app->ro;
        next.pipeline.pattern = names[((cur + dir * t) % count + count) % count];
        char err[1024];
        if (vr_apply(app, &next, err, sizeof err) == 0) {
            if (t > 1)
                hud_message(app, false, "pattern %s (skipped %d that refuse %d workers)", next.pipeline.pattern, t - 1,
                            app->used.threads);
            return true;
        }
    }
    hud_message(app, true, "no other pattern accepts %d workers", app->used.threads);
    return false;
}

/* A pipeline switch: threads, pattern, bin, coarse, batch, early, FIFO, ISA. */
static bool step_pipeline(view_app *app, int i, int dir)
{
    render_opts next = app->ro;
    const mos_pipeline_desc *u = &app->used;
    char err[256];
    switch (i) {
    case SW_THREADS: {
        int t = u->threads + dir;
        next.pipeline.threads = t < 1 ? 1 : t > MOS_MAX_WORKERS ? MOS_MAX_WORKERS : t;
        /* g80 only takes 6 workers: other counts fall back to the default pattern. */
        if (app->ro.pipeline.pattern && strncmp(app->ro.pipeline.pattern, "g80", 3) == 0 && next.pipeline.threads != 6)
            next.pipeline.pattern = NULL;
        return apply(app, &next, "threads");
    }
    case SW_PATTERN: return step_pattern(app, dir);
    case SW_BIN: {
        int b = dir > 0 ? u->bin_px * 2 : u->bin_px / 2;
        next.pipeline.bin_px = b < 4 ? 4 : b > 256 ? 256 : b;
        next.pipeline.coarse_px = u->coarse_px < next.pipeline.bin_px ? next.pipeline.bin_px : u->coarse_px;
        return apply(app, &next, "bin");
    }
    case SW_COARSE: {
        int c = dir > 0 ? u->coarse_px * 2 : u->coarse_px / 2;
        next.pipeline.bin_px = u->bin_px;
        next.pipeline.coarse_px = c < u->bin_px ? u->bin_px : c > 4096 ? 4096 : c;
        return apply(app, &next, "coarse");
    }
    case SW_BATCH: {
        static const double seq[] = { 64, 256, 1024, 4096, 16384, 65536, 1 << 26 };
        double v = SEQ_STEP(seq, u->batch < 0 ? 1 << 26 : u->batch, dir);
        next.pipeline.batch = v >= (1 << 26) ? -1 : (int)v;
        return apply(app, &next, "batch");
    }
    case SW_EARLY: {
        static const double seq[] = { 0, 8, 16, 64, 256, 1024 };
        double v = SEQ_STEP(seq, u->early, dir);
        next.pipeline.early = v == 0 ? -1 : (int)v;
        return apply(app, &next, "early");
    }
    case SW_FIFO: {
        static const double seq[] = { 4, 16, 64, 256, 1024, 4096 };
        next.pipeline.fifo_depth = (int)SEQ_STEP(seq, u->fifo_depth, dir);
        return apply(app, &next, "fifo");
    }
    case SW_ISA:
        /* ISAs the CPU lacks are skipped. */
        for (int t = 1; t < 4; t++) {
            next.isa = (mos_isa)((((int)app->ro.isa + dir * t) % 4 + 4) % 4);
            if (vr_apply(app, &next, err, sizeof err) == 0)
                return true;
        }
        hud_message(app, true, "isa: %s", err);
        return false;
    }
    return false;
}

/* A sampling or blur switch: spp, mode, accum, aperture, focus, shutter, shading rate, cache. */
static bool step_sampling(view_app *app, int i, int dir)
{
    render_opts next = app->ro;
    char err[256];
    switch (i) {
    case SW_SPP: {
        int spp[64];
        double seq[64];
        const int n = cli_samples(CLI_SPP_ALL, spp, 64);
        for (int k = 0; k < n; k++)
            seq[k] = spp[k];
        next.spp = (int)seq[seq_step(seq, n, app->ro.spp, dir)];
        return apply(app, &next, "spp");
    }
    case SW_MODE: {
        int m = app->ro.accum > 0 ? 4 : (int)app->ro.blur.mode;
        m = ((m + dir) % 5 + 5) % 5;
        if (sw_set(app, "mode", mode_names[m], err, sizeof err) != 0) {
            hud_message(app, true, "mode: %s", err);
            return false;
        }
        return true;
    }
    case SW_ACCUM: {
        static const double seq[] = { 4, 8, 16, 32, 64, 128, 256, 1024 };
        next.accum = (int)SEQ_STEP(seq, app->ro.accum > 0 ? app->ro.accum : 64, app->ro.accum > 0 ? dir : 0);
        next.blur.mode = MOS_SAMPLING_MSAA;
        return apply(app, &next, "accum");
    }
    case SW_APERTURE: {
        static const double seq[] = { 0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.25, 0.5, 1 };
        next.draw.aperture = (float)SEQ_STEP(seq, app->ro.draw.set_aperture ? app->ro.draw.aperture : 0, dir);
        next.draw.set_aperture = true;
        return apply(app, &next, "aperture");
    }
    case SW_FOCUS: {
        float f = app->ro.draw.set_focus ? app->ro.draw.focus : 0;
        if (f <= 0) {
            const scene_pose *p = &app->cam.pose;
            float d[3] = { p->target[0] - p->eye[0], p->target[1] - p->eye[1], p->target[2] - p->eye[2] };
            f = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        }
        next.draw.focus = dir > 0 ? f * 1.25f : f / 1.25f;
        next.draw.set_focus = true;
        return apply(app, &next, "focus");
    }
    case SW_SHUTTER: {
        static const double seq[] = { 0, 0.25, 0.5, 1 };
        next.draw.shutter[0] = 0;
        next.draw.shutter[1] = (float)SEQ_STEP(seq, app->ro.draw.set_shutter ? app->ro.draw.shutter[1] : 1, dir);
        next.draw.set_shutter = true;
        return apply(app, &next, "shutter");
    }
    case SW_RATE: {
        static const double seq[] = { 0.0625, 0.125, 0.25, 0.5, 1, 2, 4, 8, 16 };
        next.blur.shading_rate = (float)SEQ_STEP(seq, app->ro.blur.shading_rate > 0 ? app->ro.blur.shading_rate : 1, dir);
        return apply(app, &next, "shading-rate");
    }
    case SW_ADAPTIVE: next.blur.adaptive_rate = !next.blur.adaptive_rate; return apply(app, &next, "adaptive-rate");
    case SW_BILINEAR: next.blur.bilinear = !next.blur.bilinear; return apply(app, &next, "bilinear");
    case SW_CACHE: {
        static const double seq[] = { 4, 16, 64, 256, 1024, 4096, 16384, 65536 };
        next.blur.cache_quads = (int)SEQ_STEP(seq, app->ro.blur.cache_quads > 0 ? app->ro.blur.cache_quads : 1024, dir);
        return apply(app, &next, "cache");
    }
    }
    return false;
}

/* A switch of the scene or the viewer: fma, view, size, progressive, overlays, HUD. */
static bool step_view(view_app *app, int i, int dir)
{
    render_opts next = app->ro;
    char err[256];
    switch (i) {
    case SW_FMA: {
        static const double seq[] = { 0, 10, 20, 50, 100, 200, 500, 1000 };
        next.fma = (int)SEQ_STEP(seq, app->ro.fma, dir);
        return apply(app, &next, "fma");
    }
    case SW_VIEW: {
        int n = scene_view_count(app->sc);
        next.view = ((app->ro.view + dir) % n + n) % n;
        if (next.view == app->ro.view) {  /* same view: back to its camera */
            scene_pose home;
            if (scene_view_pose(app->sc, next.view, &home) == MOS_OK)
                cam_reset(&app->cam, &home);
            vr_restart(app);
            return true;
        }
        return apply(app, &next, "view");
    }
    case SW_SIZE: {
        static const char *const sizes[] = { "window", "640x360", "1280x720", "1920x1080" };
        int k = 0;
        for (int s = 1; s < 4 && app->fixed_size; s++) {
            int w = atoi(sizes[s]), h = atoi(strchr(sizes[s], 'x') + 1);
            if (w == app->rt_w && h == app->rt_h)
                k = s;
        }
        k = ((k + dir) % 4 + 4) % 4;
        if (sw_set(app, "size", sizes[k], err, sizeof err) != 0) {
            hud_message(app, true, "size: %s", err);
            return false;
        }
        return true;
    }
    case SW_PROGRESSIVE: {
        static const double seq[] = { 0, 8, 16, 64, 256, 1024 };
        app->progressive_max = (int)SEQ_STEP(seq, app->progressive_max, dir);
        vr_restart(app);
        return true;
    }
    case SW_CONTINUOUS: app->continuous = !app->continuous; return true;
    case SW_ALPHA: {
        float a = app->ov.alpha + 0.1f * (float)dir;
        app->ov.alpha = a < 0.1f ? 0.1f : a > 1.0f ? 1.0f : a;
        return true;
    }
    case SW_COST: app->ov.cost_metric = ((app->ov.cost_metric + dir) % 3 + 3) % 3; return true;
    case SW_HUD: app->hud_on = !app->hud_on; return true;
    }
    return false;
}

bool sw_step(view_app *app, int i, int dir)
{
    switch (i) {
    case SW_THREADS: case SW_PATTERN: case SW_BIN: case SW_COARSE: case SW_BATCH: case SW_EARLY: case SW_FIFO:
    case SW_ISA:
        return step_pipeline(app, i, dir);
    case SW_SPP: case SW_MODE: case SW_ACCUM: case SW_APERTURE: case SW_FOCUS: case SW_SHUTTER: case SW_RATE:
    case SW_ADAPTIVE: case SW_BILINEAR: case SW_CACHE:
        return step_sampling(app, i, dir);
    default:
        return step_view(app, i, dir);
    }
}

static int parse_on_off(const char *v, bool *out)
{
    if (strcmp(v, "on") == 0 || strcmp(v, "1") == 0 || strcmp(v, "true") == 0)
        return *out = true, 0;
    if (strcmp(v, "off") == 0 || strcmp(v, "0") == 0 || strcmp(v, "false") == 0)
        return *out = false, 0;
    return -1;
}

/* Setting I, a `mosaic render` option: its own parser, on a copy of the options in force. */
static int set_render_option(view_app *app, int i, const char *name, const char *value, char *err, size_t err_size)
{
    render_opts next = app->ro;
    char opt[64];
    snprintf(opt, sizeof opt, "--%s", switches[i].name);
    char *argv[] = { (char *)VIEW_CMD, opt, (char *)value, NULL };
    if (i == SW_MODE && strcmp(value, "accum") != 0)
        next.accum = 0;
    if (i == SW_FOCUS && strcmp(value, "auto") == 0) {
        next.draw.set_focus = false;
        return vr_apply(app, &next, err, err_size);
    }
    if ((i == SW_APERTURE || i == SW_SHUTTER) && strcmp(value, "scene") == 0) {
        if (i == SW_APERTURE)
            next.draw.set_aperture = false;
        else
            next.draw.set_shutter = false;
        return vr_apply(app, &next, err, err_size);
    }
    const render_parse_cfg cfg = { .cmd = VIEW_CMD, .scene_optional = true };
    if (render_parse(3, argv, &next, &cfg) != CLI_EXIT_OK) {
        snprintf(err, err_size, "bad value '%s' for %s", value, name);
        return -1;
    }
    return vr_apply(app, &next, err, err_size);
}

int sw_set(view_app *app, const char *name, const char *value, char *err, size_t err_size)
{
    int i = sw_find(name);
    render_opts next = app->ro;
    bool b;
    err[0] = '\0';
    switch (i) {
    case SW_ADAPTIVE:
    case SW_BILINEAR:
        if (parse_on_off(value, &b) != 0)
            break;
        if (i == SW_ADAPTIVE)
            next.blur.adaptive_rate = b;
        else
            next.blur.bilinear = b;
        return vr_apply(app, &next, err, err_size);
    case SW_VIEW: {
        char *end;
        long v = strtol(value, &end, 10);
        int idx = *value && !*end ? (int)v : scene_find_view(app->sc, value);
        if (idx < 0 || idx >= scene_view_count(app->sc)) {
            snprintf(err, err_size, "view '%s': the scene has views 0..%d", value, scene_view_count(app->sc) - 1);
            return -1;
        }
        next.view = idx;
        if (idx == app->ro.view) {
            scene_pose home;
            scene_view_pose(app->sc, idx, &home);
            cam_reset(&app->cam, &home);
            vr_restart(app);
            return 0;
        }
        return vr_apply(app, &next, err, err_size);
    }
    case SW_SIZE:
        if (strcmp(value, "window") == 0) {
            app->fixed_size = false;
            int w = app->window_w, h = app->window_h;
            if (app->win)
                SDL_GetWindowSize(app->win, &w, &h);
            next.width = w, next.height = h;
            return vr_apply(app, &next, err, err_size);
        } else {
            int w, h;
            if (cli_parse_size(VIEW_CMD, "size", value, 16384, &w, &h) != 0)
                break;
            next.width = w, next.height = h;
            int r = vr_apply(app, &next, err, err_size);
            if (r != 0)
                return r;
            app->fixed_size = true;
            if (app->win) {
                /* Not past the screen: a window the size of a big render is
                 * as big a surface again; the image is shown scaled. */
                view_fit_window(app, w, h, &w, &h);
                SDL_SetWindowSize(app->win, w, h);
                app->window_w = w, app->window_h = h;
            }
            return 0;
        }
    case SW_PROGRESSIVE: {
        char *end;
        long v = strtol(value, &end, 10);
        if (strcmp(value, "off") == 0)
            v = 0;
        else if (!*value || *end || v < 0 || v > 65536)
            break;
        app->progressive_max = (int)v;
        vr_restart(app);
        return 0;
    }
    case SW_CONTINUOUS:
        if (parse_on_off(value, &app->continuous) != 0)
            break;
        return 0;
    case SW_HUD:
        if (parse_on_off(value, &app->hud_on) != 0)
            break;
        return 0;
    case SW_ALPHA: {
        char *end;
        double v = strtod(value, &end);
        if (!*value || *end || !(v >= 0 && v <= 1))
            break;
        app->ov.alpha = (float)v;
        return 0;
    }
    case SW_COST:
        for (int k = 0; k < 3; k++)
            if (strcmp(value, cost_names[k]) == 0)
                return app->ov.cost_metric = k, 0;
        break;
    case -1:
        snprintf(err, err_size, "unknown setting '%s'", name);
        return -1;
    default:
        return set_render_option(app, i, name, value, err, err_size);
    }
    snprintf(err, err_size, "bad value '%s' for %s", value, name);
    return -1;
}
