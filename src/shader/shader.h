/* shader.h — the shader stage's entry point for other stages: the built-in
 * native C shaders and their uniform block (builtin.h), textures as fragment
 * shaders sample them (texture.h), compiled shaders (program.h: SPIR-V
 * -> DAG IR (ir.h, spirv.h) -> passes (partition.h) -> SIMD VM (vm.h)), and
 * the stage's row of the per-ISA table (shader_isa.h).
 * Fed by the api (textures, compiled shaders), the scene module (built-in
 * shaders) and the `mosaic shader` tool. */
#ifndef MOSAIC_SHADER_H
#define MOSAIC_SHADER_H

#include "shader/builtin.h"
#include "shader/program.h"
#include "shader/shader_isa.h"
#include "shader/texture.h"

#endif
