/* glsl.h — GLSL 4.50 source to SPIR-V with Khronos' reference compiler
 * (glslang, Debian glslang-dev), the front end of Mosaic's shaders: the
 * SPIR-V goes on to mos_shader_create_spirv (src/shader: DAG, passes, VM).
 * Messages come back as "FILE:LINE: message".  Fed by the scene loader and
 * the `mosaic shader` tool. */
#ifndef MOSAIC_GLSL_H
#define MOSAIC_GLSL_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic.h"

typedef enum glsl_stage { GLSL_VERTEX = 0, GLSL_FRAGMENT } glsl_stage;

/* The oldest #version accepted (the README's requirement); older ones are
 * refused at their line before glslang sees them. */
#define GLSL_MIN_VERSION 330

/* glslang builds its built-in symbol tables on first use and drops them when
 * its last user finishes (its process-wide state is reference-counted); a
 * program compiling several shaders holds them across the compiles. */
void glsl_hold(void);
void glsl_release(void);

/* Compiles SOURCE (LEN bytes, need not be NUL-terminated) named FILE.
 * Every block of ours comes from ALLOC (NULL: malloc/free), under
 * mos_allocator's contract (mosaic.h): it is also called from the compile's
 * own thread.  glslang's own C++ memory does not come from it.
 * MOS_OK with *words and *count: the SPIR-V, allocated from ALLOC, which the
 * caller frees with util_free(ALLOC, *words) (util/alloc.h).  Otherwise
 * *words is NULL, nothing is left allocated, err holds the message and the
 * result is MOS_ERR_SHADER (the source: "FILE:LINE: message"),
 * MOS_ERR_OUT_OF_MEMORY or MOS_ERR_THREAD (the compile's thread did not
 * start). */
mos_result glsl_compile(const char *source, size_t len, const char *file, glsl_stage stage,
                        const mos_allocator *alloc, uint32_t **words, size_t *count, char *err, size_t err_size);

/* Reads FILE and compiles it as above; the stage from its extension (.vert,
 * .frag: else MOS_ERR_INVALID_ARGUMENT).  A file that cannot be read is
 * MOS_ERR_IO, one of 16 MiB or more MOS_ERR_BAD_SIZE. */
mos_result glsl_compile_file(const char *file, const mos_allocator *alloc, uint32_t **words, size_t *count,
                             glsl_stage *stage, char *err, size_t err_size);

#endif
