/* vm.h — the SIMD VM that runs a shader DAG, pass by pass, over a batch of
 * lanes.
 *
 * A program is the DAG compiled once: the nodes that depend only on uniforms
 * and constants become scalar code run once per batch (a scalar bank); the
 * rest become vector instructions over lane arrays, one register (an array
 * of `lanes` floats) per live value, registers reused as values die.  With a
 * partition (partition.h), each pass runs over the whole batch before the
 * next: a pass's root is written to its scratch slot (an array of lanes) and
 * later passes read it from there, so a pass's working set is its live
 * registers times the batch, which is what the partition bounds.
 *
 * Operands name registers, inputs, slots or window coordinates through one
 * table of lane-array pointers, so reading an input or a saved value costs
 * nothing; a binary operation takes one operand from the scalar bank where it
 * is uniform (no broadcast arrays).  The bodies are compiled once per ISA
 * (vm_tmp.h: portable, AVX2, AVX-512), give the same bits on each and are
 * reached through the ISA table's shader row (shader_isa.h).
 *
 * Fed by program.c (the compiled shaders behind mos_shader); the batch
 * benchmark (bench/micro) runs it directly. */
#ifndef MOSAIC_SHADER_VM_H
#define MOSAIC_SHADER_VM_H

#include <stddef.h>

#include "mosaic.h"
#include "shader/ir.h"
#include "shader/partition.h"

typedef struct vm_program vm_program;
struct shader_isa;

/* Compiles D (finished) for batches of at most max_lanes lanes (a multiple of
 * 16), with PLAN's passes or, if plan is NULL, as one pass; its memory
 * comes from D's allocator (ir_dag.alloc).  Returns MOS_OK; else, with a
 * message in err, MOS_ERR_SHADER (an operation the stage lacks),
 * MOS_ERR_INVALID_ARGUMENT (an unfinished DAG, a bad batch size, a
 * vector-view plan) or MOS_ERR_OUT_OF_MEMORY ("out of memory"). */
mos_result vm_build(const ir_dag *d, const part_plan *plan, int max_lanes, vm_program **out, char *err,
                    size_t err_size);
void vm_free(vm_program *p);

/* Per-thread working memory a batch needs (64-byte aligned by the caller). */
size_t vm_scratch_bytes(const vm_program *p);

typedef struct vm_stats {
    int passes;          /* passes with lane work */
    int vector_ins;      /* vector instructions over all passes */
    int scalar_ins;      /* scalar-bank instructions (once per batch) */
    int registers;       /* lane registers (the most any pass needs) */
    int slots;           /* saved-value slots */
    int chain_links;     /* operations fused into chains (each chain one vector instruction) */
} vm_stats;
void vm_get_stats(const vm_program *p, vm_stats *s);

typedef struct vm_io {
    int lanes;                          /* 1..max_lanes; fragment stage: a multiple of 4 (2x2 quads) */
    const float *const *in;             /* in[k][lane], k < the DAG's input_count */
    const float *frag_x, *frag_y;       /* fragment stage: window coordinates of the lanes */
    const void *uniforms;
    const mos_sampler *const *textures; /* by unit; NULL entries sample as 0 */
    float lane_px;                      /* mos_fs_batch.lane_px: the quads' lane spacing, for texture levels */
    bool cells;                         /* mos_fs_batch.cells: textures average each lane's cell */
    float *const *out;                  /* out[k][lane], k < the DAG's out_count */
    void *scratch;                      /* vm_scratch_bytes, 64-byte aligned */
    const struct shader_isa *hot;       /* the build of the bodies to run: shader_isa_select(the ISA) */
} vm_io;

void vm_run(const vm_program *p, const vm_io *io);

#endif
