/* setup.c — triangle setup from snapped window vertices: zero-area,
 * back-face and off-screen culling, edge functions with the top-left rule,
 * and the depth, 1/w and varying/w planes.
 * Fed by the front-end loop (directly, or after clipping); feeds coarse binning. */
#include "frontend/frontend.h"

/* The planes of fe_setup_planes (one body for the sharp setup below, which
 * inlines it, and for blur.c). */
static inline void setup_planes(frame_tri *t, float x0, float y0, float d1x, float d1y, float d2x, float d2y,
                                float inv_det, const float z[3], const float inv_w[3], const float *const var[3],
                                int varying_count)
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
    if (varying_count) FE_PLANE(t->inv_w, inv_w[0], inv_w[1], inv_w[2]);  /* only interpolation reads it */
    t->varying_count = (uint16_t)varying_count;
    for (int k = 0; k < varying_count; k++)
        FE_PLANE(t->varying[k], var[0][k] * inv_w[0], var[1][k] * inv_w[1], var[2][k] * inv_w[2]);
#undef FE_PLANE
}

void fe_setup_planes(frame_tri *t, float x0, float y0, float d1x, float d1y, float d2x, float d2y, float inv_det,
                     const float z[3], const float inv_w[3], const float *const var[3], int varying_count)
{
    setup_planes(t, x0, y0, d1x, d1y, d2x, d2y, inv_det, z, inv_w, var, varying_count);
}

/* floor(v / 256) */
static inline int32_t floor_div256(int32_t v) { return v >= 0 ? v / 256 : -((-v + 255) / 256); }

static inline int32_t min3(int32_t a, int32_t b, int32_t c)
{
    int32_t m = a < b ? a : b;
    return m < c ? m : c;
}

static inline int32_t max3(int32_t a, int32_t b, int32_t c)
{
    int32_t m = a > b ? a : b;
    return m > c ? m : c;
}

/* Edge e from (xa, ya) to (xb, yb), counter-clockwise, with the top-left
 * rule (y up): a left edge runs downwards (a > 0), a top edge runs
 * leftwards along a row (a == 0, b < 0); samples exactly on other edges
 * are not covered. */
static inline void setup_edge(frame_tri *t, int e, int32_t xa, int32_t ya, int32_t xb, int32_t yb)
{
    const int32_t a = ya - yb, b = xb - xa;
    const bool top_left = a > 0 || (a == 0 && b < 0);
    t->a[e] = a;
    t->b[e] = b;
    t->c[e] = -((int64_t)a * xa + (int64_t)b * ya) - !top_left;
}

/* The canonical corner order of the planes: by snapped y, then x (the three
 * corners of a triangle with area are distinct). */
static inline bool corner_before(const fe_post *a, const fe_post *b)
{
    return a->y_q8 != b->y_q8 ? a->y_q8 < b->y_q8 : a->x_q8 < b->x_q8;
}

bool fe_setup_triangle(const fe_post *const post[3], const float *const var[3], const frame_draw *d,
                       const fe_viewport *vp, frame_tri *t)
{
    /* Snapped coordinates within the guard band: differences fit 32 bits,
     * products take 64. */
    const fe_post *p0 = post[0], *p1 = post[1], *p2 = post[2];
    const float *v1 = var[1], *v2 = var[2];
    int64_t area2 = (int64_t)(p1->x_q8 - p0->x_q8) * (p2->y_q8 - p0->y_q8) -
                    (int64_t)(p2->x_q8 - p0->x_q8) * (p1->y_q8 - p0->y_q8);
    if (area2 == 0) return false;
    if (area2 < 0) {  /* clockwise in window space (y up): set up in the other order */
        if (d->cull == MOS_CULL_BACK) return false;
        const fe_post *p = p1;
        p1 = p2;
        p2 = p;
        const float *v = v1;
        v1 = v2;
        v2 = v;
        area2 = -area2;
    }
    const int32_t X0 = p0->x_q8, Y0 = p0->y_q8, X1 = p1->x_q8, Y1 = p1->y_q8, X2 = p2->x_q8, Y2 = p2->y_q8;
    const int32_t min_x = min3(X0, X1, X2), max_x = max3(X0, X1, X2);
    const int32_t min_y = min3(Y0, Y1, Y2), max_y = max3(Y0, Y1, Y2);
    /* Samples of pixel p lie in [p*256, p*256 + 255]: keep the pixels whose
     * sample square meets the bounding box. */
    int32_t px0 = floor_div256(min_x), px1 = floor_div256(max_x);
    int32_t py0 = floor_div256(min_y), py1 = floor_div256(max_y);
    px0 = px0 < 0 ? 0 : px0;
    py0 = py0 < 0 ? 0 : py0;
    px1 = px1 > vp->width - 1 ? vp->width - 1 : px1;
    py1 = py1 > vp->height - 1 ? vp->height - 1 : py1;
    if (px0 > px1 || py0 > py1) return false;  /* off-screen */

    t->draw = d;
    t->blur = NULL;
    t->flags = max_x - min_x < FRAME_TRI_SMALL_PX * FRAME_SUBPIXELS && max_y - min_y < FRAME_TRI_SMALL_PX * FRAME_SUBPIXELS
                   ? FRAME_TRI_SMALL
                   : 0;
    t->min_x = px0;
    t->min_y = py0;
    t->max_x = px1;
    t->max_y = py1;
    setup_edge(t, 0, X0, Y0, X1, Y1);
    setup_edge(t, 1, X1, Y1, X2, Y2);
    setup_edge(t, 2, X2, Y2, X0, Y0);
    /* Planes over window pixels from the corners in a canonical order (by
     * snapped y, then x), not the order the draw or the winding gave: two
     * triangles with the same corners (a two-sided card modelled as a pair
     * of opposite windings) then have bit-identical planes, and so the same
     * depth at every sample, whichever was drawn first or from which corner. */
    const fe_post *c[3] = {p0, p1, p2};
    const float *cv[3] = {var[0], v1, v2};
    for (int i = 1; i < 3; i++)
        for (int j = i; j > 0 && corner_before(c[j], c[j - 1]); j--) {
            const fe_post *p = c[j];
            c[j] = c[j - 1];
            c[j - 1] = p;
            const float *v = cv[j];
            cv[j] = cv[j - 1];
            cv[j - 1] = v;
        }
    const int32_t CX0 = c[0]->x_q8, CY0 = c[0]->y_q8;
    const int32_t e1x = c[1]->x_q8 - CX0, e1y = c[1]->y_q8 - CY0, e2x = c[2]->x_q8 - CX0, e2y = c[2]->y_q8 - CY0;
    const int64_t det = (int64_t)e1x * e2y - (int64_t)e2x * e1y;  /* +-area2 */
    const float s = 1.0f / FRAME_SUBPIXELS;
    const float d1x = (float)e1x * s, d1y = (float)e1y * s, d2x = (float)e2x * s, d2y = (float)e2y * s;
    const float inv_det = (float)((double)(FRAME_SUBPIXELS * FRAME_SUBPIXELS) / (double)det);
    const float z[3] = {c[0]->z, c[1]->z, c[2]->z}, iw[3] = {c[0]->inv_w, c[1]->inv_w, c[2]->inv_w};
    setup_planes(t, (float)CX0 * s, (float)CY0 * s, d1x, d1y, d2x, d2y, inv_det, z, iw, cv, d->varying_count);
    return true;
}
