/* ir.c — building the shader DAG: constant folding and hash-consing (CSE) on
 * every ir_add, dead-code removal in ir_finish, the one scalar definition of
 * each operation (ir_eval), and the text and Graphviz listings.
 * Fed by spirv.c; the finished DAG goes to partition.c and vm.c. */
#include "shader/ir.h"

#include <math.h>
#include <string.h>

#include "util/alloc.h"

static const struct {
    const char *name;
    int arity;
    char kind;
} op_info[IR_OP_COUNT] = {
#define IR_X_INFO(name, n, kind) { #name, n, #kind[0] },
    IR_OPS(IR_X_INFO)
#undef IR_X_INFO
};

const char *ir_op_name(ir_op op) { return (unsigned)op < IR_OP_COUNT ? op_info[op].name : "?"; }
int ir_op_arity(ir_op op) { return (unsigned)op < IR_OP_COUNT ? op_info[op].arity : 0; }
int ir_is_leaf(ir_op op) { return (unsigned)op < IR_OP_COUNT && op_info[op].kind == 'L'; }

void ir_init(ir_dag *d, ir_stage stage)
{
    memset(d, 0, sizeof *d);
    d->stage = stage;
    d->root = -1;
}

void ir_free(ir_dag *d)
{
    const mos_allocator *a = d->alloc;
    util_free(a, d->node);
    util_free(a, d->out);
    util_free(a, d->table);
    ir_init(d, d->stage);
    d->alloc = a;
}

/* ---- one lane of each operation ---------------------------------------------- */

float ir_eval(ir_op op, float a, float b, float c)
{
    switch (op) {
    case IR_NEG: return -a;
    case IR_ABS: return fabsf(a);
    case IR_SIGN: return a > 0.0f ? 1.0f : a < 0.0f ? -1.0f : 0.0f;
    case IR_FLOOR: return floorf(a);
    case IR_CEIL: return ceilf(a);
    case IR_TRUNC: return truncf(a);
    case IR_ROUND: return nearbyintf(a);  /* roundEven: the default rounding mode */
    case IR_FRACT: return a - floorf(a);
    case IR_SQRT: return sqrtf(a);
    case IR_RSQRT: return 1.0f / sqrtf(a);
    case IR_EXP: return expf(a);
    case IR_EXP2: return exp2f(a);
    case IR_LOG: return logf(a);
    case IR_LOG2: return log2f(a);
    case IR_SIN: return sinf(a);
    case IR_COS: return cosf(a);
    case IR_TAN: return tanf(a);
    case IR_ASIN: return asinf(a);
    case IR_ACOS: return acosf(a);
    case IR_ATAN: return atanf(a);
    case IR_NOT: return a == 0.0f ? 1.0f : 0.0f;
    case IR_ADD: return a + b;
    case IR_SUB: return a - b;
    case IR_MUL: return a * b;
    case IR_DIV: return a / b;
    case IR_MOD: return a - b * floorf(a / b);
    case IR_MIN: return b < a ? b : a;  /* GLSL min: y < x ? y : x */
    case IR_MAX: return a < b ? b : a;  /* GLSL max: x < y ? y : x */
    case IR_POW: return powf(a, b);
    case IR_ATAN2: return atan2f(a, b);
    case IR_STEP: return b < a ? 0.0f : 1.0f;
    case IR_LT: return a < b ? 1.0f : 0.0f;
    case IR_LE: return a <= b ? 1.0f : 0.0f;
    case IR_EQ: return a == b ? 1.0f : 0.0f;
    case IR_NE: return a != b ? 1.0f : 0.0f;
    case IR_AND: return a != 0.0f && b != 0.0f ? 1.0f : 0.0f;
    case IR_OR: return a != 0.0f || b != 0.0f ? 1.0f : 0.0f;
    case IR_IDIV: return b != 0.0f ? truncf(a / b) : 0.0f;
    case IR_IMOD: return b != 0.0f ? fmodf(a, b) : 0.0f;
    case IR_SELECT: return a != 0.0f ? b : c;
    default: return 0.0f;  /* leaves, DDX/DDY, TEX, ROOT: not lane-local */
    }
}

/* ---- hash-consing ------------------------------------------------------------- */

static uint32_t node_hash(const ir_node *n)
{
    uint32_t h = 2166136261u;
    const uint32_t w[6] = { n->op | (uint32_t)n->nargs << 8 | (uint32_t)n->aux << 16, (uint32_t)n->arg[0],
                            (uint32_t)n->arg[1], (uint32_t)n->arg[2], (uint32_t)n->v.index, 0 };
    for (int i = 0; i < 5; i++)
        h = (h ^ w[i]) * 16777619u;
    return h ^ h >> 15;
}

static int node_equal(const ir_node *a, const ir_node *b)
{
    return a->op == b->op && a->nargs == b->nargs && a->aux == b->aux && a->arg[0] == b->arg[0] &&
           a->arg[1] == b->arg[1] && a->arg[2] == b->arg[2] && a->v.index == b->v.index;
}

/* Rebuilds the table for the current nodes, at least twice their count. */
static int table_rebuild(ir_dag *d, int cap)
{
    uint32_t *t = util_calloc(d->alloc, (size_t)cap, sizeof *t);
    if (!t)
        return -1;
    util_free(d->alloc, d->table);
    d->table = t;
    d->table_cap = cap;
    for (int i = 0; i < d->count; i++) {
        uint32_t s = node_hash(&d->node[i]) & (uint32_t)(cap - 1);
        while (t[s])
            s = (s + 1) & (uint32_t)(cap - 1);
        t[s] = (uint32_t)i + 1;
    }
    return 0;
}

static int intern(ir_dag *d, const ir_node *n)
{
    if (d->failed)
        return -1;
    if (2 * (d->count + 1) > d->table_cap) {
        int cap = d->table_cap ? 2 * d->table_cap : 256;
        while (cap < 2 * (d->count + 1))
            cap *= 2;
        if (table_rebuild(d, cap) < 0)
            goto oom;
    }
    const uint32_t mask = (uint32_t)(d->table_cap - 1);
    uint32_t s = node_hash(n) & mask;
    for (; d->table[s]; s = (s + 1) & mask)
        if (node_equal(&d->node[d->table[s] - 1], n))
            return (int)d->table[s] - 1;
    if (d->count == d->cap) {
        const int cap = d->cap ? 2 * d->cap : 256;
        ir_node *g = util_realloc(d->alloc, d->node, (size_t)d->count * sizeof *g, (size_t)cap * sizeof *g);
        if (!g)
            goto oom;
        d->node = g;
        d->cap = cap;
    }
    d->node[d->count] = *n;
    d->node[d->count].group = d->group_now;
    d->table[s] = (uint32_t)d->count + 1;
    return d->count++;
oom:
    d->failed = 1;
    return -1;
}

/* ---- adding nodes ------------------------------------------------------------- */

int ir_const(ir_dag *d, float value)
{
    ir_node n = { .op = IR_CONST };
    n.v.imm = value;
    return intern(d, &n);
}

int ir_leaf(ir_dag *d, ir_op op, int32_t index, int aux)
{
    ir_node n = { .op = (uint8_t)op, .aux = (uint16_t)aux };
    n.v.index = index;
    return intern(d, &n);
}

int ir_tex(ir_dag *d, int unit, int component, int u, int v)
{
    if (u < 0 || v < 0)
        return -1;
    ir_node n = { .op = IR_TEX, .nargs = 2, .aux = (uint16_t)component, .arg = { u, v, 0 } };
    n.v.index = unit;
    return intern(d, &n);
}

static int is_const(const ir_dag *d, int id, float *value)
{
    if (d->node[id].op != IR_CONST)
        return 0;
    if (value)
        *value = d->node[id].v.imm;
    return 1;
}

static int is_const_value(const ir_dag *d, int id, float value)
{
    float c;
    return is_const(d, id, &c) && c == value && signbit(c) == signbit(value);
}

static int commutes(ir_op op)
{
    /* not MIN/MAX: GLSL's y < x ? y : x differs from x < y ? x : y for NaN and signed zeros */
    return op == IR_ADD || op == IR_MUL || op == IR_EQ || op == IR_NE || op == IR_AND || op == IR_OR;
}

/* Rewrites that keep every lane's bits: x + (-0) = x, x - 0 = x, x * 1 = x,
 * x / 1 = x, selects on a constant or between equal values.  (x * 0 is not
 * folded: it is NaN for an infinite x.) */
static int simplify(ir_dag *d, ir_op op, int a, int b, int c)
{
    switch (op) {
    case IR_ADD:
        if (is_const_value(d, b, -0.0f)) return a;
        if (is_const_value(d, a, -0.0f)) return b;
        return -1;
    case IR_SUB: return is_const_value(d, b, 0.0f) ? a : -1;
    case IR_MUL:
        if (is_const_value(d, b, 1.0f)) return a;
        if (is_const_value(d, a, 1.0f)) return b;
        return -1;
    case IR_DIV: return is_const_value(d, b, 1.0f) ? a : -1;
    case IR_SELECT: {
        float k;
        if (b == c) return b;
        if (is_const(d, a, &k)) return k != 0.0f ? b : c;
        return -1;
    }
    default: return -1;
    }
}

int ir_add(ir_dag *d, ir_op op, int a, int b, int c)
{
    const int n_args = ir_op_arity(op);
    if (d->failed || (unsigned)op >= IR_OP_COUNT || op_info[op].kind != 'A')
        return -1;
    const int args[3] = { a, b, c };
    for (int i = 0; i < n_args; i++)
        if (args[i] < 0 || args[i] >= d->count)
            return -1;
    /* Constant folding: every operand known.  DDX/DDY of a constant is 0. */
    int all_const = 1;
    float k[3] = { 0, 0, 0 };
    for (int i = 0; i < n_args; i++)
        all_const &= is_const(d, args[i], &k[i]);
    if (all_const)
        return ir_const(d, op == IR_DDX || op == IR_DDY ? 0.0f : ir_eval(op, k[0], k[1], k[2]));
    const int s = simplify(d, op, a, b, c);
    if (s >= 0)
        return s;
    if (commutes(op) && b < a) {
        const int t = a;
        a = b;
        b = t;
    }
    ir_node n = { .op = (uint8_t)op, .nargs = (uint8_t)n_args };
    n.arg[0] = n_args > 0 ? a : 0;
    n.arg[1] = n_args > 1 ? b : 0;
    n.arg[2] = n_args > 2 ? c : 0;
    return intern(d, &n);
}

int ir_args(const ir_dag *d, int n, const int **args)
{
    if (d->node[n].op == IR_ROOT) {
        *args = d->out;
        return d->out_count;
    }
    *args = d->node[n].arg;
    return d->node[n].nargs;
}

/* ---- finishing: outputs, ROOT, dead code ------------------------------------- */

int ir_finish(ir_dag *d, const int *outputs, int count)
{
    if (d->failed)
        return -1;
    for (int i = 0; i < count; i++)
        if (outputs[i] < 0 || outputs[i] >= d->count)
            return -1;
    int *out = util_alloc(d->alloc, (size_t)(count > 0 ? count : 1) * sizeof *out);
    uint8_t *live = util_calloc(d->alloc, (size_t)d->count + 1, 1);
    int *renum = util_alloc(d->alloc, ((size_t)d->count + 1) * sizeof *renum);
    if (!out || !live || !renum) {
        util_free(d->alloc, out);
        util_free(d->alloc, live);
        util_free(d->alloc, renum);
        d->failed = 1;
        return -1;
    }
    for (int i = 0; i < count; i++)
        live[outputs[i]] = 1;
    for (int i = d->count - 1; i >= 0; i--)
        if (live[i])
            for (int j = 0; j < d->node[i].nargs; j++)
                live[d->node[i].arg[j]] = 1;
    int kept = 0;
    d->input_count = 0;
    for (int i = 0; i < d->count; i++) {
        if (!live[i])
            continue;
        ir_node n = d->node[i];
        for (int j = 0; j < n.nargs; j++)
            n.arg[j] = renum[n.arg[j]];
        if (n.op == IR_INPUT && n.v.index + 1 > d->input_count)
            d->input_count = n.v.index + 1;
        renum[i] = kept;
        d->node[kept++] = n;
    }
    for (int i = 0; i < count; i++)
        out[i] = renum[outputs[i]];
    util_free(d->alloc, live);
    util_free(d->alloc, renum);
    util_free(d->alloc, d->out);
    d->out = out;
    d->out_count = count;
    d->count = kept;
    d->root = -1;
    const ir_node root = { .op = IR_ROOT };
    d->table_cap = 0;  /* ids changed: the table is rebuilt by the next intern */
    util_free(d->alloc, d->table);
    d->table = NULL;
    d->root = intern(d, &root);
    return d->root < 0 ? -1 : 0;
}

/* ---- listings ----------------------------------------------------------------- */

static void node_label(const ir_node *n, char *buf, size_t size)
{
    switch ((ir_op)n->op) {
    case IR_CONST: snprintf(buf, size, "%.9g", (double)n->v.imm); break;
    case IR_UNIFORM: snprintf(buf, size, "uniform[%d]%s", n->v.index, n->aux == IR_U_INT ? ":int" : n->aux == IR_U_UINT ? ":uint" : ""); break;
    case IR_INPUT: snprintf(buf, size, "input[%d]", n->v.index); break;
    case IR_FRAGCOORD: snprintf(buf, size, "fragcoord.%c", "xyzw"[n->v.index & 3]); break;
    case IR_TEX: snprintf(buf, size, "tex%d.%c", n->v.index, "rgba"[n->aux & 3]); break;
    default: snprintf(buf, size, "%s", ir_op_name((ir_op)n->op)); break;
    }
}

int ir_print(const ir_dag *d, FILE *f)
{
    for (int i = 0; i < d->count; i++) {
        char label[64];
        node_label(&d->node[i], label, sizeof label);
        fprintf(f, "%5d  %-16s", i, label);
        const int *args;
        const int n = ir_args(d, i, &args);
        for (int j = 0; j < n; j++)
            fprintf(f, " %%%d", args[j]);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

/* The seed's Figure 5 shapes: texture fetches diamonds, inputs triangles,
 * constants and uniforms squares, operations circles; a pass's nodes share a
 * colour when pass_of_node is given. */
int ir_dot(const ir_dag *d, FILE *f, const int *pass_of_node)
{
    static const char *const colours[] = { "#a6cee3", "#b2df8a", "#fb9a99", "#fdbf6f", "#cab2d6",
                                           "#ffff99", "#1f78b4", "#33a02c", "#e31a1c", "#ff7f00" };
    fprintf(f, "digraph shader {\n  rankdir=BT;\n  node [fontsize=10, style=filled, fillcolor=white];\n");
    for (int i = 0; i < d->count; i++) {
        const ir_node *n = &d->node[i];
        char label[64];
        node_label(n, label, sizeof label);
        const char *shape = n->op == IR_TEX ? "diamond"
                            : n->op == IR_INPUT || n->op == IR_FRAGCOORD ? "triangle"
                            : n->op == IR_CONST || n->op == IR_UNIFORM ? "box"
                            : n->op == IR_ROOT ? "doublecircle" : "circle";
        const int pass = pass_of_node ? pass_of_node[i] : -1;
        fprintf(f, "  n%d [label=\"%s\", shape=%s", i, label, shape);
        if (pass >= 0)
            fprintf(f, ", fillcolor=\"%s\"", colours[pass % 10]);
        fprintf(f, "];\n");
        const int *args;
        const int na = ir_args(d, i, &args);
        for (int j = 0; j < na; j++)
            fprintf(f, "  n%d -> n%d;\n", args[j], i);
    }
    fprintf(f, "}\n");
    return ferror(f) ? -1 : 0;
}
