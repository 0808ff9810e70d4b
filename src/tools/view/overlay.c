/* overlay.c — mosaic-view's overlays: per-bin tints (owner, cost, spread), per-pixel heat maps, load bars, legends.
 * Fed by render.c (ov_read: mos_target_read_bins / _read_map after each frame) and view.c (compose, draw, toggles). */
#include "tools/view/view.h"
#include "util/cpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const ov_names[OV_COUNT] = {
    [OV_OWNER] = "owner", [OV_COST] = "cost", [OV_LOAD] = "load", [OV_SHADES] = "shades",
    [OV_OVERDRAW] = "overdraw", [OV_TRIAREA] = "triangle-size", [OV_SPREAD] = "spread",
};

int ov_find(const char *name)
{
    for (int i = 0; i < OV_COUNT; i++)
        if (strcmp(ov_names[i], name) == 0)
            return i;
    if (strcmp(name, "triarea") == 0 || strcmp(name, "area") == 0)
        return OV_TRIAREA;
    return -1;
}

/* The G80 study's six rasterizers get six well-separated colours (the
 * ownership tint of `g80` shows its 6-colour table); more workers walk the
 * hue circle by the golden angle. */
static const SDL_Color six_colors[6] = {
    { 230, 40, 40, 255 },   /* 0 red */
    { 40, 200, 60, 255 },   /* 1 green */
    { 40, 90, 240, 255 },   /* 2 blue */
    { 250, 220, 30, 255 },  /* 3 yellow */
    { 220, 50, 230, 255 },  /* 4 magenta */
    { 40, 220, 230, 255 },  /* 5 cyan */
};

SDL_Color ov_worker_color(int w)
{
    if (w >= 0 && w < 6)
        return six_colors[w];
    float h = fmodf((float)w * 137.50776f, 360.0f) / 60.0f, s = 0.75f, v = 0.95f;
    float c = v * s, x = c * (1.0f - fabsf(fmodf(h, 2.0f) - 1.0f)), m = v - c;
    float r = 0, g = 0, b = 0;
    switch ((int)h) {
    case 0: r = c, g = x; break;
    case 1: r = x, g = c; break;
    case 2: g = c, b = x; break;
    case 3: g = x, b = c; break;
    case 4: r = x, b = c; break;
    default: r = c, b = x; break;
    }
    return (SDL_Color){ (uint8_t)((r + m) * 255), (uint8_t)((g + m) * 255), (uint8_t)((b + m) * 255), 255 };
}

/* Heat ramp: 0 dark blue, blue, cyan, green, yellow, 1 red (seed 001's Figure 1 reads the same way). */
static uint32_t heat_rgba(float t)
{
    static const float stops[6][3] = {
        { 20, 20, 140 }, { 30, 80, 255 }, { 0, 220, 240 }, { 40, 220, 60 }, { 250, 230, 20 }, { 240, 30, 20 },
    };
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    float p = t * 5.0f;
    int i = (int)p;
    if (i >= 5)
        i = 4;
    float f = p - (float)i;
    uint8_t c[3];
    for (int k = 0; k < 3; k++)
        c[k] = (uint8_t)(stops[i][k] + (stops[i + 1][k] - stops[i][k]) * f + 0.5f);
    /* SDL_PIXELFORMAT_ARGB8888, the software renderer's own layout (its fast blend path). */
    return 0xFF000000u | (uint32_t)c[0] << 16 | (uint32_t)c[1] << 8 | c[2];
}

static bool is_tint(int o)
{
    return o != OV_LOAD;
}

void ov_set(view_app *app, int o, bool on)
{
    if (o < 0 || o >= OV_COUNT || app->ov.on[o] == on)
        return;
    if (on && is_tint(o))
        for (int k = 0; k < OV_COUNT; k++)
            if (is_tint(k))
                app->ov.on[k] = false;
    app->ov.on[o] = on;
    /* The records come with the next frame. */
    vr_restart(app);
}

unsigned ov_inspect_bits(const view_app *app)
{
    const bool *on = app->ov.on;
    unsigned bits = 0;
    if (on[OV_COST] || on[OV_SPREAD])
        bits |= MOS_INSPECT_BINS;
    if (on[OV_SHADES])
        bits |= MOS_INSPECT_SHADES;
    if (on[OV_OVERDRAW])
        bits |= MOS_INSPECT_OVERDRAW;
    if (on[OV_TRIAREA])
        bits |= MOS_INSPECT_TRIANGLE_AREA;
    if (app->hud_on)  /* the HUD shows it */
        bits |= MOS_INSPECT_BLUR_AREA;
    return bits;
}

static mos_inspect map_bit(int o)
{
    return o == OV_SHADES ? MOS_INSPECT_SHADES : o == OV_OVERDRAW ? MOS_INSPECT_OVERDRAW : MOS_INSPECT_TRIANGLE_AREA;
}

static void set_why(view_app *app, const char *what)
{
    const char *e = mos_last_error(app->ctx);
    snprintf(app->ov.why, sizeof app->ov.why, "%s: %s", what, e && *e ? e : "not available");
}

void ov_read(view_app *app)
{
    view_overlays *ov = &app->ov;
    ov->why[0] = '\0';
    ov->bins_ok = false;
    if (ov->on[OV_OWNER] || ov->on[OV_COST] || ov->on[OV_SPREAD]) {
        if (mos_target_read_bins(app->ctx, app->rt, NULL, 0, &ov->grid) == MOS_OK) {
            size_t n = (size_t)ov->grid.bins_x * (size_t)ov->grid.bins_y;
            if (n > ov->bins_cap) {
                mos_bin_info *b = realloc(ov->bins, n * sizeof *b);
                if (b)
                    ov->bins = b, ov->bins_cap = n;
            }
            if (n <= ov->bins_cap && mos_target_read_bins(app->ctx, app->rt, ov->bins, ov->bins_cap, &ov->grid) == MOS_OK)
                ov->bins_ok = true;
            else
                set_why(app, "mos_target_read_bins");
        } else {
            set_why(app, "mos_target_read_bins");
        }
    }
    const size_t px = (size_t)app->rt_w * (size_t)app->rt_h;
    ov->read_w = app->rt_w;
    ov->read_h = app->rt_h;
    for (int o = OV_SHADES; o <= OV_TRIAREA; o++) {
        ov->map_ok[o] = false;
        if (!ov->on[o])
            continue;
        if (px > ov->map_cap) {
            for (int k = OV_SHADES; k <= OV_TRIAREA; k++) {
                free(ov->map[k]);
                ov->map[k] = NULL;
            }
            ov->map_cap = px;
        }
        if (!ov->map[o] && !(ov->map[o] = malloc(ov->map_cap * sizeof(float)))) {
            snprintf(ov->why, sizeof ov->why, "out of memory for the %s map", ov_names[o]);
            continue;
        }
        if (mos_target_read_map(app->ctx, app->rt, map_bit(o), ov->map[o], (size_t)app->rt_w) == MOS_OK)
            ov->map_ok[o] = true;
        else
            set_why(app, "mos_target_read_map");
    }
}

void ov_free(view_overlays *o)
{
    for (int i = 0; i < OV_COUNT; i++) {
        free(o->map[i]);
        o->map[i] = NULL;
    }
    free(o->bins);
    o->bins = NULL;
    o->bins_cap = 0;
}

/* The legend of a heat map: a colour bar from LO to HI. */
static void draw_legend(view_app *app, const char *title, const char *lo, const char *hi)
{
    int win_w, win_h;
    SDL_GetRendererOutputSize(app->ren, &win_w, &win_h);
    const int lh = app->hud.line_h, bw = 220;
    const SDL_Point at = hud_top_right(app, bw + 6, 2 * lh + 16);
    int x = at.x, y = at.y;
    (void)win_w, (void)win_h;
    hud_box(app, x - 6, y - 2, bw + 12, 2 * lh + 16, 190);
    hud_text(app, x, y, (SDL_Color){ 235, 235, 235, 255 }, "%s", title);
    for (int i = 0; i < bw; i++) {
        uint32_t c = heat_rgba((float)i / (float)(bw - 1));
        SDL_SetRenderDrawColor(app->ren, (uint8_t)(c >> 16), (uint8_t)(c >> 8), (uint8_t)c, 255);
        SDL_RenderDrawLine(app->ren, x + i, y + lh + 2, x + i, y + lh + 10);
    }
    hud_text(app, x, y + lh + 12, (SDL_Color){ 200, 200, 200, 255 }, "%s", lo);
    int w = 0;
    TTF_SizeUTF8(app->hud.font, hi, &w, NULL);
    hud_text(app, x + bw - w, y + lh + 12, (SDL_Color){ 200, 200, 200, 255 }, "%s", hi);
}

static double bin_value(const view_overlays *ov, int o, const mos_bin_info *b)
{
    return o == OV_SPREAD ? b->blurred_spread
           : ov->cost_metric == 1 ? (double)b->samples
           : ov->cost_metric == 2 ? (double)b->triangles : b->ms;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The top of a per-bin scale: the 98th percentile of the non-zero values
 * (a bin whose worker was preempted should not wash out the rest). */
static double bin_scale(const view_overlays *ov, int o, size_t n)
{
    double *v = malloc(n * sizeof *v), top = 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        double x = bin_value(ov, o, &ov->bins[i]);
        if (x > 0) {
            if (v)
                v[m] = x;
            m++;
            top = x > top ? x : top;
        }
    }
    if (v && m > 0) {
        qsort(v, m, sizeof *v, cmp_double);
        top = v[(size_t)((double)(m - 1) * 0.98)];
    }
    free(v);
    return top;
}

int ov_tint(const view_app *app)
{
    const view_overlays *ov = &app->ov;
    /* Records read for another render size (the window changed, and the
     * frame since failed) are not shown. */
    if (ov->read_w != app->rt_w || ov->read_h != app->rt_h)
        return -1;
    for (int o = 0; o < OV_COUNT; o++) {
        if (!ov->on[o] || !is_tint(o))
            continue;
        if ((o == OV_OWNER || o == OV_COST || o == OV_SPREAD) && ov->bins_ok && ov->grid.bin_px > 0)
            return o;
        if (o >= OV_SHADES && o <= OV_TRIAREA && ov->map_ok[o])
            return o;
    }
    return -1;
}

/* One row: RGBA8 bytes S -> ARGB8888 words D, opaque. */
UTIL_CLONES_AVX2 static void convert_row(uint32_t *restrict d, const uint8_t *restrict s, int w)
{
    for (int x = 0; x < w; x++)
        d[x] = 0xFF000000u | (uint32_t)s[4 * x] << 16 | (uint32_t)s[4 * x + 1] << 8 | s[4 * x + 2];
}

/* One row: RGBA8 bytes S -> ARGB8888 words D, blended towards TINT (ARGB
 * words; alpha 0 = no tint, 255 = tint) by A/256.  Branch-free so the
 * compiler vectorizes it; an AVX2 clone is picked at load time where the CPU
 * has it (1280x720: 1.9 ms with SSE2, 0.55 ms with AVX2). */
UTIL_CLONES_AVX2 static void blend_row(uint32_t *restrict d, const uint8_t *restrict s, const uint32_t *restrict tint, uint32_t a,
                      int w)
{
    for (int x = 0; x < w; x++) {
        const uint32_t t = tint[x];
        const uint32_t ax = a & (0u - (t >> 31));
        const uint32_t b = 256 - ax;
        const uint32_t r = (s[4 * x] * b + ((t >> 16) & 0xFF) * ax) >> 8;
        const uint32_t g = (s[4 * x + 1] * b + ((t >> 8) & 0xFF) * ax) >> 8;
        const uint32_t bl = (s[4 * x + 2] * b + (t & 0xFF) * ax) >> 8;
        d[x] = 0xFF000000u | r << 16 | g << 8 | bl;
    }
}

/* One row of a per-pixel map's tint: the colour of each float (its bits M)
 * from the 8192-entry table LUT (sign, exponent, 4 mantissa bits). */
UTIL_CLONES_AVX2 static void map_tint_row(uint32_t *restrict tint, const uint32_t *restrict m, const uint32_t *restrict lut,
                                     int w)
{
    for (int x = 0; x < w; x++)
        tint[x] = lut[m[x] >> 19];
}

/* The software renderer blends a full-window layer at ~4.5 ns a pixel (4 ms
 * at 1280x720); blending the tint while converting the image for its
 * texture costs a fraction of that, so tints are composed here. */
/* Darkens the HUD's boxes (window rectangles) in DST, the image shown at RECT. */
static void dim_boxes(const view_app *app, uint32_t *dst, int pitch_px, SDL_Rect rect)
{
    const view_boxes *b = &app->boxes_used;
    for (int i = 0; i < b->n; i++) {
        /* window -> image pixels (the image may be scaled into RECT) */
        const SDL_Rect *r = &b->r[i];
        int x0 = (int)((long)(r->x - rect.x) * app->rt_w / rect.w), x1 = (int)((long)(r->x + r->w - rect.x) * app->rt_w / rect.w);
        int y0 = (int)((long)(r->y - rect.y) * app->rt_h / rect.h), y1 = (int)((long)(r->y + r->h - rect.y) * app->rt_h / rect.h);
        x0 = x0 < 0 ? 0 : x0, y0 = y0 < 0 ? 0 : y0;
        x1 = x1 > app->rt_w ? app->rt_w : x1, y1 = y1 > app->rt_h ? app->rt_h : y1;
        const uint32_t a = b->a[i], k = 255 - a;
        const uint32_t br = VIEW_BOX_R * a, bg = VIEW_BOX_G * a, bb = VIEW_BOX_B * a;
        for (int y = y0; y < y1; y++) {
            uint32_t *d = dst + (size_t)y * (size_t)pitch_px;
            for (int x = x0; x < x1; x++) {
                const uint32_t p = d[x];
                const uint32_t r8 = (((p >> 16) & 0xFF) * k + br) / 255;
                const uint32_t g8 = (((p >> 8) & 0xFF) * k + bg) / 255;
                const uint32_t b8 = ((p & 0xFF) * k + bb) / 255;
                d[x] = 0xFF000000u | r8 << 16 | g8 << 8 | b8;
            }
        }
    }
}

double ov_compose(view_app *app, uint32_t *dst, int pitch_px)
{
    view_overlays *ov = &app->ov;
    const int w = app->rt_w, h = app->rt_h;
    const int o = ov_tint(app);
    const uint32_t a = o < 0 ? 0 : (uint32_t)(ov->alpha * 256.0f + 0.5f);
    uint32_t *tint = calloc((size_t)w, sizeof *tint);
    if (!tint)
        return 0;
    if (o == OV_OWNER || o == OV_COST || o == OV_SPREAD) {
        const mos_bin_grid *g = &ov->grid;
        const size_t n = (size_t)g->bins_x * (size_t)g->bins_y;
        const double top = o == OV_OWNER ? 0 : bin_scale(ov, o, n);
        ov->scale_top = top;
        int by_prev = -1;
        for (int y = 0; y < h; y++) {
            const int by = (h - 1 - y) / g->bin_px;  /* bin rows count from the bottom */
            if (by != by_prev) {
                for (int bx = 0, x = 0; bx < g->bins_x && x < w; bx++) {
                    const mos_bin_info *b = by < g->bins_y ? &ov->bins[(size_t)by * (size_t)g->bins_x + (size_t)bx] : NULL;
                    uint32_t px = 0;  /* no tint */
                    if (b && o == OV_OWNER) {
                        SDL_Color c = ov_worker_color(b->worker);
                        px = 0xFF000000u | (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b;
                    } else if (b) {
                        double v = bin_value(ov, o, b);
                        if (v > 0 && top > 0)
                            px = heat_rgba((float)(v / top));
                    }
                    for (const int end = x + g->bin_px < w ? x + g->bin_px : w; x < end; x++)
                        tint[x] = px;
                }
                by_prev = by;
            }
            blend_row(dst + (size_t)y * (size_t)pitch_px, app->shown + (size_t)y * (size_t)w * 4, tint, a, w);
        }
    } else if (o >= 0) {
        /* Per-pixel maps: value -> ramp position; shades and overdraw linear
         * up to HI, triangle area logarithmic from 0.1 px (red, small) to
         * 1e5 px (blue, large).  The colour comes from a table indexed by
         * the float's sign, exponent and top 4 mantissa bits (8192 entries,
         * 1/16 steps): one load a pixel, no branch, no logarithm. */
        const float hi = o == OV_SHADES ? (float)(app->ro.spp > 4 ? app->ro.spp : 4) : 8.0f;
        uint32_t *lut = malloc(8192 * sizeof *lut);
        if (!lut) {
            free(tint);
            return 0;
        }
        for (uint32_t i = 0; i < 8192; i++) {
            const uint32_t exp = i >> 4 & 0xFF;
            lut[i] = 0;  /* no tint: zero, negative, denormal, Inf, NaN */
            if (i >= 4096 || exp == 0 || exp == 0xFF)
                continue;
            const uint32_t bits = i << 19 | 1u << 18;  /* the middle of the bucket */
            float v;
            memcpy(&v, &bits, 4);
            const float t01 = o == OV_TRIAREA ? 1.0f - (log10f(v) + 1.0f) / 6.0f : v / hi;
            lut[i] = heat_rgba(t01);
        }
        for (int y = 0; y < h; y++) {
            map_tint_row(tint, (const uint32_t *)(const void *)(ov->map[o] + (size_t)y * (size_t)w), lut, w);
            blend_row(dst + (size_t)y * (size_t)pitch_px, app->shown + (size_t)y * (size_t)w * 4, tint, a, w);
        }
        free(lut);
    } else {
        for (int y = 0; y < h; y++)
            convert_row(dst + (size_t)y * (size_t)pitch_px, app->shown + (size_t)y * (size_t)w * 4, w);
    }
    free(tint);
    if (app->boxes_used.n == 0)
        return 0;
    const uint64_t t0 = SDL_GetPerformanceCounter();
    dim_boxes(app, dst, pitch_px, view_image_rect(app));
    return (double)(SDL_GetPerformanceCounter() - t0) * 1000.0 / (double)SDL_GetPerformanceFrequency();
}

/* The legend of the tint in use. */
static void tint_legend(view_app *app, int o)
{
    view_overlays *ov = &app->ov;
    char hi[48], title[64];
    if (o == OV_OWNER) {
        /* One swatch per worker (up to 16). */
        int win_w, win_h;
        SDL_GetRendererOutputSize(app->ren, &win_w, &win_h);
        const int lh = app->hud.line_h, nw = app->used.threads < 16 ? app->used.threads : 16;
        const SDL_Point at = hud_top_right(app, 230, lh * (1 + (nw + 3) / 4) + 8);
        int x = at.x, y = at.y;
        (void)win_w, (void)win_h;
        hud_box(app, x - 6, y - 2, 236, lh * (1 + (nw + 3) / 4) + 8, 190);
        hud_text(app, x, y, (SDL_Color){ 235, 235, 235, 255 }, "bin owner (%s, %d workers)",
                 app->used.pattern ? app->used.pattern : "?", app->used.threads);
        for (int w = 0; w < nw; w++) {
            SDL_Color c = ov_worker_color(w);
            int sx = x + (w % 4) * 56, sy = y + lh * (1 + w / 4) + 2;
            SDL_SetRenderDrawColor(app->ren, c.r, c.g, c.b, 255);
            SDL_RenderFillRect(app->ren, &(SDL_Rect){ sx, sy + 2, 12, lh - 6 });
            hud_text(app, sx + 16, sy, (SDL_Color){ 220, 220, 220, 255 }, "%d", w);
        }
        return;
    }
    const double top = ov->scale_top;
    switch (o) {
    case OV_SPREAD:
        snprintf(title, sizeof title, "bins per blurred triangle");
        snprintf(hi, sizeof hi, "%.1f+", top);
        break;
    case OV_COST:
        snprintf(title, sizeof title, "bin cost: %s", ov->cost_metric == 1 ? "covered samples"
                                                      : ov->cost_metric == 2 ? "triangles" : "time");
        if (ov->cost_metric == 0)
            snprintf(hi, sizeof hi, "%.3f+ ms", top);
        else
            snprintf(hi, sizeof hi, "%.0f+", top);
        break;
    case OV_SHADES:
        snprintf(title, sizeof title, "shades per pixel");
        snprintf(hi, sizeof hi, "%d", app->ro.spp > 4 ? app->ro.spp : 4);
        break;
    case OV_OVERDRAW:
        snprintf(title, sizeof title, "quads rasterized per pixel");
        snprintf(hi, sizeof hi, "8+");
        break;
    default:
        draw_legend(app, "triangle area (px, log)", "1e5", "0.1");
        return;
    }
    draw_legend(app, title, "0", hi);
}

/* Per-worker load: busy time and covered samples, in the owner colours. */
static void draw_load(view_app *app)
{
    const mos_frame_stats *st = &app->st;
    const int n = st->threads < MOS_MAX_WORKERS ? st->threads : MOS_MAX_WORKERS;
    if (n <= 0)
        return;
    int win_w, win_h;
    SDL_GetRendererOutputSize(app->ren, &win_w, &win_h);
    const int lh = app->hud.line_h;
    const int shown = n < 32 ? n : 32;
    const int bar_h = shown <= 16 ? lh : lh / 2;
    const int w = 300, h = (shown + 2) * bar_h + 2 * lh;
    /* Left, between the HUD's text and its graphs; on the right where that is too tight. */
    int x = 12, y = (win_h - h) / 2;
    const SDL_Rect *t = &app->hud.text_rect;
    if (app->hud_on && t->w > 0) {
        const int top = t->y + t->h + 6, bottom = app->hud.panes_y - 6;
        if (bottom - top >= h + 8)
            y = top + (bottom - top - h) / 2;
        else
            x = win_w - w - 12, y = hud_top_right(app, w, h).y + 2 * lh + 24;
    }
    hud_box(app, x - 6, y - 4, w + 12, h + 8, 190);
    double max_ms = 0, sum_ms = 0;
    uint64_t max_frag = 0, sum_frag = 0;
    for (int i = 0; i < n; i++) {
        max_ms = st->worker_busy_ms[i] > max_ms ? st->worker_busy_ms[i] : max_ms;
        max_frag = st->worker_fragments[i] > max_frag ? st->worker_fragments[i] : max_frag;
        sum_ms += st->worker_busy_ms[i];
        sum_frag += st->worker_fragments[i];
    }
    const double mean_frag = (double)sum_frag / n;
    hud_text(app, x, y, (SDL_Color){ 235, 235, 235, 255 }, "worker load  busy ms (bar), samples (tick)");
    hud_text(app, x, y + lh, (SDL_Color){ 190, 190, 190, 255 }, "max/mean samples %.2f  busy %.1f ms of %.1f",
             mean_frag > 0 ? (double)max_frag / mean_frag : 0.0, sum_ms / n, st->frame_ms);
    const int bx = x + 34, bw = w - 40;
    for (int i = 0; i < shown; i++) {
        int by = y + 2 * lh + 4 + i * bar_h;
        SDL_Color c = ov_worker_color(i);
        int len = max_ms > 0 ? (int)(st->worker_busy_ms[i] / max_ms * bw) : 0;
        SDL_SetRenderDrawColor(app->ren, c.r, c.g, c.b, 230);
        SDL_RenderFillRect(app->ren, &(SDL_Rect){ bx, by + 1, len, bar_h - 2 });
        int tick = max_frag ? (int)((double)st->worker_fragments[i] / (double)max_frag * bw) : 0;
        SDL_SetRenderDrawColor(app->ren, 255, 255, 255, 255);
        SDL_RenderFillRect(app->ren, &(SDL_Rect){ bx + tick - 1, by, 3, bar_h });
        if (bar_h >= lh)
            hud_text(app, x, by, (SDL_Color){ 220, 220, 220, 255 }, "%2d", i);
    }
    if (n > shown)
        hud_text(app, x, y + 2 * lh + 4 + shown * bar_h, (SDL_Color){ 190, 190, 190, 255 }, "(+%d more)", n - shown);
}

void ov_draw(view_app *app)
{
    view_overlays *ov = &app->ov;
    const int o = ov_tint(app);
    if (o >= 0 && app->hud_on)  /* legends are part of the HUD */
        tint_legend(app, o);
    if (ov->on[OV_LOAD] && app->have_stats)
        draw_load(app);
    if (ov->why[0] && app->hud_on) {
        int win_w, win_h;
        SDL_GetRendererOutputSize(app->ren, &win_w, &win_h);
        int w = 0;
        TTF_SizeUTF8(app->hud.font, ov->why, &w, NULL);
        hud_box(app, win_w - w - 20, win_h - app->hud.line_h - 12, w + 12, app->hud.line_h + 6, 200);
        hud_text(app, win_w - w - 14, win_h - app->hud.line_h - 9, (SDL_Color){ 255, 150, 90, 255 }, "%s", ov->why);
    }
}
