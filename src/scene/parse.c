/* parse.c — the line-oriented scene file format (documented in scenes/README.md): the lines, their tokens,
 * the top-level statements and the messages.  Fed by scene_load with an open file; fills a struct scene,
 * handing camera and object blocks to parse_camera.c and parse_object.c (parse_priv.h says who does what). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/parse_priv.h"

/* ---- messages ---------------------------------------------------------------- */
int parse_err(parser *p, int col, const char *fmt, ...)
{
    int n = snprintf(p->err, p->err_size, "%s:%d:%d: ", p->file, p->line, col);
    if (n >= 0 && (size_t)n < p->err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err + n, p->err_size - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Records a warning "file:line:col: warning: ..." (what the scene asks for
 * but will not be drawn as asked); 0, or -1 when out of memory. */
int parse_warn(parser *p, int col, const char *fmt, ...)
{
    char msg[1024];
    int n = snprintf(msg, sizeof msg, "%s:%d:%d: warning: ", p->file, p->line, col);
    if (n >= 0 && (size_t)n < sizeof msg) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
        va_end(ap);
    }
    scene *s = p->s;
    char *w = strdup(msg);
    char **g = w ? realloc(s->warnings, ((size_t)s->warning_count + 1) * sizeof *s->warnings) : NULL;
    if (!g) {
        free(w);
        p->code = MOS_ERR_OUT_OF_MEMORY;
        return parse_err(p, col, "out of memory");
    }
    s->warnings = g;
    s->warnings[s->warning_count++] = w;
    return 0;
}

int parse_oom(parser *p, int col)
{
    p->code = MOS_ERR_OUT_OF_MEMORY;
    return parse_err(p, col, "out of memory");
}

void *parse_grow(void *arr, int count, size_t elem)
{
    /* Capacity doubles at powers of two. */
    if (count & (count - 1))
        return arr;
    size_t cap = count ? (size_t)count * 2 : 4;
    return realloc(arr, cap * elem);
}

/* ---- tokens ------------------------------------------------------------------ */

/* Splits LINE in place.  Tokens are separated by blanks; "..." quotes a token
 * (for paths with blanks); # starts a comment outside quotes. */
static int tokenize(parser *p, char *line, token *t, int *count)
{
    int n = 0;
    char *c = line;
    for (const char *q = line; *q; q++)
        if (((unsigned char)*q < 0x20 && *q != '\t' && *q != '\r' && *q != '\n') || *q == 0x7f)
            return parse_err(p, (int)(q - line) + 1, "control character 0x%02x in a text file", (unsigned char)*q);
    for (;;) {
        while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n')
            c++;
        if (*c == '\0' || *c == '#')
            break;
        int col = (int)(c - line) + 1;
        if (n == MAX_TOKENS)
            return parse_err(p, col, "too many tokens on one line (at most %d)", MAX_TOKENS);
        if (*c == '"') {
            char *end = strchr(c + 1, '"');
            if (!end)
                return parse_err(p, col, "unterminated quoted string");
            *end = '\0';
            t[n++] = (token){ c + 1, col };
            c = end + 1;
            if (*c != '\0' && *c != ' ' && *c != '\t' && *c != '\r' && *c != '\n' && *c != '#')
                return parse_err(p, (int)(c - line) + 1, "expected a blank after the closing quote");
        } else {
            t[n++] = (token){ c, col };
            while (*c && *c != ' ' && *c != '\t' && *c != '\r' && *c != '\n' && *c != '#')
                c++;
            if (*c == '#') {
                *c = '\0';
                break;
            }
            if (*c)
                *c++ = '\0';
        }
    }
    *count = n;
    return 0;
}

/* ---- top level ------------------------------------------------------------- */

static int top_stmt(parser *p, const token *t, int n)
{
    scene *s = p->s;
    const char *kw = t[0].s;
    if (!strcmp(kw, "background")) {
        if (parse_nargs(p, t, n, 3, 4, "r g b [a]") || parse_unit_range(p, t + 1, n - 1, s->background))
            return -1;
        if (n == 4)
            s->background[3] = 1.0f;
    } else if (!strcmp(kw, "ambient")) {
        if (parse_nargs(p, t, n, 3, 3, "r g b") || parse_nums(p, t + 1, 3, s->ambient))
            return -1;
        for (int i = 0; i < 3; i++)
            if (s->ambient[i] < 0.0f)
                return parse_err(p, t[1 + i].col, "ambient must not be negative");
    } else if (!strcmp(kw, "light")) {
        float a[6];
        if (parse_nargs(p, t, n, 6, 6, "a direction x y z (towards the light) and a colour r g b") ||
            parse_nums(p, t + 1, 6, a))
            return -1;
        if (s->light_count == SCENE_MAX_LIGHTS)
            return parse_err(p, t[0].col, "too many lights (at most %d)", SCENE_MAX_LIGHTS);
        float len = sqrtf(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
        if (!(len > 0.0f) || !isfinite(len))
            return parse_err(p, t[1].col, "light direction is zero");
        for (int i = 3; i < 6; i++)
            if (a[i] < 0.0f)
                return parse_err(p, t[1 + i].col, "light colour must not be negative");
        scene_light *l = &s->lights[s->light_count++];
        for (int i = 0; i < 3; i++) {
            l->dir[i] = a[i] / len;
            l->color[i] = a[3 + i];
        }
    } else if (!strcmp(kw, "camera")) {
        return parse_camera_begin(p, t, n);
    } else if (!strcmp(kw, "object")) {
        return parse_object_begin(p, t, n);
    } else if (!strcmp(kw, "end")) {
        return parse_err(p, t[0].col, "'end' without a 'camera' or 'object' block");
    } else {
        return parse_err(p, t[0].col, "unknown keyword '%.40s' (expected background, ambient, light, camera or object)", kw);
    }
    return 0;
}

/* ---- driver -------------------------------------------------------------------- */

mos_result scene_parse(scene *s, const char *path, FILE *f, const scene_load_opts *opts, char *err,
                       size_t err_size)
{
    parser p = { .file = path, .opts = opts, .err = err, .err_size = err_size, .s = s, .code = MOS_ERR_PARSE };
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
    p.dir = malloc(dl + 1);
    if (!p.dir) {
        snprintf(err, err_size, "%s:1:1: out of memory", path);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    memcpy(p.dir, path, dl);
    p.dir[dl] = '\0';

    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = 0, read_errno = 0;
    for (;;) {
        /* getline fails without setting the stream's error flag when it
         * cannot allocate the line: only end of file ends the file. */
        errno = 0;
        if ((len = getline(&line, &cap, f)) < 0) {
            read_errno = errno;
            break;
        }
        p.line++;
        if (memchr(line, '\0', (size_t)len)) {
            rc = parse_err(&p, (int)strlen(line) + 1, "NUL byte in a text file");
            break;
        }
        token t[MAX_TOKENS];
        int n = 0;
        if (p.line == 1 && !memcmp(line, "\xEF\xBB\xBF", len >= 3 ? 3 : (size_t)len + 1))
            memset(line, ' ', 3);  /* UTF-8 byte order mark */
        if ((rc = tokenize(&p, line, t, &n)) != 0)
            break;
        if (n == 0)
            continue;
        rc = p.block == BLOCK_TOP ? top_stmt(&p, t, n)
           : p.block == BLOCK_CAMERA ? parse_camera_stmt(&p, t, n) : parse_object_stmt(&p, t, n);
        if (rc)
            break;
    }
    if (!rc && (ferror(f) || !feof(f))) {
        snprintf(err, err_size, "%s:%d:1: cannot read the line: %s", path, p.line + 1,
                 strerror(read_errno ? read_errno : EIO));
        p.code = read_errno == ENOMEM ? MOS_ERR_OUT_OF_MEMORY : MOS_ERR_IO;
        rc = -1;
    }
    if (!rc && p.block != BLOCK_TOP) {
        p.line++;
        rc = parse_err(&p, 1, "end of file inside the '%s' block started at line %d (missing 'end')",
                       p.block == BLOCK_CAMERA ? "camera" : "object", p.block_line);
    }
    free(p.po.mesh_path);
    free(p.po.bsp_entry);
    free(p.cam.path);  /* a camera block that did not end */
    free(line);
    free(p.dir);
    return rc ? p.code : MOS_OK;
}
