/* macros.c — an upper bound on the tokens a GLSL source expands to, before
 * glslang's preprocessor keeps them all: twenty-five lines of
 * "#define A1 (A0+A0)" ask for 2^25 tokens (23 s, 530 MB), thirty for 16 GB.
 * Fed by glsl.c, on its compile thread.
 *
 * Every macro gets a linear form: the tokens one expansion of it yields are
 * c0 + sum over its parameters of c[i] * (tokens argument i expands to),
 * since the preprocessor copies each argument once per use of its
 * parameter.  Forms compose through calls, so one pass over the bodies
 * (names memoized; a name inside its own expansion counts as one token, as
 * the preprocessor leaves it) and one over the text give the bound.  It ignores
 * #if (both arms count), #undef, and the order of definitions (a name counts
 * at its largest definition); a macro whose expansion ends in a function-like
 * macro's name takes the parentheses after it, as the preprocessor does.
 * Refused, since an argument or a cycle could hide any growth: a macro that
 * calls one of its own parameters, and macros that reach each other. */
#include "glsl/macros.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

#define MAX_CALL_DEPTH 256

typedef uint64_t count;  /* saturates at LIMIT */
#define LIMIT (GLSL_MAX_EXPANDED_TOKENS + 1)
static count sat_add(count a, count b) { return a + b > LIMIT ? LIMIT : a + b; }
static count sat_mul(count a, count b) { return a && b > LIMIT / a ? LIMIT : (a * b > LIMIT ? LIMIT : a * b); }

typedef struct token {
    const char *s;
    uint32_t len;
    int line;
    bool ident, bol;  /* bol: first token of a logical line */
} token;

/* A name's definitions (all of them, for the bound), and its form. */
typedef struct macro {
    const char *name;
    uint32_t len;
    int nparams;      /* the most of any function-like definition */
    bool function, object;
    int defs;         /* first in the chain of definitions (def_next) */
    int state;        /* 0 not computed, 1 being computed, 2 done */
    int tail;         /* a function-like macro its expansion may end in, or -1 */
    count *form;      /* c0, then c[nparams] */
} macro;

typedef struct def {
    int next;
    int body, body_end;   /* token range */
    int params, nparams;  /* token range of the parameter names; -1 = object-like */
    bool variadic;
} def;

typedef struct ctx {
    token *tok;
    int ntok;
    macro *mac;
    int nmac;
    def *defs;
    int ndefs;
    int *hash;  /* open addressing over mac, -1 empty */
    size_t hash_size;
    const char *file;
    const mos_allocator *alloc;  /* every block here */
    char *err;
    size_t err_size;
    bool failed;
    bool oom;   /* failed for want of memory */
} ctx;

static int fail(ctx *c, int line, const char *fmt, const char *name, uint32_t len)
{
    if (!c->failed) {
        char what[160];
        snprintf(what, sizeof what, fmt, (int)(len > 64 ? 64 : len), name);
        snprintf(c->err, c->err_size, "%s:%d: %s", c->file, line, what);
    }
    c->failed = true;
    return -1;
}

static bool is_id0(char ch) { return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }
static bool is_id(char ch) { return is_id0(ch) || (ch >= '0' && ch <= '9'); }

/* Splits SRC into tokens; comments and line continuations are white space. */
static int tokenize(ctx *c, const char *src)
{
    size_t cap = 1024;
    c->tok = util_alloc(c->alloc, cap * sizeof *c->tok);
    if (!c->tok) return -1;
    int line = 1;
    bool bol = true;
    for (const char *p = src; *p;) {
        if (*p == '\n') { line++, bol = true, p++; continue; }
        if (*p == '\\' && p[1] == '\n') { line++, p += 2; continue; }
        if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v') { p++; continue; }
        if (p[0] == '/' && p[1] == '/') { while (*p && *p != '\n') p++; continue; }
        if (p[0] == '/' && p[1] == '*') {
            for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++) line += *p == '\n';
            p += *p ? 2 : 0;
            continue;
        }
        if ((size_t)c->ntok == cap) {
            token *t = util_realloc(c->alloc, c->tok, cap * sizeof *t, 2 * cap * sizeof *t);
            if (!t) return -1;
            c->tok = t, cap *= 2;
        }
        token *t = &c->tok[c->ntok++];
        t->s = p, t->line = line, t->bol = bol, t->ident = is_id0(*p);
        bol = false;
        if (t->ident || (*p >= '0' && *p <= '9')) {
            while (is_id(*p) || *p == '.') p++;
        } else if (p[0] == '#' && p[1] == '#') {
            p += 2;
        } else {
            p++;
        }
        t->len = (uint32_t)(p - t->s);
    }
    return 0;
}

static bool tok_is(const token *t, const char *s) { return t->len == strlen(s) && memcmp(t->s, s, t->len) == 0; }

static size_t hash_of(const char *s, uint32_t len)
{
    size_t h = 1469598103934665603u;
    for (uint32_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

/* The macro named by token T, or -1 (create: add it). */
static int lookup(ctx *c, const token *t, bool create)
{
    size_t i = hash_of(t->s, t->len) & (c->hash_size - 1);
    for (; c->hash[i] >= 0; i = (i + 1) & (c->hash_size - 1)) {
        const macro *m = &c->mac[c->hash[i]];
        if (m->len == t->len && memcmp(m->name, t->s, t->len) == 0) return c->hash[i];
    }
    if (!create) return -1;
    if (c->nmac >= GLSL_MAX_MACROS) return fail(c, t->line, "more than " "65536" " macros (at %.*s)", t->s, t->len);
    c->hash[i] = c->nmac;
    c->mac[c->nmac] = (macro){ .name = t->s, .len = t->len, .defs = -1, .tail = -1 };
    return c->nmac++;
}

/* Records the #define whose name is token i; returns the index after the line. */
static int define(ctx *c, int i)
{
    int end = i + 1;
    while (end < c->ntok && !c->tok[end].bol) end++;
    if (!c->tok[i].ident) return end;
    const int m = lookup(c, &c->tok[i], true);
    if (m < 0) return end;
    def d = { .next = c->mac[m].defs, .params = -1, .nparams = 0 };
    int b = i + 1;
    /* Function-like when '(' follows the name with no space. */
    if (b < end && tok_is(&c->tok[b], "(") && c->tok[b].s == c->tok[i].s + c->tok[i].len) {
        d.params = ++b;
        while (b < end && !tok_is(&c->tok[b], ")")) {
            if (c->tok[b].ident) d.nparams++;
            if (tok_is(&c->tok[b], ".")) d.variadic = true;
            b++;
        }
        if (d.variadic) d.nparams++;
        b += b < end;
        c->mac[m].function = true;
        if (d.nparams > c->mac[m].nparams) c->mac[m].nparams = d.nparams;
    } else {
        c->mac[m].object = true;
    }
    d.body = b, d.body_end = end;
    c->defs[c->ndefs] = d;
    c->mac[m].defs = c->ndefs++;
    return end;
}

/* Parameter index of token T in definition D, or -1. */
static int param_of(const ctx *c, const def *d, const token *t)
{
    if (!d || d->params < 0 || !t->ident) return -1;
    int k = 0;
    for (int j = d->params; !tok_is(&c->tok[j], ")"); j++) {
        const token *p = &c->tok[j];
        if (p->ident) {
            if (p->len == t->len && memcmp(p->s, t->s, t->len) == 0) return k;
            k++;
        }
    }
    if (d->variadic && tok_is(t, "__VA_ARGS__")) return d->nparams - 1;
    return -1;
}

static int compute(ctx *c, int m, int depth);

static int out_of_memory(ctx *c)
{
    if (!c->failed) snprintf(c->err, c->err_size, "%s: out of memory", c->file);
    c->failed = c->oom = true;
    return -1;
}

/* Adds to OUT (1 + np counts: forms over definition D's parameters) what
 * tokens [i, end) expand to; returns 0 or -1. */
static int eval(ctx *c, int i, int end, int self, const def *d, int np, count *out, int depth)
{
    if (depth > MAX_CALL_DEPTH)
        return fail(c, c->tok[i < c->ntok ? i : c->ntok - 1].line, "macro calls nested more than 256 deep%.*s", "", 0);
    int last_line = 0;
    while (!c->failed) {
        /* In the text (depth 0), the line whose expansion crossed the limit. */
        if (depth == 0 && out[0] > GLSL_MAX_EXPANDED_TOKENS) {
            snprintf(c->err, c->err_size, "%s:%d: the macros expand the source past %llu tokens (Mosaic's GLSL limit)",
                     c->file, last_line, GLSL_MAX_EXPANDED_TOKENS);
            c->failed = true;
            break;
        }
        if (i >= end) break;
        const token *t = &c->tok[i];
        last_line = t->line;
        const int p = param_of(c, d, t);
        if (p >= 0) {
            if (i + 1 < end && tok_is(&c->tok[i + 1], "("))
                return fail(c, t->line, "a macro calls its parameter %.*s (an argument could name any macro; "
                            "Mosaic's GLSL size check does not take such macros)", t->s, t->len);
            out[1 + p] = sat_add(out[1 + p], 1);
            i++;
            continue;
        }
        const int m = t->ident ? lookup(c, t, false) : -1;
        if (m >= 0 && m != self && c->mac[m].state == 1)
            return fail(c, t->line, "macro %.*s is reached again through the macros it expands to (Mosaic's GLSL "
                        "size check does not take macros that refer to each other)", t->s, t->len);
        if (m < 0 || m == self) {  /* a plain token, or the name being expanded */
            out[0] = sat_add(out[0], 1);
            i++;
            continue;
        }
        if (compute(c, m, depth + 1) != 0) return -1;
        /* The name, then calls of its tail while '(' follows: each call
         * replaces the tail's name (one token) with its expansion. */
        const macro *mm = &c->mac[m];
        int callee = mm->function && i + 1 < end && tok_is(&c->tok[i + 1], "(") ? m : -1;
        count plain = mm->object ? mm->form[0] : 1;
        out[0] = sat_add(out[0], plain);  /* an object-like use, or the name alone */
        i++;
        int tail = mm->object ? mm->tail : -1;
        while (!c->failed) {
            if (callee < 0 && tail >= 0 && i < end && tok_is(&c->tok[i], "(")) callee = tail;
            if (callee < 0) break;
            /* The arguments: top-level commas split them. */
            const macro *f = &c->mac[callee];
            int close = i + 1, level = 1, nargs = 0, start = i + 1;
            count *args = util_calloc(c->alloc, (size_t)(f->nparams + 1) * (size_t)(1 + np), sizeof(count));
            if (!args) return out_of_memory(c);
            for (; close < end && level; close++) {
                if (tok_is(&c->tok[close], "(")) level++;
                else if (tok_is(&c->tok[close], ")")) level--;
                if ((level == 1 && tok_is(&c->tok[close], ",")) || level == 0) {
                    const int k = nargs < f->nparams ? nargs : f->nparams;  /* extra: the variadic one */
                    if (eval(c, start, close, self, d, np, args + (size_t)k * (size_t)(1 + np), depth + 1) != 0) {
                        util_free(c->alloc, args);
                        return -1;
                    }
                    nargs++, start = close + 1;
                }
            }
            count *a = args;
            out[0] = sat_add(out[0], f->form[0]);
            for (int k = 0; k <= f->nparams; k++, a += 1 + np) {
                const count mult = k < f->nparams ? f->form[1 + k] : 1;  /* extras: as text */
                for (int j = 0; j <= np; j++) out[j] = sat_add(out[j], sat_mul(mult, a[j]));
            }
            util_free(c->alloc, args);
            i = close;
            callee = -1;
            tail = f->tail;
        }
    }
    return c->failed ? -1 : 0;
}

/* The form of macro M (the largest over its definitions), and its tail. */
static int compute(ctx *c, int m, int depth)
{
    macro *mm = &c->mac[m];
    if (mm->state) return 0;
    mm->state = 1;
    mm->form = util_calloc(c->alloc, (size_t)mm->nparams + 1, sizeof(count));
    count *f = util_calloc(c->alloc, (size_t)mm->nparams + 1, sizeof(count));
    if (!mm->form || !f) {
        util_free(c->alloc, f);
        return out_of_memory(c);
    }
    for (int k = mm->defs; k >= 0; k = c->defs[k].next) {
        const def *d = &c->defs[k];
        memset(f, 0, ((size_t)mm->nparams + 1) * sizeof(count));
        if (eval(c, d->body, d->body_end, m, d, mm->nparams, f, depth) != 0) {
            util_free(c->alloc, f);
            return -1;
        }
        for (int j = 0; j <= mm->nparams; j++) mm->form[j] = f[j] > mm->form[j] ? f[j] : mm->form[j];
        if (d->body_end > d->body) {
            const int last = lookup(c, &c->tok[d->body_end - 1], false);
            if (last >= 0 && last != m) {
                if (c->mac[last].function) mm->tail = last;
                else if (c->mac[last].state == 2 && c->mac[last].tail >= 0) mm->tail = c->mac[last].tail;
            }
        }
    }
    util_free(c->alloc, f);
    mm->state = 2;
    return 0;
}

mos_result glsl_check_macros(const char *src, const char *file, const mos_allocator *alloc, char *err,
                             size_t err_size)
{
    ctx c = { .file = file, .alloc = alloc, .err = err, .err_size = err_size };
    if (tokenize(&c, src) != 0) out_of_memory(&c);
    /* The definitions first: a name counts at its largest wherever it is used. */
    size_t ndirectives = 0;
    for (int i = 0; i < c.ntok; i++) ndirectives += c.tok[i].bol && tok_is(&c.tok[i], "#");
    c.hash_size = 64;
    while (c.hash_size < 2 * (ndirectives < GLSL_MAX_MACROS ? ndirectives : GLSL_MAX_MACROS) + 2) c.hash_size *= 2;
    if (!c.failed) {
        c.hash = util_alloc(alloc, c.hash_size * sizeof *c.hash);
        c.mac = util_calloc(alloc, ndirectives + 1, sizeof *c.mac);
        c.defs = util_calloc(alloc, ndirectives + 1, sizeof *c.defs);
        if (!c.hash || !c.mac || !c.defs) out_of_memory(&c);
        else memset(c.hash, 0xff, c.hash_size * sizeof *c.hash);
    }
    for (int i = 0; i < c.ntok && !c.failed;) {
        if (c.tok[i].bol && tok_is(&c.tok[i], "#") && i + 2 < c.ntok && !c.tok[i + 1].bol &&
            tok_is(&c.tok[i + 1], "define") && !c.tok[i + 2].bol)
            i = define(&c, i + 2);
        else
            i++;
    }
    /* Then the text and the #if / #elif conditions, each line on its own
     * (other directives expand nothing). */
    count total[1] = {0};
    for (int i = 0; i < c.ntok && !c.failed;) {
        int end = i + 1;
        while (end < c.ntok && !c.tok[end].bol) end++;
        int from = i;
        if (tok_is(&c.tok[i], "#")) {
            from = end;
            if (i + 1 < end && (tok_is(&c.tok[i + 1], "if") || tok_is(&c.tok[i + 1], "elif"))) from = i + 2;
        } else {  /* text runs on to the next directive: a call may span lines */
            while (end < c.ntok && !tok_is(&c.tok[end], "#")) {
                end++;
                while (end < c.ntok && !c.tok[end].bol) end++;
            }
        }
        if (from < end && eval(&c, from, end, -1, NULL, 0, total, 0) != 0) break;
        i = end;
    }
    for (int m = 0; m < c.nmac; m++) util_free(alloc, c.mac[m].form);
    util_free(alloc, c.mac);
    util_free(alloc, c.defs);
    util_free(alloc, c.hash);
    util_free(alloc, c.tok);
    return c.oom ? MOS_ERR_OUT_OF_MEMORY : c.failed ? MOS_ERR_SHADER : MOS_OK;
}
