/* view.h — the private interface between mosaic-view's files: the one viewer state (view_app) and each file's calls.
 * Fed by view.c (main loop, input); each file owns one concern: camera, render, hud, overlay, panel, switches, script, pick. */
#ifndef MOSAIC_VIEW_H
#define MOSAIC_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <SDL.h>
#include <SDL_ttf.h>

#include "mosaic.h"
#include "scene/scene.h"
#include "tools/render_opts.h"

#define VIEW_CMD "mosaic-view"          /* program name in messages */
#define VIEW_GRAPH_LEN 240             /* frames the HUD graphs keep */
#define VIEW_DEFAULT_FONT "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
#define VIEW_PATH_MAX 4096
/* The most memory a render size may take (vr_size_bytes), also at most half
 * the physical memory: a bigger size or spp is refused, the viewer goes on. */
#define VIEW_MEMORY_LIMIT_MIB 4096
/* vr_apply / sw_set: refused (over the memory limit), the old options stay;
 * a script shows it in the HUD with FILE:LINE and goes on (expect-error). */
#define VIEW_REFUSED (-2)

typedef struct view_app view_app;

/* ---- camera.c: the free camera (orbit around a target, fly from the eye) --- */
typedef struct view_camera {
    scene_pose pose;  /* what is drawn when moved */
    scene_pose home;  /* the view's own pose (reset) */
    bool moved;       /* false: draw with the view's camera exactly (pose NULL) */
} view_camera;

void cam_reset(view_camera *c, const scene_pose *home);
/* Left drag: turn the eye around the target (pixels of mouse motion). */
void cam_orbit(view_camera *c, float dx_px, float dy_px);
/* Right drag: turn the view around the eye. */
void cam_look(view_camera *c, float dx_px, float dy_px);
/* Middle or shift drag: move eye and target in the view plane. */
void cam_pan(view_camera *c, float dx_px, float dy_px, int height_px);
/* Wheel: move the eye towards (steps > 0) or away from the target. */
void cam_dolly(view_camera *c, float steps);
/* Fly: move eye and target along the view (forward, right, up), in units
 * of the eye-target distance. */
void cam_fly(view_camera *c, float forward, float right, float up);
/* World-space ray through window pixel (x_px, y_px) of a W x H image, rows top first. */
void cam_ray(const view_camera *c, float x_px, float y_px, int w, int h, float origin[3], float dir[3]);
/* Unit view direction. */
void cam_forward(const view_camera *c, float f[3]);

/* ---- switches.c: every live setting by name (panel rows, keys, script `set`) --- */
typedef struct view_switch {
    const char *name;   /* as in `set NAME VALUE` (render options without the dashes) */
    char key;           /* key that steps it forward (shift: back); 0 = none */
    const char *help;
} view_switch;

int sw_count(void);
const view_switch *sw_get(int i);
int sw_find(const char *name);  /* index or -1 */
/* The current value as text ("2", "g80", "on"). */
void sw_format(const view_app *app, int i, char *buf, size_t size);
/* Steps switch I by DIR (+1 / -1) and applies it; false (message in the HUD) if refused. */
bool sw_step(view_app *app, int i, int dir);
/* Sets switch NAME to VALUE and applies it; 0, or -1 (VIEW_REFUSED: over the
 * memory limit) with a message in ERR. */
int sw_set(view_app *app, const char *name, const char *value, char *err, size_t err_size);

/* ---- render.c: the context, the target, the scene, one frame ------------ */
/* Bytes a W x H render at SPP samples may take (target, accumulation,
 * inspection maps, shown image, texture), and the most allowed. */
uint64_t vr_size_bytes(int w, int h, int spp);
uint64_t vr_memory_limit(void);
/* Creates the context and the target and uploads the loaded scene; 0 or -1 (message printed). */
int vr_start(view_app *app);
void vr_stop(view_app *app);
/* Makes NEW the options in force: reconfigures the pipeline, recreates the
 * target (size, spp) or the context (ISA) where needed.  On failure the old
 * options stay and ERR says why: -1, or VIEW_REFUSED for a size or spp over
 * the memory limit (checked before anything is allocated). */
int vr_apply(view_app *app, const render_opts *next, char *err, size_t err_size);
/* Loads the scene or mesh file PATH, replacing the current one; on failure
 * the old one stays and ERR says why (-1). */
int vr_load(view_app *app, const char *path, char *err, size_t err_size);
/* Renders one frame (or one more progressive frame) into app->shown; -1 on a library error. */
int vr_frame(view_app *app);
/* Should a frame be rendered now (something changed, progressive not done, continuous)? */
bool vr_wants_frame(const view_app *app);
/* The change that restarts progressive accumulation (camera, options, scene). */
void vr_restart(view_app *app);
/* Is the image blurred (and so worth accumulating)? */
bool vr_blurred(const view_app *app);
/* The render size the window asks for (follows the window unless fixed). */
void vr_window_resized(view_app *app, int w, int h);
/* The scene_draw_opts of the next frame. */
void vr_draw_opts(const view_app *app, scene_draw_opts *out);

/* ---- pick.c: click to focus ------------------------------------------------ */
/* Distance along the view direction to the nearest surface under window
 * pixel (x_px, y_px) of the rendered image; false when the ray hits nothing. */
bool pick_depth(const view_app *app, float x_px, float y_px, float *dist);

/* ---- hud.c: text, frame-time graphs, configuration and counts, CSV ------- */
typedef struct view_text_line view_text_line;  /* cached rendered line */

typedef struct view_series {
    const char *name, *unit;
    SDL_Color color;
    float v[VIEW_GRAPH_LEN];
} view_series;

typedef struct view_hud {
    TTF_Font *font;
    int line_h, char_w;
    view_text_line *lines;  /* cache of rendered text lines */
    int line_count, line_cap;
    uint64_t tick;          /* drawing passes, for the cache's LRU */
    int head, filled;       /* ring position of the graphs */
    view_series series[7];  /* frame, front-end, stall, first work, hud, shading rate, cache hit */
    FILE *csv;
    SDL_Rect text_rect;     /* where the last display put the text block (0 = none) */
    int panes_y;            /* top of the graph panes (window height = none) */
} view_hud;

/* Where a box of W x H goes at the top right (legends): below the panel and,
 * when the HUD's text block reaches that far right, below the text. */
SDL_Point hud_top_right(const view_app *app, int w, int h);

int hud_init(view_app *app, const char *font_path, const char *csv_path);
void hud_free(view_hud *h);
/* Adds the last frame's statistics to the graphs and the CSV. */
void hud_record(view_app *app);
void hud_draw(view_app *app);
/* Text at (x, y) in COLOR; returns its width in pixels. */
int hud_text(view_app *app, int x, int y, SDL_Color color, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* A translucent box behind HUD text.  It is recorded, not drawn: the next
 * display darkens these rectangles while composing the image (ov_compose),
 * because the software renderer blends at ~4.5 ns a pixel. */
void hud_box(view_app *app, int x, int y, int w, int h, uint8_t alpha);

#define VIEW_MAX_BOXES 64
typedef struct view_boxes {
    int n;
    SDL_Rect r[VIEW_MAX_BOXES];  /* window pixels */
    uint8_t a[VIEW_MAX_BOXES];
} view_boxes;
#define VIEW_BOX_R 12  /* the boxes' colour */
#define VIEW_BOX_G 14
#define VIEW_BOX_B 18
/* A message line in the HUD (also printed to stderr), red when ERROR. */
void hud_message(view_app *app, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- overlay.c: per-bin and per-pixel overlays over the image ------------- */
enum view_overlay {
    OV_OWNER,     /* worker that owns each bin (the pattern) */
    OV_COST,      /* per-bin cost: time, samples or triangles */
    OV_LOAD,      /* per-worker load bars */
    OV_SHADES,    /* shading-rate heat map: shades per pixel */
    OV_OVERDRAW,  /* quads rasterized per pixel */
    OV_TRIAREA,   /* area of the triangle seen at each pixel */
    OV_SPREAD,    /* bins per blurred triangle, per bin */
    OV_COUNT
};
extern const char *const ov_names[OV_COUNT];

typedef struct view_overlays {
    bool on[OV_COUNT];
    float alpha;        /* blend of the tints over the image, 0..1 */
    int cost_metric;    /* 0 ms, 1 samples, 2 triangles */
    double scale_top;       /* top of the per-bin tint's scale (legend) */
    /* The last frame's records (read by vr_frame when an overlay needs them). */
    mos_bin_info *bins;
    size_t bins_cap;
    mos_bin_grid grid;
    bool bins_ok;
    float *map[OV_COUNT];   /* per-pixel maps of SHADES, OVERDRAW, TRIAREA */
    bool map_ok[OV_COUNT];
    size_t map_cap;
    int read_w, read_h;  /* render size the records were read at */
    char why[256];          /* why the last read failed ("" = fine) */
} view_overlays;

int ov_find(const char *name);  /* index or -1 */
/* Turns overlay O on or off (one tint at a time: a tint turns the others off). */
void ov_set(view_app *app, int o, bool on);
/* mos_inspect bits the overlays that are on (and the HUD) need. */
unsigned ov_inspect_bits(const view_app *app);
/* Reads the records of the frame just rendered (after mos_end_frame). */
void ov_read(view_app *app);
/* The tint in use (owner, cost, spread, shades, overdraw, triangle-size) with
 * its records read, or -1. */
int ov_tint(const view_app *app);
/* The shown image as ARGB8888 words into DST (PITCH_PX words a row) with the
 * tint in use blended in and the HUD's boxes (app->boxes_used) darkened;
 * returns the milliseconds spent on the boxes. */
double ov_compose(view_app *app, uint32_t *dst, int pitch_px);
/* Draws the legends and load bars of the overlays that are on. */
void ov_draw(view_app *app);
void ov_free(view_overlays *o);
/* The colour of worker W (the first six: the G80 table's colours). */
SDL_Color ov_worker_color(int w);

/* ---- panel.c: the on-screen list of switches ----------------------------- */
typedef struct view_panel {
    bool visible;
    int selected;     /* row */
    SDL_Rect rect;    /* where it was drawn (mouse hits) */
    int row_h, rows;  /* rows shown */
    int top;          /* first row shown */
} view_panel;

void panel_draw(view_app *app);
/* Keyboard while the panel is visible: true when the key was the panel's. */
bool panel_key(view_app *app, SDL_Keycode key, bool shift);
/* Mouse button or wheel at (x, y): true when over the panel. */
bool panel_click(view_app *app, int x, int y, int button);
bool panel_wheel(view_app *app, int x, int y, int dir);
int panel_rows(void);

/* ---- script.c: scripted mode (--script FILE) --------------------------------- */
typedef struct view_script_cmd {
    int line;
    int argc;
    char *argv[8];
} view_script_cmd;

typedef struct view_script {
    const char *path;
    view_script_cmd *cmds;
    int count, next;
    int wait_frames;     /* frames left of a `wait` */
    bool waiting_shot;   /* a screenshot/capture is pending for the next frame */
    char *text;          /* the file's contents (argv points into it) */
    char **owned;        /* words with ${NAME} expanded */
    int owned_count;
} view_script;

/* Parses PATH; 0 or -1 with "FILE:LINE: message" printed. */
int script_load(view_script *s, const char *path);
void script_free(view_script *s);
/* Runs commands until one must wait for a frame; -1 on an error (printed, app quits). */
int script_step(view_app *app);
/* A frame was displayed. */
void script_frame_done(view_app *app);
/* Every command has run (and the last wait and shot are over). */
bool script_done(const view_app *app);

/* ---- view.c: the window -------------------------------------------------------- */
/* Requests the next displayed frame to be saved: the rendered image
 * (CAPTURE false, with the statistics JSON beside it) or the window as shown. */
void view_request_shot(view_app *app, const char *path, bool capture);
/* Where the image is drawn in the window. */
SDL_Rect view_image_rect(const view_app *app);
/* 0 when PATH may be opened to read without blocking the window: a FIFO,
 * a device, a socket or a folder is refused from stat, never opened ("PATH:
 * not a regular file (a FIFO), not opened").  A PATH stat cannot see passes
 * (the loader says why it cannot open it). */
int view_check_input(const char *path, char *err, size_t err_size);
/* The same for a file about to be written (screenshots, statistics): a
 * FIFO, a socket or a folder is refused; a regular file, a new file or a
 * character device (/dev/null) passes. */
int view_check_output(const char *path, char *err, size_t err_size);
/* The window size for a WxH render: WxH, scaled down (aspect kept) to fit
 * the display the window is on (the image is shown scaled to fit). */
void view_fit_window(const view_app *app, int w, int h, int *out_w, int *out_h);

/* ---- the viewer's state ------------------------------------------------------- */
struct view_app {
    /* Options in force (scene path, size, spp, pipeline, blur, draw overrides);
     * string fields point into the buffers below. */
    render_opts ro;
    char scene_path[VIEW_PATH_MAX];
    char pattern[256];
    bool fixed_size;      /* --size: the render size does not follow the window */
    int window_w, window_h;
    const char *renderer_name;
    int quit_after;       /* --frames: quit after this many frames (0 = never) */
    int progressive_max;  /* frames accumulated when still (0 = off) */
    bool continuous;      /* render every frame even when nothing changed */
    bool hud_on;
    bool quit;
    int exit_code;

    /* scene and library */
    scene *sc;
    scene_gpu *gpu;
    mos_context *ctx;
    mos_target rt;
    int rt_w, rt_h, rt_spp;
    mos_pipeline_desc used;  /* the pipeline in force, defaults filled */
    mos_frame_stats st;
    bool have_stats;
    uint64_t frames;         /* frames rendered */
    uint64_t displayed;      /* frames displayed */
    bool is_blurred;         /* the last frame had blurred triangles or was an accum sub-frame */

    /* the image shown: the last frame, or the mean of the target's
     * accumulation buffer while accumulating */
    uint8_t *shown;
    int accum_n;             /* frames accumulated (0 = restart) */
    bool changed;            /* restart at the next frame */
    bool shown_new;          /* shown changed since the texture was updated */
    bool tint_shown;         /* the texture holds a tint (redraw it when the tint goes) */

    view_camera cam;
    /* input */
    bool drag_left, drag_right, drag_middle, dragged;
    int press_x, press_y;
    uint64_t last_tick;

    /* SDL */
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Texture *image_tex;
    int tex_w, tex_h;
    bool help_on;

    view_hud hud;
    view_overlays ov;
    view_panel panel;
    view_script script;
    bool have_script;

    /* timings of the last displayed frame (ms) */
    double loop_ms, image_ms, hud_ms, present_ms, render_ms;
    double fps;

    view_boxes boxes_next;   /* recorded by this display's HUD */
    view_boxes boxes_used;   /* composed into the image texture */

    /* the HUD's message line */
    char message[512];
    bool message_error;
    uint64_t message_ticks;  /* SDL_GetTicks64 when set */

    /* pending shots (script screenshot/capture, F12) */
    char shot_path[VIEW_PATH_MAX];
    bool shot_pending, shot_capture;
    int shot_counter;
};

#endif
