/* setup.c — triangle setup: viewport transform, snapping to 24.8 fixed
 * point, zero-area / back-face / off-screen culling, edge functions with the
 * top-left rule, and the depth, 1/w and varying planes.
 * Fed by clipping; feeds the coarse binning pass. */
#include <math.h>

#include "frontend/frontend.h"
#include "raster/raster.h"

static int32_t floor_div256(int64_t v) { return (int32_t)(v >= 0 ? v / 256 : -((-v + 255) / 256)); }

/* Plane through three (x, y, f) points as f0 + fx * (x - x0) + fy * (y - y0). */
static void plane3(float out[3], const double x[3], const double y[3], double f0, double f1, double f2,
                   double inv_det)
{
    double d1x = x[1] - x[0], d1y = y[1] - y[0], d2x = x[2] - x[0], d2y = y[2] - y[0];
    out[0] = (float)f0;
    out[1] = (float)(((f1 - f0) * d2y - (f2 - f0) * d1y) * inv_det);
    out[2] = (float)(((f2 - f0) * d1x - (f1 - f0) * d2x) * inv_det);
}

fe_tri *fe_setup_triangle(const fe_vertex v[3], const fe_draw *d, int width, int height, arena *ar,
                          bool *out_of_memory)
{
    int64_t X[3], Y[3];
    double inv_w[3], zw[3];
    for (int i = 0; i < 3; i++) {
        double w = v[i].clip[3];
        inv_w[i] = 1.0 / w;
        double xw = (v[i].clip[0] * inv_w[i] * 0.5 + 0.5) * width;
        double yw = (v[i].clip[1] * inv_w[i] * 0.5 + 0.5) * height;
        X[i] = llrint(xw * RASTER_SUBPIXELS);
        Y[i] = llrint(yw * RASTER_SUBPIXELS);
        zw[i] = v[i].clip[2] * inv_w[i] * 0.5 + 0.5;
    }
    int64_t area2 = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
    if (area2 == 0) return NULL;
    int i0 = 0, i1 = 1, i2 = 2;
    if (area2 < 0) {  /* clockwise in window space (y up) */
        if (d->cull == MOS_CULL_BACK) return NULL;
        i1 = 2;
        i2 = 1;
        area2 = -area2;
    }
    const int idx[3] = {i0, i1, i2};

    int64_t min_x = X[0], max_x = X[0], min_y = Y[0], max_y = Y[0];
    for (int i = 1; i < 3; i++) {
        if (X[i] < min_x) min_x = X[i];
        if (X[i] > max_x) max_x = X[i];
        if (Y[i] < min_y) min_y = Y[i];
        if (Y[i] > max_y) max_y = Y[i];
    }
    /* Samples of pixel p lie in [p*256, p*256 + 255]: keep the pixels whose
     * sample square meets the bounding box. */
    int32_t px0 = floor_div256(min_x), px1 = floor_div256(max_x);
    int32_t py0 = floor_div256(min_y), py1 = floor_div256(max_y);
    if (px0 < 0) px0 = 0;
    if (py0 < 0) py0 = 0;
    if (px1 > width - 1) px1 = width - 1;
    if (py1 > height - 1) py1 = height - 1;
    if (px0 > px1 || py0 > py1) return NULL;  /* off-screen */

    size_t size = sizeof(fe_tri) + (size_t)d->varying_count * sizeof(float[3]);
    fe_tri *t = arena_alloc(ar, size, 64);
    if (!t) {
        *out_of_memory = true;
        return NULL;
    }
    t->draw = d;
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
    double x[3], y[3];
    for (int i = 0; i < 3; i++) {
        x[i] = (double)X[idx[i]] / RASTER_SUBPIXELS;
        y[i] = (double)Y[idx[i]] / RASTER_SUBPIXELS;
    }
    double inv_det = (double)(RASTER_SUBPIXELS * RASTER_SUBPIXELS) / (double)area2;
    t->x0 = (float)x[0];
    t->y0 = (float)y[0];
    plane3(t->z, x, y, zw[idx[0]], zw[idx[1]], zw[idx[2]], inv_det);
    plane3(t->inv_w, x, y, inv_w[idx[0]], inv_w[idx[1]], inv_w[idx[2]], inv_det);
    t->varying_count = (uint32_t)d->varying_count;
    for (int k = 0; k < d->varying_count; k++)
        plane3(t->varying[k], x, y, v[idx[0]].var[k] * inv_w[idx[0]], v[idx[1]].var[k] * inv_w[idx[1]],
               v[idx[2]].var[k] * inv_w[idx[2]], inv_det);
    t->seq = 0;
    return t;
}
