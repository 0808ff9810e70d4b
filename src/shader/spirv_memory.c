/* spirv_memory.c — variables and pointers: OpVariable's slots, the packed interface (inputs, outputs, uniforms,
 * samplers), loads, stores, access chains.  Fed by spirv_module.c (globals) and spirv_blocks.c (the rest). */
#include "shader/spirv_priv.h"

#include <spirv/unified1/spirv.h>

#include "util/alloc.h"

/* ---- variables ------------------------------------------------------------------------ */

static int new_slots(spv_ctx *c, int n)
{
    if (spv_grow(c, (void **)&c->slots, &c->cap_slots, c->nslots + (size_t)n, sizeof *c->slots) < 0)
        return spv_oom(c);
    for (int i = 0; i < n; i++)
        c->slots[c->nslots + (size_t)i] = c->zero;
    const int base = (int)c->nslots;
    c->nslots += (size_t)n;
    return base;
}

static int set_pointer(spv_ctx *c, uint32_t id, uint32_t type, int target, int base, int mstride)
{
    if (spv_check_id(c, id) < 0)
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
int spv_declare_variable(spv_ctx *c, uint32_t type, uint32_t id, uint32_t storage, uint32_t init)
{
    const id_info *pt = spv_get(c, type);
    if (spv_check_id(c, id) < 0)
        return -1;
    if (pt->kind != K_TYPE || pt->tkind != T_POINTER)
        return spv_fail(c, "malformed SPIR-V: variable of a non-pointer type");
    const uint32_t pointee = (uint32_t)pt->elem;
    const id_info *vt = spv_get(c, pointee);
    switch (storage) {
    case SpvStorageClassFunction: case SpvStorageClassPrivate: case SpvStorageClassOutput: {
        const int base = new_slots(c, vt->flat);
        if (base < 0)
            return -1;
        if (init) {
            int n;
            const int *v = spv_value(c, init, &n);
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
            return spv_fail(c, "uniforms must be in a uniform block");
        return set_pointer(c, id, type, P_UNIFORM, 0, 16);
    case SpvStorageClassUniformConstant:
        if (vt->tkind != T_SAMPLED_IMAGE)
            return spv_fail(c, "only sampler2D is supported outside the uniform block");
        if (c->id[id].binding < 0 || c->id[id].binding >= MOS_MAX_TEXTURES)
            return spv_fail(c, "sampler binding %d is outside 0..%d (MOS_MAX_TEXTURES textures per draw)",
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
    default: return spv_fail(c, "storage class %u is not supported", storage);
    }
}

/* Packs the Input (and vertex Output) variables by location. */
int spv_pack_interface(spv_ctx *c)
{
    spv_shader *sh = c->sh;
    for (uint32_t id = 1; id < c->bound; id++) {
        id_info *x = &c->id[id];
        if (x->kind != K_POINTER || !x->is_var || !(x->ptarget == P_INPUT || (x->ptarget == P_SLOTS && x->storage == SpvStorageClassOutput)))
            continue;
        const int is_in = x->ptarget == P_INPUT;
        if (!is_in && x->builtin >= 0)
            continue;
        const id_info *t = spv_get(c, (uint32_t)spv_get(c, (uint32_t)x->type)->elem);
        if (!is_in && t->tkind == T_STRUCT)
            continue;  /* gl_PerVertex */
        spv_iovar *list = is_in ? sh->in : sh->out;
        int *count = is_in ? &sh->in_count : &sh->out_count;
        if (*count == SPV_MAX_IO)
            return spv_fail(c, "more than %d interface variables", SPV_MAX_IO);
        if (x->location < 0)
            return spv_fail(c, "an interface variable has no location");
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
                return spv_fail(c, "two interface variables at location %d", list[i].location);
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
    const id_info *t = spv_get(c, type);
    int n = 0;
    switch (t->tkind) {
    case T_FLOAT: case T_INT: case T_BOOL:
        if (cap < 1)
            return spv_fail(c, "uniform value too large");
        if (off < 0 || off > SPV_MAX_UNIFORM_BYTES - 4)
            return spv_fail(c, "the shader reads its uniform block at byte %lld; Mosaic's limit is %d bytes "
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
            return spv_fail(c, "uniform array without a stride");
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
            if (spv_member_slot(c, type, (uint32_t)i, &s) < 0)
                return -1;
            const int m = uniform_load(c, (uint32_t)c->pool[t->members + i], off + (long long)c->member_off[s],
                                       c->member_mstride[s], comp + n, cap - n);
            if (m < 0)
                return -1;
            n += m;
        }
        return n;
    default: return spv_fail(c, "unsupported type in the uniform block");
    }
}

int spv_load(spv_ctx *c, uint32_t type, uint32_t id, uint32_t ptr)
{
    const id_info *p = spv_get(c, ptr);
    if (p->kind != K_POINTER)
        return spv_fail(c, "malformed SPIR-V: load through a non-pointer");
    const int flat = spv_type_flat(c, type);
    int buf[256] = { 0 };
    int *comp = flat <= 256 ? buf : util_calloc(c->a, (size_t)flat, sizeof *comp);
    if (!comp)
        return spv_oom(c);
    int n = flat, rc = 0;
    switch (p->ptarget) {
    case P_SLOTS:
        if (p->pbase < 0 || (size_t)p->pbase + (size_t)flat > c->nslots) {
            n = spv_fail(c, "malformed SPIR-V: load past the end of a variable");
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
        n = spv_fail(c, "built-in input %d (gl_VertexID, gl_FrontFacing, ...) is not supported; Mosaic has gl_FragCoord.xy",
                 p->pbase);
        break;
    case P_SAMPLER:  /* a sampler's value is its unit */
        n = 1;
        comp[0] = ir_const(c->dag, (float)p->pbase);
        break;
    }
    if (n >= 0)
        rc = spv_set_value(c, id, type, comp, n);
    if (comp != buf)
        util_free(c->a, comp);
    return n < 0 ? -1 : rc;
}

int spv_store(spv_ctx *c, uint32_t ptr, uint32_t val)
{
    const id_info *p = spv_get(c, ptr);
    if (p->kind != K_POINTER || p->ptarget != P_SLOTS)
        return spv_fail(c, "store to something that is not a variable");
    int n;
    const int *v = spv_value(c, val, &n);
    if (!v)
        return -1;
    if (p->pbase < 0 || (size_t)p->pbase + (size_t)n > c->nslots)
        return spv_fail(c, "malformed SPIR-V: store past the end of a variable");
    for (int i = 0; i < n; i++)
        c->slots[p->pbase + i] = v[i];
    return 0;
}

/* OpAccessChain with constant indices. */
int spv_access_chain(spv_ctx *c, const uint32_t *ins, int len)
{
    const uint32_t type = ins[1], id = ins[2];
    const id_info *base = spv_get(c, ins[3]);
    if (base->kind != K_POINTER)
        return spv_fail(c, "malformed SPIR-V: access chain on a non-pointer");
    uint32_t t = (uint32_t)spv_get(c, (uint32_t)base->type)->elem;
    long long off = base->pbase;  /* wide: decorated strides and offsets may be anything */
    int ms = base->pmstride;
    const int bytes = base->ptarget == P_UNIFORM;
    for (int i = 4; i < len; i++) {
        if (off < 0 || off > (1 << 24))
            return spv_fail(c, bytes ? "uniform offset out of range" : "malformed SPIR-V: access chain out of range");
        int k;
        if (spv_const_int(c, ins[i], &k) < 0)
            return spv_fail(c, "indexing with a value that is not a constant (after unrolling) is not supported");
        const id_info *ti = spv_get(c, t);
        if (k < 0 || (ti->tkind != T_STRUCT && k >= ti->count) || (ti->tkind == T_STRUCT && k >= ti->count))
            return spv_fail(c, "index %d out of range", k);
        switch (ti->tkind) {
        case T_STRUCT: {
            int s;
            if (spv_member_slot(c, t, (uint32_t)k, &s) < 0)
                return -1;
            if (bytes) {
                off += (long long)c->member_off[s];
                ms = c->member_mstride[s];
            } else {
                for (int m = 0; m < k; m++)
                    off += spv_type_flat(c, (uint32_t)c->pool[ti->members + m]);
            }
            t = (uint32_t)c->pool[ti->members + k];
            break;
        }
        case T_ARRAY:
            off += bytes ? (long long)ti->array_stride * k : (long long)spv_type_flat(c, (uint32_t)ti->elem) * k;
            t = (uint32_t)ti->elem;
            break;
        case T_MATRIX:
            off += bytes ? (long long)ms * k : (long long)spv_type_flat(c, (uint32_t)ti->elem) * k;
            t = (uint32_t)ti->elem;
            break;
        case T_VECTOR:
            off += bytes ? 4 * k : k;
            t = (uint32_t)ti->elem;
            break;
        default: return spv_fail(c, "malformed SPIR-V: access chain into a scalar");
        }
    }
    if (off < 0 || off > (1 << 24))
        return spv_fail(c, bytes ? "uniform offset out of range" : "malformed SPIR-V: access chain out of range");
    if (set_pointer(c, id, type, base->ptarget, (int)off, ms) < 0)
        return -1;
    c->id[id].storage = base->storage;
    return 0;
}

