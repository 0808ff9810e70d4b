/* ir.h — Mosaic's shader IR: one DAG of scalar operations per shader stage.
 *
 * Every value is one float per lane (a lane is a vertex in the vertex stage,
 * a pixel of a 2x2 quad in the fragment stage).  Booleans are 0.0 / 1.0;
 * integers are carried as their float value (exact below 2^24).  Vectors and
 * matrices of the source language are split into their components when the
 * DAG is built (spirv.c), so the DAG is the seed's (003) graph of fragment
 * operations with one scalar per node.
 *
 * Nodes are kept in topological order: a node's operands have smaller ids.
 * Building goes through ir_add*, which folds constants and hash-conses (CSE):
 * asking twice for the same operation on the same operands returns the same
 * node.  ir_finish names the outputs, adds the ROOT node whose operands they
 * are, and removes the nodes no output reaches (dead code).
 *
 * Fed by spirv.c (SPIR-V -> DAG); read by partition.c (passes), vm.c (runs
 * them) and the `mosaic shader` tool (--dump-ir, --dot). */
#ifndef MOSAIC_SHADER_IR_H
#define MOSAIC_SHADER_IR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mosaic.h"

/* X(name, operand count, kind): kind L leaf, A arithmetic, T texture, R root.
 * grep ORDER IR_OPS when changing: ir.c (folding, names), vm_tmp.h (bodies). */
#define IR_OPS(X)                                                                       \
    X(CONST, 0, L)     /* v.imm */                                                      \
    X(UNIFORM, 0, L)   /* v.index: byte offset in the uniform block; aux: ir_utype */   \
    X(INPUT, 0, L)     /* v.index: attribute float (vertex) or varying float (fragment) */ \
    X(FRAGCOORD, 0, L) /* v.index: 0 x, 1 y (window, pixel centre), 2 z, 3 w */        \
    X(NEG, 1, A) X(ABS, 1, A) X(SIGN, 1, A) X(FLOOR, 1, A) X(CEIL, 1, A)                \
    X(TRUNC, 1, A) X(ROUND, 1, A) X(FRACT, 1, A) X(SQRT, 1, A) X(RSQRT, 1, A)           \
    X(EXP, 1, A) X(EXP2, 1, A) X(LOG, 1, A) X(LOG2, 1, A) X(SIN, 1, A) X(COS, 1, A)     \
    X(TAN, 1, A) X(ASIN, 1, A) X(ACOS, 1, A) X(ATAN, 1, A) X(NOT, 1, A)                 \
    X(DDX, 1, A) X(DDY, 1, A)                                                           \
    X(ADD, 2, A) X(SUB, 2, A) X(MUL, 2, A) X(DIV, 2, A) X(MOD, 2, A) X(MIN, 2, A)       \
    X(MAX, 2, A) X(POW, 2, A) X(ATAN2, 2, A) X(STEP, 2, A) X(LT, 2, A) X(LE, 2, A)      \
    X(EQ, 2, A) X(NE, 2, A) X(AND, 2, A) X(OR, 2, A) X(IDIV, 2, A) X(IMOD, 2, A)        \
    X(SELECT, 3, A)    /* arg0 != 0 ? arg1 : arg2 */                                    \
    X(TEX, 2, T)       /* texture unit v.index sampled at (arg0, arg1); aux: component 0..3 */ \
    X(ROOT, 0, R)      /* operands: dag->out[0 .. out_count) */

typedef enum ir_op {
#define IR_X_ENUM(name, n, kind) IR_##name,
    IR_OPS(IR_X_ENUM)
#undef IR_X_ENUM
    IR_OP_COUNT
} ir_op;

/* How a UNIFORM reads its 4 bytes. */
typedef enum ir_utype { IR_U_FLOAT = 0, IR_U_INT, IR_U_UINT } ir_utype;

typedef enum ir_stage { IR_VERTEX = 0, IR_FRAGMENT } ir_stage;

typedef struct ir_node {
    uint8_t op;      /* ir_op */
    uint8_t nargs;   /* operands in arg[] (ROOT: 0, see ir_args) */
    uint16_t aux;    /* TEX: component; UNIFORM: ir_utype */
    int32_t arg[3];  /* operand node ids, each smaller than this node's */
    union {
        float imm;      /* CONST */
        int32_t index;  /* UNIFORM, INPUT, FRAGCOORD, TEX (unit) */
    } v;
    int32_t group;   /* the source instruction that made the node (ir_dag.group_now when it
                      * was added; CSE keeps the first): the nodes of one vector operation of
                      * the source share it (partition.h's vector view).  Not part of the
                      * node's identity. */
} ir_node;

/* Fragment outputs: r, g, b, a, then discard (1 = discard) when the shader
 * can discard.  Vertex outputs: clip x, y, z, w, then the varyings. */
enum { IR_FS_DISCARD = 4 };

typedef struct ir_dag {
    ir_stage stage;
    ir_node *node;
    int count, cap;
    int *out;        /* output node ids (the ROOT's operands) */
    int out_count;
    int root;        /* the ROOT node, -1 until ir_finish */
    int input_count; /* floats of input the shader reads (max INPUT index + 1) */
    uint32_t *table; /* CSE hash table: node id + 1, 0 = empty */
    int table_cap;
    int failed;      /* an allocation failed: every later ir_add returns -1 */
    const mos_allocator *alloc; /* where the DAG's memory comes from (NULL: malloc); ir_init sets
                      * NULL, set it before the first ir_add; ir_free keeps it */
    int32_t group_now; /* the group new nodes get (spirv.c: one per instruction it runs) */
} ir_dag;

void ir_init(ir_dag *d, ir_stage stage);
void ir_free(ir_dag *d);

/* Adds (or finds) a node; returns its id, or -1 when out of memory.
 * Operands must be ids of existing nodes. */
int ir_const(ir_dag *d, float value);
int ir_leaf(ir_dag *d, ir_op op, int32_t index, int aux);
int ir_add(ir_dag *d, ir_op op, int a, int b, int c);
int ir_tex(ir_dag *d, int unit, int component, int u, int v);

/* Names the outputs, adds the ROOT and drops every node no output reaches,
 * renumbering the rest (order kept).  0, or -1 when out of memory. */
int ir_finish(ir_dag *d, const int *outputs, int count);

/* A node's operands (the outputs for ROOT); returns their count. */
int ir_args(const ir_dag *d, int n, const int **args);

const char *ir_op_name(ir_op op);
int ir_op_arity(ir_op op);
int ir_is_leaf(ir_op op);      /* CONST, UNIFORM, INPUT, FRAGCOORD */

/* Evaluates one lane of OP on operand values (arithmetic ops only: not
 * leaves, TEX, DDX/DDY or ROOT).  The folding and the VM's portable bodies
 * use this one definition. */
float ir_eval(ir_op op, float a, float b, float c);

/* Text listing (one node per line) and Graphviz dot.  0, or -1 on a write error. */
int ir_print(const ir_dag *d, FILE *f);
int ir_dot(const ir_dag *d, FILE *f, const int *pass_of_node);

#endif
