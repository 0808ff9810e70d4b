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

#define PROGRAM_MAX_INPUTS 256  /* floats of vertex input (attributes) a vertex shader may read */
#define PROGRAM_LANES 1024  /* VM batch: the back-end gathers up to 256 quads per call (mos_shader_desc.batch_quads) */

typedef struct program_options {
    part_limits limits;   /* all 0: one pass */
    part_algo algo;
    part_costs costs;     /* default 15p + 5t + i */
    int lanes;            /* VM batch, a multiple of 16 (0: PROGRAM_LANES) */
    double time_limit_s;  /* the partitioner's (0: PART_DEFAULT_TIME_LIMIT_S, 60 s) */
    const mos_allocator *allocator; /* all the compiler's memory and the program's (NULL: malloc);
                           * must outlive the program */
} program_options;

typedef struct shader_program {
    const mos_allocator *alloc;  /* program_options.allocator */
    spv_shader vs, fs;
    part_plan plan;        /* pass_count 0: the fragment shader runs as one pass */
    vm_program *vs_vm, *fs_vm;
    int varying_count;     /* floats from vertex to fragment stage: those the fragment stage reads */
    size_t vs_scratch, fs_scratch;
    int lanes;
    int uniform_bytes;     /* one past the last uniform byte either stage reads (0: none) */
    char uniform_where[128]; /* "file:line" of that read, for messages */
} shader_program;

/* Builds a program from SPIR-V modules (VS_NAME / FS_NAME name them in
 * messages).  Returns MOS_OK; else, with "name:line: message" in err and
 * everything allocated freed, MOS_ERR_SHADER (the modules or the pair),
 * MOS_ERR_OUT_OF_MEMORY, or MOS_ERR_INVALID_ARGUMENT (OPT's lanes or the
 * partitioner's arguments). */
mos_result program_build(const uint32_t *vs, size_t vs_words, const uint32_t *fs, size_t fs_words,
                         const char *vs_name, const char *fs_name, const program_options *opt,
                         shader_program **out, char *err, size_t err_size);
void program_free(shader_program *p);

/* MOS_OK when draws giving GIVEN uniform bytes cover every uniform P reads;
 * else MOS_ERR_INVALID_ARGUMENT with "file:line: the shader reads N uniform
 * bytes; WHAT gives M" in err. */
mos_result program_check_uniforms(const shader_program *p, size_t given, const char *what, char *err,
                                  size_t err_size);

/* The shader object's description: entry points, varying count, scratch;
 * user = P. */
void program_desc(shader_program *p, mos_shader_desc *desc);

void program_vs(const mos_vs_batch *b);
void program_fs(const mos_fs_batch *b);

#endif
