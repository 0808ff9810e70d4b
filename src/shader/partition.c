/* partition.c — splitting a shader DAG into passes (seed 003, sections 3-4):
 * the dominator tree and its partial form (PDT), Subdivide with greedy
 * bottom-up merging (RDSh), the search over save/recompute decisions around
 * it (RDS), the exhaustive optimum by branch and bound, and the plan: the
 * passes in a runnable order, their resources, scratch slots by colouring.
 * Fed by the finished DAG of ir.c; read by vm.c and the `mosaic shader` tool.  This file: the entry
 * points, the errors and the plan (partition_dag.c, _cost.c, _rds.c, _optimal.c: the phases).
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

#include "shader/partition_eval.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/alloc.h"

void part_set_err(pctx *c, const char *fmt, ...)
{
    if (!c->err || !c->err_size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->err_size, fmt, ap);
    va_end(ap);
}

void part_set_oom(pctx *c)
{
    c->oom = 1;
    part_set_err(c, "partition: out of memory");
}

/* ---- the plan ------------------------------------------------------------------------ */

/* The passes of the marks in BEST, in id order (a pass restores only lower
 * ids, so it runs after their passes; ROOT last), their resources, and the
 * scratch slots: the saved value of pass a is busy from a to the last pass b
 * that restores it, both included; values are coloured in pass order with
 * the lowest free slot (optimal for intervals).  MOS_OK or
 * MOS_ERR_OUT_OF_MEMORY (OUT emptied). */
static mos_result build_plan(pctx *c, const uint8_t *best, part_plan *out, int algo_complete)
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
    return MOS_OK;
oom:
    part_plan_free(out);
    part_set_oom(c);
    return MOS_ERR_OUT_OF_MEMORY;
}

/* ---- the entry points ------------------------------------------------------------------ */

mos_result part_partition(const ir_dag *d, part_algo algo, const part_limits *limits, const part_costs *costs,
                          double time_limit_s, part_plan *out, char *err, size_t err_size)
{
    return part_partition_view(d, PART_SCALAR, algo, limits, costs, time_limit_s, out, err, err_size);
}

mos_result part_partition_view(const ir_dag *d, part_view view, part_algo algo, const part_limits *limits,
                               const part_costs *costs, double time_limit_s, part_plan *out, char *err,
                               size_t err_size)
{
    const double t0 = now_s();
    pctx c;
    uint8_t *best = NULL;
    if (out)
        memset(out, 0, sizeof *out);
    if (!(time_limit_s > 0) || time_limit_s > PART_MAX_TIME_LIMIT_S)
        time_limit_s = time_limit_s > PART_MAX_TIME_LIMIT_S ? PART_MAX_TIME_LIMIT_S : PART_DEFAULT_TIME_LIMIT_S;
    mos_result rc = part_ctx_init(&c, d, view, limits, costs, t0, time_limit_s, err, err_size);
    if (rc != MOS_OK) {
        if (c.timed_out)
            part_set_err(&c, "partition: no partition found within the time limit of %g s (the DAG's dominator tree "
                        "alone took longer; %d nodes): raise the time limit", time_limit_s, c.n);
        goto done;
    }
    if (!out || !costs || !(costs->cp >= 0 && costs->ct >= 0 && costs->ci >= 0) ||
        (algo != PART_RDS && algo != PART_RDSH && algo != PART_OPTIMAL)) {
        part_set_err(&c, "partition: %s", !out ? "no plan to fill" : !costs ? "no costs"
                                     : algo > PART_OPTIMAL ? "unknown algorithm" : "costs must be >= 0");
        rc = MOS_ERR_INVALID_ARGUMENT;
        goto done;
    }
    best = util_alloc(c.a, (size_t)c.n);
    if (!best) {
        part_set_oom(&c);
        rc = MOS_ERR_OUT_OF_MEMORY;
        goto done;
    }
    double best_cost;
    part_rds(&c, algo != PART_RDSH, best, &best_cost);
    int complete = 0;
    if (algo == PART_OPTIMAL && !c.timed_out) {
        if ((rc = part_optimal(&c, t0, time_limit_s, best, &best_cost, &complete)) != MOS_OK)
            goto done;
        if (best_cost < 0 && complete)
            part_set_err(&c, "partition: no partition fits within %do/%dr/%dt/%dv", c.lim.ops, c.lim.regs,
                    c.lim.texs, c.lim.interps);
    }
    if (best_cost < 0 && c.timed_out)
        part_set_err(&c, "partition: no partition found within the time limit of %g s (RDSh's one Subdivide "
                    "may take half as long again; %d nodes): raise the pass limits or the time limit",
                time_limit_s, c.n);
    if (best_cost < 0) {
        rc = MOS_ERR_SHADER;
        goto done;
    }
    if (err && err_size)
        err[0] = 0;
    rc = build_plan(&c, best, out, complete);
done:
    util_free(c.a, best);
    part_ctx_free(&c);
    if (rc != MOS_OK && c.oom) {  /* whatever a failed allocation led to */
        part_set_err(&c, "partition: out of memory");
        rc = MOS_ERR_OUT_OF_MEMORY;
    }
    return rc;
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

