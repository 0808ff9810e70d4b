/* vertex.c — the vertex stage: runs a draw's vertex shader over its
 * vertices, then classifies each against the clip planes and snaps the
 * inside ones to the window once, so triangles sharing it need not.
 * Fed by the front-end loop per draw; feeds assembly, clipping and setup. */
#include <math.h>

#include "frontend/frontend.h"

void fe_post_from_clip(fe_post *p, const float c[4], const fe_viewport *vp)
{
    float x = c[0], y = c[1], z = c[2], w = c[3];
    for (int i = 0; i < 4; i++) p->clip[i] = c[i];
    uint32_t oc = 0;
    if (!isfinite(x) || !isfinite(y) || !isfinite(z) || !isfinite(w)) oc = FE_OUT_ALL;  /* culled later */
    if (!(z + w >= 0)) oc |= FE_OUT_NEAR;
    if (!(w - z >= 0)) oc |= FE_OUT_FAR;
    if (!(w >= 1e-6f)) oc |= FE_OUT_W;
    if (!(x + vp->guard_x * w >= 0)) oc |= FE_OUT_LEFT;
    if (!(vp->guard_x * w - x >= 0)) oc |= FE_OUT_RIGHT;
    if (!(y + vp->guard_y * w >= 0)) oc |= FE_OUT_BOTTOM;
    if (!(vp->guard_y * w - y >= 0)) oc |= FE_OUT_TOP;
    p->outcode = oc;
    if (oc) {
        p->x_q8 = p->y_q8 = 0;
        p->z = p->inv_w = 0;
        return;
    }
    fe_post_window(p, vp);
}

void fe_post_window(fe_post *p, const fe_viewport *vp)
{
    double inv_w = 1.0 / (double)p->clip[3];
    p->x_q8 = (int32_t)llrint(((double)p->clip[0] * inv_w * 0.5 + 0.5) * vp->width * FRAME_SUBPIXELS);
    p->y_q8 = (int32_t)llrint(((double)p->clip[1] * inv_w * 0.5 + 0.5) * vp->height * FRAME_SUBPIXELS);
    p->z = (float)((double)p->clip[2] * inv_w * 0.5 + 0.5);
    p->inv_w = (float)inv_w;
}

/* MSAA frames see every draw at one (u, v, t): the pinhole sample. */
static void pinhole_warp(float c[4], const float *c1, const frame_blur *fb)
{
    float t = fb->pinhole[2];
    if (c1)
        for (int k = 0; k < 4; k++) c[k] += t * (c1[k] - c[k]);
    c[0] += fb->pinhole[0] * fb->lens_x * (c[3] - fb->focus_w);
    c[1] += fb->pinhole[1] * fb->lens_y * (c[3] - fb->focus_w);
    c[0] += fb->jitter_x * c[3];  /* the sub-pixel jitter */
    c[1] += fb->jitter_y * c[3];
}

bool fe_vertex_temp_init(fe_vertex_temp *t, int max_varyings, arena *ar)
{
    const size_t nvar = (size_t)(max_varyings ? max_varyings : 1);
    t->clip = arena_alloc(ar, FE_VERTEX_CHUNK * 4 * sizeof(float), 64);
    t->clip1 = arena_alloc(ar, FE_VERTEX_CHUNK * 4 * sizeof(float), 64);
    t->var1 = arena_alloc(ar, FE_VERTEX_CHUNK * nvar * sizeof(float), 64);
    return t->clip && t->clip1 && t->var1;
}

bool fe_vertex_begin(fe_vertices *v, const fe_draw *d, const frame_blur *fb, arena *ar)
{
    size_t n = (size_t)d->vertex_count;
    const bool msaa = fb->mode == MOS_SAMPLING_MSAA;
    /* Run the shader at t = 1 too when the positions there are used. */
    v->moving = d->uniforms_t1 && fb->motion && (!msaa || fb->pinhole[2] != 0.0f);
    v->warp = msaa && (v->moving || fb->lens_x != 0.0f || fb->lens_y != 0.0f || fb->jitter_x != 0.0f ||
                       fb->jitter_y != 0.0f);
    v->chunks = (uint32_t)((n + FE_VERTEX_CHUNK - 1) / FE_VERTEX_CHUNK);
    const size_t nvar = (size_t)(d->varying_count ? d->varying_count : 1);
    /* t = 1 positions: kept for the whole draw (blurred setup), or one
     * chunk at a time in the helper's temp (the MSAA warp). */
    v->clip1 = v->moving && !msaa ? arena_alloc(ar, n * 4 * sizeof(float), 64) : NULL;
    v->post = arena_alloc(ar, n * sizeof(fe_post), 64);
    v->var = arena_alloc(ar, n * nvar * sizeof(float), 64);
    return v->post && v->var && (!v->moving || msaa || v->clip1);
}

void fe_vertex_chunk(const fe_vertices *v, uint32_t chunk, const fe_draw *d, const fe_viewport *vp,
                     const frame_blur *fb, mos_isa isa, const fe_vertex_temp *tmp, void *scratch)
{
    const size_t first = (size_t)chunk * FE_VERTEX_CHUNK, n = (size_t)d->vertex_count;
    const size_t count = n - first < FE_VERTEX_CHUNK ? n - first : FE_VERTEX_CHUNK;
    float *const clip = tmp->clip;
    mos_vs_batch b = {
        .count = (int)count,
        .attribs = d->vertices + first * (size_t)d->vertex_stride,
        .stride = d->vertex_stride,
        .uniforms = d->uniforms,
        .clip = clip,
        .varyings = v->var + first * (size_t)d->varying_count,
        .varying_count = d->varying_count,
        .user = d->user,
        .scratch = d->scratch_bytes ? scratch : NULL,
        .isa = isa,
    };
    d->vertex(&b);
    float *c1 = v->clip1 ? v->clip1 + 4 * first : v->moving ? tmp->clip1 : NULL;
    if (v->moving) {
        b.uniforms = d->uniforms_t1;
        b.clip = c1;
        b.varyings = tmp->var1;  /* varyings come from t = 0 */
        d->vertex(&b);
    }
    for (size_t i = 0; i < count; i++) {
        if (v->warp) pinhole_warp(clip + 4 * i, c1 ? c1 + 4 * i : NULL, fb);
        fe_post_from_clip(&v->post[first + i], clip + 4 * i, vp);
    }
}
