/* spirv.h — SPIR-V (as glslang writes it for GLSL 4.50) into Mosaic's DAG IR.
 *
 * The translation executes the shader symbolically: variables hold DAG node
 * ids, a loop whose condition folds to a constant is unrolled by running its
 * body again, an if/else on a lane-varying condition runs both sides and
 * joins the variables with SELECTs (both sides are free of side effects: the
 * only ones, stores to variables and discard, become selects), and function
 * calls are inlined.  What cannot be flattened this way (a loop with a
 * lane-varying bound, break/continue/return under a lane-varying condition,
 * dynamic indexing, bit operations) is rejected with a message naming it.
 *
 * The interface is packed in location order: the inputs of location L start
 * where the inputs of the locations below L end (vertex: the attribute floats
 * of a vertex; fragment: the varying floats), and the vertex stage's outputs
 * likewise, so a vertex and a fragment shader agree when they declare the
 * same locations with the same sizes.  Uniforms live in one uniform block
 * read at its std140 byte offsets; sampler2D binding b is texture unit b.
 *
 * Fed by glsl/glsl.c (GLSL -> SPIR-V) or an embedder's SPIR-V; the DAG goes
 * on to partition.c and vm.c. */
#ifndef MOSAIC_SHADER_SPIRV_H
#define MOSAIC_SHADER_SPIRV_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic.h"
#include "shader/ir.h"

#define SPV_MAX_IO 32
/* The uniform block a shader may read: what a draw can give (mos_draw_desc.uniform_size). */
#define SPV_MAX_UNIFORM_BYTES MOS_MAX_UNIFORM_BYTES

typedef struct spv_iovar {
    int location;
    int floats;  /* components */
} spv_iovar;

typedef struct spv_shader {
    ir_dag dag;             /* finished: fragment outputs r g b a [discard]; vertex clip xyzw + varyings */
    int in_count, out_count;
    spv_iovar in[SPV_MAX_IO], out[SPV_MAX_IO];  /* by location; out: the vertex stage's varyings */
    int input_floats;       /* sum of in[].floats */
    int varying_floats;     /* vertex: sum of out[].floats; fragment: 0 */
    int uniform_bytes;      /* one past the last uniform byte read (0: none), <= SPV_MAX_UNIFORM_BYTES */
    int uniform_line;       /* the source line of that read (0: unknown) */
    unsigned texture_units; /* bit b: sampler binding b is read */
    int discards;           /* fragment: the DAG has the discard output */
} spv_shader;

/* Translates WORDS (COUNT 32-bit words) for STAGE.  FILE names the source in
 * messages ("FILE:LINE: message" when the module has line information).
 * Returns MOS_OK, or MOS_ERR_SHADER with a message in err, or
 * MOS_ERR_OUT_OF_MEMORY ("FILE: out of memory"); OUT needs spv_shader_free
 * after MOS_OK only. */
mos_result spv_translate(const uint32_t *words, size_t count, ir_stage stage, const char *file,
                         spv_shader *out, char *err, size_t err_size);
/* The same with the memory of the translation and of OUT's DAG from A
 * (NULL: malloc). */
mos_result spv_translate_alloc(const uint32_t *words, size_t count, ir_stage stage, const char *file,
                               const mos_allocator *a, spv_shader *out, char *err, size_t err_size);
void spv_shader_free(spv_shader *s);

#endif
