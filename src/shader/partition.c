/* partition.c — splitting a shader DAG into passes (seed 003, sections 3-4):
 * the dominator tree and its partial form (PDT), Subdivide with greedy
 * bottom-up merging (RDSh), the search over save/recompute decisions around
 * it (RDS), the exhaustive optimum by branch and bound, and the plan: the
 * passes in a runnable order, their resources, scratch slots by colouring.
 * Fed by the finished DAG of ir.c; read by vm.c and the `mosaic shader` tool.
 *
 * Definitions partition.h leaves open, chosen here:
 *   - A restore is a register from just before the first node of the pass
 *     that reads it to its last use (not from the start of the pass).
 *   - ROOT's reading of the outputs is no use: an output is written out as it
 *     is computed, so it lives only to its last use by another node of the
 *     pass, and outputs the ROOT pass only reads back are copied out one at
 *     a time (one register between them).  Else a fragment shader with 5
 *     outputs could never fit 4 registers, nor a vertex shader's varyings
 *     any limit.
 *   - The components of one fetch (TEX nodes of a unit at the same (u, v))
 *     are all defined at the first of them in the pass.
 *   - MERGE ties (neither candidate uses fewer resources) keep the candidate
 *     seen first: subsets of one size are tried in increasing bit order, bit
 *     i for the i-th distinct unmarked operand.  A node with more than
 *     MERGE_EXHAUSTIVE such kids (only ROOT) leaves out one more at a time.
 *   - RDS returns the cheapest partition among those its search evaluated,
 *     starting with RDSh's (all decisions by RECOMPUTE), so it never costs
 *     more than RDSh; the seed's Search keeps the last one.
 *   - After the seed's one sweep of Search, RDS sweeps the MR nodes again
 *     (same order, at most RDS_SWEEPS sweeps in all), flipping a fixed
 *     decision where that alone is strictly cheaper, until a sweep flips
 *     none.  The seed's sweep decides each MR node with the MR nodes after
 *     it left to RECOMPUTE, so the interdependence 3.5 describes is searched
 *     one way only: on bmbp PC2 (vector view) recomputing MR node 31 lost
 *     to saving it (181 to 156) because RECOMPUTE then saved MR node 34,
 *     which reads 31 and which its own turn, with 31 saved, recomputes;
 *     both recomputed give 136 in 3 passes, the optimum, which one more
 *     sweep finds.  The first sweep is the seed's and the cheapest
 *     partition is kept, so the sweeps never make RDS cost more.
 *   - Save/recompute decisions (RECOMPUTE's or RDS's fixed ones) say what
 *     Subdivide marks; greedy merging still marks a node to be recomputed
 *     when no merge of it fits its user's pass.
 *   - When marking a shared kid breaks a pass merged earlier (a restore can
 *     need a texture unit the computed kid did not), a repair step re-merges
 *     every marked node's subregion that no longer fits until all fit. */
#include "shader/partition.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/alloc.h"

/* What a node is to a pass. */
enum { K_FREE = 0, K_INTERP, K_ARITH, K_TEX, K_ROOT };

enum {
    MERGE_EXHAUSTIVE = 5, /* kids up to this many: every subset (3.2); more (ROOT): one at a time */
    MAX_NODES = 1 << 26,  /* event values 4 * index must fit an int */
    CLOCK_EVERY = 256,    /* branch-and-bound steps between reads of the clock */
    CLOCK_TICKS = 16,     /* out_of_time calls (each after a subregion's evaluation or more) between reads */
    FALLBACK_GRACE_PCT = 150, /* RDSh's Subdivide (and the context) may run to this % of the time limit */
    EV_BIAS = 4,          /* sub_eval's event values start at -1 (a restore read before node 0) */
    RDS_SWEEPS = 8,       /* RDS: the seed's sweep over the MR nodes and at most 7 more */
    MEMO_SLOTS0 = 1 << 12, /* branch and bound: the memo's first size, in slots */
    MEMO_PROBES = 8,      /* slots a memo key may lie in */
};
/* The memo grows to at most this.  rbp PC2 fills it; twice as much saved
 * 2% of that search's time (73 s -> 72 s, in an earlier order). */
#define MEMO_BYTES ((size_t)32 << 20)

typedef struct pctx {
    const ir_dag *d;
    int n, root;
    part_limits lim;
    part_costs cost;
    /* the DAG */
    part_view view;
    uint8_t *kind;
    int *astart, *arg;     /* operands as ir_args gives them (repeats kept), CSR */
    int *w;                /* operations an arithmetic node stands for (1 but in the vector view) */
    int *tunit;            /* TEX: its texture unit */
    int *node_of;          /* vector view: scalar node -> node here (-1: a free leaf) */
    int *ustart, *user;    /* distinct users reachable from ROOT, CSR */
    int *texkey, *unitkey; /* TEX: lowest TEX id of the same (unit, u, v) / of the same unit */
    uint8_t *reach, *mr;
    int *idom;
    int *pstart, *pchild;  /* partial dominator tree: children in id order, CSR */
    /* the partition being built */
    const uint8_t *mk;     /* the marks sub_eval reads */
    const int *skip_pos;   /* non-NULL: sub_eval leaves out the nodes x with skip_pos[x] >= skip_from */
    int skip_from;
    uint8_t *marked;
    int8_t *fixed;         /* RDS: +1 fixed marked, -1 fixed unmarked, 0 free */
    uint32_t *done;        /* greedy merging: node merged in run `run` */
    uint32_t run;
    /* sub_eval's scratch and results */
    uint32_t *seen, *kseen, *useen, *lseen;
    uint32_t stamp;
    int *first, *last, *gdef;
    int *list, nlist;      /* computed nodes of the last subregion, id order */
    int *rlist, nrlist;    /* its restores, id order */
    int *stack, *ev, *evn;  /* events; evn: per event value + EV_BIAS, kept zero */
    /* buffers of the algorithms */
    int *glist, *kids, *ft, *fi;
    char *err;
    size_t err_size;
    const mos_allocator *a; /* the DAG's (ir_dag.alloc): every block here and the plan's */
    int oom;               /* an allocation failed */
    /* the clock every algorithm reads (part_partition_view's time limit) */
    double t0, limit_s;    /* limit_s > 0 */
    double deadline_s;     /* seconds after t0 out_of_time gives up: limit_s, or FALLBACK_GRACE_PCT of it
                            * while RDSh's Subdivide (the fallback every algorithm keeps) runs */
    unsigned ticks;
    int timed_out;
} pctx;

static void set_err(pctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_err(pctx *c, const char *fmt, ...)
{
    if (!c->err || !c->err_size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->err_size, fmt, ap);
    va_end(ap);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether the time limit has passed (read every CLOCK_TICKS calls; once
 * passed, it stays passed). */
static int out_of_time(pctx *c)
{
    if (!c->timed_out && (++c->ticks % CLOCK_TICKS) == 0 && c->deadline_s > 0 && now_s() - c->t0 > c->deadline_s)
        c->timed_out = 1;
    return c->timed_out;
}

static void set_oom(pctx *c)
{
    c->oom = 1;
    set_err(c, "partition: out of memory");
}

static int cmp_int(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void sort_ints(int *a, int count)
{
    if (count > 24) {
        qsort(a, (size_t)count, sizeof *a, cmp_int);
        return;
    }
    for (int i = 1; i < count; i++) {
        const int v = a[i];
        int j = i;
        for (; j > 0 && a[j - 1] > v; j--)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

static int fits(const part_limits *l, const part_usage *u)
{
    return (!l->ops || u->ops <= l->ops) && (!l->regs || u->regs <= l->regs) &&
           (!l->texs || u->texs <= l->texs) && (!l->interps || u->interps <= l->interps);
}

static double pass_cost(const pctx *c, const part_usage *u)
{
    return c->cost.cp + c->cost.ct * u->fetches + c->cost.ci * u->instrs;
}

/* ---- the context: the DAG checked and indexed ------------------------------------ */

static void ctx_free(pctx *c)
{
    void *p[] = { c->kind, c->astart, c->arg, c->w, c->tunit, c->node_of, c->ustart, c->user, c->texkey,
                  c->unitkey, c->reach, c->mr, c->idom, c->pstart, c->pchild, c->marked, c->fixed, c->done, c->seen,
                  c->kseen, c->useen, c->lseen, c->first, c->last, c->gdef, c->list, c->rlist,
                  c->stack, c->ev, c->evn, c->glist, c->kids, c->ft, c->fi };
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        util_free(c->a, p[i]);
}

/* Sort keys of TEX nodes: (unit, u, v, id) and (unit, id). */
typedef struct tex_key { int unit, u, v, id; } tex_key;
static int cmp_tex_fetch(const void *a, const void *b)
{
    const tex_key *x = a, *y = b;
    if (x->unit != y->unit) return x->unit < y->unit ? -1 : 1;
    if (x->u != y->u) return x->u < y->u ? -1 : 1;
    if (x->v != y->v) return x->v < y->v ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}
static int cmp_tex_unit(const void *a, const void *b)
{
    const tex_key *x = a, *y = b;
    if (x->unit != y->unit) return x->unit < y->unit ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

static uint32_t next_stamp(pctx *c)
{
    if (++c->stamp == 0) {
        const size_t b = (size_t)c->n * sizeof(uint32_t);
        memset(c->seen, 0, b);
        memset(c->kseen, 0, b);
        memset(c->useen, 0, b);
        memset(c->lseen, 0, b);
        c->stamp = 1;
    }
    return c->stamp;
}

/* The immediate dominators (Cooper, Harvey and Kennedy): ids are a
 * topological order with every dominator above what it dominates, so one
 * sweep down from ROOT settles each node from its users. */
static int dominators(pctx *c)
{
    for (int i = 0; i < c->n; i++)
        c->idom[i] = -1;
    c->idom[c->root] = c->root;
    for (int x = c->root - 1; x >= 0; x--) {
        if (!c->reach[x] || c->kind[x] < K_ARITH)
            continue;
        if (out_of_time(c))  /* a walk up the tree may be as long as the DAG is deep */
            return -1;
        int dom = -1;
        for (int j = c->ustart[x]; j < c->ustart[x + 1]; j++) {
            int a = c->user[j];
            if (dom < 0) {
                dom = a;
                continue;
            }
            while (a != dom) {
                while (a < dom) a = c->idom[a];
                while (dom < a) dom = c->idom[dom];
            }
        }
        c->idom[x] = dom;
        c->mr[x] = c->ustart[x + 1] - c->ustart[x] >= 2;
    }
    return 0;
}

/* What a node of D is to a pass (the DAG's operations checked by ctx_init). */
static int node_kind(ir_op op)
{
    return ir_is_leaf(op) ? (op == IR_INPUT || op == IR_FRAGCOORD ? K_INTERP : K_FREE)
           : op == IR_TEX ? K_TEX : op == IR_ROOT ? K_ROOT : K_ARITH;
}

/* The scalar view's graph: a node per DAG node.  0, 1 out of memory, -1 a
 * malformed DAG. */
static int scalar_graph(pctx *c, const ir_dag *d)
{
    const int n = d->count;
    c->kind = util_alloc(c->a, (size_t)n);
    c->astart = util_alloc(c->a, ((size_t)n + 1) * sizeof(int));
    c->w = util_alloc(c->a, (size_t)n * sizeof(int));
    c->tunit = util_alloc(c->a, (size_t)n * sizeof(int));
    if (!c->kind || !c->astart || !c->w || !c->tunit)
        return 1;
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        const ir_op op = (ir_op)d->node[i].op;
        c->kind[i] = (uint8_t)node_kind(op);
        c->w[i] = 1;
        c->tunit[i] = op == IR_TEX ? d->node[i].v.index : -1;
        c->astart[i] = (int)total;
        if (c->kind[i] < K_ARITH)
            continue;
        const int *args;
        const int na = ir_args(d, i, &args);
        if (na < 0 || (op != IR_ROOT && na != ir_op_arity(op))) {
            set_err(c, "partition: node %d (%s): %d operands", i, ir_op_name(op), na);
            return -1;
        }
        for (int j = 0; j < na; j++)
            if (args[j] < 0 || args[j] >= i) {
                set_err(c, "partition: node %d (%s): operand %d is not an earlier node", i, ir_op_name(op),
                        args[j]);
                return -1;
            }
        total += (size_t)na;
        if (total > (size_t)MAX_NODES * 4) {
            set_err(c, "partition: more than %d operands", MAX_NODES * 4);
            return -1;
        }
    }
    c->astart[n] = (int)total;
    c->arg = util_alloc(c->a, (total ? total : 1) * sizeof(int));
    if (!c->arg)
        return 1;
    for (int i = 0; i < n; i++)
        if (c->kind[i] >= K_ARITH) {
            const int *args;
            const int na = ir_args(d, i, &args);
            memcpy(c->arg + c->astart[i], args, (size_t)na * sizeof(int));
        }
    c->n = n;
    c->root = d->root;
    return 0;
}

/* A scalar node's key while grouping: (group, kind; for a fetch its unit too). */
typedef struct vkey { int32_t group; int kind, id; } vkey;
static int cmp_vkey(const void *a, const void *b)
{
    const vkey *x = a, *y = b;
    if (x->group != y->group) return x->group < y->group ? -1 : 1;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}
/* A vector node being numbered: its first scalar node, the run of keys it is. */
typedef struct vrun { int first, at, len; } vrun;
static int cmp_vrun(const void *a, const void *b)
{
    const vrun *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}
static int cmp_pair(const void *a, const void *b)
{
    const int *x = a, *y = b;
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    return (x[1] > y[1]) - (x[1] < y[1]);
}

/* The vector view's graph (partition.h): the scalar nodes of one group and
 * kind (a fetch's: of one unit) are one node; nodes are numbered by their
 * first scalar node, operands are the other nodes their scalar operands lie
 * in.  Free leaves are no node.  0, 1 out of memory, -1 a malformed DAG. */
static int vector_graph(pctx *c, const ir_dag *d)
{
    const int n = d->count;
    vkey *k = util_alloc(c->a, ((size_t)n + 1) * sizeof *k);
    vrun *run = util_alloc(c->a, ((size_t)n + 1) * sizeof *run);
    int *pairs = NULL, rc = 1, nk = 0, nv = 0, np = 0;
    c->node_of = util_alloc(c->a, ((size_t)n + 1) * sizeof(int));
    if (!k || !run || !c->node_of)
        goto out;
    for (int i = 0; i < n; i++) {
        const ir_op op = (ir_op)d->node[i].op;
        c->node_of[i] = -1;
        const int kind = node_kind(op);
        if (kind != K_FREE)
            k[nk++] = (vkey){ op == IR_ROOT ? INT32_MAX : d->node[i].group,
                              kind == K_TEX ? K_TEX + 8 * (d->node[i].v.index + 1) : kind, i };
    }
    qsort(k, (size_t)nk, sizeof *k, cmp_vkey);
    for (int i = 0; i < nk; i++) {
        if (i == 0 || k[i].group != k[i - 1].group || k[i].kind != k[i - 1].kind)
            run[nv++] = (vrun){ k[i].id, i, 0 };
        run[nv - 1].len++;
    }
    qsort(run, (size_t)nv, sizeof *run, cmp_vrun);
    c->n = nv;
    c->kind = util_calloc(c->a, (size_t)nv + 1, 1);
    c->w = util_calloc(c->a, (size_t)nv + 1, sizeof(int));
    c->tunit = util_alloc(c->a, ((size_t)nv + 1) * sizeof(int));
    c->astart = util_calloc(c->a, (size_t)nv + 2, sizeof(int));
    if (!c->kind || !c->w || !c->tunit || !c->astart)
        goto out;
    size_t total = 0;
    for (int v = 0; v < nv; v++) {
        const ir_node *first = &d->node[run[v].first];
        c->kind[v] = (uint8_t)node_kind((ir_op)first->op);
        c->tunit[v] = first->op == IR_TEX ? first->v.index : -1;
        /* a 4-wide machine: up to four scalar operations an instruction */
        c->w[v] = c->kind[v] == K_ARITH ? (run[v].len + 3) / 4 : 1;
        for (int j = run[v].at; j < run[v].at + run[v].len; j++) {
            c->node_of[k[j].id] = v;
            if (c->kind[v] >= K_ARITH)
                total += (size_t)(k[j].id == d->root ? d->out_count : d->node[k[j].id].nargs);
        }
    }
    c->root = c->node_of[d->root];
    pairs = util_alloc(c->a, (total + 1) * 2 * sizeof(int));
    if (!pairs)
        goto out;
    for (int x = 0; x < n; x++) {
        const int vx = c->node_of[x];
        if (vx < 0 || c->kind[vx] < K_ARITH)
            continue;
        const int *args;
        const int na = ir_args(d, x, &args);
        for (int j = 0; j < na; j++) {
            if (args[j] < 0 || args[j] >= x) {
                set_err(c, "partition: node %d: operand %d is not an earlier node", x, args[j]);
                rc = -1;
                goto out;
            }
            const int va = c->node_of[args[j]];
            if (va < 0 || va == vx)
                continue;
            if (va > vx) {  /* groups interleaved: no vector order (not made by spirv.c) */
                set_err(c, "partition: the vector view needs each source instruction's nodes made together "
                           "(node %d reads node %d of a later group)", x, args[j]);
                rc = -1;
                goto out;
            }
            pairs[2 * np] = vx;
            pairs[2 * np + 1] = va;
            np++;
        }
    }
    qsort(pairs, (size_t)np, 2 * sizeof(int), cmp_pair);
    int m = 0;
    for (int i = 0; i < np; i++)
        if (i == 0 || pairs[2 * i] != pairs[2 * (i - 1)] || pairs[2 * i + 1] != pairs[2 * (i - 1) + 1]) {
            pairs[2 * m] = pairs[2 * i];
            pairs[2 * m + 1] = pairs[2 * i + 1];
            m++;
        }
    c->arg = util_alloc(c->a, ((size_t)m + 1) * sizeof(int));
    if (!c->arg)
        goto out;
    for (int i = 0; i < m; i++) {
        c->arg[i] = pairs[2 * i + 1];
        c->astart[pairs[2 * i] + 1]++;
    }
    for (int v = 0; v < nv; v++)
        c->astart[v + 1] += c->astart[v];
    rc = 0;
out:
    util_free(c->a, k);
    util_free(c->a, run);
    util_free(c->a, pairs);
    return rc;
}

static int ctx_init(pctx *c, const ir_dag *d, part_view view, const part_limits *limits, const part_costs *costs,
                    double t0, double limit_s, char *err, size_t err_size)
{
    memset(c, 0, sizeof *c);
    c->a = d ? d->alloc : NULL;
    /* the context is part of the fallback: it has the fallback's grace too */
    c->t0 = t0;
    c->limit_s = limit_s;
    c->deadline_s = limit_s * FALLBACK_GRACE_PCT / 100;
    c->err = err;
    c->err_size = err_size;
    if (err && err_size)
        err[0] = 0;
    if (!d || !d->node || d->count <= 0 || d->root < 0 || d->root >= d->count ||
        d->node[d->root].op != IR_ROOT) {
        set_err(c, "partition: the DAG is not finished (no ROOT node)");
        return -1;
    }
    if (d->count > MAX_NODES) {
        set_err(c, "partition: %d nodes, at most %d", d->count, MAX_NODES);
        return -1;
    }
    if (d->out_count < 0 || (d->out_count > 0 && !d->out)) {
        set_err(c, "partition: bad output list");
        return -1;
    }
    if (limits && (limits->ops < 0 || limits->regs < 0 || limits->texs < 0 || limits->interps < 0)) {
        set_err(c, "partition: negative limit");
        return -1;
    }
    if (view != PART_SCALAR && view != PART_VECTOR) {
        set_err(c, "partition: unknown view");
        return -1;
    }
    for (int i = 0; i < d->count; i++)
        if (d->node[i].op >= IR_OP_COUNT || (d->node[i].op == IR_ROOT && i != d->root)) {
            set_err(c, "partition: node %d: bad operation %d", i, (int)d->node[i].op);
            return -1;
        }
    c->d = d;
    c->view = view;
    if (limits)
        c->lim = *limits;
    if (costs)
        c->cost = *costs;
    /* Kinds and operands, checked. */
    const int g = view == PART_VECTOR ? vector_graph(c, d) : scalar_graph(c, d);
    if (g > 0)
        goto oom;
    if (g < 0)
        return -1;
    const int n = c->n;
    const size_t un = (size_t)n;
    const size_t total = (size_t)c->astart[n];

    /* Scratch. */
#define ALLOC(p, count) if (!((p) = util_calloc(c->a, (count) + 1, sizeof *(p)))) goto oom
    ALLOC(c->ustart, un + 1);
    ALLOC(c->user, total);
    ALLOC(c->texkey, un);
    ALLOC(c->unitkey, un);
    ALLOC(c->reach, un);
    ALLOC(c->mr, un);
    ALLOC(c->idom, un);
    ALLOC(c->pstart, un + 1);
    ALLOC(c->pchild, un);
    ALLOC(c->marked, un);
    ALLOC(c->fixed, un);
    ALLOC(c->done, un);
    ALLOC(c->seen, un);
    ALLOC(c->kseen, un);
    ALLOC(c->useen, un);
    ALLOC(c->lseen, un);
    ALLOC(c->first, un);
    ALLOC(c->last, un);
    ALLOC(c->gdef, un);
    ALLOC(c->list, un);
    ALLOC(c->rlist, un);
    ALLOC(c->stack, un);
    ALLOC(c->ev, 4 * un);
    ALLOC(c->evn, 4 * un + 2 * EV_BIAS);
    ALLOC(c->glist, un);
    ALLOC(c->kids, un);
    ALLOC(c->ft, un);
    ALLOC(c->fi, un);
#undef ALLOC
    c->mk = c->marked;

    /* Fetch and unit keys. */
    int ntex = 0;
    for (int i = 0; i < n; i++)
        ntex += c->kind[i] == K_TEX;
    if (ntex) {
        tex_key *tk = util_alloc(c->a, (size_t)ntex * sizeof *tk);
        if (!tk)
            goto oom;
        int t = 0;
        for (int i = 0; i < n; i++)
            if (c->kind[i] == K_TEX)
                tk[t++] = (tex_key){ c->tunit[i], c->arg[c->astart[i]],
                                     c->astart[i + 1] - c->astart[i] > 1 ? c->arg[c->astart[i] + 1] : -1, i };
        qsort(tk, (size_t)ntex, sizeof *tk, cmp_tex_fetch);
        for (int i = 0; i < ntex; i++) {
            const int same = i > 0 && tk[i - 1].unit == tk[i].unit && tk[i - 1].u == tk[i].u &&
                             tk[i - 1].v == tk[i].v;
            c->texkey[tk[i].id] = same ? c->texkey[tk[i - 1].id] : tk[i].id;
        }
        qsort(tk, (size_t)ntex, sizeof *tk, cmp_tex_unit);
        for (int i = 0; i < ntex; i++)
            c->unitkey[tk[i].id] = i > 0 && tk[i - 1].unit == tk[i].unit ? c->unitkey[tk[i - 1].id] : tk[i].id;
        util_free(c->a, tk);
    }

    /* What ROOT reaches, distinct users, dominators, MR nodes. */
    c->reach[c->root] = 1;
    for (int x = c->root; x >= 0; x--)
        if (c->reach[x])
            for (int j = c->astart[x]; j < c->astart[x + 1]; j++)
                c->reach[c->arg[j]] = 1;
    for (int x = 0; x < n; x++) {
        if (!c->reach[x])
            continue;
        const uint32_t s = next_stamp(c);
        for (int j = c->astart[x]; j < c->astart[x + 1]; j++) {
            const int a = c->arg[j];
            if (c->kind[a] >= K_ARITH && c->seen[a] != s) {
                c->seen[a] = s;
                c->ustart[a + 1]++;
            }
        }
    }
    for (int i = 0; i < n; i++)
        c->ustart[i + 1] += c->ustart[i];
    for (int x = 0; x < n; x++) {
        if (!c->reach[x])
            continue;
        const uint32_t s = next_stamp(c);
        for (int j = c->astart[x]; j < c->astart[x + 1]; j++) {
            const int a = c->arg[j];
            if (c->kind[a] >= K_ARITH && c->seen[a] != s) {
                c->seen[a] = s;
                c->user[c->ustart[a] + c->fi[a]++] = x;  /* users in id order */
            }
        }
    }
    if (dominators(c) < 0)
        return -1;

    /* The partial dominator tree: MR nodes, their immediate dominators, ROOT;
     * the parent of each is its nearest dominator in the tree. */
    int *in_pdt = c->first; /* scratch until sub_eval needs it */
    memset(in_pdt, 0, un * sizeof(int));
    for (int x = 0; x < n; x++)
        if (c->mr[x]) {
            in_pdt[x] = 1;
            in_pdt[c->idom[x]] = 1;
        }
    in_pdt[c->root] = 1;
    for (int x = 0; x < n; x++) {
        c->fi[x] = -1;
        if (in_pdt[x] && x != c->root) {
            if (out_of_time(c))
                return -1;
            int p = c->idom[x];
            while (!in_pdt[p])
                p = c->idom[p];
            c->fi[x] = p;
            c->pstart[p + 1]++;
        }
    }
    for (int i = 0; i < n; i++)
        c->pstart[i + 1] += c->pstart[i];
    memset(c->ft, 0, un * sizeof(int));
    for (int x = 0; x < n; x++)
        if (c->fi[x] >= 0)
            c->pchild[c->pstart[c->fi[x]] + c->ft[c->fi[x]]++] = x;
    return 0;
oom:
    set_oom(c);
    return -1;
}

/* ---- VALID: one subregion and its resources --------------------------------------- */

/* The subregion of NODE under the marks c->mk: NODE and, recursively, its
 * unmarked non-leaf operands.  Leaves c->list (computed nodes, id order,
 * NODE last) and c->rlist (restores), fills *u; 1 when it fits the limits. */
static int sub_eval_(pctx *c, int node, part_usage *u, int quick)
{
    const uint32_t s = next_stamp(c);
    int nl = 0, nr = 0, sp = 0, interps = 0, lo = node;
    c->seen[node] = s;
    c->list[nl++] = node;
    c->stack[sp++] = node;
    while (sp > 0) {
        const int x = c->stack[--sp];
        for (int j = c->astart[x]; j < c->astart[x + 1]; j++) {
            const int a = c->arg[j];
            if (c->seen[a] == s || (c->skip_pos && c->skip_pos[a] >= c->skip_from))
                continue;
            c->seen[a] = s;
            if (c->kind[a] == K_INTERP) {
                interps++;
            } else if (c->kind[a] != K_FREE) {
                if (c->mk[a]) {
                    c->rlist[nr++] = a;
                } else {
                    c->list[nl++] = a;
                    c->stack[sp++] = a;
                    if (a < lo)
                        lo = a;
                }
            }
        }
    }
    if (node - lo <= 8 * nl) {
        /* Dense: a sweep over the id range sorts in linear time. */
        nl = 0;
        for (int x = lo; x <= node; x++)
            if (c->seen[x] == s && c->kind[x] >= K_ARITH && (x == node || !c->mk[x]))
                c->list[nl++] = x;
    } else {
        sort_ints(c->list, nl);
    }
    sort_ints(c->rlist, nr);

    int arith = 0, groups = 0, units = 0;
    for (int i = 0; i < nl; i++) {
        const int x = c->list[i];
        if (c->kind[x] == K_ARITH) {
            arith += c->w[x];
        } else if (c->kind[x] == K_TEX) {
            const int k = c->texkey[x], uk = c->unitkey[x];
            if (c->kseen[k] != s) {
                c->kseen[k] = s;
                c->gdef[k] = 2 * i;
                groups++;
            }
            if (c->useen[uk] != s) {
                c->useen[uk] = s;
                units++;
            }
        }
    }
    if (quick && ((c->lim.ops && arith + groups + nr > c->lim.ops) || (c->lim.interps && interps > c->lim.interps)))
        return 0; /* fails on operations or interpolants: registers need not be counted */
    /* First and last uses in the pass; ROOT's reading of an output is no use. */
    for (int i = 0; i < nl; i++) {
        const int x = c->list[i];
        const int is_root = c->kind[x] == K_ROOT;
        for (int j = c->astart[x]; j < c->astart[x + 1]; j++) {
            const int a = c->arg[j];
            if (c->kind[a] < K_ARITH)
                continue;
            if (c->lseen[a] != s) {
                c->lseen[a] = s;
                c->first[a] = i;
                c->last[a] = -1;
            }
            if (!is_root)
                c->last[a] = i;
        }
    }
    /* Registers: values live over [def, end) at positions 2 i (the pass's
     * node i, in id order), 2 i - 1 (a restore read just before it); the
     * most at once.
     * An event's value is 2 * position (+1 for a start): ends first at a tie. */
    int ne = 0;
    for (int i = 0; i < nl; i++) {
        const int x = c->list[i];
        if (c->kind[x] == K_ROOT)
            continue;
        const int def = c->kind[x] == K_TEX ? c->gdef[c->texkey[x]] : 2 * i;
        const int end = c->lseen[x] == s && c->last[x] >= 0 ? 2 * c->last[x] : def + 1;
        c->ev[ne++] = 2 * def + 1;
        c->ev[ne++] = 2 * end;
    }
    int copied = 0, read = 0;
    for (int i = 0; i < nr; i++) {
        const int r = c->rlist[i];
        if (c->last[r] < 0) {
            copied = 1; /* read back for ROOT only: copied out one at a time */
            continue;
        }
        read++;
        c->ev[ne++] = 2 * (2 * c->first[r] - 1) + 1;
        c->ev[ne++] = 2 * (2 * c->last[r]);
    }
    if (copied) {
        c->ev[ne++] = 2 * (2 * (nl - 1) - 1) + 1; /* NODE, last in id order */
        c->ev[ne++] = 2 * (2 * (nl - 1));
    }
    /* Events of one value are all starts (odd) or all ends: counted per
     * value, swept in order (positions count the pass's nodes, so the
     * values span 4 nl; the branch and bound calls this millions of times
     * and a sort dominated it). */
    for (int i = 0; i < ne; i++)
        c->evn[c->ev[i] + EV_BIAS] += (c->ev[i] & 1) ? 1 : -1;
    int live = 0, regs = 0;
    for (int v = -1; v <= 4 * nl; v++) {
        live += c->evn[v + EV_BIAS];
        c->evn[v + EV_BIAS] = 0;
        if (live > regs)
            regs = live;
    }
    c->nlist = nl;
    c->nrlist = nr;
    /* Restores the pass computes with each hold a texture unit; the outputs
     * only copied out share one, as they share one register. */
    *u = (part_usage){ .ops = arith + groups + nr, .regs = regs, .texs = units + read + copied, .interps = interps,
                       .fetches = groups + nr, .instrs = arith };
    return fits(&c->lim, u);
}

static int sub_eval(pctx *c, int node, part_usage *u) { return sub_eval_(c, node, u, 0); }

/* sub_eval's answer, but U and the lists are complete only when it fits. */
static int sub_fits(pctx *c, int node, part_usage *u) { return sub_eval_(c, node, u, 1); }

/* ---- the callbacks ------------------------------------------------------------------ */

int part_valid(const ir_dag *d, const uint8_t *marked, int node, const part_limits *limits, part_usage *use)
{
    pctx c;
    if (ctx_init(&c, d, PART_SCALAR, limits, NULL, 0, 0, NULL, 0) < 0) {
        ctx_free(&c);
        return -1;
    }
    int r = -1;
    if (node >= 0 && node < c.n && c.kind[node] >= K_ARITH) {
        if (marked)
            c.mk = marked;
        part_usage u;
        r = sub_eval(&c, node, &u);
        if (use)
            *use = u;
    }
    ctx_free(&c);
    return r;
}

double part_cost(const part_plan *p, const part_costs *costs)
{
    return costs->cp * p->pass_count + costs->ct * p->fetches + costs->ci * p->instrs;
}

static void usage_array(const part_usage *u, int v[4])
{
    v[0] = u->ops;
    v[1] = u->regs;
    v[2] = u->texs;
    v[3] = u->interps;
}

static void limit_array(const part_limits *l, int v[4])
{
    v[0] = l ? l->ops : 0;
    v[1] = l ? l->regs : 0;
    v[2] = l ? l->texs : 0;
    v[3] = l ? l->interps : 0;
}

int part_recompute(const part_usage *use, const part_limits *limits)
{
    int u[4], l[4];
    usage_array(use, u);
    limit_array(limits, l);
    for (int r = 0; r < 4; r++)
        if (l[r] > 0 && 2 * u[r] >= l[r])
            return 0;
    return 1;
}

int part_merge(const part_usage *a, const part_usage *b, const part_limits *limits)
{
    int ua[4], ub[4], l[4];
    usage_array(a, ua);
    usage_array(b, ub);
    limit_array(limits, l);
    double amax = 0, bmax = 0, asum = 0, bsum = 0;
    int atot = 0, btot = 0;
    for (int r = 0; r < 4; r++) {
        atot += ua[r];
        btot += ub[r];
        if (l[r] <= 0)
            continue;
        const double fa = (double)ua[r] / l[r], fb = (double)ub[r] / l[r];
        amax = fa > amax ? fa : amax;
        bmax = fb > bmax ? fb : bmax;
        asum += fa;
        bsum += fb;
    }
    if (amax != bmax)
        return amax < bmax ? -1 : 1;
    if (asum != bsum)
        return asum < bsum ? -1 : 1;
    return (atot > btot) - (atot < btot);
}

/* ---- greedy bottom-up merging (3.2) ------------------------------------------------- */

static int no_fit(pctx *c, int node)
{
    if (c->view == PART_VECTOR)
        set_err(c, "partition: vector node %d (%d operations) fits no pass within %do/%dr/%dt/%dv (0 = unlimited)",
                node, c->w[node], c->lim.ops, c->lim.regs, c->lim.texs, c->lim.interps);
    else
        set_err(c, "partition: node %d (%s) fits no pass within %do/%dr/%dt/%dv (0 = unlimited)", node,
                ir_op_name((ir_op)c->d->node[node].op), c->lim.ops, c->lim.regs, c->lim.texs, c->lim.interps);
    return -1;
}

/* At N: of N's unmarked kids, the most that merge with N (subregion(N)
 * fits); MERGE picks among as many.  The kids left out are marked.  0, or
 * -1 when nothing fits, not even N with every kid restored. */
static int merge_node(pctx *c, int N)
{
    int k = 0;
    const uint32_t s = next_stamp(c);
    for (int j = c->astart[N]; j < c->astart[N + 1]; j++) {
        const int a = c->arg[j];
        if (c->kind[a] >= K_ARITH && !c->marked[a] && c->seen[a] != s) {
            c->seen[a] = s;
            c->kids[k++] = a;
        }
    }
    part_usage u, best_u = { 0 };
    if (k <= MERGE_EXHAUSTIVE) {
        for (int size = k; size >= 0; size--) {
            int best = -1;
            for (int m = 0; m < 1 << k; m++) {
                if (__builtin_popcount((unsigned)m) != size)
                    continue;
                for (int i = 0; i < k; i++)
                    c->marked[c->kids[i]] = !(m >> i & 1);
                if (sub_eval(c, N, &u) && (best < 0 || part_merge(&u, &best_u, &c->lim) < 0)) {
                    best = m;
                    best_u = u;
                }
            }
            if (best >= 0) {
                for (int i = 0; i < k; i++)
                    c->marked[c->kids[i]] = !(best >> i & 1);
                return 0;
            }
        }
        for (int i = 0; i < k; i++)
            c->marked[c->kids[i]] = 0;
        return no_fit(c, N);
    }
    /* Many kids (ROOT's outputs): all, then leave out one more at a time,
     * the one whose absence leaves the smallest pass. */
    if (sub_eval(c, N, &u))
        return 0;
    for (int left = k; left > 0; left--) {
        int best = -1, best_fits = 0;
        for (int i = 0; i < k; i++) {
            const int a = c->kids[i];
            if (c->marked[a])
                continue;
            c->marked[a] = 1;
            const int ok = sub_eval(c, N, &u);
            c->marked[a] = 0;
            if ((ok && !best_fits) || (ok == best_fits && (best < 0 || part_merge(&u, &best_u, &c->lim) < 0))) {
                best = i;
                best_fits = ok;
                best_u = u;
            }
        }
        c->marked[c->kids[best]] = 1;
        if (best_fits)
            return 0;
    }
    for (int i = 0; i < k; i++)
        c->marked[c->kids[i]] = 0;
    return no_fit(c, N);
}

/* Greedy merging over subregion(T), bottom up (id order); nodes merged
 * earlier in this run are kept unless ALL. */
static int greedy(pctx *c, int T, int all)
{
    part_usage u;
    sub_eval(c, T, &u);
    const int nl = c->nlist;
    memcpy(c->glist, c->list, (size_t)nl * sizeof(int));
    for (int i = 0; i < nl; i++) {
        const int x = c->glist[i];
        if (!all && c->done[x] == c->run)
            continue;
        if (out_of_time(c) || merge_node(c, x) < 0)
            return -1;
        c->done[x] = c->run;
    }
    return 0;
}

/* ---- Subdivide (3.4) and the search around it (3.5) -------------------------------- */

/* Lines 6-8 (14-18 in RDS) after a PDT child K is subdivided. */
static void decide(pctx *c, int K)
{
    if (!c->mr[K])
        return;
    if (c->fixed[K]) {
        c->marked[K] = c->fixed[K] > 0;
        return;
    }
    part_usage u;
    sub_eval(c, K, &u);
    c->marked[K] = !part_recompute(&u, &c->lim);
}

/* One Subdivide from the PDT root with the fixed decisions, then the repair:
 * the partition in c->marked.  0, or -1 (message in err). */
static int subdivide(pctx *c)
{
    for (int i = 0; i < c->n; i++)
        c->marked[i] = i == c->root || c->fixed[i] > 0;
    if (++c->run == 0) {
        memset(c->done, 0, (size_t)c->n * sizeof(uint32_t));
        c->run = 1;
    }
    part_usage u;
    int sp = 0;
    if (!sub_eval(c, c->root, &u)) {
        c->ft[sp] = c->root;
        c->fi[sp++] = c->pstart[c->root];
    }
    while (sp > 0) {
        if (out_of_time(c))
            return -1;
        const int t = c->ft[sp - 1];
        if (c->fi[sp - 1] < c->pstart[t + 1]) {
            const int k = c->pchild[c->fi[sp - 1]++];
            if (sub_eval(c, k, &u)) {
                decide(c, k);
            } else {
                c->ft[sp] = k;
                c->fi[sp++] = c->pstart[k];
            }
            continue;
        }
        if (greedy(c, t, 0) < 0)
            return -1;
        sp--;
        if (t != c->root)
            decide(c, t);
    }
    /* Repair: a mark made at one node can break a pass merged before. */
    for (int round = 0; round <= c->n; round++) {
        int changed = 0;
        for (int m = 0; m <= c->root; m++) {
            if (c->marked[m] && out_of_time(c))
                return -1;
            if (c->marked[m] && c->reach[m] && !sub_eval(c, m, &u)) {
                if (greedy(c, m, 1) < 0)
                    return -1;
                changed = 1;
            }
        }
        if (!changed)
            return 0;
    }
    return no_fit(c, c->root); /* not reached: each round marks a node more */
}

/* The cost of the partition in c->marked; -1 when the time ran out. */
static double marks_cost(pctx *c)
{
    double total = 0;
    part_usage u;
    for (int m = 0; m <= c->root; m++)
        if (c->marked[m] && c->reach[m]) {
            if (out_of_time(c))
                return -1;
            sub_eval(c, m, &u);
            total += pass_cost(c, &u);
        }
    return total;
}

/* Subdivide with M fixed to SIDE (+1 saved, -1 recomputed): the partition's
 * cost, -1 when none fits; the cheapest partition seen goes to BEST. */
static double try_side(pctx *c, int M, int side, uint8_t *best, double *best_cost)
{
    c->fixed[M] = (int8_t)side;
    if (subdivide(c) < 0)
        return -1;
    const double cost = marks_cost(c);
    if (cost < 0)
        return -1;
    if (*best_cost < 0 || cost < *best_cost) {
        *best_cost = cost;
        memcpy(best, c->marked, (size_t)c->n);
    }
    return cost;
}

/* Search (3.5) over the MR nodes in id order, each fixed to the cheaper of
 * save and recompute with the MR nodes after it left to RECOMPUTE (a tie:
 * recompute, the seed's line 13, or save with SAVE_TIES); then further
 * sweeps over the MR nodes in the same order, each flipping a decision only
 * where the flip is strictly cheaper with every other MR node fixed as now,
 * until a sweep flips none (at most RDS_SWEEPS in all).  The cheapest
 * partition seen goes to BEST; returns the ties the first sweep met. */
static int search(pctx *c, int save_ties, uint8_t *best, double *best_cost)
{
    memset(c->fixed, 0, (size_t)c->n);
    double now = -1; /* the cost of the partition the decisions fixed so far give (-1: none fits) */
    int ties = 0;
    for (int m = 0; m < c->n; m++) {
        if (!c->mr[m])
            continue;
        const double cs = try_side(c, m, 1, best, best_cost);
        const double cr = try_side(c, m, -1, best, best_cost);
        if (c->timed_out)
            return 0;  /* the cheapest partition seen is in BEST */
        const int tie = cs >= 0 && cs == cr;
        const int save = cs >= 0 && (cr < 0 || cs < cr || (save_ties && tie));
        ties += tie;
        c->fixed[m] = (int8_t)(save ? 1 : -1);
        now = save ? cs : cr;
    }
    for (int sweep = 1; sweep < RDS_SWEEPS; sweep++) {
        int flips = 0;
        for (int m = 0; m < c->n; m++) {
            if (!c->mr[m])
                continue;
            const int8_t keep = c->fixed[m];
            const double flip = try_side(c, m, -keep, best, best_cost);
            if (c->timed_out)
                return 0;
            if (flip >= 0 && (now < 0 || flip < now)) {
                now = flip;
                flips++;
            } else {
                c->fixed[m] = keep;
            }
        }
        if (!flips)
            break;
    }
    return ties;
}

/* RDSh: one Subdivide with RECOMPUTE deciding.  RDS: search() with the
 * seed's ties, and again with ties saved when the first met any.  The
 * cheapest partition seen goes to BEST; 0, or -1 when none fits. */
static int rds(pctx *c, int search_on, uint8_t *best, double *best_cost)
{
    *best_cost = -1;
    memset(c->fixed, 0, (size_t)c->n);
    /* The fallback may run past the limit (to FALLBACK_GRACE_PCT of it): a
     * partition a little late beats none; the searches stop at the limit. */
    c->deadline_s = c->limit_s * FALLBACK_GRACE_PCT / 100;
    if (subdivide(c) == 0 && (*best_cost = marks_cost(c)) >= 0)
        memcpy(best, c->marked, (size_t)c->n);
    c->deadline_s = c->limit_s;
    if (!c->timed_out && now_s() - c->t0 > c->limit_s)
        c->timed_out = 1;
    if (!search_on || c->timed_out)
        return *best_cost < 0 ? -1 : 0;
    if (search(c, 0, best, best_cost) && !c->timed_out)
        search(c, 1, best, best_cost);
    return *best_cost < 0 ? -1 : 0;
}

/* ---- the exhaustive optimum (3.1) by branch and bound ------------------------------- */

/* What the passes still to come must do, whatever the marks of the nodes
 * not yet decided (POS[y] >= DECIDED; ROOT's pass is to come too): compute
 * every one of those nodes, and every decided unmarked node one of them
 * reads, directly or through other such nodes (an unmarked node is
 * recomputed by each pass that reads it), and restore at least once every
 * decided marked node those computations read.  Swept down from ROOT: a
 * node's users are above it.  PEND (n bytes): scratch.  Fills the
 * instructions, fetches (distinct fetch keys) and restores, and the set of
 * those decided unmarked nodes in KEY (bit y of word y / 64; the memo's
 * key). */
static void work_to_come(pctx *c, const int *pos, int decided, uint8_t *pend, uint64_t *key, int *instrs,
                         int *fetches, int *restores)
{
    const uint32_t s = next_stamp(c);
    memset(key, 0, ((size_t)c->n + 63) / 64 * sizeof *key);
    int a = 0, f = 0, r = 0;
    for (int y = c->root; y >= 0; y--) {
        pend[y] = 0;
        if (!c->reach[y] || c->kind[y] < K_ARITH)
            continue;
        const int undecided = pos[y] >= decided;
        int read = undecided;
        for (int j = c->ustart[y]; j < c->ustart[y + 1] && !read; j++)
            read = pend[c->user[j]];
        if (!read)
            continue;
        if (!undecided && c->marked[y]) {
            r++;
            continue;
        }
        pend[y] = 1;
        if (!undecided)
            key[y / 64] |= (uint64_t)1 << (y % 64);
        if (c->kind[y] == K_ARITH) {
            a += c->w[y];
        } else if (c->kind[y] == K_TEX && c->kseen[c->texkey[y]] != s) {
            c->kseen[c->texkey[y]] = s;
            f++;
        }
    }
    *instrs = a, *fetches = f, *restores = r;
}

/* The states the branch and bound has been in.  After the first DEPTH
 * decisions, what the passes still to come can cost depends only on the
 * decided nodes they compute (work_to_come's pending ones, all unmarked):
 * with those known, every pass to come reaches the same decided nodes, the
 * marked ones among them restored.  So a state is (DEPTH, those nodes); one
 * met again with decided passes costing no less than the first time it was
 * met has nothing new below it (what the first visit pruned, it pruned for
 * a best cost no lower than now).  On rbp PC1 the chains of single-user
 * nodes can be cut in many places for the same cost, and this meets each
 * placement's state once.  Keys are kept whole (no false match); the table
 * grows to MEMO_BYTES and then overwrites (forgetting only prunes less). */
typedef struct memo {
    int words;         /* 64-bit words of a key's node set */
    size_t cap, count; /* slots (a power of 2), slots used */
    uint64_t *set;     /* per slot: the pending decided nodes, WORDS each */
    int *depth;        /* per slot: decisions made, -1 empty */
    double *cost;      /* per slot: the least cost of the decided passes met */
    const mos_allocator *a;
} memo;

static size_t memo_hash(const memo *mm, int depth, const uint64_t *key)
{
    uint64_t h = 0x9e3779b97f4a7c15u * (uint64_t)(depth + 1);
    for (int w = 0; w < mm->words; w++) {
        h ^= key[w] + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
        h *= 0xbf58476d1ce4e5b9u;
    }
    return (size_t)(h ^ (h >> 31));
}

/* A table of CAP empty slots in *MM (the old one freed by the caller);
 * -1 when out of memory. */
static int memo_alloc(memo *mm, size_t cap)
{
    mm->cap = cap;
    mm->count = 0;
    mm->set = util_alloc(mm->a, cap * (size_t)mm->words * sizeof *mm->set);
    mm->depth = util_alloc(mm->a, cap * sizeof *mm->depth);
    mm->cost = util_alloc(mm->a, cap * sizeof *mm->cost);
    if (!mm->set || !mm->depth || !mm->cost)
        return -1;
    for (size_t i = 0; i < cap; i++)
        mm->depth[i] = -1;
    return 0;
}

static void memo_free(memo *mm)
{
    util_free(mm->a, mm->set), util_free(mm->a, mm->depth), util_free(mm->a, mm->cost);
    mm->set = NULL, mm->depth = NULL, mm->cost = NULL;
}

/* The slot of (DEPTH, KEY): where it is, else an empty one among its
 * probes, else its first probe (to be overwritten). */
static size_t memo_slot(const memo *mm, int depth, const uint64_t *key, int *found)
{
    const size_t h = memo_hash(mm, depth, key), mask = mm->cap - 1;
    size_t empty = SIZE_MAX;
    for (size_t p = 0; p < MEMO_PROBES; p++) {
        const size_t i = (h + p) & mask;
        if (mm->depth[i] < 0) {
            if (empty == SIZE_MAX)
                empty = i;
        } else if (mm->depth[i] == depth && !memcmp(mm->set + i * (size_t)mm->words, key,
                                                    (size_t)mm->words * sizeof *key)) {
            *found = 1;
            return i;
        }
    }
    *found = 0;
    return empty != SIZE_MAX ? empty : h & mask;
}

static void memo_put(memo *mm, size_t i, int depth, const uint64_t *key, double cost)
{
    mm->count += mm->depth[i] < 0;
    mm->depth[i] = depth;
    mm->cost[i] = cost;
    memcpy(mm->set + i * (size_t)mm->words, key, (size_t)mm->words * sizeof *key);
}

/* Doubles the table while it is 3/4 full and the double fits MEMO_BYTES;
 * stays as it is when that fails for memory. */
static void memo_grow(memo *mm)
{
    const size_t slot_bytes = (size_t)mm->words * sizeof(uint64_t) + sizeof(int) + sizeof(double);
    if (4 * mm->count < 3 * mm->cap || 2 * mm->cap * slot_bytes > MEMO_BYTES)
        return;
    memo old = *mm;
    if (memo_alloc(mm, 2 * old.cap) < 0) {
        memo_free(mm);
        *mm = old;
        return;
    }
    for (size_t i = 0; i < old.cap; i++)
        if (old.depth[i] >= 0) {
            int found;
            const uint64_t *key = old.set + i * (size_t)old.words;
            memo_put(mm, memo_slot(mm, old.depth[i], key, &found), old.depth[i], key, old.cost[i]);
        }
    memo_free(&old);
}

/* 1 when state (DEPTH, KEY) was met before with decided passes costing no
 * more than COST; else records COST for it and returns 0. */
static int memo_seen(memo *mm, int depth, const uint64_t *key, double cost)
{
    int found;
    const size_t i = memo_slot(mm, depth, key, &found);
    if (found && mm->cost[i] <= cost)
        return 1;
    memo_put(mm, i, depth, key, cost);
    memo_grow(mm);
    return 0;
}

/* The order the branch and bound decides the non-leaf nodes in (but ROOT):
 * D[0..*m), and POS[x] each one's place (ROOT and what it does not reach:
 * *m).  Operands before their users, so a node's subregion is final when it
 * is decided; depth first from ROOT (post-order), so a subtree is decided
 * whole before the next begins and few decided nodes wait on undecided
 * ones: the memo's states are then few per depth.  At each node the
 * operand with the largest tree (the subtree unfolded, a shared node
 * counted at each use) goes first: rbp PC2 proves its optimum in 11 s so,
 * in operands' order not within a minute.  SIZE: n doubles of scratch (a
 * tree can outgrow any int). */
static void decision_order(pctx *c, int *D, int *m, int *pos, double *size)
{
    for (int x = 0; x < c->n; x++) {
        size[x] = c->kind[x] >= K_ARITH;
        for (int j = c->astart[x]; j < c->astart[x + 1]; j++)
            size[x] += size[c->arg[j]];
        pos[x] = -1; /* until the numbering below: -1 not yet seen, 0 seen */
    }
    int *stack = c->ft, sp = 0;
    *m = 0;
    stack[sp++] = c->root;
    pos[c->root] = 0;
    while (sp > 0) {
        const int x = stack[sp - 1];
        int next = -1;
        for (int j = c->astart[x]; j < c->astart[x + 1]; j++) {
            const int a = c->arg[j];
            if (c->kind[a] >= K_ARITH && pos[a] < 0 && (next < 0 || size[a] > size[next]))
                next = a;
        }
        if (next >= 0) {
            pos[next] = 0;
            stack[sp++] = next;
            continue;
        }
        sp--;
        if (x != c->root)
            D[(*m)++] = x;
    }
    for (int x = 0; x < c->n; x++)
        pos[x] = *m;
    for (int i = 0; i < *m; i++)
        pos[D[i]] = i;
}

/* 0 when a user of X (but ROOT) can no longer fit any pass, whatever the
 * nodes not yet decided (POS[y] >= DECIDED) become: what it reads of the
 * decided nodes (their subregions, restores of the marked) already fails a
 * limit.  Undecided nodes would only add to it: more values, each live at
 * least as long (the limits are maxima of sums over the pass). */
static int users_may_fit(pctx *c, int x, const int *pos, int decided)
{
    part_usage u;
    int ok = 1;
    c->skip_pos = pos, c->skip_from = decided;
    for (int j = c->ustart[x]; j < c->ustart[x + 1] && ok; j++)
        if (c->user[j] != c->root)
            ok = sub_fits(c, c->user[j], &u);
    c->skip_pos = NULL;
    return ok;
}

/* Decides the marks of the non-leaf nodes in decision_order, unmarked
 * first.  When X is decided its subregion is final, and every node lies in
 * some pass that contains its whole subregion: X's subregion must fit either
 * way.  The bound: the decided passes, plus the work to come
 * (work_to_come) at one fetch or instruction each, and as many passes more
 * (each restored once, but ROOT's) as those operations fill; and the memo
 * of states searched.  BEST holds the best partition so far (*best_cost <
 * 0: none). */
static int optimal(pctx *c, double t0, double time_limit_s, uint8_t *best, double *best_cost, int *complete)
{
    const int n = c->n;
    int *D = c->glist, m = 0;
    int *pos = util_alloc(c->a, (size_t)n * sizeof *pos);
    double *size = util_alloc(c->a, (size_t)n * sizeof *size);
    if (!pos || !size) {
        util_free(c->a, pos), util_free(c->a, size);
        set_oom(c);
        return -1;
    }
    decision_order(c, D, &m, pos, size);
    util_free(c->a, size);
    /* opt[i]: 0 try unmarked next, 1 try marked next, 2 done; +4 while
     * marked and its pass (pf[i] fetches, pi[i] instructions) counted. */
    int8_t *opt = util_calloc(c->a, (size_t)m + 1, 1);
    int *pf = util_calloc(c->a, (size_t)m + 1, sizeof *pf), *pi = util_calloc(c->a, (size_t)m + 1, sizeof *pi);
    uint8_t *pend = util_alloc(c->a, (size_t)n);
    memo mm = { .words = (n + 63) / 64, .a = c->a };
    uint64_t *key = util_alloc(c->a, (size_t)mm.words * sizeof *key);
    if (!opt || !pf || !pi || !pend || !key || memo_alloc(&mm, MEMO_SLOTS0) < 0) {
        util_free(c->a, opt), util_free(c->a, pf), util_free(c->a, pi), util_free(c->a, pend), util_free(c->a, key), memo_free(&mm), util_free(c->a, pos);
        set_oom(c);
        return -1;
    }
    int marks = 0, fetches = 0, instrs = 0; /* over the decided passes */
    memset(c->marked, 0, (size_t)n);
    c->marked[c->root] = 1;
    const part_costs *k = &c->cost;
    long steps = 0;
    int i = 0;
    *complete = 1;
    part_usage u;
    while (i >= 0) {
        if (++steps % CLOCK_EVERY == 0 && time_limit_s > 0 && now_s() - t0 > time_limit_s) {
            *complete = 0;
            break;
        }
        if (i == m) {
            if (sub_eval(c, c->root, &u)) {
                const double cost = k->cp * (marks + 1) + k->ct * (fetches + u.fetches) +
                                    k->ci * (instrs + u.instrs);
                if (*best_cost < 0 || cost < *best_cost) {
                    *best_cost = cost;
                    memcpy(best, c->marked, (size_t)n);
                }
            }
            i--;
            continue;
        }
        const int x = D[i];
        if (opt[i] & 4) {
            opt[i] &= 3;
            marks--, fetches -= pf[i], instrs -= pi[i];
        }
        c->marked[x] = 0;
        if (opt[i] >= 2) {
            opt[i] = 0;
            i--;
            continue;
        }
        const int mark = opt[i]++;
        c->marked[x] = (uint8_t)mark;
        if (!sub_fits(c, x, &u)) {
            opt[i] = 2; /* X's subregion does not depend on X's own mark: both fail */
            continue;
        }
        if (mark) {
            opt[i] |= 4;
            pf[i] = u.fetches, pi[i] = u.instrs;
            marks++, fetches += u.fetches, instrs += u.instrs;
        }
        if (!users_may_fit(c, x, pos, i + 1))
            continue;
        /* F passes to come (ROOT's and F - 1 restored ones) do the work to
         * come and F - 1 restores, at most ops each. */
        int wa, wf, wr;
        work_to_come(c, pos, i + 1, pend, key, &wa, &wf, &wr);
        const int open = wa + wf + wr, L = c->lim.ops;
        const int later = L > 1 && open > L ? (open - 1 + L - 2) / (L - 1) : 1;
        const double decided = k->cp * marks + k->ct * fetches + k->ci * instrs;
        double bound = decided + k->cp * later + k->ct * (wf + wr + later - 1) + k->ci * wa;
        /* With one pass to come it is ROOT's, every undecided node unmarked
         * (as c->marked has them now): when that region does not fit, two
         * passes at least are to come, and the bound gains a pass and its
         * restore.  Evaluated only where that decides the cut. */
        if (later == 1 && *best_cost >= 0 && bound < *best_cost && bound + k->cp + k->ct >= *best_cost &&
            !sub_fits(c, c->root, &u))
            bound += k->cp + k->ct;
        if ((*best_cost >= 0 && bound >= *best_cost) || memo_seen(&mm, i + 1, key, decided))
            continue; /* the next visit takes X's pass back */
        i++;
    }
    util_free(c->a, opt), util_free(c->a, pf), util_free(c->a, pi), util_free(c->a, pend), util_free(c->a, key), memo_free(&mm), util_free(c->a, pos);
    return 0;
}

/* ---- the plan ------------------------------------------------------------------------ */

/* The passes of the marks in BEST, in id order (a pass restores only lower
 * ids, so it runs after their passes; ROOT last), their resources, and the
 * scratch slots: the saved value of pass a is busy from a to the last pass b
 * that restores it, both included; values are coloured in pass order with
 * the lowest free slot (optimal for intervals). */
static int build_plan(pctx *c, const uint8_t *best, part_plan *out, int algo_complete)
{
    const int n = c->n;
    out->alloc = c->a;
    memcpy(c->marked, best, (size_t)n);
    int count = 0;
    for (int x = 0; x <= c->root; x++)
        if (c->marked[x] && c->reach[x])
            c->ft[count++] = x;           /* pass roots */
    int *lastuse = c->glist, *busy = c->kids;
    for (int i = 0; i < n; i++)
        lastuse[i] = -1;
    part_pass *pass = util_calloc(c->a, (size_t)count, sizeof *pass);
    if (!pass)
        goto oom;
    out->pass = pass;
    out->pass_count = count;
    for (int p = 0; p < count; p++) {
        const int r = c->ft[p];
        part_usage u;
        sub_eval(c, r, &u);
        pass[p].root = r;
        pass[p].use = u;
        pass[p].slot = -1;
        pass[p].nodes = util_alloc(c->a, (size_t)(c->nlist ? c->nlist : 1) * sizeof(int));
        pass[p].restores = util_alloc(c->a, (size_t)(c->nrlist ? c->nrlist : 1) * sizeof(int));
        if (!pass[p].nodes || !pass[p].restores)
            goto oom;
        memcpy(pass[p].nodes, c->list, (size_t)c->nlist * sizeof(int));
        memcpy(pass[p].restores, c->rlist, (size_t)c->nrlist * sizeof(int));
        pass[p].node_count = c->nlist;
        pass[p].restore_count = c->nrlist;
        for (int j = 0; j < c->nrlist; j++)
            lastuse[c->rlist[j]] = p;
        out->fetches += u.fetches;
        out->instrs += u.instrs;
    }
    int slots = 0;
    for (int p = 0; p < count; p++) {
        const int r = pass[p].root;
        if (r == c->root)
            continue;
        const int until = lastuse[r] > p ? lastuse[r] : p;
        int s = 0;
        while (s < slots && busy[s] >= p)
            s++;
        if (s == slots)
            slots++;
        busy[s] = until;
        pass[p].slot = s;
    }
    out->slot_count = slots;
    out->cost = part_cost(out, &c->cost);
    out->complete = algo_complete;
    out->view = c->view;
    for (int x = 0; x < n; x++)
        out->mr_count += c->mr[x] && c->reach[x];
    if (c->view == PART_VECTOR) {
        out->node_of = util_alloc(c->a, (size_t)c->d->count * sizeof(int));
        if (!out->node_of)
            goto oom;
        memcpy(out->node_of, c->node_of, (size_t)c->d->count * sizeof(int));
        out->node_count = c->n;
    }
    return 0;
oom:
    part_plan_free(out);
    set_oom(c);
    return -1;
}

/* ---- the entry points ------------------------------------------------------------------ */

int part_partition(const ir_dag *d, part_algo algo, const part_limits *limits, const part_costs *costs,
                   double time_limit_s, part_plan *out, char *err, size_t err_size)
{
    return part_partition_view(d, PART_SCALAR, algo, limits, costs, time_limit_s, out, err, err_size);
}

int part_partition_view(const ir_dag *d, part_view view, part_algo algo, const part_limits *limits,
                        const part_costs *costs, double time_limit_s, part_plan *out, char *err, size_t err_size)
{
    const double t0 = now_s();
    pctx c;
    uint8_t *best = NULL;
    int rc = -1;
    if (out)
        memset(out, 0, sizeof *out);
    if (!(time_limit_s > 0) || time_limit_s > PART_MAX_TIME_LIMIT_S)
        time_limit_s = time_limit_s > PART_MAX_TIME_LIMIT_S ? PART_MAX_TIME_LIMIT_S : PART_DEFAULT_TIME_LIMIT_S;
    if (ctx_init(&c, d, view, limits, costs, t0, time_limit_s, err, err_size) < 0) {
        if (c.timed_out)
            set_err(&c, "partition: no partition found within the time limit of %g s (the DAG's dominator tree "
                        "alone took longer; %d nodes): raise the time limit", time_limit_s, c.n);
        goto done;
    }
    if (!out || !costs || !(costs->cp >= 0 && costs->ct >= 0 && costs->ci >= 0) ||
        (algo != PART_RDS && algo != PART_RDSH && algo != PART_OPTIMAL)) {
        set_err(&c, "partition: %s", !out ? "no plan to fill" : !costs ? "no costs"
                                     : algo > PART_OPTIMAL ? "unknown algorithm" : "costs must be >= 0");
        goto done;
    }
    best = util_alloc(c.a, (size_t)c.n);
    if (!best) {
        set_oom(&c);
        goto done;
    }
    double best_cost;
    rds(&c, algo != PART_RDSH, best, &best_cost);
    int complete = 0;
    if (algo == PART_OPTIMAL && !c.timed_out) {
        if (optimal(&c, t0, time_limit_s, best, &best_cost, &complete) < 0)
            goto done;
        if (best_cost < 0 && complete)
            set_err(&c, "partition: no partition fits within %do/%dr/%dt/%dv", c.lim.ops, c.lim.regs,
                    c.lim.texs, c.lim.interps);
    }
    if (best_cost < 0 && c.timed_out)
        set_err(&c, "partition: no partition found within the time limit of %g s (RDSh's one Subdivide "
                    "may take half as long again; %d nodes): raise the pass limits or the time limit",
                time_limit_s, c.n);
    if (best_cost < 0)
        goto done;
    if (err && err_size)
        err[0] = 0;
    rc = build_plan(&c, best, out, complete);
done:
    util_free(c.a, best);
    ctx_free(&c);
    return rc < 0 && c.oom ? IR_OOM : rc;
}

void part_plan_free(part_plan *p)
{
    if (!p)
        return;
    for (int i = 0; p->pass && i < p->pass_count; i++) {
        util_free(p->alloc, p->pass[i].nodes);
        util_free(p->alloc, p->pass[i].restores);
    }
    util_free(p->alloc, p->pass);
    util_free(p->alloc, p->node_of);
    memset(p, 0, sizeof *p);
}

int part_dominators(const ir_dag *d, int *idom, uint8_t *mr)
{
    pctx c;
    int rc = -1;
    if (ctx_init(&c, d, PART_SCALAR, NULL, NULL, 0, 0, NULL, 0) == 0) {
        for (int i = 0; i < c.n; i++) {
            if (idom)
                idom[i] = c.kind[i] >= K_ARITH && c.reach[i] ? c.idom[i] : -1;
            if (mr)
                mr[i] = c.mr[i];
        }
        rc = 0;
    }
    ctx_free(&c);
    return rc;
}
