/* partition_dag.c — the partitioner's view of a DAG, checked and indexed: node kinds, operands, users, the
 * immediate dominators, the MR nodes and the partial dominator tree.  Fed by partition.c; read by every phase. */
#include "shader/partition_priv.h"

#include <stdlib.h>

#include "util/alloc.h"

void part_ctx_free(pctx *c)
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
            part_set_err(c, "partition: node %d (%s): %d operands", i, ir_op_name(op), na);
            return -1;
        }
        for (int j = 0; j < na; j++)
            if (args[j] < 0 || args[j] >= i) {
                part_set_err(c, "partition: node %d (%s): operand %d is not an earlier node", i, ir_op_name(op),
                        args[j]);
                return -1;
            }
        total += (size_t)na;
        if (total > (size_t)MAX_NODES * 4) {
            part_set_err(c, "partition: more than %d operands", MAX_NODES * 4);
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
                part_set_err(c, "partition: node %d: operand %d is not an earlier node", x, args[j]);
                rc = -1;
                goto out;
            }
            const int va = c->node_of[args[j]];
            if (va < 0 || va == vx)
                continue;
            if (va > vx) {  /* groups interleaved: no vector order (not made by spirv.c) */
                part_set_err(c, "partition: the vector view needs each source instruction's nodes made together "
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

/* The DAG and the arguments part_ctx_init checks before it reads them: MOS_OK, or with the message
 * MOS_ERR_INVALID_ARGUMENT (no finished DAG, a bad limit or view) or MOS_ERR_SHADER (a DAG too large
 * or malformed). */
static mos_result check_input(pctx *c, const ir_dag *d, part_view view, const part_limits *limits)
{
    if (!d || !d->node || d->count <= 0 || d->root < 0 || d->root >= d->count ||
        d->node[d->root].op != IR_ROOT) {
        part_set_err(c, "partition: the DAG is not finished (no ROOT node)");
        return MOS_ERR_INVALID_ARGUMENT;
    }
    if (limits && (limits->ops < 0 || limits->regs < 0 || limits->texs < 0 || limits->interps < 0)) {
        part_set_err(c, "partition: negative limit");
        return MOS_ERR_INVALID_ARGUMENT;
    }
    if (view != PART_SCALAR && view != PART_VECTOR) {
        part_set_err(c, "partition: unknown view");
        return MOS_ERR_INVALID_ARGUMENT;
    }
    if (d->count > MAX_NODES) {
        part_set_err(c, "partition: %d nodes, at most %d", d->count, MAX_NODES);
        return MOS_ERR_SHADER;
    }
    if (d->out_count < 0 || (d->out_count > 0 && !d->out)) {
        part_set_err(c, "partition: bad output list");
        return MOS_ERR_SHADER;
    }
    for (int i = 0; i < d->count; i++)
        if (d->node[i].op >= IR_OP_COUNT || (d->node[i].op == IR_ROOT && i != d->root)) {
            part_set_err(c, "partition: node %d: bad operation %d", i, (int)d->node[i].op);
            return MOS_ERR_SHADER;
        }
    return MOS_OK;
}

/* The per-node arrays of the context and of the algorithms (zeroed): 0, or -1 when one fails. */
static int alloc_scratch(pctx *c, size_t un, size_t total)
{
#define ALLOC(p, count) if (!((p) = util_calloc(c->a, (count) + 1, sizeof *(p)))) return -1
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
    return 0;
}

/* Fetch and unit keys: each TEX node's lowest TEX id of the same (unit, u, v) and of the same unit. */
static int tex_keys(pctx *c, int n)
{
    int ntex = 0;
    for (int i = 0; i < n; i++)
        ntex += c->kind[i] == K_TEX;
    if (ntex) {
        tex_key *tk = util_alloc(c->a, (size_t)ntex * sizeof *tk);
        if (!tk) {
            part_set_oom(c);
            return -1;
        }
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
    return 0;
}

/* Whether A, an arg of the node scanned under stamp S, is arithmetic and
 * not yet met among that node's args (it is marked met). */
static inline bool first_arith_use(pctx *c, int a, uint32_t s)
{
    if (c->kind[a] < K_ARITH || c->seen[a] == s) return false;
    c->seen[a] = s;
    return true;
}

/* What ROOT reaches and each node's distinct users, in id order (CSR):
 * each arg's users counted, the counts summed into starts, the users placed. */
static void users(pctx *c, int n)
{
    c->reach[c->root] = 1;
    for (int x = c->root; x >= 0; x--)
        if (c->reach[x])
            for (int j = c->astart[x]; j < c->astart[x + 1]; j++)
                c->reach[c->arg[j]] = 1;
    for (int x = 0; x < n; x++) {
        if (!c->reach[x]) continue;
        const uint32_t s = next_stamp(c);
        for (int j = c->astart[x]; j < c->astart[x + 1]; j++)
            if (first_arith_use(c, c->arg[j], s)) c->ustart[c->arg[j] + 1]++;
    }
    for (int i = 0; i < n; i++)
        c->ustart[i + 1] += c->ustart[i];
    for (int x = 0; x < n; x++) {
        if (!c->reach[x]) continue;
        const uint32_t s = next_stamp(c);
        for (int j = c->astart[x]; j < c->astart[x + 1]; j++) {
            const int a = c->arg[j];
            if (first_arith_use(c, a, s)) c->user[c->ustart[a] + c->fi[a]++] = x;  /* users in id order */
        }
    }
}

/* The partial dominator tree: MR nodes, their immediate dominators, ROOT;
 * the parent of each is its nearest dominator in the tree.  -1 out of time. */
static int partial_tree(pctx *c, int n, size_t un)
{
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
}

mos_result part_ctx_init(pctx *c, const ir_dag *d, part_view view, const part_limits *limits,
                         const part_costs *costs, double t0, double limit_s, char *err, size_t err_size)
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
    const mos_result checked = check_input(c, d, view, limits);
    if (checked != MOS_OK)
        return checked;
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
        return MOS_ERR_SHADER;
    const int n = c->n;
    const size_t un = (size_t)n;
    const size_t total = (size_t)c->astart[n];

    if (alloc_scratch(c, un, total) < 0)
        goto oom;
    c->mk = c->marked;
    if (tex_keys(c, n) < 0)
        return MOS_ERR_OUT_OF_MEMORY;
    users(c, n);
    if (dominators(c) < 0 || partial_tree(c, n, un) < 0)  /* out of time */
        return MOS_ERR_SHADER;
    return MOS_OK;
oom:
    part_set_oom(c);
    return MOS_ERR_OUT_OF_MEMORY;
}

mos_result part_dominators(const ir_dag *d, int *idom, uint8_t *mr)
{
    pctx c;
    const mos_result rc = part_ctx_init(&c, d, PART_SCALAR, NULL, NULL, 0, 0, NULL, 0);
    if (rc == MOS_OK) {
        for (int i = 0; i < c.n; i++) {
            if (idom)
                idom[i] = c.kind[i] >= K_ARITH && c.reach[i] ? c.idom[i] : -1;
            if (mr)
                mr[i] = c.mr[i];
        }
    }
    part_ctx_free(&c);
    return rc;
}
