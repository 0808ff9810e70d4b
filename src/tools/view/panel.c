/* panel.c — mosaic-view's on-screen panel: one row per switch and per overlay, selected and changed by keys or mouse.
 * Fed by view.c (Tab shows it; keys, clicks and the wheel over it); changes go through switches.c and ov_set. */
#include "tools/view/view.h"

#include <string.h>

int panel_rows(void)
{
    return sw_count() + OV_COUNT;
}

static void row_text(const view_app *app, int row, char *name, size_t nsize, char *value, size_t vsize)
{
    if (row < sw_count()) {
        snprintf(name, nsize, "%s", sw_get(row)->name);
        sw_format(app, row, value, vsize);
    } else {
        int o = row - sw_count();
        snprintf(name, nsize, "overlay %s", ov_names[o]);
        snprintf(value, vsize, "%s", app->ov.on[o] ? "on" : "off");
    }
}

void panel_draw(view_app *app)
{
    view_panel *p = &app->panel;
    if (!p->visible)
        return;
    int win_w, win_h;
    SDL_GetRendererOutputSize(app->ren, &win_w, &win_h);
    const int lh = app->hud.line_h, cw = app->hud.char_w;
    const int rows = panel_rows();
    p->row_h = lh;
    /* As many rows as fit; the list scrolls to keep the selected row in view. */
    int shown = (win_h - 28) / lh - 1;
    shown = shown < 1 ? 1 : shown > rows ? rows : shown;
    int top = p->selected - shown / 2;
    top = top < 0 ? 0 : top > rows - shown ? rows - shown : top;
    p->top = top, p->rows = shown;
    const int w = 40 * cw + 16, h = (shown + 1) * lh + 12;
    p->rect = (SDL_Rect){ win_w - w - 8, 8, w, h };
    /* Opaque: drawn last, over the HUD's own text. */
    SDL_SetRenderDrawBlendMode(app->ren, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(app->ren, 20, 23, 30, 255);
    SDL_RenderFillRect(app->ren, &p->rect);
    hud_text(app, p->rect.x + 8, p->rect.y + 4, (SDL_Color){ 255, 255, 255, 255 }, "switches %d-%d of %d (Tab hides)",
             top + 1, top + shown, rows);
    for (int i = 0; i < shown; i++) {
        const int r = top + i;
        int y = p->rect.y + 6 + (i + 1) * lh;
        if (r == p->selected) {
            SDL_SetRenderDrawColor(app->ren, 60, 90, 160, 255);
            SDL_RenderFillRect(app->ren, &(SDL_Rect){ p->rect.x + 2, y, w - 4, lh });
        }
        char name[64], value[96];
        row_text(app, r, name, sizeof name, value, sizeof value);
        const char key = r < sw_count() ? sw_get(r)->key : 0;
        SDL_Color c = r < sw_count() ? (SDL_Color){ 225, 225, 225, 255 } : (SDL_Color){ 200, 220, 255, 255 };
        if (key)
            hud_text(app, p->rect.x + 8, y, (SDL_Color){ 150, 150, 160, 255 }, "%c", key);
        hud_text(app, p->rect.x + 8 + 2 * cw, y, c, "%s", name);
        hud_text(app, p->rect.x + 8 + 19 * cw, y, (SDL_Color){ 255, 230, 150, 255 }, "%s", value);
    }
}

/* Changes row R by DIR. */
static void panel_change(view_app *app, int r, int dir)
{
    if (r < 0 || r >= panel_rows())
        return;
    if (r < sw_count()) {
        char before[96], after[96];
        sw_format(app, r, before, sizeof before);
        if (sw_step(app, r, dir)) {
            sw_format(app, r, after, sizeof after);
            hud_message(app, false, "%s %s -> %s", sw_get(r)->name, before, after);
        }
    } else {
        int o = r - sw_count();
        ov_set(app, o, !app->ov.on[o]);
    }
}

bool panel_key(view_app *app, SDL_Keycode key, bool shift)
{
    view_panel *p = &app->panel;
    if (!p->visible)
        return false;
    const int rows = panel_rows();
    switch (key) {
    case SDLK_UP: p->selected = (p->selected + rows - 1) % rows; return true;
    case SDLK_DOWN: p->selected = (p->selected + 1) % rows; return true;
    case SDLK_LEFT: panel_change(app, p->selected, -1); return true;
    case SDLK_RIGHT:
    case SDLK_RETURN: panel_change(app, p->selected, shift ? -1 : 1); return true;
    default: return false;
    }
}

static int row_at(const view_app *app, int x, int y)
{
    const view_panel *p = &app->panel;
    if (!p->visible || x < p->rect.x || x >= p->rect.x + p->rect.w || y < p->rect.y || y >= p->rect.y + p->rect.h ||
        p->row_h <= 0)
        return -2;  /* outside */
    int i = (y - p->rect.y - 6) / p->row_h - 1;
    return i >= 0 && i < p->rows ? p->top + i : -1;
}

bool panel_click(view_app *app, int x, int y, int button)
{
    int r = row_at(app, x, y);
    if (r == -2)
        return false;
    if (r >= 0) {
        app->panel.selected = r;
        panel_change(app, r, button == SDL_BUTTON_RIGHT ? -1 : 1);
    }
    return true;
}

bool panel_wheel(view_app *app, int x, int y, int dir)
{
    int r = row_at(app, x, y);
    if (r == -2)
        return false;
    if (r >= 0) {
        app->panel.selected = r;
        panel_change(app, r, dir);
    }
    return true;
}
