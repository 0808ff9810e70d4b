/* texture.h — mipmapped RGBA8 textures as fragment shaders see them.
 * Fed by the api (mos_texture_create); read by shaders via mos_sample_quads. */
#ifndef MOSAIC_SHADER_TEXTURE_H
#define MOSAIC_SHADER_TEXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "mosaic.h"
#include "util/cpu.h"

#define TEXTURE_MAX_LEVELS 15

/* Samples quads as mos_sample_quads says, each quad's squared footprint
 * (texels per lane step, squared) times rho2_scale before its level is
 * picked (mos_sample_quads_spaced), with cells each lane the mean of its
 * cell's four taps (mos_sample_quads_batch); one variant per ISA. */
typedef void (*texture_sample_fn)(const mos_sampler *s, int quad_count, const float *u, const float *v,
                                  float *const out[4], float rho2_scale, bool cells);

struct mos_sampler {
    texture_sample_fn sample;  /* this context's ISA (set after texture_build) */
    int wrap[2];               /* mos_wrap of u and v (repeat after texture_build) */
    bool mip_linear;           /* MOS_MIP_LINEAR: two levels blended */
    int levels;
    struct {
        int width, height;
        const uint32_t *texels;  /* rows bottom first (GL's order), packed RGBA8 */
    } level[TEXTURE_MAX_LEVELS];
    uint32_t *storage;
};

/* Samples quads whose lanes are lane_px pixels apart (the level as a quad
 * of pixels there picks it, mos_sample_quads_spaced); with cells, each lane
 * averages its cell of the lane grid (mos_fs_batch.cells). */
void texture_sample(const mos_sampler *s, float lane_px, bool cells, int quad_count, const float *u, const float *v,
                    float *const out[4]);

/* The one body (sample_tmp.h) compiled per ISA by sample_scalar.c,
 * sample_avx2.c and sample_avx512.c; the shader row of the ISA table
 * (shader_isa.h) holds one. */
void texture_sample_quads_scalar(const mos_sampler *, int, const float *, const float *, float *const[4], float, bool);
#if defined(UTIL_X86)
void texture_sample_quads_avx2(const mos_sampler *, int, const float *, const float *, float *const[4], float, bool);
void texture_sample_quads_avx512(const mos_sampler *, int, const float *, const float *, float *const[4], float, bool);
#endif

/* Builds the mip chain (each level a bilinear blit of the one before, as
 * Mesa's glGenerateMipmap on llvmpipe) from rows-top-first RGBA8, all levels
 * in one block (the vector samplers gather from it), sampled by the portable
 * variant until the caller sets s->sample. */
mos_result texture_build(mos_sampler *s, int width, int height, const uint8_t *rgba8, const mos_allocator *a);
void texture_release(mos_sampler *s, const mos_allocator *a);

#endif
