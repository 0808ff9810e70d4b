/* spirv.c — SPIR-V into the DAG by symbolic execution (see spirv.h).
 *
 * One pass reads the module's declarations (types, constants, decorations,
 * variables, functions, labels); then main runs block by block.  Each result
 * id holds a value: the DAG node ids of its components, flattened (a mat4 is
 * 16, column-major), or a pointer (into a variable's slots, the uniform
 * block's bytes, an input, or a sampler).  Variables are slots of node ids;
 * the state a branch can change is the slot array and the discard node, so
 * an if/else on a lane-varying condition snapshots it, runs each side to the
 * merge block, and joins. */
#include "shader/spirv.h"

#include "mosaic.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "util/alloc.h"

enum { T_NONE = 0, T_VOID, T_BOOL, T_INT, T_FLOAT, T_VECTOR, T_MATRIX, T_ARRAY, T_STRUCT, T_POINTER,
       T_IMAGE, T_SAMPLED_IMAGE, T_FUNCTION };

/* What an id is. */
enum { K_NONE = 0, K_TYPE, K_VALUE, K_POINTER, K_FUNCTION, K_LABEL, K_EXT, K_STRING };

/* Where a pointer points. */
enum { P_SLOTS = 0, P_UNIFORM, P_INPUT, P_SAMPLER, P_FRAGCOORD, P_UNSUPPORTED };

#define MAX_STEPS 4000000  /* instructions run: a loop that never folds to an exit ends here */
#define MAX_DEPTH 64       /* nested lane-varying ifs and calls */
#define MAX_NODES (1 << 20) /* DAG nodes */

typedef struct id_info {
    uint8_t kind;
    uint8_t tkind;      /* K_TYPE: T_* */
    uint8_t is_signed;  /* T_INT */
    uint8_t block;      /* struct decorated Block */
    uint8_t is_var;     /* K_POINTER made by OpVariable (not an access chain or a parameter) */
    int type;           /* K_VALUE, K_POINTER, variables: the type id */
    int elem;           /* vector/matrix/array element type, pointer pointee */
    int count;          /* vector size, matrix columns, array length, struct members */
    int flat;           /* K_TYPE: components when flattened */
    int members;        /* T_STRUCT: first member type in info->pool */
    int storage;        /* T_POINTER, variables: storage class */
    /* decorations */
    int location, binding, builtin, array_stride;
    int member_deco;    /* T_STRUCT: first of count entries in member_off / member_mstride / member_builtin */
    /* K_VALUE: components in vals; K_POINTER: target */
    int val, n;
    int ptarget;        /* P_* */
    int pbase;          /* P_SLOTS: slot; P_UNIFORM: byte offset; P_INPUT: float index; P_SAMPLER: unit */
    int pmstride;       /* P_UNIFORM: matrix stride of the matrix pointed into (16 default) */
    size_t pos;         /* K_FUNCTION, K_LABEL: word position */
    int str;            /* K_STRING: word position of the literal */
} id_info;

typedef struct merge_info {
    int active;
    int cond;                   /* node */
    int pred_t, pred_f;         /* labels the sides reached the merge from (-1: killed) */
} merge_info;

typedef struct spv_ctx {
    const uint32_t *w;
    size_t nw;
    uint32_t bound;
    id_info *id;
    ir_dag *dag;
    spv_shader *sh;
    int *vals;                  /* value pool */
    size_t nvals, cap_vals;
    int *pool;                  /* struct member types and decorations */
    size_t npool, cap_pool;
    int *slots;                 /* variable storage */
    size_t nslots, cap_slots;
    int discard;                /* node: 1 where the lane has been discarded */
    int glsl_ext;               /* id of the GLSL.std.450 import */
    merge_info merge;           /* the join the next block's phis read */
    int pred;                   /* label the current block was entered from */
    int ret_val, ret_n;         /* OpReturnValue of the innermost call */
    long steps;
    long loops_run, calls_run;  /* OpLoopMerge / OpFunctionCall instructions run (messages) */
    int depth;
    int zero;                   /* const 0 node */
    /* error reporting */
    const char *file;
    int line;
    char *err;
    size_t err_size;
    int failed;
    /* member decorations, parallel arrays indexed from id.member_deco */
    int *member_off, *member_mstride, *member_builtin;
    size_t nmember, cap_member;
    int *loop_merge, *loop_cont;  /* per label: 1 if some OpLoopMerge names it */
    const mos_allocator *a;     /* every block the translation allocates (NULL: malloc) */
    int oom;                    /* an allocation failed */
} spv_ctx;

static int fail(spv_ctx *c, const char *fmt, ...)
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

static int grow(spv_ctx *c, void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap : 256;
    while (nc < need)
        nc *= 2;
    void *q = ir_realloc(c->a, *p, *cap * elem, nc * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = nc;
    return 0;
}

static int oom(spv_ctx *c)
{
    c->oom = 1;
    return fail(c, "out of memory");
}

/* ---- ids ------------------------------------------------------------------------ */

static const id_info *get(spv_ctx *c, uint32_t id)
{
    static const id_info none;  /* every field 0: K_NONE */
    return id < c->bound ? &c->id[id] : &none;
}

static int check_id(spv_ctx *c, uint32_t id)
{
    return id > 0 && id < c->bound ? 0 : fail(c, "malformed SPIR-V: id %u out of range", id);
}

static int type_flat(spv_ctx *c, uint32_t t) { return get(c, t)->kind == K_TYPE ? get(c, t)->flat : 0; }

/* Sets id to a value of N components copied from COMP. */
static int set_value(spv_ctx *c, uint32_t id, uint32_t type, const int *comp, int n)
{
    if (check_id(c, id) < 0)
        return -1;
    /* COMP may point into the pool itself (a value copied on): keep its offset across the growth. */
    const uintptr_t at = (uintptr_t)comp, lo = (uintptr_t)c->vals, hi = lo + c->nvals * sizeof *c->vals;
    const size_t inside = c->vals && at >= lo && at < hi ? (at - lo) / sizeof *c->vals + 1 : 0;
    if (grow(c, (void **)&c->vals, &c->cap_vals, c->nvals + (size_t)n, sizeof *c->vals) < 0)
        return oom(c);
    if (inside)
        comp = c->vals + (inside - 1);
    for (int i = 0; i < n; i++) {
        if (comp[i] < 0)
            return c->dag->failed ? oom(c) : fail(c, "internal error: missing operand");
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
static const int *value(spv_ctx *c, uint32_t id, int *n)
{
    const id_info *x = get(c, id);
    *n = 0;
    if (x->kind != K_VALUE) {
        fail(c, "malformed SPIR-V: id %u used as a value", id);
        return NULL;
    }
    static const int none = 0;  /* read-only: what an empty value points at */
    *n = x->n;
    return x->n ? c->vals + x->val : &none;
}

static int scalar(spv_ctx *c, uint32_t id)
{
    int n;
    const int *v = value(c, id, &n);
    if (!v)
        return -1;
    if (n != 1)
        return fail(c, "internal error: expected a scalar");
    return v[0];
}

static int const_int(spv_ctx *c, uint32_t id, int *out)
{
    int n;
    const int *v = value(c, id, &n);
    if (!v || n != 1 || c->dag->node[v[0]].op != IR_CONST)
        return -1;
    const float k = c->dag->node[v[0]].v.imm;
    if (!(k >= -2147483648.0f && k < 2147483648.0f))  /* NaN too */
        return -1;
    *out = (int)k;
    return 0;
}

/* ---- declarations ------------------------------------------------------------------ */

static const char *literal(spv_ctx *c, size_t pos) { return (const char *)&c->w[pos]; }

static int declare_type(spv_ctx *c, SpvOp op, const uint32_t *ins, int len)
{
    const uint32_t id = ins[1];
    if (check_id(c, id) < 0)
        return -1;
    id_info *x = &c->id[id];
    x->kind = K_TYPE;
    switch (op) {
    case SpvOpTypeVoid: x->tkind = T_VOID; break;
    case SpvOpTypeBool: x->tkind = T_BOOL; x->flat = 1; break;
    case SpvOpTypeInt: x->tkind = T_INT; x->flat = 1; x->is_signed = len > 3 && ins[3]; break;
    case SpvOpTypeFloat:
        if (len < 3 || ins[2] != 32)
            return fail(c, "%u-bit floats are not supported (only float)", ins[2]);
        x->tkind = T_FLOAT; x->flat = 1; break;
    case SpvOpTypeVector: case SpvOpTypeMatrix:
        if (len < 4 || ins[3] < 2 || ins[3] > 4 || type_flat(c, ins[2]) < 1 || type_flat(c, ins[2]) > 4)
            return fail(c, "malformed SPIR-V: vector or matrix type");
        x->tkind = op == SpvOpTypeVector ? T_VECTOR : T_MATRIX;
        x->elem = (int)ins[2];
        x->count = (int)ins[3];
        x->flat = type_flat(c, ins[2]) * x->count;
        break;
    case SpvOpTypeArray: {
        int n;
        if (len < 4)
            return fail(c, "malformed SPIR-V: array type");
        if (const_int(c, ins[3], &n) < 0 || n <= 0 || n > 65536)
            return fail(c, "array length must be a constant from 1 to 65536");
        if ((int64_t)type_flat(c, ins[2]) * n > 1 << 20)
            return fail(c, "type too large");
        x->tkind = T_ARRAY;
        x->elem = (int)ins[2];
        x->count = n;
        x->flat = type_flat(c, ins[2]) * n;
        break;
    }
    case SpvOpTypeRuntimeArray: return fail(c, "runtime-sized arrays are not supported");
    case SpvOpTypeStruct: {
        const int m = len - 2;
        if (grow(c, (void **)&c->pool, &c->cap_pool, c->npool + (size_t)m, sizeof *c->pool) < 0)
            return oom(c);
        x->tkind = T_STRUCT;
        x->count = m;
        x->members = (int)c->npool;
        x->flat = 0;
        for (int i = 0; i < m; i++) {
            c->pool[c->npool++] = (int)ins[2 + i];
            if (x->flat + type_flat(c, ins[2 + i]) > 1 << 20)
                return fail(c, "type too large");
            x->flat += type_flat(c, ins[2 + i]);
        }
        break;
    }
    case SpvOpTypePointer:
        if (len < 4)
            return fail(c, "malformed SPIR-V: pointer type");
        x->tkind = T_POINTER; x->storage = (int)ins[2]; x->elem = (int)ins[3]; break;
    case SpvOpTypeImage: x->tkind = T_IMAGE; break;
    case SpvOpTypeSampledImage: x->tkind = T_SAMPLED_IMAGE; break;
    case SpvOpTypeFunction: x->tkind = T_FUNCTION; break;
    case SpvOpTypeSampler: return fail(c, "separate samplers are not supported (use sampler2D)");
    default: return fail(c, "unsupported type (SPIR-V opcode %d)", (int)op);
    }
    if (x->flat > 1 << 20)
        return fail(c, "type too large");
    return 0;
}

static int declare_constant(spv_ctx *c, SpvOp op, const uint32_t *ins, int len)
{
    const uint32_t type = ins[1], id = ins[2];
    const id_info *t = get(c, type);
    if (t->kind != K_TYPE)
        return fail(c, "malformed SPIR-V: constant of a non-type");
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
            return fail(c, "unsupported constant type");
        comp[n++] = ir_const(c->dag, f);
        break;
    }
    case SpvOpConstantNull:
        if (t->flat > 64)
            return fail(c, "constant too large");
        for (; n < t->flat; n++)
            comp[n] = c->zero;
        break;
    case SpvOpConstantComposite: case SpvOpSpecConstantComposite:
        for (int i = 3; i < len; i++) {
            int m;
            const int *v = value(c, ins[i], &m);
            if (!v)
                return -1;
            if (n + m > 64)
                return fail(c, "constant too large");
            for (int j = 0; j < m; j++)
                comp[n++] = v[j];
        }
        break;
    default: return fail(c, "unsupported constant (SPIR-V opcode %d)", (int)op);
    }
    return set_value(c, id, type, comp, n);
}

/* A struct's member decorations: a slice of the member_* arrays. */
static int member_slot(spv_ctx *c, uint32_t st, uint32_t member, int *slot)
{
    if (check_id(c, st) < 0)
        return -1;
    id_info *x = &c->id[st];
    if (!x->member_deco) {
        const size_t need = c->nmember + 64;
        size_t cap = c->cap_member;
        if (grow(c, (void **)&c->member_off, &cap, need, sizeof(int)) < 0)
            return oom(c);
        cap = c->cap_member;
        if (grow(c, (void **)&c->member_mstride, &cap, need, sizeof(int)) < 0)
            return oom(c);
        cap = c->cap_member;
        if (grow(c, (void **)&c->member_builtin, &cap, need, sizeof(int)) < 0)
            return oom(c);
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
        return fail(c, "struct with more than 64 members");
    *slot = x->member_deco - 1 + (int)member;
    return 0;
}

static int decorate(spv_ctx *c, const uint32_t *ins, int len)
{
    if (check_id(c, ins[1]) < 0 || len < 3)
        return -1;
    id_info *x = &c->id[ins[1]];
    const uint32_t arg = len > 3 ? ins[3] : 0;
    switch (ins[2]) {
    case SpvDecorationLocation: x->location = (int)arg; break;
    case SpvDecorationBinding: x->binding = (int)arg; break;
    case SpvDecorationBuiltIn: x->builtin = (int)arg; break;
    case SpvDecorationArrayStride: x->array_stride = (int)arg; break;
    case SpvDecorationBlock: x->block = 1; break;
    case SpvDecorationBufferBlock: return fail(c, "buffer blocks are not supported");
    default: break;
    }
    return 0;
}

static int member_decorate(spv_ctx *c, const uint32_t *ins, int len)
{
    int s;
    if (len < 4 || member_slot(c, ins[1], ins[2], &s) < 0)
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

/* ---- variables ------------------------------------------------------------------------ */

static int new_slots(spv_ctx *c, int n)
{
    if (grow(c, (void **)&c->slots, &c->cap_slots, c->nslots + (size_t)n, sizeof *c->slots) < 0)
        return oom(c);
    for (int i = 0; i < n; i++)
        c->slots[c->nslots + (size_t)i] = c->zero;
    const int base = (int)c->nslots;
    c->nslots += (size_t)n;
    return base;
}

static int set_pointer(spv_ctx *c, uint32_t id, uint32_t type, int target, int base, int mstride)
{
    if (check_id(c, id) < 0)
        return -1;
    id_info *x = &c->id[id];
    x->kind = K_POINTER;
    x->type = (int)type;
    x->ptarget = target;
    x->pbase = base;
    x->pmstride = mstride;
    return 0;
}

/* A variable: storage for Function, Private and Output; a view of the
 * interface for Input, Uniform and UniformConstant.  INIT: initializer id or 0. */
static int declare_variable(spv_ctx *c, uint32_t type, uint32_t id, uint32_t storage, uint32_t init)
{
    const id_info *pt = get(c, type);
    if (check_id(c, id) < 0)
        return -1;
    if (pt->kind != K_TYPE || pt->tkind != T_POINTER)
        return fail(c, "malformed SPIR-V: variable of a non-pointer type");
    const uint32_t pointee = (uint32_t)pt->elem;
    const id_info *vt = get(c, pointee);
    switch (storage) {
    case SpvStorageClassFunction: case SpvStorageClassPrivate: case SpvStorageClassOutput: {
        const int base = new_slots(c, vt->flat);
        if (base < 0)
            return -1;
        if (init) {
            int n;
            const int *v = value(c, init, &n);
            if (!v)
                return -1;
            for (int i = 0; i < n && i < vt->flat; i++)
                c->slots[base + i] = v[i];
        }
        if (set_pointer(c, id, type, P_SLOTS, base, 16) < 0)
            return -1;
        c->id[id].storage = (int)storage;
        c->id[id].is_var = 1;
        return 0;
    }
    case SpvStorageClassUniform:
        if (vt->tkind != T_STRUCT || !vt->block)
            return fail(c, "uniforms must be in a uniform block");
        return set_pointer(c, id, type, P_UNIFORM, 0, 16);
    case SpvStorageClassUniformConstant:
        if (vt->tkind != T_SAMPLED_IMAGE)
            return fail(c, "only sampler2D is supported outside the uniform block");
        if (c->id[id].binding < 0 || c->id[id].binding >= MOS_MAX_TEXTURES)
            return fail(c, "sampler binding %d is outside 0..%d (MOS_MAX_TEXTURES textures per draw)",
                        c->id[id].binding, MOS_MAX_TEXTURES - 1);
        c->sh->texture_units |= 1u << c->id[id].binding;
        return set_pointer(c, id, type, P_SAMPLER, c->id[id].binding, 16);
    case SpvStorageClassInput:
        if (c->id[id].builtin == SpvBuiltInFragCoord)
            return set_pointer(c, id, type, P_FRAGCOORD, 0, 16);
        if (c->id[id].builtin >= 0)  /* declared is fine; reading it is an error */
            return set_pointer(c, id, type, P_UNSUPPORTED, c->id[id].builtin, 16);
        if (set_pointer(c, id, type, P_INPUT, -1, 16) < 0)  /* base set when the interface is packed */
            return -1;
        c->id[id].is_var = 1;
        return 0;
    default: return fail(c, "storage class %u is not supported", storage);
    }
}

/* Packs the Input (and vertex Output) variables by location. */
static int pack_interface(spv_ctx *c)
{
    spv_shader *sh = c->sh;
    for (uint32_t id = 1; id < c->bound; id++) {
        id_info *x = &c->id[id];
        if (x->kind != K_POINTER || !x->is_var || !(x->ptarget == P_INPUT || (x->ptarget == P_SLOTS && x->storage == SpvStorageClassOutput)))
            continue;
        const int is_in = x->ptarget == P_INPUT;
        if (!is_in && x->builtin >= 0)
            continue;
        const id_info *t = get(c, (uint32_t)get(c, (uint32_t)x->type)->elem);
        if (!is_in && t->tkind == T_STRUCT)
            continue;  /* gl_PerVertex */
        spv_iovar *list = is_in ? sh->in : sh->out;
        int *count = is_in ? &sh->in_count : &sh->out_count;
        if (*count == SPV_MAX_IO)
            return fail(c, "more than %d interface variables", SPV_MAX_IO);
        if (x->location < 0)
            return fail(c, "an interface variable has no location");
        list[(*count)++] = (spv_iovar){ x->location, t->flat };
    }
    for (int pass = 0; pass < 2; pass++) {
        spv_iovar *list = pass ? sh->out : sh->in;
        const int n = pass ? sh->out_count : sh->in_count;
        for (int i = 1; i < n; i++)  /* insertion sort by location */
            for (int j = i; j > 0 && list[j - 1].location > list[j].location; j--) {
                const spv_iovar t = list[j];
                list[j] = list[j - 1];
                list[j - 1] = t;
            }
        for (int i = 1; i < n; i++)
            if (list[i].location == list[i - 1].location)
                return fail(c, "two interface variables at location %d", list[i].location);
    }
    for (int i = 0; i < sh->in_count; i++)
        sh->input_floats += sh->in[i].floats;
    for (int i = 0; i < sh->out_count; i++)
        sh->varying_floats += sh->out[i].floats;
    for (uint32_t id = 1; id < c->bound; id++) {
        id_info *x = &c->id[id];
        if (x->kind == K_POINTER && x->is_var && x->ptarget == P_INPUT) {
            int base = 0;
            for (int i = 0; i < sh->in_count && sh->in[i].location < x->location; i++)
                base += sh->in[i].floats;
            x->pbase = base;
        }
    }
    return 0;
}

/* ---- loads and stores -------------------------------------------------------------------- */

/* The uniform components of TYPE at byte offset OFF (matrix stride MS),
 * appended to comp; returns the count or -1. */
static int uniform_load(spv_ctx *c, uint32_t type, long long off, int ms, int *comp, int cap)
{
    const id_info *t = get(c, type);
    int n = 0;
    switch (t->tkind) {
    case T_FLOAT: case T_INT: case T_BOOL:
        if (cap < 1)
            return fail(c, "uniform value too large");
        if (off < 0 || off > SPV_MAX_UNIFORM_BYTES - 4)
            return fail(c, "the shader reads its uniform block at byte %lld; Mosaic's limit is %d bytes "
                           "(MOS_MAX_UNIFORM_BYTES, the most a draw can give)", off, SPV_MAX_UNIFORM_BYTES);
        if (off + 4 > c->sh->uniform_bytes) {
            c->sh->uniform_bytes = (int)off + 4;
            c->sh->uniform_line = c->line;
        }
        comp[0] = ir_leaf(c->dag, IR_UNIFORM, (int32_t)off,
                          t->tkind == T_FLOAT ? IR_U_FLOAT : t->tkind == T_INT && t->is_signed ? IR_U_INT : IR_U_UINT);
        return 1;
    case T_VECTOR:
        for (int i = 0; i < t->count; i++, n++)
            if (uniform_load(c, (uint32_t)t->elem, off + 4 * i, ms, comp + n, cap - n) < 0)
                return -1;
        return n;
    case T_MATRIX:
        for (int i = 0; i < t->count; i++) {
            const int m = uniform_load(c, (uint32_t)t->elem, off + (long long)ms * i, ms, comp + n, cap - n);
            if (m < 0)
                return -1;
            n += m;
        }
        return n;
    case T_ARRAY:
        if (t->array_stride <= 0)
            return fail(c, "uniform array without a stride");
        for (int i = 0; i < t->count; i++) {
            const int m = uniform_load(c, (uint32_t)t->elem, off + (long long)t->array_stride * i, ms, comp + n, cap - n);
            if (m < 0)
                return -1;
            n += m;
        }
        return n;
    case T_STRUCT:
        for (int i = 0; i < t->count; i++) {
            int s;
            if (member_slot(c, type, (uint32_t)i, &s) < 0)
                return -1;
            const int m = uniform_load(c, (uint32_t)c->pool[t->members + i], off + (long long)c->member_off[s],
                                       c->member_mstride[s], comp + n, cap - n);
            if (m < 0)
                return -1;
            n += m;
        }
        return n;
    default: return fail(c, "unsupported type in the uniform block");
    }
}

static int load(spv_ctx *c, uint32_t type, uint32_t id, uint32_t ptr)
{
    const id_info *p = get(c, ptr);
    if (p->kind != K_POINTER)
        return fail(c, "malformed SPIR-V: load through a non-pointer");
    const int flat = type_flat(c, type);
    int buf[256] = { 0 };
    int *comp = flat <= 256 ? buf : util_calloc(c->a, (size_t)flat, sizeof *comp);
    if (!comp)
        return oom(c);
    int n = flat, rc = 0;
    switch (p->ptarget) {
    case P_SLOTS:
        if (p->pbase < 0 || (size_t)p->pbase + (size_t)flat > c->nslots) {
            n = fail(c, "malformed SPIR-V: load past the end of a variable");
            break;
        }
        for (int i = 0; i < flat; i++)
            comp[i] = c->slots[p->pbase + i];
        break;
    case P_UNIFORM:
        n = uniform_load(c, type, p->pbase, p->pmstride, comp, flat);
        break;
    case P_INPUT:
        for (int i = 0; i < flat; i++)
            comp[i] = ir_leaf(c->dag, IR_INPUT, p->pbase + i, 0);
        break;
    case P_FRAGCOORD:
        for (int i = 0; i < flat; i++)
            comp[i] = ir_leaf(c->dag, IR_FRAGCOORD, p->pbase + i, 0);
        break;
    case P_UNSUPPORTED:
        n = fail(c, "built-in input %d (gl_VertexID, gl_FrontFacing, ...) is not supported; Mosaic has gl_FragCoord.xy",
                 p->pbase);
        break;
    case P_SAMPLER:  /* a sampler's value is its unit */
        n = 1;
        comp[0] = ir_const(c->dag, (float)p->pbase);
        break;
    }
    if (n >= 0)
        rc = set_value(c, id, type, comp, n);
    if (comp != buf)
        util_free(c->a, comp);
    return n < 0 ? -1 : rc;
}

static int store(spv_ctx *c, uint32_t ptr, uint32_t val)
{
    const id_info *p = get(c, ptr);
    if (p->kind != K_POINTER || p->ptarget != P_SLOTS)
        return fail(c, "store to something that is not a variable");
    int n;
    const int *v = value(c, val, &n);
    if (!v)
        return -1;
    if (p->pbase < 0 || (size_t)p->pbase + (size_t)n > c->nslots)
        return fail(c, "malformed SPIR-V: store past the end of a variable");
    for (int i = 0; i < n; i++)
        c->slots[p->pbase + i] = v[i];
    return 0;
}

/* OpAccessChain with constant indices. */
static int access_chain(spv_ctx *c, const uint32_t *ins, int len)
{
    const uint32_t type = ins[1], id = ins[2];
    const id_info *base = get(c, ins[3]);
    if (base->kind != K_POINTER)
        return fail(c, "malformed SPIR-V: access chain on a non-pointer");
    uint32_t t = (uint32_t)get(c, (uint32_t)base->type)->elem;
    long long off = base->pbase;  /* wide: decorated strides and offsets may be anything */
    int ms = base->pmstride;
    const int bytes = base->ptarget == P_UNIFORM;
    for (int i = 4; i < len; i++) {
        if (off < 0 || off > (1 << 24))
            return fail(c, bytes ? "uniform offset out of range" : "malformed SPIR-V: access chain out of range");
        int k;
        if (const_int(c, ins[i], &k) < 0)
            return fail(c, "indexing with a value that is not a constant (after unrolling) is not supported");
        const id_info *ti = get(c, t);
        if (k < 0 || (ti->tkind != T_STRUCT && k >= ti->count) || (ti->tkind == T_STRUCT && k >= ti->count))
            return fail(c, "index %d out of range", k);
        switch (ti->tkind) {
        case T_STRUCT: {
            int s;
            if (member_slot(c, t, (uint32_t)k, &s) < 0)
                return -1;
            if (bytes) {
                off += (long long)c->member_off[s];
                ms = c->member_mstride[s];
            } else {
                for (int m = 0; m < k; m++)
                    off += type_flat(c, (uint32_t)c->pool[ti->members + m]);
            }
            t = (uint32_t)c->pool[ti->members + k];
            break;
        }
        case T_ARRAY:
            off += bytes ? (long long)ti->array_stride * k : (long long)type_flat(c, (uint32_t)ti->elem) * k;
            t = (uint32_t)ti->elem;
            break;
        case T_MATRIX:
            off += bytes ? (long long)ms * k : (long long)type_flat(c, (uint32_t)ti->elem) * k;
            t = (uint32_t)ti->elem;
            break;
        case T_VECTOR:
            off += bytes ? 4 * k : k;
            t = (uint32_t)ti->elem;
            break;
        default: return fail(c, "malformed SPIR-V: access chain into a scalar");
        }
    }
    if (off < 0 || off > (1 << 24))
        return fail(c, bytes ? "uniform offset out of range" : "malformed SPIR-V: access chain out of range");
    if (set_pointer(c, id, type, base->ptarget, (int)off, ms) < 0)
        return -1;
    c->id[id].storage = base->storage;
    return 0;
}

/* ---- arithmetic ------------------------------------------------------------------------------ */

static int op2(spv_ctx *c, ir_op op, int a, int b) { return ir_add(c->dag, op, a, b, -1); }

/* Applies OP component-wise over operands ins[3..3+arity) (scalars broadcast). */
static int componentwise(spv_ctx *c, const uint32_t *ins, ir_op op, int arity, int swap)
{
    int n[3] = { 1, 1, 1 }, width = 1;
    const int *v[3];
    for (int i = 0; i < arity; i++) {
        v[i] = value(c, ins[3 + i], &n[i]);
        if (!v[i])
            return -1;
        if (n[i] > width)
            width = n[i];
    }
    int comp[16];
    if (width > 16)
        return fail(c, "operation on a value with more than 16 components");
    for (int k = 0; k < width; k++) {
        int a[3] = { -1, -1, -1 };
        for (int i = 0; i < arity; i++)
            a[i] = v[i][n[i] == 1 ? 0 : k];
        comp[k] = swap ? ir_add(c->dag, op, a[1], a[0], -1) : ir_add(c->dag, op, a[0], a[1], a[2]);
    }
    return set_value(c, ins[2], ins[1], comp, width);
}

static int dot(spv_ctx *c, const int *a, const int *b, int n)
{
    int s = op2(c, IR_MUL, a[0], b[0]);
    for (int i = 1; i < n; i++)
        s = op2(c, IR_ADD, s, op2(c, IR_MUL, a[i], b[i]));
    return s;
}

static int matrix_op(spv_ctx *c, SpvOp op, const uint32_t *ins)
{
    int na, nb;
    const int *a = value(c, ins[3], &na), *b = value(c, ins[4], &nb);
    if (!a || !b)
        return -1;
    const id_info *ta = get(c, (uint32_t)get(c, ins[3])->type);
    const id_info *tb = get(c, (uint32_t)get(c, ins[4])->type);
    int comp[16];
    int n = 0;
    switch (op) {
    case SpvOpMatrixTimesVector: {  /* rows = na / nb */
        const int rows = na / nb;
        for (int r = 0; r < rows; r++) {
            int s = op2(c, IR_MUL, a[r], b[0]);
            for (int k = 1; k < nb; k++)
                s = op2(c, IR_ADD, s, op2(c, IR_MUL, a[k * rows + r], b[k]));
            comp[n++] = s;
        }
        break;
    }
    case SpvOpVectorTimesMatrix: {  /* result[col] = dot(v, m[col]) */
        const int cols = tb->count;
        for (int k = 0; k < cols; k++)
            comp[n++] = dot(c, a, b + k * na, na);
        break;
    }
    case SpvOpMatrixTimesMatrix: {
        const int rows = na / ta->count, inner = ta->count, cols = tb->count;
        if (rows * cols > 16)
            return fail(c, "matrix too large");
        for (int j = 0; j < cols; j++)
            for (int r = 0; r < rows; r++) {
                int s = op2(c, IR_MUL, a[r], b[j * inner]);
                for (int k = 1; k < inner; k++)
                    s = op2(c, IR_ADD, s, op2(c, IR_MUL, a[k * rows + r], b[j * inner + k]));
                comp[n++] = s;
            }
        break;
    }
    default: return fail(c, "internal error: matrix op");
    }
    return set_value(c, ins[2], ins[1], comp, n);
}

static int normalize(spv_ctx *c, const int *v, int n, int *out)
{
    const int inv = ir_add(c->dag, IR_RSQRT, dot(c, v, v, n), -1, -1);
    for (int i = 0; i < n; i++)
        out[i] = op2(c, IR_MUL, v[i], inv);
    return 0;
}

/* The determinant of the K x K submatrix of column-major N x N matrix M
 * with rows ROWS and columns COLS (Laplace expansion along the first
 * column; CSE shares the minors). */
static int minor_det(spv_ctx *c, const int *m, int n, const int *rows, const int *cols, int k)
{
    if (k == 1)
        return m[cols[0] * n + rows[0]];
    int sum = -1;
    for (int i = 0; i < k; i++) {
        int sub_rows[4], r = 0;
        for (int j = 0; j < k; j++)
            if (j != i)
                sub_rows[r++] = rows[j];
        const int term = op2(c, IR_MUL, m[cols[0] * n + rows[i]], minor_det(c, m, n, sub_rows, cols + 1, k - 1));
        sum = sum < 0 ? term : op2(c, i % 2 ? IR_SUB : IR_ADD, sum, term);
    }
    return sum;
}

/* Cofactor (row r, column q) of an N x N matrix. */
static int cofactor(spv_ctx *c, const int *m, int n, int r, int q)
{
    int rows[4], cols[4], nr = 0, nc = 0;
    for (int i = 0; i < n; i++) {
        if (i != r)
            rows[nr++] = i;
        if (i != q)
            cols[nc++] = i;
    }
    const int d = minor_det(c, m, n, rows, cols, n - 1);
    return (r + q) % 2 ? ir_add(c->dag, IR_NEG, d, -1, -1) : d;
}

static const char *const glsl450_names[] = {
    "Bad", "round", "roundEven", "trunc", "abs", "abs", "sign", "sign", "floor", "ceil", "fract", "radians",
    "degrees", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
    "atan", "pow", "exp", "log", "exp2", "log2", "sqrt", "inversesqrt", "determinant", "inverse", "modf", "modf",
    "min", "min", "min", "max", "max", "max", "clamp", "clamp", "clamp", "mix", "mix", "step", "smoothstep", "fma",
    "frexp", "frexp", "ldexp", "packSnorm4x8", "packUnorm4x8", "packSnorm2x16", "packUnorm2x16", "packHalf2x16",
    "packDouble2x32", "unpackSnorm2x16", "unpackUnorm2x16", "unpackHalf2x16", "unpackSnorm4x8", "unpackUnorm4x8",
    "unpackDouble2x32", "length", "distance", "cross", "normalize", "faceforward", "reflect", "refract",
    "findLSB", "findMSB", "findMSB", "interpolateAtCentroid", "interpolateAtSample", "interpolateAtOffset", "min",
    "max", "clamp",
};

/* GLSL.std.450 instructions. */
static int ext_inst(spv_ctx *c, const uint32_t *ins, int len)
{
    if (ins[3] != (uint32_t)c->glsl_ext)
        return fail(c, "unsupported extended instruction set");
    const uint32_t e = ins[4];
    const uint32_t *args = ins + 5;
    if (e == GLSLstd450Modf || e == GLSLstd450ModfStruct || e == GLSLstd450Frexp || e == GLSLstd450FrexpStruct ||
        e == GLSLstd450IMix || (e >= GLSLstd450PackSnorm4x8 && e <= GLSLstd450UnpackDouble2x32) ||
        (e >= GLSLstd450FindILsb && e <= GLSLstd450InterpolateAtOffset))
        return fail(c, "%s (GLSL.std.450 %u) is not supported", glsl450_names[e], e);
    const int nargs = len - 5;
    int n[3] = { 0, 0, 0 };
    const int *v[3] = { NULL, NULL, NULL };
    for (int i = 0; i < nargs && i < 3; i++)
        if (!(v[i] = value(c, args[i], &n[i])))
            return -1;
    int comp[16];
    const int w = n[0] > 16 ? 16 : n[0];
    ir_op un = IR_OP_COUNT, bin = IR_OP_COUNT;
    switch (e) {
    case GLSLstd450Round: case GLSLstd450RoundEven: un = IR_ROUND; break;
    case GLSLstd450Trunc: un = IR_TRUNC; break;
    case GLSLstd450FAbs: case GLSLstd450SAbs: un = IR_ABS; break;
    case GLSLstd450FSign: case GLSLstd450SSign: un = IR_SIGN; break;
    case GLSLstd450Floor: un = IR_FLOOR; break;
    case GLSLstd450Ceil: un = IR_CEIL; break;
    case GLSLstd450Fract: un = IR_FRACT; break;
    case GLSLstd450Sin: un = IR_SIN; break;
    case GLSLstd450Cos: un = IR_COS; break;
    case GLSLstd450Tan: un = IR_TAN; break;
    case GLSLstd450Asin: un = IR_ASIN; break;
    case GLSLstd450Acos: un = IR_ACOS; break;
    case GLSLstd450Atan: un = IR_ATAN; break;
    case GLSLstd450Exp: un = IR_EXP; break;
    case GLSLstd450Log: un = IR_LOG; break;
    case GLSLstd450Exp2: un = IR_EXP2; break;
    case GLSLstd450Log2: un = IR_LOG2; break;
    case GLSLstd450Sqrt: un = IR_SQRT; break;
    case GLSLstd450InverseSqrt: un = IR_RSQRT; break;
    case GLSLstd450Atan2: bin = IR_ATAN2; break;
    case GLSLstd450Pow: bin = IR_POW; break;
    case GLSLstd450FMin: case GLSLstd450UMin: case GLSLstd450SMin: case GLSLstd450NMin: bin = IR_MIN; break;
    case GLSLstd450FMax: case GLSLstd450UMax: case GLSLstd450SMax: case GLSLstd450NMax: bin = IR_MAX; break;
    case GLSLstd450Step: bin = IR_STEP; break;
    default: break;
    }
    if (un != IR_OP_COUNT || bin != IR_OP_COUNT) {
        const int ww = bin != IR_OP_COUNT && n[1] > w ? n[1] : w;
        for (int k = 0; k < ww; k++)
            comp[k] = un != IR_OP_COUNT ? ir_add(c->dag, un, v[0][k], -1, -1)
                                        : op2(c, bin, v[0][n[0] == 1 ? 0 : k], v[1][n[1] == 1 ? 0 : k]);
        return set_value(c, ins[2], ins[1], comp, ww);
    }
    int out_n = w;
    switch (e) {
    case GLSLstd450Radians: case GLSLstd450Degrees: {
        const int k = ir_const(c->dag, e == GLSLstd450Radians ? 0.017453292519943295f : 57.29577951308232f);
        for (int i = 0; i < w; i++)
            comp[i] = op2(c, IR_MUL, v[0][i], k);
        break;
    }
    case GLSLstd450FClamp: case GLSLstd450UClamp: case GLSLstd450SClamp: case GLSLstd450NClamp:
        for (int i = 0; i < w; i++)
            comp[i] = op2(c, IR_MIN, op2(c, IR_MAX, v[0][i], v[1][n[1] == 1 ? 0 : i]), v[2][n[2] == 1 ? 0 : i]);
        break;
    case GLSLstd450FMix:  /* x * (1 - a) + y * a */
        for (int i = 0; i < w; i++) {
            const int a = v[2][n[2] == 1 ? 0 : i];
            comp[i] = op2(c, IR_ADD, op2(c, IR_MUL, v[0][i], op2(c, IR_SUB, ir_const(c->dag, 1.0f), a)),
                          op2(c, IR_MUL, v[1][i], a));
        }
        break;
    case GLSLstd450SmoothStep:  /* t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 t) */
        out_n = n[2];
        for (int i = 0; i < n[2]; i++) {
            const int e0 = v[0][n[0] == 1 ? 0 : i], e1 = v[1][n[1] == 1 ? 0 : i];
            int t = ir_add(c->dag, IR_DIV, op2(c, IR_SUB, v[2][i], e0), op2(c, IR_SUB, e1, e0), -1);
            t = op2(c, IR_MIN, op2(c, IR_MAX, t, c->zero), ir_const(c->dag, 1.0f));
            comp[i] = op2(c, IR_MUL, op2(c, IR_MUL, t, t),
                          op2(c, IR_SUB, ir_const(c->dag, 3.0f), op2(c, IR_MUL, ir_const(c->dag, 2.0f), t)));
        }
        break;
    case GLSLstd450Fma:
        for (int i = 0; i < w; i++)
            comp[i] = op2(c, IR_ADD, op2(c, IR_MUL, v[0][i], v[1][i]), v[2][i]);
        break;
    case GLSLstd450Length:
        out_n = 1;
        comp[0] = ir_add(c->dag, IR_SQRT, dot(c, v[0], v[0], w), -1, -1);
        break;
    case GLSLstd450Distance: {
        int d[16];
        for (int i = 0; i < w; i++)
            d[i] = op2(c, IR_SUB, v[0][i], v[1][i]);
        out_n = 1;
        comp[0] = ir_add(c->dag, IR_SQRT, dot(c, d, d, w), -1, -1);
        break;
    }
    case GLSLstd450Cross:
        if (w != 3)
            return fail(c, "cross of non-3-vectors");
        for (int i = 0; i < 3; i++) {
            const int j = (i + 1) % 3, k = (i + 2) % 3;
            comp[i] = op2(c, IR_SUB, op2(c, IR_MUL, v[0][j], v[1][k]), op2(c, IR_MUL, v[0][k], v[1][j]));
        }
        break;
    case GLSLstd450Normalize: normalize(c, v[0], w, comp); break;
    case GLSLstd450FaceForward: {  /* dot(Nref, I) < 0 ? N : -N */
        const int s = op2(c, IR_LT, dot(c, v[2], v[1], w), c->zero);
        for (int i = 0; i < w; i++)
            comp[i] = ir_add(c->dag, IR_SELECT, s, v[0][i], ir_add(c->dag, IR_NEG, v[0][i], -1, -1));
        break;
    }
    case GLSLstd450Reflect: {  /* I - 2 dot(N, I) N */
        const int d2 = op2(c, IR_MUL, ir_const(c->dag, 2.0f), dot(c, v[1], v[0], w));
        for (int i = 0; i < w; i++)
            comp[i] = op2(c, IR_SUB, v[0][i], op2(c, IR_MUL, d2, v[1][i]));
        break;
    }
    case GLSLstd450Sinh: case GLSLstd450Cosh: case GLSLstd450Tanh:
        for (int i = 0; i < w; i++) {
            const int x = v[0][i], half = ir_const(c->dag, 0.5f), one = ir_const(c->dag, 1.0f);
            if (e == GLSLstd450Tanh) {  /* 1 - 2 / (e^2x + 1): +-1 at the ends, not inf / inf */
                const int e2 = ir_add(c->dag, IR_EXP, op2(c, IR_MUL, ir_const(c->dag, 2.0f), x), -1, -1);
                comp[i] = op2(c, IR_SUB, one, op2(c, IR_DIV, ir_const(c->dag, 2.0f), op2(c, IR_ADD, e2, one)));
            } else {
                const int ep = ir_add(c->dag, IR_EXP, x, -1, -1);
                const int en = ir_add(c->dag, IR_EXP, ir_add(c->dag, IR_NEG, x, -1, -1), -1, -1);
                comp[i] = op2(c, IR_MUL, op2(c, e == GLSLstd450Sinh ? IR_SUB : IR_ADD, ep, en), half);
            }
        }
        break;
    case GLSLstd450Asinh: case GLSLstd450Acosh:  /* log(x + sqrt(x x +- 1)) */
        for (int i = 0; i < w; i++) {
            const int x = v[0][i];
            const int r = ir_add(c->dag, IR_SQRT, op2(c, e == GLSLstd450Asinh ? IR_ADD : IR_SUB, op2(c, IR_MUL, x, x),
                                                      ir_const(c->dag, 1.0f)), -1, -1);
            comp[i] = ir_add(c->dag, IR_LOG, op2(c, IR_ADD, x, r), -1, -1);
        }
        break;
    case GLSLstd450Atanh:  /* log((1 + x) / (1 - x)) / 2 */
        for (int i = 0; i < w; i++) {
            const int one = ir_const(c->dag, 1.0f);
            const int q = op2(c, IR_DIV, op2(c, IR_ADD, one, v[0][i]), op2(c, IR_SUB, one, v[0][i]));
            comp[i] = op2(c, IR_MUL, ir_add(c->dag, IR_LOG, q, -1, -1), ir_const(c->dag, 0.5f));
        }
        break;
    case GLSLstd450Ldexp:
        for (int i = 0; i < w; i++)
            comp[i] = op2(c, IR_MUL, v[0][i], ir_add(c->dag, IR_EXP2, v[1][n[1] == 1 ? 0 : i], -1, -1));
        break;
    case GLSLstd450Refract: {  /* k = 1 - eta^2 (1 - dot(N, I)^2); k < 0 ? 0 : eta I - (eta dot(N, I) + sqrt(k)) N */
        const int eta = v[2][0], d = dot(c, v[1], v[0], w), one = ir_const(c->dag, 1.0f);
        const int k = op2(c, IR_SUB, one, op2(c, IR_MUL, op2(c, IR_MUL, eta, eta), op2(c, IR_SUB, one, op2(c, IR_MUL, d, d))));
        const int neg = op2(c, IR_LT, k, c->zero);
        const int f = op2(c, IR_ADD, op2(c, IR_MUL, eta, d), ir_add(c->dag, IR_SQRT, k, -1, -1));
        for (int i = 0; i < w; i++)
            comp[i] = ir_add(c->dag, IR_SELECT, neg, c->zero,
                             op2(c, IR_SUB, op2(c, IR_MUL, eta, v[0][i]), op2(c, IR_MUL, f, v[1][i])));
        break;
    }
    case GLSLstd450Determinant: case GLSLstd450MatrixInverse: {
        const int dim = n[0] == 4 ? 2 : n[0] == 9 ? 3 : n[0] == 16 ? 4 : 0;
        if (!dim)
            return fail(c, "%s of a matrix that is not square", glsl450_names[e]);
        const int idx[4] = { 0, 1, 2, 3 };
        const int det = minor_det(c, v[0], dim, idx, idx, dim);
        if (e == GLSLstd450Determinant) {
            out_n = 1;
            comp[0] = det;
        } else {  /* adjugate / determinant */
            out_n = n[0];
            for (int q = 0; q < dim; q++)
                for (int r = 0; r < dim; r++)
                    comp[q * dim + r] = op2(c, IR_DIV, cofactor(c, v[0], dim, q, r), det);
        }
        break;
    }
    default:
        return fail(c, "%s (GLSL.std.450 %u) is not supported", e < sizeof glsl450_names / sizeof glsl450_names[0]
                                                                     ? glsl450_names[e] : "instruction", e);
    }
    return set_value(c, ins[2], ins[1], comp, out_n);
}

/* ---- control flow ---------------------------------------------------------------------------- */

static int run_blocks(spv_ctx *c, uint32_t label, uint32_t stop, int *pred);

static size_t label_pos(spv_ctx *c, uint32_t label)
{
    const id_info *x = get(c, label);
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
        return oom(c);
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
        return fail(c, "ifs nested more than %d deep", MAX_DEPTH);
    state s0 = { 0 }, st = { 0 };
    int rc = -1, pred_t = from, pred_f = from, kt = 0, kf = 0;
    if (save_state(c, &s0) < 0)
        goto done;
    c->merge.active = 0;
    if (t != merge) {
        const int r = run_blocks(c, t, merge, &pred_t);
        if (r < 0)
            goto done;
        kt = r == 2;
    }
    if (save_state(c, &st) < 0)
        goto done;
    restore_state(c, &s0);
    c->merge.active = 0;
    if (f != merge) {
        const int r = run_blocks(c, f, merge, &pred_f);
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
        if (grow(c, (void **)&c->slots, &c->cap_slots, st.n, sizeof *c->slots) < 0) {
            oom(c);
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
    rc = c->dag->failed ? oom(c) : 0;
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
            return fail(c, "malformed SPIR-V: phi without the predecessor that ran");
        const int *v = value(c, (uint32_t)pick, &na);
        return v ? set_value(c, ins[2], ins[1], v, na) : -1;
    }
    if (chosen[0] < 0 || chosen[1] < 0)
        return fail(c, "malformed SPIR-V: phi without both sides of an if");
    const int *a = value(c, (uint32_t)chosen[0], &na), *b = value(c, (uint32_t)chosen[1], &nb);
    if (!a || !b || na != nb || na > 64)
        return fail(c, "malformed SPIR-V: phi operands differ");
    int comp[64];
    for (int i = 0; i < na; i++)
        comp[i] = ir_add(c->dag, IR_SELECT, c->merge.cond, a[i], b[i]);
    return set_value(c, ins[2], ins[1], comp, na);
}

static int call(spv_ctx *c, const uint32_t *ins, int len)
{
    const id_info *fn = get(c, ins[3]);
    if (fn->kind != K_FUNCTION)
        return fail(c, "malformed SPIR-V: call of a non-function");
    if (++c->depth > MAX_DEPTH)
        return fail(c, "calls nested more than %d deep (recursion is not supported)", MAX_DEPTH);
    c->calls_run++;
    size_t p = fn->pos + (c->w[fn->pos] >> 16);
    int arg = 4;
    while (p < c->nw && (c->w[p] & 0xffff) == SpvOpFunctionParameter) {
        if (arg >= len)
            return fail(c, "malformed SPIR-V: call with too few arguments");
        const uint32_t param = c->w[p + 2];
        const id_info *a = get(c, ins[arg]);
        if (check_id(c, param) < 0)
            return -1;
        if (a->kind == K_POINTER) {
            c->id[param] = *a;
            c->id[param].is_var = 0;
        } else {
            int n;
            const int *v = value(c, ins[arg], &n);
            if (!v || set_value(c, param, c->w[p + 1], v, n) < 0)
                return -1;
        }
        arg++;
        p += c->w[p] >> 16;
    }
    if (p >= c->nw || (c->w[p] & 0xffff) != SpvOpLabel)
        return fail(c, "malformed SPIR-V: function without a body");
    const merge_info saved_merge = c->merge;
    const int saved_pred = c->pred;
    c->ret_val = -1;
    int pred = -1;
    const int r = run_blocks(c, c->w[p + 1], 0, &pred);
    c->merge = saved_merge;
    c->pred = saved_pred;
    c->depth--;
    if (r < 0)
        return -1;
    if (r == 2)
        return 2;
    if (c->ret_val >= 0)
        return set_value(c, ins[2], ins[1], c->vals + c->ret_val, c->ret_n);
    return 0;
}

static int sample(spv_ctx *c, const uint32_t *ins, int len)
{
    if (len > 5 && ins[5])
        return fail(c, "texture() with a bias or other image operands is not supported");
    int unit, n;
    if (const_int(c, ins[3], &unit) < 0)
        return fail(c, "malformed SPIR-V: sampled image is not a sampler2D uniform");
    const int *uv = value(c, ins[4], &n);
    if (!uv)
        return -1;
    if (n != 2)
        return fail(c, "only 2D texture coordinates are supported");
    int comp[4];
    for (int k = 0; k < 4; k++)
        comp[k] = ir_tex(c->dag, unit, k, uv[0], uv[1]);
    return set_value(c, ins[2], ins[1], comp, 4);
}

static int composite(spv_ctx *c, SpvOp op, const uint32_t *ins, int len)
{
    int comp[256], n = 0;
    switch (op) {
    case SpvOpCompositeConstruct:
        for (int i = 3; i < len; i++) {
            int m;
            const int *v = value(c, ins[i], &m);
            if (!v)
                return -1;
            if (n + m > 256)
                return fail(c, "composite too large");
            memcpy(comp + n, v, (size_t)m * sizeof *v);
            n += m;
        }
        break;
    case SpvOpCompositeExtract: case SpvOpCompositeInsert: {
        const int ins_op = op == SpvOpCompositeInsert;
        const uint32_t src = ins[ins_op ? 4 : 3];
        int m;
        const int *v = value(c, src, &m);
        if (!v)
            return -1;
        uint32_t t = (uint32_t)get(c, src)->type;
        int off = 0;
        for (int i = ins_op ? 5 : 4; i < len; i++) {
            const id_info *ti = get(c, t);
            const uint32_t k = ins[i];
            if ((int)k >= ti->count)
                return fail(c, "malformed SPIR-V: composite index out of range");
            if (ti->tkind == T_STRUCT) {
                for (uint32_t j = 0; j < k; j++)
                    off += type_flat(c, (uint32_t)c->pool[ti->members + (int)j]);
                t = (uint32_t)c->pool[ti->members + (int)k];
            } else {
                off += type_flat(c, (uint32_t)ti->elem) * (int)k;
                t = (uint32_t)ti->elem;
            }
        }
        const int w = type_flat(c, t);
        if (!ins_op) {
            if (off + w > m || w > 256)
                return fail(c, "malformed SPIR-V: extract out of range");
            memcpy(comp, v + off, (size_t)w * sizeof *v);
            n = w;
        } else {
            int o;
            const int *obj = value(c, ins[3], &o);
            if (!obj || m > 256 || off + o > m)
                return fail(c, "malformed SPIR-V: insert out of range");
            memcpy(comp, v, (size_t)m * sizeof *v);
            memcpy(comp + off, obj, (size_t)o * sizeof *obj);
            n = m;
        }
        break;
    }
    case SpvOpVectorShuffle: {
        int na, nb;
        const int *a = value(c, ins[3], &na), *b = value(c, ins[4], &nb);
        if (!a || !b)
            return -1;
        for (int i = 5; i < len && n < 16; i++) {
            const uint32_t k = ins[i];
            comp[n++] = k == 0xffffffffu ? c->zero : (int)k < na ? a[k] : (int)k - na < nb ? b[k - (uint32_t)na] : -1;
        }
        break;
    }
    case SpvOpTranspose: {
        int m;
        const int *v = value(c, ins[3], &m);
        if (!v)
            return -1;
        const int cols = get(c, (uint32_t)get(c, ins[3])->type)->count, rows = m / (cols ? cols : 1);
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++)
                comp[n++] = v[j * rows + i];
        break;
    }
    default: return fail(c, "internal error: composite");
    }
    return set_value(c, ins[2], ins[1], comp, n);
}

/* One instruction that computes a value.  1 if OP is not one of these. */
static int compute(spv_ctx *c, SpvOp op, const uint32_t *ins, int len)
{
    switch (op) {
    case SpvOpFAdd: case SpvOpIAdd: return componentwise(c, ins, IR_ADD, 2, 0);
    case SpvOpFSub: case SpvOpISub: return componentwise(c, ins, IR_SUB, 2, 0);
    case SpvOpFMul: case SpvOpIMul: case SpvOpVectorTimesScalar: case SpvOpMatrixTimesScalar:
        return componentwise(c, ins, IR_MUL, 2, 0);
    case SpvOpFDiv: return componentwise(c, ins, IR_DIV, 2, 0);
    case SpvOpSDiv: case SpvOpUDiv: return componentwise(c, ins, IR_IDIV, 2, 0);
    case SpvOpFMod: case SpvOpSMod: return componentwise(c, ins, IR_MOD, 2, 0);
    case SpvOpFRem: case SpvOpSRem: case SpvOpUMod: return componentwise(c, ins, IR_IMOD, 2, 0);
    case SpvOpFNegate: case SpvOpSNegate: return componentwise(c, ins, IR_NEG, 1, 0);
    case SpvOpFOrdLessThan: case SpvOpFUnordLessThan: case SpvOpSLessThan: case SpvOpULessThan:
        return componentwise(c, ins, IR_LT, 2, 0);
    case SpvOpFOrdLessThanEqual: case SpvOpFUnordLessThanEqual: case SpvOpSLessThanEqual: case SpvOpULessThanEqual:
        return componentwise(c, ins, IR_LE, 2, 0);
    case SpvOpFOrdGreaterThan: case SpvOpFUnordGreaterThan: case SpvOpSGreaterThan: case SpvOpUGreaterThan:
        return componentwise(c, ins, IR_LT, 2, 1);
    case SpvOpFOrdGreaterThanEqual: case SpvOpFUnordGreaterThanEqual: case SpvOpSGreaterThanEqual:
    case SpvOpUGreaterThanEqual:
        return componentwise(c, ins, IR_LE, 2, 1);
    case SpvOpFOrdEqual: case SpvOpFUnordEqual: case SpvOpIEqual: case SpvOpLogicalEqual:
        return componentwise(c, ins, IR_EQ, 2, 0);
    case SpvOpFOrdNotEqual: case SpvOpFUnordNotEqual: case SpvOpINotEqual: case SpvOpLogicalNotEqual:
        return componentwise(c, ins, IR_NE, 2, 0);
    case SpvOpLogicalAnd: return componentwise(c, ins, IR_AND, 2, 0);
    case SpvOpLogicalOr: return componentwise(c, ins, IR_OR, 2, 0);
    case SpvOpLogicalNot: return componentwise(c, ins, IR_NOT, 1, 0);
    case SpvOpSelect: return componentwise(c, ins, IR_SELECT, 3, 0);
    case SpvOpDPdx: case SpvOpDPdxFine: case SpvOpDPdxCoarse: return componentwise(c, ins, IR_DDX, 1, 0);
    case SpvOpDPdy: case SpvOpDPdyFine: case SpvOpDPdyCoarse: return componentwise(c, ins, IR_DDY, 1, 0);
    case SpvOpFwidth: case SpvOpFwidthFine: case SpvOpFwidthCoarse: {
        int n;
        const int *v = value(c, ins[3], &n);
        if (!v || n > 16)
            return -1;
        int comp[16];
        for (int i = 0; i < n; i++)
            comp[i] = op2(c, IR_ADD, ir_add(c->dag, IR_ABS, ir_add(c->dag, IR_DDX, v[i], -1, -1), -1, -1),
                          ir_add(c->dag, IR_ABS, ir_add(c->dag, IR_DDY, v[i], -1, -1), -1, -1));
        return set_value(c, ins[2], ins[1], comp, n);
    }
    case SpvOpConvertFToS: case SpvOpConvertFToU: return componentwise(c, ins, IR_TRUNC, 1, 0);
    case SpvOpConvertSToF: case SpvOpConvertUToF: case SpvOpCopyObject: case SpvOpBitcast: case SpvOpSConvert:
    case SpvOpUConvert: case SpvOpFConvert: {
        const id_info *to = get(c, ins[1]);
        const id_info *from = get(c, (uint32_t)get(c, ins[3])->type);
        if (op == SpvOpBitcast && to->tkind != from->tkind)
            return fail(c, "bit casts between ints and floats are not supported");
        int n;
        const int *v = value(c, ins[3], &n);
        return v ? set_value(c, ins[2], ins[1], v, n) : -1;
    }
    case SpvOpDot: {
        int na, nb;
        const int *a = value(c, ins[3], &na), *b = value(c, ins[4], &nb);
        if (!a || !b || na != nb)
            return fail(c, "malformed SPIR-V: dot of different sizes");
        const int d = dot(c, a, b, na);
        return set_value(c, ins[2], ins[1], &d, 1);
    }
    case SpvOpAny: case SpvOpAll: {
        int n;
        const int *v = value(c, ins[3], &n);
        if (!v)
            return -1;
        int r = v[0];
        for (int i = 1; i < n; i++)
            r = op2(c, op == SpvOpAny ? IR_OR : IR_AND, r, v[i]);
        return set_value(c, ins[2], ins[1], &r, 1);
    }
    case SpvOpMatrixTimesVector: case SpvOpVectorTimesMatrix: case SpvOpMatrixTimesMatrix:
        return matrix_op(c, op, ins);
    case SpvOpCompositeConstruct: case SpvOpCompositeExtract: case SpvOpCompositeInsert: case SpvOpVectorShuffle:
    case SpvOpTranspose:
        return composite(c, op, ins, len);
    case SpvOpExtInst: return ext_inst(c, ins, len);
    case SpvOpImageSampleImplicitLod: return sample(c, ins, len);
    case SpvOpSampledImage: return fail(c, "separate samplers are not supported (use sampler2D)");
    case SpvOpUndef: {
        const int n = type_flat(c, ins[1]);
        int comp[256];
        if (n > 256)
            return fail(c, "undefined value too large");
        for (int i = 0; i < n; i++)
            comp[i] = c->zero;
        return set_value(c, ins[2], ins[1], comp, n);
    }
    case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic: case SpvOpBitwiseAnd:
    case SpvOpBitwiseOr: case SpvOpBitwiseXor: case SpvOpNot:
        return fail(c, "bit operations are not supported (integers are carried as floats)");
    case SpvOpIsNan: case SpvOpIsInf: return fail(c, "isnan/isinf are not supported");
    case SpvOpImageSampleExplicitLod: return fail(c, "textureLod/textureGrad are not supported (use texture)");
    case SpvOpImageFetch: return fail(c, "texelFetch is not supported (SPIR-V OpImageFetch; use texture)");
    case SpvOpOuterProduct: return fail(c, "outerProduct is not supported");
    default: return 1;
    }
}

/* An instruction's SPIR-V name and the GLSL that makes it, for the image
 * and query instructions glslang writes for GLSL Mosaic does not support;
 * NULL when it is not one of those. */
static const char *image_op_name(SpvOp op, const char **glsl)
{
    switch (op) {
    case SpvOpImageSampleDrefImplicitLod: *glsl = "texture() on a shadow sampler (sampler2DShadow)"; return "OpImageSampleDrefImplicitLod";
    case SpvOpImageSampleDrefExplicitLod: *glsl = "textureLod/textureGrad on a shadow sampler (sampler2DShadow)"; return "OpImageSampleDrefExplicitLod";
    case SpvOpImageSampleProjImplicitLod: *glsl = "textureProj"; return "OpImageSampleProjImplicitLod";
    case SpvOpImageSampleProjExplicitLod: *glsl = "textureProjLod/textureProjGrad"; return "OpImageSampleProjExplicitLod";
    case SpvOpImageSampleProjDrefImplicitLod: *glsl = "textureProj on a shadow sampler"; return "OpImageSampleProjDrefImplicitLod";
    case SpvOpImageSampleProjDrefExplicitLod: *glsl = "textureProjLod on a shadow sampler"; return "OpImageSampleProjDrefExplicitLod";
    case SpvOpImageFetch: *glsl = "texelFetch"; return "OpImageFetch";
    case SpvOpImageGather: *glsl = "textureGather"; return "OpImageGather";
    case SpvOpImageDrefGather: *glsl = "textureGather on a shadow sampler"; return "OpImageDrefGather";
    case SpvOpImageRead: *glsl = "imageLoad"; return "OpImageRead";
    case SpvOpImageWrite: *glsl = "imageStore"; return "OpImageWrite";
    case SpvOpImageQuerySizeLod: *glsl = "textureSize"; return "OpImageQuerySizeLod";
    case SpvOpImageQuerySize: *glsl = "textureSize/imageSize"; return "OpImageQuerySize";
    case SpvOpImageQueryLod: *glsl = "textureQueryLod"; return "OpImageQueryLod";
    case SpvOpImageQueryLevels: *glsl = "textureQueryLevels"; return "OpImageQueryLevels";
    case SpvOpImageQuerySamples: *glsl = "textureSamples"; return "OpImageQuerySamples";
    case SpvOpImage: *glsl = "the image of a sampler (texelFetch, textureSize, ...)"; return "OpImage";
    case SpvOpImageQueryFormat: case SpvOpImageQueryOrder: *glsl = "an image format query"; return "OpImageQueryFormat/Order";
    default: return NULL;
    }
}

/* The message for instruction INS (opcode OP) that compute() does not
 * run; NEXT: the word after it.  An OpImage is named by the instruction
 * that reads its result (texelFetch and textureSize take the image out of
 * the sampler first). */
static int unsupported(spv_ctx *c, SpvOp op, const uint32_t *ins, size_t next)
{
    const char *glsl = NULL, *name = image_op_name(op, &glsl);
    if (op == SpvOpImage && (ins[0] >> 16) >= 3) {
        const uint32_t id = ins[2];
        for (size_t q = next; q < c->nw && (c->w[q] >> 16) > 0; q += c->w[q] >> 16) {
            const SpvOp qop = (SpvOp)(c->w[q] & 0xffff);
            if (qop == SpvOpFunctionEnd || q + (c->w[q] >> 16) > c->nw)
                break;
            const char *g2 = NULL, *n2 = image_op_name(qop, &g2);
            if (n2 && qop != SpvOpImage && (c->w[q] >> 16) > 3 && c->w[q + 3] == id) {
                glsl = g2;
                name = n2;
                break;
            }
        }
    }
    if (name)
        return fail(c, "%s is not supported (SPIR-V %s); Mosaic samples sampler2D with texture() only", glsl, name);
    switch (op) {
    case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicExchange: case SpvOpAtomicCompareExchange:
    case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement: case SpvOpAtomicIAdd: case SpvOpAtomicISub:
    case SpvOpAtomicSMin: case SpvOpAtomicUMin: case SpvOpAtomicSMax: case SpvOpAtomicUMax: case SpvOpAtomicAnd:
    case SpvOpAtomicOr: case SpvOpAtomicXor:
        return fail(c, "atomic operations are not supported (SPIR-V opcode %d)", (int)op);
    case SpvOpControlBarrier: case SpvOpMemoryBarrier:
        return fail(c, "barriers are not supported (SPIR-V OpControlBarrier/OpMemoryBarrier)");
    case SpvOpEmitVertex: case SpvOpEndPrimitive:
        return fail(c, "geometry shader instructions are not supported (SPIR-V OpEmitVertex/OpEndPrimitive)");
    default:
        return fail(c, "unsupported SPIR-V instruction (opcode %d)", (int)op);
    }
}

/* Whether LABEL leaves the construct being run by a side of an if. */
static int leaves_side(spv_ctx *c, uint32_t label, uint32_t stop)
{
    return c->depth > 0 && stop && label != stop && label < c->bound && (c->loop_merge[label] || c->loop_cont[label]);
}

/* Runs blocks from LABEL until a branch to STOP (returns 0, *pred = the block
 * that branched there), a return (1) or a discard (2); -1 on error. */
static int run_blocks(spv_ctx *c, uint32_t label, uint32_t stop, int *pred)
{
    uint32_t merge = 0;  /* the OpSelectionMerge of the current block */
    size_t p = label_pos(c, label);
    if (!p)
        return fail(c, "malformed SPIR-V: branch to an unknown label");
    c->pred = *pred;
    int entered_loops = 0;
    for (;;) {
        if (p >= c->nw)
            return fail(c, "malformed SPIR-V: block runs past the end");
        const uint32_t *ins = &c->w[p];
        const int len = (int)(ins[0] >> 16);
        const SpvOp op = (SpvOp)(ins[0] & 0xffff);
        if (len == 0 || p + (size_t)len > c->nw)
            return fail(c, "malformed SPIR-V: bad instruction length");
        if (++c->steps > MAX_STEPS) {
            if (c->loops_run)
                return fail(c, "the shader does not finish in %d steps: a loop whose bound is not a constant?", MAX_STEPS);
            return fail(c, "the shader does not finish in %d steps: it has no loop, but every call is inlined "
                           "(%ld calls so far): a call tree that large is not supported", MAX_STEPS, c->calls_run);
        }
        c->dag->group_now++;  /* the nodes this instruction makes are one group (ir_node.group) */
        if (c->failed || c->dag->failed)
            return c->failed ? -1 : oom(c);
        if (c->dag->count > MAX_NODES || c->nvals > (size_t)MAX_NODES * 16)
            return fail(c, "the shader is too large (more than %d operations after unrolling)", MAX_NODES);
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
            if (declare_variable(c, ins[1], ins[2], ins[3], len > 4 ? ins[4] : 0) < 0)
                return -1;
            continue;
        case SpvOpLoad: if (load(c, ins[1], ins[2], ins[3]) < 0) return -1; continue;
        case SpvOpStore: if (store(c, ins[1], ins[2]) < 0) return -1; continue;
        case SpvOpAccessChain: case SpvOpInBoundsAccessChain: if (access_chain(c, ins, len) < 0) return -1; continue;
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
        case SpvOpDemoteToHelperInvocation: return fail(c, "demote is not supported (use discard)");
        case SpvOpReturn: case SpvOpReturnValue:
            if (c->depth > 0 && stop)
                return fail(c, "return inside an if whose condition varies per pixel is not supported");
            if (op == SpvOpReturnValue) {
                int n;
                const int *v = value(c, ins[1], &n);
                if (!v)
                    return -1;
                /* copy: the callee's ids may be reused by a later call */
                if (set_value(c, ins[1], (uint32_t)get(c, ins[1])->type, v, n) < 0)
                    return -1;
                c->ret_val = get(c, ins[1])->val;
                c->ret_n = n;
            }
            return 1;
        case SpvOpUnreachable: return fail(c, "malformed SPIR-V: unreachable code ran");
        case SpvOpBranch: next = ins[1]; break;
        case SpvOpBranchConditional: {
            const int cond = scalar(c, ins[1]);
            if (cond < 0)
                return -1;
            float k;
            if (c->dag->node[cond].op == IR_CONST) {
                k = c->dag->node[cond].v.imm;
                next = k != 0.0f ? ins[2] : ins[3];
                break;
            }
            if (!merge)
                return fail(c, "a loop whose condition varies per pixel is not supported (loop bounds must be constants)");
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
                return fail(c, "malformed SPIR-V: branch to an unknown label");
            c->pred = -1;
            continue;
        }
        case SpvOpSwitch: {
            int sel;
            if (const_int(c, ins[1], &sel) < 0)
                return fail(c, "switch on a value that varies per pixel is not supported");
            next = ins[2];
            for (int i = 3; i + 1 < len; i += 2)
                if ((int32_t)ins[i] == sel)
                    next = ins[i + 1];
            break;
        }
        default: {
            const int r = compute(c, op, ins, len);
            if (r < 0)
                return -1;
            if (r > 0)
                return unsupported(c, op, ins, p);
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
            return fail(c, "break or continue inside an if whose condition varies per pixel is not supported");
        c->pred = (int)label;
        p = label_pos(c, next);
        if (!p)
            return fail(c, "malformed SPIR-V: branch to an unknown label");
    }
}

/* ---- the module ------------------------------------------------------------------------------- */

static int read_module(spv_ctx *c, uint32_t *entry)
{
    if (c->nw < 5 || c->w[0] != SpvMagicNumber)
        return fail(c, "not a SPIR-V module");
    c->bound = c->w[3];
    if (c->bound == 0 || c->bound > (1u << 22))
        return fail(c, "malformed SPIR-V: id bound %u", c->bound);
    c->id = util_calloc(c->a, c->bound, sizeof *c->id);
    c->loop_merge = util_calloc(c->a, c->bound, sizeof *c->loop_merge);
    c->loop_cont = util_calloc(c->a, c->bound, sizeof *c->loop_cont);
    if (!c->id || !c->loop_merge || !c->loop_cont)
        return oom(c);
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
            return fail(c, "malformed SPIR-V: bad instruction length");
        /* the fewest words the instructions read here may have */
        const int need = op == SpvOpEntryPoint ? 4
                         : op == SpvOpDecorate || op == SpvOpLoopMerge ? 3
                         : op == SpvOpMemberDecorate ? 4
                         : (op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer) || op == SpvOpExtInstImport ||
                                   op == SpvOpString || op == SpvOpLabel || op == SpvOpLine ? 2
                         : op == SpvOpFunction ? 5
                         : 1;
        if (len < need)
            return fail(c, "malformed SPIR-V: short instruction");
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
            if (check_id(c, ins[1]) < 0)
                return -1;
            c->id[ins[1]].kind = K_STRING;
            c->id[ins[1]].str = (int)p + 2;
            break;
        case SpvOpLine: c->line = (int)ins[2]; break;
        case SpvOpNoLine: break;
        case SpvOpExtension: return fail(c, "SPIR-V extension %s is not supported", literal(c, p + 1));
        case SpvOpExtInstImport:
            if (strcmp(literal(c, p + 2), "GLSL.std.450") != 0)
                return fail(c, "extended instruction set %s is not supported", literal(c, p + 2));
            c->glsl_ext = (int)ins[1];
            break;
        case SpvOpEntryPoint:
            if (++entries > 1)
                return fail(c, "more than one entry point");
            if ((c->dag->stage == IR_FRAGMENT && ins[1] != SpvExecutionModelFragment) ||
                (c->dag->stage == IR_VERTEX && ins[1] != SpvExecutionModelVertex))
                return fail(c, "the entry point is not a %s shader", c->dag->stage == IR_FRAGMENT ? "fragment" : "vertex");
            *entry = ins[2];
            break;
        case SpvOpDecorate: if (decorate(c, ins, len) < 0) return -1; break;
        case SpvOpMemberDecorate: if (member_decorate(c, ins, len) < 0) return -1; break;
        case SpvOpDecorationGroup: case SpvOpGroupDecorate: case SpvOpGroupMemberDecorate:
            return fail(c, "decoration groups are not supported");
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
            if (len < 4 || declare_variable(c, ins[1], ins[2], ins[3], len > 4 ? ins[4] : 0) < 0)
                return -1;
            break;
        case SpvOpUndef: if (compute(c, op, ins, len) != 0) return -1; break;
        case SpvOpFunction:
            if (check_id(c, ins[2]) < 0)
                return -1;
            c->id[ins[2]].kind = K_FUNCTION;
            c->id[ins[2]].pos = p;
            in_fn = 1;
            break;
        case SpvOpLabel:
            if (check_id(c, ins[1]) < 0)
                return -1;
            c->id[ins[1]].kind = K_LABEL;
            c->id[ins[1]].pos = p;
            break;
        case SpvOpLoopMerge:
            if (len < 3 || check_id(c, ins[1]) < 0 || check_id(c, ins[2]) < 0)
                return -1;
            c->loop_merge[ins[1]] = 1;
            c->loop_cont[ins[2]] = 1;
            break;
        default:
            if (op == SpvOpSpecConstantOp)
                return fail(c, "specialization constant operations are not supported");
            break;  /* function bodies: read when they run */
        }
        p += (size_t)len;
    }
    if (!entries)
        return fail(c, "no entry point");
    c->line = 0;
    return 0;
}

/* The outputs after main has run. */
static int collect_outputs(spv_ctx *c, int *outs, int *n_out)
{
    spv_shader *sh = c->sh;
    int n = 0;
    if (c->dag->stage == IR_FRAGMENT) {
        int found = 0;
        for (uint32_t id = 1; id < c->bound; id++) {
            const id_info *x = &c->id[id];
            if (x->kind != K_POINTER || !x->is_var || x->ptarget != P_SLOTS || x->storage != SpvStorageClassOutput ||
                c->id[id].builtin >= 0)
                continue;
            if (x->location != 0)
                return fail(c, "only one fragment output (location 0) is supported");
            const int w = type_flat(c, (uint32_t)get(c, (uint32_t)x->type)->elem);
            if (w > 4)
                return fail(c, "the fragment output has more than 4 components");
            for (int k = 0; k < 4; k++)
                outs[k] = k < w ? c->slots[x->pbase + k] : ir_const(c->dag, k == 3 ? 1.0f : 0.0f);
            found = 1;
        }
        if (!found)
            return fail(c, "the fragment shader writes no colour (out vec4 at location 0)");
        n = 4;
        const ir_node *d = &c->dag->node[c->discard];
        if (!(d->op == IR_CONST && d->v.imm == 0.0f)) {
            outs[n++] = c->discard;
            sh->discards = 1;
        }
        sh->out_count = 0;
        sh->varying_floats = 0;
    } else {
        int have_pos = 0;
        for (uint32_t id = 1; id < c->bound; id++) {
            const id_info *x = &c->id[id];
            if (x->kind != K_POINTER || !x->is_var || x->ptarget != P_SLOTS || x->storage != SpvStorageClassOutput)
                continue;
            const uint32_t t = (uint32_t)get(c, (uint32_t)x->type)->elem;
            const id_info *ti = get(c, t);
            if (x->builtin == SpvBuiltInPosition) {
                if (ti->flat != 4)
                    return fail(c, "gl_Position is not a vec4");
                for (int k = 0; k < 4; k++)
                    outs[k] = c->slots[x->pbase + k];
                have_pos = 1;
            } else if (ti->tkind == T_STRUCT) {  /* gl_PerVertex */
                int off = 0;
                for (int m = 0; m < ti->count; m++) {
                    int s;
                    if (member_slot(c, t, (uint32_t)m, &s) < 0)
                        return -1;
                    if (c->member_builtin[s] == SpvBuiltInPosition) {
                        if (type_flat(c, (uint32_t)c->pool[ti->members + m]) != 4)
                            return fail(c, "gl_Position is not a vec4");
                        for (int k = 0; k < 4; k++)
                            outs[k] = c->slots[x->pbase + off + k];
                        have_pos = 1;
                    }
                    off += type_flat(c, (uint32_t)c->pool[ti->members + m]);
                }
            }
        }
        if (!have_pos)
            return fail(c, "the vertex shader does not write gl_Position");
        n = 4;
        for (int i = 0; i < sh->out_count; i++)
            for (uint32_t id = 1; id < c->bound; id++) {
                const id_info *x = &c->id[id];
                if (x->kind == K_POINTER && x->is_var && x->ptarget == P_SLOTS && x->storage == SpvStorageClassOutput &&
                    x->builtin < 0 && x->location == sh->out[i].location &&
                    get(c, (uint32_t)get(c, (uint32_t)x->type)->elem)->tkind != T_STRUCT) {
                    if (n + sh->out[i].floats > 4 + 64)
                        return fail(c, "too many varyings");
                    for (int k = 0; k < sh->out[i].floats; k++)
                        outs[n++] = c->slots[x->pbase + k];
                }
            }
    }
    *n_out = n;
    return 0;
}

int spv_translate(const uint32_t *words, size_t count, ir_stage stage, const char *file, spv_shader *out,
                  char *err, size_t err_size)
{
    return spv_translate_alloc(words, count, stage, file, NULL, out, err, err_size);
}

int spv_translate_alloc(const uint32_t *words, size_t count, ir_stage stage, const char *file,
                        const mos_allocator *a, spv_shader *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    ir_init(&out->dag, stage);
    out->dag.alloc = a;
    if (count > (SIZE_MAX / sizeof *words) - 16) {
        snprintf(err, err_size, "%s: out of memory", file ? file : "shader");
        return IR_OOM;
    }
    /* Operands are read where an instruction says they are; a malformed one
     * may say past its end, so the words are read from a copy with zeros
     * after them (garbage in, an error or garbage out, never a stray read). */
    uint32_t *padded = util_calloc(a, count + 16, sizeof *padded);
    if (!padded) {
        snprintf(err, err_size, "%s: out of memory", file ? file : "shader");
        return IR_OOM;
    }
    if (count)
        memcpy(padded, words, count * sizeof *words);
    spv_ctx c = { .w = padded, .nw = count, .dag = &out->dag, .sh = out, .file = file ? file : "shader",
                  .err = err, .err_size = err_size, .ret_val = -1, .a = a };
    if (err_size)
        err[0] = 0;
    c.zero = ir_const(c.dag, 0.0f);
    c.discard = c.zero;
    uint32_t entry = 0;
    int outs[4 + 64 + 1], n_out = 0, rc = -1;
    if (c.zero < 0 || read_module(&c, &entry) < 0 || pack_interface(&c) < 0)
        goto done;
    const id_info *fn = get(&c, entry);
    if (fn->kind != K_FUNCTION) {
        fail(&c, "malformed SPIR-V: entry point is not a function");
        goto done;
    }
    size_t p = fn->pos + (c.w[fn->pos] >> 16);
    if (p >= c.nw || (c.w[p] & 0xffff) != SpvOpLabel) {
        fail(&c, "malformed SPIR-V: main has parameters or no body");
        goto done;
    }
    int pred = -1;
    const int r = run_blocks(&c, c.w[p + 1], 0, &pred);
    if (r < 0)
        goto done;
    if (r == 2)
        c.discard = ir_const(c.dag, 1.0f);
    if (collect_outputs(&c, outs, &n_out) < 0)
        goto done;
    if (ir_finish(c.dag, outs, n_out) < 0) {
        oom(&c);
        goto done;
    }
    rc = 0;
done:
    util_free(a, padded);
    util_free(a, c.id);
    util_free(a, c.vals);
    util_free(a, c.pool);
    util_free(a, c.slots);
    util_free(a, c.member_off);
    util_free(a, c.member_mstride);
    util_free(a, c.member_builtin);
    util_free(a, c.loop_merge);
    util_free(a, c.loop_cont);
    if (rc < 0) {
        if (c.oom || c.dag->failed) {  /* whatever message a failed allocation led to first */
            snprintf(err, err_size, "%s: out of memory", c.file);
            rc = IR_OOM;
        } else if (err_size && !err[0]) {
            snprintf(err, err_size, "%s: translation failed", c.file);
        }
        spv_shader_free(out);
    }
    return rc;
}

void spv_shader_free(spv_shader *s)
{
    ir_free(&s->dag);
}
