/* setup.c — triangle setup from snapped window vertices: zero-area,
 * back-face and off-screen culling, edge functions with the top-left rule,
 * and the depth, 1/w and varying/w planes.
 * Fed by the front-end loop (directly, or after clipping); feeds coarse binning. */
#include "frontend/frontend.h"

void fe_setup_planes(fe_tri *t, float x0, float y0, float d1x, float d1y, float d2x, float d2y, float inv_det,
                     const float z[3], const float inv_w[3], const float *const var[3], int varying_count)
{
    float ax = d2y * inv_det, ay = -d1y * inv_det;  /* fx = (f1 - f0) * ax + (f2 - f0) * ay */
    float bx = -d2x * inv_det, by = d1x * inv_det;  /* fy = (f1 - f0) * bx + (f2 - f0) * by */
#define FE_PLANE(out, f0, f1, f2)                                   \
    do {                                                            \
        float g1 = (f1) - (f0), g2 = (f2) - (f0);                   \
        (out)[0] = (f0);                                            \
        (out)[1] = g1 * ax + g2 * ay;                               \
        (out)[2] = g1 * bx + g2 * by;                               \
    } while (0)
    t->x0 = x0;
    t->y0 = y0;
    FE_PLANE(t->z, z[0], z[1], z[2]);
    FE_PLANE(t->inv_w, inv_w[0], inv_w[1], inv_w[2]);
    t->varying_count = (uint16_t)varying_count;
    for (int k = 0; k < varying_count; k++)
        FE_PLANE(t->varying[k], var[0][k] * inv_w[0], var[1][k] * inv_w[1], var[2][k] * inv_w[2]);
#undef FE_PLANE
}

static int32_t floor_div256(int32_t v) { return v >= 0 ? v / 256 : -((-v + 255) / 256); }

bool fe_setup_triangle(const fe_post *const post[3], const float *const var[3], const fe_draw *d,
                       const fe_viewport *vp, fe_tri *t)
{
    int64_t X[3] = {post[0]->x_q8, post[1]->x_q8, post[2]->x_q8};
    int64_t Y[3] = {post[0]->y_q8, post[1]->y_q8, post[2]->y_q8};
    int64_t area2 = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
    if (area2 == 0) return false;
    int idx[3] = {0, 1, 2};
    if (area2 < 0) {  /* clockwise in window space (y up) */
        if (d->cull == MOS_CULL_BACK) return false;
        idx[1] = 2;
        idx[2] = 1;
        area2 = -area2;
    }

    int32_t min_x = (int32_t)X[0], max_x = (int32_t)X[0], min_y = (int32_t)Y[0], max_y = (int32_t)Y[0];
    for (int i = 1; i < 3; i++) {
        if (X[i] < min_x) min_x = (int32_t)X[i];
        if (X[i] > max_x) max_x = (int32_t)X[i];
        if (Y[i] < min_y) min_y = (int32_t)Y[i];
        if (Y[i] > max_y) max_y = (int32_t)Y[i];
    }
    /* Samples of pixel p lie in [p*256, p*256 + 255]: keep the pixels whose
     * sample square meets the bounding box. */
    int32_t px0 = floor_div256(min_x), px1 = floor_div256(max_x);
    int32_t py0 = floor_div256(min_y), py1 = floor_div256(max_y);
    if (px0 < 0) px0 = 0;
    if (py0 < 0) py0 = 0;
    if (px1 > vp->width - 1) px1 = vp->width - 1;
    if (py1 > vp->height - 1) py1 = vp->height - 1;
    if (px0 > px1 || py0 > py1) return false;  /* off-screen */

    t->draw = d;
    t->flags = max_x - min_x < FE_TRI_SMALL_PX * FRAME_SUBPIXELS && max_y - min_y < FE_TRI_SMALL_PX * FRAME_SUBPIXELS
                   ? FE_TRI_SMALL
                   : 0;
    t->min_x = px0;
    t->min_y = py0;
    t->max_x = px1;
    t->max_y = py1;
    for (int e = 0; e < 3; e++) {
        int ia = idx[e], ib = idx[(e + 1) % 3];
        int64_t a = Y[ia] - Y[ib], b = X[ib] - X[ia];
        int64_t c = -(a * X[ia] + b * Y[ia]);
        /* Top-left rule (y up, counter-clockwise): a left edge runs downwards
         * (a > 0), a top edge runs leftwards along a row (a == 0, b < 0).
         * Samples exactly on other edges are not covered. */
        bool top_left = a > 0 || (a == 0 && b < 0);
        if (!top_left) c -= 1;
        t->a[e] = (int32_t)a;
        t->b[e] = (int32_t)b;
        t->c[e] = c;
    }
    /* Planes over window pixels from vertex 0 (in the order the edges use). */
    const fe_post *p0 = post[idx[0]], *p1 = post[idx[1]], *p2 = post[idx[2]];
    const float s = 1.0f / FRAME_SUBPIXELS;
    float d1x = (float)(X[idx[1]] - X[idx[0]]) * s, d1y = (float)(Y[idx[1]] - Y[idx[0]]) * s;
    float d2x = (float)(X[idx[2]] - X[idx[0]]) * s, d2y = (float)(Y[idx[2]] - Y[idx[0]]) * s;
    float inv_det = (float)((double)(FRAME_SUBPIXELS * FRAME_SUBPIXELS) / (double)area2);
    const float z[3] = {p0->z, p1->z, p2->z}, iw[3] = {p0->inv_w, p1->inv_w, p2->inv_w};
    const float *const v[3] = {var[idx[0]], var[idx[1]], var[idx[2]]};
    t->blur = NULL;
    fe_setup_planes(t, (float)X[idx[0]] * s, (float)Y[idx[0]] * s, d1x, d1y, d2x, d2y, inv_det, z, iw, v, d->varying_count);
    return true;
}
