/* partition_rds.c — RDSh and RDS (seed sections 3.2-3.5): greedy bottom-up merging, Subdivide over the partial
 * dominator tree, and the search over save/recompute decisions around it.  Fed by partition.c; VALID from partition_eval.h. */
#include "shader/partition_eval.h"

#include "util/alloc.h"

static double pass_cost(const pctx *c, const part_usage *u)
{
    return c->cost.cp + c->cost.ct * u->fetches + c->cost.ci * u->instrs;
}

/* ---- greedy bottom-up merging (3.2) ------------------------------------------------- */

static int no_fit(pctx *c, int node)
{
    if (c->view == PART_VECTOR)
        part_set_err(c, "partition: vector node %d (%d operations) fits no pass within %do/%dr/%dt/%dv (0 = unlimited)",
                node, c->w[node], c->lim.ops, c->lim.regs, c->lim.texs, c->lim.interps);
    else
        part_set_err(c, "partition: node %d (%s) fits no pass within %do/%dr/%dt/%dv (0 = unlimited)", node,
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
int part_rds(pctx *c, int search_on, uint8_t *best, double *best_cost)
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
