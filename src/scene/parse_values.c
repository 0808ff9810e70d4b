/* parse_values.c — what a statement's arguments hold: their count, numbers, integers, choices among
 * words, names and file paths (resolved, held to the sandbox).  Fed by the statements of parse*.c with
 * the tokens of a line; errors point at the token. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/parse_priv.h"

/* Argument count check: KW takes between MIN and MAX arguments after it. */
int parse_nargs(parser *p, const token *t, int n, int min, int max, const char *what)
{
    if (n - 1 < min)
        return parse_err(p, t[0].col, "'%s' needs %s", t[0].s, what);
    if (n - 1 > max)
        return parse_err(p, t[max + 1].col, "unexpected '%s' after %s", t[max + 1].s, t[0].s);
    return 0;
}

int parse_num(parser *p, const token *t, float *out)
{
    char *end;
    errno = 0;
    double v = strtod(t->s, &end);
    if (end == t->s || *end != '\0')
        return parse_err(p, t->col, "expected a number, got '%s'", t->s);
    if (errno == ERANGE || !isfinite(v) || fabs(v) > 3.0e38)
        return parse_err(p, t->col, "number '%s' is out of range", t->s);
    *out = (float)v;
    return 0;
}

int parse_nums(parser *p, const token *t, int count, float *out)
{
    for (int i = 0; i < count; i++)
        if (parse_num(p, &t[i], &out[i]))
            return -1;
    return 0;
}

int parse_int(parser *p, const token *t, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(t->s, &end, 10);
    if (end == t->s || *end != '\0')
        return parse_err(p, t->col, "expected an integer, got '%s'", t->s);
    if (errno == ERANGE || v < lo || v > hi)
        return parse_err(p, t->col, "%s is out of range %d..%d", t->s, lo, hi);
    *out = (int)v;
    return 0;
}

int parse_positive(parser *p, const token *t, float *out)
{
    if (parse_num(p, t, out))
        return -1;
    if (!(*out > 0.0f))
        return parse_err(p, t->col, "'%s' must be greater than 0", t->s);
    return 0;
}

int parse_unit_range(parser *p, const token *t, int count, float *out)
{
    if (parse_nums(p, t, count, out))
        return -1;
    for (int i = 0; i < count; i++)
        if (out[i] < 0.0f || out[i] > 1.0f)
            return parse_err(p, t[i].col, "'%s' is outside 0..1", t[i].s);
    return 0;
}

/* The index of token T among WORDS (NULL-terminated), or -1 with the
 * error "unknown WHAT 'T' (expected a, b or c)". */
int parse_one_word(parser *p, const token *t, int n, const char *hint, const char *what, const char *const *words)
{
    return parse_nargs(p, t, n, 1, 1, hint) ? -1 : parse_choose(p, &t[1], what, words);
}

int parse_choose(parser *p, const token *t, const char *what, const char *const *words)
{
    int count = 0;
    for (; words[count]; count++)
        if (!strcmp(t->s, words[count]))
            return count;
    char list[160] = "";
    size_t n = 0;
    for (int i = 0; i < count && n < sizeof list; i++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i == 0 ? "" : i == count - 1 ? " or " : ", ", words[i]);
    return parse_err(p, t->col, "unknown %s '%s' (expected %s)", what, t->s, list);
}

int parse_name(parser *p, const token *t, char *out)
{
    if (strlen(t->s) >= SCENE_NAME_MAX)
        return parse_err(p, t->col, "name is longer than %d characters", SCENE_NAME_MAX - 1);
    strcpy(out, t->s);
    return 0;
}

/* The file the path token T names, relative to the scene file's folder unless
 * absolute, into *OUT (malloc'ed); in a sandbox only a relative path without
 * '..' to a regular file inside it.  0, or -1 with the error set. */
int parse_path(parser *p, const token *t, char **out)
{
    const char *path = t->s;
    size_t dl = path[0] == '/' ? 0 : strlen(p->dir), pl = strlen(path);
    char *r = malloc(dl + pl + 1);
    if (!r)
        return parse_oom(p, t->col);
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
            return parse_err(p, t->col, "%s", msg);
        }
    }
    *out = r;
    return 0;
}

/* The values of an on/off keyword (textures, depth_write), in parse_choose()'s order. */
const char *const parse_on_off[3] = { "on", "off", NULL };
