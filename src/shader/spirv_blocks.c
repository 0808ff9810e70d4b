/* spirv_blocks.c — the structured control flow: blocks, branches, ifs on a lane-varying condition (both sides
 * run, joined by SELECT), phis, inlined calls, return, discard.  Fed by spirv.c; instructions go to spirv_memory.c/spirv_compute.c. */
#include "shader/spirv_priv.h"

#include <spirv/unified1/spirv.h>
#include <string.h>

#include "util/alloc.h"

/* ---- control flow ---------------------------------------------------------------------------- */

static size_t label_pos(spv_ctx *c, uint32_t label)
{
    const id_info *x = spv_get(c, label);
    return x->kind == K_LABEL ? x->pos : 0;
}

/* Snapshot of what a side of an if can change. */
typedef struct state {
    int *slots;
    size_t n;
    int discard;
} state;

static int save_state(spv_ctx *c, state *s)
{
    s->n = c->nslots;
    s->discard = c->discard;
    s->slots = util_alloc(c->a, (c->nslots ? c->nslots : 1) * sizeof *s->slots);
    if (!s->slots)
        return spv_oom(c);
    memcpy(s->slots, c->slots, c->nslots * sizeof *s->slots);
    return 0;
}

static void restore_state(spv_ctx *c, const state *s)
{
    memcpy(c->slots, s->slots, s->n * sizeof *s->slots);
    c->nslots = s->n;
    c->discard = s->discard;
}

/* An if/else on a lane-varying condition: each side runs to MERGE from the
 * same state; the variables join as cond ? then : else.  Returns 0 (go on at
 * MERGE), 2 (both sides discarded), -1. */
static int run_selection(spv_ctx *c, int cond, uint32_t t, uint32_t f, uint32_t merge, int from)
{
    if (++c->depth > MAX_DEPTH)
        return spv_fail(c, "ifs nested more than %d deep", MAX_DEPTH);
    state s0 = { 0 }, st = { 0 };
    int rc = -1, pred_t = from, pred_f = from, kt = 0, kf = 0;
    if (save_state(c, &s0) < 0)
        goto done;
    c->merge.active = 0;
    if (t != merge) {
        const int r = spv_run_blocks(c, t, merge, &pred_t);
        if (r < 0)
            goto done;
        kt = r == 2;
    }
    if (save_state(c, &st) < 0)
        goto done;
    restore_state(c, &s0);
    c->merge.active = 0;
    if (f != merge) {
        const int r = spv_run_blocks(c, f, merge, &pred_f);
        if (r < 0)
            goto done;
        kf = r == 2;
    }
    /* c holds the else side; st the then side. */
    const int dt = st.discard, df = c->discard;
    if (kt && kf) {
        rc = 2;
        goto done;
    }
    if (kf) {  /* the else side discarded: keep the then side's variables */
        if (spv_grow(c, (void **)&c->slots, &c->cap_slots, st.n, sizeof *c->slots) < 0) {
            spv_oom(c);
            goto done;
        }
        memcpy(c->slots, st.slots, st.n * sizeof *c->slots);
        c->nslots = st.n;
    } else if (!kt) {
        const size_t n = st.n < c->nslots ? st.n : c->nslots;
        for (size_t i = 0; i < n; i++)
            c->slots[i] = ir_add(c->dag, IR_SELECT, cond, st.slots[i], c->slots[i]);
    }
    c->discard = ir_add(c->dag, IR_SELECT, cond, dt, df);
    c->merge = (merge_info){ 1, cond, kt ? -1 : pred_t, kf ? -1 : pred_f };
    rc = c->dag->failed ? spv_oom(c) : 0;
done:
    util_free(c->a, s0.slots);
    util_free(c->a, st.slots);
    c->depth--;
    return rc;
}

static int phi(spv_ctx *c, const uint32_t *ins, int len)
{
    int chosen[2] = { -1, -1 };  /* operand ids for the then / else predecessor, or the one predecessor */
    for (int i = 3; i + 1 < len; i += 2) {
        const int parent = (int)ins[i + 1];
        if (c->merge.active) {
            if (parent == c->merge.pred_t)
                chosen[0] = (int)ins[i];
            if (parent == c->merge.pred_f)
                chosen[1] = (int)ins[i];
        } else if (parent == c->pred) {
            chosen[0] = (int)ins[i];
        }
    }
    int na = 0, nb = 0;
    if (!c->merge.active || c->merge.pred_f < 0 || c->merge.pred_t < 0) {
        const int pick = chosen[0] >= 0 ? chosen[0] : chosen[1];
        if (pick < 0)
            return spv_fail(c, "malformed SPIR-V: phi without the predecessor that ran");
        const int *v = spv_value(c, (uint32_t)pick, &na);
        return v ? spv_set_value(c, ins[2], ins[1], v, na) : -1;
    }
    if (chosen[0] < 0 || chosen[1] < 0)
        return spv_fail(c, "malformed SPIR-V: phi without both sides of an if");
    const int *a = spv_value(c, (uint32_t)chosen[0], &na), *b = spv_value(c, (uint32_t)chosen[1], &nb);
    if (!a || !b || na != nb || na > 64)
        return spv_fail(c, "malformed SPIR-V: phi operands differ");
    int comp[64];
    for (int i = 0; i < na; i++)
        comp[i] = ir_add(c->dag, IR_SELECT, c->merge.cond, a[i], b[i]);
    return spv_set_value(c, ins[2], ins[1], comp, na);
}

static int call(spv_ctx *c, const uint32_t *ins, int len)
{
    const id_info *fn = spv_get(c, ins[3]);
    if (fn->kind != K_FUNCTION)
        return spv_fail(c, "malformed SPIR-V: call of a non-function");
    if (++c->depth > MAX_DEPTH)
        return spv_fail(c, "calls nested more than %d deep (recursion is not supported)", MAX_DEPTH);
    c->calls_run++;
    size_t p = fn->pos + (c->w[fn->pos] >> 16);
    int arg = 4;
    while (p < c->nw && (c->w[p] & 0xffff) == SpvOpFunctionParameter) {
        if (arg >= len)
            return spv_fail(c, "malformed SPIR-V: call with too few arguments");
        const uint32_t param = c->w[p + 2];
        const id_info *a = spv_get(c, ins[arg]);
        if (spv_check_id(c, param) < 0)
            return -1;
        if (a->kind == K_POINTER) {
            c->id[param] = *a;
            c->id[param].is_var = 0;
        } else {
            int n;
            const int *v = spv_value(c, ins[arg], &n);
            if (!v || spv_set_value(c, param, c->w[p + 1], v, n) < 0)
                return -1;
        }
        arg++;
        p += c->w[p] >> 16;
    }
    if (p >= c->nw || (c->w[p] & 0xffff) != SpvOpLabel)
        return spv_fail(c, "malformed SPIR-V: function without a body");
    const merge_info saved_merge = c->merge;
    const int saved_pred = c->pred;
    c->ret_val = -1;
    int pred = -1;
    const int r = spv_run_blocks(c, c->w[p + 1], 0, &pred);
    c->merge = saved_merge;
    c->pred = saved_pred;
    c->depth--;
    if (r < 0)
        return -1;
    if (r == 2)
        return 2;
    if (c->ret_val >= 0)
        return spv_set_value(c, ins[2], ins[1], c->vals + c->ret_val, c->ret_n);
    return 0;
}

/* Whether LABEL leaves the construct being run by a side of an if. */
static int leaves_side(spv_ctx *c, uint32_t label, uint32_t stop)
{
    return c->depth > 0 && stop && label != stop && label < c->bound && (c->loop_merge[label] || c->loop_cont[label]);
}

/* Counts one instruction run, which starts a new node group; -1 past the limits on steps and
 * nodes, or once the translation or the DAG has failed. */
static int step(spv_ctx *c)
{
    if (++c->steps > MAX_STEPS) {
        if (c->loops_run)
            return spv_fail(c, "the shader does not finish in %d steps: a loop whose bound is not a constant?", MAX_STEPS);
        return spv_fail(c, "the shader does not finish in %d steps: it has no loop, but every call is inlined "
                           "(%ld calls so far): a call tree that large is not supported", MAX_STEPS, c->calls_run);
    }
    c->dag->group_now++;  /* the nodes this instruction makes are one group (ir_node.group) */
    if (c->failed || c->dag->failed)
        return c->failed ? -1 : spv_oom(c);
    if (c->dag->count > MAX_NODES || c->nvals > (size_t)MAX_NODES * 16)
        return spv_fail(c, "the shader is too large (more than %d operations after unrolling)", MAX_NODES);
    return 0;
}

/* OpReturn / OpReturnValue (the value kept for the caller): 1, or -1. */
static int run_return(spv_ctx *c, SpvOp op, const uint32_t *ins, uint32_t stop)
{
    if (c->depth > 0 && stop)
        return spv_fail(c, "return inside an if whose condition varies per pixel is not supported");
    if (op == SpvOpReturnValue) {
        int n;
        const int *v = spv_value(c, ins[1], &n);
        if (!v)
            return -1;
        /* copy: the callee's ids may be reused by a later call */
        if (spv_set_value(c, ins[1], (uint32_t)spv_get(c, ins[1])->type, v, n) < 0)
            return -1;
        c->ret_val = spv_get(c, ins[1])->val;
        c->ret_n = n;
    }
    return 1;
}

/* Runs blocks from LABEL until a branch to STOP (returns 0, *pred = the block
 * that branched there), a return (1) or a discard (2); -1 on error. */
int spv_run_blocks(spv_ctx *c, uint32_t label, uint32_t stop, int *pred)
{
    uint32_t merge = 0;  /* the OpSelectionMerge of the current block */
    size_t p = label_pos(c, label);
    if (!p)
        return spv_fail(c, "malformed SPIR-V: branch to an unknown label");
    c->pred = *pred;
    int entered_loops = 0;
    for (;;) {
        if (p >= c->nw)
            return spv_fail(c, "malformed SPIR-V: block runs past the end");
        const uint32_t *ins = &c->w[p];
        const int len = (int)(ins[0] >> 16);
        const SpvOp op = (SpvOp)(ins[0] & 0xffff);
        if (len == 0 || p + (size_t)len > c->nw)
            return spv_fail(c, "malformed SPIR-V: bad instruction length");
        if (step(c) < 0)
            return -1;
        p += (size_t)len;
        uint32_t next = 0;
        switch (op) {
        case SpvOpLabel: label = ins[1]; merge = 0; continue;
        case SpvOpLine: c->line = (int)ins[2]; continue;
        case SpvOpNoLine: case SpvOpNop: case SpvOpSource: case SpvOpName: case SpvOpMemberName: continue;
        case SpvOpSelectionMerge: merge = ins[1]; continue;
        case SpvOpLoopMerge: entered_loops++; c->loops_run++; continue;
        case SpvOpPhi: if (phi(c, ins, len) < 0) return -1; continue;
        case SpvOpVariable:
            if (spv_declare_variable(c, ins[1], ins[2], ins[3], len > 4 ? ins[4] : 0) < 0)
                return -1;
            continue;
        case SpvOpLoad: if (spv_load(c, ins[1], ins[2], ins[3]) < 0) return -1; continue;
        case SpvOpStore: if (spv_store(c, ins[1], ins[2]) < 0) return -1; continue;
        case SpvOpAccessChain: case SpvOpInBoundsAccessChain: if (spv_access_chain(c, ins, len) < 0) return -1; continue;
        case SpvOpFunctionCall: {
            const int r = call(c, ins, len);
            if (r < 0)
                return -1;
            if (r == 2)
                return 2;
            continue;
        }
        case SpvOpKill: case SpvOpTerminateInvocation:
            c->discard = ir_const(c->dag, 1.0f);
            return 2;
        case SpvOpDemoteToHelperInvocation: return spv_fail(c, "demote is not supported (use discard)");
        case SpvOpReturn: case SpvOpReturnValue: return run_return(c, op, ins, stop);
        case SpvOpUnreachable: return spv_fail(c, "malformed SPIR-V: unreachable code ran");
        case SpvOpBranch: next = ins[1]; break;
        case SpvOpBranchConditional: {
            const int cond = spv_scalar(c, ins[1]);
            if (cond < 0)
                return -1;
            float k;
            if (c->dag->node[cond].op == IR_CONST) {
                k = c->dag->node[cond].v.imm;
                next = k != 0.0f ? ins[2] : ins[3];
                break;
            }
            if (!merge)
                return spv_fail(c, "a loop whose condition varies per pixel is not supported (loop bounds must be constants)");
            const int r = run_selection(c, cond, ins[2], ins[3], merge, (int)label);
            if (r != 0)
                return r;
            next = merge;
            /* the phis of MERGE read c->merge */
            if (next == stop) {
                *pred = (int)label;
                return 0;
            }
            p = label_pos(c, next);
            if (!p)
                return spv_fail(c, "malformed SPIR-V: branch to an unknown label");
            c->pred = -1;
            continue;
        }
        case SpvOpSwitch: {
            int sel;
            if (spv_const_int(c, ins[1], &sel) < 0)
                return spv_fail(c, "switch on a value that varies per pixel is not supported");
            next = ins[2];
            for (int i = 3; i + 1 < len; i += 2)
                if ((int32_t)ins[i] == sel)
                    next = ins[i + 1];
            break;
        }
        default: {
            const int r = spv_compute(c, op, ins, len);
            if (r < 0)
                return -1;
            if (r > 0)
                return spv_unsupported(c, op, ins, p);
            continue;
        }
        }
        /* a branch to NEXT */
        c->merge.active = 0;
        if (next == stop) {
            *pred = (int)label;
            return 0;
        }
        if (entered_loops == 0 && leaves_side(c, next, stop))
            return spv_fail(c, "break or continue inside an if whose condition varies per pixel is not supported");
        c->pred = (int)label;
        p = label_pos(c, next);
        if (!p)
            return spv_fail(c, "malformed SPIR-V: branch to an unknown label");
    }
}
