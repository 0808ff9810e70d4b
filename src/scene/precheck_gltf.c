/* precheck_gltf.c — what assimp would trust in a glTF document, checked before it reads it: assimp and
 * its JSON parser recurse once per level, so the JSON's nesting and the node hierarchy's depth are held
 * to SCENE_MAX_JSON_DEPTH and SCENE_MAX_NODE_DEPTH (children by index in glTF 2, by id in glTF 1).
 * Fed by precheck.c with the JSON text of a .gltf file or of a .glb's JSON chunk. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_priv.h"

typedef struct json {
    const char *c, *end;
} json;

static void ws(json *j)
{
    while (j->c < j->end && (*j->c == ' ' || *j->c == '\t' || *j->c == '\r' || *j->c == '\n'))
        j->c++;
}

/* Past a string at j->c (the opening quote); false if unterminated. */
static bool skip_string(json *j)
{
    for (j->c++; j->c < j->end; j->c++) {
        if (*j->c == '\\')
            j->c++;
        else if (*j->c == '"') {
            j->c++;
            return true;
        }
    }
    return false;
}

/* Nesting depth of the whole text (strings skipped): the deepest level. */
static int json_max_depth(const char *c, const char *end)
{
    json j = { c, end };
    int d = 0, max = 0;
    while (j.c < j.end) {
        char ch = *j.c;
        if (ch == '"') {
            if (!skip_string(&j))
                break;
            continue;
        }
        if (ch == '[' || ch == '{')
            max = ++d > max ? d : max;
        else if ((ch == ']' || ch == '}') && d > 0)
            d--;
        j.c++;
    }
    return max;
}

/* Skips one value (the text's depth is bounded, so recursion is too); false when malformed. */
static bool skip_value(json *j)
{
    ws(j);
    if (j->c >= j->end)
        return false;
    if (*j->c == '"')
        return skip_string(j);
    if (*j->c == '[' || *j->c == '{') {
        const char close = *j->c == '[' ? ']' : '}';
        j->c++;
        ws(j);
        if (j->c < j->end && *j->c == close) {
            j->c++;
            return true;
        }
        for (;;) {
            if (close == '}') {
                ws(j);
                if (j->c >= j->end || *j->c != '"' || !skip_string(j))
                    return false;
                ws(j);
                if (j->c >= j->end || *j->c++ != ':')
                    return false;
            }
            if (!skip_value(j))
                return false;
            ws(j);
            if (j->c >= j->end)
                return false;
            if (*j->c == close) {
                j->c++;
                return true;
            }
            if (*j->c++ != ',')
                return false;
        }
    }
    while (j->c < j->end && !strchr(",]} \t\r\n", *j->c))
        j->c++;
    return true;
}

/* The key at j->c (a string), its text in [*k, *k + *n); j->c is then at its value. */
static bool key(json *j, const char **k, size_t *n)
{
    ws(j);
    if (j->c >= j->end || *j->c != '"')
        return false;
    *k = j->c + 1;
    if (!skip_string(j))
        return false;
    *n = (size_t)(j->c - 1 - *k);
    ws(j);
    if (j->c >= j->end || *j->c++ != ':')
        return false;
    ws(j);
    return true;
}

typedef struct name_ref {
    const char *s;  /* inside the JSON text, without the quotes (escapes left as written) */
    uint32_t len, idx;
} name_ref;

typedef struct node_graph {
    uint32_t *first;    /* per node: its children in kids[first[i], first[i + 1]) */
    uint32_t *kids;     /* node indices; UINT32_MAX: not a node (or named by kid_names, glTF 1) */
    name_ref *kid_names;  /* per edge, glTF 1: the child's id (s NULL for an index) */
    name_ref *ids;        /* per node, glTF 1: its id (the key in "nodes") */
    size_t nodes, edges, cap;
} node_graph;

static bool push_kid(node_graph *g, uint32_t k, const char *name, size_t len)
{
    if (g->edges == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 64;
        uint32_t *p = realloc(g->kids, cap * sizeof *p);
        if (!p)
            return false;
        g->kids = p;
        name_ref *q = realloc(g->kid_names, cap * sizeof *q);
        if (!q)
            return false;
        g->kid_names = q;
        g->cap = cap;
    }
    g->kid_names[g->edges] = (name_ref){ name, (uint32_t)(len < UINT32_MAX ? len : UINT32_MAX), 0 };
    g->kids[g->edges++] = k;
    return true;
}

/* Starts node number g->nodes (glTF 1: named ID). */
static bool push_node(node_graph *g, const char *id, size_t len)
{
    if (g->nodes % 1024 == 0) {
        uint32_t *f = realloc(g->first, (g->nodes + 1025) * sizeof *f);
        if (!f)
            return false;
        g->first = f;
        name_ref *n = realloc(g->ids, (g->nodes + 1025) * sizeof *n);
        if (!n)
            return false;
        g->ids = n;
    }
    if (g->nodes >= UINT32_MAX - 1 || g->edges >= UINT32_MAX)
        return false;
    g->ids[g->nodes] = (name_ref){ id, (uint32_t)(len < UINT32_MAX ? len : UINT32_MAX), (uint32_t)g->nodes };
    g->first[g->nodes++] = (uint32_t)g->edges;
    return true;
}

/* Expects CH at j->c (after blanks), and steps past it. */
static bool expect(json *j, char ch)
{
    ws(j);
    if (j->c >= j->end || *j->c != ch)
        return false;
    j->c++;
    return true;
}

/* After a member or element: ',' (true, *more) or CLOSE (true, !*more). */
static bool next_item(json *j, char close, bool *more)
{
    ws(j);
    if (j->c >= j->end)
        return false;
    *more = *j->c == ',';
    if (*j->c != ',' && *j->c != close)
        return false;
    j->c++;
    return true;
}

/* One node's object: its "children" (indices, or glTF 1 ids) appended to G.  0, -1, -2. */
static int read_node(json *j, node_graph *g)
{
    ws(j);
    if (j->c >= j->end || *j->c != '{')
        return skip_value(j) ? 0 : -1;
    j->c++;
    ws(j);
    if (j->c < j->end && *j->c == '}') {
        j->c++;
        return 0;
    }
    for (bool more = true; more;) {
        const char *k;
        size_t n;
        if (!key(j, &k, &n))
            return -1;
        if (n == 8 && !memcmp(k, "children", 8) && j->c < j->end && *j->c == '[') {
            j->c++;
            ws(j);
            if (j->c < j->end && *j->c == ']')
                j->c++;
            else
                for (bool kmore = true; kmore;) {
                    ws(j);
                    if (j->c < j->end && *j->c == '"') {
                        const char *name = j->c + 1;
                        if (!skip_string(j))
                            return -1;
                        if (!push_kid(g, UINT32_MAX, name, (size_t)(j->c - 1 - name)))
                            return -2;
                    } else {
                        char *e;
                        unsigned long long v = strtoull(j->c, &e, 10);
                        if (e == j->c || *j->c == '-')
                            return -1;
                        j->c = e;
                        if (!push_kid(g, v < UINT32_MAX ? (uint32_t)v : UINT32_MAX, NULL, 0))
                            return -2;
                    }
                    if (!next_item(j, ']', &kmore))
                        return -1;
                }
        } else if (!skip_value(j)) {
            return -1;
        }
        if (!next_item(j, '}', &more))
            return -1;
    }
    return 0;
}

static int by_name(const void *a, const void *b)
{
    const name_ref *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->s, y->s, n);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Reads the top-level "nodes" of glTF 2 (an array; children: indices) or glTF 1 (an object keyed by
 * id; children: ids) into G.  0, -1 malformed (left to assimp), -2 out of memory. */
static int read_nodes(json *j, node_graph *g)
{
    if (!expect(j, '{'))
        return -1;
    ws(j);
    if (j->c < j->end && *j->c == '}')
        return 0;
    bool named = false;
    for (bool more = true; more;) {
        const char *k;
        size_t n;
        if (!key(j, &k, &n))
            return -1;
        const bool nodes = n == 5 && !memcmp(k, "nodes", 5) && j->c < j->end && (*j->c == '[' || *j->c == '{');
        if (nodes) {
            const char close = *j->c == '[' ? ']' : '}';
            named = close == '}';
            j->c++;
            ws(j);
            if (j->c < j->end && *j->c == close)
                j->c++;
            else
                for (bool nmore = true; nmore;) {
                    const char *id = NULL;
                    size_t idn = 0;
                    if (named && !key(j, &id, &idn))
                        return -1;
                    if (!push_node(g, id, idn))
                        return -2;
                    int rc = read_node(j, g);
                    if (rc)
                        return rc;
                    if (!next_item(j, close, &nmore))
                        return -1;
                }
        } else if (!skip_value(j)) {
            return -1;
        }
        if (!next_item(j, '}', &more))
            return -1;
    }
    if (named && g->nodes) {
        /* glTF 1: children by id, resolved through the sorted ids */
        qsort(g->ids, g->nodes, sizeof *g->ids, by_name);
        for (size_t e = 0; e < g->edges; e++) {
            if (!g->kid_names[e].s)
                continue;
            const name_ref *hit = bsearch(&g->kid_names[e], g->ids, g->nodes, sizeof *g->ids, by_name);
            g->kids[e] = hit ? hit->idx : UINT32_MAX;
        }
    }
    return 0;
}

/* The longest chain of nodes downwards from any node (cycles cut), iteratively. */
static mos_result node_depth(const node_graph *g, uint64_t *out)
{
    const size_t n = g->nodes;
    uint32_t *height = calloc(n + 1, sizeof *height);  /* 0 = not done */
    uint8_t *state = calloc(n + 1, 1);                  /* 1 on the path, 2 done */
    uint32_t *stack = malloc((n + 1) * sizeof *stack), *next = malloc((n + 1) * sizeof *next);
    mos_result r = height && state && stack && next ? MOS_OK : MOS_ERR_OUT_OF_MEMORY;
    uint64_t best = 0;
    for (size_t root = 0; r == MOS_OK && root < n; root++) {
        if (state[root])
            continue;
        size_t sp = 0;
        stack[sp] = (uint32_t)root;
        next[sp++] = g->first[root];
        state[root] = 1;
        while (sp) {
            const uint32_t v = stack[sp - 1];
            const uint32_t last = v + 1 < n ? g->first[v + 1] : (uint32_t)g->edges;
            if (next[sp - 1] < last) {
                const uint32_t k = g->kids[next[sp - 1]++];
                if (k < n && !state[k]) {
                    state[k] = 1;
                    stack[sp] = k;
                    next[sp++] = g->first[k];
                }
                continue;
            }
            uint32_t h = 0;
            for (uint32_t e = g->first[v]; e < last; e++) {
                const uint32_t k = g->kids[e];
                if (k < n && state[k] == 2 && height[k] > h)
                    h = height[k];
            }
            height[v] = h + 1;
            state[v] = 2;
            best = height[v] > best ? height[v] : best;
            sp--;
        }
    }
    free(height);
    free(state);
    free(stack);
    free(next);
    *out = best;
    return r;
}

/* The JSON text of a glTF file (TEXT, N bytes; for GLB its JSON chunk): nesting and node hierarchy depth. */
mos_result scene_gltf_precheck(const char *text, size_t n, const char *path, char *err, size_t err_size)
{
    const int depth = json_max_depth(text, text + n);
    if (depth > SCENE_MAX_JSON_DEPTH) {
        snprintf(err, err_size, "'%s': JSON nested %d levels deep; at most %d are read", path, depth,
                 SCENE_MAX_JSON_DEPTH);
        return MOS_ERR_PARSE;
    }
    json j = { text, text + n };
    node_graph g = { 0 };
    int rc = read_nodes(&j, &g);
    mos_result r = rc == -2 ? MOS_ERR_OUT_OF_MEMORY : MOS_OK;
    uint64_t levels = 0;
    if (r == MOS_OK && g.nodes)
        r = node_depth(&g, &levels);
    free(g.first);
    free(g.kids);
    free(g.kid_names);
    free(g.ids);
    if (r == MOS_ERR_OUT_OF_MEMORY) {
        snprintf(err, err_size, "out of memory reading '%s'", path);
    } else if (levels > SCENE_MAX_NODE_DEPTH) {
        snprintf(err, err_size, "'%s': glTF node hierarchy is %llu levels deep; at most %d are allowed", path,
                 (unsigned long long)levels, SCENE_MAX_NODE_DEPTH);
        r = MOS_ERR_PARSE;
    }
    return r;
}
