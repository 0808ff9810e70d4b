/* view.c — mosaic-view's entry point: options, the SDL window, the main loop, input, drawing a frame, screenshots.
 * Fed by the user (mouse, keys, dropped files) and script.c; drives render.c, then overlay.c, panel.c and hud.c. */
#include "tools/view/view.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image/image.h"

static const char view_usage_head[] =
    "usage: mosaic-view SCENE [options]\n"
    "\n"
    "Shows the scene file SCENE (or a mesh file) rendered by libmosaic in a window,\n"
    "with live switches, a HUD with frame-time graphs and overlays of who rendered\n"
    "what.  F1 in the window lists the keys.\n"
    "\n"
    "In the viewer, --size fixes the render size (default: it follows the window)\n"
    "and --frames F quits after F rendered frames.  A size and spp whose render\n"
    "would take more than 4 GiB (or half the physical memory) are refused, a\n"
    "window bigger than the screen shows the image scaled down, and a dropped\n"
    "path that is not a regular file (a FIFO, a device, a folder) is not opened.\n"
    "\n"
    "Viewer:\n"
    "  --window WxH         initial window size (default 1280x720, or --size)\n"
    "  --script FILE        run the commands of FILE (see below), unattended\n"
    "  --hud-csv FILE       log every frame's statistics and timings as CSV\n"
    "  --no-hud             start with the HUD off\n"
    "  --panel              start with the switch panel shown\n"
    "  --overlay NAME       start with an overlay on: owner, cost, load, shades,\n"
    "                       overdraw, triangle-size, spread (repeatable)\n"
    "  --overlay-alpha A    overlay opacity 0..1 (default 0.5)\n"
    "  --progressive N      frames accumulated while still when blurred (default 64, 0 = off)\n"
    "  --no-continuous      render only when something changed\n"
    "  --font FILE          TrueType font of the HUD (default DejaVu Sans Mono)\n"
    "  --renderer NAME      SDL render driver (software, opengl, ...; default SDL's choice)\n"
    "  -o, --output FILE    PNG written by F12 / s (default mosaic-view-NNN.png)\n"
    "  --stats-json FILE    write the last frame's statistics when quitting\n";
static const char view_usage_tail[] =
    "  -h, --help           show this help\n"
    "\n"
    "Script commands (one per line, # comments): set NAME VALUE, view N|NAME, wait N,\n"
    "screenshot PATH, capture PATH (PNG, or PPM when PATH ends in .ppm), overlay NAME on|off, hud on|off, panel on|off,\n"
    "drop PATH, key NAME [shift], click X Y [right], orbit DX DY, look DX DY, pan DX DY,\n"
    "dolly N, fly F R U, camera EX EY EZ TX TY TZ, reset, resize W H,\n"
    "expect-error TEXT, echo WORDS, quit.  ${NAME} in a word is the environment\n"
    "variable NAME.  Errors name FILE:LINE.\n"
    "Exit status: 0 ok, 1 scene/library/file/script error, 2 bad arguments.\n";

/* The viewer's own options (render_parse takes the `mosaic render` ones). */
typedef struct view_opts {
    const char *script, *csv, *font, *renderer;
    int window_w, window_h;
    bool no_hud, panel, no_continuous;
    bool overlay[OV_COUNT];
    float alpha;
    int progressive;
} view_opts;

static int view_option(cli_args *a, void *user)
{
    view_opts *o = user;
    const char *v;
    int r;
    if ((r = cli_option(a, "--script", &v)) != 0) {
        if (r > 0)
            o->script = v;
    } else if ((r = cli_option(a, "--hud-csv", &v)) != 0) {
        if (r > 0)
            o->csv = v;
    } else if ((r = cli_option(a, "--font", &v)) != 0) {
        if (r > 0)
            o->font = v;
    } else if ((r = cli_option(a, "--renderer", &v)) != 0) {
        if (r > 0)
            o->renderer = v;
    } else if ((r = cli_option(a, "--window", &v)) != 0) {
        if (r > 0 && cli_parse_size(VIEW_CMD, "--window", v, 16384, &o->window_w, &o->window_h))
            r = -1;
    } else if ((r = cli_flag(a, "--no-hud")) != 0) {
        o->no_hud = true;
    } else if ((r = cli_flag(a, "--panel")) != 0) {
        o->panel = true;
    } else if ((r = cli_flag(a, "--no-continuous")) != 0) {
        o->no_continuous = true;
    } else if ((r = cli_option(a, "--overlay", &v)) != 0) {
        if (r > 0) {
            int k = ov_find(v);
            if (k < 0) {
                cli_usage_error(VIEW_CMD, "--overlay: unknown overlay '%s'", v);
                r = -1;
            } else {
                o->overlay[k] = true;
            }
        }
    } else if ((r = cli_option(a, "--overlay-alpha", &v)) != 0) {
        if (r > 0 && cli_parse_float(VIEW_CMD, "--overlay-alpha", v, 0, 1, &o->alpha))
            r = -1;
    } else if ((r = cli_option(a, "--progressive", &v)) != 0) {
        if (r > 0 && cli_parse_int(VIEW_CMD, "--progressive", v, 0, 65536, &o->progressive))
            r = -1;
    }
    return r;
}

/* ---- where the image goes -------------------------------------------------------- */

SDL_Rect view_image_rect(const view_app *app)
{
    int ww = app->rt_w, wh = app->rt_h;
    if (app->ren)
        SDL_GetRendererOutputSize(app->ren, &ww, &wh);
    if (ww == app->rt_w && wh == app->rt_h)
        return (SDL_Rect){ 0, 0, ww, wh };
    /* Fit, keeping the aspect ratio, centred; 1:1 when it fits. */
    double s = fmin((double)ww / app->rt_w, (double)wh / app->rt_h);
    if (s > 1.0)
        s = 1.0;
    int w = (int)(app->rt_w * s + 0.5), h = (int)(app->rt_h * s + 0.5);
    w = w < 1 ? 1 : w;  /* a window a few pixels high still shows a row */
    h = h < 1 ? 1 : h;
    return (SDL_Rect){ (ww - w) / 2, (wh - h) / 2, w, h };
}

/* Window pixel -> image pixel (rows top first); false outside the image. */
static bool window_to_image(const view_app *app, int x, int y, float *ix, float *iy)
{
    SDL_Rect r = view_image_rect(app);
    if (x < r.x || y < r.y || x >= r.x + r.w || y >= r.y + r.h)
        return false;
    *ix = ((float)(x - r.x) + 0.5f) * (float)app->rt_w / (float)r.w;
    *iy = ((float)(y - r.y) + 0.5f) * (float)app->rt_h / (float)r.h;
    return true;
}

void view_fit_window(const view_app *app, int w, int h, int *out_w, int *out_h)
{
    *out_w = w, *out_h = h;
    SDL_Rect b;
    int d = app->win ? SDL_GetWindowDisplayIndex(app->win) : 0;
    if (d < 0 || SDL_GetDisplayUsableBounds(d, &b) != 0 || b.w <= 0 || b.h <= 0 || (w <= b.w && h <= b.h))
        return;
    double s = fmin((double)b.w / w, (double)b.h / h);
    *out_w = (int)(w * s), *out_h = (int)(h * s);
    *out_w = *out_w < 1 ? 1 : *out_w;
    *out_h = *out_h < 1 ? 1 : *out_h;
}

/* ---- files: never a blocking open on the window's thread ----------------------------------- */

static const char *file_kind(mode_t m)
{
    return S_ISFIFO(m) ? "a FIFO" : S_ISDIR(m) ? "a folder" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a file";
}

int view_check_input(const char *path, char *err, size_t err_size)
{
    struct stat st;
    /* stat opens nothing: a FIFO's open would wait for a writer, a device's
     * read for its data, and the window with them (the scene loader opens
     * the file again by its name: this is the viewer's check, not a lock). */
    if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
        return 0;
    snprintf(err, err_size, "%s: not a regular file (%s), not opened", path, file_kind(st.st_mode));
    return -1;
}

int view_check_output(const char *path, char *err, size_t err_size)
{
    struct stat st;
    if (stat(path, &st) != 0 || S_ISREG(st.st_mode) || S_ISCHR(st.st_mode))
        return 0;
    snprintf(err, err_size, "%s: not a regular file (%s), not written", path, file_kind(st.st_mode));
    return -1;
}

/* ---- screenshots -------------------------------------------------------------------------- */

void view_request_shot(view_app *app, const char *path, bool capture)
{
    snprintf(app->shot_path, sizeof app->shot_path, "%s", path);
    app->shot_capture = capture;
    app->shot_pending = true;
}

/* F12 / s: -o's path, else the first free mosaic-view-NNN.png. */
static void key_shot(view_app *app)
{
    char path[VIEW_PATH_MAX];
    if (app->ro.out_path) {
        snprintf(path, sizeof path, "%s", app->ro.out_path);
    } else {
        do
            snprintf(path, sizeof path, "mosaic-view-%03d.png", app->shot_counter++);
        while (access(path, F_OK) == 0 && app->shot_counter < 100000);
    }
    view_request_shot(app, path, false);
}

/* PATH with its .png replaced by .json (or .json appended). */
static void json_path(const char *path, char *out, size_t size)
{
    size_t n = strlen(path);
    if (n > 4 && strcmp(path + n - 4, ".png") == 0)
        snprintf(out, size, "%.*s.json", (int)(n - 4), path);
    else
        snprintf(out, size, "%s.json", path);
}

/* PNG, or binary PPM (P6, RGB) when PATH ends in .ppm (easy for shell tests to read). */
static mos_result write_image(const char *path, int w, int h, const uint8_t *rgba, char *err, size_t err_size)
{
    if (view_check_output(path, err, err_size) != 0)
        return MOS_ERR_IO;
    size_t n = strlen(path);
    if (n < 4 || strcmp(path + n - 4, ".ppm") != 0)
        return img_write_png(path, w, h, rgba, (size_t)w * 4, err, err_size);
    char head[64];
    int hl = snprintf(head, sizeof head, "P6\n%d %d\n255\n", w, h);
    size_t px = (size_t)w * (size_t)h;
    uint8_t *buf = malloc((size_t)hl + 3 * px);
    if (!buf) {
        snprintf(err, err_size, "%s: out of memory", path);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    memcpy(buf, head, (size_t)hl);
    for (size_t i = 0; i < px; i++)
        memcpy(buf + hl + 3 * i, rgba + 4 * i, 3);
    int r = img_write_file(path, buf, (size_t)hl + 3 * px, err, err_size);
    free(buf);
    return r == 0 ? MOS_OK : MOS_ERR_IO;
}

static int write_stats_json(view_app *app, const char *path, char *err, size_t err_size)
{
    if (view_check_output(path, err, err_size) != 0)
        return -1;
    double ms = app->st.frame_ms;
    char *json = cli_stats_json(&app->st, &ms, 1, scene_warning_count(app->sc));
    if (!json) {
        snprintf(err, err_size, "out of memory formatting statistics");
        return -1;
    }
    int r = img_write_file(path, json, strlen(json), err, err_size);
    free(json);
    return r;
}

/* Saves the pending shot from the frame being drawn (before it is presented). */
static void take_shot(view_app *app)
{
    char err[1024];
    app->shot_pending = false;
    app->script.waiting_shot = false;
    if (app->shot_capture) {
        int w, h;
        SDL_GetRendererOutputSize(app->ren, &w, &h);
        uint8_t *buf = malloc((size_t)w * (size_t)h * 4);
        if (!buf) {
            hud_message(app, true, "capture: out of memory");
            return;
        }
        if (SDL_RenderReadPixels(app->ren, NULL, SDL_PIXELFORMAT_RGBA32, buf, w * 4) != 0) {
            hud_message(app, true, "capture: SDL_RenderReadPixels: %s", SDL_GetError());
            free(buf);
            return;
        }
        for (size_t i = 3; i < (size_t)w * (size_t)h * 4; i += 4)
            buf[i] = 255;  /* the window has no alpha */
        mos_result r = write_image(app->shot_path, w, h, buf, err, sizeof err);
        free(buf);
        if (r != MOS_OK)
            hud_message(app, true, "capture: %s", err);
        else
            hud_message(app, false, "captured the window to %s (%dx%d)", app->shot_path, w, h);
        return;
    }
    mos_result r = write_image(app->shot_path, app->rt_w, app->rt_h, app->shown, err, sizeof err);
    if (r != MOS_OK) {
        hud_message(app, true, "screenshot: %s", err);
        return;
    }
    char jpath[VIEW_PATH_MAX + 8];
    json_path(app->shot_path, jpath, sizeof jpath);
    if (write_stats_json(app, jpath, err, sizeof err) != 0)
        hud_message(app, true, "screenshot statistics: %s", err);
    else
        hud_message(app, false, "wrote %s and %s (%dx%d, %d frame%s)", app->shot_path, jpath, app->rt_w, app->rt_h,
                    app->accum_n, app->accum_n == 1 ? "" : "s");
}

/* ---- one displayed frame --------------------------------------------------------------- */

static double ms_since(uint64_t t0)
{
    return (double)(SDL_GetPerformanceCounter() - t0) * 1000.0 / (double)SDL_GetPerformanceFrequency();
}

static void display(view_app *app)
{
    uint64_t t0 = SDL_GetPerformanceCounter();
    if (!app->image_tex || app->tex_w != app->rt_w || app->tex_h != app->rt_h) {
        if (app->image_tex)
            SDL_DestroyTexture(app->image_tex);
        app->image_tex = SDL_CreateTexture(app->ren, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING, app->rt_w,
                                           app->rt_h);
        app->tex_w = app->rt_w, app->tex_h = app->rt_h;
        if (app->image_tex)
            SDL_SetTextureBlendMode(app->image_tex, SDL_BLENDMODE_NONE);
        app->shown_new = true;
    }
    /* The HUD's boxes of the last display are darkened into this one's image. */
    const view_boxes *bn = &app->boxes_next, *bu = &app->boxes_used;
    const bool boxes_changed = bn->n != bu->n || memcmp(bn->r, bu->r, (size_t)bn->n * sizeof bn->r[0]) != 0 ||
                               memcmp(bn->a, bu->a, (size_t)bn->n) != 0;
    app->boxes_used = app->boxes_next;
    app->boxes_next.n = 0;
    /* The image, the tint blended in and the boxes darkened (ov_compose), into its texture. */
    const bool tint = ov_tint(app) >= 0;
    double overlay_ms = 0;
    void *tex;
    int pitch;
    if (app->image_tex && (app->shown_new || tint || app->tint_shown || boxes_changed) &&
        SDL_LockTexture(app->image_tex, NULL, &tex, &pitch) == 0) {
        uint64_t tc = SDL_GetPerformanceCounter();
        double boxes_ms = ov_compose(app, tex, pitch / 4);
        /* What the tint costs is counted whole (conversion included). */
        overlay_ms = tint ? ms_since(tc) : boxes_ms;
        SDL_UnlockTexture(app->image_tex);
        app->shown_new = false;
        app->tint_shown = tint;
    }
    SDL_SetRenderDrawBlendMode(app->ren, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(app->ren, 28, 30, 34, 255);
    SDL_RenderClear(app->ren);
    SDL_Rect rect = view_image_rect(app);
    /* Boxes over the background around a scaled image: the same darkening
     * of a solid colour is a solid colour (the image is drawn over the rest). */
    for (int i = 0; i < bu->n && (rect.w < app->window_w || rect.h < app->window_h); i++) {
        const uint32_t a = bu->a[i], k = 255 - a;
        SDL_SetRenderDrawColor(app->ren, (uint8_t)((28 * k + VIEW_BOX_R * a) / 255), (uint8_t)((30 * k + VIEW_BOX_G * a) / 255),
                               (uint8_t)((34 * k + VIEW_BOX_B * a) / 255), 255);
        SDL_RenderFillRect(app->ren, &bu->r[i]);
    }
    if (app->image_tex)
        SDL_RenderCopy(app->ren, app->image_tex, NULL, &rect);
    SDL_RenderFlush(app->ren);
    uint64_t t1 = SDL_GetPerformanceCounter();
    ov_draw(app);
    hud_draw(app);
    panel_draw(app);
    SDL_RenderFlush(app->ren);
    uint64_t t2 = SDL_GetPerformanceCounter();
    if (app->shot_pending)
        take_shot(app);
    uint64_t t3 = SDL_GetPerformanceCounter();
    SDL_RenderPresent(app->ren);
    const double f = 1000.0 / (double)SDL_GetPerformanceFrequency();
    app->image_ms = (double)(t1 - t0) * f - overlay_ms;
    app->hud_ms = (double)(t2 - t1) * f + overlay_ms;
    app->present_ms = ms_since(t3);
}

/* ---- input ---------------------------------------------------------------------------------- */

static void focus_at(view_app *app, int x, int y)
{
    float ix, iy, d;
    if (!window_to_image(app, x, y, &ix, &iy))
        return;
    if (!pick_depth(app, ix, iy, &d)) {
        hud_message(app, false, "focus: nothing under (%d, %d)", x, y);
        return;
    }
    char v[32], err[512];
    snprintf(v, sizeof v, "%.6g", d);
    if (sw_set(app, "focus", v, err, sizeof err) != 0)
        hud_message(app, true, "focus: %s", err);
    else
        hud_message(app, false, "focus %.3g at (%d, %d)%s", d, x, y,
                    app->ro.draw.set_aperture && app->ro.draw.aperture > 0 ? "" : " (aperture 'scene': key a opens it)");
}

static void key_down(view_app *app, const SDL_KeyboardEvent *k)
{
    const SDL_Keycode key = k->keysym.sym;
    const bool shift = (k->keysym.mod & KMOD_SHIFT) != 0;
    if (panel_key(app, key, shift))
        return;
    if (app->drag_right && (key == SDLK_w || key == SDLK_a || key == SDLK_s || key == SDLK_d || key == SDLK_q ||
                            key == SDLK_e))
        return;  /* flying: held keys move the camera (fly_keys) */
    if (key >= SDLK_F2 && key <= SDLK_F8) {
        int o = (int)(key - SDLK_F2);
        ov_set(app, o, !app->ov.on[o]);
        hud_message(app, false, "overlay %s %s", ov_names[o], app->ov.on[o] ? "on" : "off");
        return;
    }
    switch (key) {
    case SDLK_ESCAPE: app->quit = true; return;
    case SDLK_F1: app->help_on = !app->help_on; return;
    case SDLK_TAB: app->panel.visible = !app->panel.visible; return;
    case SDLK_F12:
    case SDLK_s: key_shot(app); return;
    case SDLK_F9: sw_step(app, sw_find("cost"), shift ? -1 : 1); return;
    case SDLK_F10:
        for (int o = 0; o < OV_COUNT; o++)
            ov_set(app, o, false);
        return;
    case SDLK_LEFTBRACKET: sw_step(app, sw_find("overlay-alpha"), -1); return;
    case SDLK_RIGHTBRACKET: sw_step(app, sw_find("overlay-alpha"), 1); return;
    case SDLK_r:
    case SDLK_BACKSPACE:
        cam_reset(&app->cam, &app->cam.home);
        vr_restart(app);
        return;
    default: break;
    }
    if (key >= SDLK_1 && key <= SDLK_9) {
        char v[8], err[512];
        snprintf(v, sizeof v, "%d", (int)(key - SDLK_1));
        if (sw_set(app, "view", v, err, sizeof err) != 0)
            hud_message(app, true, "%s", err);
        return;
    }
    for (int i = 0; i < sw_count(); i++) {
        const view_switch *s = sw_get(i);
        if (s->key && key == (SDL_Keycode)s->key) {
            char before[96], after[96];
            sw_format(app, i, before, sizeof before);
            if (sw_step(app, i, shift ? -1 : 1)) {
                sw_format(app, i, after, sizeof after);
                hud_message(app, false, "%s %s -> %s", s->name, before, after);
            }
            return;
        }
    }
}

/* Held keys: arrows fly (panel hidden); W A S D Q E fly while the right button is held. */
static void fly_keys(view_app *app, double dt_s)
{
    const uint8_t *ks = SDL_GetKeyboardState(NULL);
    float f = 0, r = 0, u = 0;
    if (!app->panel.visible) {
        f += ks[SDL_SCANCODE_UP] - ks[SDL_SCANCODE_DOWN];
        r += ks[SDL_SCANCODE_RIGHT] - ks[SDL_SCANCODE_LEFT];
    }
    if (app->drag_right) {
        f += ks[SDL_SCANCODE_W] - ks[SDL_SCANCODE_S];
        r += ks[SDL_SCANCODE_D] - ks[SDL_SCANCODE_A];
        u += ks[SDL_SCANCODE_E] - ks[SDL_SCANCODE_Q];
    }
    if (f == 0 && r == 0 && u == 0)
        return;
    float speed = (float)(dt_s > 0.25 ? 0.25 : dt_s) * 0.5f;
    if (SDL_GetModState() & KMOD_SHIFT)
        speed *= 4;
    cam_fly(&app->cam, f * speed, r * speed, u * speed);
    vr_restart(app);
}

static void handle_event(view_app *app, const SDL_Event *e)
{
    char err[1024];
    switch (e->type) {
    case SDL_QUIT: app->quit = true; break;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED || e->window.event == SDL_WINDOWEVENT_RESIZED) {
            int w, h;
            SDL_GetRendererOutputSize(app->ren, &w, &h);
            vr_window_resized(app, w, h);
        }
        break;
    case SDL_DROPFILE:
        if (e->drop.file) {
            if (vr_load(app, e->drop.file, err, sizeof err) != 0)
                hud_message(app, true, "%s", err);
            else
                hud_message(app, false, "loaded %s", e->drop.file);
            SDL_free(e->drop.file);
        }
        break;
    case SDL_DROPTEXT: SDL_free(e->drop.file); break;  /* text dragged in: nothing to load */
    case SDL_KEYDOWN: key_down(app, &e->key); break;
    case SDL_MOUSEBUTTONDOWN:
        if (panel_click(app, e->button.x, e->button.y, e->button.button))
            break;
        app->press_x = e->button.x, app->press_y = e->button.y;
        app->dragged = false;
        if (e->button.button == SDL_BUTTON_LEFT)
            app->drag_left = true;
        else if (e->button.button == SDL_BUTTON_RIGHT)
            app->drag_right = true;
        else if (e->button.button == SDL_BUTTON_MIDDLE)
            app->drag_middle = true;
        break;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_LEFT && app->drag_left) {
            app->drag_left = false;
            if (!app->dragged)
                focus_at(app, e->button.x, e->button.y);
        } else if (e->button.button == SDL_BUTTON_RIGHT) {
            app->drag_right = false;
        } else if (e->button.button == SDL_BUTTON_MIDDLE) {
            app->drag_middle = false;
        }
        break;
    case SDL_MOUSEMOTION: {
        if (!app->drag_left && !app->drag_right && !app->drag_middle)
            break;
        if (abs(e->motion.x - app->press_x) + abs(e->motion.y - app->press_y) > 3)
            app->dragged = true;
        if (!app->dragged)
            break;
        const float dx = (float)e->motion.xrel, dy = (float)e->motion.yrel;
        if (app->drag_middle || (app->drag_left && (SDL_GetModState() & KMOD_SHIFT)))
            cam_pan(&app->cam, dx, dy, view_image_rect(app).h);
        else if (app->drag_left)
            cam_orbit(&app->cam, dx, dy);
        else if (app->drag_right)
            cam_look(&app->cam, dx, dy);
        vr_restart(app);
        break;
    }
    case SDL_MOUSEWHEEL: {
        int mx, my;
        SDL_GetMouseState(&mx, &my);
        int dir = e->wheel.y > 0 ? 1 : e->wheel.y < 0 ? -1 : 0;
        if (dir && panel_wheel(app, mx, my, dir))
            break;
        if (dir) {
            cam_dolly(&app->cam, (float)e->wheel.y);
            vr_restart(app);
        }
        break;
    }
    default: break;
    }
}

/* ---- main --------------------------------------------------------------------------------- */

/* The options VO and the parsed render options into APP's settings: 0, or CLI_EXIT_FAIL (printed). */
static int view_configure(view_app *app, const view_opts *vo)
{
    app->fixed_size = app->ro.width > 0;
    app->window_w = vo->window_w ? vo->window_w : app->fixed_size ? app->ro.width : 1280;
    app->window_h = vo->window_h ? vo->window_h : app->fixed_size ? app->ro.height : 720;
    if (!app->fixed_size)
        app->ro.width = app->window_w, app->ro.height = app->window_h;
    app->quit_after = app->ro.frames;
    app->progressive_max = vo->progressive;
    app->continuous = !vo->no_continuous;
    app->hud_on = !vo->no_hud;
    app->panel.visible = vo->panel;
    app->ov.alpha = vo->alpha;
    for (int o = 0; o < OV_COUNT; o++)
        if (vo->overlay[o])
            ov_set(app, o, true);
    if (app->ro.pipeline.pattern) {
        snprintf(app->pattern, sizeof app->pattern, "%s", app->ro.pipeline.pattern);
        app->ro.pipeline.pattern = app->pattern;
    }
    if (app->ro.stats_path || app->ro.out_path) {
        char err[1024];
        if ((app->ro.stats_path && cli_check_writable(app->ro.stats_path, err, sizeof err) != 0) ||
            (app->ro.out_path && cli_check_writable(app->ro.out_path, err, sizeof err) != 0)) {
            fprintf(stderr, "%s: %s\n", VIEW_CMD, err);
            return CLI_EXIT_FAIL;
        }
    }
    return 0;
}

/* The scene first, its view's camera and the script: a bad file fails before a window opens.
 * 0, or CLI_EXIT_FAIL (printed, what was loaded freed). */
static int view_load(view_app *app, const view_opts *vo)
{
    char err[1024];
    const char *first = app->ro.scene_path;
    const int want_view = app->ro.view;  /* vr_load starts at view 0 */
    if (vr_load(app, first, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", VIEW_CMD, err);
        return CLI_EXIT_FAIL;
    }
    app->ro.view = want_view;
    if (scene_check_view(app->sc, first, app->ro.view, err, sizeof err) != MOS_OK) {
        fprintf(stderr, "%s: %s\n", VIEW_CMD, err);
        vr_stop(app);
        return CLI_EXIT_FAIL;
    }
    scene_pose home;
    scene_view_pose(app->sc, app->ro.view, &home);
    cam_reset(&app->cam, &home);
    if (vo->script && script_load(&app->script, vo->script) != 0) {
        vr_stop(app);
        script_free(&app->script);
        return CLI_EXIT_FAIL;
    }
    app->have_script = vo->script != NULL;
    return 0;
}

/* SDL, the window, its renderer, the HUD and the render thread: 0, or -1 (printed). */
static int view_open(view_app *app, const view_opts *vo)
{
    SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "nearest");
    if (vo->renderer)
        SDL_SetHint(SDL_HINT_RENDER_DRIVER, vo->renderer);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "%s: SDL_Init: %s\n", VIEW_CMD, SDL_GetError());
        return -1;
    }
    if (app->fixed_size)  /* a render bigger than the screen is shown scaled down */
        view_fit_window(app, app->window_w, app->window_h, &app->window_w, &app->window_h);
    app->win = SDL_CreateWindow("mosaic-view", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, app->window_w,
                                app->window_h, SDL_WINDOW_RESIZABLE);
    if (!app->win) {
        fprintf(stderr, "%s: SDL_CreateWindow: %s\n", VIEW_CMD, SDL_GetError());
        return -1;
    }
    app->ren = SDL_CreateRenderer(app->win, -1, 0);
    if (!app->ren) {
        fprintf(stderr, "%s: SDL_CreateRenderer: %s\n", VIEW_CMD, SDL_GetError());
        return -1;
    }
    SDL_EventState(SDL_DROPFILE, SDL_ENABLE);
    int w, h;
    SDL_GetRendererOutputSize(app->ren, &w, &h);
    app->window_w = w, app->window_h = h;
    if (!app->fixed_size && w > 0 && h > 0)
        app->ro.width = w, app->ro.height = h;
    if (hud_init(app, vo->font ? vo->font : VIEW_DEFAULT_FONT, vo->csv) != 0 || vr_start(app) != 0)
        return -1;
    SDL_RendererInfo info;
    if (SDL_GetRendererInfo(app->ren, &info) == 0)
        hud_message(app, false, "%s: %d views, %d threads, SDL renderer %s", app->ro.scene_path,
                    scene_view_count(app->sc), app->used.threads, info.name);
    return 0;
}

/* One turn of the main loop: events, the script, the fly keys, a frame when one is due, the display.
 * PREV is the time of the last turn, *WAS_BUSY whether it rendered. */
static void view_turn(view_app *app, uint64_t *prev, bool *was_busy)
{
    const bool busy = vr_wants_frame(app) || (app->have_script && !script_done(app)) || app->drag_left ||
                      app->drag_right || app->drag_middle || app->shot_pending;
    SDL_Event e;
    if (!busy && SDL_WaitEventTimeout(&e, 100))
        handle_event(app, &e);
    while (SDL_PollEvent(&e))
        handle_event(app, &e);
    if (app->have_script)
        script_step(app);
    if (app->quit)
        return;
    uint64_t now = SDL_GetPerformanceCounter();
    const double dt_ms = (double)(now - *prev) * 1000.0 / (double)SDL_GetPerformanceFrequency();
    *prev = now;
    fly_keys(app, dt_ms / 1000.0);
    bool rendered = false;
    if (vr_wants_frame(app)) {
        uint64_t t = SDL_GetPerformanceCounter();
        rendered = vr_frame(app) == 0;
        app->render_ms = ms_since(t);
        if (!rendered) {
            /* A library error: show it and wait for a change. */
            app->continuous = false;
            app->changed = false;
            app->have_stats = true;
            app->accum_n = 1 << 30;
        }
    }
    display(app);
    if (rendered) {
        /* The loop time of back-to-back frames (the first one after an
         * idle wait says nothing about the frame rate). */
        app->loop_ms = dt_ms;
        if (*was_busy && app->frames > 1)
            app->fps = app->fps > 0 ? 0.9 * app->fps + 0.1 * (1000.0 / fmax(dt_ms, 0.01)) : 1000.0 / fmax(dt_ms, 0.01);
        hud_record(app);
    }
    *was_busy = rendered;
    app->displayed++;
    if (app->have_script)
        script_frame_done(app);
    if (app->quit_after && app->frames >= (uint64_t)app->quit_after && !app->shot_pending)
        app->quit = true;
}

/* Until quit; then the exit status, with the --stats-json file written. */
static int view_loop(view_app *app)
{
    uint64_t prev = SDL_GetPerformanceCounter();
    bool was_busy = false;
    while (!app->quit)
        view_turn(app, &prev, &was_busy);
    int rc = app->exit_code;
    char err[1024];
    if (rc == CLI_EXIT_OK && app->ro.stats_path && app->have_stats &&
        write_stats_json(app, app->ro.stats_path, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", VIEW_CMD, err);
        rc = CLI_EXIT_FAIL;
    }
    return rc;
}

/* Frees what view_load and view_open made (after view_open failed too). */
static void view_close(view_app *app)
{
    ov_free(&app->ov);
    hud_free(&app->hud);
    if (app->image_tex)
        SDL_DestroyTexture(app->image_tex);
    if (app->ren)
        SDL_DestroyRenderer(app->ren);
    if (app->win)
        SDL_DestroyWindow(app->win);
    SDL_Quit();
    vr_stop(app);
    script_free(&app->script);
}

int main(int argc, char **argv)
{
    static view_app app_storage;  /* large (the HUD's graphs): not on the stack */
    view_app *app = &app_storage;
    view_opts vo = { .alpha = 0.5f, .progressive = 64 };
    app->ro = (render_opts){ .spp = 1 };
    const render_parse_cfg cfg = { .cmd = VIEW_CMD, .extra = view_option, .user = &vo };
    int rc = render_parse(argc, argv, &app->ro, &cfg);
    if (rc < 0) {
        fputs(view_usage_head, stdout);
        fputs(render_opts_usage, stdout);
        fputs(view_usage_tail, stdout);
        return CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK || (rc = view_configure(app, &vo)) != 0 || (rc = view_load(app, &vo)) != 0)
        return rc;
    rc = view_open(app, &vo) == 0 ? view_loop(app) : CLI_EXIT_FAIL;
    view_close(app);
    return rc;
}
