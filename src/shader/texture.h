/* texture.h — mipmapped RGBA8 textures as fragment shaders see them.
 * Fed by the api (mos_texture_create); read by shaders via mos_sample_quads. */
#ifndef MOSAIC_SHADER_TEXTURE_H
#define MOSAIC_SHADER_TEXTURE_H

#include <stdint.h>

#include "mosaic.h"

#define TEXTURE_MAX_LEVELS 15

struct mos_sampler {
    int levels;
    struct {
        int width, height;
        const uint32_t *texels;  /* rows top first, packed RGBA8 */
    } level[TEXTURE_MAX_LEVELS];
    uint32_t *storage;
};

/* Builds the mip chain (box filter) from rows-top-first RGBA8. */
mos_result texture_build(mos_sampler *s, int width, int height, const uint8_t *rgba8, const mos_allocator *a);
void texture_release(mos_sampler *s, const mos_allocator *a);

#endif
