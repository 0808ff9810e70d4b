/* xform.c — the scene module's transforms: column-major 4x4 matrices, look-at, perspective, normal matrix, a camera
 * path's pose at a scene time.  Fed by parse_object.c (object transforms), export.c (each draw's uniforms) and
 * scene.c (view poses); no rendering here. */
#include <math.h>
#include <string.h>

#include "scene/scene_priv.h"

#define DEG2RAD 0.017453292519943295f

/* ---- column-major 4x4 matrices (m[col * 4 + row]) ---------------------------- */

void scene_mat4_identity(float m[16])
{
    memset(m, 0, 16 * sizeof(float));
    m[0] = m[5] = m[10] = m[15] = 1.0f;
}

void scene_mat4_mul(float out[16], const float a[16], const float b[16])
{
    float r[16];
    for (int c = 0; c < 4; c++)
        for (int w = 0; w < 4; w++)
            r[c * 4 + w] = a[w] * b[c * 4] + a[4 + w] * b[c * 4 + 1] + a[8 + w] * b[c * 4 + 2] +
                           a[12 + w] * b[c * 4 + 3];
    memcpy(out, r, sizeof r);
}

void scene_mat4_translate(float m[16], float x, float y, float z)
{
    scene_mat4_identity(m);
    m[12] = x, m[13] = y, m[14] = z;
}

void scene_mat4_scale(float m[16], float x, float y, float z)
{
    scene_mat4_identity(m);
    m[0] = x, m[5] = y, m[10] = z;
}

void scene_mat4_rotate(float m[16], float deg, float x, float y, float z)
{
    float len = sqrtf(x * x + y * y + z * z);
    scene_mat4_identity(m);
    if (!(len > 0.0f))
        return;
    x /= len, y /= len, z /= len;
    float c = cosf(deg * DEG2RAD), s = sinf(deg * DEG2RAD), k = 1.0f - c;
    m[0] = x * x * k + c, m[4] = x * y * k - z * s, m[8] = x * z * k + y * s;
    m[1] = y * x * k + z * s, m[5] = y * y * k + c, m[9] = y * z * k - x * s;
    m[2] = z * x * k - y * s, m[6] = z * y * k + x * s, m[10] = z * z * k + c;
}

static void normalize3(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0f)
        v[0] /= l, v[1] /= l, v[2] /= l;
}

static void cross3(float o[3], const float a[3], const float b[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* OpenGL gluLookAt: right-handed, the camera looks down -z. */
void scene_look_at(float m[16], const float eye[3], const float target[3], const float up[3])
{
    float f[3] = { target[0] - eye[0], target[1] - eye[1], target[2] - eye[2] }, s[3], u[3];
    normalize3(f);
    cross3(s, f, up);
    normalize3(s);
    cross3(u, s, f);
    scene_mat4_identity(m);
    for (int i = 0; i < 3; i++) {
        m[i * 4 + 0] = s[i];
        m[i * 4 + 1] = u[i];
        m[i * 4 + 2] = -f[i];
    }
    m[12] = -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]);
    m[13] = -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
    m[14] = f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2];
}

/* OpenGL gluPerspective: z in [-w, w] between near and far. */
void scene_perspective(float m[16], float fov_y_deg, float aspect, float n, float f)
{
    float t = 1.0f / tanf(0.5f * fov_y_deg * DEG2RAD);
    memset(m, 0, 16 * sizeof(float));
    m[0] = t / aspect;
    m[5] = t;
    m[10] = (f + n) / (n - f);
    m[11] = -1.0f;
    m[14] = 2.0f * f * n / (n - f);
}

/* Inverse transpose of the upper 3x3 of M into 3 padded columns; returns the
 * determinant (sign tells whether the transform mirrors). */
float scene_normal_matrix(float out[12], const float m[16])
{
    const float a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6], i = m[10];
    const float A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
    const float D = -(b * i - c * h), E = a * i - c * g, F = -(a * h - b * g);
    const float G = b * f - c * e, H = -(a * f - c * d), I = a * e - b * d;
    const float det = a * A + b * B + c * C;
    /* inverse = adj / det; its transpose has the cofactors in place.  Scaling
     * by 1/|det| only changes the length, which the shader renormalizes, so
     * only the sign matters. */
    const float k = det < 0.0f ? -1.0f : 1.0f;
    memset(out, 0, 12 * sizeof(float));
    out[0] = A * k, out[1] = B * k, out[2] = C * k;
    out[4] = D * k, out[5] = E * k, out[6] = F * k;
    out[8] = G * k, out[9] = H * k, out[10] = I * k;
    return det;
}

/* ---- camera paths ------------------------------------------------------------ */

void scene_camera_pose_at(const scene_camera *c, double tau, float eye[3], float target[3])
{
    const scene_camera_key *k = c->path;
    const int n = c->path_count;
    const float *e = c->eye, *g = c->target;
    if (k && n > 0) {
        if (!(tau > k[0].time)) {  /* before the first key (NaN too): held */
            e = k[0].eye, g = k[0].target;
        } else if (tau >= k[n - 1].time) {  /* after the last: held */
            e = k[n - 1].eye, g = k[n - 1].target;
        } else {
            int lo = 0, hi = n - 1;  /* k[lo].time <= tau < k[hi].time */
            while (hi - lo > 1) {
                const int mid = lo + (hi - lo) / 2;
                *(k[mid].time <= tau ? &lo : &hi) = mid;
            }
            const double u = (tau - k[lo].time) / (k[hi].time - k[lo].time);
            for (int i = 0; i < 3; i++) {
                eye[i] = (float)(k[lo].eye[i] + u * ((double)k[hi].eye[i] - k[lo].eye[i]));
                target[i] = (float)(k[lo].target[i] + u * ((double)k[hi].target[i] - k[lo].target[i]));
            }
            return;
        }
    }
    memcpy(eye, e, 3 * sizeof(float));
    memcpy(target, g, 3 * sizeof(float));
}
