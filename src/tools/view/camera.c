/* camera.c — mosaic-view's free camera: orbit around the target, look and fly from the eye, pan, dolly, rays.
 * Fed by view.c (mouse and keys) and script.c (`orbit`, `camera`); read by render.c (scene_draw_opts.pose). */
#include "tools/view/view.h"

#include <math.h>
#include <string.h>

#define PI_F 3.14159265f
#define RAD_PER_PX 0.005f   /* mouse drag: radians per pixel */
#define MAX_PITCH 1.50f     /* keep away from the up axis (gimbal) */

static void sub3(float o[3], const float a[3], const float b[3])
{
    o[0] = a[0] - b[0], o[1] = a[1] - b[1], o[2] = a[2] - b[2];
}

static float dot3(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static float len3(const float a[3])
{
    return sqrtf(dot3(a, a));
}

static void norm3(float v[3])
{
    float l = len3(v);
    if (l > 0.0f)
        v[0] /= l, v[1] /= l, v[2] /= l;
}

static void cross3(float o[3], const float a[3], const float b[3])
{
    float r[3] = { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0] };
    memcpy(o, r, sizeof r);
}

/* V rotated by ANGLE radians around the unit AXIS (Rodrigues). */
static void rotate3(float v[3], const float axis[3], float angle)
{
    float c = cosf(angle), s = sinf(angle), k[3], r[3];
    cross3(k, axis, v);
    float d = dot3(axis, v) * (1.0f - c);
    for (int i = 0; i < 3; i++)
        r[i] = v[i] * c + k[i] * s + axis[i] * d;
    memcpy(v, r, sizeof r);
}

/* The camera's right and true-up unit vectors. */
static void basis(const view_camera *c, float f[3], float r[3], float u[3])
{
    sub3(f, c->pose.target, c->pose.eye);
    norm3(f);
    cross3(r, f, c->pose.up);
    norm3(r);
    cross3(u, r, f);
}

void cam_forward(const view_camera *c, float f[3])
{
    float r[3], u[3];
    basis(c, f, r, u);
}

void cam_reset(view_camera *c, const scene_pose *home)
{
    c->home = *home;
    c->pose = *home;
    c->moved = false;
}

/* Pitch of direction D above the plane normal to UP, radians. */
static float pitch_of(const float d[3], const float up_unit[3])
{
    float s = dot3(d, up_unit) / (len3(d) > 0 ? len3(d) : 1.0f);
    s = s > 1 ? 1 : s < -1 ? -1 : s;
    return asinf(s);
}

/* Turns OFFSET (a vector from a pivot) by YAW around the up axis, then
 * changes the pitch of the view direction by PITCH (clamped to +-MAX_PITCH);
 * OFFSET is the view direction itself (look) or its opposite (orbit). */
static void turn(const view_camera *c, float offset[3], float yaw, float pitch, bool offset_is_forward)
{
    float up[3] = { c->pose.up[0], c->pose.up[1], c->pose.up[2] };
    norm3(up);
    float f[3], r[3], u[3];
    basis(c, f, r, u);
    rotate3(offset, up, yaw);
    rotate3(r, up, yaw);
    float dir[3] = { offset[0], offset[1], offset[2] };
    if (!offset_is_forward)
        dir[0] = -dir[0], dir[1] = -dir[1], dir[2] = -dir[2];
    float now = pitch_of(dir, up);
    float want = now + pitch;
    want = want > MAX_PITCH ? MAX_PITCH : want < -MAX_PITCH ? -MAX_PITCH : want;
    /* A positive turn around right = forward x up raises the view direction
     * and its opposite alike. */
    rotate3(offset, r, want - now);
}

void cam_orbit(view_camera *c, float dx_px, float dy_px)
{
    float off[3];
    sub3(off, c->pose.eye, c->pose.target);
    turn(c, off, dx_px * RAD_PER_PX, -dy_px * RAD_PER_PX, false);
    for (int i = 0; i < 3; i++)
        c->pose.eye[i] = c->pose.target[i] + off[i];
    c->moved = true;
}

void cam_look(view_camera *c, float dx_px, float dy_px)
{
    float fwd[3];
    sub3(fwd, c->pose.target, c->pose.eye);
    turn(c, fwd, -dx_px * RAD_PER_PX, -dy_px * RAD_PER_PX, true);
    for (int i = 0; i < 3; i++)
        c->pose.target[i] = c->pose.eye[i] + fwd[i];
    c->moved = true;
}

void cam_pan(view_camera *c, float dx_px, float dy_px, int height_px)
{
    float f[3], r[3], u[3], d[3];
    basis(c, f, r, u);
    sub3(d, c->pose.target, c->pose.eye);
    /* One pixel at the target's distance. */
    float px = 2.0f * len3(d) * tanf(0.5f * c->pose.fov_y_deg * PI_F / 180.0f) /
               (float)(height_px > 0 ? height_px : 1);
    for (int i = 0; i < 3; i++) {
        float m = -dx_px * px * r[i] + dy_px * px * u[i];
        c->pose.eye[i] += m;
        c->pose.target[i] += m;
    }
    c->moved = true;
}

void cam_dolly(view_camera *c, float steps)
{
    float off[3];
    sub3(off, c->pose.eye, c->pose.target);
    float k = powf(0.9f, steps);
    float l = len3(off);
    if (l * k < 1e-3f || l * k > 1e7f)
        return;
    for (int i = 0; i < 3; i++)
        c->pose.eye[i] = c->pose.target[i] + off[i] * k;
    c->moved = true;
}

void cam_fly(view_camera *c, float forward, float right, float up)
{
    float f[3], r[3], u[3], d[3];
    basis(c, f, r, u);
    sub3(d, c->pose.target, c->pose.eye);
    float l = len3(d);
    float wu[3] = { c->pose.up[0], c->pose.up[1], c->pose.up[2] };
    norm3(wu);
    for (int i = 0; i < 3; i++) {
        float m = (forward * f[i] + right * r[i] + up * wu[i]) * l;
        c->pose.eye[i] += m;
        c->pose.target[i] += m;
    }
    c->moved = true;
}

void cam_ray(const view_camera *c, float x_px, float y_px, int w, int h, float origin[3], float dir[3])
{
    float f[3], r[3], u[3];
    basis(c, f, r, u);
    float t = tanf(0.5f * c->pose.fov_y_deg * PI_F / 180.0f);
    float aspect = h > 0 ? (float)w / (float)h : 1.0f;
    float sx = (2.0f * x_px / (float)(w > 0 ? w : 1) - 1.0f) * t * aspect;
    float sy = (1.0f - 2.0f * y_px / (float)(h > 0 ? h : 1)) * t;
    for (int i = 0; i < 3; i++) {
        origin[i] = c->pose.eye[i];
        dir[i] = f[i] + sx * r[i] + sy * u[i];
    }
    norm3(dir);
}
