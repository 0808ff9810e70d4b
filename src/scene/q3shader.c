/* q3shader.c — Quake 3 shader scripts (scripts/NAME.shader in a game's .pk3 archives): for each shader what
 * Mosaic can draw of it, its first image stage (map / clampMap / animMap's first frame) with that stage's
 * blendFunc, alphaFunc and static tcMod scale, whether a $lightmap stage multiplies it, cull, the
 * surfaceparms nodraw / sky / trans and a sky's skyParms farbox; every other keyword that changes the
 * game's picture is counted by name (scene_q3_shader.unsupported), never silently dropped.
 * Fed by parse.c (a bsp map's game folder) through scene_q3_scripts_load, and by the fuzz target with text.
 *
 * The text is untrusted: tokens, shaders, files and bytes are bounded, and a malformed file gives one
 * "scripts/NAME.shader:LINE:COL: message" (the first, kept in the set) and is read no further; the shaders
 * it defined before the fault are kept, as the game keeps them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "scene/scene_priv.h"

#define MAX_TOKEN 256                    /* characters of one token */
#define MAX_FILE_BYTES (4u << 20)        /* one script */
#define MAX_SHADERS 65536                /* in all scripts */
#define MAX_FILES 1024

struct scene_q3_scripts {
    scene_q3_shader *shaders;
    int count, cap;
    int files;
    int faults;       /* malformed shaders and sections */
    char error[256];  /* the first fault, "" = none */
};

/* ---- tokens ------------------------------------------------------------------------ */

typedef struct lexer {
    const char *p, *end;
    int line, col;
    char tok[MAX_TOKEN];
    int tok_line, tok_col;
    const char *file;
    scene_q3_scripts *s;
    bool failed;
    bool again;  /* next() gives lx->tok once more */
} lexer;

static void lex_fail(lexer *lx, const char *what)
{
    if (!lx->failed && !lx->s->faults++)  /* the first fault is kept */
        snprintf(lx->s->error, sizeof lx->s->error, "%s:%d:%d: %s", lx->file, lx->tok_line, lx->tok_col, what);
    lx->failed = true;
}

static void advance(lexer *lx)
{
    if (*lx->p == '\n')
        lx->line++, lx->col = 1;
    else
        lx->col++;
    lx->p++;
}

/* Skips blanks and comments; stops at a line break unless CROSS. False at the end (or a line break). */
static bool skip_space(lexer *lx, bool cross)
{
    while (lx->p < lx->end) {
        const char c = *lx->p;
        if (c == '\n' && !cross)
            return false;
        if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') {
            while (lx->p < lx->end && *lx->p != '\n')
                advance(lx);
        } else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '*') {
            advance(lx), advance(lx);
            while (lx->p < lx->end && !(*lx->p == '*' && lx->p + 1 < lx->end && lx->p[1] == '/'))
                advance(lx);
            if (lx->p < lx->end)
                advance(lx), advance(lx);
        } else if ((unsigned char)c <= ' ') {
            advance(lx);
        } else {
            return true;
        }
    }
    return false;
}

/* The next token into lx->tok ("" at the end, or at a line break unless CROSS): a quoted string or a run
 * of non-blank characters, as the game splits them ('{' and '}' are tokens when blanks surround them). */
static const char *next(lexer *lx, bool cross)
{
    if (lx->again) {
        lx->again = false;
        return lx->tok;
    }
    lx->tok[0] = '\0';
    if (lx->failed || !skip_space(lx, cross))
        return lx->tok;
    lx->tok_line = lx->line, lx->tok_col = lx->col;
    size_t n = 0;
    const bool quoted = *lx->p == '"';
    if (quoted)
        advance(lx);
    while (lx->p < lx->end && (quoted ? *lx->p != '"' && *lx->p != '\n' : (unsigned char)*lx->p > ' ')) {
        if (n + 1 >= MAX_TOKEN) {
            lex_fail(lx, "a token longer than 255 characters");
            lx->tok[0] = '\0';
            return lx->tok;
        }
        lx->tok[n++] = *lx->p;
        advance(lx);
    }
    if (quoted && lx->p < lx->end && *lx->p == '"')
        advance(lx);
    lx->tok[n] = '\0';
    return lx->tok;
}

/* The rest of the line, skipped, up to a brace (which the next token gives). */
static void skip_line(lexer *lx)
{
    while (!lx->failed && next(lx, false)[0])
        if (!strcmp(lx->tok, "}") || !strcmp(lx->tok, "{")) {
            lx->again = true;
            return;
        }
}

/* ---- shaders ---------------------------------------------------------------------- */

static void note(scene_q3_shader *sh, const char *what)
{
    for (int i = 0; i < sh->unsupported_count; i++)
        if (!strcasecmp(sh->unsupported[i], what))
            return;
    if (sh->unsupported_count < SCENE_Q3_MAX_NOTES) {
        char *d = sh->unsupported[sh->unsupported_count++];
        snprintf(d, sizeof sh->unsupported[0], "%s", what);
        for (; *d; d++)  /* the game reads keywords without case: one spelling per keyword */
            *d = *d >= 'A' && *d <= 'Z' ? (char)(*d - 'A' + 'a') : *d;
    }
}

static bool is(const char *tok, const char *kw) { return !strcasecmp(tok, kw); }

/* The next keyword of a braced section WHAT ("a stage"), crossing lines: NULL at its '}', or on a fault
 * (lx->failed; the end of the text: "WHAT is not closed by '}'"). */
static const char *keyword(lexer *lx, const char *what)
{
    const char *kw = next(lx, true);
    if (!lx->failed && !kw[0]) {
        char msg[64];
        snprintf(msg, sizeof msg, "%s is not closed by '}'", what);
        lex_fail(lx, msg);
    }
    return lx->failed || !kw[0] || is(kw, "}") ? NULL : kw;
}

/* blendFunc's arguments (the token after the keyword is in lx->tok). */
static int blend_func(lexer *lx)
{
    const char *a = lx->tok;
    if (is(a, "add"))
        return SCENE_Q3_ADD;
    if (is(a, "filter"))
        return SCENE_Q3_FILTER;
    if (is(a, "blend"))
        return SCENE_Q3_BLEND;
    char src[MAX_TOKEN];
    snprintf(src, sizeof src, "%s", a);
    const char *dst = next(lx, false);
    if (is(src, "GL_ONE") && is(dst, "GL_ONE"))
        return SCENE_Q3_ADD;
    if ((is(src, "GL_DST_COLOR") && is(dst, "GL_ZERO")) || (is(src, "GL_ZERO") && is(dst, "GL_SRC_COLOR")))
        return SCENE_Q3_FILTER;
    if (is(src, "GL_SRC_ALPHA") && is(dst, "GL_ONE_MINUS_SRC_ALPHA"))
        return SCENE_Q3_BLEND;
    if (is(src, "GL_ONE") && is(dst, "GL_ZERO"))
        return SCENE_Q3_OPAQUE;
    return SCENE_Q3_OTHER;
}

/* One stage "{ ... }" (the '{' read): the first image stage sets the shader's image and its state; what
 * it and the lightmap stage ask that is not drawn is noted (a later image stage is noted as a whole). */
static void stage(lexer *lx, scene_q3_shader *sh)
{
    scene_q3_shader notes = { .unsupported_count = 0 };
    char image[MAX_TOKEN] = "";
    bool clamp = false, lightmap = false;
    int blend = SCENE_Q3_OPAQUE, alpha = SCENE_Q3_ALPHA_NONE;
    float scale[2] = { 1, 1 };
    for (;;) {
        const char *kw = keyword(lx, "a stage");
        if (lx->failed)
            return;
        if (!kw)
            break;
        if (is(kw, "{"))
            return lex_fail(lx, "'{' inside a stage");
        char key[32];
        snprintf(key, sizeof key, "%.31s", kw);
        const char *a = next(lx, false);
        if (is(key, "map") || is(key, "clampMap") || is(key, "animMap")) {
            if (is(key, "animMap"))  /* frequency, then the frames: the first is drawn */
                a = next(lx, false);
            if (is(a, "$lightmap"))
                lightmap = true;
            else if (is(a, "$whiteimage") || is(a, "*white"))
                note(&notes, "map $whiteimage");
            else if (a[0] && !image[0])
                snprintf(image, sizeof image, "%s", a), clamp = is(key, "clampMap");
            if (!is(key, "animMap"))
                continue;
        } else if (is(key, "blendFunc")) {
            blend = blend_func(lx);
            continue;
        } else if (is(key, "alphaFunc")) {
            alpha = is(a, "GT0") ? SCENE_Q3_GT0 : is(a, "LT128") ? SCENE_Q3_LT128 : is(a, "GE128") ? SCENE_Q3_GE128
                                                                                            : SCENE_Q3_ALPHA_NONE;
            continue;
        } else if (is(key, "depthWrite") || is(key, "detail")) {  /* no argument: A is the next keyword */
            note(&notes, key);
            lx->again = a[0] != '\0';
            continue;
        } else if (is(key, "tcMod") && is(a, "scale")) {
            char *e1, *e2;
            char s1[MAX_TOKEN];
            snprintf(s1, sizeof s1, "%s", next(lx, false));
            const float su = strtof(s1, &e1), sv = strtof(next(lx, false), &e2);
            if (*e1 || *e2 || !(su > -1e6f && su < 1e6f) || !(sv > -1e6f && sv < 1e6f))
                return lex_fail(lx, "tcMod scale needs two numbers");
            scale[0] *= su, scale[1] *= sv;
            continue;
        } else if ((is(key, "rgbGen") && (is(a, "identity") || is(a, "identityLighting") || is(a, "vertex") ||
                                            is(a, "exactVertex") || is(a, "lightingDiffuse"))) ||
                   (is(key, "tcGen") && (is(a, "base") || is(a, "texture") || is(a, "lightmap")))) {
            /* the light and coordinates Mosaic draws: the lightmap or the vertex-lit block */
        } else if (is(key, "depthFunc") || is(key, "alphaGen") || is(key, "tcGen") || is(key, "tcMod") ||
                   is(key, "rgbGen")) {
            char what[64];
            snprintf(what, sizeof what, "%s %.24s", key, a);
            note(&notes, what);
        } else {
            note(&notes, key);
        }
        if (!strcmp(a, "}") || !strcmp(a, "{"))
            lx->again = true;
        else
            skip_line(lx);
    }
    if (!image[0] && !lightmap)
        return;
    for (int i = 0; (lightmap || !sh->image[0]) && i < notes.unsupported_count; i++) {
        const char *n = notes.unsupported[i];
        /* as drawn here: the lightmap multiplies exactly the texels the image stage kept, and an opaque
         * image stage writes depth anyway */
        if (!(lightmap && !strcmp(n, "depthfunc equal")) && !(!lightmap && blend == SCENE_Q3_OPAQUE &&
                                                              !strcmp(n, "depthwrite")))
            note(sh, n);
    }
    if (lightmap) {
        sh->lightmap = true;
        sh->lightmap_first |= !sh->image[0];
        return;
    }
    if (sh->image[0]) {
        note(sh, "more image stages");
        return;
    }
    snprintf(sh->image, sizeof sh->image, "%.63s", image);
    sh->clamp = clamp;
    sh->blend = (uint8_t)blend;
    sh->alpha = (uint8_t)alpha;
    sh->tc_scale[0] = scale[0], sh->tc_scale[1] = scale[1];
}

/* A shader's body after its '{': keywords and stages up to the matching '}'. */
static void body(lexer *lx, scene_q3_shader *sh)
{
    for (;;) {
        const char *kw = keyword(lx, "a shader");
        if (!kw)
            return;
        if (is(kw, "{")) {
            stage(lx, sh);
            continue;
        }
        char key[32];
        snprintf(key, sizeof key, "%.31s", kw);
        const char *a = next(lx, false);
        if (!strcmp(a, "}") || !strcmp(a, "{")) {  /* a keyword without argument before a brace */
            note(sh, key);
            lx->again = true;
            continue;
        }
        if (is(key, "surfaceparm")) {
            sh->surface |= is(a, "nodraw") ? SCENE_Q3_NODRAW : is(a, "sky") ? SCENE_Q3_SKY
                         : is(a, "trans") ? SCENE_Q3_TRANS : 0u;
            continue;
        } else if (is(key, "cull")) {
            sh->two_sided = is(a, "none") || is(a, "twosided") || is(a, "disable");
            if (is(a, "front"))
                note(sh, "cull front");
            continue;
        } else if (is(key, "skyParms")) {
            if (a[0] && !is(a, "-"))
                snprintf(sh->sky, sizeof sh->sky, "%.63s", a);
            else
                note(sh, "skyParms without a farbox");
        } else if (!strncasecmp(key, "qer_", 4) || !strncasecmp(key, "q3map_", 6) || is(key, "nopicmip") ||
                   is(key, "nomipmaps") || is(key, "tessSize") || is(key, "light") || is(key, "cloudParms")) {
            /* for the editor and the map compiler, or sampling detail: nothing to draw */
        } else {
            note(sh, key);
        }
        skip_line(lx);
    }
}

static scene_q3_shader *add_shader(scene_q3_scripts *s, const char *name, int file)
{
    if (s->count == s->cap) {
        const int cap = s->cap ? 2 * s->cap : 256;
        scene_q3_shader *g = cap <= MAX_SHADERS ? realloc(s->shaders, (size_t)cap * sizeof *g) : NULL;
        if (!g)
            return NULL;
        s->shaders = g;
        s->cap = cap;
    }
    scene_q3_shader *sh = &s->shaders[s->count++];
    memset(sh, 0, sizeof *sh);
    snprintf(sh->name, sizeof sh->name, "%s", name);
    sh->tc_scale[0] = sh->tc_scale[1] = 1.0f;
    sh->file = file;
    return sh;
}

/* Skips a braced section whose '{' was read (braces nest); false at the end of the text. */
static bool skip_section(lexer *lx)
{
    for (int depth = 1; depth > 0;) {
        const char *t = next(lx, true);
        if (lx->failed || !t[0])
            return false;
        depth += is(t, "{") ? 1 : is(t, "}") ? -1 : 0;
    }
    return true;
}

/* As the game reads a script: a name, then a braced section; a fault inside a section loses that shader
 * only (the reading goes on after the section), a section that never closes ends the file. */
mos_result scene_q3_parse(scene_q3_scripts *s, const char *file, const char *text, size_t len)
{
    lexer lx = { .p = text, .end = text + len, .line = 1, .col = 1, .file = file, .s = s };
    const int index = s->files++;
    for (;;) {
        lx.failed = false;
        const char *name = next(&lx, true);
        if (lx.failed || !name[0])
            return MOS_OK;
        if (is(name, "{")) {
            lex_fail(&lx, "expected a shader name before '{'");
            lx.failed = false;
            if (!skip_section(&lx))
                return MOS_OK;
            continue;
        }
        if (is(name, "}") || strlen(name) >= sizeof s->shaders[0].name) {
            lex_fail(&lx, is(name, "}") ? "'}' without its '{'" : "a shader name longer than 63 characters");
            continue;
        }
        char key[64];
        snprintf(key, sizeof key, "%.63s", name);
        if (!is(next(&lx, true), "{")) {
            lex_fail(&lx, "expected '{' after the shader name");
            continue;
        }
        lexer section = lx;  /* the body is read from here; the next shader starts after its '}' */
        if (!skip_section(&lx)) {
            lx.tok_line = section.tok_line, lx.tok_col = section.tok_col;
            lx.failed = false;
            lex_fail(&lx, "this '{' is never closed");
            return MOS_OK;
        }
        scene_q3_shader *sh = s->count < MAX_SHADERS ? add_shader(s, key, index) : NULL;
        if (!sh && s->count < MAX_SHADERS)
            return MOS_ERR_OUT_OF_MEMORY;
        if (!sh) {
            lex_fail(&lx, "more than 65536 shaders");
            return MOS_OK;
        }
        section.end = lx.p;  /* up to and with the matching '}' */
        body(&section, sh);
        if (section.failed)
            s->count--;  /* a shader cut short is not taken */
    }
}

scene_q3_scripts *scene_q3_scripts_new(void) { return calloc(1, sizeof(scene_q3_scripts)); }

mos_result scene_q3_scripts_load(scene_pk3_set *pk3, scene_q3_scripts **out)
{
    scene_q3_scripts *s = *out = scene_q3_scripts_new();
    if (!s)
        return MOS_ERR_OUT_OF_MEMORY;
    char **names = NULL;
    int n = scene_pk3_list(pk3, "scripts/", ".shader", MAX_FILES, &names);
    mos_result r = n < 0 ? MOS_ERR_OUT_OF_MEMORY : MOS_OK;
    for (int i = 0; r == MOS_OK && i < n; i++) {
        uint8_t *data;
        size_t size;
        const mos_result rr = scene_pk3_read(pk3, names[i], MAX_FILE_BYTES, &data, &size);
        if (rr == MOS_OK) {
            r = scene_q3_parse(s, names[i], (const char *)data, size);
            free(data);
        } else if (rr == MOS_ERR_OUT_OF_MEMORY) {
            r = rr;
        } else if (!s->error[0]) {
            snprintf(s->error, sizeof s->error, "%s: %s", names[i],
                     rr == MOS_ERR_BAD_SIZE ? "larger than 4 MiB, not read" : "does not inflate (corrupt archive entry)");
        }
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    if (r != MOS_OK) {
        scene_q3_scripts_free(s);
        *out = NULL;
    }
    return r;
}

void scene_q3_scripts_free(scene_q3_scripts *s)
{
    if (!s)
        return;
    free(s->shaders);
    free(s);
}

/* The game's choice among shaders of one name: the last script file in name order, the first definition
 * in that file. */
const scene_q3_shader *scene_q3_find(const scene_q3_scripts *s, const char *name)
{
    const scene_q3_shader *best = NULL;
    for (int i = 0; s && i < s->count; i++)
        if ((!best || s->shaders[i].file > best->file) && !strcasecmp(s->shaders[i].name, name))
            best = &s->shaders[i];
    return best;
}

int scene_q3_scripts_files(const scene_q3_scripts *s) { return s ? s->files : 0; }
int scene_q3_scripts_count(const scene_q3_scripts *s) { return s ? s->count : 0; }
const char *scene_q3_scripts_error(const scene_q3_scripts *s) { return s && s->error[0] ? s->error : NULL; }
int scene_q3_scripts_faults(const scene_q3_scripts *s) { return s ? s->faults : 0; }
