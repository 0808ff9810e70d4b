/* draw.c — a loaded scene in a context: upload (buffers, textures, built-in shaders) and one frame's draws.
 * Fed by the CLI / viewer with a scene and scene_draw_opts; feeds mos_draw with built-in uniforms. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_priv.h"

/* ---- upload ---------------------------------------------------------------------- */

/* count_mode's fragment shader: one 8-bit step of red per covered sample. */
static void count_fs(const mos_fs_batch *b)
{
    for (int l = 0; l < 4 * b->quad_count; l++) {
        b->out[0][l] = 1.0f / 255.0f;
        b->out[1][l] = b->out[2][l] = b->out[3][l] = 0.0f;
    }
}

struct scene_gpu {
    mos_shader *shaders;      /* the built-ins, then the scene's GLSL shaders */
    bool *builtin;            /* per shader: a built-in (discards only by its alpha test) */
    int shader_count;
    mos_shader count_shader;  /* scene_draw_opts.count_mode */
    mos_buffer *vb, *ib;
    uint32_t *vert_count, *index_count, *stride;
    int mesh_count;
    mos_texture *tex;
    int tex_count;
    /* copies of what drawing needs */
    scene_object *objects;
    int object_count;
    scene_camera *cameras;
    int camera_count;
    scene_light lights[SCENE_MAX_LIGHTS];
    int light_count;
    float ambient[3];
};

void scene_gpu_free(scene_gpu *g, mos_context *ctx)
{
    if (!g)
        return;
    for (int i = 0; i < g->shader_count; i++)
        if (g->shaders[i].id)
            mos_shader_destroy(ctx, g->shaders[i]);
    free(g->shaders);
    free(g->builtin);
    if (g->count_shader.id)
        mos_shader_destroy(ctx, g->count_shader);
    for (int i = 0; i < g->mesh_count; i++) {
        if (g->vb && g->vb[i].id)
            mos_buffer_destroy(ctx, g->vb[i]);
        if (g->ib && g->ib[i].id)
            mos_buffer_destroy(ctx, g->ib[i]);
    }
    for (int i = 0; i < g->tex_count; i++)
        if (g->tex && g->tex[i].id)
            mos_texture_destroy(ctx, g->tex[i]);
    free(g->vb);
    free(g->ib);
    free(g->vert_count);
    free(g->index_count);
    free(g->stride);
    free(g->tex);
    free(g->objects);
    for (int i = 0; g->cameras && i < g->camera_count; i++)
        free(g->cameras[i].path);
    free(g->cameras);
    free(g);
}

static void *dup_array(const void *src, int count, size_t elem)
{
    void *d = calloc(count > 0 ? (size_t)count : 1, elem);
    if (d && count > 0)
        memcpy(d, src, (size_t)count * elem);
    return d;
}

/* G's own copies of the COUNT cameras of SRC, with their paths: 0, or -1
 * when out of memory (what was copied is G's to free). */
static int copy_cameras(scene_gpu *g, const scene_camera *src, int count)
{
    if (!(g->cameras = dup_array(src, count, sizeof *src)))
        return -1;
    for (int i = 0; i < count; i++)
        g->cameras[i].path = NULL;
    g->camera_count = count;
    for (int i = 0; i < count; i++)
        if (src[i].path_count > 0 &&
            !(g->cameras[i].path = dup_array(src[i].path, src[i].path_count, sizeof *src[i].path)))
            return -1;
    return 0;
}

mos_result scene_upload(const scene *s, mos_context *ctx, scene_gpu **out)
{
    *out = NULL;
    scene_gpu *g = calloc(1, sizeof *g);
    if (!g)
        return MOS_ERR_OUT_OF_MEMORY;
    mos_result r = MOS_ERR_OUT_OF_MEMORY;
    g->mesh_count = s->mesh_count;
    g->tex_count = s->image_count;
    g->vb = calloc((size_t)s->mesh_count + 1, sizeof *g->vb);
    g->ib = calloc((size_t)s->mesh_count + 1, sizeof *g->ib);
    g->vert_count = calloc((size_t)s->mesh_count + 1, sizeof *g->vert_count);
    g->index_count = calloc((size_t)s->mesh_count + 1, sizeof *g->index_count);
    g->stride = calloc((size_t)s->mesh_count + 1, sizeof *g->stride);
    g->tex = calloc((size_t)s->image_count + 1, sizeof *g->tex);
    g->objects = dup_array(s->objects, s->object_count, sizeof *s->objects);
    if (!g->vb || !g->ib || !g->vert_count || !g->index_count || !g->stride || !g->tex || !g->objects ||
        copy_cameras(g, s->cameras, s->camera_count))
        goto fail;
    g->object_count = s->object_count;
    memcpy(g->lights, s->lights, sizeof g->lights);
    g->light_count = s->light_count;
    memcpy(g->ambient, s->ambient, sizeof g->ambient);

    g->shader_count = SCENE_SHADER_COUNT + s->glsl_count;
    g->shaders = calloc((size_t)g->shader_count, sizeof *g->shaders);
    g->builtin = calloc((size_t)g->shader_count, sizeof *g->builtin);
    if (!g->shaders || !g->builtin)
        goto fail;
    for (int i = 0; i < g->shader_count; i++) {
        const int k = scene_glsl_of(s, i);
        if (k >= 0) {
            const scene_glsl *e = &s->glsl[k];
            r = mos_shader_create_spirv(ctx, &(mos_spirv_desc){ .vertex = e->vs, .vertex_words = e->vs_words,
                                        .fragment = e->fs, .fragment_words = e->fs_words,
                                        .vertex_name = e->vert_path, .fragment_name = e->frag_path }, &g->shaders[i]);
        } else {
            r = mos_shader_create(ctx, shader_builtin_find(scene_builtin_names[i]), &g->shaders[i]);
            g->builtin[i] = true;
        }
        if (r != MOS_OK)
            goto fail;
    }
    r = mos_shader_create(ctx, &(mos_shader_desc){ .vertex = shader_builtin_vs, .fragment = count_fs,
                          .varying_count = SHADER_BUILTIN_VARYINGS, .label = "count" }, &g->count_shader);
    if (r != MOS_OK)
        goto fail;
    for (int i = 0; i < s->mesh_count; i++) {
        const scene_mesh *m = &s->meshes[i];
        r = mos_buffer_create(ctx, &(mos_buffer_desc){ .data = m->verts,
                              .size = (size_t)m->vert_count * scene_mesh_stride(m) * sizeof(float) }, &g->vb[i]);
        if (r != MOS_OK)
            goto fail;
        r = mos_buffer_create(ctx, &(mos_buffer_desc){ .data = m->indices,
                              .size = (size_t)m->index_count * sizeof(uint32_t) }, &g->ib[i]);
        if (r != MOS_OK)
            goto fail;
        g->vert_count[i] = m->vert_count;
        g->index_count[i] = m->index_count;
        g->stride[i] = scene_mesh_stride(m);
    }
    for (int i = 0; i < s->image_count; i++) {
        const scene_image *im = &s->images[i];
        r = mos_texture_create(ctx, &(mos_texture_desc){ .width = im->width, .height = im->height, .rgba8 = im->rgba,
                               .wrap_u = (mos_wrap)im->wrap[0], .wrap_v = (mos_wrap)im->wrap[1],
                               .mip = im->mip_linear ? MOS_MIP_LINEAR : MOS_MIP_NEAREST }, &g->tex[i]);
        if (r != MOS_OK)
            goto fail;
    }
    *out = g;
    return MOS_OK;
fail:
    scene_gpu_free(g, ctx);
    return r;
}

/* ---- one frame ------------------------------------------------------------------- */

/* Issues one mos_draw per instance that scene_walk (export.c) yields. */
typedef struct draw_walk {
    const scene_gpu *g;
    mos_context *ctx;
    const scene_draw_opts *opts;
    uint64_t tri_next;  /* API-order index of the next draw's first triangle */
} draw_walk;

static mos_result draw_one(const scene_walk_draw *w, void *user)
{
    draw_walk *dw = user;
    const scene_gpu *g = dw->g;
    const scene_object *o = w->object;
    mos_draw_desc d = {
        .shader = g->shaders[o->shader],
        .vertices = g->vb[o->mesh],
        .vertex_stride = (int)g->stride[o->mesh],
        .vertex_count = (int)g->vert_count[o->mesh],
        .indices = g->ib[o->mesh],
        .index_count = (int)g->index_count[o->mesh],
        .uniforms = w->uniforms,
        .uniform_size = sizeof *w->uniforms,
        .uniforms_t1 = w->uniforms_t1,
        .depth_test = w->depth_test,
        .depth_write = w->depth_write,
        .cull = w->cull,
        .blend = w->blend,
        /* a built-in discards only below its alpha cut-off (GLSL shaders
         * say so themselves) */
        .never_discards = g->builtin[o->shader] && !(w->uniforms->alpha_cutoff > 0.0f),
    };
    if (o->texture >= 0)
        d.textures[0] = g->tex[o->texture];
    if (o->lightmap >= 0)
        d.textures[1] = g->tex[o->lightmap];
    const scene_draw_opts *opts = dw->opts;
    if (opts->tri_begin || opts->tri_end) {  /* clip this draw to [tri_begin, tri_end) */
        const uint64_t first = dw->tri_next, tris = g->index_count[o->mesh] / 3;
        const uint64_t end = opts->tri_end ? opts->tri_end : UINT64_MAX;
        dw->tri_next += tris;
        const uint64_t lo = first > opts->tri_begin ? first : opts->tri_begin;
        const uint64_t hi = first + tris < end ? first + tris : end;
        if (hi <= lo)
            return MOS_OK;
        d.first_index = (int)(3 * (lo - first));
        d.index_count = (int)(3 * (hi - lo));
    }
    if (opts->count_mode) {
        d.shader = g->count_shader;
        d.uniforms = w->uniforms;  /* the vertex stage still needs the matrices */
        memset(d.textures, 0, sizeof d.textures);
        d.depth_test = d.depth_write = false;
        d.blend = MOS_BLEND_ADD;
    }
    return mos_draw(dw->ctx, &d);
}

mos_result scene_frame_lens(const scene_gpu *g, const scene_draw_opts *opts, mos_blur_desc *b)
{
    if (!g)
        return MOS_ERR_INVALID_ARGUMENT;
    return scene_camera_lens(g->cameras, g->camera_count, opts, b);
}

mos_result scene_draw(const scene_gpu *g, mos_context *ctx, const scene_draw_opts *opts)
{
    if (!g)
        return MOS_ERR_INVALID_ARGUMENT;
    const scene_walk_src src = {
        .objects = g->objects, .object_count = g->object_count,
        .cameras = g->cameras, .camera_count = g->camera_count,
        .lights = g->lights, .light_count = g->light_count, .ambient = g->ambient,
    };
    draw_walk dw = { .g = g, .ctx = ctx, .opts = opts };
    return scene_walk(&src, opts, draw_one, &dw);
}
