/* script.c — mosaic-view's scripted mode (--script FILE): set, view, wait, screenshot, drop, quit... run unattended.
 * Fed by view.c once per main-loop pass; drives switches.c, camera.c, overlay.c and SDL events. */
#include "tools/view/view.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Every command: name, least and most arguments, what it does. */
typedef struct script_def {
    const char *name;
    int min_args, max_args;
    const char *help;
} script_def;

static const script_def script_defs[] = {
    { "set", 2, 2, "set NAME VALUE: a switch (threads, pattern, spp, mode, aperture, ..., see the panel)" },
    { "view", 1, 1, "view N|NAME: the scene's view N (0-based) or the one named NAME" },
    { "wait", 1, 1, "wait N: let N frames be displayed" },
    { "screenshot", 1, 1, "screenshot PATH: the next frame's rendered image as PNG (+ PATH.json statistics)" },
    { "capture", 1, 1, "capture PATH: the next frame's window as shown (HUD and overlays included) as PNG" },
    { "overlay", 2, 2, "overlay NAME on|off: owner, cost, load, shades, overdraw, triangle-size, spread" },
    { "hud", 1, 1, "hud on|off" },
    { "panel", 1, 1, "panel on|off" },
    { "help", 1, 1, "help on|off: the key help screen" },
    { "drop", 1, 1, "drop PATH: as if PATH were dropped on the window (SDL_DROPFILE)" },
    { "key", 1, 2, "key NAME [shift]: press and release a key (SDL key name: t, F2, Tab, ...)" },
    { "click", 2, 3, "click X Y [right]: press and release a mouse button at window pixel (X, Y)" },
    { "orbit", 2, 2, "orbit DX DY: orbit as a left drag of DX, DY pixels" },
    { "look", 2, 2, "look DX DY: turn the view as a right drag of DX, DY pixels" },
    { "pan", 2, 2, "pan DX DY: pan as a middle drag" },
    { "dolly", 1, 1, "dolly STEPS: wheel steps towards the target (negative: away)" },
    { "fly", 3, 3, "fly F R U: move by F, R, U times the eye-target distance" },
    { "camera", 6, 6, "camera EX EY EZ TX TY TZ: eye and target (the view's up, fov, clip planes)" },
    { "reset", 0, 0, "reset: the view's own camera" },
    { "resize", 2, 2, "resize W H: the window's size" },
    { "expect-error", 1, 1, "expect-error TEXT: the HUD shows an error containing TEXT, else the script fails" },
    { "echo", 1, 8, "echo WORDS: print to standard output" },
    { "quit", 0, 0, "quit" },
};

static const script_def *script_find(const char *name)
{
    for (size_t i = 0; i < sizeof script_defs / sizeof script_defs[0]; i++)
        if (strcmp(script_defs[i].name, name) == 0)
            return &script_defs[i];
    return NULL;
}

static int script_error(const view_script *s, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int script_error(const view_script *s, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s:%d: ", s->path, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return -1;
}

/* TOK with each ${NAME} replaced by the environment variable NAME (kept in
 * s->owned); NULL after an error. */
static char *expand(view_script *s, int line, const char *tok)
{
    size_t cap = strlen(tok) + 1, len = 0;
    char *out = malloc(cap);
    for (const char *p = tok; out && *p;) {
        const char *val = NULL;
        size_t n = 1;
        char name[128];
        if (p[0] == '$' && p[1] == '{') {
            const char *end = strchr(p, '}');
            if (!end || (size_t)(end - p - 2) >= sizeof name || end == p + 2) {
                free(out);
                script_error(s, line, "malformed ${NAME} in '%s'", tok);
                return NULL;
            }
            memcpy(name, p + 2, (size_t)(end - p - 2));
            name[end - p - 2] = '\0';
            if (!(val = getenv(name))) {
                free(out);
                script_error(s, line, "${%s} is not set in the environment", name);
                return NULL;
            }
            n = strlen(val);
            p = end + 1;
        } else {
            val = p++;
        }
        if (len + n + 1 > cap) {
            cap = 2 * (len + n + 1);
            char *o = realloc(out, cap);
            if (!o) {
                free(out);
                out = NULL;
                break;
            }
            out = o;
        }
        memcpy(out + len, val, n);
        len += n;
    }
    if (!out) {
        script_error(s, line, "out of memory%s", "");
        return NULL;
    }
    out[len] = '\0';
    char **owned = realloc(s->owned, (size_t)(s->owned_count + 1) * sizeof *owned);
    if (!owned) {
        free(out);
        script_error(s, line, "out of memory%s", "");
        return NULL;
    }
    s->owned = owned;
    s->owned[s->owned_count++] = out;
    return out;
}

int script_load(view_script *s, const char *path)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: %s: %s\n", VIEW_CMD, path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0;
    char *text = malloc(cap + 1);
    size_t got;
    while (text && (got = fread(text + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap && len < (1u << 24)) {
            char *t = realloc(text, 2 * cap + 1);
            if (!t) {
                free(text);
                text = NULL;
                break;
            }
            text = t, cap *= 2;
        } else if (len == cap) {
            break;
        }
    }
    bool too_long = text && len == cap && fgetc(f) != EOF;
    fclose(f);
    if (!text) {
        fprintf(stderr, "%s: %s: out of memory\n", VIEW_CMD, path);
        return -1;
    }
    /* A script that cannot be read whole must not pass by running part of it. */
    if (too_long || memchr(text, '\0', len)) {
        fprintf(stderr, "%s: %s: %s\n", VIEW_CMD, path, too_long ? "longer than 16 MiB" : "NUL byte in a text file");
        free(text);
        return -1;
    }
    text[len] = '\0';
    s->text = text;
    int lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    s->cmds = calloc((size_t)lines, sizeof *s->cmds);
    if (!s->cmds)
        return -1;
    char *p = text;
    for (int line = 1; p && *p; line++) {
        char *eol = strchr(p, '\n');
        if (eol)
            *eol = '\0';
        view_script_cmd c = { .line = line };
        /* Tokens: blank-separated, "quoted" for blanks, # to the end of the line. */
        char *q = p;
        while (*q) {
            while (*q == ' ' || *q == '\t' || *q == '\r')
                q++;
            if (!*q || *q == '#')
                break;
            if (c.argc == 8)
                return script_error(s, line, "too many words%s%s", "", "");
            char *tok;
            if (*q == '"') {
                tok = ++q;
                while (*q && *q != '"')
                    q++;
                if (*q != '"')
                    return script_error(s, line, "unterminated quote%s%s", "", "");
                *q++ = '\0';
            } else {
                tok = q;
                while (*q && *q != ' ' && *q != '\t' && *q != '\r')
                    q++;
                if (*q)
                    *q++ = '\0';
            }
            if (strstr(tok, "${") && !(tok = expand(s, line, tok)))
                return -1;
            c.argv[c.argc++] = tok;
        }
        if (c.argc > 0) {
            const script_def *d = script_find(c.argv[0]);
            if (!d)
                return script_error(s, line, "unknown command '%s'%s", c.argv[0], "");
            if (c.argc - 1 < d->min_args || c.argc - 1 > d->max_args)
                return script_error(s, line, "wrong number of arguments: %s%s", d->help, "");
            s->cmds[s->count++] = c;
        }
        p = eol ? eol + 1 : NULL;
    }
    return 0;
}

void script_free(view_script *s)
{
    for (int i = 0; i < s->owned_count; i++)
        free(s->owned[i]);
    free(s->owned);
    s->owned = NULL;
    s->owned_count = 0;
    free(s->cmds);
    free(s->text);
    s->cmds = NULL;
    s->text = NULL;
}

static int parse_float(const char *v, float *out)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (!*v || *end || errno == ERANGE || !isfinite(d) || fabs(d) > 1e9)  /* then (int) casts are defined */
        return -1;
    *out = (float)d;
    return 0;
}

static int parse_on_off(const char *v, bool *out)
{
    if (strcmp(v, "on") == 0)
        return *out = true, 0;
    if (strcmp(v, "off") == 0)
        return *out = false, 0;
    return -1;
}

/* Pushes a key press and release (the key path of view.c runs). */
static void push_key(SDL_Keycode key, bool shift)
{
    SDL_Event e = { .type = SDL_KEYDOWN };
    e.key.state = SDL_PRESSED;
    e.key.keysym.sym = key;
    e.key.keysym.scancode = SDL_GetScancodeFromKey(key);
    e.key.keysym.mod = shift ? KMOD_LSHIFT : KMOD_NONE;
    SDL_PushEvent(&e);
    e.type = SDL_KEYUP;
    e.key.state = SDL_RELEASED;
    SDL_PushEvent(&e);
}

static void push_click(view_app *app, int x, int y, uint8_t button)
{
    SDL_Event e = { .type = SDL_MOUSEBUTTONDOWN };
    e.button.windowID = SDL_GetWindowID(app->win);
    e.button.button = button;
    e.button.state = SDL_PRESSED;
    e.button.clicks = 1;
    e.button.x = x, e.button.y = y;
    SDL_PushEvent(&e);
    e.type = SDL_MOUSEBUTTONUP;
    e.button.state = SDL_RELEASED;
    SDL_PushEvent(&e);
}

/* run_camera_cmd's answer for a command that is not a camera command. */
enum { CMD_NOT_MINE = 2 };

/* The camera commands: orbit, look, pan, dolly, fly, camera, reset.  As run_cmd, or CMD_NOT_MINE. */
static int run_camera_cmd(view_app *app, const view_script_cmd *c)
{
    view_script *s = &app->script;
    const char *cmd = c->argv[0];
    float f[6];
    if (strcmp(cmd, "orbit") == 0 || strcmp(cmd, "look") == 0 || strcmp(cmd, "pan") == 0) {
        if (parse_float(c->argv[1], &f[0]) || parse_float(c->argv[2], &f[1]))
            return script_error(s, c->line, "%s: expected DX DY, got '%s'", cmd, c->argv[1]);
        if (cmd[0] == 'o')
            cam_orbit(&app->cam, f[0], f[1]);
        else if (cmd[0] == 'l')
            cam_look(&app->cam, f[0], f[1]);
        else
            cam_pan(&app->cam, f[0], f[1], app->rt_h);
        vr_restart(app);
        return 1;
    }
    if (strcmp(cmd, "dolly") == 0) {
        if (parse_float(c->argv[1], &f[0]))
            return script_error(s, c->line, "dolly: expected a number, got '%s'%s", c->argv[1], "");
        cam_dolly(&app->cam, f[0]);
        vr_restart(app);
        return 1;
    }
    if (strcmp(cmd, "fly") == 0 || strcmp(cmd, "camera") == 0) {
        for (int k = 0; k < c->argc - 1; k++)
            if (parse_float(c->argv[k + 1], &f[k]))
                return script_error(s, c->line, "%s: expected numbers, got '%s'", cmd, c->argv[k + 1]);
        if (cmd[0] == 'f') {
            cam_fly(&app->cam, f[0], f[1], f[2]);
        } else {
            if (f[0] == f[3] && f[1] == f[4] && f[2] == f[5])
                return script_error(s, c->line, "camera: eye and target are the same point%s%s", "", "");
            memcpy(app->cam.pose.eye, f, 3 * sizeof(float));
            memcpy(app->cam.pose.target, f + 3, 3 * sizeof(float));
            app->cam.moved = true;
        }
        vr_restart(app);
        return 1;
    }
    if (strcmp(cmd, "reset") == 0) {
        cam_reset(&app->cam, &app->cam.home);
        vr_restart(app);
        return 1;
    }
    return CMD_NOT_MINE;
}

/* Runs one command; 1 = go on with the next, 0 = wait for a frame, -1 = error. */
static int run_cmd(view_app *app, const view_script_cmd *c)
{
    view_script *s = &app->script;
    const char *cmd = c->argv[0];
    char err[1024];
    float f[6];
    bool b;
    int r;
    if (strcmp(cmd, "set") == 0 || strcmp(cmd, "view") == 0 || strcmp(cmd, "hud") == 0) {
        const char *name = strcmp(cmd, "set") == 0 ? c->argv[1] : cmd;
        const char *value = strcmp(cmd, "set") == 0 ? c->argv[2] : c->argv[1];
        r = sw_set(app, name, value, err, sizeof err);
        if (r == VIEW_REFUSED) {
            /* Over the memory limit: nothing changed, the script goes on
             * (expect-error checks it). */
            if (strcmp(cmd, "set") == 0)
                hud_message(app, true, "%s:%d: set %s %s: %s", s->path, c->line, name, value, err);
            else
                hud_message(app, true, "%s:%d: %s %s: %s", s->path, c->line, cmd, value, err);
            return 1;
        }
        if (r != 0)
            return script_error(s, c->line, "%s %s", cmd, err);
        return 1;
    }
    if (strcmp(cmd, "wait") == 0) {
        char *end;
        long n = strtol(c->argv[1], &end, 10);
        if (!*c->argv[1] || *end || n < 0 || n > 1000000)
            return script_error(s, c->line, "wait: expected a frame count, got '%s'%s", c->argv[1], "");
        s->wait_frames = (int)n;
        return n > 0 ? 0 : 1;
    }
    if (strcmp(cmd, "screenshot") == 0 || strcmp(cmd, "capture") == 0) {
        view_request_shot(app, c->argv[1], cmd[0] == 'c');
        s->waiting_shot = true;
        return 0;
    }
    if (strcmp(cmd, "overlay") == 0) {
        int o = ov_find(c->argv[1]);
        if (o < 0)
            return script_error(s, c->line, "overlay: unknown overlay '%s'%s", c->argv[1], "");
        if (parse_on_off(c->argv[2], &b) != 0)
            return script_error(s, c->line, "overlay: expected on or off, got '%s'%s", c->argv[2], "");
        ov_set(app, o, b);
        return 1;
    }
    if (strcmp(cmd, "panel") == 0 || strcmp(cmd, "help") == 0) {
        if (parse_on_off(c->argv[1], &b) != 0)
            return script_error(s, c->line, "%s: expected on or off, got '%s'", cmd, c->argv[1]);
        if (cmd[0] == 'p')
            app->panel.visible = b;
        else
            app->help_on = b;
        return 1;
    }
    if (strcmp(cmd, "drop") == 0) {
        SDL_Event e = { .type = SDL_DROPFILE };
        e.drop.file = SDL_strdup(c->argv[1]);
        e.drop.windowID = SDL_GetWindowID(app->win);
        if (!e.drop.file || SDL_PushEvent(&e) < 0)
            return script_error(s, c->line, "drop: could not push the event: %s%s", SDL_GetError(), "");
        return 0;  /* the event is handled before the next command */
    }
    if (strcmp(cmd, "key") == 0) {
        SDL_Keycode k = SDL_GetKeyFromName(c->argv[1]);
        if (k == SDLK_UNKNOWN)
            return script_error(s, c->line, "key: unknown key '%s'%s", c->argv[1], "");
        push_key(k, c->argc > 2 && strcmp(c->argv[2], "shift") == 0);
        return 0;
    }
    if (strcmp(cmd, "click") == 0) {
        if (parse_float(c->argv[1], &f[0]) || parse_float(c->argv[2], &f[1]))
            return script_error(s, c->line, "click: expected X Y, got '%s %s'", c->argv[1], c->argv[2]);
        push_click(app, (int)f[0], (int)f[1],
                   c->argc > 3 && strcmp(c->argv[3], "right") == 0 ? SDL_BUTTON_RIGHT : SDL_BUTTON_LEFT);
        return 0;
    }
    if ((r = run_camera_cmd(app, c)) != CMD_NOT_MINE)
        return r;
    if (strcmp(cmd, "resize") == 0) {
        if (parse_float(c->argv[1], &f[0]) || parse_float(c->argv[2], &f[1]) || f[0] < 1 || f[1] < 1 ||
            f[0] > 16384 || f[1] > 16384)
            return script_error(s, c->line, "resize: expected W H, got '%s %s'", c->argv[1], c->argv[2]);
        int w, h;
        view_fit_window(app, (int)f[0], (int)f[1], &w, &h);  /* as a user can: not past the screen */
        SDL_SetWindowSize(app->win, w, h);
        return 0;  /* the resize event comes with the next pass */
    }
    if (strcmp(cmd, "expect-error") == 0) {
        if (!app->message_error || !strstr(app->message, c->argv[1]))
            return script_error(s, c->line, "expect-error: the HUD shows no error containing '%s' (message: '%s')",
                                c->argv[1], app->message);
        printf("%s: %s:%d: expected error shown: %s\n", VIEW_CMD, s->path, c->line, app->message);
        return 1;
    }
    if (strcmp(cmd, "echo") == 0) {
        for (int k = 1; k < c->argc; k++)
            printf("%s%s", c->argv[k], k + 1 < c->argc ? " " : "\n");
        fflush(stdout);
        return 1;
    }
    if (strcmp(cmd, "quit") == 0) {
        app->quit = true;
        return 0;
    }
    return script_error(s, c->line, "unknown command '%s'%s", cmd, "");
}

int script_step(view_app *app)
{
    view_script *s = &app->script;
    if (s->waiting_shot || s->wait_frames > 0)
        return 0;
    while (s->next < s->count && !app->quit) {
        int r = run_cmd(app, &s->cmds[s->next++]);
        if (r < 0) {
            app->exit_code = 1;
            app->quit = true;
            return -1;
        }
        if (r == 0)
            return 0;
    }
    return 0;
}

void script_frame_done(view_app *app)
{
    if (app->script.wait_frames > 0)
        app->script.wait_frames--;
}

bool script_done(const view_app *app)
{
    const view_script *s = &app->script;
    return s->next >= s->count && s->wait_frames == 0 && !s->waiting_shot;
}
