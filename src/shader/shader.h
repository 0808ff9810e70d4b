/* shader.h — the shader stage's entry point for other stages: the built-in
 * native C shaders and their uniform block (builtin.h), and textures as
 * fragment shaders sample them (texture.h).
 * Fed by the api (textures) and the scene module (built-in shaders). */
#ifndef MOSAIC_SHADER_H
#define MOSAIC_SHADER_H

#include "shader/builtin.h"
#include "shader/texture.h"

#endif
