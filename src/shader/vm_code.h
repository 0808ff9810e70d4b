/* vm_code.h — a compiled VM program as vm.c builds it and the per-ISA
 * bodies (vm_tmp.h) run it.  Private to shader/. */
#ifndef MOSAIC_SHADER_VM_CODE_H
#define MOSAIC_SHADER_VM_CODE_H

#include <stdint.h>

#include "shader/vm.h"
#include "util/cpu.h"

/* Vector instructions beyond the IR's arithmetic ops (which keep their ir_op). */
enum {
    VM_TEX = IR_OP_COUNT,  /* d[0..3] = texture aux at (a, b) */
    VM_SPLAT,              /* dst = scalar a on every lane */
    VM_COPY,               /* dst = a */
    VM_OUT,                /* out[aux] = a (mode VM_SV: scalar a) */
    VM_MAD,                /* dst = a * b + c, rounded twice (mode bit 0: b scalar, bit 1: c scalar) */
    VM_MSUB,               /* dst = a * b - c */
    VM_NMSUB,              /* dst = c - a * b */
    VM_CHAIN,              /* dst = links[b .. b + c) applied in turn to a, the value held in registers */
    VM_OP_COUNT
};

/* Where a binary operation's operands live. */
enum { VM_VV = 0, VM_VS, VM_SV };

typedef struct vm_ins {
    uint8_t op;
    uint8_t mode;
    uint16_t aux;
    int32_t dst, a, b, c;  /* lane-array table indices (scalar-bank indices where the mode says) */
    int32_t d[4];          /* VM_TEX: the four component registers */
} vm_ins;

/* One link of a VM_CHAIN: an operation whose one lane-array operand is the
 * value the link before produced (the chain's source for the first), its
 * other operands scalar-bank entries: VM_MAD / VM_MSUB / VM_NMSUB (mode 3:
 * s1 = b, s2 = c), ADD SUB MUL DIV MIN MAX (mode VM_VS: value op s1, VM_SV:
 * s1 op value), NEG, ABS. */
typedef struct vm_link {
    uint8_t op, mode;
    int32_t s1, s2;
} vm_link;

typedef struct vm_sins {   /* one scalar-bank entry, in order */
    uint8_t op;            /* CONST, UNIFORM or an arithmetic ir_op */
    uint8_t aux;           /* UNIFORM: ir_utype */
    int32_t a, b, c;       /* scalar-bank indices */
    int32_t index;         /* UNIFORM: byte offset */
    float imm;             /* CONST */
} vm_sins;

struct vm_program {
    const mos_allocator *alloc;  /* the DAG's: every block below comes from it */
    ir_stage stage;
    int max_lanes;
    int stride;            /* floats from one lane array to the next: max_lanes + 16, so arrays of
                            * 1024 or 4096 lanes are not 4 KiB apart (a load from one and a store to
                            * another at the same offset would look dependent: 4K aliasing) */
    int nreg, nslot, ninput, nscalar, nout;
    int table;             /* lane-array table entries: nreg + nslot + ninput + 2 (frag x, y) */
    vm_sins *sins;
    int sins_count;
    vm_ins *ins;
    int ins_count;
    vm_link *links;        /* of the VM_CHAIN instructions */
    int link_count;
    int passes;
    size_t scratch_bytes;
};

/* Table layout: registers, then slots, inputs, frag x, frag y. */
#define VM_SLOT(p, s) ((p)->nreg + (s))
#define VM_INPUT(p, k) ((p)->nreg + (p)->nslot + (k))
#define VM_FRAG_X(p) ((p)->nreg + (p)->nslot + (p)->ninput)
#define VM_FRAG_Y(p) (VM_FRAG_X(p) + 1)

void vm_run_scalar(const vm_program *p, const vm_io *io);
#if defined(UTIL_X86)
void vm_run_avx2(const vm_program *p, const vm_io *io);
void vm_run_avx512(const vm_program *p, const vm_io *io);
#endif

#endif
