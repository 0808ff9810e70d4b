/* testutil.h — shared shaders and render helpers for the test programs.
 * Fed by the test programs; drives the public API only (include/mosaic.h). */
#ifndef MOSAIC_TEST_UTIL_H
#define MOSAIC_TEST_UTIL_H

#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include "check.h"

/* ---- temporary folders -------------------------------------------------- */
/* A new folder /tmp/mosaic-NAME.XXXXXX into dir; false (with perror) when it
 * cannot be made. */
static inline bool tu_tmpdir(char *dir, size_t size, const char *name)
{
    snprintf(dir, size, "/tmp/mosaic-%s.XXXXXX", name);
    if (mkdtemp(dir)) return true;
    perror("mkdtemp");
    return false;
}
static inline int tu_rm_entry_(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    if (remove(path) != 0) fprintf(stderr, "could not remove %s\n", path);
    return 0;
}
/* Removes dir and everything in it (the test's temporary folder). */
static inline void tu_rmtree(const char *dir) { nftw(dir, tu_rm_entry_, 16, FTW_DEPTH | FTW_PHYS); }

/* ---- shaders ----------------------------------------------------------- */
/* attribs = clip-space x, y, z, w (stride >= 4). */
static inline void tu_vs_clip4(const mos_vs_batch *b)
{
    for (int i = 0; i < b->count; i++)
        for (int c = 0; c < 4; c++)
            b->clip[4 * i + c] = b->attribs[i * b->stride + c];
}
/* attribs = NDC x, y (stride >= 2); z = 0, w = 1. */
static inline void tu_vs_ndc2(const mos_vs_batch *b)
{
    for (int i = 0; i < b->count; i++) {
        b->clip[4 * i + 0] = b->attribs[i * b->stride + 0];
        b->clip[4 * i + 1] = b->attribs[i * b->stride + 1];
        b->clip[4 * i + 2] = 0.0f;
        b->clip[4 * i + 3] = 1.0f;
    }
}
/* attribs = x, y, z; uniforms = column-major 4x4 matrix. */
static inline void tu_vs_mvp(const mos_vs_batch *b)
{
    const float *m = b->uniforms;
    for (int i = 0; i < b->count; i++) {
        const float *p = b->attribs + i * b->stride;
        for (int r = 0; r < 4; r++)
            b->clip[4 * i + r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
    }
}
/* Writes exactly 1/255 to red (with MOS_BLEND_ADD a sample's red = its count). */
static inline void tu_fs_count(const mos_fs_batch *b)
{
    for (int l = 0; l < 4 * b->quad_count; l++) {
        b->out[0][l] = 1.0f / 255.0f;
        b->out[1][l] = 0.0f;
        b->out[2][l] = 0.0f;
        b->out[3][l] = 0.0f;
    }
}

/* Writes 0 to every channel (with MOS_BLEND_OPAQUE: touches every sample it covers). */
static inline void tu_fs_zero(const mos_fs_batch *b)
{
    for (int c = 0; c < 4; c++)
        for (int l = 0; l < 4 * b->quad_count; l++) b->out[c][l] = 0.0f;
}

/* ---- matrices (column-major, OpenGL conventions) ----------------------- */
static inline void tu_perspective(float m[16], float fovy_rad, float aspect, float n, float f)
{
    float t = 1.0f / tanf(fovy_rad * 0.5f);
    memset(m, 0, 16 * sizeof(float));
    m[0] = t / aspect;
    m[5] = t;
    m[10] = (f + n) / (n - f);
    m[11] = -1.0f;
    m[14] = 2.0f * f * n / (n - f);
}

/* A mos_logger that keeps the last message and counts the calls. */
typedef struct tu_log_rec { int calls; mos_result last; char msg[256]; } tu_log_rec;
static inline void tu_logger(mos_result code, const char *message, void *user)
{
    tu_log_rec *l = user;
    l->calls++;
    l->last = code;
    snprintf(l->msg, sizeof l->msg, "%s", message ? message : "");
}

/* ---- context / target helpers ----------------------------------------- */
static inline mos_context *tu_context(int threads, int bin_px)
{
    mos_context *ctx = NULL;
    mos_context_desc cd = { .pipeline = { .threads = threads, .bin_px = bin_px } };
    mos_result r = mos_context_create(&cd, &ctx);
    if (r != MOS_OK) {
        CHECK_MSG(r == MOS_OK, "mos_context_create(threads=%d, bin=%d): %s", threads, bin_px,
                  check_res_name_(r));
        return NULL;
    }
    return ctx;
}

/* Raw samples of T (w x h x spp RGBA8, rows top first), malloc'd. */
static inline uint8_t *tu_read_samples(mos_context *ctx, mos_target t, int w, int h, int spp)
{
    size_t row = (size_t)w * (size_t)spp * 4;
    uint8_t *buf = malloc(row * (size_t)h);
    if (!buf) abort();
    memset(buf, 0xEE, row * (size_t)h);
    mos_result r = mos_target_read_samples(ctx, t, buf, row);
    CHECK_MSG(r == MOS_OK, "mos_target_read_samples: %s", check_res_name_(r));
    return buf;
}
static inline uint8_t *tu_read_rgba8(mos_context *ctx, mos_target t, int w, int h)
{
    size_t row = (size_t)w * 4;
    uint8_t *buf = malloc(row * (size_t)h);
    if (!buf) abort();
    memset(buf, 0xEE, row * (size_t)h);
    mos_result r = mos_target_read_rgba8(ctx, t, buf, row);
    CHECK_MSG(r == MOS_OK, "mos_target_read_rgba8: %s", check_res_name_(r));
    return buf;
}
/* Channel C of sample S of pixel (x, y), y up (window coordinates). */
static inline int tu_sample(const uint8_t *buf, int w, int h, int spp, int x, int y, int s, int c)
{
    return buf[(((size_t)(h - 1 - y) * (size_t)w + (size_t)x) * (size_t)spp + (size_t)s) * 4 + (size_t)c];
}

/* Buffers made for the draws of one frame, destroyed after mos_end_frame
 * (the contract does not say a draw may outlive its buffers). */
typedef struct tu_frame {
    mos_buffer bufs[256];
    int n;
} tu_frame;

/* Draws VERTS (stride floats each, vcount vertices, optional uint32 indices)
 * with SHADER; returns mos_draw's result. */
static inline mos_result tu_draw(mos_context *ctx, tu_frame *f, mos_shader sh, const float *verts,
                          int stride, int vcount, const uint32_t *idx, int icount, mos_cull cull,
                          mos_blend blend, const void *uniforms, size_t usize)
{
    mos_buffer vb = { 0 }, ib = { 0 };
    if (f->n + 2 > (int)(sizeof f->bufs / sizeof f->bufs[0])) abort();
    mos_result r = mos_buffer_create(ctx, &(mos_buffer_desc){ .data = verts,
                                     .size = (size_t)vcount * (size_t)stride * sizeof(float) }, &vb);
    if (r != MOS_OK) return r;
    f->bufs[f->n++] = vb;
    if (idx) {
        r = mos_buffer_create(ctx, &(mos_buffer_desc){ .data = idx,
                              .size = (size_t)icount * sizeof(uint32_t) }, &ib);
        if (r != MOS_OK) return r;
        f->bufs[f->n++] = ib;
    }
    return mos_draw(ctx, &(mos_draw_desc){ .shader = sh, .vertices = vb, .vertex_stride = stride,
                    .vertex_count = vcount, .indices = ib, .index_count = idx ? icount : 0,
                    .uniforms = uniforms, .uniform_size = usize, .cull = cull, .blend = blend });
}

/* Ends the frame and destroys the frame's buffers. */
static inline mos_result tu_end(mos_context *ctx, tu_frame *f, mos_frame_stats *st)
{
    mos_result r = mos_end_frame(ctx, st);
    for (int i = 0; i < f->n; i++) mos_buffer_destroy(ctx, f->bufs[i]);
    f->n = 0;
    return r;
}

/* A "count" shader (identity clip-space vertex stage, 1/255 red). */
static inline mos_shader tu_count_shader(mos_context *ctx, mos_vertex_fn vs)
{
    mos_shader sh = { 0 };
    CHECK_OK(mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs, .fragment = tu_fs_count,
                               .label = "count" }, &sh));
    return sh;
}

/* An opaque shader writing 0 (identity NDC x, y vertex stage). */
static inline mos_shader tu_zero_shader(mos_context *ctx)
{
    mos_shader sh = { 0 };
    CHECK_OK(mos_shader_create(ctx, &(mos_shader_desc){ .vertex = tu_vs_ndc2, .fragment = tu_fs_zero,
                               .label = "zero" }, &sh));
    return sh;
}
/* Draws a full-screen opaque quad of ZERO_SH, so that every sample is written
 * in this frame: tests of coverage use it so that they do not depend on what
 * the library keeps in samples no triangle touched (test_input checks that). */
static inline void tu_draw_prime(mos_context *ctx, tu_frame *f, mos_shader zero_sh)
{
    static const float screen[] = { -1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1 };
    CHECK_OK(tu_draw(ctx, f, zero_sh, screen, 2, 6, NULL, 0, MOS_CULL_NONE, MOS_BLEND_OPAQUE, NULL, 0));
}

/* Renders one frame of count draws: clear 0, TRIS as NDC x, y pairs (3 vertices
 * per triangle), blend ADD; returns the raw samples (caller frees). */
static inline uint8_t *tu_render_count(mos_context *ctx, mos_shader sh, mos_target t, int w, int h,
                                int spp, const float *xy, int tri_count, mos_cull cull)
{
    tu_frame f = { .n = 0 };
    CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){ .target = t }));
    CHECK_OK(tu_draw(ctx, &f, sh, xy, 2, 3 * tri_count, NULL, 0, cull, MOS_BLEND_ADD, NULL, 0));
    CHECK_OK(tu_end(ctx, &f, NULL));
    return tu_read_samples(ctx, t, w, h, spp);
}

#endif
