/* spirv_module.c — the SPIR-V module reader: header, instruction stream, ids and values, types, constants,
 * decorations, strings and OpLine (for messages).  Fed by spirv.c; what it declares is read by every spirv_*.c. */
#include "shader/spirv_priv.h"

#include <spirv/unified1/spirv.h>
#include <stdarg.h>
#include <string.h>

#include "util/alloc.h"

int spv_fail(spv_ctx *c, const char *fmt, ...)
{
    if (c->failed)
        return -1;
    c->failed = 1;
    int n = c->line > 0 ? snprintf(c->err, c->err_size, "%s:%d: ", c->file, c->line)
                        : snprintf(c->err, c->err_size, "%s: ", c->file);
    if (n < 0 || (size_t)n >= c->err_size)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err + n, c->err_size - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

int spv_grow(spv_ctx *c, void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap : 256;
    while (nc < need)
        nc *= 2;
    void *q = util_realloc(c->a, *p, *cap * elem, nc * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = nc;
    return 0;
}

int spv_oom(spv_ctx *c)
{
    c->oom = 1;
    return spv_fail(c, "out of memory");
}

/* ---- ids ------------------------------------------------------------------------ */

int spv_check_id(spv_ctx *c, uint32_t id)
{
    return id > 0 && id < c->bound ? 0 : spv_fail(c, "malformed SPIR-V: id %u out of range", id);
}

/* Sets id to a value of N components copied from COMP. */
int spv_set_value(spv_ctx *c, uint32_t id, uint32_t type, const int *comp, int n)
{
    if (spv_check_id(c, id) < 0)
        return -1;
    /* COMP may point into the pool itself (a value copied on): keep its offset across the growth. */
    const uintptr_t at = (uintptr_t)comp, lo = (uintptr_t)c->vals, hi = lo + c->nvals * sizeof *c->vals;
    const size_t inside = c->vals && at >= lo && at < hi ? (at - lo) / sizeof *c->vals + 1 : 0;
    if (spv_grow(c, (void **)&c->vals, &c->cap_vals, c->nvals + (size_t)n, sizeof *c->vals) < 0)
        return spv_oom(c);
    if (inside)
        comp = c->vals + (inside - 1);
    for (int i = 0; i < n; i++) {
        if (comp[i] < 0)
            return c->dag->failed ? spv_oom(c) : spv_fail(c, "internal error: missing operand");
        c->vals[c->nvals + (size_t)i] = comp[i];
    }
    id_info *x = &c->id[id];
    x->kind = K_VALUE;
    x->type = (int)type;
    x->val = (int)c->nvals;
    x->n = n;
    c->nvals += (size_t)n;
    return 0;
}

/* The components of value id (NULL and an error if it is not a value). */
const int *spv_value(spv_ctx *c, uint32_t id, int *n)
{
    const id_info *x = spv_get(c, id);
    *n = 0;
    if (x->kind != K_VALUE) {
        spv_fail(c, "malformed SPIR-V: id %u used as a value", id);
        return NULL;
    }
    static const int none = 0;  /* read-only: what an empty value points at */
    *n = x->n;
    return x->n ? c->vals + x->val : &none;
}

int spv_scalar(spv_ctx *c, uint32_t id)
{
    int n;
    const int *v = spv_value(c, id, &n);
    if (!v)
        return -1;
    if (n != 1)
        return spv_fail(c, "internal error: expected a scalar");
    return v[0];
}

int spv_const_int(spv_ctx *c, uint32_t id, int *out)
{
    int n;
    const int *v = spv_value(c, id, &n);
    if (!v || n != 1 || c->dag->node[v[0]].op != IR_CONST)
        return -1;
    const float k = c->dag->node[v[0]].v.imm;
    if (!(k >= -2147483648.0f && k < 2147483648.0f))  /* NaN too */
        return -1;
    *out = (int)k;
    return 0;
}

/* ---- declarations ------------------------------------------------------------------ */

static int declare_type(spv_ctx *c, SpvOp op, const uint32_t *ins, int len)
{
    const uint32_t id = ins[1];
    if (spv_check_id(c, id) < 0)
        return -1;
    id_info *x = &c->id[id];
    x->kind = K_TYPE;
    switch (op) {
    case SpvOpTypeVoid: x->tkind = T_VOID; break;
    case SpvOpTypeBool: x->tkind = T_BOOL; x->flat = 1; break;
    case SpvOpTypeInt: x->tkind = T_INT; x->flat = 1; x->is_signed = len > 3 && ins[3]; break;
    case SpvOpTypeFloat:
        if (len < 3 || ins[2] != 32)
            return spv_fail(c, "%u-bit floats are not supported (only float)", ins[2]);
        x->tkind = T_FLOAT; x->flat = 1; break;
    case SpvOpTypeVector: case SpvOpTypeMatrix:
        if (len < 4 || ins[3] < 2 || ins[3] > 4 || spv_type_flat(c, ins[2]) < 1 || spv_type_flat(c, ins[2]) > 4)
            return spv_fail(c, "malformed SPIR-V: vector or matrix type");
        x->tkind = op == SpvOpTypeVector ? T_VECTOR : T_MATRIX;
        x->elem = (int)ins[2];
        x->count = (int)ins[3];
        x->flat = spv_type_flat(c, ins[2]) * x->count;
        break;
    case SpvOpTypeArray: {
        int n;
        if (len < 4)
            return spv_fail(c, "malformed SPIR-V: array type");
        if (spv_const_int(c, ins[3], &n) < 0 || n <= 0 || n > 65536)
            return spv_fail(c, "array length must be a constant from 1 to 65536");
        if ((int64_t)spv_type_flat(c, ins[2]) * n > 1 << 20)
            return spv_fail(c, "type too large");
        x->tkind = T_ARRAY;
        x->elem = (int)ins[2];
        x->count = n;
        x->flat = spv_type_flat(c, ins[2]) * n;
        break;
    }
    case SpvOpTypeRuntimeArray: return spv_fail(c, "runtime-sized arrays are not supported");
    case SpvOpTypeStruct: {
        const int m = len - 2;
        if (spv_grow(c, (void **)&c->pool, &c->cap_pool, c->npool + (size_t)m, sizeof *c->pool) < 0)
            return spv_oom(c);
        x->tkind = T_STRUCT;
        x->count = m;
        x->members = (int)c->npool;
        x->flat = 0;
        for (int i = 0; i < m; i++) {
            c->pool[c->npool++] = (int)ins[2 + i];
            if (x->flat + spv_type_flat(c, ins[2 + i]) > 1 << 20)
                return spv_fail(c, "type too large");
            x->flat += spv_type_flat(c, ins[2 + i]);
        }
        break;
    }
    case SpvOpTypePointer:
        if (len < 4)
            return spv_fail(c, "malformed SPIR-V: pointer type");
        x->tkind = T_POINTER; x->storage = (int)ins[2]; x->elem = (int)ins[3]; break;
    case SpvOpTypeImage: x->tkind = T_IMAGE; break;
    case SpvOpTypeSampledImage: x->tkind = T_SAMPLED_IMAGE; break;
    case SpvOpTypeFunction: x->tkind = T_FUNCTION; break;
    case SpvOpTypeSampler: return spv_fail(c, "separate samplers are not supported (use sampler2D)");
    default: return spv_fail(c, "unsupported type (SPIR-V opcode %d)", (int)op);
    }
    if (x->flat > 1 << 20)
        return spv_fail(c, "type too large");
    return 0;
}

static int declare_constant(spv_ctx *c, SpvOp op, const uint32_t *ins, int len)
{
    const uint32_t type = ins[1], id = ins[2];
    const id_info *t = spv_get(c, type);
    if (t->kind != K_TYPE)
        return spv_fail(c, "malformed SPIR-V: constant of a non-type");
    int comp[64];
    int n = 0;
    switch (op) {
    case SpvOpConstantTrue: case SpvOpSpecConstantTrue: comp[n++] = ir_const(c->dag, 1.0f); break;
    case SpvOpConstantFalse: case SpvOpSpecConstantFalse: comp[n++] = ir_const(c->dag, 0.0f); break;
    case SpvOpConstant: case SpvOpSpecConstant: {
        float f;
        if (t->tkind == T_FLOAT)
            memcpy(&f, &ins[3], 4);
        else if (t->tkind == T_INT && t->is_signed)
            f = (float)(int32_t)ins[3];
        else if (t->tkind == T_INT)
            f = (float)ins[3];
        else
            return spv_fail(c, "unsupported constant type");
        comp[n++] = ir_const(c->dag, f);
        break;
    }
    case SpvOpConstantNull:
        if (t->flat > 64)
            return spv_fail(c, "constant too large");
        for (; n < t->flat; n++)
            comp[n] = c->zero;
        break;
    case SpvOpConstantComposite: case SpvOpSpecConstantComposite:
        for (int i = 3; i < len; i++) {
            int m;
            const int *v = spv_value(c, ins[i], &m);
            if (!v)
                return -1;
            if (n + m > 64)
                return spv_fail(c, "constant too large");
            for (int j = 0; j < m; j++)
                comp[n++] = v[j];
        }
        break;
    default: return spv_fail(c, "unsupported constant (SPIR-V opcode %d)", (int)op);
    }
    return spv_set_value(c, id, type, comp, n);
}

/* A struct's member decorations: a slice of the member_* arrays. */
int spv_member_slot(spv_ctx *c, uint32_t st, uint32_t member, int *slot)
{
    if (spv_check_id(c, st) < 0)
        return -1;
    id_info *x = &c->id[st];
    if (!x->member_deco) {
        const size_t need = c->nmember + 64;
        size_t cap = c->cap_member;
        if (spv_grow(c, (void **)&c->member_off, &cap, need, sizeof(int)) < 0)
            return spv_oom(c);
        cap = c->cap_member;
        if (spv_grow(c, (void **)&c->member_mstride, &cap, need, sizeof(int)) < 0)
            return spv_oom(c);
        cap = c->cap_member;
        if (spv_grow(c, (void **)&c->member_builtin, &cap, need, sizeof(int)) < 0)
            return spv_oom(c);
        c->cap_member = cap;
        x->member_deco = (int)c->nmember + 1;
        for (size_t i = c->nmember; i < need; i++) {
            c->member_off[i] = 0;
            c->member_mstride[i] = 16;
            c->member_builtin[i] = -1;
        }
        c->nmember = need;
    }
    if (member >= 64)
        return spv_fail(c, "struct with more than 64 members");
    *slot = x->member_deco - 1 + (int)member;
    return 0;
}

static int decorate(spv_ctx *c, const uint32_t *ins, int len)
{
    if (spv_check_id(c, ins[1]) < 0 || len < 3)
        return -1;
    id_info *x = &c->id[ins[1]];
    const uint32_t arg = len > 3 ? ins[3] : 0;
    switch (ins[2]) {
    case SpvDecorationLocation: x->location = (int)arg; break;
    case SpvDecorationBinding: x->binding = (int)arg; break;
    case SpvDecorationBuiltIn: x->builtin = (int)arg; break;
    case SpvDecorationArrayStride: x->array_stride = (int)arg; break;
    case SpvDecorationBlock: x->block = 1; break;
    case SpvDecorationBufferBlock: return spv_fail(c, "buffer blocks are not supported");
    default: break;
    }
    return 0;
}

static int member_decorate(spv_ctx *c, const uint32_t *ins, int len)
{
    int s;
    if (len < 4 || spv_member_slot(c, ins[1], ins[2], &s) < 0)
        return -1;
    const uint32_t arg = len > 4 ? ins[4] : 0;
    switch (ins[3]) {
    case SpvDecorationOffset: c->member_off[s] = (int)arg; break;
    case SpvDecorationMatrixStride: c->member_mstride[s] = (int)arg; break;
    case SpvDecorationBuiltIn: c->member_builtin[s] = (int)arg; break;
    default: break;
    }
    return 0;
}

/* ---- the module ------------------------------------------------------------------------------- */

int spv_read_module(spv_ctx *c, uint32_t *entry)
{
    if (c->nw < 5 || c->w[0] != SpvMagicNumber)
        return spv_fail(c, "not a SPIR-V module");
    c->bound = c->w[3];
    if (c->bound == 0 || c->bound > (1u << 22))
        return spv_fail(c, "malformed SPIR-V: id bound %u", c->bound);
    c->id = util_calloc(c->a, c->bound, sizeof *c->id);
    c->loop_merge = util_calloc(c->a, c->bound, sizeof *c->loop_merge);
    c->loop_cont = util_calloc(c->a, c->bound, sizeof *c->loop_cont);
    if (!c->id || !c->loop_merge || !c->loop_cont)
        return spv_oom(c);
    for (uint32_t i = 0; i < c->bound; i++) {
        c->id[i].location = -1;
        c->id[i].binding = -1;
        c->id[i].builtin = -1;
    }
    int entries = 0, in_fn = 0;
    for (size_t p = 5; p < c->nw;) {
        const uint32_t *ins = &c->w[p];
        const int len = (int)(ins[0] >> 16);
        const SpvOp op = (SpvOp)(ins[0] & 0xffff);
        if (len == 0 || p + (size_t)len > c->nw)
            return spv_fail(c, "malformed SPIR-V: bad instruction length");
        /* the fewest words the instructions read here may have */
        const int need = op == SpvOpEntryPoint ? 4
                         : op == SpvOpDecorate || op == SpvOpLoopMerge ? 3
                         : op == SpvOpMemberDecorate ? 4
                         : (op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer) || op == SpvOpExtInstImport ||
                                   op == SpvOpString || op == SpvOpLabel || op == SpvOpLine ? 2
                         : op == SpvOpFunction ? 5
                         : 1;
        if (len < need)
            return spv_fail(c, "malformed SPIR-V: short instruction");
        if (op == SpvOpFunctionEnd)
            in_fn = 0;
        if (in_fn && (op == SpvOpVariable || op == SpvOpUndef)) {
            p += (size_t)len;
            continue;  /* run when the function runs */
        }
        switch (op) {
        case SpvOpCapability: case SpvOpMemoryModel: case SpvOpExecutionMode: case SpvOpSource:
        case SpvOpSourceExtension: case SpvOpName: case SpvOpMemberName: case SpvOpModuleProcessed:
        case SpvOpSourceContinued: case SpvOpNop:
            break;
        case SpvOpString:
            if (spv_check_id(c, ins[1]) < 0)
                return -1;
            c->id[ins[1]].kind = K_STRING;
            c->id[ins[1]].str = (int)p + 2;
            break;
        case SpvOpLine: c->line = (int)ins[2]; break;
        case SpvOpNoLine: break;
        case SpvOpExtension: return spv_fail(c, "SPIR-V extension %s is not supported", spv_literal(c, p + 1));
        case SpvOpExtInstImport:
            if (strcmp(spv_literal(c, p + 2), "GLSL.std.450") != 0)
                return spv_fail(c, "extended instruction set %s is not supported", spv_literal(c, p + 2));
            c->glsl_ext = (int)ins[1];
            break;
        case SpvOpEntryPoint:
            if (++entries > 1)
                return spv_fail(c, "more than one entry point");
            if ((c->dag->stage == IR_FRAGMENT && ins[1] != SpvExecutionModelFragment) ||
                (c->dag->stage == IR_VERTEX && ins[1] != SpvExecutionModelVertex))
                return spv_fail(c, "the entry point is not a %s shader", c->dag->stage == IR_FRAGMENT ? "fragment" : "vertex");
            *entry = ins[2];
            break;
        case SpvOpDecorate: if (decorate(c, ins, len) < 0) return -1; break;
        case SpvOpMemberDecorate: if (member_decorate(c, ins, len) < 0) return -1; break;
        case SpvOpDecorationGroup: case SpvOpGroupDecorate: case SpvOpGroupMemberDecorate:
            return spv_fail(c, "decoration groups are not supported");
        case SpvOpTypeVoid: case SpvOpTypeBool: case SpvOpTypeInt: case SpvOpTypeFloat: case SpvOpTypeVector:
        case SpvOpTypeMatrix: case SpvOpTypeImage: case SpvOpTypeSampler: case SpvOpTypeSampledImage:
        case SpvOpTypeArray: case SpvOpTypeRuntimeArray: case SpvOpTypeStruct: case SpvOpTypePointer:
        case SpvOpTypeFunction:
            if (declare_type(c, op, ins, len) < 0)
                return -1;
            break;
        case SpvOpConstantTrue: case SpvOpConstantFalse: case SpvOpConstant: case SpvOpConstantComposite:
        case SpvOpConstantNull: case SpvOpSpecConstantTrue: case SpvOpSpecConstantFalse: case SpvOpSpecConstant:
        case SpvOpSpecConstantComposite:
            if (len < 3 || declare_constant(c, op, ins, len) < 0)
                return -1;
            break;
        case SpvOpVariable:
            if (len < 4 || spv_declare_variable(c, ins[1], ins[2], ins[3], len > 4 ? ins[4] : 0) < 0)
                return -1;
            break;
        case SpvOpUndef: if (spv_compute(c, op, ins, len) != 0) return -1; break;
        case SpvOpFunction:
            if (spv_check_id(c, ins[2]) < 0)
                return -1;
            c->id[ins[2]].kind = K_FUNCTION;
            c->id[ins[2]].pos = p;
            in_fn = 1;
            break;
        case SpvOpLabel:
            if (spv_check_id(c, ins[1]) < 0)
                return -1;
            c->id[ins[1]].kind = K_LABEL;
            c->id[ins[1]].pos = p;
            break;
        case SpvOpLoopMerge:
            if (len < 3 || spv_check_id(c, ins[1]) < 0 || spv_check_id(c, ins[2]) < 0)
                return -1;
            c->loop_merge[ins[1]] = 1;
            c->loop_cont[ins[2]] = 1;
            break;
        default:
            if (op == SpvOpSpecConstantOp)
                return spv_fail(c, "specialization constant operations are not supported");
            break;  /* function bodies: read when they run */
        }
        p += (size_t)len;
    }
    if (!entries)
        return spv_fail(c, "no entry point");
    c->line = 0;
    return 0;
}
