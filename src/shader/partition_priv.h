/* partition_priv.h — what the phases of the partitioner share: the context (the DAG indexed, the
 * partition being built, sub_eval's scratch) and the calls between partition_*.c.  Not for outside src/shader. */
#ifndef MOSAIC_SHADER_PARTITION_PRIV_H
#define MOSAIC_SHADER_PARTITION_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "shader/partition.h"

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

/* ---- partition.c: errors ---------------------------------------------------------------- */

void part_set_err(pctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void part_set_oom(pctx *c);

static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether the time limit has passed (read every CLOCK_TICKS calls; once
 * passed, it stays passed). */
static inline int out_of_time(pctx *c)
{
    if (!c->timed_out && (++c->ticks % CLOCK_TICKS) == 0 && c->deadline_s > 0 && now_s() - c->t0 > c->deadline_s)
        c->timed_out = 1;
    return c->timed_out;
}

/* A new stamp for the seen arrays (cleared when the counter wraps). */
static inline uint32_t next_stamp(pctx *c)
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

/* ---- partition_dag.c: the context ---------------------------------------------------------- */

/* Checks and indexes D for the partitioner (the clock starts at T0 with LIMIT_S, 0: none): MOS_OK, or
 * with the message in ERR MOS_ERR_INVALID_ARGUMENT (no finished DAG, a bad limit or view),
 * MOS_ERR_SHADER (a DAG too large or malformed, or out of time) or MOS_ERR_OUT_OF_MEMORY.
 * part_ctx_free frees it either way. */
mos_result part_ctx_init(pctx *c, const ir_dag *d, part_view view, const part_limits *limits,
                         const part_costs *costs, double t0, double limit_s, char *err, size_t err_size);
void part_ctx_free(pctx *c);

/* ---- partition_rds.c, partition_optimal.c: the algorithms --------------------------------------- */

/* RDSh (SEARCH_ON 0) or RDS: the cheapest marks found in BEST, their cost in *BEST_COST (< 0: none). */
int part_rds(pctx *c, int search_on, uint8_t *best, double *best_cost);
/* Branch and bound from BEST (*BEST_COST); *COMPLETE when the search finished; MOS_OK or
 * MOS_ERR_OUT_OF_MEMORY. */
mos_result part_optimal(pctx *c, double t0, double time_limit_s, uint8_t *best, double *best_cost, int *complete);

#endif
