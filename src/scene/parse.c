/* parse.c — the line-oriented scene file format (documented in scenes/README.md): tokens, statements, blocks.
 * Fed by scene_load with an open file; fills a struct scene and asks prim.c / import.c / bsp.c for geometry and images. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image/image.h"
#include "scene/scene_priv.h"

#define MAX_TOKENS 32

typedef struct token {
    const char *s;  /* NUL-terminated (quotes removed) */
    int col;        /* 1-based column of the token's first character */
} token;

enum geom_kind { GEOM_NONE, GEOM_PLANE, GEOM_SPHERE, GEOM_BOX, GEOM_TORUS, GEOM_MESH, GEOM_BSP };

/* The object block being read; turned into a scene_object at `end`. */
typedef struct pending_object {
    scene_object obj;
    bool cull_given;
    enum geom_kind geom;
    int geom_line, geom_col, path_col;
    float gf[4];   /* sizes / radii */
    int gi[2];     /* segments */
    char *mesh_path;
    float fit;     /* 0 = none */
    bool fit_base;
    float uv[2];
    bool texture_given, color_given, shader_given, blend_given, depth_write_given, alpha_given;
    int wrap[2];          /* wrap line: mos_wrap of u, v */
    bool wrap_given, mip_linear;
    int texture_line, texture_col;
    /* bsp maps: the archive entry (NULL for a bare .bsp), patch level, spawn views (-1 = no views) */
    char *bsp_entry;
    int entry_col;
    int patch_level, patch_line;
    int views_max, views_line, views_col;
    bool bsp_textures;  /* the materials' images from the game folder's archives (default on) */
    int textures_line;
} pending_object;

typedef struct parser {
    const char *file;
    char *dir;     /* the scene file's folder, "" for the current one */
    const scene_load_opts *opts;  /* sandbox and triangle budget */
    int line;
    char *err;
    size_t err_size;
    scene *s;
    enum { BLOCK_TOP, BLOCK_CAMERA, BLOCK_OBJECT } block;
    int block_line;
    scene_camera cam;  /* the camera block being read (its path is the parser's until `end`) */
    int cam_pose_line, cam_path_line;  /* its first eye/target and path lines (0 = none yet) */
    bool cam_warned;                   /* "... ignored: the camera follows its path" said */
    pending_object po;
    uint64_t total_tris;
    uint64_t texture_bytes;  /* the scene's images with their mip levels, as uploaded */
    mos_result code;  /* what the first error was (MOS_ERR_PARSE unless an import said otherwise) */
} parser;

static int perr(parser *p, int col, const char *fmt, ...)
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
static int pwarn(parser *p, int col, const char *fmt, ...)
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
        return perr(p, col, "out of memory");
    }
    s->warnings = g;
    s->warnings[s->warning_count++] = w;
    return 0;
}

static int oom(parser *p, int col)
{
    p->code = MOS_ERR_OUT_OF_MEMORY;
    return perr(p, col, "out of memory");
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
            return perr(p, (int)(q - line) + 1, "control character 0x%02x in a text file", (unsigned char)*q);
    for (;;) {
        while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n')
            c++;
        if (*c == '\0' || *c == '#')
            break;
        int col = (int)(c - line) + 1;
        if (n == MAX_TOKENS)
            return perr(p, col, "too many tokens on one line (at most %d)", MAX_TOKENS);
        if (*c == '"') {
            char *end = strchr(c + 1, '"');
            if (!end)
                return perr(p, col, "unterminated quoted string");
            *end = '\0';
            t[n++] = (token){ c + 1, col };
            c = end + 1;
            if (*c != '\0' && *c != ' ' && *c != '\t' && *c != '\r' && *c != '\n' && *c != '#')
                return perr(p, (int)(c - line) + 1, "expected a blank after the closing quote");
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

/* Argument count check: KW takes between MIN and MAX arguments after it. */
static int nargs(parser *p, const token *t, int n, int min, int max, const char *what)
{
    if (n - 1 < min)
        return perr(p, t[0].col, "'%s' needs %s", t[0].s, what);
    if (n - 1 > max)
        return perr(p, t[max + 1].col, "unexpected '%s' after %s", t[max + 1].s, t[0].s);
    return 0;
}

static int num(parser *p, const token *t, float *out)
{
    char *end;
    errno = 0;
    double v = strtod(t->s, &end);
    if (end == t->s || *end != '\0')
        return perr(p, t->col, "expected a number, got '%s'", t->s);
    if (errno == ERANGE || !isfinite(v) || fabs(v) > 3.0e38)
        return perr(p, t->col, "number '%s' is out of range", t->s);
    *out = (float)v;
    return 0;
}

static int nums(parser *p, const token *t, int count, float *out)
{
    for (int i = 0; i < count; i++)
        if (num(p, &t[i], &out[i]))
            return -1;
    return 0;
}

static int integer(parser *p, const token *t, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(t->s, &end, 10);
    if (end == t->s || *end != '\0')
        return perr(p, t->col, "expected an integer, got '%s'", t->s);
    if (errno == ERANGE || v < lo || v > hi)
        return perr(p, t->col, "%s is out of range %d..%d", t->s, lo, hi);
    *out = (int)v;
    return 0;
}

static int positive(parser *p, const token *t, float *out)
{
    if (num(p, t, out))
        return -1;
    if (!(*out > 0.0f))
        return perr(p, t->col, "'%s' must be greater than 0", t->s);
    return 0;
}

static int unit_range(parser *p, const token *t, int count, float *out)
{
    if (nums(p, t, count, out))
        return -1;
    for (int i = 0; i < count; i++)
        if (out[i] < 0.0f || out[i] > 1.0f)
            return perr(p, t[i].col, "'%s' is outside 0..1", t[i].s);
    return 0;
}

/* The index of token T among WORDS (NULL-terminated), or -1 with the
 * error "unknown WHAT 'T' (expected a, b or c)". */
static int choose(parser *p, const token *t, const char *what, const char *const *words)
{
    int count = 0;
    for (; words[count]; count++)
        if (!strcmp(t->s, words[count]))
            return count;
    char list[160] = "";
    size_t n = 0;
    for (int i = 0; i < count && n < sizeof list; i++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i == 0 ? "" : i == count - 1 ? " or " : ", ", words[i]);
    return perr(p, t->col, "unknown %s '%s' (expected %s)", what, t->s, list);
}

static int name_token(parser *p, const token *t, char *out)
{
    if (strlen(t->s) >= SCENE_NAME_MAX)
        return perr(p, t->col, "name is longer than %d characters", SCENE_NAME_MAX - 1);
    strcpy(out, t->s);
    return 0;
}

/* The file the path token T names, relative to the scene file's folder unless
 * absolute, into *OUT (malloc'ed); in a sandbox only a relative path without
 * '..' to a regular file inside it.  0, or -1 with the error set. */
static int resolve(parser *p, const token *t, char **out)
{
    const char *path = t->s;
    size_t dl = path[0] == '/' ? 0 : strlen(p->dir), pl = strlen(path);
    char *r = malloc(dl + pl + 1);
    if (!r)
        return oom(p, t->col);
    memcpy(r, p->dir, dl);
    memcpy(r + dl, path, pl + 1);
    const char *sandbox = p->opts->sandbox_dir;
    if (sandbox) {
        char msg[768];
        mos_result code = MOS_ERR_PARSE;
        if (!scene_sandbox_relative(path))
            snprintf(msg, sizeof msg, "path '%s' is outside the scene's sandbox", r);
        else
            code = scene_sandbox_check(sandbox, r, msg, sizeof msg);
        if (code != MOS_OK) {
            free(r);
            if (code != MOS_ERR_PARSE)
                p->code = code;
            return perr(p, t->col, "%s", msg);
        }
    }
    *out = r;
    return 0;
}

/* 0 when TRIS more triangles per frame (object NAME) fit the scene's budget. */
static int over_budget(parser *p, int col, const char *name, uint64_t tris)
{
    uint64_t max = p->opts->max_triangles;  /* total_tris <= max */
    if (tris <= max - p->total_tris)
        return 0;
    return perr(p, col, "object '%s' brings the scene to %llu triangles per frame; at most %llu are allowed",
                name, (unsigned long long)(p->total_tris + tris), (unsigned long long)max);
}

static void *grow(void *arr, int count, size_t elem)
{
    /* Capacity doubles at powers of two. */
    if (count & (count - 1))
        return arr;
    size_t cap = count ? (size_t)count * 2 : 4;
    return realloc(arr, cap * elem);
}

/* ---- transforms ------------------------------------------------------------ */

/* translate / rotate / scale as a matrix T; the caller composes M = T * M. */
static int transform_stmt(parser *p, const token *t, int n, float out[16])
{
    float a[4] = { 0, 0, 0, 0 };
    if (strcmp(t[0].s, "translate") == 0) {
        if (nargs(p, t, n, 3, 3, "x y z") || nums(p, t + 1, 3, a))
            return -1;
        scene_mat4_translate(out, a[0], a[1], a[2]);
    } else if (strcmp(t[0].s, "rotate") == 0) {
        if (nargs(p, t, n, 4, 4, "degrees and an axis x y z") || nums(p, t + 1, 4, a))
            return -1;
        if (a[1] == 0.0f && a[2] == 0.0f && a[3] == 0.0f)
            return perr(p, t[2].col, "rotation axis is zero");
        scene_mat4_rotate(out, a[0], a[1], a[2], a[3]);
    } else {  /* scale */
        if (nargs(p, t, n, 1, 3, "one factor or x y z"))
            return -1;
        if (n == 3)
            return perr(p, t[0].col, "'scale' takes one factor or three");
        if (nums(p, t + 1, n - 1, a))
            return -1;
        if (n == 2)
            a[1] = a[2] = a[0];
        for (int i = 0; i < 3; i++)
            if (a[i] == 0.0f)
                return perr(p, t[n == 2 ? 1 : 1 + i].col, "scale factor is zero");
        scene_mat4_scale(out, a[0], a[1], a[2]);
    }
    return 0;
}

static void compose(float m[16], const float t[16])
{
    float r[16];
    scene_mat4_mul(r, t, m);
    memcpy(m, r, sizeof r);
}

static bool is_transform(const char *kw)
{
    return !strcmp(kw, "translate") || !strcmp(kw, "rotate") || !strcmp(kw, "scale");
}

/* ---- top level ------------------------------------------------------------- */

static int top_stmt(parser *p, const token *t, int n)
{
    scene *s = p->s;
    const char *kw = t[0].s;
    if (!strcmp(kw, "background")) {
        if (nargs(p, t, n, 3, 4, "r g b [a]") || unit_range(p, t + 1, n - 1, s->background))
            return -1;
        if (n == 4)
            s->background[3] = 1.0f;
    } else if (!strcmp(kw, "ambient")) {
        if (nargs(p, t, n, 3, 3, "r g b") || nums(p, t + 1, 3, s->ambient))
            return -1;
        for (int i = 0; i < 3; i++)
            if (s->ambient[i] < 0.0f)
                return perr(p, t[1 + i].col, "ambient must not be negative");
    } else if (!strcmp(kw, "light")) {
        float a[6];
        if (nargs(p, t, n, 6, 6, "a direction x y z (towards the light) and a colour r g b") ||
            nums(p, t + 1, 6, a))
            return -1;
        if (s->light_count == SCENE_MAX_LIGHTS)
            return perr(p, t[0].col, "too many lights (at most %d)", SCENE_MAX_LIGHTS);
        float len = sqrtf(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
        if (!(len > 0.0f) || !isfinite(len))
            return perr(p, t[1].col, "light direction is zero");
        for (int i = 3; i < 6; i++)
            if (a[i] < 0.0f)
                return perr(p, t[1 + i].col, "light colour must not be negative");
        scene_light *l = &s->lights[s->light_count++];
        for (int i = 0; i < 3; i++) {
            l->dir[i] = a[i] / len;
            l->color[i] = a[3 + i];
        }
    } else if (!strcmp(kw, "camera")) {
        if (nargs(p, t, n, 0, 1, "an optional name"))
            return -1;
        scene_camera *c = &p->cam;
        *c = (scene_camera){
            .eye = { 0, 0, 5 }, .up = { 0, 1, 0 }, .fov_y_deg = 60, .near_z = 0.1f,
            .far_z = 1000, .shutter = { 0, 1 },
        };
        if (n == 2) {
            if (name_token(p, &t[1], c->name))
                return -1;
            for (int i = 0; i < s->camera_count; i++)
                if (!strcmp(s->cameras[i].name, c->name))
                    return perr(p, t[1].col, "a camera named '%s' already exists", c->name);
        } else {
            snprintf(c->name, sizeof c->name, "view%d", s->camera_count);
        }
        p->cam_pose_line = p->cam_path_line = 0;
        p->cam_warned = false;
        p->block = BLOCK_CAMERA;
        p->block_line = p->line;
    } else if (!strcmp(kw, "object")) {
        if (nargs(p, t, n, 0, 1, "an optional name"))
            return -1;
        pending_object *po = &p->po;
        memset(po, 0, sizeof *po);
        scene_object *o = &po->obj;
        if (n == 2 && name_token(p, &t[1], o->name))
            return -1;
        if (n == 1)
            snprintf(o->name, sizeof o->name, "object%d", s->object_count);
        o->texture = o->lightmap = -1;
        o->shader = SCENE_SHADER_LAMBERT;
        o->color[0] = o->color[1] = o->color[2] = 0.8f;
        o->color[3] = 1.0f;
        scene_mat4_identity(o->xform);
        scene_mat4_identity(o->xform1);
        o->array_n[0] = o->array_n[1] = o->array_n[2] = 1;
        po->uv[0] = po->uv[1] = 1.0f;
        po->patch_level = SCENE_BSP_PATCH_LEVEL;
        po->views_max = -1;
        po->bsp_textures = true;
        p->block = BLOCK_OBJECT;
        p->block_line = p->line;
    } else if (!strcmp(kw, "end")) {
        return perr(p, t[0].col, "'end' without a 'camera' or 'object' block");
    } else {
        return perr(p, t[0].col, "unknown keyword '%.40s' (expected background, ambient, light, camera or object)", kw);
    }
    return 0;
}

/* ---- camera block ------------------------------------------------------------ */

/* Squared distance from EYE to TARGET (0 when they coincide), the direction in D. */
static float view_dir(const float eye[3], const float target[3], float d[3])
{
    float len2 = 0;
    for (int i = 0; i < 3; i++)
        d[i] = target[i] - eye[i], len2 += d[i] * d[i];
    return len2;
}

/* What is wrong with a view from EYE to TARGET with UP, or NULL. */
static const char *pose_problem(const float eye[3], const float target[3], const float up[3])
{
    float d[3], cr[3];
    const float len2 = view_dir(eye, target, d);
    if (!(len2 > 0.0f))
        return "eye and target coincide";
    cr[0] = d[1] * up[2] - d[2] * up[1];
    cr[1] = d[2] * up[0] - d[0] * up[2];
    cr[2] = d[0] * up[1] - d[1] * up[0];
    if (!(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2] > 1e-12f * len2))
        return "up is parallel to the view direction";
    return NULL;
}

/* A camera with a path ignores its eye and target lines: one warning, on
 * whichever of the two came second. */
static int path_overrides(parser *p, int col)
{
    if (p->cam_warned || !p->cam_pose_line || !p->cam_path_line)
        return 0;
    p->cam_warned = true;
    return pwarn(p, col, "camera '%s': eye and target (line %d) are ignored: the camera follows its path (line %d)",
                 p->cam.name, p->cam_pose_line, p->cam_path_line);
}

/* `path TIME EX EY EZ TX TY TZ`: the eye and target at scene time TIME (frames), after the keys before it. */
static int path_stmt(parser *p, const token *t, int n)
{
    scene_camera *c = &p->cam;
    float a[7];
    if (nargs(p, t, n, 7, 7, "a time (frames, >= 0), an eye x y z and a target x y z") || nums(p, t + 1, 7, a))
        return -1;
    if (a[0] < 0.0f)
        return perr(p, t[1].col, "path time must not be negative");
    if (c->path_count > 0 && !(a[0] > c->path[c->path_count - 1].time))
        return perr(p, t[1].col, "path time %s is not after the previous key's (%g): keys go in increasing time",
                    t[1].s, c->path[c->path_count - 1].time);
    if (c->path_count == SCENE_MAX_PATH_KEYS)
        return perr(p, t[0].col, "too many path keys in camera '%s' (at most %d)", c->name, SCENE_MAX_PATH_KEYS);
    float d[3];
    if (!(view_dir(a + 1, a + 4, d) > 0.0f))  /* up is checked at `end`, once it is known */
        return perr(p, t[5].col, "path key: eye and target coincide");
    void *g = grow(c->path, c->path_count, sizeof *c->path);
    if (!g)
        return oom(p, t[0].col);
    c->path = g;
    scene_camera_key *k = &c->path[c->path_count++];
    k->time = a[0];
    memcpy(k->eye, a + 1, sizeof k->eye);
    memcpy(k->target, a + 4, sizeof k->target);
    if (!p->cam_path_line)
        p->cam_path_line = p->line;
    return path_overrides(p, t[0].col);
}

/* `end` of a camera block: the view checked (each path key's too) and added. */
static int camera_end(parser *p, const token *t, int n)
{
    scene_camera *c = &p->cam;
    if (nargs(p, t, n, 0, 0, "nothing"))
        return -1;
    if (c->path_count > 0) {  /* the pose at time 0 (the first key, held before it) */
        memcpy(c->eye, c->path[0].eye, sizeof c->eye);
        memcpy(c->target, c->path[0].target, sizeof c->target);
    }
    const char *why = c->path_count ? NULL : pose_problem(c->eye, c->target, c->up);
    char key[64] = "";
    for (int i = 0; i < c->path_count && !why; i++)
        if ((why = pose_problem(c->path[i].eye, c->path[i].target, c->up)) != NULL)
            snprintf(key, sizeof key, "path key at time %g: ", c->path[i].time);
    if (why)
        return perr(p, t[0].col, "camera '%s' (line %d): %s%s", c->name, p->block_line, key, why);
    if (!(c->far_z > c->near_z))
        return perr(p, t[0].col, "camera '%s' (line %d): far must be greater than near", c->name, p->block_line);
    scene *s = p->s;
    void *g = grow(s->cameras, s->camera_count, sizeof *s->cameras);
    if (!g)
        return oom(p, t[0].col);
    s->cameras = g;
    s->cameras[s->camera_count++] = *c;
    c->path = NULL;  /* the scene's now */
    c->path_count = 0;
    p->block = BLOCK_TOP;
    return 0;
}

static int camera_stmt(parser *p, const token *t, int n)
{
    scene_camera *c = &p->cam;
    const char *kw = t[0].s;
    if (!strcmp(kw, "eye") || !strcmp(kw, "target") || !strcmp(kw, "up")) {
        float *dst = kw[0] == 'e' ? c->eye : kw[0] == 't' ? c->target : c->up;
        if (nargs(p, t, n, 3, 3, "x y z") || nums(p, t + 1, 3, dst))
            return -1;
        if (kw[0] != 'u' && !p->cam_pose_line)
            p->cam_pose_line = p->line;
        return kw[0] == 'u' ? 0 : path_overrides(p, t[0].col);
    }
    if (!strcmp(kw, "path"))
        return path_stmt(p, t, n);
    if (!strcmp(kw, "fov")) {
        if (nargs(p, t, n, 1, 1, "the vertical field of view in degrees") || num(p, &t[1], &c->fov_y_deg))
            return -1;
        if (!(c->fov_y_deg > 0.0f && c->fov_y_deg < 180.0f))
            return perr(p, t[1].col, "fov must be between 0 and 180 degrees");
        return 0;
    }
    if (!strcmp(kw, "near"))
        return nargs(p, t, n, 1, 1, "a distance") || positive(p, &t[1], &c->near_z) ? -1 : 0;
    if (!strcmp(kw, "far"))
        return nargs(p, t, n, 1, 1, "a distance") || positive(p, &t[1], &c->far_z) ? -1 : 0;
    if (!strcmp(kw, "aperture") || !strcmp(kw, "focus")) {
        float *dst = kw[0] == 'a' ? &c->aperture : &c->focus_dist;
        if (nargs(p, t, n, 1, 1, "a distance") || num(p, &t[1], dst))
            return -1;
        if (*dst < 0.0f)
            return perr(p, t[1].col, "'%s' must not be negative", kw);
        return 0;
    }
    if (!strcmp(kw, "shutter")) {
        if (nargs(p, t, n, 2, 2, "open and close times in 0..1") || unit_range(p, t + 1, 2, c->shutter))
            return -1;
        if (c->shutter[1] < c->shutter[0])
            return perr(p, t[2].col, "shutter closes before it opens");
        return 0;
    }
    if (!strcmp(kw, "end"))
        return camera_end(p, t, n);
    return perr(p, t[0].col,
                "unknown camera keyword '%.40s' (expected eye, target, up, fov, near, far, aperture, focus, shutter, "
                "path or end)", kw);
}

/* ---- object block ------------------------------------------------------------ */

static int geom_stmt(parser *p, const token *t, int n, enum geom_kind kind)
{
    pending_object *po = &p->po;
    if (po->geom != GEOM_NONE)
        return perr(p, t[0].col, "object '%s' already has geometry (line %d)", po->obj.name, po->geom_line);
    po->geom = kind;
    po->geom_line = p->line;
    po->geom_col = t[0].col;
    uint64_t tris = 0;
    switch (kind) {
    case GEOM_PLANE:
        po->gi[0] = po->gi[1] = 1;
        if (nargs(p, t, n, 2, 4, "width depth [segments_x segments_z]") ||
            positive(p, &t[1], &po->gf[0]) || positive(p, &t[2], &po->gf[1]))
            return -1;
        if (n == 4)
            return perr(p, t[3].col, "give both segments_x and segments_z");
        if (n == 5 && (integer(p, &t[3], 1, SCENE_MAX_SEGMENTS, &po->gi[0]) ||
                       integer(p, &t[4], 1, SCENE_MAX_SEGMENTS, &po->gi[1])))
            return -1;
        tris = scene_prim_plane_tris(po->gi[0], po->gi[1]);
        break;
    case GEOM_SPHERE:
        po->gi[0] = 32, po->gi[1] = 16;
        if (nargs(p, t, n, 1, 3, "radius [segments_lon segments_lat]") || positive(p, &t[1], &po->gf[0]))
            return -1;
        if (n == 3)
            return perr(p, t[2].col, "give both segments_lon and segments_lat");
        if (n == 4 && (integer(p, &t[2], 3, SCENE_MAX_SEGMENTS, &po->gi[0]) ||
                       integer(p, &t[3], 2, SCENE_MAX_SEGMENTS, &po->gi[1])))
            return -1;
        tris = scene_prim_sphere_tris(po->gi[0], po->gi[1]);
        break;
    case GEOM_BOX:
        po->gi[0] = 1;
        if (nargs(p, t, n, 3, 4, "size_x size_y size_z [segments]") ||
            positive(p, &t[1], &po->gf[0]) || positive(p, &t[2], &po->gf[1]) ||
            positive(p, &t[3], &po->gf[2]))
            return -1;
        if (n == 5 && integer(p, &t[4], 1, SCENE_MAX_SEGMENTS, &po->gi[0]))
            return -1;
        tris = scene_prim_box_tris(po->gi[0]);
        break;
    case GEOM_TORUS:
        po->gi[0] = 48, po->gi[1] = 24;
        if (nargs(p, t, n, 2, 4, "major_radius minor_radius [segments_major segments_minor]") ||
            positive(p, &t[1], &po->gf[0]) || positive(p, &t[2], &po->gf[1]))
            return -1;
        if (n == 4)
            return perr(p, t[3].col, "give both segments_major and segments_minor");
        if (n == 5 && (integer(p, &t[3], 3, SCENE_MAX_SEGMENTS, &po->gi[0]) ||
                       integer(p, &t[4], 3, SCENE_MAX_SEGMENTS, &po->gi[1])))
            return -1;
        tris = scene_prim_torus_tris(po->gi[0], po->gi[1]);
        break;
    case GEOM_MESH:
        if (nargs(p, t, n, 1, 1, "a file path"))
            return -1;
        po->path_col = t[1].col;
        if (resolve(p, &t[1], &po->mesh_path))
            return -1;
        break;
    case GEOM_BSP:
        if (nargs(p, t, n, 1, 2, "a .pk3 path and the map in it (maps/NAME.bsp), or a .bsp path"))
            return -1;
        po->path_col = t[1].col;
        if (resolve(p, &t[1], &po->mesh_path))
            return -1;
        if (n == 3) {
            po->entry_col = t[2].col;
            if (!(po->bsp_entry = strdup(t[2].s)))
                return oom(p, t[2].col);
        }
        break;
    case GEOM_NONE:
        break;
    }
    if (tris > SCENE_MAX_PRIM_TRIANGLES)
        return perr(p, t[0].col, "%s has %llu triangles; at most %u are allowed per primitive",
                    t[0].s, (unsigned long long)tris, SCENE_MAX_PRIM_TRIANGLES);
    /* Before building it: the instances given so far (object_end counts them all). */
    const int *an = po->obj.array_n;
    return over_budget(p, t[0].col, po->obj.name, tris * (uint64_t)an[0] * (uint64_t)an[1] * (uint64_t)an[2]);
}

/* The image of the scene whose key (resolved path) is KEY, sampled with
 * WRAP and MIP_LINEAR, or -1. */
static int find_sampled(const scene *s, const char *key, const int wrap[2], bool mip_linear)
{
    for (int i = 0; i < s->image_count; i++) {
        const scene_image *im = &s->images[i];
        if (!strcmp(im->path, key) && im->wrap[0] == wrap[0] && im->wrap[1] == wrap[1] && im->mip_linear == mip_linear)
            return i;
    }
    return -1;
}

/* The image of key KEY with the default sampling (repeat, nearest level), or -1. */
static int find_image(const scene *s, const char *key) { return find_sampled(s, key, (const int[2]){ 0, 0 }, false); }

/* The image read from the file ID with the default sampling, or -1. */
static int find_file_image(const scene *s, scene_file_id id)
{
    for (int i = 0; i < s->image_count; i++) {
        const scene_image *im = &s->images[i];
        if (im->id.dev == id.dev && im->id.ino == id.ino && (id.dev || id.ino) && !im->wrap[0] && !im->wrap[1] &&
            !im->mip_linear)
            return i;
    }
    return -1;
}

/* Bytes of a W x H RGBA8 texture with all its mip levels. */
static uint64_t texture_bytes(int w, int h)
{
    uint64_t b = 0;
    for (uint64_t x = (uint64_t)(w > 0 ? w : 1), y = (uint64_t)(h > 0 ? h : 1);; x = x > 1 ? x / 2 : 1, y = y > 1 ? y / 2 : 1) {
        b += x * y * 4;
        if (x == 1 && y == 1)
            break;
    }
    return b;
}

/* Adds IMG (its path the key) to the scene's images, taking it, within the
 * scene's texture budget; the index, or -1 when out of memory or over the
 * budget (IMG freed, the error set). */
static int add_image(parser *p, int col, scene_image *img)
{
    scene *s = p->s;
    const uint64_t bytes = texture_bytes(img->width, img->height), max = p->opts->max_texture_bytes;
    if (bytes > max - p->texture_bytes) {
        const double mb = 1024.0 * 1024.0;
        perr(p, col, "textures would take %.1f MB, over the %.1f MB budget (image '%s', %dx%d with its mip levels: "
             "%.1f MB)", (double)(p->texture_bytes + bytes) / mb, (double)max / mb, img->path ? img->path : "?",
             img->width, img->height, (double)bytes / mb);
        scene_image_free(img);
        return -1;
    }
    void *g = grow(s->images, s->image_count, sizeof *s->images);
    if (!g) {
        scene_image_free(img);
        return oom(p, col);
    }
    s->images = g;
    s->images[s->image_count] = *img;
    p->texture_bytes += bytes;
    return s->image_count++;
}

/* Image IDX sampled with WRAP and MIP_LINEAR: itself, or a copy that is
 * (the sampling belongs to the texture); -1 when out of memory. */
static int sampled_image(parser *p, int col, int idx, const int wrap[2], bool mip_linear)
{
    const scene_image *im = &p->s->images[idx];
    if (im->wrap[0] == wrap[0] && im->wrap[1] == wrap[1] && im->mip_linear == mip_linear)
        return idx;
    int k = find_sampled(p->s, im->path, wrap, mip_linear);
    if (k >= 0)
        return k;
    const size_t bytes = (size_t)im->width * (size_t)im->height * 4;
    scene_image copy = { .width = im->width, .height = im->height, .path = strdup(im->path), .rgba = malloc(bytes),
                         .wrap = { wrap[0], wrap[1] }, .mip_linear = mip_linear };
    if (!copy.path || !copy.rgba) {
        scene_image_free(&copy);
        return oom(p, col);
    }
    memcpy(copy.rgba, im->rgba, bytes);
    return add_image(p, col, &copy);
}

/* The object's texture sampled as the scene says (wrap, mip lines), else
 * with MAT_WRAP (a material's, or NULL: repeat).  0, or -1 when out of
 * memory. */
static int apply_sampling(parser *p, int col, scene_object *o, const int *mat_wrap)
{
    const pending_object *po = &p->po;
    if (o->texture < 0)
        return 0;
    const int *wrap = po->wrap_given ? po->wrap : mat_wrap ? mat_wrap : (const int[2]){ 0, 0 };
    const int k = sampled_image(p, col, o->texture, wrap, po->mip_linear);
    if (k < 0)
        return -1;
    o->texture = k;
    return 0;
}

/* The magenta stand-in for a texture that cannot be read (one per scene). */
static int missing_image(parser *p, int col)
{
    static const char key[] = "<missing texture>";
    int i = find_image(p->s, key);
    if (i >= 0)
        return i;
    scene_image img = { .width = 2, .height = 2, .rgba = malloc(16), .path = strdup(key) };
    if (!img.rgba || !img.path) {
        scene_image_free(&img);
        return oom(p, col);
    }
    for (int k = 0; k < 4; k++)
        memcpy(img.rgba + 4 * k, (const uint8_t[4]){ 255, 0, 255, 255 }, 4);
    return add_image(p, col, &img);
}

/* The image at resolved PATH (taken), read through the scene's door (its
 * sandbox) and loaded once per scene: files are told apart by identity
 * (device and inode), not by how the path is spelled.  -1 with the message
 * in MSG when it cannot be read, -2 when out of memory or over the texture
 * budget (the error set). */
static int load_image(parser *p, int col, char *path, char *msg, size_t msg_size, mos_result *code)
{
    int fd;
    uint64_t size;
    scene_file_id id;
    *code = scene_file_open(p->opts->sandbox_dir, path, IMG_MAX_FILE_BYTES, &fd, &size, &id, msg, msg_size);
    if (*code != MOS_OK) {
        free(path);
        return -1;
    }
    int i = find_file_image(p->s, id);
    if (i >= 0) {
        close(fd);
        free(path);
        return i;
    }
    scene_image img;
    *code = scene_import_image(fd, size, path, &img, msg, msg_size);
    close(fd);
    if (*code != MOS_OK) {
        free(path);
        return *code == MOS_ERR_OUT_OF_MEMORY ? (oom(p, col), -2) : -1;
    }
    img.path = path;
    img.id = id;
    i = add_image(p, col, &img);
    return i >= 0 ? i : -2;
}

static int texture_stmt(parser *p, const token *t, int n)
{
    if (nargs(p, t, n, 1, 1, "a file path"))
        return -1;
    if (p->po.texture_given)
        return perr(p, t[0].col, "object '%s' already has a texture", p->po.obj.name);
    char *path;
    if (resolve(p, &t[1], &path))
        return -1;
    char msg[512];
    mos_result r = MOS_OK;
    int i = load_image(p, t[1].col, path, msg, sizeof msg, &r);
    if (i == -1) {
        p->code = r;
        return perr(p, t[1].col, "%s", msg);
    }
    if (i < 0)
        return -1;
    p->po.obj.texture = i;
    p->po.texture_given = true;
    p->po.texture_line = p->line;
    p->po.texture_col = t[0].col;
    return 0;
}

/* What every object gets once its look is known: blending from its colour
 * unless the scene chose (alpha below 1 blends "over"), no depth writes when
 * blended unless the scene chose, and its mesh's centre (blended objects are
 * drawn far to near by it). */
static void finish_object(const pending_object *po, scene_object *o, const scene_mesh *m)
{
    if (!po->blend_given && o->blend == MOS_BLEND_OPAQUE && o->color[3] < 1.0f)  /* a material or map may have chosen */
        o->blend = MOS_BLEND_ALPHA;
    if (!po->depth_write_given)
        o->depth_write = o->blend == MOS_BLEND_OPAQUE;
    scene_mesh_center(m, o->center);
    if (!o->has_motion)
        memcpy(o->xform1, o->xform, sizeof o->xform);
}

/* Appends O with mesh M (taken) to the scene; -1 when out of memory (M freed). */
static int append_object(parser *p, int col, scene_object *o, scene_mesh *m)
{
    scene *s = p->s;
    void *gm = grow(s->meshes, s->mesh_count, sizeof *s->meshes);
    if (gm)
        s->meshes = gm;
    void *go = gm ? grow(s->objects, s->object_count, sizeof *s->objects) : NULL;
    if (!go) {
        scene_mesh_free(m);
        return oom(p, col);
    }
    s->objects = go;
    o->mesh = s->mesh_count;
    s->meshes[s->mesh_count++] = *m;
    memset(m, 0, sizeof *m);
    s->objects[s->object_count++] = *o;
    return 0;
}

/* ---- bsp maps ------------------------------------------------------------------ */

/* A map material's name without the textures/ folder every one has. */
static const char *tex_name(const char *name) { return strncmp(name, "textures/", 9) ? name : name + 9; }

/* A pastel tint from the material name (FNV-1a hash -> hue), so a map's
 * surfaces are told apart without their textures. */
static void material_tint(const char *name, float rgb[3])
{
    uint32_t h = 2166136261u;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        h = (h ^ *c) * 16777619u;
    float hue = (float)(h % 360u) / 60.0f, sat = 0.30f, val = 0.80f + 0.20f * (float)((h >> 16) % 256u) / 255.0f;
    float f = hue - floorf(hue), q = val * (1 - sat * f), t = val * (1 - sat * (1 - f)), lo = val * (1 - sat);
    const float tab[6][3] = { { val, t, lo }, { q, val, lo }, { lo, val, t }, { lo, q, val }, { t, lo, val }, { val, lo, q } };
    memcpy(rgb, tab[(int)hue % 6], 3 * sizeof(float));
}

static void xform_point(const float m[16], const float v[3], float w, float out[3])
{
    for (int r = 0; r < 3; r++)
        out[r] = m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2] + m[12 + r] * w;
}

/* The map's views as cameras, through the object's transform. */
static int bsp_views(parser *p, const scene_bsp_map *map)
{
    pending_object *po = &p->po;
    const scene_object *o = &po->obj;
    scene *s = p->s;
    p->line = po->views_line;  /* scene_bsp_load fails on a map without views */
    const float *m = o->xform;
    float det = m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) +
                m[8] * (m[1] * m[6] - m[5] * m[2]);
    float scale = cbrtf(fabsf(det)), up[3] = { 0, 1, 0 };
    for (int i = 0; i < map->view_count; i++) {
        const scene_bsp_view *v = &map->views[i];
        if (scene_find_view(s, v->name) >= 0)
            return perr(p, po->views_col, "a camera named '%s' already exists (one map's views per scene)", v->name);
        scene_camera c = { .fov_y_deg = SCENE_BSP_FOV_Y, .near_z = SCENE_BSP_NEAR * scale,
                           .far_z = SCENE_BSP_FAR * scale, .shutter = { 0, 1 } };
        snprintf(c.name, sizeof c.name, "%s", v->name);
        xform_point(m, v->eye, 1, c.eye);
        xform_point(m, v->target, 1, c.target);
        xform_point(m, up, 0, c.up);
        void *g = grow(s->cameras, s->camera_count, sizeof *s->cameras);
        if (!g)
            return oom(p, po->views_col);
        s->cameras = g;
        s->cameras[s->camera_count++] = c;
    }
    return 0;
}

/* The game folder of a map: the folder of its .pk3, or of the maps/ folder
 * holding a bare .bsp (baseoa/maps/x.bsp -> baseoa); malloc'd, NULL when
 * out of memory. */
static char *game_folder(const char *path, bool in_pk3)
{
    char *f = strdup(path);
    if (!f)
        return NULL;
    char *slash = strrchr(f, '/');
    if (!slash) {
        f[0] = '\0';
        return f;
    }
    *slash = '\0';
    if (!in_pk3) {
        char *up = strrchr(f, '/');
        const char *last = up ? up + 1 : f;
        if (!strcasecmp(last, "maps")) {
            if (up)
                *up = '\0';
            else
                f[0] = '\0';
        }
    }
    return f;
}

/* The image of map material NAME from the game's archives: its name without
 * an extension plus .tga, else .jpg (then .jpeg, .png), the first the
 * archives hold, as Quake 3 looks them up.  The scene image index, -1 when
 * no archive holds a readable one, -2 when out of memory.  *alpha: the
 * image has transparent texels. */
static int bsp_texture(parser *p, int col, scene_pk3_set *pk3, const char *folder, const char *name, bool *alpha)
{
    char stem[80], key[4200];
    snprintf(stem, sizeof stem, "%s", name);
    char *dot = strrchr(stem, '.');
    if (dot && !strchr(dot, '/'))
        *dot = '\0';
    snprintf(key, sizeof key, "%s:%s", folder, stem);
    int idx = find_image(p->s, key);
    if (idx < 0) {
        static const char *const ext[] = { ".tga", ".jpg", ".jpeg", ".png" };
        uint8_t *data = NULL;
        size_t size = 0;
        char entry[100];
        mos_result r = MOS_ERR_IO;
        for (size_t e = 0; e < sizeof ext / sizeof ext[0] && r == MOS_ERR_IO; e++) {
            snprintf(entry, sizeof entry, "%s%s", stem, ext[e]);
            r = scene_pk3_read(pk3, entry, IMG_MAX_FILE_BYTES, &data, &size);
        }
        if (r == MOS_ERR_OUT_OF_MEMORY)
            return oom(p, col), -2;
        if (r != MOS_OK)
            return -1;
        img_rgba8 im;
        char msg[256];
        r = img_decode(data, size, entry, &im, msg, sizeof msg);
        free(data);
        if (r == MOS_ERR_OUT_OF_MEMORY)
            return oom(p, col), -2;
        if (r != MOS_OK)
            return -1;
        scene_image img = { .width = im.width, .height = im.height, .rgba = im.pixels, .path = strdup(key) };
        if (!img.path) {
            scene_image_free(&img);
            return oom(p, col), -2;
        }
        if ((idx = add_image(p, col, &img)) < 0)
            return -2;
    }
    const scene_image *im = &p->s->images[idx];
    *alpha = false;
    for (size_t i = 0; i < (size_t)im->width * (size_t)im->height && !*alpha; i++)
        *alpha = im->rgba[4 * i + 3] < 255;
    return idx;
}

/* The map's lightmaps as a scene image (taking MAP's atlas): its index, -1 when the map has no light, -2
 * when out of memory or over the texture budget. */
static int bsp_light_image(parser *p, int col, scene_bsp_map *map)
{
    if (!map->light.rgba)
        return -1;
    char key[4200];
    snprintf(key, sizeof key, "%s:%s#lightmaps", p->po.mesh_path, p->po.bsp_entry ? p->po.bsp_entry : "");
    scene_image img = { .width = map->light.width, .height = map->light.height, .rgba = map->light.rgba,
                        .wrap = { MOS_WRAP_CLAMP_TO_EDGE, MOS_WRAP_CLAMP_TO_EDGE }, .path = strdup(key) };
    map->light.rgba = NULL;
    if (!img.path) {
        scene_image_free(&img);
        return oom(p, col), -2;
    }
    const int idx = add_image(p, col, &img);
    return idx >= 0 ? idx : -2;
}

/* What the materials of one map share while they become objects. */
typedef struct bsp_build {
    scene_pk3_set *pk3;          /* the game folder's archives, NULL with textures off */
    const char *folder;
    scene_q3_scripts *scripts;   /* their shader scripts, NULL with textures off */
    int light;                   /* the lightmaps' image, -1 = none */
    int untextured, skipped;
    char missing[160];           /* the first untextured materials */
    scene_bsp_tally tally;       /* what the scripts ask that is not drawn */
} bsp_build;

/* Gives OBJ (the object's copy for material MAT) its look: the image its script's first stage names (else
 * the one named like it) with that stage's blending, alpha test, sides and scale, times the map's light;
 * an image with transparent texels and no script is cut out or blended as the map's contents say.
 * 1: not drawn (nodraw, sky, a blend Mosaic lacks); -1: error. */
static int bsp_material(parser *p, int col, bsp_build *b, scene_bsp_material *mat, scene_object *obj)
{
    const pending_object *po = &p->po;
    const scene_q3_shader *sh = scene_q3_find(b->scripts, mat->name);
    scene_bsp_look look;
    scene_bsp_look_of(mat->name, sh, &look);
    scene_bsp_tally_shader(&b->tally, sh, &look);
    if (look.skip)
        return 1;
    if (look.tc_scale[0] != 1.0f || look.tc_scale[1] != 1.0f)
        scene_mesh_uv_scale(&mat->mesh, look.tc_scale[0], look.tc_scale[1]);
    bool alpha = false;
    const int tex = b->pk3 ? bsp_texture(p, col, b->pk3, b->folder, look.image, &alpha) : -1;
    if (tex == -2)
        return -1;
    if (tex >= 0) {
        obj->texture = tex;
        if (!po->shader_given)
            obj->shader = SCENE_SHADER_TEXTURED;
    } else {
        float tint[3];
        material_tint(mat->name, tint);
        for (int k = 0; k < 3; k++)
            obj->color[k] *= tint[k];
        if (b->pk3) {
            size_t ml = strlen(b->missing);
            if (b->untextured < 4)
                snprintf(b->missing + ml, sizeof b->missing - ml, "%s%.30s", b->untextured ? ", " : "",
                         tex_name(mat->name));
            b->untextured++;
        }
    }
    /* Without a script the alpha of a map texture means something only on surfaces the compiler made
     * translucent (surfaceparm trans, in the contents): liquids blend, the others (fences, grates) are cut
     * out as the game's alphaFunc GE128 does, drawn from both sides. */
    const bool trans = !look.scripted && alpha && (mat->contents & SCENE_BSP_CONTENTS_TRANSLUCENT);
    const mos_blend blend = trans && (mat->contents & SCENE_BSP_CONTENTS_LIQUID) ? MOS_BLEND_ALPHA : look.blend;
    const float cutoff = trans && blend == MOS_BLEND_OPAQUE ? 0.5f : look.alpha_cutoff;
    if (!po->blend_given)
        obj->blend = blend;
    if (!po->alpha_given)
        obj->alpha_cutoff = cutoff;
    if ((trans || look.two_sided) && !po->cull_given)
        obj->cull = MOS_CULL_NONE;
    if (b->light >= 0 || (look.scripted && !po->shader_given)) {  /* the map's light, not the scene's */
        obj->shader = SCENE_SHADER_LIGHTMAPPED;
        obj->lightmap = look.lit ? b->light : -1;
    }
    const int clamp[2] = { MOS_WRAP_CLAMP_TO_EDGE, MOS_WRAP_CLAMP_TO_EDGE };
    return apply_sampling(p, col, obj, look.clamp ? clamp : NULL) ? -1 : 0;
}

/* The sky box of the map's sky material: its script's skyParms farbox images, else (no such images) its
 * first image stage (the game's cloud layer) on every face; six objects OBJECT:sky_rt, ..., fullbright,
 * drawn first and writing no depth, so that everything stands in front; *TRIS gets their triangles.
 * 0, or -1 on error. */
static int bsp_sky(parser *p, int col, bsp_build *b, const scene_bsp_map *map, uint64_t *tris)
{
    pending_object *po = &p->po;
    const scene_q3_shader *sh = map->sky[0] ? scene_q3_find(b->scripts, map->sky) : NULL;
    if (map->sky[0] && !sh)
        scene_bsp_tally_add(&b->tally, "a sky material without a shader script (no sky box)");
    if (!sh || (!sh->sky[0] && !sh->image[0]) || po->shader_given)
        return 0;
    float centre[3], half;
    scene_bsp_sky_box(map, SCENE_BSP_FAR, centre, &half);
    bool clouds = false;
    for (int face = 0; face < 6; face++) {
        char image[80];
        bool alpha;
        snprintf(image, sizeof image, "%s_%s", sh->sky, scene_bsp_sky_suffix[face]);
        int tex = clouds || !sh->sky[0] ? -1 : bsp_texture(p, col, b->pk3, b->folder, image, &alpha);
        if (tex == -1 && sh->image[0]) {
            clouds = true;
            tex = bsp_texture(p, col, b->pk3, b->folder, sh->image, &alpha);
        }
        if (tex == -2)
            return -1;
        if (tex < 0)
            return 0;
        scene_object obj = po->obj;
        snprintf(obj.name + strnlen(obj.name, SCENE_NAME_MAX - 8), 8, ":sky_%s", scene_bsp_sky_suffix[face]);
        obj.texture = tex;
        obj.shader = SCENE_SHADER_LIGHTMAPPED;  /* without a lightmap: the image as it is */
        obj.cull = MOS_CULL_NONE;
        const int clamp[2] = { MOS_WRAP_CLAMP_TO_EDGE, MOS_WRAP_CLAMP_TO_EDGE };
        scene_mesh m;
        if (apply_sampling(p, col, &obj, clouds ? NULL : clamp))
            return -1;
        if (scene_bsp_sky_face(face, centre, half, &m))
            return oom(p, col);
        if (clouds)
            scene_mesh_uv_scale(&m, sh->tc_scale[0], sh->tc_scale[1]);
        finish_object(po, &obj, &m);
        obj.depth_write = false;
        *tris += m.index_count / 3;
        if (append_object(p, col, &obj, &m))
            return -1;
    }
    if (clouds)
        scene_bsp_tally_add(&b->tally, sh->sky[0] ? "sky: no farbox images, the cloud layer on a box"
                                                  : "sky: the cloud layer on a box");
    return 0;
}

/* The warnings of a map's materials: those without an image, what the scripts ask that is not drawn. */
static int bsp_warnings(parser *p, const bsp_build *b, int materials)
{
    const pending_object *po = &p->po;
    int save = p->line, rc = 0;
    p->line = po->geom_line;
    const char *hint = b->untextured ? scene_bsp_package_hint(b->folder[0] ? b->folder : ".") : NULL;
    if (b->untextured)
        rc = pwarn(p, po->path_col, "%d of %d materials have no image and are drawn tinted: %s%s; looked for "
                   "their shader scripts (scripts/NAME.shader) and images (.tga, .jpg, .jpeg, .png) in the %d .pk3 "
                   "archives of '%s'%s%s%s", b->untextured, materials, b->missing, b->untextured > 4 ? ", ..." : "",
                   scene_pk3_count(b->pk3), b->folder[0] ? b->folder : ".", hint ? " (" : "", hint ? hint : "",
                   hint ? ")" : "");
    if (!rc && b->tally.materials) {
        char what[600];
        scene_bsp_tally_text(&b->tally, what, sizeof what);
        rc = pwarn(p, po->path_col, "%d of %d materials' shader scripts ask for what Mosaic does not draw: %s",
                   b->tally.materials, materials, what);
    }
    if (!rc && scene_q3_scripts_error(b->scripts))
        rc = pwarn(p, po->path_col, "%d malformed shader%s in the scripts of '%s' not read (the first: %s)",
                   scene_q3_scripts_faults(b->scripts), scene_q3_scripts_faults(b->scripts) == 1 ? "" : "s",
                   b->folder[0] ? b->folder : ".", scene_q3_scripts_error(b->scripts));
    p->line = save;
    return rc;
}

/* Loads the map and appends one object per drawn material (named OBJECT:TEXTURE), with the look its
 * shader script gives it (bsp_material) and the map's lightmaps, then its views. */
static int bsp_end(parser *p, int end_col)
{
    pending_object *po = &p->po;
    int save_line = p->line;
    if (po->fit > 0.0f)
        return perr(p, end_col, "object '%s': 'fit' does not apply to a bsp map (use scale and translate)",
                    po->obj.name);
    scene_bsp_map map;
    int arg;
    char msg[1024];
    mos_result r = scene_bsp_load(po->mesh_path, po->bsp_entry, po->patch_level, po->views_max, &map, &arg,
                                  msg, sizeof msg);
    if (r != MOS_OK) {
        p->code = r;
        p->line = po->geom_line;
        perr(p, arg == SCENE_BSP_ARG_ENTRY ? po->entry_col : po->path_col, "%s", msg);
        p->line = save_line;
        return -1;
    }
    const scene_object *o = &po->obj;
    uint64_t inst = (uint64_t)o->array_n[0] * (uint64_t)o->array_n[1] * (uint64_t)o->array_n[2], tris = 0;
    for (int i = 0; i < map.material_count; i++)
        tris += (uint64_t)(map.materials[i].mesh.index_count / 3) * inst;
    int rc = over_budget(p, end_col, o->name, tris);
    /* The images and shader scripts: from every archive of the map's game folder. */
    bsp_build b = { .light = -1 };
    char *folder = NULL;
    if (!rc && po->bsp_textures && !po->texture_given) {
        b.folder = folder = game_folder(po->mesh_path, po->bsp_entry != NULL);
        if (!folder || scene_pk3_open(folder, p->opts->sandbox_dir, &b.pk3) != MOS_OK ||
            scene_q3_scripts_load(b.pk3, &b.scripts) != MOS_OK)
            rc = oom(p, end_col);
    }
    b.light = rc || po->shader_given ? -1 : bsp_light_image(p, end_col, &map);  /* lightmaps */
    rc = b.light == -2 ? -1 : rc;
    if (!rc && b.pk3)
        rc = bsp_sky(p, end_col, &b, &map, &tris);
    for (int i = 0; !rc && i < map.material_count; i++) {
        scene_bsp_material *mat = &map.materials[i];
        if (po->uv[0] != 1.0f || po->uv[1] != 1.0f)
            scene_mesh_uv_scale(&mat->mesh, po->uv[0], po->uv[1]);
        scene_object obj = *o;
        const char *tname = tex_name(mat->name);
        size_t nl = strlen(obj.name), tl = strlen(tname);
        if (nl + 1 < SCENE_NAME_MAX) {  /* OBJECT:TEXTURE, cut to the name limit */
            obj.name[nl] = ':';
            tl = tl < SCENE_NAME_MAX - 2 - nl ? tl : SCENE_NAME_MAX - 2 - nl;
            memcpy(obj.name + nl + 1, tname, tl);
            obj.name[nl + 1 + tl] = '\0';
        }
        const int m = bsp_material(p, end_col, &b, mat, &obj);
        if (m == 1) {  /* not drawn: its triangles leave the budget */
            tris -= (uint64_t)(mat->mesh.index_count / 3) * inst;
            b.skipped++;
            continue;
        }
        if (m < 0) {
            rc = -1;
            break;
        }
        finish_object(po, &obj, &mat->mesh);
        rc = append_object(p, end_col, &obj, &mat->mesh);  /* the scene owns the mesh now */
    }
    if (!rc)
        rc = bsp_warnings(p, &b, map.material_count);
    scene_q3_scripts_free(b.scripts);
    scene_pk3_close(b.pk3);
    free(folder);
    if (!rc)
        p->total_tris += tris;
    if (!rc && po->views_max >= 0)
        rc = bsp_views(p, &map);
    p->line = save_line;
    scene_bsp_free(&map);
    free(po->mesh_path);
    free(po->bsp_entry);
    po->mesh_path = po->bsp_entry = NULL;
    if (!rc)
        p->block = BLOCK_TOP;
    return rc;
}

/* The scene image of part I's texture: the file (sandboxed like the scene's
 * own paths) or the embedded image; a warning and the magenta stand-in when
 * it cannot be read.  -1 when out of memory. */
static int material_texture(parser *p, int col, const scene_import *im, int i)
{
    const scene_material *m = &im->materials[i];
    char msg[768] = "";
    if (m->embedded >= 0) {
        const scene_image *e = m->embedded < im->embedded_count ? &im->embedded[m->embedded] : NULL;
        if (e && e->rgba) {
            int k = find_image(p->s, e->path);
            if (k >= 0)
                return k;
            scene_image copy = { .width = e->width, .height = e->height, .path = strdup(e->path),
                                 .rgba = malloc((size_t)e->width * (size_t)e->height * 4) };
            if (!copy.path || !copy.rgba) {
                scene_image_free(&copy);
                return oom(p, col);
            }
            memcpy(copy.rgba, e->rgba, (size_t)e->width * (size_t)e->height * 4);
            return add_image(p, col, &copy);
        }
        snprintf(msg, sizeof msg, "%s", e ? e->path : "no such embedded texture");
    } else {
        mos_result r = MOS_OK;
        char *path = strdup(m->texture);
        if (!path)
            return oom(p, col);
        int k = load_image(p, col, path, msg, sizeof msg, &r);  /* held to the sandbox there */
        if (k != -1)
            return k < 0 ? -1 : k;
    }
    if (pwarn(p, col, "material '%s': texture not loaded (%s); drawn magenta", m->name, msg))
        return -1;
    return missing_image(p, col);
}

/* Part I of a mesh file as an object: the scene object's settings, then what
 * its material says where the scene did not (colour, texture, alpha, sides). */
static int part_object(parser *p, int col, const scene_import *im, int i, scene_object *out)
{
    const pending_object *po = &p->po;
    const scene_material *m = &im->materials[i];
    scene_object o = po->obj;
    bool first = true;  /* warnings once per material, not per part */
    for (int j = 0; j < i && first; j++)
        first = strcmp(im->materials[j].name, m->name) != 0;
    if (m->named) {
        if (!po->color_given)
            memcpy(o.color, m->color, sizeof o.color);
        if (!po->cull_given && m->two_sided >= 0)
            o.cull = m->two_sided ? MOS_CULL_NONE : MOS_CULL_BACK;
        if (!po->alpha_given && m->alpha_mode == SCENE_ALPHA_MASK)
            o.alpha_cutoff = m->alpha_cutoff;
        if (m->alpha_mode == SCENE_ALPHA_BLEND && !po->color_given && o.color[3] >= 1.0f && !po->blend_given)
            o.blend = MOS_BLEND_ALPHA;  /* blended by its texture's alpha */
        if (first && m->ignored[0] && pwarn(p, col, "material '%s': not rendered: %s", m->name, m->ignored))
            return -1;
    }
    if (!po->texture_given && (m->texture || m->embedded >= 0)) {
        if (po->shader_given && !scene_shader_samples(p->s, o.shader)) {
            if (first && pwarn(p, col, "material '%s': its texture is not drawn: shader %s does not sample textures", m->name,
                      scene_shader_name(p->s, o.shader)))
                return -1;
        } else if ((o.texture = material_texture(p, col, im, i)) < 0) {
            return -1;
        } else if (!po->shader_given) {
            o.shader = SCENE_SHADER_TEXTURED;
        }
    }
    if (o.shader == SCENE_SHADER_TEXTURED && o.texture < 0) {
        if (first && pwarn(p, col, "object '%s': material '%s' has no texture to draw with shader textured; drawn with lambert",
                  o.name, m->name))
            return -1;
        o.shader = SCENE_SHADER_LAMBERT;
    }
    if (apply_sampling(p, col, &o, po->texture_given ? NULL : m->wrap))
        return -1;
    *out = o;
    return 0;
}

/* Whether two parts look alike (then they are drawn as one). */
static bool same_look(const scene_object *a, const scene_object *b)
{
    return a->texture == b->texture && a->shader == b->shader && !memcmp(a->color, b->color, sizeof a->color) &&
           a->cull == b->cull && a->blend == b->blend && a->alpha_cutoff == b->alpha_cutoff;
}

/* Imports a mesh file and appends one object per look: parts whose
 * materials end up drawn alike are joined (in file order), so a file with
 * one material, or whose materials the scene overrides, is one draw. */
static int mesh_end(parser *p, int end_col)
{
    pending_object *po = &p->po;
    const scene_object *o = &po->obj;
    int save_line = p->line;
    char msg[768];
    scene_import im;
    mos_result r = scene_import_mesh(po->mesh_path, p->opts->sandbox_dir, p->opts->max_triangles - p->total_tris, &im,
                                     msg, sizeof msg);
    if (r != MOS_OK) {
        p->code = r;
        p->line = po->geom_line;
        perr(p, po->path_col, "%s", msg);
        p->line = save_line;
        return -1;
    }
    if (po->fit > 0.0f)
        scene_mesh_fit(im.parts, im.part_count, po->fit, po->fit_base);
    uint64_t tris = 0;
    for (int i = 0; i < im.part_count; i++) {
        if (po->uv[0] != 1.0f || po->uv[1] != 1.0f)
            scene_mesh_uv_scale(&im.parts[i], po->uv[0], po->uv[1]);
        tris += im.parts[i].index_count / 3;
    }
    tris *= (uint64_t)o->array_n[0] * (uint64_t)o->array_n[1] * (uint64_t)o->array_n[2];
    int rc = over_budget(p, end_col, o->name, tris);
    /* Each part's look, then the groups of alike parts (group[i]: the part
     * that leads part i's group). */
    scene_object *looks = rc ? NULL : calloc((size_t)im.part_count, sizeof *looks);
    int *group = rc ? NULL : calloc((size_t)im.part_count, sizeof *group);
    if (!rc && (!looks || !group))
        rc = oom(p, end_col);
    p->line = po->geom_line;
    for (int i = 0; !rc && i < im.part_count; i++)
        rc = part_object(p, po->path_col, &im, i, &looks[i]);
    p->line = save_line;
    int groups = 0;
    for (int i = 0; !rc && i < im.part_count; i++) {
        group[i] = i;
        for (int j = 0; j < i; j++)
            if (group[j] == j && same_look(&looks[j], &looks[i])) {
                group[i] = j;
                break;
            }
        groups += group[i] == i;
        if (group[i] != i && scene_mesh_append(&im.parts[group[i]], &im.parts[i]))
            rc = oom(p, end_col);
    }
    for (int i = 0; !rc && i < im.part_count; i++) {
        if (group[i] != i)
            continue;
        scene_object obj = looks[i];
        const char *mat = im.materials[i].name[0] ? im.materials[i].name : "part";
        if (groups > 1) {  /* OBJECT:MATERIAL, cut to the name limit */
            size_t nl = strlen(obj.name);
            if (nl + 1 < SCENE_NAME_MAX)
                snprintf(obj.name + nl, SCENE_NAME_MAX - nl, ":%.*s", (int)(SCENE_NAME_MAX - 2 - nl), mat);
        }
        finish_object(po, &obj, &im.parts[i]);
        rc = append_object(p, end_col, &obj, &im.parts[i]);
    }
    if (!rc)
        p->total_tris += tris;
    free(looks);
    free(group);
    scene_import_free(&im);
    free(po->mesh_path);
    po->mesh_path = NULL;
    if (!rc)
        p->block = BLOCK_TOP;
    return rc;
}

/* Builds the geometry, checks the object and appends it. */
static int object_end(parser *p, const token *t, int n)
{
    pending_object *po = &p->po;
    scene_object *o = &po->obj;
    if (nargs(p, t, n, 0, 0, "nothing"))
        return -1;
    if (po->geom == GEOM_NONE)
        return perr(p, t[0].col, "object '%s' (line %d) has no geometry (plane, sphere, box, torus, mesh or bsp)",
                    o->name, p->block_line);
    if (po->texture_given && !po->shader_given)
        o->shader = SCENE_SHADER_TEXTURED;  /* a texture line textures the object */
    if (po->texture_given && !scene_shader_samples(p->s, o->shader)) {
        int save = p->line;
        p->line = po->texture_line;
        int w = pwarn(p, po->texture_col, "object '%s': the texture is not drawn: shader %s does not sample textures",
                      o->name, scene_shader_name(p->s, o->shader));
        p->line = save;
        if (w)
            return -1;
    }
    if (o->shader == SCENE_SHADER_TEXTURED && o->texture < 0 && po->geom != GEOM_MESH)
        return perr(p, t[0].col, "object '%s' (line %d) uses shader textured but has no 'texture'",
                    o->name, p->block_line);
    if (!po->cull_given)
        o->cull = po->geom == GEOM_SPHERE || po->geom == GEOM_BOX || po->geom == GEOM_TORUS || po->geom == GEOM_BSP
                      ? MOS_CULL_BACK : MOS_CULL_NONE;
    if (po->geom != GEOM_BSP && (po->patch_line || po->views_line || po->textures_line)) {
        const int line = po->patch_line ? po->patch_line : po->views_line ? po->views_line : po->textures_line;
        return perr(p, t[0].col, "object '%s': '%s' (line %d) applies to bsp maps only", o->name,
                    po->patch_line ? "patch_level" : po->views_line ? "views" : "textures", line);
    }
    if (po->geom == GEOM_BSP)
        return bsp_end(p, t[0].col);
    if (po->geom == GEOM_MESH)
        return mesh_end(p, t[0].col);

    scene_mesh m;
    int rc = 0;
    int save_line = p->line;
    switch (po->geom) {
    case GEOM_PLANE: rc = scene_prim_plane(&m, po->gf[0], po->gf[1], po->gi[0], po->gi[1]); break;
    case GEOM_SPHERE: rc = scene_prim_sphere(&m, po->gf[0], po->gi[0], po->gi[1]); break;
    case GEOM_BOX: rc = scene_prim_box(&m, po->gf[0], po->gf[1], po->gf[2], po->gi[0]); break;
    case GEOM_TORUS: rc = scene_prim_torus(&m, po->gf[0], po->gf[1], po->gi[0], po->gi[1]); break;
    case GEOM_MESH:
    case GEOM_BSP:
    case GEOM_NONE: break;
    }
    if (rc) {
        p->line = po->geom_line;
        oom(p, po->geom_col);
        p->line = save_line;
        return -1;
    }
    if (po->fit > 0.0f)
        scene_mesh_fit(&m, 1, po->fit, po->fit_base);
    if (po->uv[0] != 1.0f || po->uv[1] != 1.0f)
        scene_mesh_uv_scale(&m, po->uv[0], po->uv[1]);

    uint64_t inst = (uint64_t)o->array_n[0] * (uint64_t)o->array_n[1] * (uint64_t)o->array_n[2];
    uint64_t tris = (uint64_t)(m.index_count / 3) * inst;
    if (over_budget(p, t[0].col, o->name, tris)) {
        scene_mesh_free(&m);
        return -1;
    }
    if (apply_sampling(p, t[0].col, o, NULL)) {
        scene_mesh_free(&m);
        return -1;
    }
    finish_object(po, o, &m);
    if (append_object(p, t[0].col, o, &m))
        return -1;
    p->total_tris += tris;
    free(po->mesh_path);
    po->mesh_path = NULL;
    p->block = BLOCK_TOP;
    return 0;
}

/* `shader FILE.frag [FILE.vert]`: a GLSL pair (the vertex shader defaults to
 * builtin.vert beside the fragment shader), compiled now. */
static int glsl_shader(parser *p, const token *t, int n, scene_object *o)
{
    char *frag = NULL, *vert = NULL;
    if (resolve(p, &t[1], &frag))
        return -1;
    if (n > 2) {
        if (resolve(p, &t[2], &vert)) {
            free(frag);
            return -1;
        }
    } else {
        const char *slash = strrchr(frag, '/');
        const size_t dl = slash ? (size_t)(slash - frag + 1) : 0;
        vert = malloc(dl + sizeof "builtin.vert");
        if (!vert) {
            free(frag);
            return oom(p, t[1].col);
        }
        memcpy(vert, frag, dl);
        memcpy(vert + dl, "builtin.vert", sizeof "builtin.vert");
    }
    char msg[1024];
    const int k = scene_glsl_add(p->s, frag, vert, p->opts->sandbox_dir, msg, sizeof msg);
    free(frag);
    free(vert);
    if (k < 0) {
        p->code = MOS_ERR_SHADER;
        return perr(p, t[1].col, "%s", msg);
    }
    o->shader = SCENE_SHADER_COUNT + k;
    return 0;
}

/* What an object keyword group's parser says of a keyword that is not its own. */
#define KW_NOT_MINE 1

/* The values of an on/off keyword (textures, depth_write), in choose()'s order. */
static const char *const on_off[] = { "on", "off", NULL };

/* An object's geometry: a primitive, a mesh or a map, and a map's options.
 * KW_NOT_MINE when t[0] is another keyword. */
static int object_geometry(parser *p, const token *t, int n)
{
    pending_object *po = &p->po;
    const char *kw = t[0].s;
    if (!strcmp(kw, "plane"))
        return geom_stmt(p, t, n, GEOM_PLANE);
    if (!strcmp(kw, "sphere"))
        return geom_stmt(p, t, n, GEOM_SPHERE);
    if (!strcmp(kw, "box"))
        return geom_stmt(p, t, n, GEOM_BOX);
    if (!strcmp(kw, "torus"))
        return geom_stmt(p, t, n, GEOM_TORUS);
    if (!strcmp(kw, "mesh"))
        return geom_stmt(p, t, n, GEOM_MESH);
    if (!strcmp(kw, "bsp"))
        return geom_stmt(p, t, n, GEOM_BSP);
    if (!strcmp(kw, "patch_level")) {
        if (nargs(p, t, n, 1, 1, "quads per Bezier patch side") ||
            integer(p, &t[1], 1, SCENE_BSP_MAX_PATCH_LEVEL, &po->patch_level))
            return -1;
        po->patch_line = p->line;
        return 0;
    }
    if (!strcmp(kw, "textures")) {
        int m;
        if (nargs(p, t, n, 1, 1, "on or off") || (m = choose(p, &t[1], "textures value", on_off)) < 0)
            return -1;
        po->bsp_textures = m == 0;
        po->textures_line = p->line;
        return 0;
    }
    if (!strcmp(kw, "views")) {
        po->views_max = SCENE_BSP_SPAWN_VIEWS;
        if (nargs(p, t, n, 0, 1, "an optional number of spawn-point views") ||
            (n == 2 && integer(p, &t[1], 0, SCENE_BSP_MAX_SPAWNS, &po->views_max)))
            return -1;
        po->views_line = p->line;
        po->views_col = t[0].col;
        return 0;
    }
    return KW_NOT_MINE;
}

/* Where an object is: its transforms, its motion over the shutter, its fit
 * and its array of instances.  KW_NOT_MINE when t[0] is another keyword. */
static int object_placement(parser *p, const token *t, int n)
{
    pending_object *po = &p->po;
    scene_object *o = &po->obj;
    const char *kw = t[0].s;
    if (is_transform(kw)) {
        float m[16];
        if (transform_stmt(p, t, n, m))
            return -1;
        compose(o->xform, m);
        return 0;
    }
    if (!strcmp(kw, "motion")) {
        float m[16];
        if (n < 2 || !is_transform(t[1].s))
            return perr(p, n < 2 ? t[0].col : t[1].col, "'motion' needs translate, rotate or scale");
        if (transform_stmt(p, t + 1, n - 1, m))
            return -1;
        compose(o->xform1, m);
        o->has_motion = true;
        return 0;
    }
    if (!strcmp(kw, "velocity"))
        return nargs(p, t, n, 3, 3, "x y z (world units per frame)") || nums(p, t + 1, 3, o->velocity) ? -1 : 0;
    if (!strcmp(kw, "fit")) {
        if (nargs(p, t, n, 1, 2, "a size [center|base]") || positive(p, &t[1], &po->fit))
            return -1;
        po->fit_base = false;
        if (n == 3) {
            if (!strcmp(t[2].s, "base"))
                po->fit_base = true;
            else if (strcmp(t[2].s, "center") && strcmp(t[2].s, "centre"))
                return perr(p, t[2].col, "unknown fit anchor '%s' (expected center or base)", t[2].s);
        }
        return 0;
    }
    if (!strcmp(kw, "array")) {
        float d[3];
        if (nargs(p, t, n, 6, 6, "counts nx ny nz and steps dx dy dz") ||
            integer(p, &t[1], 1, SCENE_MAX_INSTANCES, &o->array_n[0]) ||
            integer(p, &t[2], 1, SCENE_MAX_INSTANCES, &o->array_n[1]) ||
            integer(p, &t[3], 1, SCENE_MAX_INSTANCES, &o->array_n[2]) || nums(p, t + 4, 3, d))
            return -1;
        if ((uint64_t)o->array_n[0] * (uint64_t)o->array_n[1] * (uint64_t)o->array_n[2] > SCENE_MAX_INSTANCES)
            return perr(p, t[1].col, "array has more than %d instances", SCENE_MAX_INSTANCES);
        memcpy(o->array_d, d, sizeof d);
        return 0;
    }
    return KW_NOT_MINE;
}

/* How an object looks: shader, colour, texture and its sampling, blending,
 * depth, alpha test, culling.  KW_NOT_MINE when t[0] is another keyword. */
static int object_material(parser *p, const token *t, int n)
{
    pending_object *po = &p->po;
    scene_object *o = &po->obj;
    const char *kw = t[0].s;
    if (!strcmp(kw, "texture"))
        return texture_stmt(p, t, n);
    if (!strcmp(kw, "shader")) {
        static const char *const names[SCENE_SHADER_COUNT + 1] = { "flat", "lambert", "textured", NULL };
        if (nargs(p, t, n, 1, 2, "flat, lambert, textured, or FILE.frag [FILE.vert]"))
            return -1;
        const size_t len = strlen(t[1].s);
        if (len > 5 && !strcmp(t[1].s + len - 5, ".frag")) {
            if (glsl_shader(p, t, n, o))
                return -1;
        } else if (n > 2) {
            return perr(p, t[2].col, "a vertex shader goes with a GLSL fragment shader (FILE.frag FILE.vert)");
        } else if ((o->shader = choose(p, &t[1], "shader", names)) < 0) {
            return -1;
        }
        po->shader_given = true;
        return 0;
    }
    if (!strcmp(kw, "color") || !strcmp(kw, "colour")) {
        if (nargs(p, t, n, 3, 4, "r g b [a]") || unit_range(p, t + 1, n - 1, o->color))
            return -1;
        if (n == 4)
            o->color[3] = 1.0f;
        po->color_given = true;
        return 0;
    }
    if (!strcmp(kw, "blend")) {
        static const char *const modes[] = { "opaque", "alpha", "add", "premultiplied", NULL };  /* mos_blend order */
        int m;
        if (nargs(p, t, n, 1, 1, "opaque, alpha, add or premultiplied") || (m = choose(p, &t[1], "blend mode", modes)) < 0)
            return -1;
        o->blend = (mos_blend)m;
        po->blend_given = true;
        return 0;
    }
    if (!strcmp(kw, "wrap")) {
        static const char *const modes[] = { "repeat", "clamp", "mirror", NULL };  /* mos_wrap order */
        if (nargs(p, t, n, 1, 2, "repeat, clamp or mirror [for v]"))
            return -1;
        for (int k = 1; k < n; k++)
            if ((po->wrap[k - 1] = choose(p, &t[k], "wrap mode", modes)) < 0)
                return -1;
        if (n == 2)
            po->wrap[1] = po->wrap[0];
        po->wrap_given = true;
        return 0;
    }
    if (!strcmp(kw, "mip")) {
        static const char *const filters[] = { "nearest", "linear", NULL };
        int m;
        if (nargs(p, t, n, 1, 1, "nearest or linear") || (m = choose(p, &t[1], "mip filter", filters)) < 0)
            return -1;
        po->mip_linear = m == 1;
        return 0;
    }
    if (!strcmp(kw, "depth_write")) {
        int m;
        if (nargs(p, t, n, 1, 1, "on or off") || (m = choose(p, &t[1], "depth_write value", on_off)) < 0)
            return -1;
        o->depth_write = m == 0;
        po->depth_write_given = true;
        return 0;
    }
    if (!strcmp(kw, "alpha_cutoff")) {
        if (nargs(p, t, n, 1, 1, "a cut-off in 0..1 (0 = no alpha test)") ||
            unit_range(p, t + 1, 1, &o->alpha_cutoff))
            return -1;
        po->alpha_given = true;
        return 0;
    }
    if (!strcmp(kw, "cull")) {
        static const char *const modes[] = { "none", "back", NULL };
        int m;
        if (nargs(p, t, n, 1, 1, "none or back") || (m = choose(p, &t[1], "cull mode", modes)) < 0)
            return -1;
        o->cull = m ? MOS_CULL_BACK : MOS_CULL_NONE;
        po->cull_given = true;
        return 0;
    }
    if (!strcmp(kw, "uv_scale")) {
        if (nargs(p, t, n, 1, 2, "su [sv]") || nums(p, t + 1, n - 1, po->uv))
            return -1;
        if (n == 2)
            po->uv[1] = po->uv[0];
        return 0;
    }
    return KW_NOT_MINE;
}

/* One statement of an object block. */
static int object_stmt(parser *p, const token *t, int n)
{
    int r;
    if (!strcmp(t[0].s, "end"))
        return object_end(p, t, n);
    if ((r = object_geometry(p, t, n)) != KW_NOT_MINE || (r = object_placement(p, t, n)) != KW_NOT_MINE ||
        (r = object_material(p, t, n)) != KW_NOT_MINE)
        return r;
    const char *kw = t[0].s;
    return perr(p, t[0].col,
                "unknown object keyword '%.40s' (expected plane, sphere, box, torus, mesh, bsp, fit, uv_scale, shader, "
                "color, texture, wrap, mip, blend, depth_write, alpha_cutoff, translate, rotate, scale, cull, array, motion, "
                "velocity, patch_level, views, textures or end)", kw);
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
            rc = perr(&p, (int)strlen(line) + 1, "NUL byte in a text file");
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
           : p.block == BLOCK_CAMERA ? camera_stmt(&p, t, n) : object_stmt(&p, t, n);
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
        rc = perr(&p, 1, "end of file inside the '%s' block started at line %d (missing 'end')",
                  p.block == BLOCK_CAMERA ? "camera" : "object", p.block_line);
    }
    free(p.po.mesh_path);
    free(p.po.bsp_entry);
    free(p.cam.path);  /* a camera block that did not end */
    free(line);
    free(p.dir);
    return rc ? p.code : MOS_OK;
}
