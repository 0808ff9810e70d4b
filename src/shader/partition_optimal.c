/* partition_optimal.c — the exhaustive optimum (seed section 3.1) by branch and bound over the MR nodes'
 * save/recompute decisions, with a memo of the states seen.  Fed by partition.c, starting from RDS's best. */
#include "shader/partition_eval.h"

#include <stdlib.h>

#include "util/alloc.h"

/* The memo grows to at most this.  rbp PC2 fills it; twice as much saved
 * 2% of that search's time (73 s -> 72 s, in an earlier order). */
#define MEMO_BYTES ((size_t)32 << 20)

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
mos_result part_optimal(pctx *c, double t0, double time_limit_s, uint8_t *best, double *best_cost, int *complete)
{
    const int n = c->n;
    int *D = c->glist, m = 0;
    int *pos = util_alloc(c->a, (size_t)n * sizeof *pos);
    double *size = util_alloc(c->a, (size_t)n * sizeof *size);
    if (!pos || !size) {
        util_free(c->a, pos), util_free(c->a, size);
        part_set_oom(c);
        return MOS_ERR_OUT_OF_MEMORY;
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
        part_set_oom(c);
        return MOS_ERR_OUT_OF_MEMORY;
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
    return MOS_OK;
}
