/* partition_eval.h — VALID, the cost model's core: one subregion's nodes and resources (operations,
 * registers by a sweep of live ranges, texture units, interpolants).  Included by partition*.c that search.
 *
 * Static inline on purpose: the searches (partition_rds.c, partition_optimal.c) call it millions of
 * times, and with its body in their own file the compiler keeps their state in registers across the
 * calls (an out-of-line call in another file made the optimal search 8% slower). */
#ifndef MOSAIC_SHADER_PARTITION_EVAL_H
#define MOSAIC_SHADER_PARTITION_EVAL_H

#include <stdlib.h>

#include "shader/partition_priv.h"

static inline int cmp_int(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static inline void sort_ints(int *a, int count)
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

static inline int fits(const part_limits *l, const part_usage *u)
{
    return (!l->ops || u->ops <= l->ops) && (!l->regs || u->regs <= l->regs) &&
           (!l->texs || u->texs <= l->texs) && (!l->interps || u->interps <= l->interps);
}

/* Lists NODE's subregion under c->mk, stamped S: c->list (computed nodes, id order, NODE last)
 * and c->rlist (restores, id order); *NR_OUT restores, *INTERPS_OUT interpolants.  Returns the
 * length of c->list. */
static inline int sub_collect(pctx *c, int node, uint32_t s, int *nr_out, int *interps_out)
{
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
    *nr_out = nr;
    *interps_out = interps;
    return nl;
}

/* The most registers live at once in the pass of c->list (NL nodes) and c->rlist (NR restores),
 * stamped S; *READ_OUT: restores a node of the pass reads, *COPIED_OUT: 1 when some are only read
 * back for ROOT (copied out one at a time). */
static inline int sub_registers(pctx *c, uint32_t s, int nl, int nr, int *read_out, int *copied_out)
{
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
    *read_out = read;
    *copied_out = copied;
    return regs;
}

/* The subregion of NODE under the marks c->mk: NODE and, recursively, its
 * unmarked non-leaf operands.  Leaves c->list (computed nodes, id order,
 * NODE last) and c->rlist (restores), fills *u; 1 when it fits the limits. */
static inline int sub_eval_(pctx *c, int node, part_usage *u, int quick)
{
    const uint32_t s = next_stamp(c);
    int nr, interps;
    const int nl = sub_collect(c, node, s, &nr, &interps);

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
    int read, copied;
    const int regs = sub_registers(c, s, nl, nr, &read, &copied);
    c->nlist = nl;
    c->nrlist = nr;
    /* Restores the pass computes with each hold a texture unit; the outputs
     * only copied out share one, as they share one register. */
    *u = (part_usage){ .ops = arith + groups + nr, .regs = regs, .texs = units + read + copied, .interps = interps,
                       .fetches = groups + nr, .instrs = arith };
    return fits(&c->lim, u);
}

static inline int sub_eval(pctx *c, int node, part_usage *u) { return sub_eval_(c, node, u, 0); }

/* sub_eval's answer, but U and the lists are complete only when it fits. */
static inline int sub_fits(pctx *c, int node, part_usage *u) { return sub_eval_(c, node, u, 1); }

#endif
