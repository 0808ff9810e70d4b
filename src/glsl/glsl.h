/* glsl.h — GLSL 4.50 source to SPIR-V with Khronos' reference compiler
 * (glslang, Debian glslang-dev), the front end of Mosaic's shaders: the
 * SPIR-V goes on to mos_shader_create_spirv (src/shader: DAG, passes, VM).
 * Messages come back as "FILE:LINE: message".  Fed by the scene loader and
 * the `mosaic shader` tool. */
#ifndef MOSAIC_GLSL_H
#define MOSAIC_GLSL_H

#include <stddef.h>
#include <stdint.h>

typedef enum glsl_stage { GLSL_VERTEX = 0, GLSL_FRAGMENT } glsl_stage;

/* glslang builds its built-in symbol tables on first use and drops them when
 * its last user finishes (its process-wide state is reference-counted); a
 * program compiling several shaders holds them across the compiles. */
void glsl_hold(void);
void glsl_release(void);

/* Compiles SOURCE (LEN bytes, need not be NUL-terminated) named FILE.
 * Returns 0 with *words (malloc'd, free with free()) and *count, or -1 with a
 * message in err. */
int glsl_compile(const char *source, size_t len, const char *file, glsl_stage stage, uint32_t **words,
                 size_t *count, char *err, size_t err_size);

/* Reads FILE and compiles it; the stage from its extension (.vert, .frag). */
int glsl_compile_file(const char *file, uint32_t **words, size_t *count, glsl_stage *stage, char *err,
                      size_t err_size);

#endif
