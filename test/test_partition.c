/* test_partition.c — the shader-DAG partitioner (seed 003): the seed's
 * Figure 2/3 DAG by hand, register and fetch counting, the callbacks, and
 * random DAGs under the seed's pipeline configurations, each plan re-checked
 * here from its definitions (not through part_valid).  Fed by make test. */
#include "check.h"

#include <math.h>

#include "shader/partition.h"
#include "shader/vm.h"

static const part_costs cost_15_5_1 = { 15, 5, 1 };

/* Seed Table 2: o/r/t/v, 0 = unlimited; PC 8 unlimited. */
static const part_limits pcs[8] = {
    { 6, 0, 0, 0 }, { 0, 4, 0, 0 }, { 0, 0, 4, 0 }, { 0, 0, 0, 4 },
    { 6, 4, 4, 4 }, { 24, 8, 8, 8 }, { 128, 12, 16, 12 }, { 0, 0, 0, 0 },
};

static int is_leaf_node(const ir_dag *d, int x) { return ir_is_leaf((ir_op)d->node[x].op); }

/* ---- an independent checker ------------------------------------------------------ */

static int uses(const ir_dag *d, int y, int v)
{
    const int *a;
    const int na = ir_args(d, y, &a);
    for (int j = 0; j < na; j++)
        if (a[j] == v)
            return 1;
    return 0;
}

static int same_fetch(const ir_dag *d, int x, int y)
{
    const ir_node *a = &d->node[x], *b = &d->node[y];
    return a->op == IR_TEX && b->op == IR_TEX && a->v.index == b->v.index && a->arg[0] == b->arg[0] &&
           a->arg[1] == b->arg[1];
}

/* A pass's resources from partition.h's definitions, by brute force. */
static void usage_of(const ir_dag *d, const int *nodes, int nn, const int *res, int nr, part_usage *u)
{
    memset(u, 0, sizeof *u);
    int units = 0, groups = 0;
    for (int i = 0; i < nn; i++) {
        const int x = nodes[i];
        const ir_op op = (ir_op)d->node[x].op;
        if (op == IR_TEX) {
            int new_group = 1, new_unit = 1;
            for (int j = 0; j < i; j++) {
                if (same_fetch(d, x, nodes[j]))
                    new_group = 0;
                if (d->node[nodes[j]].op == IR_TEX && d->node[nodes[j]].v.index == d->node[x].v.index)
                    new_unit = 0;
            }
            groups += new_group;
            units += new_unit;
        } else if (op != IR_ROOT) {
            u->instrs++;
        }
    }
    /* interpolants: distinct INPUT/FRAGCOORD operands */
    for (int x = 0; x < d->count; x++) {
        const ir_op op = (ir_op)d->node[x].op;
        if (op != IR_INPUT && op != IR_FRAGCOORD)
            continue;
        for (int i = 0; i < nn; i++)
            if (uses(d, nodes[i], x)) {
                u->interps++;
                break;
            }
    }
    u->fetches = groups + nr;
    u->ops = u->instrs + groups + nr;
    u->texs = units;  /* + one per restore read by the pass, + one for all copied straight out (below) */
    /* registers: [def, end) at positions 2 id (nodes), 2 id - 1 (restores) */
    const int npos = 2 * d->count + 4;
    int *live = calloc((size_t)npos, sizeof *live);
    int root_only = 0, root = d->root;
    for (int k = 0; k < nn + nr; k++) {
        const int v = k < nn ? nodes[k] : res[k - nn];
        if (d->node[v].op == IR_ROOT)
            continue;
        int def = -1, end = -1;
        if (k < nn) {
            def = 2 * v;
            for (int j = 0; j < nn; j++)
                if (same_fetch(d, v, nodes[j]) && 2 * nodes[j] < def)
                    def = 2 * nodes[j];
        } else {
            for (int j = 0; j < nn; j++)
                if (uses(d, nodes[j], v)) {
                    def = 2 * nodes[j] - 1;
                    break;
                }
        }
        for (int j = 0; j < nn; j++)
            if (d->node[nodes[j]].op != IR_ROOT && uses(d, nodes[j], v))
                end = 2 * nodes[j];
        if (end < 0) {
            if (k >= nn) {
                root_only = 1;
                continue;
            }
            end = def + 1;
        }
        if (k >= nn)
            u->texs++;
        for (int t = def; t < end; t++)
            live[t]++;
    }
    if (root_only) {
        live[2 * root - 1]++;
        u->texs++;
    }
    for (int t = 0; t < npos; t++)
        if (live[t] > u->regs)
            u->regs = live[t];
    free(live);
}

static int within(const part_limits *l, const part_usage *u)
{
    return (!l->ops || u->ops <= l->ops) && (!l->regs || u->regs <= l->regs) &&
           (!l->texs || u->texs <= l->texs) && (!l->interps || u->interps <= l->interps);
}

/* The subregion of ROOT when the nodes with MARK set are pass roots:
 * computed nodes and restores, both in id order.  IN is n bytes of scratch. */
static void subregion_of(const ir_dag *d, const uint8_t *mark, int root, uint8_t *in, int *nodes, int *nn,
                         int *res, int *nr)
{
    memset(in, 0, (size_t)d->count);
    in[root] = 1;
    for (int x = root; x >= 0; x--) {
        if (in[x] != 1)
            continue;
        const int *a;
        const int na = ir_args(d, x, &a);
        for (int j = 0; j < na; j++)
            if (!is_leaf_node(d, a[j]) && !in[a[j]])
                in[a[j]] = mark[a[j]] ? 2 : 1;
    }
    *nn = *nr = 0;
    for (int x = 0; x <= root; x++) {
        if (in[x] == 1)
            nodes[(*nn)++] = x;
        if (in[x] == 2)
            res[(*nr)++] = x;
    }
}

/* Every property of a plan the callers rely on; 1 when all hold. */
static int check_plan(const ir_dag *d, const part_plan *p, const part_limits *lim, const part_costs *k,
                      const char *what)
{
    const int before = check_g.failures;
    const int n = d->count;
    int *pass_of = malloc((size_t)n * sizeof *pass_of), *computed = calloc((size_t)n, sizeof *computed);
    int *last_read = malloc((size_t)n * sizeof *last_read);
    uint8_t *reach = calloc((size_t)n, 1), *in = calloc((size_t)n, 1), *mark = calloc((size_t)n, 1);
    for (int i = 0; i < n; i++)
        pass_of[i] = last_read[i] = -1;
    if (!CHECK_MSG(p->pass_count >= 1 && p->pass[p->pass_count - 1].root == d->root, "%s", what))
        goto out;
    for (int i = 0; i < p->pass_count; i++) {
        const int r = p->pass[i].root;
        CHECK_MSG(r >= 0 && r < n && !is_leaf_node(d, r) && pass_of[r] < 0, "%s: pass %d root %d", what, i, r);
        pass_of[r] = i;
        mark[r] = 1;
    }
    int fetches = 0, instrs = 0;
    for (int i = 0; i < p->pass_count; i++) {
        const part_pass *ps = &p->pass[i];
        /* the subregion of the root under the plan's marks */
        int nn, nr;
        int *nodes = malloc((size_t)n * sizeof *nodes), *res = malloc((size_t)n * sizeof *res);
        subregion_of(d, mark, ps->root, in, nodes, &nn, res, &nr);
        int same = nn == ps->node_count && nr == ps->restore_count;
        for (int j = 0; same && j < nn; j++)
            same = nodes[j] == ps->nodes[j];
        for (int j = 0; same && j < nr; j++)
            same = res[j] == ps->restores[j];
        CHECK_MSG(same, "%s: pass %d (root %d) is not the root's subregion", what, i, ps->root);
        for (int j = 0; j < nn; j++)
            computed[nodes[j]]++;
        for (int j = 0; j < nr; j++) {
            CHECK_MSG(pass_of[res[j]] >= 0 && pass_of[res[j]] < i, "%s: pass %d restores %d saved later", what,
                      i, res[j]);
            last_read[res[j]] = i;
        }
        part_usage u;
        usage_of(d, nodes, nn, res, nr, &u);
        CHECK_MSG(u.ops == ps->use.ops && u.regs == ps->use.regs && u.texs == ps->use.texs &&
                      u.interps == ps->use.interps && u.fetches == ps->use.fetches && u.instrs == ps->use.instrs,
                  "%s: pass %d: %d/%d/%d/%d f%d i%d reported %d/%d/%d/%d f%d i%d", what, i, u.ops, u.regs,
                  u.texs, u.interps, u.fetches, u.instrs, ps->use.ops, ps->use.regs, ps->use.texs,
                  ps->use.interps, ps->use.fetches, ps->use.instrs);
        CHECK_MSG(within(lim, &u), "%s: pass %d uses %do/%dr/%dt/%dv over %d/%d/%d/%d", what, i, u.ops, u.regs,
                  u.texs, u.interps, lim->ops, lim->regs, lim->texs, lim->interps);
        fetches += u.fetches;
        instrs += u.instrs;
        free(nodes);
        free(res);
    }
    /* every non-leaf node the outputs need is computed somewhere */
    reach[d->root] = 1;
    for (int x = d->root; x >= 0; x--)
        if (reach[x]) {
            const int *a;
            const int na = ir_args(d, x, &a);
            for (int j = 0; j < na; j++)
                reach[a[j]] = 1;
        }
    for (int x = 0; x < n; x++)
        if (reach[x] && !is_leaf_node(d, x))
            CHECK_MSG(computed[x] > 0, "%s: node %d computed by no pass", what, x);
    /* every saved value is read; slots never shared by values needed at once */
    CHECK_MSG(p->slot_count >= 0 && p->slot_count <= p->pass_count - 1, "%s: %d slots", what, p->slot_count);
    for (int i = 0; i < p->pass_count; i++) {
        const part_pass *a = &p->pass[i];
        if (a->root == d->root) {
            CHECK_MSG(a->slot == -1, "%s: ROOT pass slot %d", what, a->slot);
            continue;
        }
        CHECK_MSG(last_read[a->root] > i, "%s: pass %d is never restored", what, i);
        CHECK_MSG(a->slot >= 0 && a->slot < p->slot_count, "%s: pass %d slot %d", what, i, a->slot);
        for (int j = 0; j < i; j++) {
            const part_pass *b = &p->pass[j];
            if (b->root == d->root)
                continue;
            const int overlap = j <= last_read[a->root] && i <= last_read[b->root];
            CHECK_MSG(!overlap || a->slot != b->slot, "%s: passes %d and %d share slot %d while both needed",
                      what, j, i, a->slot);
        }
    }
    CHECK_MSG(p->fetches == fetches && p->instrs == instrs, "%s: totals %d %d, expected %d %d", what,
              p->fetches, p->instrs, fetches, instrs);
    const double cost = k->cp * p->pass_count + k->ct * fetches + k->ci * instrs;
    CHECK_MSG(fabs(cost - p->cost) < 1e-9 && fabs(part_cost(p, k) - cost) < 1e-9, "%s: cost %g, expected %g",
              what, p->cost, cost);
out:
    free(pass_of);
    free(computed);
    free(last_read);
    free(reach);
    free(in);
    free(mark);
    return check_g.failures == before;
}

/* ---- the seed's Figures 2 and 3 ---------------------------------------------------- */

/* A (here ROOT, outputs B and C), B = D + E, D = H * in3, C = cos in3,
 * E = select(F, G, H), F = G + I, G = K * L, I = sqrt K, H = J * u0,
 * J = floor in2, K = |in0|, L = |in1|.  MR nodes H, G, K; B dominates H, E
 * dominates G and K (Figure 3); marking A, B, H gives 3 passes with
 * subregion(F) = {F, G, I, K, L}; marking A, E recomputes H and J (Figure 2). */
typedef struct fig { ir_dag d; int B, C, D, E, F, G, H, I, J, K, L, A; } fig;

static void fig_build(fig *f)
{
    ir_dag *d = &f->d;
    ir_init(d, IR_FRAGMENT);
    const int in0 = ir_leaf(d, IR_INPUT, 0, 0), in1 = ir_leaf(d, IR_INPUT, 1, 0);
    const int in2 = ir_leaf(d, IR_INPUT, 2, 0), in3 = ir_leaf(d, IR_INPUT, 3, 0);
    const int u0 = ir_leaf(d, IR_UNIFORM, 0, 0);
    f->K = ir_add(d, IR_ABS, in0, 0, 0);
    f->L = ir_add(d, IR_ABS, in1, 0, 0);
    f->J = ir_add(d, IR_FLOOR, in2, 0, 0);
    f->G = ir_add(d, IR_MUL, f->K, f->L, 0);
    f->I = ir_add(d, IR_SQRT, f->K, 0, 0);
    f->H = ir_add(d, IR_MUL, f->J, u0, 0);
    f->F = ir_add(d, IR_ADD, f->G, f->I, 0);
    f->E = ir_add(d, IR_SELECT, f->F, f->G, f->H);
    f->D = ir_add(d, IR_MUL, f->H, in3, 0);
    f->C = ir_add(d, IR_COS, in3, 0, 0);
    f->B = ir_add(d, IR_ADD, f->D, f->E, 0);
    const int outs[2] = { f->B, f->C };
    CHECK(ir_finish(d, outs, 2) == 0);
    f->A = d->root;
    CHECK_EQ_INT(d->count, 17); /* nothing dead: the ids above still hold */
}

static void test_figures(void)
{
    fig f;
    fig_build(&f);
    const ir_dag *d = &f.d;
    int idom[32];
    uint8_t mr[32];
    CHECK(part_dominators(d, idom, mr) == 0);
    const int expect[][2] = { { f.B, f.A }, { f.C, f.A }, { f.D, f.B }, { f.E, f.B }, { f.H, f.B }, { f.J, f.H },
                              { f.F, f.E }, { f.G, f.E }, { f.K, f.E }, { f.I, f.F }, { f.L, f.G } };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
        CHECK_MSG(idom[expect[i][0]] == expect[i][1], "idom(%d) = %d, expected %d", expect[i][0],
                  idom[expect[i][0]], expect[i][1]);
    CHECK_EQ_INT(idom[f.A], f.A);
    CHECK_EQ_INT(idom[0], -1); /* a leaf */
    int mr_count = 0;
    for (int i = 0; i < d->count; i++)
        mr_count += mr[i];
    CHECK(mr_count == 3 && mr[f.H] && mr[f.G] && mr[f.K]);

    /* Figure 2b: marks A, B, H. */
    uint8_t mk[32] = { 0 };
    mk[f.A] = mk[f.B] = mk[f.H] = 1;
    part_usage u;
    const part_limits none = { 0 };
    CHECK(part_valid(d, mk, f.F, &none, &u) == 1);
    CHECK(u.instrs == 5 && u.ops == 5 && u.fetches == 0 && u.interps == 2); /* F G I K L */
    CHECK(part_valid(d, mk, f.B, &none, &u) == 1);
    CHECK(u.instrs == 8 && u.fetches == 1 && u.texs == 1); /* B D E F G I K L, restores H */
    CHECK(part_valid(d, mk, f.A, &none, &u) == 1);
    CHECK(u.instrs == 1 && u.fetches == 1); /* C, restores B */
    /* Figure 2c: marks A, E: H and J in both passes. */
    memset(mk, 0, sizeof mk);
    mk[f.A] = mk[f.E] = 1;
    CHECK(part_valid(d, mk, f.E, &none, &u) == 1 && u.instrs == 8 && u.fetches == 0);
    CHECK(part_valid(d, mk, f.A, &none, &u) == 1 && u.instrs == 5 && u.fetches == 1); /* B C D H J */
    CHECK(part_valid(d, mk, f.A, &(part_limits){ .ops = 5 }, &u) == 0);                /* 6 ops */
    CHECK(part_valid(d, mk, 0, &none, &u) == -1);                                       /* a leaf */

    /* 9 operations a pass: 11 do not fit one; marking E (2 passes, H and J
     * recomputed: 30 + 5 + 13) is the optimum, and RDS finds it. */
    const part_limits o9 = { .ops = 9 };
    part_plan p[3];
    char err[200];
    const part_algo algos[3] = { PART_RDSH, PART_RDS, PART_OPTIMAL };
    for (int a = 0; a < 3; a++) {
        CHECK_MSG(part_partition(d, algos[a], &o9, &cost_15_5_1, 10, &p[a], err, sizeof err) == 0, "%s", err);
        check_plan(d, &p[a], &o9, &cost_15_5_1, "figure o9");
    }
    CHECK(p[2].complete == 1);
    CHECK_MSG(p[2].pass_count == 2 && p[2].cost == 48 && p[2].pass[0].root == f.E, "optimal %d passes cost %g",
              p[2].pass_count, p[2].cost);
    CHECK_MSG(p[1].cost == 48 && p[1].pass_count == 2, "RDS %d passes cost %g", p[1].pass_count, p[1].cost);
    CHECK(p[0].cost >= p[1].cost);
    for (int a = 0; a < 3; a++)
        part_plan_free(&p[a]);

    /* Every PC: all three algorithms give checked plans, optimal <= RDS <= RDSh. */
    for (int pc = 0; pc < 8; pc++) {
        for (int a = 0; a < 3; a++) {
            CHECK_MSG(part_partition(d, algos[a], &pcs[pc], &cost_15_5_1, 10, &p[a], err, sizeof err) == 0,
                      "PC%d: %s", pc + 1, err);
            check_plan(d, &p[a], &pcs[pc], &cost_15_5_1, "figure");
        }
        CHECK(p[2].complete && p[2].cost <= p[1].cost + 1e-9 && p[1].cost <= p[0].cost + 1e-9);
        if (pc == 7)
            CHECK(p[0].pass_count == 1 && p[1].pass_count == 1 && p[2].pass_count == 1);
        for (int a = 0; a < 3; a++)
            part_plan_free(&p[a]);
    }
    ir_free(&f.d);
}

/* ---- the vector view ------------------------------------------------------------- */

/* A DAG made as spirv.c makes one, a group per source instruction:
 *   g1  n = input vec3 (3 INPUT leaves)
 *   g2  m = normalize(n): 3 MUL, 2 ADD, RSQRT, 3 MUL (9 scalar operations)
 *   g3  t = texture(unit 0, m.xy) (4 TEX components)
 *   g4  r = t.rgb * m.z (3 MUL)
 *   g5  a = t.a + 1 (1 ADD)
 * In the vector view: an interpolant, ceil(9/4) = 3 + 1 + 1 operations
 * and one fetch; in the scalar view 3 interpolants, 13 operations. */
static void vector_dag(ir_dag *d)
{
    ir_init(d, IR_FRAGMENT);
    d->group_now = 1;
    const int nx = ir_leaf(d, IR_INPUT, 0, 0), ny = ir_leaf(d, IR_INPUT, 1, 0), nz = ir_leaf(d, IR_INPUT, 2, 0);
    d->group_now = 2;
    const int dot = ir_add(d, IR_ADD, ir_add(d, IR_ADD, ir_add(d, IR_MUL, nx, nx, -1), ir_add(d, IR_MUL, ny, ny, -1), -1),
                           ir_add(d, IR_MUL, nz, nz, -1), -1);
    const int inv = ir_add(d, IR_RSQRT, dot, -1, -1);
    const int mx = ir_add(d, IR_MUL, nx, inv, -1), my = ir_add(d, IR_MUL, ny, inv, -1), mz = ir_add(d, IR_MUL, nz, inv, -1);
    d->group_now = 3;
    int t[4];
    for (int c = 0; c < 4; c++)
        t[c] = ir_tex(d, 0, c, mx, my);
    d->group_now = 4;
    int out[4];
    for (int c = 0; c < 3; c++)
        out[c] = ir_add(d, IR_MUL, t[c], mz, -1);
    d->group_now = 5;
    out[3] = ir_add(d, IR_ADD, t[3], ir_const(d, 1.0f), -1);
    ir_finish(d, out, 4);
}

static void test_vector_view(void)
{
    ir_dag d;
    vector_dag(&d);
    const part_limits none = { 0 };
    part_plan v, s;
    char err[200];
    if (!CHECK_MSG(part_partition_view(&d, PART_VECTOR, PART_RDS, &none, &cost_15_5_1, 10, &v, err, sizeof err) == 0,
                   "%s", err) ||
        !CHECK_MSG(part_partition(&d, PART_RDS, &none, &cost_15_5_1, 10, &s, err, sizeof err) == 0, "%s", err))
        goto out;
    CHECK(v.view == PART_VECTOR && s.view == PART_SCALAR && v.pass_count == 1 && s.pass_count == 1);
    const part_usage *vu = &v.pass[0].use, *su = &s.pass[0].use;
    CHECK_MSG(vu->instrs == 5 && vu->fetches == 1 && vu->ops == 6 && vu->interps == 1 && vu->texs == 1,
              "vector: %d instructions, %d fetches, %d ops, %d interpolants", vu->instrs, vu->fetches, vu->ops,
              vu->interps);
    CHECK_MSG(su->instrs == 13 && su->fetches == 1 && su->interps == 3, "scalar: %d instructions, %d interpolants",
              su->instrs, su->interps);
    /* input, normalize, fetch, rgb, alpha, ROOT */
    CHECK_MSG(v.node_count == 6, "%d vector nodes", v.node_count);
    int same = 1;
    for (int i = 0; i < d.count; i++) {
        const int vi = v.node_of[i];
        if (d.node[i].op == IR_CONST) {
            same &= vi == -1;
            continue;
        }
        same &= vi >= 0 && vi < v.node_count;
        for (int j = 0; j < i; j++)  /* one vector node: one group, one kind */
            if (v.node_of[j] == vi && vi >= 0)
                same &= d.node[j].group == d.node[i].group && ir_is_leaf((ir_op)d.node[j].op) == ir_is_leaf((ir_op)d.node[i].op);
    }
    CHECK_MSG(same, "node_of does not map each group to one vector node");
    /* The VM runs scalar plans only. */
    vm_program *vm;
    CHECK(vm_build(&d, &v, 64, &vm, err, sizeof err) == MOS_ERR_INVALID_ARGUMENT && strstr(err, "vector"));
    part_plan_free(&v);
    part_plan_free(&s);
    /* Three operations a pass: normalize alone, then the fetch and the
     * rest; every algorithm's passes fit, optimal <= RDS <= RDSh. */
    const part_limits o3 = { .ops = 3 };
    part_plan p[3];
    const part_algo algos[3] = { PART_RDSH, PART_RDS, PART_OPTIMAL };
    for (int a = 0; a < 3; a++) {
        if (!CHECK_MSG(part_partition_view(&d, PART_VECTOR, algos[a], &o3, &cost_15_5_1, 10, &p[a], err, sizeof err) == 0,
                       "o3 algo %d: %s", a, err))
            goto out;
        int fit = 1, instrs = 0;
        for (int k = 0; k < p[a].pass_count; k++) {
            fit &= p[a].pass[k].use.ops <= 3;
            instrs += p[a].pass[k].use.instrs;
        }
        CHECK_MSG(fit && p[a].pass_count >= 2 && instrs >= 5, "o3 algo %d: %d passes, %d instructions", a,
                  p[a].pass_count, instrs);
    }
    CHECK(p[2].complete && p[2].cost <= p[1].cost + 1e-9 && p[1].cost <= p[0].cost + 1e-9);
    for (int a = 0; a < 3; a++)
        part_plan_free(&p[a]);
    /* A group whose nodes were not made together has no vector order: an
     * error, not a cycle. */
    ir_free(&d);
    ir_init(&d, IR_FRAGMENT);
    d.group_now = 1;
    const int x = ir_leaf(&d, IR_INPUT, 0, 0), x1 = ir_add(&d, IR_NEG, x, -1, -1);
    d.group_now = 2;
    const int y1 = ir_add(&d, IR_ABS, x, -1, -1);
    d.group_now = 1;
    const int x2 = ir_add(&d, IR_ADD, y1, x1, -1);
    ir_finish(&d, &x2, 1);
    CHECK(part_partition_view(&d, PART_VECTOR, PART_RDS, &none, &cost_15_5_1, 10, &v, err, sizeof err) ==
              MOS_ERR_SHADER && strstr(err, "vector view"));
    CHECK(part_partition(&d, PART_RDS, &none, &cost_15_5_1, 10, &s, err, sizeof err) == 0);
    part_plan_free(&s);
out:
    ir_free(&d);
}

/* ---- counting: registers, fetches, restores, outputs --------------------------------- */

static void test_counting(void)
{
    ir_dag d;
    const part_limits none = { 0 };
    part_usage u;
    /* x = in0 + in1, y = x * in2, z = x + y: x and y live together. */
    ir_init(&d, IR_FRAGMENT);
    int in0 = ir_leaf(&d, IR_INPUT, 0, 0), in1 = ir_leaf(&d, IR_INPUT, 1, 0), in2 = ir_leaf(&d, IR_INPUT, 2, 0);
    int x = ir_add(&d, IR_ADD, in0, in1, 0), y = ir_add(&d, IR_MUL, x, in2, 0), z = ir_add(&d, IR_ADD, x, y, 0);
    CHECK(ir_finish(&d, &z, 1) == 0);
    CHECK(part_valid(&d, NULL, d.root, &none, &u) == 1);
    CHECK_MSG(u.ops == 3 && u.regs == 2 && u.texs == 0 && u.interps == 3 && u.fetches == 0 && u.instrs == 3,
              "%d/%d/%d/%d", u.ops, u.regs, u.texs, u.interps);
    /* x and y restored: both read just before z. */
    uint8_t mk[16] = { 0 };
    mk[x] = mk[y] = 1;
    CHECK(part_valid(&d, mk, z, &none, &u) == 1);
    CHECK(u.ops == 3 && u.regs == 2 && u.texs == 2 && u.interps == 0 && u.fetches == 2 && u.instrs == 1);
    CHECK(part_valid(&d, mk, z, &(part_limits){ .regs = 1 }, &u) == 0);
    CHECK(part_valid(&d, mk, z, &(part_limits){ .texs = 2, .ops = 3, .regs = 2 }, &u) == 1);
    ir_free(&d);

    /* Two components of one fetch are one op and one unit, two registers. */
    ir_init(&d, IR_FRAGMENT);
    in0 = ir_leaf(&d, IR_INPUT, 0, 0);
    in1 = ir_leaf(&d, IR_INPUT, 1, 0);
    const int t0 = ir_tex(&d, 0, 0, in0, in1), t1 = ir_tex(&d, 0, 1, in0, in1), t2 = ir_tex(&d, 1, 0, in0, in1);
    const int s = ir_add(&d, IR_ADD, t0, t1, 0), w = ir_add(&d, IR_MUL, s, t2, 0);
    CHECK(ir_finish(&d, &w, 1) == 0);
    CHECK(part_valid(&d, NULL, d.root, &none, &u) == 1);
    CHECK_MSG(u.ops == 4 && u.regs == 3 && u.texs == 2 && u.interps == 2 && u.fetches == 2 && u.instrs == 2,
              "%d/%d/%d/%d f%d i%d", u.ops, u.regs, u.texs, u.interps, u.fetches, u.instrs);
    ir_free(&d);

    /* Five outputs read back by the ROOT pass: copied out one at a time, one unit and one register. */
    ir_init(&d, IR_FRAGMENT);
    int outs[5];
    for (int i = 0; i < 5; i++) {
        const int a = ir_leaf(&d, IR_INPUT, i, 0);
        outs[i] = ir_add(&d, IR_SIN, ir_add(&d, IR_EXP2, a, 0, 0), 0, 0);
    }
    CHECK(ir_finish(&d, outs, 5) == 0);
    memset(mk, 0, sizeof mk);
    for (int i = 0; i < 5; i++)
        mk[d.out[i]] = 1;
    CHECK(part_valid(&d, mk, d.root, &none, &u) == 1);
    CHECK_MSG(u.ops == 5 && u.regs == 1 && u.texs == 1 && u.interps == 0 && u.instrs == 0, "%d/%d/%d/%d",
              u.ops, u.regs, u.texs, u.interps);
    /* All outputs computed in the ROOT pass: each written out as computed. */
    CHECK(part_valid(&d, NULL, d.root, &none, &u) == 1);
    CHECK_MSG(u.ops == 10 && u.regs == 1 && u.interps == 5, "%d/%d/%d", u.ops, u.regs, u.interps);
    /* ... so 5 outputs fit 4 registers (PC 2), and 4 texture units. */
    part_plan p;
    char err[200];
    for (int pc = 1; pc <= 2; pc++) {
        CHECK_MSG(part_partition(&d, PART_RDS, &pcs[pc], &cost_15_5_1, 0, &p, err, sizeof err) == 0, "%s", err);
        check_plan(&d, &p, &pcs[pc], &cost_15_5_1, "five outputs");
        part_plan_free(&p);
    }
    ir_free(&d);
}

/* Outputs that are leaves or repeated, no outputs, and a vertex-like ROOT
 * with 20 outputs (more kids than the merge tries every subset of). */
static void test_outputs(void)
{
    const part_algo algos[3] = { PART_RDSH, PART_RDS, PART_OPTIMAL };
    part_plan p;
    char err[200];
    ir_dag d;
    ir_init(&d, IR_FRAGMENT);
    const int in0 = ir_leaf(&d, IR_INPUT, 0, 0), k = ir_const(&d, 2.0f);
    const int x = ir_add(&d, IR_SIN, in0, 0, 0), y = ir_add(&d, IR_MUL, x, in0, 0);
    const int outs[5] = { y, in0, k, y, x };
    CHECK(ir_finish(&d, outs, 5) == 0);
    for (int pc = 0; pc < 8; pc++)
        for (int a = 0; a < 3; a++) {
            CHECK_MSG(part_partition(&d, algos[a], &pcs[pc], &cost_15_5_1, 1, &p, err, sizeof err) == 0, "%s", err);
            check_plan(&d, &p, &pcs[pc], &cost_15_5_1, "leaf outputs");
            part_plan_free(&p);
        }
    ir_free(&d);

    ir_init(&d, IR_FRAGMENT);
    ir_leaf(&d, IR_INPUT, 0, 0);
    CHECK(ir_finish(&d, NULL, 0) == 0);
    CHECK(part_partition(&d, PART_RDS, &pcs[4], &cost_15_5_1, 1, &p, err, sizeof err) == 0);
    CHECK(check_plan(&d, &p, &pcs[4], &cost_15_5_1, "no outputs") && p.pass_count == 1 && p.cost == 15);
    part_plan_free(&p);
    ir_free(&d);

    ir_init(&d, IR_VERTEX);
    int many[20];
    for (int i = 0; i < 20; i++) {
        const int a = ir_leaf(&d, IR_INPUT, i, 0), b = ir_leaf(&d, IR_INPUT, (i + 7) % 20, 0);
        many[i] = ir_add(&d, IR_EXP2, ir_add(&d, IR_MUL, a, b, 0), 0, 0);
    }
    CHECK(ir_finish(&d, many, 20) == 0);
    const part_limits lims[4] = { pcs[1], pcs[3], { 0, 3, 0, 5 }, { 64, 4, 0, 6 } };
    for (int l = 0; l < 4; l++) {
        double cost[3] = { 0, 0, 0 };
        for (int a = 0; a < 3; a++) {
            CHECK_MSG(part_partition(&d, algos[a], &lims[l], &cost_15_5_1, 0.2, &p, err, sizeof err) == 0, "%s", err);
            check_plan(&d, &p, &lims[l], &cost_15_5_1, "20 outputs");
            cost[a] = p.cost;
            part_plan_free(&p);
        }
        CHECK(cost[2] <= cost[1] && cost[1] <= cost[0]);
    }
    /* 20 outputs cannot share one pass of 6 operations */
    CHECK(part_partition(&d, PART_RDS, &pcs[0], &cost_15_5_1, 0.5, &p, err, sizeof err) == MOS_ERR_SHADER && err[0]);
    ir_free(&d);
}

static void test_callbacks(void)
{
    const part_limits pc5 = pcs[4], none = { 0 };
    CHECK(part_recompute(&(part_usage){ .ops = 2, .regs = 1, .texs = 1, .interps = 1 }, &pc5) == 1);
    CHECK(part_recompute(&(part_usage){ .ops = 3, .regs = 1, .texs = 1, .interps = 1 }, &pc5) == 0);
    CHECK(part_recompute(&(part_usage){ .ops = 2, .regs = 1, .texs = 2, .interps = 1 }, &pc5) == 0);
    CHECK(part_recompute(&(part_usage){ .ops = 900, .regs = 90 }, &none) == 1);
    const part_usage a = { .ops = 3, .regs = 2, .texs = 1, .interps = 1 };
    const part_usage b = { .ops = 4, .regs = 2, .texs = 1, .interps = 1 };
    const part_usage c = { .ops = 1, .regs = 3, .texs = 1, .interps = 1 }; /* fuller in registers */
    CHECK(part_merge(&a, &b, &pc5) < 0 && part_merge(&b, &a, &pc5) > 0 && part_merge(&a, &a, &pc5) == 0);
    CHECK(part_merge(&c, &a, &pc5) > 0);
    CHECK(part_merge(&a, &b, &none) < 0);
    part_plan p = { .pass_count = 3, .fetches = 4, .instrs = 10 };
    CHECK(part_cost(&p, &cost_15_5_1) == 75);
}

/* ---- errors and hostile input --------------------------------------------------------- */

static void test_errors(void)
{
    ir_dag d;
    ir_init(&d, IR_FRAGMENT);
    const int in0 = ir_leaf(&d, IR_INPUT, 0, 0), in1 = ir_leaf(&d, IR_INPUT, 1, 0);
    const int x = ir_add(&d, IR_ADD, in0, in1, 0), y = ir_add(&d, IR_MUL, x, in1, 0);
    part_plan p;
    char err[200] = "";
    /* not finished */
    CHECK(part_partition(&d, PART_RDS, NULL, &cost_15_5_1, 0, &p, err, sizeof err) == MOS_ERR_INVALID_ARGUMENT &&
          err[0]);
    CHECK(p.pass_count == 0 && p.pass == NULL);
    part_plan_free(&p);
    CHECK(ir_finish(&d, &y, 1) == 0);
    /* y needs 2 ops (y and x, or y and a restore of x) */
    const part_algo algos[3] = { PART_RDSH, PART_RDS, PART_OPTIMAL };
    for (int a = 0; a < 3; a++) {
        err[0] = 0;
        CHECK(part_partition(&d, algos[a], &(part_limits){ .ops = 1 }, &cost_15_5_1, 1, &p, err, sizeof err) ==
              MOS_ERR_SHADER);
        CHECK_MSG(err[0] != 0, "no message");
        CHECK(p.pass_count == 0);
        part_plan_free(&p);
    }
    /* ... and fits 2 */
    CHECK(part_partition(&d, PART_RDS, &(part_limits){ .ops = 2 }, &cost_15_5_1, 1, &p, err, sizeof err) == 0);
    CHECK(check_plan(&d, &p, &(part_limits){ .ops = 2 }, &cost_15_5_1, "ops 2") && p.pass_count == 1);
    part_plan_free(&p);
    CHECK(part_partition(&d, PART_RDS, &(part_limits){ .regs = -1 }, &cost_15_5_1, 1, &p, err, sizeof err) ==
          MOS_ERR_INVALID_ARGUMENT);
    CHECK(part_partition(&d, PART_RDS, NULL, &(part_costs){ -1, 0, 0 }, 1, &p, err, sizeof err) ==
          MOS_ERR_INVALID_ARGUMENT);
    CHECK(part_partition(&d, (part_algo)7, NULL, &cost_15_5_1, 1, &p, err, sizeof err) == MOS_ERR_INVALID_ARGUMENT);
    CHECK(part_partition(&d, PART_RDS, NULL, NULL, 1, &p, err, sizeof err) == MOS_ERR_INVALID_ARGUMENT);
    CHECK(part_partition(NULL, PART_RDS, NULL, &cost_15_5_1, 1, &p, NULL, 0) == MOS_ERR_INVALID_ARGUMENT);
    ir_free(&d);

    /* Garbage DAGs: refused as a bad DAG or argument, or a plan, never a crash (ASan/UBSan watch). */
    test_rng r = { 0x1234567 };
    int ok = 0, bad = 0;
    for (int t = 0; t < 2000; t++) {
        const int n = rng_range(&r, 2, 12);
        ir_node nodes[12];
        int outs[4];
        memset(nodes, 0, sizeof nodes);
        /* mostly well formed, each part broken now and then */
        for (int i = 0; i < n; i++) {
            const int sane = rng_unit(&r) < 0.97;
            nodes[i].op = (uint8_t)(sane ? rng_range(&r, 0, IR_ROOT - 1) : rng_range(&r, 0, IR_OP_COUNT + 1));
            nodes[i].nargs = (uint8_t)(sane ? ir_op_arity((ir_op)nodes[i].op) : rng_range(&r, 0, 3));
            for (int j = 0; j < 3; j++)
                nodes[i].arg[j] = sane && i > 0 ? rng_range(&r, 0, i - 1) : rng_range(&r, -1, n);
            nodes[i].v.index = rng_range(&r, -2, 3);
        }
        for (int j = 0; j < 4; j++)
            outs[j] = rng_unit(&r) < 0.9 ? rng_range(&r, 0, n - 2) : rng_range(&r, -1, n);
        ir_dag g = { .stage = IR_FRAGMENT, .node = nodes, .count = n, .cap = n, .out = outs,
                     .out_count = rng_range(&r, 0, 4), .root = rng_unit(&r) < 0.9 ? n - 1 : rng_range(&r, -1, n) };
        if (rng_unit(&r) < 0.9 && g.root >= 0 && g.root < n)
            nodes[g.root].op = IR_ROOT;
        const part_limits lim = { rng_range(&r, 0, 4), rng_range(&r, 0, 4), rng_range(&r, 0, 4), rng_range(&r, 0, 4) };
        const mos_result rc = part_partition(&g, algos[t % 3], &lim, &cost_15_5_1, 0.05, &p, err, sizeof err);
        if (rc == MOS_OK) {
            ok++;
            part_plan_free(&p);
        } else {
            bad++;
            CHECK_MSG(err[0] != 0 && (rc == MOS_ERR_SHADER || rc == MOS_ERR_INVALID_ARGUMENT), "%s: %s",
                      mos_result_name(rc), err);
        }
        uint8_t mk[12] = { 0 };
        part_usage u;
        (void)part_valid(&g, mk, rng_range(&r, -1, n), &lim, &u);
        int idom[12];
        (void)part_dominators(&g, idom, NULL);
    }
    printf("  garbage DAGs: %d partitioned, %d rejected\n", ok, bad);
    CHECK(ok > 0 && bad > 0);
}

/* ---- random DAGs ---------------------------------------------------------------------- */

/* A random fragment DAG of MIN..MAX nodes after ir_finish, about TARGET
 * operations: inputs, uniforms, a constant, texture fetches (some sharing a
 * fetch), operands biased to recent nodes so that some nodes are shared;
 * with chance FRESH an operand is a node nothing uses yet (fewer MR nodes). */
static void random_dag(test_rng *r, ir_dag *d, int min_nodes, int max_nodes, int target, int max_outs,
                       double fresh)
{
    for (int attempt = 0;; attempt++) {
        ir_init(d, IR_FRAGMENT);
        int pool[2048], np = 0, ops[2048], no = 0, tex[256], nt = 0;
        uint8_t used[2048] = { 0 };
        const int inputs = rng_range(r, 2, 6);
        for (int i = 0; i < inputs; i++)
            pool[np++] = ir_leaf(d, IR_INPUT, rng_range(r, 0, 7), 0);
        for (int i = rng_range(r, 1, 3); i > 0; i--)
            pool[np++] = ir_leaf(d, IR_UNIFORM, 4 * rng_range(r, 0, 7), 0);
        pool[np++] = ir_const(d, 0.5f);
        if (rng_range(r, 0, 3) == 0)
            pool[np++] = ir_leaf(d, IR_FRAGCOORD, rng_range(r, 0, 1), 0);
        static const ir_op un[] = { IR_NEG, IR_ABS, IR_SQRT, IR_FRACT, IR_SIN, IR_EXP2 };
        static const ir_op bin[] = { IR_ADD, IR_SUB, IR_MUL, IR_MIN, IR_MAX, IR_DIV };
        for (int tries = 0; no < target && tries < 8 * target; tries++) {
            int arg[3];
            for (int j = 0; j < 3; j++) {
                const double q = rng_unit(r);
                int pick = -1;
                if (no > 0 && q >= 0.2 && q < 0.2 + fresh) { /* a node nothing uses yet, so little is dead */
                    const int start = rng_range(r, 0, no - 1);
                    for (int look = 0; look < no && pick < 0; look++)
                        pick = used[(start + look) % no] ? -1 : (start + look) % no;
                }
                if (no > 0 && q >= 0.2 + fresh && pick < 0) {
                    const double f = rng_unit(r);
                    pick = no - 1 - (int)(f * f * no);
                }
                if (pick >= 0)
                    used[pick] = 1;
                arg[j] = pick >= 0 ? ops[pick] : pool[rng_range(r, 0, np - 1)];
            }
            const double p = rng_unit(r);
            int id;
            if (p < 0.15) {
                if (nt > 0 && rng_unit(r) < 0.4) {
                    const ir_node *o = &d->node[tex[rng_range(r, 0, nt - 1)]];
                    id = ir_tex(d, o->v.index, rng_range(r, 0, 3), o->arg[0], o->arg[1]);
                } else {
                    id = ir_tex(d, rng_range(r, 0, 5), rng_range(r, 0, 3), arg[0], arg[1]);
                }
                if (id >= 0 && nt < 256)
                    tex[nt++] = id;
            } else if (p < 0.3) {
                id = ir_add(d, un[rng_range(r, 0, 5)], arg[0], 0, 0);
            } else if (p < 0.9) {
                id = ir_add(d, bin[rng_range(r, 0, 5)], arg[0], arg[1], 0);
            } else {
                id = ir_add(d, IR_SELECT, arg[0], arg[1], arg[2]);
            }
            if (id >= 0 && !ir_is_leaf((ir_op)d->node[id].op) && (no == 0 || id > ops[no - 1]))
                ops[no++] = id;
        }
        int outs[8], nout = rng_range(r, 1, max_outs);
        if (no == 0) {
            ir_free(d);
            continue;
        }
        /* Outputs: the nodes nothing uses, summed pairwise down to NOUT. */
        int top[2048], nt2 = 0;
        for (int i = 0; i < no; i++)
            if (!used[i])
                top[nt2++] = ops[i];
        while (nt2 > nout) {
            const int i = rng_range(r, 0, nt2 - 2);
            const int s = ir_add(d, IR_ADD, top[i], top[i + 1], 0);
            top[i] = s;
            memmove(top + i + 1, top + i + 2, (size_t)(nt2 - i - 2) * sizeof *top);
            nt2--;
        }
        nout = nt2;
        for (int i = 0; i < nout; i++)
            outs[i] = top[i];
        if (ir_finish(d, outs, nout) == 0 &&
            ((d->count >= min_nodes && d->count <= max_nodes) || attempt == 1000))
            return;
        ir_free(d);
    }
}

/* The optimum against every marking of small DAGs, with this file's own
 * subregions and resources (not part_valid). */
static void test_brute_force(void)
{
    /* PC 1-7, then tighter ones so that small DAGs split */
    const part_limits tight[12] = { pcs[0], pcs[1], pcs[2], pcs[3], pcs[4], pcs[5], pcs[6],
                                    { 3, 0, 0, 0 }, { 0, 2, 0, 0 }, { 0, 0, 1, 0 }, { 0, 0, 0, 2 }, { 4, 3, 2, 2 } };
    test_rng r = { 0xb007e };
    const int dags = TEST_SANITIZED ? 12 : 50;
    int cases = 0, split = 0;
    char err[200];
    for (int t = 0; t < dags; t++) {
        ir_dag d;
        random_dag(&r, &d, 8, 22, rng_range(&r, 5, 13), 3, 0.4);
        const int n = d.count;
        int ids[64], m = 0;
        for (int x = 0; x < d.root; x++)
            if (!is_leaf_node(&d, x) && m < 64)
                ids[m++] = x;
        if (m > 12) {
            ir_free(&d);
            continue;
        }
        uint8_t *mark = calloc((size_t)n, 1), *in = calloc((size_t)n, 1);
        int *nodes = malloc((size_t)n * sizeof *nodes), *res = malloc((size_t)n * sizeof *res);
        for (int pc = 0; pc < 12; pc++) {
            const part_limits *lim = &tight[pc];
            double best = -1;
            int best_passes = 0;
            for (int set = 0; set < 1 << m; set++) {
                memset(mark, 0, (size_t)n);
                mark[d.root] = 1;
                for (int i = 0; i < m; i++)
                    mark[ids[i]] = (uint8_t)(set >> i & 1);
                double cost = 0;
                int ok = 1, passes = 0;
                for (int x = 0; x <= d.root && ok; x++) {
                    if (!mark[x])
                        continue;
                    int nn, nr;
                    part_usage u;
                    subregion_of(&d, mark, x, in, nodes, &nn, res, &nr);
                    usage_of(&d, nodes, nn, res, nr, &u);
                    ok = within(lim, &u);
                    cost += 15 + 5 * u.fetches + u.instrs;
                    passes++;
                }
                if (ok && (best < 0 || cost < best)) {
                    best = cost;
                    best_passes = passes;
                }
            }
            part_plan p;
            const mos_result rc = part_partition(&d, PART_OPTIMAL, lim, &cost_15_5_1, 0, &p, err, sizeof err);
            CHECK_MSG((rc == 0) == (best >= 0), "dag %d limits %d: rc %d, enumeration %g", t, pc, (int)rc, best);
            if (rc == 0) {
                CHECK_MSG(p.complete && p.cost == best && p.pass_count == best_passes,
                          "dag %d limits %d: optimal %g (%d passes), enumeration %g (%d passes)", t, pc, p.cost,
                          p.pass_count, best, best_passes);
                split += p.pass_count > 1;
                part_plan_free(&p);
            }
            cases++;
        }
        free(mark);
        free(in);
        free(nodes);
        free(res);
        ir_free(&d);
    }
    printf("  %d cases (%d of several passes): the optimum equals the enumeration of every marking\n", cases, split);
    CHECK(cases >= dags * 12 / 2 && split > cases / 5);
}

static double now_s(void) { return test_now_ms_() / 1000.0; }

static void test_random(void)
{
    const int dags = TEST_SANITIZED ? 60 : 150;
    const double opt_limit = TEST_SANITIZED ? 0.25 : 0.5;
    const part_algo algos[3] = { PART_RDSH, PART_RDS, PART_OPTIMAL };
    test_rng r = { 0x5eed003 };
    int cases = 0, complete = 0, rds_opt = 0, rds_5 = 0, rds_same_p = 0, failed = 0;
    double rdsh_over = 0, worst = 0, t_algo[3] = { 0, 0, 0 };
    int rdsh_n = 0, mr_total = 0, nodes_total = 0;
    char err[200];
    for (int t = 0; t < dags; t++) {
        ir_dag d;
        random_dag(&r, &d, 8, 40, rng_range(&r, 5, 38), 4, 0.2);
        uint8_t mr[64];
        CHECK(part_dominators(&d, NULL, mr) == 0);
        for (int i = 0; i < d.count; i++)
            mr_total += mr[i];
        nodes_total += d.count;
        for (int pc = 0; pc < 8; pc++) {
            part_plan p[3];
            int ok = 1;
            for (int a = 0; a < 3; a++) {
                const double t0 = now_s();
                const mos_result rc = part_partition(&d, algos[a], &pcs[pc], &cost_15_5_1, opt_limit, &p[a], err,
                                                     sizeof err);
                t_algo[a] += now_s() - t0;
                if (!CHECK_MSG(rc == 0, "dag %d PC%d algo %d: %s", t, pc + 1, a, err)) {
                    ok = 0;
                    continue;
                }
                char what[64];
                snprintf(what, sizeof what, "dag %d PC%d algo %d", t, pc + 1, a);
                ok &= check_plan(&d, &p[a], &pcs[pc], &cost_15_5_1, what);
            }
            if (!ok) {
                failed++;
                if (failed < 3)
                    ir_print(&d, stderr);
            } else if (pc == 7) {
                for (int a = 0; a < 3; a++)
                    CHECK_MSG(p[a].pass_count == 1, "dag %d PC8 algo %d: %d passes", t, a, p[a].pass_count);
            } else {
                cases++;
                CHECK_MSG(p[1].cost <= p[0].cost + 1e-9, "dag %d PC%d: RDS %g > RDSh %g", t, pc + 1, p[1].cost,
                          p[0].cost);
                CHECK_MSG(p[2].cost <= p[1].cost + 1e-9, "dag %d PC%d: optimal %g > RDS %g", t, pc + 1, p[2].cost,
                          p[1].cost);
                rdsh_over += (p[0].cost - p[1].cost) / p[1].cost;
                rdsh_n++;
                if (p[2].complete) {
                    complete++;
                    const double over = (p[1].cost - p[2].cost) / p[2].cost;
                    rds_opt += over < 1e-12;
                    rds_5 += over <= 0.05 + 1e-12;
                    rds_same_p += p[1].pass_count == p[2].pass_count;
                    worst = over > worst ? over : worst;
                    /* sanity: RDS never needs more than one pass per operation */
                    CHECK(p[1].pass_count <= d.count);
                }
            }
            for (int a = 0; a < 3; a++)
                if (p[a].pass)
                    part_plan_free(&p[a]);
        }
        ir_free(&d);
    }
    printf("  %d DAGs of %.1f nodes, %.1f MR on average\n", dags, (double)nodes_total / dags, (double)mr_total / dags);
    printf("  %d cases (PC1-7) on %d DAGs: optimal finished %d; RDS optimal %d, within 5%% %d, same passes %d, "
           "worst +%.1f%%; RDSh over RDS %.2f%% on average\n",
           cases, dags, complete, rds_opt, rds_5, rds_same_p, 100 * worst, 100 * rdsh_over / rdsh_n);
    printf("  time: RDSh %.3f s, RDS %.3f s, optimal %.3f s\n", t_algo[0], t_algo[1], t_algo[2]);
    CHECK_EQ_INT(failed, 0);
    CHECK(complete >= cases * 9 / 10);
    CHECK_MSG(rds_opt >= complete * 8 / 10, "RDS optimal in %d of %d", rds_opt, complete);
    CHECK_MSG(rds_5 >= complete * 85 / 100, "RDS within 5%% in %d of %d", rds_5, complete);
}

/* A Wood-sized DAG (seed Table 1: 475 nodes, 72 MR): RDS in well under a
 * few seconds under every PC. */
static void test_large(void)
{
    test_rng r = { 0xb16 };
    ir_dag d;
    random_dag(&r, &d, TEST_SANITIZED ? 150 : 400, 700, TEST_SANITIZED ? 350 : 700, 4, 0.6);
    CHECK(d.count >= (TEST_SANITIZED ? 150 : 400));
    uint8_t *mr = calloc((size_t)d.count, 1);
    CHECK(part_dominators(&d, NULL, mr) == 0);
    int k = 0;
    for (int i = 0; i < d.count; i++)
        k += mr[i];
    free(mr);
    printf("  %d nodes, %d MR:", d.count, k);
    char err[200];
    for (int pc = 0; pc < 8; pc++) {
        part_plan p, h;
        double t0 = now_s();
        CHECK_MSG(part_partition(&d, PART_RDSH, &pcs[pc], &cost_15_5_1, 0, &h, err, sizeof err) == 0, "%s", err);
        const double th = now_s() - t0;
        t0 = now_s();
        CHECK_MSG(part_partition(&d, PART_RDS, &pcs[pc], &cost_15_5_1, 0, &p, err, sizeof err) == 0, "%s", err);
        const double t = now_s() - t0;
        printf(" PC%d %dp %.0f (RDSh %dp %.0f) %.2f s/%.3f s;", pc + 1, p.pass_count, p.cost, h.pass_count, h.cost,
               t, th);
        fflush(stdout);
        if (!TEST_SANITIZED)
            CHECK_MSG(t < 3.0, "RDS PC%d took %.2f s", pc + 1, t);
        check_plan(&d, &p, &pcs[pc], &cost_15_5_1, "large RDS");
        check_plan(&d, &h, &pcs[pc], &cost_15_5_1, "large RDSh");
        CHECK(p.cost <= h.cost);
        part_plan_free(&p);
        part_plan_free(&h);
    }
    printf("\n");
    /* The optimum gives up on it in time, with RDS's plan or better. */
    part_plan p;
    const double t0 = now_s();
    CHECK(part_partition(&d, PART_OPTIMAL, &pcs[4], &cost_15_5_1, 0.2, &p, err, sizeof err) == 0);
    CHECK(now_s() - t0 < 3.0 && p.complete == 0);
    check_plan(&d, &p, &pcs[4], &cost_15_5_1, "large optimal");
    part_plan_free(&p);
    ir_free(&d);
}

int main(void)
{
    TEST_RUN(test_figures);
    TEST_RUN(test_vector_view);
    TEST_RUN(test_counting);
    TEST_RUN(test_outputs);
    TEST_RUN(test_callbacks);
    TEST_RUN(test_errors);
    TEST_RUN(test_brute_force);
    TEST_RUN(test_random);
    TEST_RUN(test_large);
    return TEST_EXIT();
}
