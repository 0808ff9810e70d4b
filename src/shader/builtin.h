/* builtin.h — the built-in native C shaders (flat, lambert, textured, lightmapped) and their uniform block.
 * Fed by scene_upload/scene_draw (src/scene) and by embedders that want a ready-made shader. */
#ifndef MOSAIC_SHADER_BUILTIN_H
#define MOSAIC_SHADER_BUILTIN_H

#include "mosaic.h"

/* Vertex layout of every built-in shader: 8 interleaved floats per vertex. */
#define SHADER_BUILTIN_STRIDE 8     /* px py pz  nx ny nz  u v */
#define SHADER_BUILTIN_VARYINGS 5   /* world normal xyz, u, v */
#define SHADER_BUILTIN_MAX_LIGHTS 4
/* "lightmapped" (a Quake 3 map's surfaces) reads two more floats per vertex, the lightmap's u v, and
 * passes on 4 varyings (u, v, lightmap u, v): base colour x texture unit 0 x unit 1 (the lightmap) x
 * SHADER_BUILTIN_OVERBRIGHT, clamped to 1 (the game's overbright display); no lights. */
#define SHADER_BUILTIN_LIT_STRIDE (SHADER_BUILTIN_STRIDE + 2)
#define SHADER_BUILTIN_LIT_VARYINGS 4
#define SHADER_BUILTIN_OVERBRIGHT 2.0f

/* The uniform block all built-ins read (mos_draw_desc.uniforms).  Matrices are
 * column-major (m[col * 4 + row]), clip = mvp * (pos, 1). */
typedef struct shader_builtin_uniforms {
    float mvp[16];
    float model[16];          /* object -> world (kept for shaders that need world position) */
    float normal_matrix[12];  /* 3 columns of 4 floats (w unused): inverse transpose of mat3(model);
                               * for rigid/uniform-scale models this is mat3(model) itself.
                               * world normal = normal_matrix * n, renormalized per fragment */
    float base_color[4];      /* rgba, 0..1 */
    float light_dir[SHADER_BUILTIN_MAX_LIGHTS][4];    /* world direction TOWARDS the light (xyz, unit) */
    float light_color[SHADER_BUILTIN_MAX_LIGHTS][4];  /* rgb; unused lights are black */
    float ambient[4];         /* rgb */
    int fma;                  /* extra dependent multiply-adds per fragment (cost knob) */
    float fma_k;              /* 1: the loop does x = x * fma_k + fma_c ... */
    float fma_c;              /* 0 */
    float fma_zero;           /* 0: ... then colour += x * fma_zero, so the image does not change */
    float alpha_cutoff;       /* alpha test: fragments with alpha < alpha_cutoff are discarded (0 = off) */
} shader_builtin_uniforms;

/* Fills U with neutral values: identity matrices, white base colour, no
 * lights, zero ambient, fma = 0, fma_k = 1, fma_c = 0, fma_zero = 0, no
 * alpha test. */
void shader_builtin_uniforms_init(shader_builtin_uniforms *u);

/* The descriptor of a built-in shader ("flat", "lambert", "textured", "lightmapped"), or
 * NULL for an unknown name.  The pointer is to static const data. */
const mos_shader_desc *shader_builtin_find(const char *name);
/* The built-in names, NULL-terminated. */
const char *const *shader_builtin_names(void);

/* The stages, for embedders who want to mix them.  A fragment stage runs
 * its kind of kernel (builtin_fs_tmp.h) in the build of the batch's ISA
 * (shader_isa.h). */
typedef enum builtin_fs_kind { FS_FLAT, FS_LAMBERT, FS_TEXTURED, FS_LIGHTMAPPED } builtin_fs_kind;
void shader_builtin_vs(const mos_vs_batch *b);
void shader_builtin_fs_flat(const mos_fs_batch *b);
void shader_builtin_fs_lambert(const mos_fs_batch *b);
void shader_builtin_fs_textured(const mos_fs_batch *b);
void shader_builtin_vs_lightmapped(const mos_vs_batch *b);
void shader_builtin_fs_lightmapped(const mos_fs_batch *b);

#endif
