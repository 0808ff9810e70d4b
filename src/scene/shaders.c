/* shaders.c — the GLSL shaders a scene names: compiled (glslang -> SPIR-V)
 * and checked (SPIR-V -> DAG -> VM) when the scene loads, so a shader error
 * is reported at load with the shader's file:line; scene_upload turns the
 * SPIR-V into mos_shaders.  Fed by parse_material.c (`shader FILE.frag [FILE.vert]`,
 * scene_load_opts.glsl_builtins); read by draw.c and export.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glsl/glsl.h"
#include "scene/scene_priv.h"
#include "util/alloc.h"

#define SCENE_GLSL_MAX_BYTES (16u << 20)  /* one shader source file */

/* Reads PATH through the scene's one door (SANDBOX or NULL: a regular file, never waiting on a FIFO)
 * and compiles it as stage WANT (its extension must say the same); the words from malloc (the
 * scene's memory: no context yet), freed with util_free(NULL, ...). */
static mos_result compile(const char *path, const char *sandbox, glsl_stage want, uint32_t **words,
                          size_t *count, char *err, size_t err_size)
{
    const char *dot = strrchr(path, '.');
    const glsl_stage stage = dot && !strcmp(dot, ".vert") ? GLSL_VERTEX : GLSL_FRAGMENT;
    if (!dot || (strcmp(dot, ".vert") && strcmp(dot, ".frag"))) {
        snprintf(err, err_size, "%s: a GLSL shader file ends in .vert or .frag", path);
        return MOS_ERR_SHADER;
    }
    if (stage != want) {
        snprintf(err, err_size, "%s: expected a %s shader (.%s)", path, want == GLSL_VERTEX ? "vertex" : "fragment",
                 want == GLSL_VERTEX ? "vert" : "frag");
        return MOS_ERR_SHADER;
    }
    uint8_t *src;
    size_t len;
    char msg[900];
    const mos_result read = scene_file_read(sandbox, path, SCENE_GLSL_MAX_BYTES, &src, &len, NULL, msg, sizeof msg);
    if (read != MOS_OK) {
        snprintf(err, err_size, "%s", msg);  /* names the path */
        return read == MOS_ERR_OUT_OF_MEMORY ? read : MOS_ERR_SHADER;
    }
    const mos_result rc = glsl_compile((const char *)src, len, path, stage, NULL, words, count, err, err_size);
    free(src);
    return rc == MOS_ERR_OUT_OF_MEMORY ? rc : rc != MOS_OK ? MOS_ERR_SHADER : MOS_OK;
}

mos_result scene_glsl_add(scene *s, const char *frag, const char *vert, const char *sandbox, int *index, char *err,
                          size_t err_size)
{
    for (int i = 0; i < s->glsl_count; i++)
        if (strcmp(s->glsl[i].frag_path, frag) == 0 && strcmp(s->glsl[i].vert_path, vert) == 0) {
            *index = i;
            return MOS_OK;
        }
    *index = -1;
    scene_glsl *g = realloc(s->glsl, ((size_t)s->glsl_count + 1) * sizeof *g);
    if (!g) {
        snprintf(err, err_size, "out of memory");
        return MOS_ERR_OUT_OF_MEMORY;
    }
    s->glsl = g;
    scene_glsl *e = &g[s->glsl_count];
    memset(e, 0, sizeof *e);
    mos_result rc = MOS_ERR_OUT_OF_MEMORY;
    e->frag_path = strdup(frag);
    e->vert_path = strdup(vert);
    if (!e->frag_path || !e->vert_path) {
        snprintf(err, err_size, "out of memory");
        goto fail;
    }
    if ((rc = compile(vert, sandbox, GLSL_VERTEX, &e->vs, &e->vs_words, err, err_size)) != MOS_OK ||
        (rc = compile(frag, sandbox, GLSL_FRAGMENT, &e->fs, &e->fs_words, err, err_size)) != MOS_OK)
        goto fail;
    /* Translate once now: errors belong to loading, not to the first frame. */
    shader_program *prog;
    if ((rc = program_build(e->vs, e->vs_words, e->fs, e->fs_words, vert, frag, NULL, &prog, err, err_size)) !=
        MOS_OK) {
        rc = rc == MOS_ERR_OUT_OF_MEMORY ? rc : MOS_ERR_SHADER;
        goto fail;
    }
    /* A scene's draws give the built-in block: a shader reading past it is refused here, not at its first draw. */
    if (program_check_uniforms(prog, sizeof(shader_builtin_uniforms), "a scene's draw (the built-in block)", err,
                               err_size) != MOS_OK) {
        program_free(prog);
        rc = MOS_ERR_SHADER;
        goto fail;
    }
    e->texture_units = prog->fs.texture_units;
    program_free(prog);
    *index = s->glsl_count++;
    return MOS_OK;
fail:
    free(e->frag_path);
    free(e->vert_path);
    util_free(NULL, e->vs);
    util_free(NULL, e->fs);
    return rc;
}

void scene_glsl_free(scene *s)
{
    for (int i = 0; i < s->glsl_count; i++) {
        free(s->glsl[i].frag_path);
        free(s->glsl[i].vert_path);
        util_free(NULL, s->glsl[i].vs);
        util_free(NULL, s->glsl[i].fs);
    }
    free(s->glsl);
    s->glsl = NULL;
    s->glsl_count = 0;
}

int scene_glsl_of(const scene *s, int shader)
{
    if (shader >= SCENE_SHADER_COUNT)
        return shader - SCENE_SHADER_COUNT;
    return shader >= 0 ? s->builtin_glsl[shader] : -1;
}

const char *const scene_builtin_names[SCENE_SHADER_COUNT] = { "flat", "lambert", "textured", "lightmapped" };

const char *scene_shader_name(const scene *s, int shader)
{
    const int k = scene_glsl_of(s, shader);
    if (k >= 0 && k < s->glsl_count)
        return s->glsl[k].frag_path;
    return shader >= 0 && shader < SCENE_SHADER_COUNT ? scene_builtin_names[shader] : "flat";
}

bool scene_shader_samples(const scene *s, int shader)
{
    if (shader == SCENE_SHADER_TEXTURED || shader == SCENE_SHADER_LIGHTMAPPED)
        return true;
    const int k = scene_glsl_of(s, shader);
    return shader >= SCENE_SHADER_COUNT && k >= 0 && k < s->glsl_count && (s->glsl[k].texture_units & 1u);
}
