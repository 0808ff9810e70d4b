/* render.c — mosaic-view's use of libmosaic: the context, the target, the scene in it, one frame, progressive blur.
 * Fed by view.c (each frame, window size), switches.c (vr_apply) and drag and drop (vr_load); feeds hud.c and overlay.c. */
#include "tools/view/view.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ---- the context and the target --------------------------------------------- */

static mos_result make_target(mos_context *ctx, int w, int h, int spp, mos_target *out)
{
    return mos_target_create(ctx, &(mos_target_desc){ .width = w, .height = h, .samples = spp }, out);
}

/* The image buffer for W x H: the frame is read straight into it, or the
 * mean of the target's accumulation buffer is (no second copy). */
static int size_buffers(view_app *app, int w, int h)
{
    size_t n = (size_t)w * (size_t)h * 4;
    uint8_t *s = realloc(app->shown, n);
    if (!s)
        return -1;
    app->shown = s;
    memset(app->shown, 0, n);
    app->accum_n = 0;
    return 0;
}

/* ---- the memory a render size takes ------------------------------------------ */

/* Bytes a pixel of a W x H x SPP render costs the viewer at most, beside the
 * scene: the target's colour and depth samples (4 + 4 bytes each) and its
 * resolved image (4, backend/target.c), the accumulation buffer of
 * progressive blur and accum mode (4 x uint32, api/accum.c), the inspection
 * maps of the shades, overdraw and triangle-size overlays (a float in the
 * target and the viewer's copy, 3 x 8), the shown image (4) and its
 * streaming texture (4, and as much again kept by the SDL renderer). */
#define VIEW_BYTES_PER_SAMPLE 8u
#define VIEW_BYTES_PER_PIXEL (4u + 16u + 24u + 4u + 8u)

uint64_t vr_size_bytes(int w, int h, int spp)
{
    const uint64_t px = (uint64_t)(w > 0 ? w : 0) * (uint64_t)(h > 0 ? h : 0);
    return px * ((uint64_t)(spp > 0 ? spp : 1) * VIEW_BYTES_PER_SAMPLE + VIEW_BYTES_PER_PIXEL);
}

uint64_t vr_memory_limit(void)
{
    const uint64_t cap = (uint64_t)VIEW_MEMORY_LIMIT_MIB << 20;
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0)
        return cap;
    const uint64_t half = (uint64_t)pages * (uint64_t)page / 2;
    return half < cap ? half : cap;
}

/* "1.5 GiB" */
static void format_bytes(uint64_t b, char *buf, size_t size)
{
    if (b >= (1ull << 30))
        snprintf(buf, size, "%.1f GiB", (double)b / (double)(1ull << 30));
    else
        snprintf(buf, size, "%.1f MiB", (double)b / (double)(1ull << 20));
}

/* 0 when a W x H x SPP render fits the viewer's memory limit, else
 * VIEW_REFUSED with ERR naming the size, the bytes and the limit. */
static int check_memory(int w, int h, int spp, char *err, size_t err_size)
{
    const uint64_t need = vr_size_bytes(w, h, spp), limit = vr_memory_limit();
    if (need <= limit)
        return 0;
    char a[32], b[32];
    format_bytes(need, a, sizeof a);
    format_bytes(limit, b, sizeof b);
    snprintf(err, err_size,
             "%dx%d at %d spp would take %s (%llu bytes: %u per sample, %u per pixel), over the viewer's memory "
             "limit of %s (%llu bytes: the smaller of %d MiB and half the physical memory); refused, `mosaic render` "
             "renders it",
             w, h, spp > 0 ? spp : 1, a, (unsigned long long)need, VIEW_BYTES_PER_SAMPLE, VIEW_BYTES_PER_PIXEL, b,
             (unsigned long long)limit, VIEW_MEMORY_LIMIT_MIB);
    return VIEW_REFUSED;
}

/* A context with PIPELINE and ISA, its target and the scene uploaded; on
 * failure nothing is left and ERR says why. */
static int make_context(view_app *app, const mos_pipeline_desc *pipeline, mos_isa isa, int w, int h, int spp,
                        mos_context **ctx_out, mos_target *rt_out, scene_gpu **gpu_out, char *err, size_t err_size)
{
    mos_context *ctx = NULL;
    mos_target rt = { 0 };
    scene_gpu *gpu = NULL;
    mos_result r = mos_context_create(&(mos_context_desc){ .pipeline = *pipeline, .isa = isa }, &ctx);
    if (r != MOS_OK) {
        snprintf(err, err_size, "mos_context_create: %s", mos_result_message(r));
        return -1;
    }
    const char *step = "mos_target_create";
    r = make_target(ctx, w, h, spp, &rt);
    if (r == MOS_OK && app->sc) {
        step = "scene_upload";
        r = scene_upload(app->sc, ctx, &gpu);
    }
    if (r != MOS_OK) {
        snprintf(err, err_size, "%s: %s", step, *mos_last_error(ctx) ? mos_last_error(ctx) : mos_result_message(r));
        if (rt.id)
            mos_target_destroy(ctx, rt);
        mos_context_destroy(ctx);
        return -1;
    }
    *ctx_out = ctx;
    *rt_out = rt;
    *gpu_out = gpu;
    return 0;
}

int vr_start(view_app *app)
{
    char err[1024];
    const char *isa_env = getenv("MOSAIC_ISA");
    if (app->ro.isa == MOS_ISA_AUTO && isa_env && *isa_env && cli_parse_isa(VIEW_CMD, isa_env, &app->ro.isa))
        return -1;
    if (check_memory(app->ro.width, app->ro.height, app->ro.spp, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s%dx%d: %s\n", VIEW_CMD, app->fixed_size ? "--size " : "window ", app->ro.width,
                app->ro.height, err);
        return -1;
    }
    if (make_context(app, &app->ro.pipeline, app->ro.isa, app->ro.width, app->ro.height, app->ro.spp, &app->ctx,
                     &app->rt, &app->gpu, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", VIEW_CMD, err);
        return -1;
    }
    app->rt_w = app->ro.width, app->rt_h = app->ro.height, app->rt_spp = app->ro.spp;
    if (size_buffers(app, app->rt_w, app->rt_h) != 0) {
        fprintf(stderr, "%s: out of memory for a %dx%d image\n", VIEW_CMD, app->rt_w, app->rt_h);
        return -1;
    }
    mos_context_pipeline(app->ctx, &app->used);
    app->changed = true;
    return 0;
}

void vr_stop(view_app *app)
{
    render_context_free(app->ctx, app->rt, app->gpu);
    app->ctx = NULL, app->gpu = NULL, app->rt.id = 0;
    if (app->sc)
        scene_free(app->sc);
    app->sc = NULL;
    free(app->shown);
    app->shown = NULL;
}

static bool same_pipeline(const mos_pipeline_desc *a, const mos_pipeline_desc *b)
{
    const char *pa = a->pattern ? a->pattern : "", *pb = b->pattern ? b->pattern : "";
    return a->threads == b->threads && strcmp(pa, pb) == 0 && a->bin_px == b->bin_px &&
           a->coarse_px == b->coarse_px && a->batch == b->batch && a->early == b->early &&
           a->fifo_depth == b->fifo_depth;
}

int vr_apply(view_app *app, const render_opts *next_in, char *err, size_t err_size)
{
    render_opts next = *next_in;
    char pattern[sizeof app->pattern];
    if (next.pipeline.pattern) {
        if (strlen(next.pipeline.pattern) >= sizeof pattern) {
            snprintf(err, err_size, "pattern name too long");
            return -1;
        }
        snprintf(pattern, sizeof pattern, "%s", next.pipeline.pattern);
        next.pipeline.pattern = pattern;
    }
    if (next.view < 0 || next.view >= scene_view_count(app->sc)) {
        snprintf(err, err_size, "view %d: the scene has views 0..%d", next.view, scene_view_count(app->sc) - 1);
        return -1;
    }
    if (next.pipeline.bin_px && next.pipeline.coarse_px && next.pipeline.coarse_px % next.pipeline.bin_px) {
        snprintf(err, err_size, "coarse %d is not a multiple of bin %d", next.pipeline.coarse_px, next.pipeline.bin_px);
        return -1;
    }
    const int old_w = app->rt_w, old_h = app->rt_h;
    /* Refused before anything is allocated: the viewer goes on as it was. */
    if ((next.width != app->rt_w || next.height != app->rt_h || next.spp != app->rt_spp) &&
        check_memory(next.width, next.height, next.spp, err, err_size) != 0)
        return VIEW_REFUSED;
    if (next.isa != app->ro.isa) {
        /* The ISA is fixed at context creation: a new context, then the old one goes. */
        mos_context *ctx;
        mos_target rt;
        scene_gpu *gpu;
        if (make_context(app, &next.pipeline, next.isa, next.width, next.height, next.spp, &ctx, &rt, &gpu, err,
                         err_size) != 0)
            return -1;
        if (app->gpu)
            scene_gpu_free(app->gpu, app->ctx);
        mos_target_destroy(app->ctx, app->rt);
        mos_context_destroy(app->ctx);
        app->ctx = ctx, app->rt = rt, app->gpu = gpu;
        app->rt_w = next.width, app->rt_h = next.height, app->rt_spp = next.spp;
    } else {
        if (!same_pipeline(&next.pipeline, &app->ro.pipeline)) {
            mos_result r = mos_context_configure(app->ctx, &next.pipeline);
            if (r != MOS_OK) {
                snprintf(err, err_size, "%s", *mos_last_error(app->ctx) ? mos_last_error(app->ctx) : mos_result_message(r));
                return -1;
            }
        }
        if (next.width != app->rt_w || next.height != app->rt_h || next.spp != app->rt_spp) {
            mos_target rt;
            mos_result r = make_target(app->ctx, next.width, next.height, next.spp, &rt);
            if (r != MOS_OK) {
                snprintf(err, err_size, "%s", *mos_last_error(app->ctx) ? mos_last_error(app->ctx) : mos_result_message(r));
                mos_context_configure(app->ctx, &app->ro.pipeline);  /* back to the old shape */
                return -1;
            }
            mos_target_destroy(app->ctx, app->rt);
            app->rt = rt;
            app->rt_w = next.width, app->rt_h = next.height, app->rt_spp = next.spp;
        }
    }
    if (app->rt_w != old_w || app->rt_h != old_h) {
        if (size_buffers(app, app->rt_w, app->rt_h) != 0) {
            snprintf(err, err_size, "out of memory for a %dx%d image", app->rt_w, app->rt_h);
            app->quit = true, app->exit_code = 1;
            return -1;
        }
    }
    const int old_view = app->ro.view;
    app->ro = next;
    if (next.pipeline.pattern) {
        memcpy(app->pattern, pattern, sizeof app->pattern);
        app->ro.pipeline.pattern = app->pattern;
    }
    app->ro.scene_path = app->scene_path;
    if (next.view != old_view) {
        scene_pose home;
        if (scene_view_pose(app->sc, next.view, &home) == MOS_OK)
            cam_reset(&app->cam, &home);
    }
    mos_context_pipeline(app->ctx, &app->used);
    vr_restart(app);
    return 0;
}

void vr_window_resized(view_app *app, int w, int h)
{
    app->window_w = w, app->window_h = h;
    if (app->fixed_size || w <= 0 || h <= 0 || (w == app->ro.width && h == app->ro.height))
        return;
    render_opts next = app->ro;
    next.width = w, next.height = h;
    char err[512];
    if (vr_apply(app, &next, err, sizeof err) != 0)
        hud_message(app, true, "resize to %dx%d: %s", w, h, err);
}

/* ---- scenes and meshes ---------------------------------------------------------- */

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

/* A mesh file becomes a scene of one object, fitted and standing on y = 0,
 * seen by the default framing camera: written to a temporary file. */
static mos_result load_mesh(const char *path, scene **out, char *err, size_t err_size)
{
    if (strchr(path, '"') || strchr(path, '\n')) {
        snprintf(err, err_size, "%s: a mesh path with '\"' or a newline cannot be loaded", path);
        return MOS_ERR_INVALID_ARGUMENT;
    }
    char abs[VIEW_PATH_MAX];
    if (path[0] != '/' && getcwd(abs, sizeof abs - 2) && strlen(abs) + strlen(path) + 2 < sizeof abs) {
        strcat(abs, "/");
        strcat(abs, path);
    } else {
        snprintf(abs, sizeof abs, "%s", path);
    }
    const char *tmpdir = getenv("TMPDIR");
    char tmp[VIEW_PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s/mosaic-view-mesh-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, err_size, "%s: cannot create a temporary scene: %s", tmp, strerror(errno));
        return MOS_ERR_IO;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(tmp);
        snprintf(err, err_size, "cannot write a temporary scene");
        return MOS_ERR_IO;
    }
    fprintf(f, "# %s\nbackground 0.2 0.22 0.26\nobject mesh\n  mesh \"%s\"\n  fit 3 base\n"
               "  color 0.85 0.8 0.72\nend\nobject floor\n  plane 8 8 8 8\n  color 0.5 0.5 0.52\nend\n",
            path, abs);
    int bad = fclose(f) != 0;
    mos_result r = bad ? MOS_ERR_IO : scene_load(tmp, out, err, err_size);
    unlink(tmp);
    if (r != MOS_OK) {
        /* Name the mesh, not the temporary file ("TMP:4:8: ..."). */
        char msg[1024];
        const char *rest = strncmp(err, tmp, strlen(tmp)) == 0 ? err + strlen(tmp) : NULL;
        if (rest && (rest = strchr(rest + 1, ':')) && (rest = strchr(rest + 1, ':')))
            snprintf(msg, sizeof msg, "%s%s", path, rest);
        else
            snprintf(msg, sizeof msg, "%s: %s", path, err);
        snprintf(err, err_size, "%s", msg);
    }
    return r;
}

int vr_load(view_app *app, const char *path, char *err, size_t err_size)
{
    scene *sc = NULL;
    scene_gpu *gpu = NULL;
    err[0] = '\0';
    if (strlen(path) >= sizeof app->scene_path) {
        snprintf(err, err_size, "path too long");
        return -1;
    }
    if (view_check_input(path, err, err_size) != 0)
        return -1;
    mos_result r = ends_with(path, ".scene") ? scene_load(path, &sc, err, err_size) : load_mesh(path, &sc, err, err_size);
    if (r != MOS_OK) {
        if (!*err)
            snprintf(err, err_size, "%s: %s", path, mos_result_message(r));
        return -1;
    }
    for (int i = 0; i < scene_warning_count(sc); i++)
        fprintf(stderr, "mosaic-view: %s\n", scene_warning(sc, i));
    scene_pose home;
    if (scene_view_pose(sc, 0, &home) != MOS_OK) {
        snprintf(err, err_size, "%s: no view", path);
        scene_free(sc);
        return -1;
    }
    if (app->ctx) {
        r = scene_upload(sc, app->ctx, &gpu);
        if (r != MOS_OK) {
            snprintf(err, err_size, "%s: scene_upload: %s", path,
                     *mos_last_error(app->ctx) ? mos_last_error(app->ctx) : mos_result_message(r));
            scene_free(sc);
            return -1;
        }
        if (app->gpu)
            scene_gpu_free(app->gpu, app->ctx);
        app->gpu = gpu;
    }
    if (app->sc)
        scene_free(app->sc);
    app->sc = sc;
    snprintf(app->scene_path, sizeof app->scene_path, "%s", path);
    app->ro.scene_path = app->scene_path;
    app->ro.view = 0;
    cam_reset(&app->cam, &home);
    vr_restart(app);
    return 0;
}

/* ---- one frame ------------------------------------------------------------------------ */

void vr_restart(view_app *app)
{
    app->changed = true;
}

void vr_draw_opts(const view_app *app, scene_draw_opts *out)
{
    *out = app->ro.draw;
    out->width = app->rt_w;
    out->height = app->rt_h;
    out->fma = app->ro.fma;
    out->view = app->ro.view;
    out->pose = app->cam.moved ? &app->cam.pose : NULL;
}

/* Frames to accumulate when still: accum mode's K, else the progressive setting. */
static int accum_target(const view_app *app)
{
    return app->ro.accum > 0 ? app->ro.accum : app->progressive_max;
}

bool vr_blurred(const view_app *app)
{
    return app->ro.accum > 0 || app->is_blurred;
}

bool vr_wants_frame(const view_app *app)
{
    if (app->changed || !app->have_stats)
        return true;
    const int target = accum_target(app);
    if (vr_blurred(app) && target > 0)
        return app->accum_n < target;
    return app->continuous;
}

int vr_frame(view_app *app)
{
    if (app->changed) {
        app->accum_n = 0;
        app->changed = false;
    }
    mos_frame_desc fd = { .target = app->rt, .blur = app->ro.blur, .inspect = ov_inspect_bits(app) };
    scene_clear_color(app->sc, fd.clear_rgba);
    scene_draw_opts dopts;
    vr_draw_opts(app, &dopts);
    scene_frame_lens(app->gpu, &dopts, &fd.blur);
    /* Progressive blur: frame k of a still image draws a new (u, v, t)
     * pattern (seed k; accum mode: pinhole k); frame 0 is `mosaic render`'s. */
    const int k = vr_blurred(app) && accum_target(app) > 0 ? app->accum_n : 0;  /* else frame 0's pattern */
    if (app->ro.accum > 0) {
        mos_accum_pinhole(k, fd.blur.pinhole);
        mos_accum_jitter(k, fd.blur.pixel_offset);
    } else
        fd.blur.seed = (uint32_t)k;
    mos_result r = mos_begin_frame(app->ctx, &fd);
    const char *step = "mos_begin_frame";
    if (r == MOS_OK) {
        step = "scene_draw";
        r = scene_draw(app->gpu, app->ctx, &dopts);
        mos_result e = mos_end_frame(app->ctx, &app->st);
        if (r == MOS_OK && e != MOS_OK)
            step = "mos_end_frame", r = e;
    }
    if (r != MOS_OK) {
        hud_message(app, true, "%s: %s", step, *mos_last_error(app->ctx) ? mos_last_error(app->ctx) : mos_result_message(r));
        return -1;
    }
    app->have_stats = true;
    app->frames++;
    app->is_blurred = app->ro.accum > 0 || app->st.blurred_triangles > 0;
    ov_read(app);

    const int target = accum_target(app);
    if (vr_blurred(app) && target > 0) {
        /* The mean of the frames so far: the library's accumulation buffer,
         * as `mosaic render --mode accum` uses it. */
        r = mos_target_accumulate(app->ctx, app->rt, app->accum_n == 0);
        if (r == MOS_OK)
            r = mos_target_read_accumulated(app->ctx, app->rt, app->shown, (size_t)app->rt_w * 4, &app->accum_n);
        if (r != MOS_OK) {
            hud_message(app, true, "accumulation: %s", mos_last_error(app->ctx));
            return -1;
        }
    } else {
        /* The frame itself, straight into the shown image. */
        r = mos_target_read_rgba8(app->ctx, app->rt, app->shown, (size_t)app->rt_w * 4);
        if (r != MOS_OK) {
            hud_message(app, true, "mos_target_read_rgba8: %s",
                        *mos_last_error(app->ctx) ? mos_last_error(app->ctx) : mos_result_message(r));
            return -1;
        }
        app->accum_n = 1;
    }
    app->shown_new = true;
    return 0;
}
