/* hud.c — mosaic-view's HUD: cached TTF text lines, GALLIUM_HUD-style graphs, configuration, counts, messages, help, --hud-csv.
 * Fed by view.c after each frame with the frame's mos_frame_stats and the viewer's own timings. */
#include "tools/view/view.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define FONT_PT 13
#define TEXT_MAX 240
#define PANE_H 84

struct view_text_line {
    char text[TEXT_MAX];
    SDL_Color color;
    SDL_Texture *tex;
    int w, h;
    uint64_t used;  /* hud tick of the last use */
};

/* ORDER SERIES: hud_record fills them in this order. */
enum { S_FRAME, S_FRONTEND, S_STALL, S_FIRST, S_HUD, S_RATE, S_CACHE, S_COUNT };

int hud_init(view_app *app, const char *font_path, const char *csv_path)
{
    view_hud *h = &app->hud;
    if (TTF_Init() != 0) {
        fprintf(stderr, "%s: TTF_Init: %s\n", VIEW_CMD, TTF_GetError());
        return -1;
    }
    h->font = TTF_OpenFont(font_path, FONT_PT);
    if (!h->font) {
        fprintf(stderr, "%s: %s: %s (install fonts-dejavu-core or pass --font FILE.ttf)\n", VIEW_CMD, font_path,
                TTF_GetError());
        return -1;
    }
    h->line_h = TTF_FontLineSkip(h->font);
    int minx, maxx, miny, maxy, adv = 8;
    if (TTF_GlyphMetrics(h->font, 'M', &minx, &maxx, &miny, &maxy, &adv) == 0)
        h->char_w = adv;
    else
        h->char_w = 8;
    static const struct { const char *name, *unit; SDL_Color c; } s[S_COUNT] = {
        [S_FRAME] = { "frame", "ms", { 255, 96, 96, 255 } },
        [S_FRONTEND] = { "front-end", "ms", { 96, 200, 255, 255 } },
        [S_STALL] = { "front-end stall", "ms", { 255, 200, 64, 255 } },
        [S_FIRST] = { "first work", "ms", { 120, 255, 120, 255 } },
        [S_HUD] = { "hud+overlays", "ms", { 220, 140, 255, 255 } },
        [S_RATE] = { "shading rate", "/px", { 255, 150, 60, 255 } },
        [S_CACHE] = { "cache hit", "%", { 80, 230, 210, 255 } },
    };
    for (int i = 0; i < S_COUNT; i++) {
        h->series[i].name = s[i].name;
        h->series[i].unit = s[i].unit;
        h->series[i].color = s[i].c;
    }
    if (csv_path) {
        h->csv = fopen(csv_path, "w");
        if (!h->csv) {
            fprintf(stderr, "%s: %s: cannot write the HUD CSV\n", VIEW_CMD, csv_path);
            return -1;
        }
        fputs("frame,time_s,loop_ms,fps,frame_ms,frontend_ms,frontend_stall_ms,first_work_ms,shading_rate,"
              "cache_hit_rate,image_ms,hud_ms,present_ms,width,height,spp,threads,pattern,bin,coarse,batch,early,"
              "mode,accumulated,hud,overlays,triangles_in,triangles_binned,bin_spread,covered_pixels,visibility_samples,"
              "shade_invocations,blurred_triangles\n", h->csv);
    }
    return 0;
}

static void cache_trim(view_hud *h, uint64_t older_than)
{
    int k = 0;
    for (int i = 0; i < h->line_count; i++) {
        if (h->lines[i].used < older_than) {
            SDL_DestroyTexture(h->lines[i].tex);
        } else {
            h->lines[k++] = h->lines[i];
        }
    }
    h->line_count = k;
}

void hud_free(view_hud *h)
{
    cache_trim(h, UINT64_MAX);
    free(h->lines);
    h->lines = NULL;
    h->line_cap = 0;
    if (h->font)
        TTF_CloseFont(h->font);
    h->font = NULL;
    if (TTF_WasInit())
        TTF_Quit();
    if (h->csv)
        fclose(h->csv);
    h->csv = NULL;
}

/* The texture of TEXT in COLOR, rendered once while in use (drawn as it is:
 * no colour modulation, the software renderer's fast blend path). */
static view_text_line *cached_line(view_app *app, const char *text, SDL_Color color)
{
    view_hud *h = &app->hud;
    for (int i = 0; i < h->line_count; i++) {
        view_text_line *l = &h->lines[i];
        if (l->color.r == color.r && l->color.g == color.g && l->color.b == color.b && l->color.a == color.a &&
            strcmp(l->text, text) == 0) {
            l->used = h->tick;
            return l;
        }
    }
    if (h->line_count == h->line_cap) {
        int cap = h->line_cap ? 2 * h->line_cap : 64;
        view_text_line *l = realloc(h->lines, (size_t)cap * sizeof *l);
        if (!l)
            return NULL;
        h->lines = l, h->line_cap = cap;
    }
    SDL_Surface *s = TTF_RenderUTF8_Blended(h->font, text, color);
    if (!s)
        return NULL;
    SDL_Texture *t = SDL_CreateTextureFromSurface(app->ren, s);
    int w = s->w, hh = s->h;
    SDL_FreeSurface(s);
    if (!t)
        return NULL;
    SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND);
    view_text_line *l = &h->lines[h->line_count++];
    snprintf(l->text, sizeof l->text, "%s", text);
    l->color = color;
    l->tex = t, l->w = w, l->h = hh, l->used = h->tick;
    return l;
}

int hud_text(view_app *app, int x, int y, SDL_Color color, const char *fmt, ...)
{
    char buf[TEXT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (!buf[0] || !app->hud.font)
        return 0;
    view_text_line *l = cached_line(app, buf, color);
    if (!l)
        return 0;
    SDL_RenderCopy(app->ren, l->tex, NULL, &(SDL_Rect){ x, y, l->w, l->h });
    return l->w;
}

void hud_box(view_app *app, int x, int y, int w, int h, uint8_t alpha)
{
    view_boxes *b = &app->boxes_next;
    if (b->n < VIEW_MAX_BOXES) {
        b->r[b->n] = (SDL_Rect){ x, y, w, h };
        b->a[b->n++] = alpha;
        return;
    }
    SDL_SetRenderDrawBlendMode(app->ren, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(app->ren, VIEW_BOX_R, VIEW_BOX_G, VIEW_BOX_B, alpha);
    SDL_RenderFillRect(app->ren, &(SDL_Rect){ x, y, w, h });
}

void hud_message(view_app *app, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(app->message, sizeof app->message, fmt, ap);
    va_end(ap);
    app->message_error = error;
    app->message_ticks = SDL_GetTicks64();
    fprintf(stderr, "%s: %s%s\n", VIEW_CMD, error ? "error: " : "", app->message);
}

/* ---- statistics: graphs and the CSV ------------------------------------------------ */

static const char *mode_text(const view_app *app)
{
    if (app->ro.accum > 0)
        return "accum";
    switch (app->ro.blur.mode) {
    case MOS_SAMPLING_MSAA: return "msaa";
    case MOS_SAMPLING_DECOUPLED: return "decoupled";
    case MOS_SAMPLING_SUPERSAMPLE: return "supersample";
    default: return app->is_blurred ? "auto-decoupled" : "auto-msaa";
    }
}

void hud_record(view_app *app)
{
    view_hud *h = &app->hud;
    const mos_frame_stats *st = &app->st;
    float v[S_COUNT] = {
        [S_FRAME] = (float)st->frame_ms,
        [S_FRONTEND] = (float)st->frontend_ms,
        [S_STALL] = (float)st->frontend_stall_ms,
        [S_FIRST] = (float)st->first_work_ms,
        [S_HUD] = (float)app->hud_ms,
        [S_RATE] = (float)st->shading_rate,
        [S_CACHE] = (float)(100.0 * st->cache_hit_rate),
    };
    for (int i = 0; i < S_COUNT; i++)
        h->series[i].v[h->head] = isfinite(v[i]) ? v[i] : 0.0f;
    h->head = (h->head + 1) % VIEW_GRAPH_LEN;
    if (h->filled < VIEW_GRAPH_LEN)
        h->filled++;
    if (h->csv) {
        char overlays[128] = "";
        for (int o = 0; o < OV_COUNT; o++)
            if (app->ov.on[o])
                snprintf(overlays + strlen(overlays), sizeof overlays - strlen(overlays), "%s%s",
                         overlays[0] ? "+" : "", ov_names[o]);
        fprintf(h->csv,
                "%" PRIu64 ",%.3f,%.3f,%.2f,%.3f,%.3f,%.3f,%.3f,%.4f,%.4f,%.3f,%.3f,%.3f,%d,%d,%d,%d,%s,%d,%d,%d,%d,%s,%d,%d,%s,"
                "%" PRIu64 ",%" PRIu64 ",%.3f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
                app->frames, (double)SDL_GetTicks64() / 1000.0, app->loop_ms, app->fps, st->frame_ms, st->frontend_ms,
                st->frontend_stall_ms, st->first_work_ms, st->shading_rate, st->cache_hit_rate, app->image_ms,
                app->hud_ms, app->present_ms, st->width, st->height, st->spp, st->threads,
                app->used.pattern ? app->used.pattern : "", st->bin, st->coarse, st->batch, st->early, mode_text(app),
                app->accum_n, app->hud_on ? 1 : 0, overlays[0] ? overlays : "none", st->triangles_in, st->triangles_binned, st->bin_spread,
                st->covered_pixels, st->visibility_samples, st->shade_invocations, st->blurred_triangles);
        fflush(h->csv);
    }
}

/* 1, 2 or 5 times a power of ten, at least V. */
static float nice_ceiling(float v)
{
    if (!(v > 0))
        return 1.0f;
    float p = powf(10.0f, floorf(log10f(v)));
    for (int k = 0; k < 3; k++) {
        static const float m[3] = { 1, 2, 5 };
        if (m[k] * p >= v * 0.999f)
            return m[k] * p;
    }
    return 10.0f * p;
}

static void format_value(char *buf, size_t size, float v)
{
    if (v >= 100 || v == floorf(v))
        snprintf(buf, size, "%.0f", v);
    else if (v >= 10)
        snprintf(buf, size, "%.1f", v);
    else
        snprintf(buf, size, "%.2f", v);
}

/* One pane: series FIRST .. FIRST + N - 1 against one scale, legend below. */
static int draw_pane(view_app *app, int x, int y, int w, int first, int n, const char *unit)
{
    view_hud *h = &app->hud;
    const int lh = h->line_h;
    const int label_w = 5 * h->char_w;
    const int gx = x + label_w + 4, gw = w - label_w - 8, gy = y + lh / 2, gh = PANE_H;
    const int total_h = gh + lh / 2 + n * lh + 8;
    hud_box(app, x, y, w, total_h, 170);
    float maxv = 0;
    for (int s = first; s < first + n; s++)
        for (int i = 0; i < h->filled; i++)
            maxv = h->series[s].v[i] > maxv ? h->series[s].v[i] : maxv;
    if (strcmp(unit, "%") == 0)
        maxv = 100;
    float scale = nice_ceiling(maxv);
    /* Grid and scale labels: top, middle, bottom. */
    SDL_SetRenderDrawColor(app->ren, 90, 96, 110, 255);
    for (int k = 0; k <= 2; k++) {
        int ly = gy + gh - k * gh / 2;
        SDL_RenderDrawLine(app->ren, gx, ly, gx + gw, ly);
        char lab[32];
        format_value(lab, sizeof lab, scale * (float)k / 2.0f);
        hud_text(app, x + 3, ly - lh / 2, (SDL_Color){ 200, 200, 200, 255 }, "%s", lab);
    }
    hud_text(app, gx + gw - 3 * h->char_w, gy, (SDL_Color){ 160, 160, 170, 255 }, "%s", unit);
    /* One line per series, oldest on the left. */
    SDL_Point pts[VIEW_GRAPH_LEN];
    for (int s = first; s < first + n; s++) {
        const view_series *se = &h->series[s];
        int m = 0;
        for (int i = 0; i < h->filled; i++) {
            int idx = (h->head - h->filled + i + VIEW_GRAPH_LEN) % VIEW_GRAPH_LEN;
            float v = se->v[idx] / scale;
            v = v < 0 ? 0 : v > 1 ? 1 : v;
            pts[m].x = gx + (VIEW_GRAPH_LEN - h->filled + i) * gw / (VIEW_GRAPH_LEN - 1);
            pts[m].y = gy + gh - (int)(v * (float)gh + 0.5f);
            m++;
        }
        SDL_SetRenderDrawColor(app->ren, se->color.r, se->color.g, se->color.b, 255);
        if (m > 1)
            SDL_RenderDrawLines(app->ren, pts, m);
    }
    /* Legend: current values. */
    int ly = gy + gh + 4;
    for (int s = first; s < first + n; s++) {
        const view_series *se = &h->series[s];
        float cur = h->filled ? se->v[(h->head - 1 + VIEW_GRAPH_LEN) % VIEW_GRAPH_LEN] : 0;
        SDL_SetRenderDrawColor(app->ren, se->color.r, se->color.g, se->color.b, 255);
        SDL_RenderFillRect(app->ren, &(SDL_Rect){ x + 6, ly + lh / 2 - 4, 8, 8 });
        char val[32];
        format_value(val, sizeof val, cur);
        hud_text(app, x + 20, ly, se->color, "%s %s %s", se->name, val, se->unit);
        ly += lh;
    }
    return total_h;
}

static void draw_help(view_app *app)
{
    static const char *const lines[] = {
        "mosaic-view keys",
        "left drag: orbit   right drag: look (W A S D Q E fly while held)   middle/shift drag: pan",
        "wheel: dolly   arrows: fly   click: focus on the point   1-9: views   r: reset camera",
        "F1: this help   Tab: panel (arrows select and change)   F12 or s: screenshot",
        "F2-F8: overlays owner, cost, load, shades, overdraw, triangle size, spread   [ ]: opacity",
        "F9: cost metric   F10: all overlays off   Esc: quit   drop a .scene or mesh file to load it",
        "",
        "switches (key steps forward, shift+key back; every one is in the panel):",
    };
    const int lh = app->hud.line_h;
    const int n = (int)(sizeof lines / sizeof lines[0]);
    int rows = 0;
    for (int i = 0; i < sw_count(); i++)
        rows += sw_get(i)->key != 0;
    const int w = 92 * app->hud.char_w, h = (n + (rows + 1) / 2 + 1) * lh;
    int x = 40, y = 40;
    /* Opaque, drawn last: over the HUD's own text. */
    SDL_SetRenderDrawBlendMode(app->ren, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(app->ren, 20, 23, 30, 255);
    SDL_RenderFillRect(app->ren, &(SDL_Rect){ x - 8, y - 6, w + 16, h + 12 });
    for (int i = 0; i < n; i++)
        hud_text(app, x, y + i * lh, (SDL_Color){ 235, 235, 235, 255 }, "%s", lines[i]);
    int k = 0;
    for (int i = 0; i < sw_count(); i++) {
        const view_switch *s = sw_get(i);
        if (!s->key)
            continue;
        char v[64];
        sw_format(app, i, v, sizeof v);
        hud_text(app, x + (k % 2) * 46 * app->hud.char_w, y + (n + k / 2) * lh, (SDL_Color){ 200, 220, 255, 255 },
                 "%c  %-13s %s", s->key, s->name, v);
        k++;
    }
}

/* vsnprintf into a TEXT_MAX line (long values are cut, as on screen). */
static void line_printf(char *dst, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line_printf(char *dst, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, TEXT_MAX, fmt, ap);
    va_end(ap);
}

SDL_Point hud_top_right(const view_app *app, int w, int h)
{
    int win_w, win_h;
    SDL_GetRendererOutputSize(app->ren, &win_w, &win_h);
    SDL_Point p = { win_w - w - 10, 8 };
    if (app->panel.visible) {
        p.y = app->panel.rect.y + app->panel.rect.h + 8;
        if (p.y + h > win_h)  /* no room below the panel: left of it */
            p.x = app->panel.rect.x - w - 10, p.y = 8;
    }
    const SDL_Rect *t = &app->hud.text_rect;
    if (app->hud_on && t->w > 0 && t->x + t->w + 6 > p.x && p.y < t->y + t->h)
        p.y = t->y + t->h + 6;
    return p;
}

void hud_draw(view_app *app)
{
    view_hud *h = &app->hud;
    h->tick++;
    h->text_rect = (SDL_Rect){ 0, 0, 0, 0 };
    const SDL_Color white = { 235, 235, 235, 255 }, dim = { 180, 186, 196, 255 };
    const int lh = h->line_h;
    int win_w, win_h;
    SDL_GetRendererOutputSize(app->ren, &win_w, &win_h);

    if (app->hud_on) {
        const mos_frame_stats *st = &app->st;
        char th[32], pat[80], bin[16], coarse[16], batch[16], early[16], fifo[16], isa[16], mode[32], ap[16], fo[16],
            sh[24], rate[16], cache[16], view[96], size[32], prog[16];
        sw_format(app, sw_find("threads"), th, sizeof th);
        sw_format(app, sw_find("pattern"), pat, sizeof pat);
        sw_format(app, sw_find("bin"), bin, sizeof bin);
        sw_format(app, sw_find("coarse"), coarse, sizeof coarse);
        sw_format(app, sw_find("batch"), batch, sizeof batch);
        sw_format(app, sw_find("early"), early, sizeof early);
        sw_format(app, sw_find("fifo"), fifo, sizeof fifo);
        sw_format(app, sw_find("isa"), isa, sizeof isa);
        sw_format(app, sw_find("mode"), mode, sizeof mode);
        sw_format(app, sw_find("aperture"), ap, sizeof ap);
        sw_format(app, sw_find("focus"), fo, sizeof fo);
        sw_format(app, sw_find("shutter"), sh, sizeof sh);
        sw_format(app, sw_find("shading-rate"), rate, sizeof rate);
        sw_format(app, sw_find("cache"), cache, sizeof cache);
        sw_format(app, sw_find("view"), view, sizeof view);
        sw_format(app, sw_find("size"), size, sizeof size);
        sw_format(app, sw_find("progressive"), prog, sizeof prog);
        const char *base = strrchr(app->scene_path, '/');
        base = base ? base + 1 : app->scene_path;
        char lines[8][TEXT_MAX];
        int n = 0;
        line_printf(lines[n++], "%s  view %s  %s  %d spp  %s", base, view, size, app->ro.spp, mode);
        line_printf(lines[n++], "%.1f fps  loop %.1f ms  render %.1f ms  image %.2f ms  hud %.2f ms  present %.2f ms",
                 app->fps, app->loop_ms, app->render_ms, app->image_ms, app->hud_ms, app->present_ms);
        line_printf(lines[n++], "threads %s  pattern %s  bin %s  coarse %s  batch %s  early %s  fifo %s  isa %s",
                 th, pat, bin, coarse, batch, early, fifo, isa);
        line_printf(lines[n++], "aperture %s  focus %s  shutter %s  rate %s  cache %s  fma %d  progressive %d/%s",
                 ap, fo, sh, rate, cache, app->ro.fma, app->accum_n, prog);
        snprintf(lines[n++], TEXT_MAX,
                 "triangles %" PRIu64 " in  %" PRIu64 " binned  %" PRIu64 " blurred  spread %.2f bins  items %" PRIu64,
                 st->triangles_in, st->triangles_binned, st->blurred_triangles, st->bin_spread, st->bin_items);
        snprintf(lines[n++], TEXT_MAX,
                 "samples %" PRIu64 "  covered px %" PRIu64 "  shades %" PRIu64 "  cache %" PRIu64 " hits %" PRIu64
                 " misses  blur area %.2f",
                 st->visibility_samples, st->covered_pixels, st->shade_invocations, st->cache_hits, st->cache_misses,
                 st->blur_area);
        int tw = 0;
        for (int i = 0; i < n; i++) {
            int w = 0;
            TTF_SizeUTF8(h->font, lines[i], &w, NULL);
            tw = w > tw ? w : tw;
        }
        hud_box(app, 4, 4, tw + 12, n * lh + 8, 160);
        h->text_rect = (SDL_Rect){ 4, 4, tw + 12, n * lh + 8 + lh + 8 };  /* + the message line */
        for (int i = 0; i < n; i++)
            hud_text(app, 10, 8 + i * lh, i < 2 ? white : dim, "%s", lines[i]);

        /* Graph panes along the bottom. */
        int pw = (win_w - 24) / 3;
        pw = pw > 380 ? 380 : pw < 160 ? 160 : pw;
        int py = win_h - (PANE_H + lh / 2 + 5 * lh + 8) - 6;
        h->panes_y = py;
        draw_pane(app, 6, py, pw, S_FRAME, 5, "ms");
        draw_pane(app, 12 + pw, py + 4 * lh, pw, S_RATE, 1, "/px");
        draw_pane(app, 18 + 2 * pw, py + 4 * lh, pw, S_CACHE, 1, "%");
    }

    /* The message line: errors stay 20 s, notes 6 s. */
    if (app->message[0] && app->hud_on) {
        uint64_t age = SDL_GetTicks64() - app->message_ticks;
        if (age < (app->message_error ? 20000u : 6000u)) {
            int w = 0;
            TTF_SizeUTF8(h->font, app->message, &w, NULL);
            int y = 8 + 7 * lh;
            hud_box(app, 4, y - 2, w + 12, lh + 4, 200);
            hud_text(app, 10, y, app->message_error ? (SDL_Color){ 255, 90, 80, 255 } : (SDL_Color){ 150, 230, 150, 255 },
                     "%s", app->message);
        } else {
            app->message[0] = '\0';
        }
    }
    if (app->help_on)
        draw_help(app);
    cache_trim(h, h->tick > 2 ? h->tick - 2 : 0);
}
