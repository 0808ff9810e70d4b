/* program.h — a compiled shader pair: vertex and fragment SPIR-V translated
 * to DAGs (spirv.c), the fragment DAG optionally split into passes
 * (partition.c), both compiled for the VM (vm.c), and the two entry points
 * that run them behind a mos_shader (mos_vs_batch / mos_fs_batch).
 * Fed by mos_shader_create_spirv (api) and the `mosaic shader` tool. */
#ifndef MOSAIC_SHADER_PROGRAM_H
#define MOSAIC_SHADER_PROGRAM_H

#include "mosaic.h"
#include "shader/partition.h"
#include "shader/spirv.h"
#include "shader/vm.h"

#define PROGRAM_LANES 1024  /* VM batch: the back-end gathers up to 256 quads per call (mos_shader_desc.batch_quads) */

typedef struct program_options {
    part_limits limits;   /* all 0: one pass */
    part_algo algo;
    part_costs costs;     /* default 15p + 5t + i */
    int lanes;            /* VM batch, a multiple of 16 (0: PROGRAM_LANES) */
} program_options;

typedef struct shader_program {
    spv_shader vs, fs;
    part_plan plan;        /* pass_count 0: the fragment shader runs as one pass */
    vm_program *vs_vm, *fs_vm;
    int varying_count;     /* floats from vertex to fragment stage: those the fragment stage reads */
    size_t vs_scratch, fs_scratch;
    int lanes;
} shader_program;

/* Builds a program from SPIR-V modules (VS_NAME / FS_NAME name them in
 * messages).  Returns 0, or -1 with "name:line: message" in err. */
int program_build(const uint32_t *vs, size_t vs_words, const uint32_t *fs, size_t fs_words, const char *vs_name,
                  const char *fs_name, const program_options *opt, shader_program **out, char *err,
                  size_t err_size);
void program_free(shader_program *p);

/* The shader object's description: entry points, varying count, scratch;
 * user = P. */
void program_desc(shader_program *p, mos_shader_desc *desc);

void program_vs(const mos_vs_batch *b);
void program_fs(const mos_fs_batch *b);

#endif
