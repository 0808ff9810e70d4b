/* partition_cost.c — the callbacks of partition.h over one subregion (part_valid, part_cost,
 * part_recompute, part_merge).  Fed by the tests and partition_rds.c; VALID itself is partition_eval.h. */
#include "shader/partition_eval.h"


/* ---- the callbacks ------------------------------------------------------------------ */

int part_valid(const ir_dag *d, const uint8_t *marked, int node, const part_limits *limits, part_usage *use)
{
    pctx c;
    if (part_ctx_init(&c, d, PART_SCALAR, limits, NULL, 0, 0, NULL, 0) < 0) {
        part_ctx_free(&c);
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
    part_ctx_free(&c);
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
