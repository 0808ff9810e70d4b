/* vm.c — compiling a DAG (and its passes) into VM code: the scalar bank,
 * register allocation per pass (linear scan in node order), texture fetches
 * grouped per (unit, u, v), outputs; and vm_run, which picks the ISA's body.
 * Fed by program.c; runs in vm_tmp.h. */
#include "shader/vm_code.h"

#include <string.h>

#include "util/alloc.h"

/* Operand locations while building: kind in the top bits, index below. */
enum { L_REG = 1, L_SLOT, L_INPUT, L_FRAGX, L_FRAGY, L_SCALAR };
#define LOC(kind, idx) ((kind) << 24 | (idx))
#define LOC_KIND(l) ((l) >> 24)
#define LOC_IDX(l) ((l) & 0xffffff)

typedef struct builder {
    const ir_dag *d;
    vm_program *p;
    int *scalar_of;     /* node -> scalar-bank index, -1 if the node varies per lane */
    int *slot_of;       /* node -> slot it is saved to, -1 */
    int *reg_of;        /* node -> register while computed in the current pass, -1 */
    int *last_use;      /* node -> position of its last use in the current pass */
    int *in_pass;       /* node -> current pass number + 1 while being built */
    int *fused_into;    /* node -> the ADD/SUB of this pass that computes it as a multiply-add, -1 */
    int *pos;           /* node -> its position in the pass being built */
    int *uses;          /* node -> operand uses in the pass being built */
    int *free_regs;
    int nfree;
    int nreg;
    int cap_ins;
    int oom;            /* an allocation failed */
    char *err;
    size_t err_size;
} builder;

static int berr(builder *b, const char *msg)
{
    snprintf(b->err, b->err_size, "%s", msg);
    return -1;
}

static vm_ins *emit(builder *b)
{
    vm_program *p = b->p;
    if (p->ins_count == b->cap_ins) {
        const int cap = b->cap_ins ? 2 * b->cap_ins : 256;
        vm_ins *g = util_realloc(p->alloc, p->ins, (size_t)p->ins_count * sizeof *g, (size_t)cap * sizeof *g);
        if (!g) {
            b->oom = 1;
            return NULL;
        }
        p->ins = g;
        b->cap_ins = cap;
    }
    vm_ins *i = &p->ins[p->ins_count++];
    memset(i, 0, sizeof *i);
    return i;
}

static int reg_alloc(builder *b)
{
    return b->nfree ? b->free_regs[--b->nfree] : b->nreg++;
}

static void reg_release(builder *b, int r) { b->free_regs[b->nfree++] = r; }

/* Where node n's value is read from in the pass being built. */
static int locate(builder *b, int n)
{
    const ir_node *x = &b->d->node[n];
    if (b->scalar_of[n] >= 0)
        return LOC(L_SCALAR, b->scalar_of[n]);
    if (x->op == IR_INPUT)
        return LOC(L_INPUT, x->v.index);
    if (x->op == IR_FRAGCOORD)
        return LOC(x->v.index == 0 ? L_FRAGX : L_FRAGY, 0);
    if (b->reg_of[n] >= 0)
        return LOC(L_REG, b->reg_of[n]);
    if (b->slot_of[n] >= 0)
        return LOC(L_SLOT, b->slot_of[n]);
    return -1;
}

/* A lane-array operand for an instruction that takes no scalar: scalars are
 * splatted into a temporary register (returned in *tmp, else -1). */
static int vector_operand(builder *b, int n, int *tmp)
{
    int l = locate(b, n);
    *tmp = -1;
    if (l < 0 || LOC_KIND(l) != L_SCALAR)
        return l;
    vm_ins *s = emit(b);
    if (!s)
        return -1;
    *tmp = reg_alloc(b);
    s->op = VM_SPLAT;
    s->dst = LOC(L_REG, *tmp);
    s->a = LOC_IDX(l);
    return LOC(L_REG, *tmp);
}

/* Frees the registers of node x's operands whose last use is position i. */
static void release_operands(builder *b, const ir_node *x, int i, int pass)
{
    for (int j = 0; j < x->nargs; j++) {
        const int m = x->arg[j];
        int seen = 0;
        for (int k = 0; k < j; k++)
            seen |= x->arg[k] == m;
        if (!seen && b->in_pass[m] == pass + 1 && b->last_use[m] == i && b->reg_of[m] >= 0) {
            reg_release(b, b->reg_of[m]);
            b->reg_of[m] = -2;
        }
    }
}

/* The ROOT pass writes an output as soon as its node is computed, so no
 * register is held for it until the end (as the partitioner counts). */
static int write_outputs(builder *b, int n, uint8_t *written)
{
    for (int k = 0; k < b->d->out_count; k++) {
        if (b->d->out[k] != n || written[k])
            continue;
        vm_ins *o = emit(b);
        if (!o)
            return berr(b, "out of memory");
        o->op = VM_OUT;
        o->aux = (uint16_t)k;
        o->mode = VM_VV;
        o->a = LOC(L_REG, b->reg_of[n]);
        written[k] = 1;
    }
    return 0;
}

/* The destination of instruction IDX, which computes node n: its slot when
 * it is the pass's saved root, else a new register (the outputs it is
 * written to at once; *unused: a register to free after the operands, as no
 * later node of the pass reads it).  Registers are taken before the
 * operands' die, so no operation writes the array it reads. */
static int assign_result(builder *b, int idx, int n, int to_slot, int outputs, uint8_t *written, int *unused)
{
    *unused = -1;
    if (to_slot) {
        b->p->ins[idx].dst = LOC(L_SLOT, b->slot_of[n]);
        return 0;
    }
    const int r = reg_alloc(b);
    b->p->ins[idx].dst = LOC(L_REG, r);
    b->reg_of[n] = r;
    if (outputs && write_outputs(b, n, written) < 0)  /* may move the instruction array */
        return -1;
    if (b->last_use[n] < 0) {
        *unused = r;
        b->reg_of[n] = -2;
    }
    return 0;
}

/* Which operand of ADD/SUB node X (id n) is a MUL fused into it, or -1
 * (an operand's mark counts only when it is of this pass: build_pass sets
 * the marks of a pass's nodes, the others' are stale or unset). */
static int fused_operand(const builder *b, const ir_node *x, int n)
{
    if (x->op != IR_ADD && x->op != IR_SUB)
        return -1;
    for (int j = 0; j < 2; j++)
        if (b->in_pass[x->arg[j]] == b->in_pass[n] && b->fused_into[x->arg[j]] == n)
            return j;
    return -1;
}

/* ADD(MUL(p, q), c), ADD(c, MUL(p, q)): VM_MAD p * q + c; SUB(MUL(p, q), c):
 * VM_MSUB p * q - c; SUB(c, MUL(p, q)): VM_NMSUB c - p * q.  p is a lane
 * array; mode bit 0: q scalar, bit 1: c scalar. */
static int emit_multiply_add(builder *b, const ir_node *x, int n, int i, int pass, int to_slot, int outputs,
                             uint8_t *written)
{
    const int j = fused_operand(b, x, n);
    const ir_node *m = &b->d->node[x->arg[j]];
    int lp = locate(b, m->arg[0]), lq = locate(b, m->arg[1]);
    const int lc = locate(b, x->arg[1 - j]);
    if (lp < 0 || lq < 0 || lc < 0)
        return berr(b, "internal error: multiply-add operand unavailable");
    if (LOC_KIND(lp) == L_SCALAR) {  /* p * q == q * p bit for bit */
        const int t = lp;
        lp = lq;
        lq = t;
    }
    vm_ins *o = emit(b);
    if (!o)
        return berr(b, "out of memory");
    o->op = x->op == IR_ADD ? VM_MAD : j == 0 ? VM_MSUB : VM_NMSUB;
    o->mode = (uint8_t)((LOC_KIND(lq) == L_SCALAR) | (LOC_KIND(lc) == L_SCALAR) << 1);
    o->a = lp;
    o->b = LOC_KIND(lq) == L_SCALAR ? LOC_IDX(lq) : lq;
    o->c = LOC_KIND(lc) == L_SCALAR ? LOC_IDX(lc) : lc;
    int unused;
    if (assign_result(b, b->p->ins_count - 1, n, to_slot, outputs, written, &unused) < 0)
        return -1;
    release_operands(b, m, i, pass);
    release_operands(b, x, i, pass);
    if (unused >= 0)
        reg_release(b, unused);
    return 0;
}

/* Before a pass is built: which nodes are in it, their uses in it, the MULs
 * fused into an ADD / SUB, and each node's last use in it. */
static void plan_pass(builder *b, int pass, const int *nodes, int count, int saved_root, int outputs)
{
    const ir_dag *d = b->d;
    for (int i = 0; i < count; i++) {
        b->in_pass[nodes[i]] = pass + 1;
        b->pos[nodes[i]] = i;
        b->uses[nodes[i]] = 0;
        b->fused_into[nodes[i]] = -1;
        b->last_use[nodes[i]] = -1;
    }
    for (int i = 0; i < count; i++) {
        const ir_node *x = &d->node[nodes[i]];
        for (int j = 0; j < x->nargs; j++)
            if (b->in_pass[x->arg[j]] == pass + 1)
                b->uses[x->arg[j]]++;
    }
    if (outputs)
        for (int k = 0; k < d->out_count; k++)
            if (b->in_pass[d->out[k]] == pass + 1)
                b->uses[d->out[k]] += 2;  /* an output is never fused away */
    /* Multiply-adds: a MUL whose one use is an ADD or SUB of this pass is
     * computed by that node (the same two roundings, one pass over the lanes). */
    for (int i = 0; i < count; i++) {
        const ir_node *x = &d->node[nodes[i]];
        if ((x->op != IR_ADD && x->op != IR_SUB) || x->arg[0] == x->arg[1])
            continue;
        for (int j = 0; j < 2; j++) {
            const int m = x->arg[j];
            if (b->in_pass[m] == pass + 1 && d->node[m].op == IR_MUL && b->uses[m] == 1 && m != saved_root &&
                b->fused_into[m] < 0) {
                b->fused_into[m] = nodes[i];
                break;
            }
        }
    }
    /* Last uses inside the pass; a fused MUL's operands are read by its ADD. */
    for (int i = 0; i < count; i++) {
        const ir_node *x = &d->node[nodes[i]];
        const int at = b->fused_into[nodes[i]] >= 0 ? b->pos[b->fused_into[nodes[i]]] : i;
        for (int j = 0; j < x->nargs; j++)
            if (b->in_pass[x->arg[j]] == pass + 1 && at > b->last_use[x->arg[j]])
                b->last_use[x->arg[j]] = at;
    }
}

/* A texture fetch at NODES[I]: one VM_TEX for every component of the pass
 * fetched from the same unit at the same (u, v). */
static int emit_fetch(builder *b, const int *nodes, int count, int i, int pass, int saved_root, int outputs,
                      uint8_t *written)
{
    const ir_dag *d = b->d;
    const ir_node *x = &d->node[nodes[i]];
    int tu, tv;
    const int lu = vector_operand(b, x->arg[0], &tu), lv = vector_operand(b, x->arg[1], &tv);
    if (lu < 0 || lv < 0)
        return berr(b, "internal error: texture operand unavailable");
    vm_ins *t = emit(b);
    if (!t)
        return berr(b, "out of memory");
    t->op = VM_TEX;
    t->aux = (uint16_t)x->v.index;
    t->a = lu;
    t->b = lv;
    int got[4] = { -1, -1, -1, -1 };
    for (int k = i; k < count; k++) {
        const ir_node *y = &d->node[nodes[k]];
        if (y->op == IR_TEX && y->v.index == x->v.index && y->arg[0] == x->arg[0] &&
            y->arg[1] == x->arg[1] && got[y->aux & 3] < 0)
            got[y->aux & 3] = nodes[k];
    }
    int dummy[4] = { -1, -1, -1, -1 };
    for (int c = 0; c < 4; c++) {
        const int r = reg_alloc(b);
        t->d[c] = LOC(L_REG, r);
        if (got[c] >= 0)
            b->reg_of[got[c]] = r;
        else
            dummy[c] = r;
    }
    for (int c = 0; c < 4; c++)
        if (dummy[c] >= 0)
            reg_release(b, dummy[c]);
    if (tu >= 0) reg_release(b, tu);
    if (tv >= 0) reg_release(b, tv);
    release_operands(b, x, i, pass);
    for (int c = 0; c < 4; c++) {
        const int m = got[c];
        if (m < 0)
            continue;
        if (outputs && write_outputs(b, m, written) < 0)
            return -1;
        if (m == saved_root && b->slot_of[m] >= 0) {
            vm_ins *cp = emit(b);
            if (!cp)
                return berr(b, "out of memory");
            cp->op = VM_COPY;
            cp->dst = LOC(L_SLOT, b->slot_of[m]);
            cp->a = LOC(L_REG, b->reg_of[m]);
        }
        if (b->last_use[m] < 0) {
            reg_release(b, b->reg_of[m]);
            b->reg_of[m] = -2;  /* done, never read in this pass */
        }
    }
    return 0;
}

/* Any other operation X (node N, NODES[I]): its operands located, one instruction. */
static int emit_operation(builder *b, const ir_node *x, int n, int i, int pass, int to_slot, int outputs,
                          uint8_t *written)
{
    const int na = x->nargs;
    int loc[3] = { -1, -1, -1 }, tmp[3] = { -1, -1, -1 };
    const int binary_modes = na == 2;
    for (int j = 0; j < na; j++) {
        loc[j] = binary_modes ? locate(b, x->arg[j]) : vector_operand(b, x->arg[j], &tmp[j]);
        if (loc[j] < 0)
            return berr(b, "internal error: operand unavailable in its pass");
    }
    vm_ins *o = emit(b);
    if (!o)
        return berr(b, "out of memory");
    o->op = x->op;
    o->mode = VM_VV;
    if (binary_modes && LOC_KIND(loc[1]) == L_SCALAR)
        o->mode = VM_VS;
    else if (binary_modes && LOC_KIND(loc[0]) == L_SCALAR)
        o->mode = VM_SV;
    o->a = o->mode == VM_SV ? LOC_IDX(loc[0]) : loc[0];
    o->b = o->mode == VM_VS ? LOC_IDX(loc[1]) : loc[1];
    o->c = loc[2];
    int unused;
    if (assign_result(b, b->p->ins_count - 1, n, to_slot, outputs, written, &unused) < 0)
        return -1;
    for (int j = 0; j < 3; j++)
        if (tmp[j] >= 0)
            reg_release(b, tmp[j]);
    release_operands(b, x, i, pass);
    if (unused >= 0)
        reg_release(b, unused);
    return 0;
}

/* The ROOT pass: the outputs no instruction has written yet, copied out. */
static int emit_outputs(builder *b, const uint8_t *written)
{
    const ir_dag *d = b->d;
    for (int k = 0; k < d->out_count; k++) {
        if (written[k])
            continue;
        const int l = locate(b, d->out[k]);
        if (l < 0)
            return berr(b, "internal error: output unavailable");
        vm_ins *o = emit(b);
        if (!o)
            return berr(b, "out of memory");
        o->op = VM_OUT;
        o->aux = (uint16_t)k;
        o->mode = LOC_KIND(l) == L_SCALAR ? VM_SV : VM_VV;
        o->a = o->mode == VM_SV ? LOC_IDX(l) : l;
    }
    return 0;
}

/* Builds one pass over NODES (vector nodes, id order); ROOT_SLOT >= 0: the
 * last node is saved there; OUTPUTS: the ROOT pass writes the outputs. */
static int build_pass(builder *b, int pass, const int *nodes, int count, int saved_root, int outputs)
{
    const ir_dag *d = b->d;
    plan_pass(b, pass, nodes, count, saved_root, outputs);
    uint8_t written[4 + MOS_MAX_VARYINGS + 1] = { 0 };
    if (d->out_count > (int)sizeof written)
        return berr(b, "internal error: too many outputs");
    for (int i = 0; i < count; i++) {
        const int n = nodes[i];
        const ir_node *x = &d->node[n];
        if (b->reg_of[n] != -1) {  /* a component of a texture fetch already made */
            release_operands(b, x, i, pass);
            continue;
        }
        if (b->fused_into[n] >= 0)
            continue;  /* computed by its ADD / SUB */
        const int to_slot = n == saved_root && b->slot_of[n] >= 0;
        if (x->op == IR_TEX) {
            if (emit_fetch(b, nodes, count, i, pass, saved_root, outputs, written) < 0)
                return -1;
        } else if (fused_operand(b, x, n) >= 0) {
            if (emit_multiply_add(b, x, n, i, pass, to_slot, outputs, written) < 0)
                return -1;
        } else if (emit_operation(b, x, n, i, pass, to_slot, outputs, written) < 0) {
            return -1;
        }
    }
    if (outputs && emit_outputs(b, written) < 0)
        return -1;
    /* Registers of this pass die with it; only slots carry values on. */
    for (int i = 0; i < count; i++) {
        const int n = nodes[i];
        if (b->reg_of[n] >= 0)
            reg_release(b, b->reg_of[n]);
        b->reg_of[n] = -1;
        b->in_pass[n] = 0;
    }
    return 0;
}

static int32_t resolve(const vm_program *p, int32_t l)
{
    switch (LOC_KIND(l)) {
    case L_REG: return LOC_IDX(l);
    case L_SLOT: return VM_SLOT(p, LOC_IDX(l));
    case L_INPUT: return VM_INPUT(p, LOC_IDX(l));
    case L_FRAGX: return VM_FRAG_X(p);
    case L_FRAGY: return VM_FRAG_Y(p);
    default: return l;
    }
}

/* ---- chains: a run of operations on one value, its links fused ---------------------- */

/* X as a chain link (vm_link says which instructions can be one): fills
 * *L and returns the lane array it reads (a table index), or -1. */
static int32_t as_link(const vm_ins *x, vm_link *L)
{
    *L = (vm_link){ .op = x->op, .mode = x->mode };
    switch (x->op) {
    case VM_MAD: case VM_MSUB: case VM_NMSUB:
        if (x->mode != 3) return -1;
        L->s1 = x->b;
        L->s2 = x->c;
        return x->a;
    case IR_ADD: case IR_SUB: case IR_MUL: case IR_DIV: case IR_MIN: case IR_MAX:
        if (x->mode == VM_VS) {
            L->s1 = x->b;
            return x->a;
        }
        if (x->mode == VM_SV) {
            L->s1 = x->a;
            return x->b;
        }
        return -1;
    case IR_NEG: case IR_ABS: return x->a;
    default: return -1;
    }
}

/* Whether X reads lane array T; whether it writes T. */
static int ins_reads(const vm_ins *x, int32_t t)
{
    switch (x->op) {
    case VM_SPLAT: return 0;
    case VM_OUT: return x->mode == VM_VV && x->a == t;
    case VM_TEX: return x->a == t || x->b == t;
    case VM_COPY: case VM_CHAIN: return x->a == t;
    case VM_MAD: case VM_MSUB: case VM_NMSUB:
        return x->a == t || (!(x->mode & 1) && x->b == t) || (!(x->mode & 2) && x->c == t);
    case IR_SELECT: return x->a == t || x->b == t || x->c == t;
    default: break;
    }
    if (ir_op_arity((ir_op)x->op) == 2)
        return (x->mode != VM_SV && x->a == t) || (x->mode != VM_VS && x->b == t);
    return x->a == t;
}

static int ins_writes(const vm_ins *x, int32_t t)
{
    if (x->op == VM_TEX)
        return x->d[0] == t || x->d[1] == t || x->d[2] == t || x->d[3] == t;
    return x->op != VM_OUT && x->dst == t;
}

/* Whether register T is dead from instruction FROM on: written again, or
 * never read, before it is read. */
static int dead_from(const vm_program *p, int32_t t, int from)
{
    for (int j = from; j < p->ins_count; j++) {
        if (ins_reads(&p->ins[j], t))
            return 0;
        if (ins_writes(&p->ins[j], t))
            return 1;
    }
    return 1;
}

/* Replaces every run of two or more links, each reading the register the
 * one before wrote and nothing else reading it, by one VM_CHAIN: its body
 * keeps the value in vector registers through the run, one load and one
 * store per lane instead of one per link (a Horner-like chain of uniform
 * multiply-adds costs what the native loop does).  0, or -1 out of memory. */
static int fuse_chains(vm_program *p)
{
    int out = 0;
    vm_link l;
    for (int i = 0; i < p->ins_count;) {
        const int32_t src = as_link(&p->ins[i], &l);
        int e = i;
        if (src >= 0)
            while (e + 1 < p->ins_count && p->ins[e].dst < p->nreg && as_link(&p->ins[e + 1], &l) == p->ins[e].dst &&
                   dead_from(p, p->ins[e].dst, e + 2))
                e++;
        if (e == i) {
            p->ins[out++] = p->ins[i++];
            continue;
        }
        vm_link *g = util_realloc(p->alloc, p->links, (size_t)p->link_count * sizeof *g,
                                (size_t)(p->link_count + e - i + 1) * sizeof *g);
        if (!g)
            return -1;
        p->links = g;
        const vm_ins chain = { .op = VM_CHAIN, .a = src, .dst = p->ins[e].dst, .b = p->link_count, .c = e - i + 1 };
        for (int k = i; k <= e; k++)
            as_link(&p->ins[k], &p->links[p->link_count++]);
        p->ins[out++] = chain;
        i = e + 1;
    }
    p->ins_count = out;
    return 0;
}

static int build_scalars(builder *b)
{
    const ir_dag *d = b->d;
    vm_program *p = b->p;
    p->sins = util_calloc(p->alloc, (size_t)d->count + 1, sizeof *p->sins);
    if (!p->sins) {
        b->oom = 1;
        return berr(b, "out of memory");
    }
    for (int n = 0; n < d->count; n++) {
        const ir_node *x = &d->node[n];
        b->scalar_of[n] = -1;
        int scalar = x->op == IR_CONST || x->op == IR_UNIFORM;
        if (!ir_is_leaf((ir_op)x->op) && x->op != IR_TEX && x->op != IR_ROOT) {
            scalar = 1;
            for (int j = 0; j < x->nargs; j++)
                scalar &= b->scalar_of[x->arg[j]] >= 0;
        }
        if (!scalar)
            continue;
        vm_sins *s = &p->sins[p->sins_count];
        s->op = x->op;
        s->aux = (uint8_t)x->aux;
        s->a = x->nargs > 0 ? b->scalar_of[x->arg[0]] : 0;
        s->b = x->nargs > 1 ? b->scalar_of[x->arg[1]] : 0;
        s->c = x->nargs > 2 ? b->scalar_of[x->arg[2]] : 0;
        s->index = x->op == IR_UNIFORM ? x->v.index : 0;
        s->imm = x->op == IR_CONST ? x->v.imm : 0.0f;
        b->scalar_of[n] = p->sins_count++;
    }
    p->nscalar = p->sins_count;
    return 0;
}

static int check_stage(builder *b)
{
    const ir_dag *d = b->d;
    for (int n = 0; n < d->count; n++) {
        const ir_op op = (ir_op)d->node[n].op;
        if (op == IR_FRAGCOORD && d->node[n].v.index > 1)
            return berr(b, "gl_FragCoord.z and .w are not available to Mosaic's fragment shaders");
        if (d->stage == IR_VERTEX && (op == IR_TEX || op == IR_FRAGCOORD ||
                                      ((op == IR_DDX || op == IR_DDY) && b->scalar_of[n] < 0)))
            return berr(b, "textures, derivatives and gl_FragCoord are fragment-shader features");
    }
    return 0;
}

mos_result vm_build(const ir_dag *d, const part_plan *plan, int max_lanes, vm_program **out, char *err,
                    size_t err_size)
{
    *out = NULL;
    if (d->root < 0 || max_lanes < 16 || max_lanes % 16) {
        snprintf(err, err_size, "vm_build: unfinished DAG or bad batch size");
        return MOS_ERR_INVALID_ARGUMENT;
    }
    if (plan && plan->view != PART_SCALAR) {
        snprintf(err, err_size, "vm_build: a vector-view partition is for analysis; the VM runs scalar ones");
        return MOS_ERR_INVALID_ARGUMENT;
    }
    const mos_allocator *a = d->alloc;
    vm_program *p = util_calloc(a, 1, sizeof *p);
    if (p)
        p->alloc = a;
    const size_t n = (size_t)d->count;
    builder b = { .d = d, .p = p, .err = err, .err_size = err_size };
    b.scalar_of = util_alloc(a, n * sizeof(int));
    b.slot_of = util_alloc(a, n * sizeof(int));
    b.reg_of = util_alloc(a, n * sizeof(int));
    b.last_use = util_alloc(a, n * sizeof(int));
    b.in_pass = util_calloc(a, n, sizeof(int));
    b.fused_into = util_alloc(a, n * sizeof(int));
    b.pos = util_alloc(a, n * sizeof(int));
    b.uses = util_alloc(a, n * sizeof(int));
    b.free_regs = util_alloc(a, (n * 4 + 8) * sizeof(int));
    int *nodes = util_alloc(a, n * sizeof(int));
    mos_result rc = MOS_ERR_SHADER;  /* what every goto done reports, but for out of memory */
    if (!p || !b.scalar_of || !b.slot_of || !b.reg_of || !b.last_use || !b.in_pass || !b.fused_into || !b.pos || !b.uses || !b.free_regs || !nodes) {
        b.oom = 1;
        goto done;
    }
    p->stage = d->stage;
    p->max_lanes = max_lanes;
    p->stride = max_lanes + 16;
    p->ninput = d->input_count;
    p->nout = d->out_count;
    for (size_t i = 0; i < n; i++) {
        b.slot_of[i] = -1;
        b.reg_of[i] = -1;
    }
    if (build_scalars(&b) < 0 || check_stage(&b) < 0)
        goto done;
    if (plan) {
        p->nslot = plan->slot_count;
        for (int k = 0; k < plan->pass_count; k++)
            if (plan->pass[k].slot >= 0 && b.scalar_of[plan->pass[k].root] < 0)
                b.slot_of[plan->pass[k].root] = plan->pass[k].slot;
        for (int k = 0; k < plan->pass_count; k++) {
            const part_pass *ps = &plan->pass[k];
            int count = 0;
            for (int i = 0; i < ps->node_count; i++)
                if (b.scalar_of[ps->nodes[i]] < 0 && d->node[ps->nodes[i]].op != IR_ROOT)
                    nodes[count++] = ps->nodes[i];
            const int is_root = ps->root == d->root;
            if (!count && !is_root)
                continue;
            if (build_pass(&b, k, nodes, count, is_root ? -1 : ps->root, is_root) < 0)
                goto done;
            p->passes++;
        }
    } else {
        int count = 0;
        for (int i = 0; i < d->count; i++)
            if (b.scalar_of[i] < 0 && !ir_is_leaf((ir_op)d->node[i].op) && d->node[i].op != IR_ROOT)
                nodes[count++] = i;
        if (build_pass(&b, 0, nodes, count, -1, 1) < 0)
            goto done;
        p->passes = 1;
    }
    p->nreg = b.nreg;
    p->table = p->nreg + p->nslot + p->ninput + 2;
    /* Final table indices (scalar-bank operands are stored bare: kind 0, unchanged). */
    for (int i = 0; i < p->ins_count; i++) {
        vm_ins *x = &p->ins[i];
        x->dst = resolve(p, x->dst);
        x->a = resolve(p, x->a);
        x->b = resolve(p, x->b);
        x->c = resolve(p, x->c);
        for (int c = 0; c < 4; c++)
            x->d[c] = resolve(p, x->d[c]);
    }
    if (fuse_chains(p) < 0) {
        b.oom = 1;
        goto done;
    }
    const size_t lanes = (size_t)p->stride * sizeof(float);
    p->scratch_bytes = (size_t)(p->nreg + p->nslot + p->ninput + 2) * lanes +
                       ((size_t)p->nscalar * sizeof(float) + 63) / 64 * 64 +
                       ((size_t)p->table * sizeof(float *) + 63) / 64 * 64;
    rc = MOS_OK;
done:
    util_free(a, b.scalar_of);
    util_free(a, b.slot_of);
    util_free(a, b.reg_of);
    util_free(a, b.last_use);
    util_free(a, b.in_pass);
    util_free(a, b.fused_into);
    util_free(a, b.pos);
    util_free(a, b.uses);
    util_free(a, b.free_regs);
    util_free(a, nodes);
    if (rc != MOS_OK && b.oom) {
        snprintf(err, err_size, "out of memory");
        rc = MOS_ERR_OUT_OF_MEMORY;
    }
    if (rc != MOS_OK)
        vm_free(p);
    else
        *out = p;
    return rc;
}

void vm_free(vm_program *p)
{
    if (!p)
        return;
    const mos_allocator *a = p->alloc;
    util_free(a, p->sins);
    util_free(a, p->ins);
    util_free(a, p->links);
    util_free(a, p);
}

size_t vm_scratch_bytes(const vm_program *p) { return p->scratch_bytes; }

void vm_get_stats(const vm_program *p, vm_stats *s)
{
    s->passes = p->passes;
    s->vector_ins = p->ins_count;
    s->scalar_ins = p->sins_count;
    s->registers = p->nreg;
    s->slots = p->nslot;
    s->chain_links = p->link_count;
}

void vm_run(const vm_program *p, const vm_io *io)
{
    switch (io->isa) {
#if defined(UTIL_X86)
    case MOS_ISA_AVX512: vm_run_avx512(p, io); return;
    case MOS_ISA_AVX2: vm_run_avx2(p, io); return;
#endif
    default: vm_run_scalar(p, io); return;
    }
}
