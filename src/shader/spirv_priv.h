/* spirv_priv.h — what the phases of the SPIR-V translation share: the id table, the context
 * and the functions one phase calls in another.  Included by spirv*.c only; spirv.h is the interface.
 *
 * One pass reads the module's declarations (spirv_module.c: types, constants, decorations;
 * spirv_memory.c: variables); then main runs block by block (spirv_blocks.c), each instruction
 * computed by spirv_compute.c, spirv_glsl450.c or spirv_image.c.  Each result id holds a value:
 * the DAG node ids of its components, flattened (a mat4 is 16, column-major), or a pointer (into
 * a variable's slots, the uniform block's bytes, an input, or a sampler).  Variables are slots of
 * node ids; the state a branch can change is the slot array and the discard node, so an if/else on
 * a lane-varying condition snapshots it, runs each side to the merge block, and joins. */
#ifndef MOSAIC_SHADER_SPIRV_PRIV_H
#define MOSAIC_SHADER_SPIRV_PRIV_H

#include <spirv/unified1/spirv.h>
#include <stddef.h>
#include <stdint.h>

#include "mosaic.h"
#include "shader/ir.h"
#include "shader/spirv.h"


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

/* ---- ids (spirv_module.c) ---------------------------------------------------------------- */

/* Records "FILE:LINE: message" (the first failure only); returns -1. */
int spv_fail(spv_ctx *c, const char *fmt, ...);
/* Grows *P (capacity *CAP elements of ELEM bytes) to hold NEED; -1 when the allocation fails. */
int spv_grow(spv_ctx *c, void **p, size_t *cap, size_t need, size_t elem);
int spv_oom(spv_ctx *c);
int spv_check_id(spv_ctx *c, uint32_t id);
int spv_set_value(spv_ctx *c, uint32_t id, uint32_t type, const int *comp, int n);
const int *spv_value(spv_ctx *c, uint32_t id, int *n);
int spv_scalar(spv_ctx *c, uint32_t id);
int spv_const_int(spv_ctx *c, uint32_t id, int *out);
int spv_member_slot(spv_ctx *c, uint32_t st, uint32_t member, int *slot);
int spv_read_module(spv_ctx *c, uint32_t *entry);

static inline const id_info *spv_get(spv_ctx *c, uint32_t id)
{
    static const id_info none;  /* every field 0: K_NONE */
    return id < c->bound ? &c->id[id] : &none;
}

static inline int spv_type_flat(spv_ctx *c, uint32_t t)
{
    return spv_get(c, t)->kind == K_TYPE ? spv_get(c, t)->flat : 0;
}

static inline const char *spv_literal(spv_ctx *c, size_t pos) { return (const char *)&c->w[pos]; }

/* ---- variables and memory (spirv_memory.c) ------------------------------------------------------ */

int spv_declare_variable(spv_ctx *c, uint32_t type, uint32_t id, uint32_t storage, uint32_t init);
int spv_pack_interface(spv_ctx *c);
int spv_load(spv_ctx *c, uint32_t type, uint32_t id, uint32_t ptr);
int spv_store(spv_ctx *c, uint32_t ptr, uint32_t val);
int spv_access_chain(spv_ctx *c, const uint32_t *ins, int len);

/* ---- values (spirv_compute.c, spirv_glsl450.c, spirv_image.c) ----------------------------------- */

static inline int spv_op2(spv_ctx *c, ir_op op, int a, int b) { return ir_add(c->dag, op, a, b, -1); }
int spv_dot(spv_ctx *c, const int *a, const int *b, int n);
/* Runs a value instruction: 0, 1 when OP is not one it runs, -1 on error. */
int spv_compute(spv_ctx *c, SpvOp op, const uint32_t *ins, int len);
int spv_ext_inst(spv_ctx *c, const uint32_t *ins, int len);
int spv_sample(spv_ctx *c, const uint32_t *ins, int len);
int spv_unsupported(spv_ctx *c, SpvOp op, const uint32_t *ins, size_t next);

/* ---- control flow (spirv_blocks.c) -------------------------------------------------------------- */

int spv_run_blocks(spv_ctx *c, uint32_t label, uint32_t stop, int *pred);

#endif
