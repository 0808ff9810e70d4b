/* builtin.c — the built-in native shaders: flat/lambert/textured on one vertex stage, and lightmapped.
 * Fed by the back-end's shade stage through mos_vs_batch / mos_fs_batch (uniforms from scene_draw). */

#include "shader/builtin.h"

#include <string.h>

#include "shader/shader_isa.h"


void shader_builtin_uniforms_init(shader_builtin_uniforms *u)
{
    memset(u, 0, sizeof *u);
    for (int i = 0; i < 4; i++) {
        u->mvp[i * 5] = 1.0f;
        u->model[i * 5] = 1.0f;
    }
    for (int i = 0; i < 3; i++)
        u->normal_matrix[i * 5] = 1.0f;
    for (int c = 0; c < 4; c++)
        u->base_color[c] = 1.0f;
    u->fma_k = 1.0f;
}

/* ---- vertex stage ---------------------------------------------------------- */

/* Vertex I of the batch: its attributes, and its clip position mvp * (pos, 1) written. */
static const float *vs_clip(const mos_vs_batch *b, const float m[16], int i)
{
    const float *a = b->attribs + (size_t)i * (size_t)b->stride;
    float *clip = b->clip + (size_t)i * 4;
    for (int r = 0; r < 4; r++)
        clip[r] = m[r] * a[0] + m[4 + r] * a[1] + m[8 + r] * a[2] + m[12 + r];
    return a;
}

void shader_builtin_vs(const mos_vs_batch *b)
{
    const shader_builtin_uniforms *u = b->uniforms;
    const float *m = u->mvp, *nm = u->normal_matrix;
    const int vc = b->varying_count;
    for (int i = 0; i < b->count; i++) {
        const float *a = vs_clip(b, m, i);
        float out[SHADER_BUILTIN_VARYINGS];
        for (int r = 0; r < 3; r++)
            out[r] = nm[r] * a[3] + nm[4 + r] * a[4] + nm[8 + r] * a[5];
        out[3] = a[6];
        out[4] = a[7];
        float *vary = b->varyings + (size_t)i * (size_t)vc;
        for (int k = 0; k < vc; k++)
            vary[k] = k < SHADER_BUILTIN_VARYINGS ? out[k] : 0.0f;
    }
}

/* The lightmapped vertex stage: clip position, then u, v and the lightmap's u, v (floats 6..9). */
void shader_builtin_vs_lightmapped(const mos_vs_batch *b)
{
    const shader_builtin_uniforms *u = b->uniforms;
    const float *m = u->mvp;
    const int vc = b->varying_count;
    for (int i = 0; i < b->count; i++) {
        const float *a = vs_clip(b, m, i);
        const bool lit = b->stride >= SHADER_BUILTIN_LIT_STRIDE;  /* else no lightmap coordinates: 0 0 */
        const float out[SHADER_BUILTIN_LIT_VARYINGS] = { a[6], a[7], lit ? a[8] : 0.0f, lit ? a[9] : 0.0f };
        float *vary = b->varyings + (size_t)i * (size_t)vc;
        for (int k = 0; k < vc; k++)
            vary[k] = k < SHADER_BUILTIN_LIT_VARYINGS ? out[k] : 0.0f;
    }
}

/* ---- fragment stages: the kernels of builtin_fs_tmp.h for the batch's ISA -- */

static void fs_run(builtin_fs_kind kind, const mos_fs_batch *b) { shader_isa_select(b->isa)->builtin_fs(kind, b); }

void shader_builtin_fs_flat(const mos_fs_batch *b) { fs_run(FS_FLAT, b); }
void shader_builtin_fs_lambert(const mos_fs_batch *b) { fs_run(FS_LAMBERT, b); }
void shader_builtin_fs_textured(const mos_fs_batch *b) { fs_run(FS_TEXTURED, b); }
void shader_builtin_fs_lightmapped(const mos_fs_batch *b) { fs_run(FS_LIGHTMAPPED, b); }

/* ---- registry (grep ORDER BUILTIN_NAMES) ----------------------------------- */

/* Each passes on the varyings its fragment stage reads, as a linker keeps
 * them (program.c does the same for GLSL): flat none, lambert the normal,
 * textured the normal and uv.  Setup and interpolation never see the rest. */
static const mos_shader_desc builtin_descs[] = {
    { .vertex = shader_builtin_vs, .fragment = shader_builtin_fs_flat, .varying_count = 0, .label = "flat" },
    { .vertex = shader_builtin_vs, .fragment = shader_builtin_fs_lambert, .varying_count = 3, .label = "lambert" },
    { .vertex = shader_builtin_vs, .fragment = shader_builtin_fs_textured, .varying_count = SHADER_BUILTIN_VARYINGS,
      .label = "textured" },
    { .vertex = shader_builtin_vs_lightmapped, .fragment = shader_builtin_fs_lightmapped,
      .varying_count = SHADER_BUILTIN_LIT_VARYINGS, .label = "lightmapped" },
};
static const char *const builtin_names[] = { "flat", "lambert", "textured", "lightmapped", NULL };

const mos_shader_desc *shader_builtin_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof builtin_descs / sizeof builtin_descs[0]; i++)
        if (strcmp(builtin_descs[i].label, name) == 0)
            return &builtin_descs[i];
    return NULL;
}

const char *const *shader_builtin_names(void) { return builtin_names; }
