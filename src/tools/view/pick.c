/* pick.c — click to focus: the nearest surface under a pixel, by casting a ray through the scene's triangles.
 * Fed by view.c (a click) and script.c (`click X Y`); walks the frame's draws with scene_export_frame. */
#include "tools/view/view.h"

#include <float.h>
#include <math.h>

typedef struct pick_ray {
    float o[3], d[3];
    float best;  /* nearest hit so far (ray parameter) */
} pick_ray;

static void xform_point(const float m[16], const float p[3], float out[3])
{
    for (int r = 0; r < 3; r++)
        out[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
}

/* Moller-Trumbore, both faces; the hit distance or -1. */
static float ray_triangle(const pick_ray *ray, const float a[3], const float b[3], const float c[3])
{
    float e1[3], e2[3], p[3], t[3], q[3];
    for (int i = 0; i < 3; i++)
        e1[i] = b[i] - a[i], e2[i] = c[i] - a[i], t[i] = ray->o[i] - a[i];
    p[0] = ray->d[1] * e2[2] - ray->d[2] * e2[1];
    p[1] = ray->d[2] * e2[0] - ray->d[0] * e2[2];
    p[2] = ray->d[0] * e2[1] - ray->d[1] * e2[0];
    float det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    if (fabsf(det) < 1e-12f)
        return -1;
    float inv = 1.0f / det;
    float u = (t[0] * p[0] + t[1] * p[1] + t[2] * p[2]) * inv;
    if (u < 0 || u > 1)
        return -1;
    q[0] = t[1] * e1[2] - t[2] * e1[1];
    q[1] = t[2] * e1[0] - t[0] * e1[2];
    q[2] = t[0] * e1[1] - t[1] * e1[0];
    float v = (ray->d[0] * q[0] + ray->d[1] * q[1] + ray->d[2] * q[2]) * inv;
    if (v < 0 || u + v > 1)
        return -1;
    return (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv;
}

static mos_result pick_draw(const scene_export_draw *d, void *user)
{
    pick_ray *ray = user;
    const float *m = d->uniforms->model;
    for (uint32_t i = 0; i + 2 < d->index_count; i += 3) {
        float v[3][3];
        int ok = 1;
        for (int k = 0; k < 3; k++) {
            uint32_t idx = d->indices[i + (uint32_t)k];
            if (idx >= d->vert_count) {
                ok = 0;
                break;
            }
            xform_point(m, d->verts + (size_t)idx * (size_t)d->vertex_stride, v[k]);
        }
        if (!ok)
            continue;
        float t = ray_triangle(ray, v[0], v[1], v[2]);
        if (t > 0 && t < ray->best)
            ray->best = t;
    }
    return MOS_OK;
}

bool pick_depth(const view_app *app, float x_px, float y_px, float *dist)
{
    if (!app->sc)
        return false;
    scene_draw_opts dopts;
    vr_draw_opts(app, &dopts);
    /* The camera of the image (the view's own when it was not moved). */
    view_camera cam = app->cam;
    if (!cam.moved)
        cam.pose = cam.home;
    pick_ray ray = { .best = FLT_MAX };
    cam_ray(&cam, x_px, y_px, app->rt_w, app->rt_h, ray.o, ray.d);
    if (scene_export_frame(app->sc, &dopts, pick_draw, &ray) != MOS_OK || ray.best == FLT_MAX)
        return false;
    float f[3];
    cam_forward(&cam, f);
    *dist = ray.best * (ray.d[0] * f[0] + ray.d[1] * f[1] + ray.d[2] * f[2]);
    return *dist > 0;
}
