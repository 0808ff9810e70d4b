/* export.c — the one walk over a frame's draws (camera, per-instance matrices, lights, state), at a scene time.
 * Fed by scene_draw (draw.c, libmosaic) and by scene_export_frame's callers (bench/llvmpipe). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_priv.h"

/* ---- scene time: objects at time tau (frames) -------------------------------- */

/* opts->time as the walk uses it: NaN and negative times are 0, later than
 * SCENE_MAX_TIME is SCENE_MAX_TIME. */
static double scene_opts_time(const scene_draw_opts *opts)
{
    const double t = opts->time;
    return t > 0.0 ? (t < SCENE_MAX_TIME ? t : SCENE_MAX_TIME) : 0.0;
}

/* out = a * b (column-major 4x4, double); out may be a or b. */
static void mul4d(double out[16], const double a[16], const double b[16])
{
    double r[16];
    for (int c = 0; c < 4; c++)
        for (int w = 0; w < 4; w++)
            r[c * 4 + w] = a[w] * b[c * 4] + a[4 + w] * b[c * 4 + 1] + a[8 + w] * b[c * 4 + 2] +
                           a[12 + w] * b[c * 4 + 3];
    memcpy(out, r, sizeof r);
}

/* The inverse of the affine M (last row 0 0 0 1) in double; false when M is
 * not affine or has no finite inverse. */
static bool affine_inverse(double inv[16], const float m[16])
{
    if (m[3] != 0.0f || m[7] != 0.0f || m[11] != 0.0f || m[15] != 1.0f)
        return false;
    const double a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6], i = m[10];
    const double A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
    const double D = -(b * i - c * h), E = a * i - c * g, F = -(a * h - b * g);
    const double G = b * f - c * e, H = -(a * f - c * d), I = a * e - b * d;
    const double det = a * A + b * B + c * C;
    if (!(det != 0.0) || !isfinite(det) || !isfinite(1.0 / det))
        return false;
    const double k = 1.0 / det;
    memset(inv, 0, 16 * sizeof(double));
    inv[0] = A * k, inv[4] = D * k, inv[8] = G * k;   /* adj / det: the cofactors transposed */
    inv[1] = B * k, inv[5] = E * k, inv[9] = H * k;
    inv[2] = C * k, inv[6] = F * k, inv[10] = I * k;
    for (int r = 0; r < 3; r++)
        inv[12 + r] = -(inv[r] * m[12] + inv[4 + r] * m[13] + inv[8 + r] * m[14]);
    inv[15] = 1.0;
    return true;
}

/* Object -> world at scene time TAU >= 0 (frames).  Within the first frame
 * (TAU <= 1) the transforms at 0 and 1 blended linearly, as written, plus the
 * velocity.  Later the change over one frame, D = xform1 * inverse(xform),
 * goes on: between A_n = D^n xform and A_n+1 (n = floor(TAU)) linearly, in
 * double, A_1 being xform1 itself; the velocity times TAU on the translation.
 * An xform without an inverse holds xform1 after the first frame. */
static void object_transform_at(const scene_object *o, double tau, float m[16])
{
    if (!(tau > 1.0)) {  /* bit for bit the single-frame blend (t = 0 and 1 exactly the written ends) */
        const float t = tau > 0.0 ? (float)tau : 0.0f;
        for (int k = 0; k < 16; k++) m[k] = o->xform[k] + t * (o->xform1[k] - o->xform[k]);
        for (int k = 0; k < 3; k++) m[12 + k] += t * o->velocity[k];
        return;
    }
    const double n = floor(tau), f = tau - n;
    double a[16], b[16], inv[16];
    for (int k = 0; k < 16; k++)
        a[k] = b[k] = o->xform1[k];  /* xform itself without motion lines (the parser copies it) */
    if (o->has_motion && affine_inverse(inv, o->xform)) {
        double step[16], d[16], p[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
        mul4d(step, b, inv);  /* D */
        memcpy(d, step, sizeof d);
        for (uint64_t e = (uint64_t)n - 1; e; e >>= 1) {  /* p = D^(n-1), by squaring */
            if (e & 1)
                mul4d(p, p, d);
            if (e > 1)
                mul4d(d, d, d);
        }
        mul4d(a, p, b);     /* A_n = D^(n-1) xform1 */
        mul4d(b, step, a);  /* A_n+1 = D A_n */
    }
    for (int k = 0; k < 16; k++) m[k] = (float)(a[k] + f * (b[k] - a[k]));
    for (int k = 0; k < 3; k++)
        m[12 + k] = (float)(a[12 + k] + f * (b[12 + k] - a[12 + k]) + tau * o->velocity[k]);
}

/* ---- the walk ---------------------------------------------------------------- */

/* Squared distance from EYE to the centre of O's first instance at scene time TAU. */
static float eye_distance2(const scene_object *o, double tau, const float eye[3])
{
    float m[16];
    if (tau > 0.0)
        object_transform_at(o, tau, m);
    else
        memcpy(m, o->xform, sizeof m);
    float d2 = 0.0f;
    for (int r = 0; r < 3; r++) {
        float w = m[r] * o->center[0] + m[4 + r] * o->center[1] + m[8 + r] * o->center[2] + m[12 + r] - eye[r];
        d2 += w * w;
    }
    return d2;
}

/* The order objects are drawn in (into order[0..count)): opaque ones in
 * file order, then blended ones from the farthest to the nearest centre at
 * scene time TAU (file order among equals), as blending over what is behind
 * asks.  DIST: room for COUNT distances. */
static int draw_order(const scene_object *objs, int count, const float eye[3], double tau, int *order, float *dist)
{
    int n = 0;
    for (int i = 0; i < count; i++)
        if (objs[i].blend == MOS_BLEND_OPAQUE)
            order[n++] = i;
    const int first = n;
    for (int i = 0; i < count; i++) {
        if (objs[i].blend == MOS_BLEND_OPAQUE)
            continue;
        const float d = dist[i] = eye_distance2(&objs[i], tau, eye);
        int k = n++;
        for (; k > first && dist[order[k - 1]] < d; k--)  /* insertion, stable */
            order[k] = order[k - 1];
        order[k] = i;
    }
    return n;
}

/* The shutter of the frame: OPTS' override, else the camera's.  A shutter
 * that does not stay open is the instant the frame starts (open = close =
 * 0), for the objects and the camera alike, as frame 0 has always drawn it. */
static void frame_shutter(const scene_camera *c, const scene_draw_opts *opts, float *open, float *close)
{
    *open = opts->set_shutter ? opts->shutter[0] : c->shutter[0];
    *close = opts->set_shutter ? opts->shutter[1] : c->shutter[1];
    if (!(*close > *open))
        *open = *close = 0.0f;
}

mos_result scene_camera_lens(const scene_camera *cameras, int camera_count, const scene_draw_opts *opts,
                             mos_blur_desc *b)
{
    if (!cameras || !opts || !b || opts->view < 0 || opts->view >= camera_count)
        return MOS_ERR_INVALID_ARGUMENT;
    const scene_camera *c = &cameras[opts->view];
    float open, close, mid_eye[3], mid_target[3];  /* a path's pose in the middle of the shutter interval */
    frame_shutter(c, opts, &open, &close);
    scene_camera_pose_at(c, scene_opts_time(opts) + 0.5 * ((double)open + close), mid_eye, mid_target);
    const float *eye = opts->pose ? opts->pose->eye : mid_eye;
    const float *target = opts->pose ? opts->pose->target : mid_target;
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

/* The frame's view: scene times t0 (shutter open) and t1 (close) of the walk. */
typedef struct walk_view {
    double t0, t1, start;  /* start: the frame's scene time (the blended objects' order) */
    float vp0[16], vp1[16];  /* view-projection at open and close */
    float eye[3];            /* at start: where blended objects are sorted from */
    bool moving;             /* the camera's path differs between open and close */
} walk_view;

/* Fills WV's matrices for CAM (or POSE, which holds still) at ASPECT. */
static void walk_view_init(walk_view *wv, const scene_camera *cam, const scene_pose *pose, float aspect)
{
    float view[16], proj[16], e0[3], g0[3], e1[3], g1[3], target[3];
    wv->moving = false;
    if (pose) {
        scene_look_at(view, pose->eye, pose->target, pose->up);
        scene_perspective(proj, pose->fov_y_deg, aspect, pose->near_z, pose->far_z);
        scene_mat4_mul(wv->vp0, proj, view);
        memcpy(wv->vp1, wv->vp0, sizeof wv->vp1);
        memcpy(wv->eye, pose->eye, sizeof wv->eye);
        return;
    }
    scene_camera_pose_at(cam, wv->t0, e0, g0);
    scene_camera_pose_at(cam, wv->t1, e1, g1);
    scene_camera_pose_at(cam, wv->start, wv->eye, target);
    scene_look_at(view, e0, g0, cam->up);
    scene_perspective(proj, cam->fov_y_deg, aspect, cam->near_z, cam->far_z);
    scene_mat4_mul(wv->vp0, proj, view);
    for (int i = 0; i < 3; i++)
        wv->moving = wv->moving || e0[i] != e1[i] || g0[i] != g1[i];
    if (wv->moving) {
        scene_look_at(view, e1, g1, cam->up);
        scene_mat4_mul(wv->vp1, proj, view);
    } else {
        memcpy(wv->vp1, wv->vp0, sizeof wv->vp1);
    }
}

/* Calls FN for each instance of object OI: U's matrices at open (U1's at
 * close when the object or the camera moves). */
static mos_result walk_object(const scene_object *o, int oi, const walk_view *wv, shader_builtin_uniforms *u,
                              mos_result (*fn)(const scene_walk_draw *d, void *user), void *user)
{
    memcpy(u->base_color, o->color, sizeof u->base_color);
    u->alpha_cutoff = o->alpha_cutoff;
    /* Linear motion: the object's transform at shutter open and close (a
     * still object's is the same bits at any time). */
    const bool moving = (o->has_motion || o->velocity[0] != 0.0f || o->velocity[1] != 0.0f ||
                         o->velocity[2] != 0.0f) && wv->t1 > wv->t0;
    float model0[16], model1[16];
    object_transform_at(o, wv->t0, model0);
    if (moving)
        object_transform_at(o, wv->t1, model1);
    else
        memcpy(model1, model0, sizeof model1);
    const bool motion = moving || wv->moving;
    shader_builtin_uniforms u1;
    float det = scene_normal_matrix(u->normal_matrix, model0);
    scene_walk_draw d = {
        .object = o,
        .object_index = oi,
        .uniforms = u,
        .uniforms_t1 = motion ? &u1 : NULL,
        .depth_test = true,
        .depth_write = o->depth_write,
        /* A mirroring transform turns front faces clockwise; there is no
         * front-face culling, so such objects draw both sides. */
        .cull = det < 0.0f ? MOS_CULL_NONE : o->cull,
        .blend = o->blend,
    };
    mos_result res = MOS_OK;
    for (int iz = 0; iz < o->array_n[2]; iz++)
        for (int iy = 0; iy < o->array_n[1]; iy++)
            for (int ix = 0; ix < o->array_n[0]; ix++) {
                memcpy(u->model, model0, sizeof u->model);
                u->model[12] += (float)ix * o->array_d[0];
                u->model[13] += (float)iy * o->array_d[1];
                u->model[14] += (float)iz * o->array_d[2];
                scene_mat4_mul(u->mvp, wv->vp0, u->model);
                if (motion) {
                    u1 = *u;
                    memcpy(u1.model, model1, sizeof u1.model);
                    u1.model[12] += (float)ix * o->array_d[0];
                    u1.model[13] += (float)iy * o->array_d[1];
                    u1.model[14] += (float)iz * o->array_d[2];
                    scene_mat4_mul(u1.mvp, wv->vp1, u1.model);
                }
                if (res == MOS_OK)
                    res = fn(&d, user);
                d.instance++;
            }
    return res;
}

mos_result scene_walk(const scene_walk_src *src, const scene_draw_opts *opts,
                      mos_result (*fn)(const scene_walk_draw *d, void *user), void *user)
{
    if (!src || !opts || !fn || opts->view < 0 || opts->view >= src->camera_count)
        return MOS_ERR_INVALID_ARGUMENT;
    const scene_camera *cam = &src->cameras[opts->view];
    float aspect = opts->width > 0 && opts->height > 0 ? (float)opts->width / (float)opts->height : 1.0f;
    float open, close;
    frame_shutter(cam, opts, &open, &close);
    /* The frame sees scene times T + open .. T + close (the first frame, T = 0, the scene as written). */
    const double T = scene_opts_time(opts);
    walk_view wv = { .t0 = T + open, .t1 = T + close, .start = T };
    walk_view_init(&wv, cam, opts->pose, aspect);

    shader_builtin_uniforms u;
    shader_builtin_uniforms_init(&u);
    for (int j = 0; j < src->light_count && j < SCENE_MAX_LIGHTS; j++)
        for (int k = 0; k < 3; k++) {
            u.light_dir[j][k] = src->lights[j].dir[k];
            u.light_color[j][k] = src->lights[j].color[k];
        }
    memcpy(u.ambient, src->ambient, 3 * sizeof(float));
    u.fma = opts->fma > 0 ? opts->fma : 0;

    /* Opaque objects in file order, then blended ones far to near. */
    int *order = malloc(((size_t)src->object_count + 1) * sizeof *order);
    float *dist = malloc(((size_t)src->object_count + 1) * sizeof *dist);
    mos_result res = order && dist ? MOS_OK : MOS_ERR_OUT_OF_MEMORY;
    const int n = res == MOS_OK ? draw_order(src->objects, src->object_count, wv.eye, T, order, dist) : 0;
    for (int k = 0; k < n && res == MOS_OK; k++)
        res = walk_object(&src->objects[order[k]], order[k], &wv, &u, fn, user);
    free(order);
    free(dist);
    return res;
}

/* Adds mesh and texture data to each walked draw. */
typedef struct export_walk {
    const scene *s;
    mos_result (*fn)(const scene_export_draw *d, void *user);
    void *user;
} export_walk;

/* Image IMAGE of S (its size, pixels and sampling) for a draw: IMAGE, or -1 when there is none. */
static int export_image(const scene *s, int image, int *w, int *h, const uint8_t **rgba, mos_wrap wrap[2],
                        mos_mip_filter *mip)
{
    if (image < 0 || image >= s->image_count)
        return -1;
    const scene_image *im = &s->images[image];
    *w = im->width;
    *h = im->height;
    *rgba = im->rgba;
    wrap[0] = (mos_wrap)im->wrap[0];
    wrap[1] = (mos_wrap)im->wrap[1];
    *mip = im->mip_linear ? MOS_MIP_LINEAR : MOS_MIP_NEAREST;
    return image;
}

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
        .vertex_stride = (int)scene_mesh_stride(m),
        .vert_count = m->vert_count,
        .indices = m->indices,
        .index_count = m->index_count,
        .uniforms = w->uniforms,
        .uniforms_t1 = w->uniforms_t1,
        .depth_test = w->depth_test,
        .depth_write = w->depth_write,
        .cull = w->cull,
        .blend = w->blend,
    };
    d.texture = export_image(ew->s, o->texture, &d.tex_width, &d.tex_height, &d.tex_rgba, d.tex_wrap, &d.tex_mip);
    d.lightmap = export_image(ew->s, o->lightmap, &d.lm_width, &d.lm_height, &d.lm_rgba, d.lm_wrap, &d.lm_mip);
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
