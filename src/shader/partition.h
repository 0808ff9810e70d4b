/* partition.h — splitting a shader DAG into passes that each fit a pass's
 * resources: Recursive Dominator Split (RDS), its heuristic form RDSh, and
 * the exhaustive optimum for small DAGs (seed 003, sections 3-4).
 *
 * A partition marks nodes: a marked node is the root of a pass, and the pass
 * computes the node's subregion (the node and, recursively, its unmarked
 * operands).  A marked operand is read back (restored) from the scratch slot
 * its own pass saved it to.  The ROOT is always marked: its pass writes the
 * shader's outputs.
 *
 * Resources of one pass (the seed's four):
 *   ops      arithmetic nodes + texture fetches + restores computed in the pass
 *            (TEX nodes of one unit at the same (u, v) are one fetch)
 *   regs     the most values live at once when the pass's nodes run in id
 *            order (a value lives from its node to its last use in the pass;
 *            the pass root until the end); leaves are not registers.  A
 *            restore lives from just before its first use; the components
 *            of one fetch all from the first of them; ROOT's reading of an
 *            output is no use (outputs are written out as computed, those
 *            only read back one at a time: one register between them)
 *   texs     texture units the pass reads: distinct TEX units + one per restore
 *            the pass computes with (restored outputs the ROOT pass only
 *            copies out share one unit, as they share one register)
 *   interps  distinct INPUT and FRAGCOORD leaves the pass reads
 * A limit of 0 means unlimited.
 *
 * Views.  The DAG is one of scalar operations (ir.h), the passes the VM runs
 * (PART_SCALAR).  The seed's machine works on 4-vectors and its DAGs are
 * after instruction selection for it (RBP: 68 nodes, Wood: 475); the vector
 * view (PART_VECTOR) partitions that machine's graph: the scalar nodes one
 * source instruction made (ir_node.group) of one kind are one node (a
 * fetch: of one unit), whose value is one register and one restore, an
 * arithmetic node counts ceil(scalar operations / 4) operations (a 4-wide
 * instruction each), an input's components are one interpolant.  For the
 * seed's tables and `mosaic shader --view vector`; vm_build runs scalar
 * plans only.
 *
 * Cost (section 4): cp * passes + ct * t + ci * i, t = texture fetches and
 * restores summed over passes, i = arithmetic nodes summed over passes
 * (recomputed nodes count once per pass that computes them).
 *
 * The four callbacks of the seed are plain functions here: part_valid,
 * part_cost, part_recompute (save or recompute: recompute iff every resource
 * of the subregion is under half its limit) and part_merge (of two candidate
 * merges, the one using fewer resources: negative when A, positive when B,
 * 0 when neither; compared by the fullest limited resource as a fraction of
 * its limit, then the sum of those fractions, then the raw total).
 *
 * Fed by the DAG of ir.h; read by vm.c (runs the passes) and the `mosaic
 * shader` tool (prints them). */
#ifndef MOSAIC_SHADER_PARTITION_H
#define MOSAIC_SHADER_PARTITION_H

#include "shader/ir.h"

typedef struct part_limits {
    int ops, regs, texs, interps;  /* 0 = unlimited */
} part_limits;

typedef struct part_costs {
    double cp, ct, ci;
} part_costs;

typedef enum part_algo { PART_RDS = 0, PART_RDSH, PART_OPTIMAL } part_algo;
typedef enum part_view { PART_SCALAR = 0, PART_VECTOR } part_view;

typedef struct part_usage {
    int ops, regs, texs, interps;
    int fetches;   /* texture fetches + restores */
    int instrs;    /* arithmetic nodes */
} part_usage;

typedef struct part_pass {
    int root;            /* the marked node whose value the pass saves (ROOT: the last pass) */
    int *nodes;          /* the non-leaf nodes it computes, in id order (restored ones excluded;
                            the root last, ROOT itself for the ROOT pass) */
    int node_count;
    int *restores;       /* marked nodes it reads back, in id order */
    int restore_count;
    int slot;            /* scratch slot the root is saved to; -1 for the ROOT pass */
    part_usage use;
} part_pass;

typedef struct part_plan {
    part_pass *pass;     /* in an order that runs: a pass after every pass it restores */
    int pass_count;
    int slot_count;      /* scratch slots after graph colouring (<= pass_count - 1) */
    int fetches, instrs; /* totals over the passes (t and i of the cost) */
    double cost;
    int complete;        /* PART_OPTIMAL: 1 if the search finished (proved optimal) */
    part_view view;      /* PART_VECTOR: pass nodes, roots and restores are vector nodes: */
    int *node_of;        /* the DAG's node id -> its vector node (-1: a constant or uniform) */
    int node_count;      /* vector nodes */
    int mr_count;        /* multiply-referenced nodes of the view */
    const mos_allocator *alloc; /* the DAG's (ir_dag.alloc), which the plan's arrays come from */
} part_plan;

/* Partitions D (finished: ir_finish done) for LIMITS (NULL: unlimited)
 * under COSTS (>= 0).  Every algorithm reads one clock started at the call
 * and gives up time_limit_s seconds after it (<= 0:
 * PART_DEFAULT_TIME_LIMIT_S; at most PART_MAX_TIME_LIMIT_S): RDS's search
 * and PART_OPTIMAL's keep the best partition found so far (at worst the one
 * RDSh's single Subdivide makes, which may run to 1.5 times the limit;
 * complete = 0); when even that Subdivide does not finish, MOS_ERR_SHADER
 * with a message saying so.  Returns MOS_OK; else, with a message in err,
 * MOS_ERR_SHADER when some single node cannot fit any pass (a limit below
 * the seed's minimum), on a DAG too large or malformed, or out of time;
 * MOS_ERR_INVALID_ARGUMENT for no finished DAG, a negative limit or cost,
 * an unknown algorithm or view, or no OUT; MOS_ERR_OUT_OF_MEMORY when an
 * allocation failed.  Memory comes from D's allocator (ir_dag.alloc).  OUT
 * needs part_plan_free after MOS_OK (after an error it is empty). */
#define PART_DEFAULT_TIME_LIMIT_S 60.0
#define PART_MAX_TIME_LIMIT_S 86400.0
mos_result part_partition(const ir_dag *d, part_algo algo, const part_limits *limits,
                          const part_costs *costs, double time_limit_s, part_plan *out,
                          char *err, size_t err_size);
/* The same in VIEW (part_partition: PART_SCALAR).  The vector view fails on
 * a DAG whose groups do not follow one another (one spirv.c made does). */
mos_result part_partition_view(const ir_dag *d, part_view view, part_algo algo, const part_limits *limits,
                               const part_costs *costs, double time_limit_s, part_plan *out, char *err,
                               size_t err_size);
void part_plan_free(part_plan *p);

/* The callbacks, exposed for tests.  part_valid: 1 when the subregion of
 * NODE (a non-leaf node) under MARKED (NULL: none) fits LIMITS, 0 when not,
 * -1 on bad arguments or allocation failure; USE (may be NULL) gets its
 * resources. */
int part_valid(const ir_dag *d, const uint8_t *marked, int node, const part_limits *limits,
               part_usage *use);
double part_cost(const part_plan *p, const part_costs *costs);
int part_recompute(const part_usage *use, const part_limits *limits);
int part_merge(const part_usage *a, const part_usage *b, const part_limits *limits);

/* The dominator tree the algorithms use (edges from a node to its operands,
 * rooted at ROOT): IDOM[n] is n's immediate dominator (ROOT: itself; leaves
 * and nodes ROOT does not reach: -1); MR[n] is 1 for a multiply-referenced
 * node (a non-leaf node with two or more distinct users).  Either may be
 * NULL.  MOS_OK, or part_partition's codes for a DAG it refuses and
 * MOS_ERR_OUT_OF_MEMORY. */
mos_result part_dominators(const ir_dag *d, int *idom, uint8_t *mr);

#endif
