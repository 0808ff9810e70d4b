/* test_misuse.c — misuse of the public API: zero, negative and huge sizes,
 * out-of-range enums, frame-state sequences, resources destroyed while a
 * recorded draw uses them, a maximal target, every allocation failing in
 * turn with recovery, and contexts on many threads at once.  Fed by make
 * test (also under ASan and TSan). */
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include "testutil.h"

enum { MW = 32, MH = 32 };

/* ---- shaders ----------------------------------------------------------- */
/* attribs = x, y, u, v; varyings = u, v when the shader has two; OFF is
 * added to x, y. */
static void xyuv(const mos_vs_batch *b, const float *off)
{
    for (int i = 0; i < b->count; i++) {
        const float *a = b->attribs + i * b->stride;
        b->clip[4 * i + 0] = a[0] + off[0];
        b->clip[4 * i + 1] = a[1] + off[1];
        b->clip[4 * i + 2] = 0.0f;
        b->clip[4 * i + 3] = 1.0f;
        for (int k = 0; k < b->varying_count; k++) b->varyings[i * b->varying_count + k] = a[2 + k];
    }
}
static void vs_xyuv(const mos_vs_batch *b) { xyuv(b, (const float[2]){ 0.0f, 0.0f }); }
/* The uniforms are the offset (float[2]). */
static void vs_xyuv_off(const mos_vs_batch *b) { xyuv(b, b->uniforms); }
/* Texture 0 at (u, v), or 0.5 grey without one. */
static void fs_tex(const mos_fs_batch *b)
{
    if (b->textures[0] && b->varying_count >= 2) {
        mos_sample_quads(b->textures[0], b->quad_count, b->varyings[0], b->varyings[1], b->out);
        return;
    }
    for (int c = 0; c < 4; c++)
        for (int l = 0; l < 4 * b->quad_count; l++) b->out[c][l] = 0.5f;
}
/* The colour in the uniforms (float rgba[4]). */
static void fs_uniform(const mos_fs_batch *b)
{
    const float *rgba = b->uniforms;
    for (int c = 0; c < 4; c++)
        for (int l = 0; l < 4 * b->quad_count; l++) b->out[c][l] = rgba[c];
}

/* A full-screen quad (x, y, u, v) and its indices. */
static const float quad_xyuv[] = { -1, -1, 0, 0, 1, -1, 1, 0, 1, 1, 1, 1, -1, 1, 0, 1 };
static const uint32_t quad_idx[] = { 0, 1, 2, 0, 2, 3 };
/* A 2x2 texture of one colour. */
static const uint8_t tex_rgba[16] = { 200, 100, 50, 255, 200, 100, 50, 255,
                                      200, 100, 50, 255, 200, 100, 50, 255 };

/* Pixels of T (w x h) whose colour differs from rgba by more than 1 per channel. */
static long mismatches(mos_context *ctx, mos_target t, int w, int h, const uint8_t rgba[4])
{
    uint8_t *img = malloc((size_t)w * (size_t)h * 4);
    if (!img) abort();
    if (mos_target_read_rgba8(ctx, t, img, (size_t)w * 4) != MOS_OK) {
        free(img);
        return -1;
    }
    long bad = 0;
    for (size_t p = 0; p < (size_t)w * (size_t)h; p++)
        for (int c = 0; c < 4; c++) {
            int d = img[4 * p + (size_t)c] - rgba[c];
            if (d < -1 || d > 1) {
                bad++;
                break;
            }
        }
    free(img);
    return bad;
}

/* The accumulation buffer: the mean of K frames of a full-screen quad that
 * moves and changes colour per frame (the uniforms are its offset for the
 * vertex stage and its colour for the fragment stage; the clear colour where
 * it moved away), against the mean computed here from each frame's own
 * image, exact to the rounding (round half up); restart; and its misuse. */
static void test_accumulation_buffer(void)
{
    mos_context *ctx = NULL;
    CHECK_OK(mos_context_create(&(mos_context_desc){ .pipeline = { .threads = 2 } }, &ctx));
    if (!ctx) return;
    mos_shader sh;
    mos_target rt, other;
    mos_buffer vb, ib;
    CHECK_OK(mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_xyuv_off, .fragment = fs_uniform }, &sh));
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){ .width = MW, .height = MH, .samples = 4 }, &rt));
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){ .width = MW, .height = MH, .samples = 1 }, &other));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_xyuv, .size = sizeof quad_xyuv }, &vb));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_idx, .size = sizeof quad_idx }, &ib));
    uint8_t img[MW * MH * 4], mean[MW * MH * 4];
    CHECK_ERR(ctx, mos_target_read_accumulated(ctx, rt, mean, MW * 4, NULL), MOS_ERR_FRAME_STATE);  /* nothing yet */
    enum { K = 7 };
    uint32_t sum[MW * MH * 4] = { 0 };
    for (int k = 0; k < K; k++) {
        /* offset x, y (edges at fractional pixels: partly covered pixels at 4 spp) = red, green */
        const float u[4] = { 0.083f * (float)k, 0.61f - 0.057f * (float)k, 0.37f * (float)(k % 3), 1.0f };
        CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){ .target = rt, .clear_rgba = { 0.2f, 0.4f, 0.6f, 1.0f } }));
        CHECK_ERR(ctx, mos_target_accumulate(ctx, rt, false), MOS_ERR_FRAME_STATE);  /* being rendered */
        CHECK_OK(mos_draw(ctx, &(mos_draw_desc){ .shader = sh, .vertices = vb, .indices = ib, .vertex_stride = 4,
                                                 .vertex_count = 4, .uniforms = u, .uniform_size = sizeof u }));
        CHECK_OK(mos_end_frame(ctx, NULL));
        CHECK_OK(mos_target_read_rgba8(ctx, rt, img, MW * 4));
        for (size_t i = 0; i < sizeof img; i++) sum[i] += img[i];
        CHECK_OK(mos_target_accumulate(ctx, rt, k == 0));
    }
    int frames = 0;
    CHECK_OK(mos_target_read_accumulated(ctx, rt, mean, MW * 4, &frames));
    CHECK_EQ_INT(frames, K);
    long bad = 0;
    for (size_t i = 0; i < sizeof img; i++)
        if (mean[i] != (uint8_t)floor((double)sum[i] / K + 0.5)) bad++;
    CHECK_MSG(bad == 0, "%ld channels of the accumulated mean differ from the mean of the frames", bad);
    /* restart: one frame's mean is that frame */
    CHECK_OK(mos_target_accumulate(ctx, rt, true));
    CHECK_OK(mos_target_read_accumulated(ctx, rt, mean, MW * 4, &frames));
    CHECK_EQ_INT(frames, 1);
    CHECK_MSG(memcmp(mean, img, sizeof img) == 0, "after a restart the mean is not the last frame");
    /* misuse */
    CHECK_ERR(ctx, mos_target_read_accumulated(ctx, rt, mean, MW * 4 - 1, NULL), MOS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(ctx, mos_target_read_accumulated(ctx, rt, NULL, MW * 4, NULL), MOS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(ctx, mos_target_read_accumulated(ctx, other, mean, MW * 4, NULL), MOS_ERR_FRAME_STATE);
    CHECK_ERR(ctx, mos_target_accumulate(ctx, (mos_target){ 12345 }, false), MOS_ERR_BAD_HANDLE);
    CHECK_RES(mos_target_accumulate(NULL, rt, false), MOS_ERR_INVALID_ARGUMENT);
    mos_context_destroy(ctx);
}

/* A grid of n x n vertices (x, y, u, v) over [-half, half]^2 and its
 * 2 (n - 1)^2 triangles. */
static void make_grid(int n, float half, float *verts, uint32_t *idx)
{
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            float *v = verts + 4 * (y * n + x);
            v[0] = -half + 2.0f * half * (float)x / (float)(n - 1);
            v[1] = -half + 2.0f * half * (float)y / (float)(n - 1);
            v[2] = (float)x / (float)(n - 1);
            v[3] = (float)y / (float)(n - 1);
        }
    for (int y = 0, k = 0; y < n - 1; y++)
        for (int x = 0; x < n - 1; x++) {
            const uint32_t a = (uint32_t)(y * n + x), c = a + (uint32_t)n;
            const uint32_t q[6] = { a, a + 1, c + 1, a, c + 1, c };
            for (int i = 0; i < 6; i++) idx[k++] = q[i];
        }
}

/* The shader object: user and scratch reach both stages of every batch,
 * the scratch is 64-byte aligned, as large as asked, and each thread's own
 * (the stages fill all of it, so sharing would be a race for TSan and an
 * overflow for ASan); a too-large scratch_bytes is refused. */
typedef struct shader_state {
    size_t scratch_bytes;
    bool ends_only;  /* touch the first and last byte only (huge scratch) */
    atomic_long vs_calls, fs_calls, bad, vertices;
} shader_state;

static void check_batch_memory(shader_state *st, void *scratch)
{
    if (!scratch || ((uintptr_t)scratch & 63u)) {
        atomic_fetch_add(&st->bad, 1);
    } else if (st->ends_only) {
        ((volatile uint8_t *)scratch)[0] = 1;
        ((volatile uint8_t *)scratch)[st->scratch_bytes - 1] = 1;
    } else {
        memset(scratch, 0x5a, st->scratch_bytes);
    }
}

static void vs_stateful(const mos_vs_batch *b)
{
    shader_state *st = b->user;
    atomic_fetch_add(&st->vs_calls, 1);
    atomic_fetch_add(&st->vertices, b->count);
    check_batch_memory(st, b->scratch);
    vs_xyuv(b);
}

static void fs_stateful(const mos_fs_batch *b)
{
    shader_state *st = b->user;
    atomic_fetch_add(&st->fs_calls, 1);
    check_batch_memory(st, b->scratch);
    for (int c = 0; c < 4; c++)
        for (int l = 0; l < 4 * b->quad_count; l++) b->out[c][l] = 0.25f * (float)c;
}

static void test_shader_object(void)
{
    mos_context *ctx = NULL;
    CHECK_OK(mos_context_create(&(mos_context_desc){ .pipeline = { .threads = 3, .bin_px = 8 } }, &ctx));
    if (!ctx) return;
    shader_state st = { .scratch_bytes = 3000 };
    mos_shader sh, big;
    CHECK_OK(mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_stateful, .fragment = fs_stateful,
                                                        .user = &st, .scratch_bytes = st.scratch_bytes }, &sh));
    CHECK_ERR(ctx, mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_stateful, .fragment = fs_stateful,
                                                              .scratch_bytes = MOS_MAX_SCRATCH_BYTES + 1 }, &big),
              MOS_ERR_BAD_SIZE);
    mos_target rt;
    mos_buffer vb, ib;
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){ .width = 4 * MW, .height = 4 * MH, .samples = 1 }, &rt));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_xyuv, .size = sizeof quad_xyuv }, &vb));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_idx, .size = sizeof quad_idx }, &ib));
    for (int f = 0; f < 3; f++) {
        CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){ .target = rt }));
        CHECK_OK(mos_draw(ctx, &(mos_draw_desc){ .shader = sh, .vertices = vb, .indices = ib, .vertex_stride = 4,
                                                 .vertex_count = 4 }));
        CHECK_OK(mos_end_frame(ctx, NULL));
    }
    CHECK_MSG(atomic_load(&st.vs_calls) == 3, "vertex batches %ld, expected 3", atomic_load(&st.vs_calls));
    CHECK_MSG(atomic_load(&st.fs_calls) >= 3 * 16, "fragment batches %ld", atomic_load(&st.fs_calls));
    CHECK_MSG(atomic_load(&st.bad) == 0, "%ld batches without a 64-byte aligned scratch", atomic_load(&st.bad));
    const uint8_t want[4] = { 0, 64, 128, 191 };
    CHECK_MSG(mismatches(ctx, rt, 4 * MW, 4 * MH, want) == 0, "the stateful shader's colour is not in the image");
    /* A grid of GN x GN vertices over the target: vertex batches and
     * triangle setup in many chunks, which idle workers run for the
     * front-end with their own scratch; every vertex shaded once, the
     * target covered. */
    enum { GN = 96 };
    float *grid = malloc(sizeof(float[4]) * GN * GN);
    uint32_t *gidx = malloc(sizeof(uint32_t[6]) * (GN - 1) * (GN - 1));
    if (!grid || !gidx) abort();
    make_grid(GN, 1.0f, grid, gidx);
    mos_buffer gvb, gib;
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = grid, .size = sizeof(float[4]) * GN * GN }, &gvb));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = gidx, .size = sizeof(uint32_t[6]) * (GN - 1) * (GN - 1) },
                               &gib));
    atomic_store(&st.vertices, 0);
    for (int f = 0; f < 3; f++) {
        CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){ .target = rt }));
        CHECK_OK(mos_draw(ctx, &(mos_draw_desc){ .shader = sh, .vertices = gvb, .indices = gib, .vertex_stride = 4,
                                                 .vertex_count = GN * GN, .index_count = 6 * (GN - 1) * (GN - 1) }));
        CHECK_OK(mos_end_frame(ctx, NULL));
    }
    CHECK_MSG(atomic_load(&st.vertices) == 3L * GN * GN, "grid: %ld vertices shaded, expected %d",
              atomic_load(&st.vertices), 3 * GN * GN);
    CHECK_MSG(atomic_load(&st.bad) == 0, "grid: %ld batches without a 64-byte aligned scratch", atomic_load(&st.bad));
    CHECK_MSG(mismatches(ctx, rt, 4 * MW, 4 * MH, want) == 0, "grid: the target is not covered");
    free(grid);
    free(gidx);
    /* 80 draws of the largest scratch in one frame: one scratch per thread
     * and frame, not per draw (80 x 64 MiB would pass the front-end's 4 GiB). */
    shader_state huge = { .scratch_bytes = MOS_MAX_SCRATCH_BYTES, .ends_only = true };
    mos_shader hs;
    CHECK_OK(mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_stateful, .fragment = fs_stateful,
                                                        .user = &huge, .scratch_bytes = huge.scratch_bytes }, &hs));
    CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){ .target = rt }));
    for (int i = 0; i < 80; i++)
        CHECK_OK(mos_draw(ctx, &(mos_draw_desc){ .shader = hs, .vertices = vb, .indices = ib, .vertex_stride = 4,
                                                 .vertex_count = 4 }));
    CHECK_OK(mos_end_frame(ctx, NULL));
    CHECK_MSG(atomic_load(&huge.vs_calls) == 80 && atomic_load(&huge.bad) == 0,
              "huge scratch: %ld vertex batches (80 expected), %ld bad", atomic_load(&huge.vs_calls),
              atomic_load(&huge.bad));
    mos_context_destroy(ctx);
}

/* mos_shader_desc.batch_quads: the back-end hands a fragment shader at
 * most that many quads per call and, given room, gathers more than the
 * default 16 (a 64 x 64 bin of a full-screen quad under a grid of small
 * triangles); the image is the same whatever the batch, and a value
 * outside 0..MOS_MAX_BATCH_QUADS is refused.  Vertex batches are told the
 * context's instruction set. */
typedef struct batch_state {
    atomic_int max_quads, calls, vs_isa_bad;
} batch_state;

static void fs_batch_probe(const mos_fs_batch *b)
{
    batch_state *st = b->user;
    atomic_fetch_add(&st->calls, 1);
    int m = atomic_load(&st->max_quads);
    while (b->quad_count > m && !atomic_compare_exchange_weak(&st->max_quads, &m, b->quad_count)) {}
    for (int l = 0; l < 4 * b->quad_count; l++) {  /* a colour per pixel: lanes must map to their pixels */
        b->out[0][l] = b->frag_x[l] / (4 * MW);
        b->out[1][l] = b->frag_y[l] / (4 * MH);
        b->out[2][l] = b->varying_count ? b->varyings[0][l] : 0.0f;
        b->out[3][l] = 1.0f;
    }
}

static void vs_batch_probe(const mos_vs_batch *b)
{
    batch_state *st = b->user;
    if (b->isa == MOS_ISA_AUTO) atomic_fetch_add(&st->vs_isa_bad, 1);
    vs_xyuv(b);
}

static void test_batch_quads(void)
{
    mos_context *ctx = NULL;
    CHECK_OK(mos_context_create(&(mos_context_desc){ .pipeline = { .threads = 2, .bin_px = 64 } }, &ctx));
    if (!ctx) return;
    mos_shader bad;
    CHECK_ERR(ctx, mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_xyuv, .fragment = fs_batch_probe,
                                                              .batch_quads = MOS_MAX_BATCH_QUADS + 1 }, &bad),
              MOS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(ctx, mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_xyuv, .fragment = fs_batch_probe,
                                                              .batch_quads = -1 }, &bad),
              MOS_ERR_INVALID_ARGUMENT);
    enum { GN = 24, W = 4 * MW, H = 4 * MH };
    float grid[GN * GN * 4];
    uint32_t gidx[(GN - 1) * (GN - 1) * 6];
    make_grid(GN, 0.8f, grid, gidx);
    mos_target rt;
    mos_buffer vb, ib, gvb, gib;
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){ .width = W, .height = H, .samples = 4 }, &rt));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_xyuv, .size = sizeof quad_xyuv }, &vb));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_idx, .size = sizeof quad_idx }, &ib));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = grid, .size = sizeof grid }, &gvb));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = gidx, .size = sizeof gidx }, &gib));
    static uint8_t img[2][W * H * 4];
    const int batches[2] = { 0, MOS_MAX_BATCH_QUADS };
    for (int i = 0; i < 2; i++) {
        batch_state st = { 0 };
        mos_shader sh;
        CHECK_OK(mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_batch_probe, .fragment = fs_batch_probe,
                                                            .varying_count = 2, .user = &st,
                                                            .batch_quads = batches[i] }, &sh));
        CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){ .target = rt, .clear_depth = 1.0f }));
        CHECK_OK(mos_draw(ctx, &(mos_draw_desc){ .shader = sh, .vertices = vb, .indices = ib, .vertex_stride = 4,
                                                 .vertex_count = 4, .depth_test = true, .depth_write = true }));
        CHECK_OK(mos_draw(ctx, &(mos_draw_desc){ .shader = sh, .vertices = gvb, .indices = gib, .vertex_stride = 4,
                                                 .vertex_count = GN * GN, .index_count = 6 * (GN - 1) * (GN - 1),
                                                 .blend = MOS_BLEND_ADD }));
        CHECK_OK(mos_end_frame(ctx, NULL));
        CHECK_OK(mos_target_read_rgba8(ctx, rt, img[i], W * 4));
        const int m = atomic_load(&st.max_quads), cap = batches[i] ? batches[i] : 16;
        CHECK_MSG(m <= cap, "batch_quads %d: a batch of %d quads", batches[i], m);
        if (batches[i]) CHECK_MSG(m > 16, "batch_quads %d: no batch above 16 quads (largest %d)", batches[i], m);
        CHECK_MSG(atomic_load(&st.vs_isa_bad) == 0, "vertex batches told MOS_ISA_AUTO");
        mos_shader_destroy(ctx, sh);
    }
    CHECK_MSG(memcmp(img[0], img[1], sizeof img[0]) == 0, "the image depends on batch_quads");
    mos_context_destroy(ctx);
}

static void na_free(void *p, void *user);

/* mos_context_create with DESC must fail with CODE, leave *out NULL and log
 * a message. */
static void expect_create_fails(mos_context_desc cd, mos_result code, const char *what)
{
    tu_log_rec lr = { 0 };
    cd.logger = (mos_logger){ .func = tu_logger, .user_data = &lr };
    mos_context *ctx = (mos_context *)&lr;  /* must be overwritten */
    mos_result r = mos_context_create(&cd, &ctx);
    CHECK_MSG(r == code, "create(%s) returned %s, expected %s", what, check_res_name_(r), check_res_name_(code));
    CHECK_MSG(ctx == NULL, "create(%s) left *out set", what);
    CHECK_MSG(lr.calls >= 1 && lr.last == code && lr.msg[0], "create(%s): %d logger calls, last %s '%s'", what,
              lr.calls, check_res_name_(lr.last), lr.msg);
    if (r == MOS_OK) mos_context_destroy(ctx);
}

static int same_shape(const mos_pipeline_desc *a, const mos_pipeline_desc *b)
{
    return a->threads == b->threads && a->bin_px == b->bin_px && a->coarse_px == b->coarse_px &&
           a->batch == b->batch && a->early == b->early && a->fifo_depth == b->fifo_depth && a->pattern &&
           b->pattern && strcmp(a->pattern, b->pattern) == 0;
}

/* Raw samples of a fixed little scene (count shader, ADD) on CTX. */
static uint8_t *render_scene(mos_context *ctx)
{
    mos_target t;
    if (!CHECK_OK_B(mos_target_create(ctx, &(mos_target_desc){ .width = 61, .height = 37, .samples = 4, .keep_samples = true }, &t)))
        return NULL;
    mos_shader sh = tu_count_shader(ctx, tu_vs_ndc2);
    static const float tris[] = { -1, -1, 1, -1, -1, 1, -0.9f, 0.8f, 0.7f, -0.95f, 0.99f, 0.9f,
                                  -0.3f, -0.3f, 0.3f, -0.2f, 0.1f, 0.5f, 1, 1, -1, 1, 1, -1 };
    uint8_t *s = tu_render_count(ctx, sh, t, 61, 37, 4, tris, 4, MOS_CULL_NONE);
    mos_shader_destroy(ctx, sh);
    mos_target_destroy(ctx, t);
    return s;
}

/* Every pipeline field given zero (the default), negative and huge values:
 * mos_context_create and mos_context_configure reject the bad ones with the
 * exact code and a message and keep the shape; the extreme valid ones render
 * the same image as the default shape. */
static void test_pipeline_sizes(void)
{
    static const struct { mos_pipeline_desc p; mos_result code; const char *what; } bad[] = {
        { { .threads = -1 }, MOS_ERR_INVALID_ARGUMENT, "threads -1" },
        { { .threads = INT_MIN }, MOS_ERR_INVALID_ARGUMENT, "threads INT_MIN" },
        { { .threads = MOS_MAX_WORKERS + 1 }, MOS_ERR_INVALID_ARGUMENT, "threads MAX+1" },
        { { .threads = INT_MAX }, MOS_ERR_INVALID_ARGUMENT, "threads INT_MAX" },
        { { .threads = 1, .bin_px = -1 }, MOS_ERR_BAD_SIZE, "bin -1" },
        { { .threads = 1, .bin_px = INT_MIN }, MOS_ERR_BAD_SIZE, "bin INT_MIN" },
        { { .threads = 1, .bin_px = 1 }, MOS_ERR_BAD_SIZE, "bin 1" },
        { { .threads = 1, .bin_px = 24 }, MOS_ERR_BAD_SIZE, "bin 24" },
        { { .threads = 1, .bin_px = 8192 }, MOS_ERR_BAD_SIZE, "bin 8192" },
        { { .threads = 1, .bin_px = INT_MAX }, MOS_ERR_BAD_SIZE, "bin INT_MAX" },
        { { .threads = 1, .coarse_px = -1 }, MOS_ERR_BAD_SIZE, "coarse -1" },
        { { .threads = 1, .coarse_px = INT_MIN }, MOS_ERR_BAD_SIZE, "coarse INT_MIN" },
        { { .threads = 1, .bin_px = 16, .coarse_px = 8 }, MOS_ERR_BAD_SIZE, "coarse < bin" },
        { { .threads = 1, .bin_px = 16, .coarse_px = 40 }, MOS_ERR_BAD_SIZE, "coarse 40" },
        { { .threads = 1, .coarse_px = 8192 }, MOS_ERR_BAD_SIZE, "coarse 8192" },
        { { .threads = 1, .coarse_px = INT_MAX }, MOS_ERR_BAD_SIZE, "coarse INT_MAX" },
        { { .threads = 1, .batch = (1 << 26) + 1 }, MOS_ERR_BAD_SIZE, "batch 2^26+1" },
        { { .threads = 1, .batch = INT_MAX }, MOS_ERR_BAD_SIZE, "batch INT_MAX" },
        { { .threads = 1, .early = 65537 }, MOS_ERR_BAD_SIZE, "early 65537" },
        { { .threads = 1, .early = INT_MAX }, MOS_ERR_BAD_SIZE, "early INT_MAX" },
        { { .threads = 1, .fifo_depth = -1 }, MOS_ERR_BAD_SIZE, "fifo -1" },
        { { .threads = 1, .fifo_depth = INT_MIN }, MOS_ERR_BAD_SIZE, "fifo INT_MIN" },
        { { .threads = 1, .fifo_depth = 65537 }, MOS_ERR_BAD_SIZE, "fifo 65537" },
        { { .threads = 1, .fifo_depth = INT_MAX }, MOS_ERR_BAD_SIZE, "fifo INT_MAX" },
        { { .threads = 1, .pattern = "" }, MOS_ERR_UNKNOWN_PATTERN, "pattern ''" },
        { { .threads = 1, .pattern = "prut:" }, MOS_ERR_UNKNOWN_PATTERN, "pattern 'prut:'" },
        { { .threads = 1, .pattern = "prut:99999999999999999999999" }, MOS_ERR_UNKNOWN_PATTERN, "seed overflow" },
        { { .threads = 1, .pattern = "file:" }, MOS_ERR_UNKNOWN_PATTERN, "pattern 'file:'" },
    };
    const size_t nbad = sizeof bad / sizeof bad[0];
    for (size_t i = 0; i < nbad; i++)
        expect_create_fails((mos_context_desc){ .pipeline = bad[i].p }, bad[i].code, bad[i].what);

    mos_context *ctx = tu_context(2, 0);
    if (!ctx) return;
    uint8_t *ref = render_scene(ctx);
    mos_pipeline_desc before, after;
    mos_context_pipeline(ctx, &before);
    CHECK(before.threads == 2 && before.bin_px == 16 && before.coarse_px == 256 && before.batch == 4096 &&
          before.early == 64 && before.fifo_depth == 256);
    for (size_t i = 0; i < nbad; i++) {
        mos_result r = mos_context_configure(ctx, &bad[i].p);
        CHECK_MSG(r == bad[i].code, "configure(%s) returned %s", bad[i].what, check_res_name_(r));
        CHECK_MSG(mos_last_error(ctx)[0], "configure(%s): no message", bad[i].what);
        mos_context_pipeline(ctx, &after);
        CHECK_MSG(same_shape(&before, &after), "configure(%s) changed the shape", bad[i].what);
    }

    /* A pattern name longer than the context keeps is rejected, never cut
     * short (a cut "prut:0..07" would silently be seed 0). */
    char longname[300];
    memcpy(longname, "prut:", 5);
    memset(longname + 5, '0', sizeof longname - 7);
    longname[sizeof longname - 2] = '7';
    longname[sizeof longname - 1] = '\0';
    CHECK_ERR(ctx, mos_context_configure(ctx, &(mos_pipeline_desc){ .threads = 2, .pattern = longname }),
              MOS_ERR_INVALID_ARGUMENT);
    mos_context_pipeline(ctx, &after);
    CHECK(same_shape(&before, &after));
    char name80[81];
    memcpy(name80, "prut:", 5);
    memset(name80 + 5, '0', 75);
    name80[79] = '7';
    name80[80] = '\0';
    CHECK_OK(mos_context_configure(ctx, &(mos_pipeline_desc){ .threads = 2, .pattern = name80 }));
    mos_context_pipeline(ctx, &after);
    CHECK_MSG(after.pattern && strcmp(after.pattern, name80) == 0, "pattern kept as '%s'",
              after.pattern ? after.pattern : "(null)");
    /* the shape read back (its pattern points into the context) goes back in */
    after.threads = 3;
    CHECK_OK(mos_context_configure(ctx, &after));
    mos_context_pipeline(ctx, &after);
    CHECK(after.threads == 3 && after.pattern && strcmp(after.pattern, name80) == 0);

    /* Extreme valid shapes; negative batch and early mean "whole frame" and
     * "off".  (The binner reserves room for a whole batch each frame, 1.5 GiB
     * at 2^26 however small the frame: TSan would shadow all of it.) */
    static const mos_pipeline_desc good[] = {
        { .threads = 1, .bin_px = 4, .coarse_px = 4, .batch = 1, .early = 65536, .fifo_depth = 1 },
        { .threads = 3, .bin_px = 256, .coarse_px = 4096, .batch = TEST_TSAN ? 1 << 20 : 1 << 26, .early = -1,
          .fifo_depth = 65536 },
        { .threads = 2, .bin_px = 8, .coarse_px = 8, .batch = INT_MIN, .early = INT_MIN, .fifo_depth = 2 },
        { .threads = 5, .bin_px = 128, .coarse_px = 384, .batch = -1, .early = 1, .fifo_depth = 3 },
    };
    for (size_t i = 0; ref && i < sizeof good / sizeof good[0]; i++) {
        if (!CHECK_OK_B(mos_context_configure(ctx, &good[i]))) continue;
        mos_context_pipeline(ctx, &after);
        CHECK(after.batch == (good[i].batch < 0 ? -1 : good[i].batch));
        CHECK(after.early == (good[i].early < 0 ? 0 : good[i].early));
        uint8_t *s = render_scene(ctx);
        CHECK_MSG(s && memcmp(s, ref, 61 * 37 * 4 * 4) == 0, "shape %zu renders a different image", i);
        free(s);
    }
    free(ref);
    mos_context_destroy(ctx);
}

/* Zero and huge sizes of targets, textures, buffers, shaders and reads. */
static void test_resource_sizes(void)
{
    mos_context *ctx = tu_context(1, 0);
    if (!ctx) return;
    uint8_t px[64] = { 0 };
    mos_target t = { 0xAAAAu };
    /* samples: (test_input has the widths and heights) */
    const int bad_spp[] = { -1, INT_MIN, INT_MAX, 65, 1 << 20 };
    for (size_t i = 0; i < sizeof bad_spp / sizeof bad_spp[0]; i++) {
        CHECK_ERR(ctx, mos_target_create(ctx, &(mos_target_desc){ .width = 8, .height = 8, .samples = bad_spp[i] }, &t),
                  MOS_ERR_UNSUPPORTED_SAMPLES);
        CHECK(t.id == 0);
    }
    /* textures */
    const int tsz[][2] = { { -1, 1 }, { 1, -1 }, { INT_MIN, 1 }, { 1, INT_MIN }, { INT_MAX, 1 }, { 1, INT_MAX },
                           { 16385, 1 }, { 0, 0 } };
    mos_texture tex = { 0xAAAAu };
    for (size_t i = 0; i < sizeof tsz / sizeof tsz[0]; i++) {
        CHECK_ERR(ctx, mos_texture_create(ctx, &(mos_texture_desc){ .width = tsz[i][0], .height = tsz[i][1],
                  .rgba8 = px }, &tex), MOS_ERR_BAD_SIZE);
        CHECK(tex.id == 0);
    }
    /* buffers: zero, just over the limit, SIZE_MAX (nothing is read from data) */
    const size_t bsz[] = { 0, ((size_t)1 << 34) + 1, SIZE_MAX / 2, SIZE_MAX - 63, SIZE_MAX };
    mos_buffer b = { 0xAAAAu };
    for (size_t i = 0; i < sizeof bsz / sizeof bsz[0]; i++) {
        CHECK_ERR(ctx, mos_buffer_create(ctx, &(mos_buffer_desc){ .data = px, .size = bsz[i] }, &b), MOS_ERR_BAD_SIZE);
        CHECK(b.id == 0);
    }
    CHECK_ERR(ctx, mos_buffer_create(ctx, &(mos_buffer_desc){ .data = NULL, .size = 0 }, &b), MOS_ERR_BAD_SIZE);
    CHECK_ERR(ctx, mos_buffer_create(ctx, &(mos_buffer_desc){ .data = NULL, .size = 4 }, &b), MOS_ERR_INVALID_ARGUMENT);
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = px, .size = 1 }, &b));  /* 1 byte is fine */
    /* shaders: varying counts */
    const int vc[] = { -1, INT_MIN, MOS_MAX_VARYINGS + 1, INT_MAX };
    mos_shader sh = { 0xAAAAu };
    for (size_t i = 0; i < sizeof vc / sizeof vc[0]; i++) {
        CHECK_ERR(ctx, mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_xyuv, .fragment = fs_tex,
                  .varying_count = vc[i] }, &sh), MOS_ERR_INVALID_ARGUMENT);
        CHECK(sh.id == 0);
    }
    CHECK_OK(mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_xyuv, .fragment = fs_tex,
             .varying_count = MOS_MAX_VARYINGS }, &sh));
    /* reads: row_bytes 0 and one short; sample positions out of range */
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){ .width = 8, .height = 4, .samples = 4, .keep_samples = true }, &t));
    uint8_t img[8 * 4 * 4 * 4];
    CHECK_ERR(ctx, mos_target_read_rgba8(ctx, t, img, 0), MOS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(ctx, mos_target_read_samples(ctx, t, img, 0), MOS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(ctx, mos_target_read_samples(ctx, t, img, 8 * 4 * 4 - 1), MOS_ERR_INVALID_ARGUMENT);
    /* a target made without keep_samples has no samples to read */
    mos_target plain = { 0 };
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){ .width = 8, .height = 4, .samples = 4 }, &plain));
    CHECK_ERR(ctx, mos_target_read_samples(ctx, plain, img, 8 * 4 * 4), MOS_ERR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(mos_last_error(ctx), "keep_samples") != NULL, "%s", mos_last_error(ctx));
    CHECK_OK(mos_target_read_rgba8(ctx, plain, img, 8 * 4));
    mos_target_destroy(ctx, plain);
    CHECK_ERR(ctx, mos_target_read_rgba8(ctx, t, NULL, 32), MOS_ERR_INVALID_ARGUMENT);
    float pos[5];
    const int sp[][3] = { { -1, 0, 0 }, { 0, -1, 0 }, { 0, 0, -1 }, { 8, 0, 0 }, { 0, 4, 0 }, { 0, 0, 4 },
                          { INT_MAX, 0, 0 }, { 0, INT_MIN, 0 }, { 0, 0, INT_MAX } };
    for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++)
        CHECK_ERR(ctx, mos_target_sample_position(ctx, t, sp[i][0], sp[i][1], sp[i][2], pos), MOS_ERR_INDEX_RANGE);
    CHECK_ERR(ctx, mos_target_sample_position(ctx, t, 0, 0, 0, NULL), MOS_ERR_INVALID_ARGUMENT);
    CHECK_OK(mos_target_sample_position(ctx, t, 7, 3, 3, pos));
    CHECK(pos[0] >= 7.0f && pos[0] < 8.0f && pos[1] >= 3.0f && pos[1] < 4.0f);
    mos_context_destroy(ctx);
}

typedef struct draw_env {
    mos_context *ctx;
    mos_target t;
    mos_buffer vb, ib;
    mos_shader sh;
} draw_env;

static int draw_open(draw_env *e, int threads)
{
    memset(e, 0, sizeof *e);
    e->ctx = tu_context(threads, 0);
    if (!e->ctx) return 0;
    mos_context *c = e->ctx;
    int ok = CHECK_OK_B(mos_target_create(c, &(mos_target_desc){ .width = MW, .height = MH, .samples = 4 }, &e->t)) &&
             CHECK_OK_B(mos_buffer_create(c, &(mos_buffer_desc){ .data = quad_xyuv, .size = sizeof quad_xyuv }, &e->vb)) &&
             CHECK_OK_B(mos_buffer_create(c, &(mos_buffer_desc){ .data = quad_idx, .size = sizeof quad_idx }, &e->ib)) &&
             CHECK_OK_B(mos_shader_create(c, &(mos_shader_desc){ .vertex = vs_xyuv, .fragment = fs_uniform,
                        .varying_count = 2 }, &e->sh));
    if (!ok) mos_context_destroy(e->ctx);
    return ok;
}

/* Draw counts, strides, index ranges and uniform sizes at zero and at the
 * extremes of their types: each rejected with its code, the frame goes on
 * and draws only what was accepted. */
static void test_draw_sizes(void)
{
    draw_env e;
    if (!draw_open(&e, 2)) return;
    static const float red[4] = { 1, 0, 0, 1 };
    static uint8_t big_uniforms[MOS_MAX_UNIFORM_BYTES + 1];
    CHECK_OK(mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t, .clear_rgba = { 0, 0, 1, 1 } }));
    const mos_draw_desc good = { .shader = e.sh, .vertices = e.vb, .vertex_stride = 4, .vertex_count = 4,
                                 .indices = e.ib, .index_count = 6, .uniforms = red, .uniform_size = sizeof red };
    static const struct { int stride, count, icount, first; mos_result code; } cases[] = {
        { 0, 4, 6, 0, MOS_ERR_INVALID_ARGUMENT },
        { -1, 4, 6, 0, MOS_ERR_INVALID_ARGUMENT },
        { INT_MIN, 4, 6, 0, MOS_ERR_INVALID_ARGUMENT },
        { INT_MAX, 4, 6, 0, MOS_ERR_INDEX_RANGE },
        { 4, -1, 6, 0, MOS_ERR_INVALID_ARGUMENT },
        { 4, INT_MIN, 6, 0, MOS_ERR_INVALID_ARGUMENT },
        { 4, INT_MAX, 6, 0, MOS_ERR_INDEX_RANGE },
        { INT_MAX, INT_MAX, 6, 0, MOS_ERR_INDEX_RANGE },
        { 4, 5, 6, 0, MOS_ERR_INDEX_RANGE },
        { 4, 4, -1, 0, MOS_ERR_INDEX_RANGE },
        { 4, 4, INT_MIN, 0, MOS_ERR_INDEX_RANGE },
        { 4, 4, INT_MAX, 0, MOS_ERR_INDEX_RANGE },
        { 4, 4, INT_MAX - 2, 0, MOS_ERR_INDEX_RANGE },
        { 4, 4, 6, -1, MOS_ERR_INDEX_RANGE },
        { 4, 4, 6, INT_MIN, MOS_ERR_INDEX_RANGE },
        { 4, 4, 6, INT_MAX, MOS_ERR_INDEX_RANGE },
        { 4, 4, 3, INT_MAX, MOS_ERR_INDEX_RANGE },
        { 4, 4, 0, INT_MAX, MOS_ERR_INDEX_RANGE },
        { 4, 4, 0, 7, MOS_ERR_INDEX_RANGE },
        { 4, 4, 5, 0, MOS_ERR_INVALID_ARGUMENT },
        { 4, 2, 6, 0, MOS_ERR_INDEX_RANGE },  /* index 3 >= vertex_count */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mos_draw_desc d = good;
        d.vertex_stride = cases[i].stride;
        d.vertex_count = cases[i].count;
        d.index_count = cases[i].icount;
        d.first_index = cases[i].first;
        mos_result r = mos_draw(e.ctx, &d);
        CHECK_MSG(r == cases[i].code, "case %zu (stride %d, count %d, index_count %d, first %d): %s", i,
                  cases[i].stride, cases[i].count, cases[i].icount, cases[i].first, check_res_name_(r));
        CHECK_MSG(mos_last_error(e.ctx)[0], "case %zu: no message", i);
    }
    /* non-indexed: counts beyond the buffer, first beyond the count */
    mos_draw_desc d = good;
    d.indices = (mos_buffer){ 0 };
    d.index_count = 0;
    d.vertex_count = 3;
    d.first_index = INT_MAX;
    CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_INDEX_RANGE);
    d.first_index = 0;
    d.index_count = INT_MAX;
    CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_INDEX_RANGE);
    d.index_count = 0;
    d.vertex_count = 1 << 30;
    CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_INDEX_RANGE);
    /* uniform sizes */
    d = good;
    d.uniforms = big_uniforms;
    const size_t us[] = { MOS_MAX_UNIFORM_BYTES + 1, SIZE_MAX / 2, SIZE_MAX };
    for (size_t i = 0; i < sizeof us / sizeof us[0]; i++) {
        d.uniform_size = us[i];
        CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_INVALID_ARGUMENT);
    }
    d.uniforms = NULL;
    d.uniform_size = 16;
    CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_INVALID_ARGUMENT);
    /* zero-sized draws are accepted and draw nothing */
    d = good;
    d.indices = (mos_buffer){ 0 };
    d.index_count = 0;
    d.vertex_count = 0;
    CHECK_OK(mos_draw(e.ctx, &d));
    d.vertex_count = 4;
    d.first_index = 4;  /* nothing left after first_index */
    CHECK_OK(mos_draw(e.ctx, &d));
    d.first_index = 0;
    d.vertex_count = 2;  /* fewer than one triangle */
    CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_INVALID_ARGUMENT);
    mos_frame_stats st;
    CHECK_OK(mos_end_frame(e.ctx, &st));
    CHECK_EQ_INT(st.triangles_in, 0);
    CHECK_EQ_INT(mismatches(e.ctx, e.t, MW, MH, (const uint8_t[4]){ 0, 0, 255, 255 }), 0);
    /* the good draw alone: whole buffer (index_count 0) and explicit count */
    CHECK_OK(mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t }));
    d = good;
    d.index_count = 0;
    CHECK_OK(mos_draw(e.ctx, &d));
    d.index_count = 3;
    d.first_index = 3;
    CHECK_OK(mos_draw(e.ctx, &d));
    CHECK_OK(mos_end_frame(e.ctx, &st));
    CHECK_EQ_INT(st.triangles_in, 3);
    CHECK_EQ_INT(mismatches(e.ctx, e.t, MW, MH, (const uint8_t[4]){ 255, 0, 0, 255 }), 0);
    mos_context_destroy(e.ctx);
}

/* Frame descriptor values: clear depth, shading rate, cache size, lens and
 * pinhole at zero and beyond their ranges; the extremes of the valid ranges
 * render a blurred frame to completion. */
static void test_frame_sizes(void)
{
    draw_env e;
    if (!draw_open(&e, 2)) return;
    const float nan = NAN, inf = INFINITY;
    const float depths[] = { -1.0f, 1.5f, nan, inf, -inf, -1e-30f };
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++)
        CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t, .clear_depth = depths[i] }),
                  MOS_ERR_INVALID_ARGUMENT);
    const float rates[] = { -1.0f, 1.0f / 17.0f, 16.5f, nan, inf, 1e30f };
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
        CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t,
                  .blur = { .shading_rate = rates[i] } }), MOS_ERR_INVALID_ARGUMENT);
    const int caches[] = { -1, INT_MIN, 1, 3, 65537, INT_MAX };
    for (size_t i = 0; i < sizeof caches / sizeof caches[0]; i++)
        CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t,
                  .blur = { .cache_quads = caches[i] } }), MOS_ERR_INVALID_ARGUMENT);
    const float lens[] = { nan, inf, -inf, 1e7f };
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t, .blur = { .lens_x = lens[i] } }),
                  MOS_ERR_INVALID_ARGUMENT);
        CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t, .blur = { .lens_y = lens[i] } }),
                  MOS_ERR_INVALID_ARGUMENT);
        CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t, .blur = { .focus_w = lens[i] * 1e25f } }),
                  MOS_ERR_INVALID_ARGUMENT);
        CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t, .blur = { .pinhole = { 0, 0, lens[i] } } }),
                  MOS_ERR_INVALID_ARGUMENT);
    }
    CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t, .blur = { .pinhole = { 1, 1, 0 } } }),
              MOS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t, .blur = { .pinhole = { 0, 0, 1.5f } } }),
              MOS_ERR_INVALID_ARGUMENT);
    /* none of these opened a frame */
    CHECK_ERR(e.ctx, mos_end_frame(e.ctx, NULL), MOS_ERR_FRAME_STATE);

    /* Valid extremes: the smallest cache with bilinear decoupled shading
     * and motion, the largest, the finest and coarsest shading rates. */
    static const float off0[2] = { 0, 0 }, off1[2] = { 0.25f, 0.1f };
    const struct { mos_sampling mode; int cache; float rate; bool bilinear; } ok[] = {
        { MOS_SAMPLING_DECOUPLED, 4, 1.0f, true }, { MOS_SAMPLING_DECOUPLED, 65536, 1.0f / 16.0f, false },
        { MOS_SAMPLING_DECOUPLED, 4, 16.0f, true }, { MOS_SAMPLING_SUPERSAMPLE, 4, 1.0f, false },
        { MOS_SAMPLING_MSAA, 4, 16.0f, false },
    };
    /* A quad larger than the screen so the moving one still covers it. */
    static const float big_quad[] = { -3, -3, 0, 0, 3, -3, 1, 0, 3, 3, 1, 1, -3, 3, 0, 1 };
    mos_buffer bigb;
    mos_shader tsh;
    mos_texture tex;
    CHECK_OK(mos_buffer_create(e.ctx, &(mos_buffer_desc){ .data = big_quad, .size = sizeof big_quad }, &bigb));
    CHECK_OK(mos_shader_create(e.ctx, &(mos_shader_desc){ .vertex = vs_xyuv_off, .fragment = fs_tex, .varying_count = 2 }, &tsh));
    CHECK_OK(mos_texture_create(e.ctx, &(mos_texture_desc){ .width = 2, .height = 2, .rgba8 = tex_rgba }, &tex));
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        mos_frame_desc fd = { .target = e.t, .clear_depth = 1e-30f,
                              .blur = { .mode = ok[i].mode, .cache_quads = ok[i].cache, .shading_rate = ok[i].rate,
                                        .bilinear = ok[i].bilinear, .pinhole = { 0, 0, 1 } } };
        if (!CHECK_OK_B(mos_begin_frame(e.ctx, &fd))) continue;
        CHECK_OK(mos_draw(e.ctx, &(mos_draw_desc){ .shader = tsh, .vertices = bigb, .vertex_stride = 4,
                          .vertex_count = 4, .indices = e.ib, .uniforms = off0, .uniforms_t1 = off1,
                          .uniform_size = sizeof off0, .textures = { tex } }));
        mos_frame_stats st;
        CHECK_OK(mos_end_frame(e.ctx, &st));
        CHECK_MSG(mismatches(e.ctx, e.t, MW, MH, tex_rgba) == 0, "case %zu: image is not the texture colour", i);
    }
    mos_context_destroy(e.ctx);
}

/* Every enum of the API given values outside its range. */
static void test_enums(void)
{
    const int vals[] = { 999, -1, INT_MAX, INT_MIN, 4 };
    /* mos_isa */
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        char what[32];
        snprintf(what, sizeof what, "isa %d", vals[i]);
        expect_create_fails((mos_context_desc){ .pipeline = { .threads = 1 }, .isa = (mos_isa)vals[i] },
                            MOS_ERR_INVALID_ARGUMENT, what);
    }
    mos_context *ctx = NULL;
    CHECK_OK(mos_context_create(&(mos_context_desc){ .pipeline = { .threads = 1 }, .isa = MOS_ISA_SCALAR }, &ctx));
    mos_context_destroy(ctx);

    draw_env e;
    if (!draw_open(&e, 2)) return;
    static const float green[4] = { 0, 1, 0, 1 };
    const int more[] = { 999, -1, INT_MAX, INT_MIN, 3, 2 };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
        /* mos_sampling */
        if (more[i] != 2 && more[i] != 3)
            CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t,
                      .blur = { .mode = (mos_sampling)more[i] } }), MOS_ERR_INVALID_ARGUMENT);
    }
    CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t,
              .blur = { .mode = (mos_sampling)(MOS_SAMPLING_SUPERSAMPLE + 1) } }), MOS_ERR_INVALID_ARGUMENT);
    CHECK_OK(mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t }));
    mos_draw_desc d = { .shader = e.sh, .vertices = e.vb, .vertex_stride = 4, .vertex_count = 4, .indices = e.ib,
                        .uniforms = green, .uniform_size = sizeof green };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
        d.cull = MOS_CULL_NONE;
        d.blend = (mos_blend)more[i];
        if (more[i] != 2 && more[i] != 3) CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_INVALID_ARGUMENT);
        d.blend = MOS_BLEND_OPAQUE;
        d.cull = (mos_cull)more[i];
        CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_INVALID_ARGUMENT);
    }
    d.blend = (mos_blend)(MOS_BLEND_PREMULTIPLIED + 1);
    CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_INVALID_ARGUMENT);
    CHECK_OK(mos_end_frame(e.ctx, NULL));
    /* mos_wrap, mos_mip_filter */
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        mos_texture bad_tex = { 0 };
        const mos_texture_desc td = { .width = 2, .height = 2, .rgba8 = tex_rgba };
        mos_texture_desc t1 = td, t2 = td, t3 = td;
        t1.wrap_u = (mos_wrap)vals[i];
        t2.wrap_v = (mos_wrap)vals[i];
        t3.mip = (mos_mip_filter)vals[i];
        CHECK_ERR(e.ctx, mos_texture_create(e.ctx, &t1, &bad_tex), MOS_ERR_INVALID_ARGUMENT);
        CHECK_ERR(e.ctx, mos_texture_create(e.ctx, &t2, &bad_tex), MOS_ERR_INVALID_ARGUMENT);
        CHECK_ERR(e.ctx, mos_texture_create(e.ctx, &t3, &bad_tex), MOS_ERR_INVALID_ARGUMENT);
        CHECK(bad_tex.id == 0);
    }
    CHECK_EQ_INT(mismatches(e.ctx, e.t, MW, MH, (const uint8_t[4]){ 0, 0, 0, 0 }), 0);
    mos_context_destroy(e.ctx);
    /* mos_result */
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        mos_result r = (mos_result)vals[i];
        if (vals[i] >= 0 && vals[i] < MOS_RESULT_COUNT) continue;
        CHECK(mos_result_name(r) && strcmp(mos_result_name(r), "MOS_ERR_UNKNOWN") == 0);
        CHECK(mos_result_message(r) && mos_result_message(r)[0]);
    }
    CHECK(strcmp(mos_result_name(MOS_RESULT_COUNT), "MOS_ERR_UNKNOWN") == 0);
}

/* NULL context and NULL pointers everywhere; frame-state sequences around
 * failed calls (test_input has the plain ones). */
static void test_frame_sequences(void)
{
    mos_target t0 = { 1 };
    mos_buffer b0 = { 1 };
    mos_shader s0 = { 1 };
    mos_texture x0 = { 1 };
    uint8_t px[16];
    float pos[5];
    mos_pipeline_desc pd = { .threads = 7 };
    CHECK_RES(mos_context_configure(NULL, &pd), MOS_ERR_INVALID_ARGUMENT);
    mos_context_pipeline(NULL, &pd);  /* no crash, nothing written */
    CHECK_EQ_INT(pd.threads, 7);
    CHECK(mos_last_error(NULL) != NULL);
    CHECK_RES(mos_target_create(NULL, &(mos_target_desc){ .width = 1, .height = 1 }, &t0), MOS_ERR_INVALID_ARGUMENT);
    CHECK_RES(mos_buffer_create(NULL, &(mos_buffer_desc){ .data = px, .size = 4 }, &b0), MOS_ERR_INVALID_ARGUMENT);
    CHECK_RES(mos_texture_create(NULL, &(mos_texture_desc){ .width = 1, .height = 1, .rgba8 = px }, &x0),
              MOS_ERR_INVALID_ARGUMENT);
    CHECK_RES(mos_shader_create(NULL, &(mos_shader_desc){ .vertex = vs_xyuv, .fragment = fs_tex }, &s0),
              MOS_ERR_INVALID_ARGUMENT);
    CHECK_RES(mos_target_read_rgba8(NULL, t0, px, 4), MOS_ERR_INVALID_ARGUMENT);
    CHECK_RES(mos_target_read_samples(NULL, t0, px, 4), MOS_ERR_INVALID_ARGUMENT);
    CHECK_RES(mos_target_sample_position(NULL, t0, 0, 0, 0, pos), MOS_ERR_INVALID_ARGUMENT);
    CHECK_RES(mos_begin_frame(NULL, &(mos_frame_desc){ .target = t0 }), MOS_ERR_INVALID_ARGUMENT);
    CHECK_RES(mos_draw(NULL, &(mos_draw_desc){ .shader = s0 }), MOS_ERR_INVALID_ARGUMENT);
    CHECK_RES(mos_end_frame(NULL, NULL), MOS_ERR_INVALID_ARGUMENT);
    mos_target_destroy(NULL, t0);
    mos_buffer_destroy(NULL, b0);
    mos_shader_destroy(NULL, s0);
    mos_texture_destroy(NULL, x0);
    mos_context_destroy(NULL);
    mos_blur_lens(NULL, 1, 1, 60, 1);
    CHECK(mos_pattern_describe(NULL) == NULL);
    CHECK_RES(mos_context_create(NULL, NULL), MOS_ERR_INVALID_ARGUMENT);
    expect_create_fails((mos_context_desc){ .allocator = { .alloc = NULL, .free = na_free } }, MOS_ERR_INVALID_ARGUMENT,
                        "free without alloc");

    draw_env e;
    if (!draw_open(&e, 2)) return;
    mos_context_pipeline(e.ctx, NULL);  /* no crash */
    CHECK_ERR(e.ctx, mos_target_create(e.ctx, &(mos_target_desc){ .width = 1, .height = 1 }, NULL), MOS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(e.ctx, mos_buffer_create(e.ctx, &(mos_buffer_desc){ .data = px, .size = 4 }, NULL), MOS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(e.ctx, mos_buffer_create(e.ctx, NULL, &b0), MOS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(e.ctx, mos_texture_create(e.ctx, &(mos_texture_desc){ .width = 1, .height = 1, .rgba8 = px }, NULL),
              MOS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(e.ctx, mos_texture_create(e.ctx, NULL, &x0), MOS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(e.ctx, mos_shader_create(e.ctx, &(mos_shader_desc){ .vertex = vs_xyuv, .fragment = fs_tex }, NULL),
              MOS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, NULL), MOS_ERR_INVALID_ARGUMENT);

    static const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 };
    const mos_draw_desc dr = { .shader = e.sh, .vertices = e.vb, .vertex_stride = 4, .vertex_count = 4,
                               .indices = e.ib, .uniforms = red, .uniform_size = sizeof red };
    mos_draw_desc dg = dr;
    dg.uniforms = green;
    /* A failed begin opens no frame. */
    CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = { 0 } }), MOS_ERR_BAD_HANDLE);
    CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = { 0xFFFFFFFFu } }), MOS_ERR_BAD_HANDLE);
    CHECK_ERR(e.ctx, mos_draw(e.ctx, &dr), MOS_ERR_FRAME_STATE);
    CHECK_ERR(e.ctx, mos_end_frame(e.ctx, NULL), MOS_ERR_FRAME_STATE);
    /* A second begin (valid or not) fails and leaves the first frame and its draws intact. */
    CHECK_OK(mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t, .clear_rgba = { 0, 0, 1, 1 } }));
    CHECK_OK(mos_draw(e.ctx, &dg));
    CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t, .clear_rgba = { 1, 1, 1, 1 } }),
              MOS_ERR_FRAME_STATE);
    CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = { 0 } }), MOS_ERR_FRAME_STATE);
    CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, NULL), MOS_ERR_INVALID_ARGUMENT);
    /* Reading the target being rendered, or rejected draws, do not end it. */
    CHECK_ERR(e.ctx, mos_target_read_rgba8(e.ctx, e.t, px, 0), MOS_ERR_FRAME_STATE);
    CHECK_ERR(e.ctx, mos_target_read_samples(e.ctx, e.t, px, 0), MOS_ERR_FRAME_STATE);
    CHECK_ERR(e.ctx, mos_draw(e.ctx, NULL), MOS_ERR_INVALID_ARGUMENT);
    mos_draw_desc bad = dr;
    bad.blend = (mos_blend)999;
    CHECK_ERR(e.ctx, mos_draw(e.ctx, &bad), MOS_ERR_INVALID_ARGUMENT);
    CHECK_ERR(e.ctx, mos_context_configure(e.ctx, NULL), MOS_ERR_FRAME_STATE);
    CHECK_OK(mos_end_frame(e.ctx, NULL));
    CHECK_EQ_INT(mismatches(e.ctx, e.t, MW, MH, (const uint8_t[4]){ 0, 255, 0, 255 }), 0);
    CHECK_ERR(e.ctx, mos_end_frame(e.ctx, NULL), MOS_ERR_FRAME_STATE);
    /* An empty frame after all that clears. */
    CHECK_OK(mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t, .clear_rgba = { 1, 0, 1, 1 } }));
    CHECK_OK(mos_end_frame(e.ctx, NULL));
    CHECK_EQ_INT(mismatches(e.ctx, e.t, MW, MH, (const uint8_t[4]){ 255, 0, 255, 255 }), 0);
    /* Destroying the context with a frame open and draws recorded (ASan
     * checks that nothing leaks). */
    CHECK_OK(mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t }));
    for (int i = 0; i < 100; i++) CHECK_OK(mos_draw(e.ctx, &dr));
    mos_context_destroy(e.ctx);
}

/* Resources destroyed while a draw recorded in the open frame uses them:
 * deferred to the frame's end, the frame draws what was recorded, the
 * handles are dead at once and stay dead, nothing leaks or is used after
 * being freed (ASan). */
static void test_destroy_in_frame(void)
{
    mos_context *ctx = tu_context(2, 0);
    if (!ctx) return;
    mos_target t, t2;
    mos_buffer vb, ib;
    mos_shader sh;
    mos_texture tex;
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){ .width = MW, .height = MH, .samples = 4 }, &t));
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){ .width = 20, .height = 12 }, &t2));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_xyuv, .size = sizeof quad_xyuv }, &vb));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_idx, .size = sizeof quad_idx }, &ib));
    CHECK_OK(mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_xyuv, .fragment = fs_tex, .varying_count = 2 }, &sh));
    CHECK_OK(mos_texture_create(ctx, &(mos_texture_desc){ .width = 2, .height = 2, .rgba8 = tex_rgba }, &tex));
    const mos_draw_desc d = { .shader = sh, .vertices = vb, .vertex_stride = 4, .vertex_count = 4,
                              .indices = ib, .textures = { tex } };

    CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){ .target = t }));
    CHECK_OK(mos_draw(ctx, &d));
    mos_buffer_destroy(ctx, vb);
    mos_buffer_destroy(ctx, ib);
    mos_shader_destroy(ctx, sh);
    mos_texture_destroy(ctx, tex);
    /* twice is harmless */
    mos_buffer_destroy(ctx, vb);
    mos_texture_destroy(ctx, tex);
    /* the handles are dead for new draws at once */
    CHECK_ERR(ctx, mos_draw(ctx, &d), MOS_ERR_BAD_HANDLE);
    mos_draw_desc d2 = d;
    mos_buffer vb2;
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_xyuv, .size = sizeof quad_xyuv }, &vb2));
    d2.vertices = vb2;
    CHECK_ERR(ctx, mos_draw(ctx, &d2), MOS_ERR_BAD_HANDLE);  /* ib, sh, tex still dead */
    /* Many new resources in the same frame (the handle pools grow): none
     * aliases a destroyed one. */
    mos_buffer more[40];
    for (int i = 0; i < 40; i++) {
        CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_idx, .size = sizeof quad_idx }, &more[i]));
        CHECK(more[i].id != vb.id && more[i].id != ib.id);
    }
    mos_shader sh2;
    mos_texture tex2;
    CHECK_OK(mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_xyuv, .fragment = fs_tex, .varying_count = 2 }, &sh2));
    CHECK_OK(mos_texture_create(ctx, &(mos_texture_desc){ .width = 1, .height = 1, .rgba8 = tex_rgba }, &tex2));
    CHECK(sh2.id != sh.id && tex2.id != tex.id);
    for (int i = 0; i < 40; i++) mos_buffer_destroy(ctx, more[i]);
    CHECK_OK(mos_end_frame(ctx, NULL));
    CHECK_EQ_INT(mismatches(ctx, t, MW, MH, tex_rgba), 0);
    /* after the frame, still dead */
    CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){ .target = t }));
    CHECK_ERR(ctx, mos_draw(ctx, &d), MOS_ERR_BAD_HANDLE);
    CHECK_OK(mos_end_frame(ctx, NULL));

    /* The frame's own target destroyed mid-frame: the frame still ends,
     * the target is gone for reads and later frames. */
    mos_buffer ib2;
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_idx, .size = sizeof quad_idx }, &ib2));
    const mos_draw_desc d3 = { .shader = sh2, .vertices = vb2, .vertex_stride = 4, .vertex_count = 4,
                               .indices = ib2, .textures = { tex2 } };
    CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){ .target = t2 }));
    CHECK_OK(mos_draw(ctx, &d3));
    mos_target_destroy(ctx, t2);
    mos_buffer_destroy(ctx, vb2);
    mos_texture_destroy(ctx, tex2);
    uint8_t img[20 * 12 * 4];
    CHECK_ERR(ctx, mos_target_read_rgba8(ctx, t2, img, 20 * 4), MOS_ERR_BAD_HANDLE);
    CHECK_OK(mos_end_frame(ctx, NULL));
    CHECK_ERR(ctx, mos_target_read_rgba8(ctx, t2, img, 20 * 4), MOS_ERR_BAD_HANDLE);
    CHECK_ERR(ctx, mos_begin_frame(ctx, &(mos_frame_desc){ .target = t2 }), MOS_ERR_BAD_HANDLE);
    mos_target t3;
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){ .width = 20, .height = 12 }, &t3));
    CHECK(t3.id != t2.id);

    /* Everything destroyed mid-frame, then the context without ending it. */
    mos_buffer vb3;
    mos_texture tex3;
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_xyuv, .size = sizeof quad_xyuv }, &vb3));
    CHECK_OK(mos_texture_create(ctx, &(mos_texture_desc){ .width = 2, .height = 2, .rgba8 = tex_rgba }, &tex3));
    const mos_draw_desc d4 = { .shader = sh2, .vertices = vb3, .vertex_stride = 4, .vertex_count = 4,
                               .indices = ib2, .textures = { tex3 } };
    CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){ .target = t3 }));
    CHECK_OK(mos_draw(ctx, &d4));
    mos_target_destroy(ctx, t3);
    mos_buffer_destroy(ctx, vb3);
    mos_buffer_destroy(ctx, ib2);
    mos_shader_destroy(ctx, sh2);
    mos_texture_destroy(ctx, tex3);
    mos_target_destroy(ctx, t);
    mos_context_destroy(ctx);
}

/* ---- allocator hooks ------------------------------------------------------ */
typedef struct nth_alloc {
    atomic_long calls;      /* allocation requests so far */
    atomic_long live;       /* blocks handed out and not freed */
    atomic_long fail_at;    /* the request that fails (1-based); 0 = none */
    atomic_long fail_from;  /* every request from this one on fails; 0 = none */
    atomic_long failures;   /* requests refused */
    size_t refuse_above;    /* requests larger than this fail; 0 = no limit */
} nth_alloc;

static void *na_alloc(size_t size, void *user)
{
    nth_alloc *a = user;
    long n = atomic_fetch_add(&a->calls, 1) + 1;
    long at = atomic_load(&a->fail_at), from = atomic_load(&a->fail_from);
    if (n == at || (from && n >= from) || (a->refuse_above && size > a->refuse_above)) {
        atomic_fetch_add(&a->failures, 1);
        return NULL;
    }
    void *p = malloc(size);
    if (p) atomic_fetch_add(&a->live, 1);
    return p;
}
static void na_free(void *p, void *user)
{
    nth_alloc *a = user;
    if (p) atomic_fetch_sub(&a->live, 1);
    free(p);
}
static void na_reset(nth_alloc *a, long fail_at)
{
    atomic_store(&a->calls, 0);
    atomic_store(&a->live, 0);
    atomic_store(&a->fail_at, fail_at);
    atomic_store(&a->fail_from, 0);
    atomic_store(&a->failures, 0);
    a->refuse_above = 0;
}

/* A 16384x16384 target: at 16 spp more samples than a target may hold
 * (rejected before allocating), at the limit (8 spp) a clean out-of-memory
 * through an allocator that refuses blocks over 256 MiB, and (unsanitized
 * builds) one real maximal target at 1 spp that draws a triangle, or
 * cleanly fails. */
static void test_huge_target(void)
{
    mos_context *ctx = tu_context(2, 0);
    if (!ctx) return;
    mos_target t = { 0xAAAAu };
    CHECK_ERR(ctx, mos_target_create(ctx, &(mos_target_desc){ .width = 16384, .height = 16384, .samples = 16 }, &t),
              MOS_ERR_BAD_SIZE);
    CHECK(t.id == 0);
    CHECK_ERR(ctx, mos_target_create(ctx, &(mos_target_desc){ .width = 16384, .height = 16384, .samples = 64 }, &t),
              MOS_ERR_BAD_SIZE);
    mos_context_destroy(ctx);

    nth_alloc na;
    na_reset(&na, 0);
    na.refuse_above = (size_t)256 << 20;
    ctx = NULL;
    CHECK_OK(mos_context_create(&(mos_context_desc){ .pipeline = { .threads = 2 },
             .allocator = { .alloc = na_alloc, .free = na_free, .user_data = &na } }, &ctx));
    if (!ctx) return;
    CHECK_ERR(ctx, mos_target_create(ctx, &(mos_target_desc){ .width = 16384, .height = 16384, .samples = 8 }, &t),
              MOS_ERR_OUT_OF_MEMORY);
    CHECK(t.id == 0 && atomic_load(&na.failures) > 0);
    /* the context is fine afterwards */
    draw_env e = { .ctx = ctx };
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){ .width = MW, .height = MH }, &e.t));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_xyuv, .size = sizeof quad_xyuv }, &e.vb));
    CHECK_OK(mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_xyuv, .fragment = fs_tex }, &e.sh));
    CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){ .target = e.t }));
    CHECK_OK(mos_draw(ctx, &(mos_draw_desc){ .shader = e.sh, .vertices = e.vb, .vertex_stride = 4, .vertex_count = 3 }));
    CHECK_OK(mos_end_frame(ctx, NULL));
    mos_context_destroy(ctx);
    CHECK_EQ_INT(atomic_load(&na.live), 0);

    if (TEST_SANITIZED) return;
    ctx = tu_context(2, 0);
    if (!ctx) return;
    mos_result r = mos_target_create(ctx, &(mos_target_desc){ .width = 16384, .height = 16384, .samples = 1 }, &t);
    CHECK_MSG(r == MOS_OK || r == MOS_ERR_OUT_OF_MEMORY, "16384x16384: %s", check_res_name_(r));
    if (r == MOS_OK) {
        mos_shader sh;
        mos_buffer vb;
        static const float tri[] = { -1, -1, 0, 0, -0.999f, -1, 0, 0, -1, -0.999f, 0, 0 };
        CHECK_OK(mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_xyuv, .fragment = fs_tex }, &sh));
        CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = tri, .size = sizeof tri }, &vb));
        CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){ .target = t, .clear_rgba = { 0, 0, 0, 1 } }));
        CHECK_OK(mos_draw(ctx, &(mos_draw_desc){ .shader = sh, .vertices = vb, .vertex_stride = 4, .vertex_count = 3 }));
        mos_frame_stats st;
        CHECK_OK(mos_end_frame(ctx, &st));
        CHECK_EQ_INT(st.triangles_binned, 1);
        CHECK(st.covered_pixels > 0);
    } else {
        CHECK(mos_last_error(ctx)[0]);
    }
    mos_context_destroy(ctx);  /* releases the ~3 GiB at once */
}

/* The scenario of test_fail_nth_allocation: a failed step must be a clean
 * MOS_ERR_OUT_OF_MEMORY with a message, caused by the injected failure;
 * the context stays usable, so the step is retried and must then succeed. */
#define NTH_STEP(call) do {                                                                     \
    mos_result nth_r_ = (call);                                                                 \
    if (nth_r_ != MOS_OK) {                                                                     \
        CHECK_MSG(nth_r_ == MOS_ERR_OUT_OF_MEMORY, "failing allocation %ld: %s returned %s",    \
                  n, #call, check_res_name_(nth_r_));                                           \
        CHECK_MSG(atomic_load(&na->failures) > 0, "allocation %ld: %s failed with no injected failure", n, #call); \
        CHECK_MSG(mos_last_error(ctx)[0], "allocation %ld: %s: no message", n, #call);          \
        nth_r_ = (call);                                                                        \
        CHECK_MSG(nth_r_ == MOS_OK, "allocation %ld: retry of %s returned %s", n, #call,        \
                  check_res_name_(nth_r_));                                                     \
        if (nth_r_ != MOS_OK) goto done;                                                        \
    }                                                                                           \
} while (0)

/* One frame: begin, draw, end.  If the end fails (out of memory) the frame
 * is over and is run again. */
static mos_result nth_frame(mos_context *ctx, nth_alloc *na, long n, const mos_frame_desc *fd, const mos_draw_desc *d)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        NTH_STEP(mos_begin_frame(ctx, fd));
        NTH_STEP(mos_draw(ctx, d));
        mos_result r = mos_end_frame(ctx, NULL);
        if (r == MOS_OK) return MOS_OK;
        CHECK_MSG(r == MOS_ERR_OUT_OF_MEMORY, "failing allocation %ld: mos_end_frame returned %s", n,
                  check_res_name_(r));
        CHECK_MSG(attempt == 0 && atomic_load(&na->failures) > 0, "allocation %ld: end_frame failed twice", n);
        CHECK_MSG(mos_last_error(ctx)[0], "allocation %ld: end_frame: no message", n);
        CHECK_RES(mos_end_frame(ctx, NULL), MOS_ERR_FRAME_STATE);  /* the failed frame is over */
    }
done:
    return MOS_ERR_OUT_OF_MEMORY;
}

static void nth_scenario(nth_alloc *na, long n)
{
    tu_log_rec lr = { 0 };
    mos_context_desc cd = { .pipeline = { .threads = 2 },
                            .allocator = { .alloc = na_alloc, .free = na_free, .user_data = na },
                            .logger = { .func = tu_logger, .user_data = &lr } };
    mos_context *ctx = NULL;
    mos_result r = mos_context_create(&cd, &ctx);
    if (r != MOS_OK) {
        CHECK_MSG(r == MOS_ERR_OUT_OF_MEMORY, "failing allocation %ld: mos_context_create returned %s", n,
                  check_res_name_(r));
        CHECK_MSG(ctx == NULL && lr.calls > 0 && lr.msg[0], "allocation %ld: create failed without a message", n);
        CHECK_MSG(atomic_load(&na->live) == 0, "allocation %ld: failed create leaked %ld blocks", n,
                  (long)atomic_load(&na->live));
        if (!CHECK_OK_B(mos_context_create(&cd, &ctx))) return;
    }
    mos_target t;
    mos_buffer vb, ib;
    mos_shader sh;
    mos_texture tex;
    static const float off0[2] = { 0, 0 }, off1[2] = { 0.2f, 0 };
    static const float big_quad[] = { -3, -3, 0, 0, 3, -3, 1, 0, 3, 3, 1, 1, -3, 3, 0, 1 };
    NTH_STEP(mos_target_create(ctx, &(mos_target_desc){ .width = 40, .height = 24, .samples = 4 }, &t));
    NTH_STEP(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = big_quad, .size = sizeof big_quad }, &vb));
    NTH_STEP(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_idx, .size = sizeof quad_idx }, &ib));
    NTH_STEP(mos_texture_create(ctx, &(mos_texture_desc){ .width = 2, .height = 2, .rgba8 = tex_rgba }, &tex));
    NTH_STEP(mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_xyuv_off, .fragment = fs_tex, .varying_count = 2 }, &sh));
    mos_draw_desc d = { .shader = sh, .vertices = vb, .vertex_stride = 4, .vertex_count = 4, .indices = ib,
                        .uniforms = off0, .uniform_size = sizeof off0, .textures = { tex } };
    mos_frame_desc fd = { .target = t };
    if (nth_frame(ctx, na, n, &fd, &d) != MOS_OK) goto done;
    CHECK_MSG(mismatches(ctx, t, 40, 24, tex_rgba) == 0, "allocation %ld: wrong image", n);
    /* a motion-blurred frame (shading cache, blurred setup) */
    d.uniforms_t1 = off1;
    if (nth_frame(ctx, na, n, &fd, &d) != MOS_OK) goto done;
    CHECK_MSG(mismatches(ctx, t, 40, 24, tex_rgba) == 0, "allocation %ld: wrong blurred image", n);
    /* a new shape (threads restart), and a frame on it */
    NTH_STEP(mos_context_configure(ctx, &(mos_pipeline_desc){ .threads = 3, .bin_px = 8 }));
    d.uniforms_t1 = NULL;
    if (nth_frame(ctx, na, n, &fd, &d) != MOS_OK) goto done;
    CHECK_MSG(mismatches(ctx, t, 40, 24, tex_rgba) == 0, "allocation %ld: wrong image after configure", n);
    mos_buffer_destroy(ctx, vb);
    mos_buffer_destroy(ctx, ib);
    mos_texture_destroy(ctx, tex);
    mos_shader_destroy(ctx, sh);
    mos_target_destroy(ctx, t);
done:
    mos_context_destroy(ctx);
}

/* Allocation N fails, for every N from 1 until the scenario runs without
 * reaching N: every failure is a clean MOS_ERR_OUT_OF_MEMORY, the context
 * recovers, and nothing leaks. */
static void test_fail_nth_allocation(void)
{
    nth_alloc na;
    long n;
    for (n = 1; n < 100000; n++) {
        na_reset(&na, n);
        int before = check_g.failures;
        nth_scenario(&na, n);
        CHECK_MSG(atomic_load(&na.live) == 0, "failing allocation %ld: %ld blocks leaked", n, (long)atomic_load(&na.live));
        if (check_g.failures - before > 20) break;  /* one broken N says enough */
        if (atomic_load(&na.failures) == 0) break;  /* the scenario never reached allocation n */
    }
    CHECK_MSG(n > 10 && n < 100000, "stopped at allocation %ld", n);
}

/* Every allocation failing from some point on while the pipeline is being
 * reshaped (so the old shape cannot be restarted either): the call fails
 * cleanly and, once memory is back, the context renders again or reports
 * an error; it never hangs. */
static void test_configure_out_of_memory(void)
{
    nth_alloc na;
    na_reset(&na, 0);
    mos_context *ctx = NULL;
    CHECK_OK(mos_context_create(&(mos_context_desc){ .pipeline = { .threads = 2 },
             .allocator = { .alloc = na_alloc, .free = na_free, .user_data = &na } }, &ctx));
    if (!ctx) return;
    draw_env e = { .ctx = ctx };
    static const float blue[4] = { 0, 0, 1, 1 };
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){ .width = MW, .height = MH }, &e.t));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_xyuv, .size = sizeof quad_xyuv }, &e.vb));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_idx, .size = sizeof quad_idx }, &e.ib));
    CHECK_OK(mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_xyuv, .fragment = fs_uniform }, &e.sh));
    const mos_draw_desc d = { .shader = e.sh, .vertices = e.vb, .vertex_stride = 4, .vertex_count = 4,
                              .indices = e.ib, .uniforms = blue, .uniform_size = sizeof blue };
    /* configure first builds a probe of the pattern table; the failures
     * below start after its allocations, so each round reaches the thread
     * restart (counted by a configure that restarts nothing). */
    const long calls0 = (long)atomic_load(&na.calls);
    CHECK_OK(mos_context_configure(ctx, &(mos_pipeline_desc){ .threads = 2 }));
    const long probe = (long)atomic_load(&na.calls) - calls0;
    CHECK(probe >= 1);
    for (int round = 0; round < 3; round++) {
        atomic_store(&na.fail_from, atomic_load(&na.calls) + 1 + probe + round);
        CHECK_ERR(ctx, mos_context_configure(ctx, &(mos_pipeline_desc){ .threads = 3 + round }),
                  MOS_ERR_OUT_OF_MEMORY);
        atomic_store(&na.fail_from, 0);
        mos_result r = mos_begin_frame(ctx, &(mos_frame_desc){ .target = e.t });
        if (r != MOS_OK) {
            CHECK_MSG(r == MOS_ERR_OUT_OF_MEMORY || r == MOS_ERR_THREAD, "round %d: begin_frame: %s", round,
                      check_res_name_(r));
            continue;
        }
        CHECK_OK(mos_draw(ctx, &d));
        CHECK_OK(mos_end_frame(ctx, NULL));
        CHECK_EQ_INT(mismatches(ctx, e.t, MW, MH, (const uint8_t[4]){ 0, 0, 255, 255 }), 0);
    }
    /* and a good configure brings it back */
    CHECK_OK(mos_context_configure(ctx, &(mos_pipeline_desc){ .threads = 2 }));
    CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){ .target = e.t, .clear_rgba = { 1, 1, 1, 1 } }));
    CHECK_OK(mos_draw(ctx, &d));
    CHECK_OK(mos_end_frame(ctx, NULL));
    CHECK_EQ_INT(mismatches(ctx, e.t, MW, MH, (const uint8_t[4]){ 0, 0, 255, 255 }), 0);
    mos_context_destroy(ctx);
    CHECK_EQ_INT(atomic_load(&na.live), 0);
}

/* ---- many contexts on many threads ---------------------------------------- */
enum { MT_THREADS = 8, MT_ITERS = 20, MT_W = 24, MT_H = 20 };
typedef struct mt_job {
    int id, failures;
    char first[160];  /* the first failure, reported by the main thread */
} mt_job;

static void mt_fail(mt_job *j, const char *what, int iter, mos_result r)
{
    if (!j->failures++)
        snprintf(j->first, sizeof j->first, "thread %d iteration %d: %s: %s", j->id, iter, what,
                 (unsigned)r < MOS_RESULT_COUNT ? mos_result_name(r) : "wrong image");
}

static void *mt_main(void *arg)
{
    mt_job *j = arg;
    for (int it = 0; it < MT_ITERS; it++) {
        mos_context *ctx = NULL;
        mos_result r = mos_context_create(&(mos_context_desc){ .pipeline = { .threads = 2, .bin_px = 8 } }, &ctx);
        if (r != MOS_OK) {
            mt_fail(j, "create", it, r);
            continue;
        }
        const float rgba[4] = { (float)j->id / 255.0f, (float)it / 255.0f, 0.5f, 1.0f };
        mos_target t;
        mos_buffer vb, ib;
        mos_shader sh;
        if ((r = mos_target_create(ctx, &(mos_target_desc){ .width = MT_W, .height = MT_H, .samples = 4 }, &t)) ||
            (r = mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_xyuv, .size = sizeof quad_xyuv }, &vb)) ||
            (r = mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad_idx, .size = sizeof quad_idx }, &ib)) ||
            (r = mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_xyuv, .fragment = fs_uniform }, &sh)) ||
            (r = mos_begin_frame(ctx, &(mos_frame_desc){ .target = t })) ||
            (r = mos_draw(ctx, &(mos_draw_desc){ .shader = sh, .vertices = vb, .vertex_stride = 4, .vertex_count = 4,
                                                 .indices = ib, .uniforms = rgba, .uniform_size = sizeof rgba })) ||
            (r = mos_end_frame(ctx, NULL))) {
            mt_fail(j, "frame", it, r);
        } else {
            uint8_t img[MT_W * MT_H * 4];
            const uint8_t want[4] = { (uint8_t)j->id, (uint8_t)it, 128, 255 };
            if ((r = mos_target_read_rgba8(ctx, t, img, MT_W * 4)) != MOS_OK) {
                mt_fail(j, "read", it, r);
            } else {
                for (int p = 0; p < MT_W * MT_H; p++)
                    if (memcmp(img + 4 * p, want, 4) != 0) {
                        mt_fail(j, "image", it, MOS_RESULT_COUNT);
                        break;
                    }
            }
        }
        mos_context_destroy(ctx);
    }
    return NULL;
}

/* 8 threads x 20 contexts, each with 2 workers, created, rendered, checked
 * and destroyed at the same time (TSan checks the library shares nothing). */
static void test_threads_contexts(void)
{
    mt_job jobs[MT_THREADS];
    pthread_t th[MT_THREADS];
    int started[MT_THREADS];
    for (int i = 0; i < MT_THREADS; i++) {
        jobs[i] = (mt_job){ .id = i + 1 };
        started[i] = pthread_create(&th[i], NULL, mt_main, &jobs[i]) == 0;
        CHECK_MSG(started[i], "pthread_create %d", i);
    }
    for (int i = 0; i < MT_THREADS; i++) {
        if (!started[i]) continue;
        pthread_join(th[i], NULL);
        CHECK_MSG(jobs[i].failures == 0, "%d failures, first: %s", jobs[i].failures, jobs[i].first);
    }
}

int main(void)
{
    TEST_RUN(test_pipeline_sizes);
    TEST_RUN(test_resource_sizes);
    TEST_RUN(test_draw_sizes);
    TEST_RUN(test_frame_sizes);
    TEST_RUN(test_enums);
    TEST_RUN(test_accumulation_buffer);
    TEST_RUN(test_shader_object);
    TEST_RUN(test_batch_quads);
    TEST_RUN(test_frame_sequences);
    TEST_RUN(test_destroy_in_frame);
    TEST_RUN(test_huge_target);
    TEST_RUN(test_fail_nth_allocation);
    TEST_RUN(test_configure_out_of_memory);
    TEST_RUN(test_threads_contexts);
    return TEST_EXIT();
}
