/* export.c — the one walk over a frame's draws (camera, per-instance matrices, lights, state).
 * Fed by scene_draw (draw.c, libmosaic) and by scene_export_frame's callers (bench/llvmpipe). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_priv.h"

/* Object -> world at shutter time t: the transforms at t = 0 and t = 1
 * blended linearly, plus the velocity. */
static void object_transform_at(const scene_object *o, float t, float m[16])
{
    for (int k = 0; k < 16; k++) m[k] = o->xform[k] + t * (o->xform1[k] - o->xform[k]);
    for (int k = 0; k < 3; k++) m[12 + k] += t * o->velocity[k];
}

/* Squared distance from EYE to the centre of O's first instance at t = 0. */
static float eye_distance2(const scene_object *o, const float eye[3])
{
    float d2 = 0.0f;
    for (int r = 0; r < 3; r++) {
        float w = o->xform[r] * o->center[0] + o->xform[4 + r] * o->center[1] + o->xform[8 + r] * o->center[2] +
                  o->xform[12 + r] - eye[r];
        d2 += w * w;
    }
    return d2;
}

/* The order objects are drawn in (into order[0..count)): opaque ones in
 * file order, then blended ones from the farthest to the nearest centre
 * (file order among equals), as blending over what is behind asks. */
static int draw_order(const scene_object *objs, int count, const float eye[3], int *order)
{
    int n = 0;
    for (int i = 0; i < count; i++)
        if (objs[i].blend == MOS_BLEND_OPAQUE)
            order[n++] = i;
    const int first = n;
    for (int i = 0; i < count; i++) {
        if (objs[i].blend == MOS_BLEND_OPAQUE)
            continue;
        const float d = eye_distance2(&objs[i], eye);
        int k = n++;
        for (; k > first && eye_distance2(&objs[order[k - 1]], eye) < d; k--)  /* insertion, stable */
            order[k] = order[k - 1];
        order[k] = i;
    }
    return n;
}

mos_result scene_camera_lens(const scene_camera *cameras, int camera_count, const scene_draw_opts *opts,
                             mos_blur_desc *b)
{
    if (!cameras || !opts || !b || opts->view < 0 || opts->view >= camera_count)
        return MOS_ERR_INVALID_ARGUMENT;
    const scene_camera *c = &cameras[opts->view];
    const float *eye = opts->pose ? opts->pose->eye : c->eye;
    const float *target = opts->pose ? opts->pose->target : c->target;
    const float fov = opts->pose ? opts->pose->fov_y_deg : c->fov_y_deg;
    float aperture = opts->set_aperture ? opts->aperture : c->aperture;
    float focus = opts->set_focus ? opts->focus : c->focus_dist;
    if (focus <= 0.0f) {
        float d[3] = {target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]};
        focus = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    }
    float aspect = opts->width > 0 && opts->height > 0 ? (float)opts->width / (float)opts->height : 1.0f;
    b->lens_x = b->lens_y = b->focus_w = 0.0f;
    if (aperture > 0.0f)
        mos_blur_lens(b, aperture, focus, fov, aspect);
    return MOS_OK;
}

mos_result scene_walk(const scene_walk_src *src, const scene_draw_opts *opts,
                      mos_result (*fn)(const scene_walk_draw *d, void *user), void *user)
{
    if (!src || !opts || !fn || opts->view < 0 || opts->view >= src->camera_count)
        return MOS_ERR_INVALID_ARGUMENT;
    const scene_camera *cam = &src->cameras[opts->view];
    float aspect = opts->width > 0 && opts->height > 0 ? (float)opts->width / (float)opts->height : 1.0f;
    float view[16], proj[16], vp[16];
    const scene_pose *pose = opts->pose;
    if (pose) {
        scene_look_at(view, pose->eye, pose->target, pose->up);
        scene_perspective(proj, pose->fov_y_deg, aspect, pose->near_z, pose->far_z);
    } else {
        scene_look_at(view, cam->eye, cam->target, cam->up);
        scene_perspective(proj, cam->fov_y_deg, aspect, cam->near_z, cam->far_z);
    }
    scene_mat4_mul(vp, proj, view);

    shader_builtin_uniforms u, u1;
    shader_builtin_uniforms_init(&u);
    for (int j = 0; j < src->light_count && j < SCENE_MAX_LIGHTS; j++)
        for (int k = 0; k < 3; k++) {
            u.light_dir[j][k] = src->lights[j].dir[k];
            u.light_color[j][k] = src->lights[j].color[k];
        }
    memcpy(u.ambient, src->ambient, 3 * sizeof(float));
    u.fma = opts->fma > 0 ? opts->fma : 0;
    const float open = opts->set_shutter ? opts->shutter[0] : cam->shutter[0];
    const float close = opts->set_shutter ? opts->shutter[1] : cam->shutter[1];

    /* Opaque objects in file order, then blended ones far to near. */
    int *order = malloc(((size_t)src->object_count + 1) * sizeof *order);
    if (!order)
        return MOS_ERR_OUT_OF_MEMORY;
    const float *eye = pose ? pose->eye : cam->eye;
    const int n = draw_order(src->objects, src->object_count, eye, order);
    mos_result res = MOS_OK;
    for (int k = 0; k < n && res == MOS_OK; k++) {
        const int oi = order[k];
        const scene_object *o = &src->objects[oi];
        memcpy(u.base_color, o->color, sizeof u.base_color);
        u.alpha_cutoff = o->alpha_cutoff;
        /* Linear motion: the object's transform at shutter open and close. */
        const bool moving = (o->has_motion || o->velocity[0] != 0.0f || o->velocity[1] != 0.0f ||
                             o->velocity[2] != 0.0f) && close > open;
        float model0[16], model1[16];
        object_transform_at(o, moving ? open : 0.0f, model0);
        object_transform_at(o, close, model1);
        float det = scene_normal_matrix(u.normal_matrix, model0);
        scene_walk_draw d = {
            .object = o,
            .object_index = oi,
            .uniforms = &u,
            .uniforms_t1 = moving ? &u1 : NULL,
            .depth_test = true,
            .depth_write = o->depth_write,
            /* A mirroring transform turns front faces clockwise; there is no
             * front-face culling, so such objects draw both sides. */
            .cull = det < 0.0f ? MOS_CULL_NONE : o->cull,
            .blend = o->blend,
        };
        for (int iz = 0; iz < o->array_n[2]; iz++)
            for (int iy = 0; iy < o->array_n[1]; iy++)
                for (int ix = 0; ix < o->array_n[0]; ix++) {
                    memcpy(u.model, model0, sizeof u.model);
                    u.model[12] += (float)ix * o->array_d[0];
                    u.model[13] += (float)iy * o->array_d[1];
                    u.model[14] += (float)iz * o->array_d[2];
                    scene_mat4_mul(u.mvp, vp, u.model);
                    if (moving) {
                        u1 = u;
                        memcpy(u1.model, model1, sizeof u1.model);
                        u1.model[12] += (float)ix * o->array_d[0];
                        u1.model[13] += (float)iy * o->array_d[1];
                        u1.model[14] += (float)iz * o->array_d[2];
                        scene_mat4_mul(u1.mvp, vp, u1.model);
                    }
                    if (res == MOS_OK)
                        res = fn(&d, user);
                    d.instance++;
                }
    }
    free(order);
    return res;
}

/* Adds mesh and texture data to each walked draw. */
typedef struct export_walk {
    const scene *s;
    mos_result (*fn)(const scene_export_draw *d, void *user);
    void *user;
} export_walk;

static mos_result export_one(const scene_walk_draw *w, void *user)
{
    const export_walk *ew = user;
    const scene_object *o = w->object;
    const scene_mesh *m = &ew->s->meshes[o->mesh];
    scene_export_draw d = {
        .object = w->object_index,
        .instance = w->instance,
        .name = o->name,
        .shader = scene_shader_name(ew->s, o->shader),
        .vertex_shader = scene_glsl_of(ew->s, o->shader) >= 0 ? ew->s->glsl[scene_glsl_of(ew->s, o->shader)].vert_path
                                                              : NULL,
        .mesh = o->mesh,
        .verts = m->verts,
        .vert_count = m->vert_count,
        .indices = m->indices,
        .index_count = m->index_count,
        .texture = o->texture,
        .uniforms = w->uniforms,
        .uniforms_t1 = w->uniforms_t1,
        .depth_test = w->depth_test,
        .depth_write = w->depth_write,
        .cull = w->cull,
        .blend = w->blend,
    };
    if (o->texture >= 0 && o->texture < ew->s->image_count) {
        const scene_image *im = &ew->s->images[o->texture];
        d.tex_width = im->width;
        d.tex_height = im->height;
        d.tex_rgba = im->rgba;
        d.tex_wrap[0] = (mos_wrap)im->wrap[0];
        d.tex_wrap[1] = (mos_wrap)im->wrap[1];
        d.tex_mip = im->mip_linear ? MOS_MIP_LINEAR : MOS_MIP_NEAREST;
    } else {
        d.texture = -1;
    }
    return ew->fn(&d, ew->user);
}

mos_result scene_export_frame(const scene *s, const scene_draw_opts *opts,
                              mos_result (*fn)(const scene_export_draw *d, void *user), void *user)
{
    if (!s || !fn)
        return MOS_ERR_INVALID_ARGUMENT;
    const scene_walk_src src = {
        .objects = s->objects, .object_count = s->object_count,
        .cameras = s->cameras, .camera_count = s->camera_count,
        .lights = s->lights, .light_count = s->light_count, .ambient = s->ambient,
    };
    export_walk ew = { .s = s, .fn = fn, .user = user };
    return scene_walk(&src, opts, export_one, &ew);
}

mos_result scene_lens(const scene *s, const scene_draw_opts *opts, mos_blur_desc *b)
{
    if (!s)
        return MOS_ERR_INVALID_ARGUMENT;
    return scene_camera_lens(s->cameras, s->camera_count, opts, b);
}
