/* test_input.c — bad input: NaN/Inf and degenerate triangles, back faces,
 * index range, sizes, samples, patterns, handles, frame state, allocator
 * hooks and out-of-memory.  Fed by make test. */
#include <limits.h>
#include <stdatomic.h>
#include "testutil.h"

enum { IW = 64, IH = 48 };

#define CHECK_FAILS(ctx, call) do {                                              \
    mos_result check_r2_ = (call);                                               \
    CHECK_MSG(check_r2_ != MOS_OK, "%s succeeded", #call);                       \
    const char *check_msg_ = mos_last_error(ctx);                                \
    CHECK_MSG(check_msg_ && check_msg_[0], "mos_last_error empty after %s", #call); \
} while (0)

typedef struct in_env {
    mos_context *ctx;
    mos_target t;
    mos_shader clip4, ndc2;
} in_env;

static int in_open(in_env *e)
{
    e->ctx = tu_context(2, 16);
    if (!e->ctx) return 0;
    if (!CHECK_OK_B(mos_target_create(e->ctx, &(mos_target_desc){ .width = IW, .height = IH }, &e->t))) {
        mos_context_destroy(e->ctx);
        return 0;
    }
    e->clip4 = tu_count_shader(e->ctx, tu_vs_clip4);
    e->ndc2 = tu_count_shader(e->ctx, tu_vs_ndc2);
    return 1;
}

/* Pixels with a non-zero red value in [x0, x1) x [y0, y1) (y up), in the
 * resolved image. */
static long lit(in_env *e, int x0, int y0, int x1, int y1)
{
    uint8_t *s = tu_read_rgba8(e->ctx, e->t, IW, IH);
    long n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) n += s[4 * ((size_t)(IH - 1 - y) * IW + (size_t)x)] != 0;
    free(s);
    return n;
}

/* After a frame, every sample holds what the frame wrote: the clear colour
 * where nothing was drawn, also in bins no triangle touched this frame (raw
 * samples and the resolved image). */
static void test_samples_cleared(void)
{
    static const int spps[] = { 1, 4 };
    for (int k = 0; k < 2; k++) {
        mos_context *ctx = tu_context(2, 16);
        if (!ctx) return;
        mos_target t;
        CHECK_OK(mos_target_create(ctx, &(mos_target_desc){ .width = IW, .height = IH, .samples = spps[k], .keep_samples = true }, &t));
        mos_shader sh = tu_count_shader(ctx, tu_vs_ndc2);
        const float full[] = { -1, -1, 3, -1, -1, 3 }, corner[] = { -1, -1, -0.9f, -1, -1, -0.9f };
        const float *draws[3] = { full, corner, NULL };
        for (int frame = 0; frame < 3; frame++) {
            tu_frame f = { .n = 0 };
            CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){ .target = t,
                                     .clear_rgba = { 0.0f, 1.0f, 0.0f, 1.0f } }));
            if (draws[frame])
                CHECK_OK(tu_draw(ctx, &f, sh, draws[frame], 2, 3, NULL, 0, MOS_CULL_NONE, MOS_BLEND_ADD, NULL, 0));
            CHECK_OK(tu_end(ctx, &f, NULL));
            uint8_t *s = tu_read_samples(ctx, t, IW, IH, spps[k]);
            uint8_t *img = tu_read_rgba8(ctx, t, IW, IH);
            long bad_s = 0, bad_p = 0;
            for (int y = 0; y < IH; y++)
                for (int x = 0; x < IW; x++) {
                    int drawn = frame == 0 || (frame == 1 && x < 4 && y < 4);
                    if (drawn) continue;
                    for (int q = 0; q < spps[k]; q++)
                        bad_s += tu_sample(s, IW, IH, spps[k], x, y, q, 0) != 0 ||
                                 tu_sample(s, IW, IH, spps[k], x, y, q, 1) != 255;
                    const uint8_t *p = img + 4 * ((size_t)(IH - 1 - y) * IW + (size_t)x);
                    bad_p += p[0] != 0 || p[1] != 255;
                }
            CHECK_MSG(bad_s == 0, "spp %d frame %d: %ld samples not the clear colour", spps[k], frame, bad_s);
            CHECK_MSG(bad_p == 0, "spp %d frame %d: %ld pixels not the clear colour", spps[k], frame, bad_p);
            free(s);
            free(img);
        }
        mos_context_destroy(ctx);
    }
}

static void test_result_names(void)
{
    CHECK(strcmp(mos_result_name(MOS_ERR_INDEX_RANGE), "MOS_ERR_INDEX_RANGE") == 0);
    CHECK(strcmp(mos_result_name(MOS_OK), "MOS_OK") == 0);
    CHECK(strcmp(mos_result_message(MOS_ERR_BAD_SIZE), "size is zero or out of range") == 0);
    for (int r = 0; r < MOS_RESULT_COUNT; r++) {
        const char *n = mos_result_name((mos_result)r), *m = mos_result_message((mos_result)r);
        CHECK_MSG(n && strncmp(n, "MOS_", 4) == 0, "code %d", r);
        CHECK_MSG(m && m[0], "code %d", r);
    }
}

/* Triangles with a NaN or infinite coordinate anywhere, or w = 0: culled,
 * nothing drawn, the frame completes. */
static void test_nan_inf(void)
{
    in_env e;
    if (!in_open(&e)) return;
    const float nan = NAN, inf = INFINITY;
    const float good[12] = { -1, -1, 0, 1, 1, -1, 0, 1, 0, 1, 0, 1 };
    float v[64 * 12];
    int n = 0;
    for (int vert = 0; vert < 3; vert++)
        for (int comp = 0; comp < 4; comp++) {
            const float bad[3] = { nan, inf, -inf };
            for (int b = 0; b < 3; b++) {
                memcpy(v + 12 * n, good, sizeof good);
                v[12 * n + 4 * vert + comp] = bad[b];
                n++;
            }
        }
    /* all w = 0, and all NaN */
    memcpy(v + 12 * n, good, sizeof good);
    v[12 * n + 3] = v[12 * n + 7] = v[12 * n + 11] = 0;
    n++;
    for (int i = 0; i < 12; i++) v[12 * n + i] = nan;
    n++;
    tu_frame f = { .n = 0 };
    mos_frame_stats st;
    CHECK_OK(mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t }));
    CHECK_OK(tu_draw(e.ctx, &f, e.clip4, v, 4, 3 * n, NULL, 0, MOS_CULL_NONE, MOS_BLEND_ADD, NULL, 0));
    CHECK_OK(tu_end(e.ctx, &f, &st));
    CHECK_EQ_INT(lit(&e, 0, 0, IW, IH), 0);
    CHECK_EQ_INT(st.triangles_in, n);
    CHECK_EQ_INT(st.triangles_binned, 0);
    /* Extreme but finite values must not crash (what they draw is not asserted). */
    const float big[] = { -3e38f, -3e38f, 0, 1, 3e38f, -3e38f, 0, 1, 0, 3e38f, 0, 1,
                          1e-38f, 1e-38f, 0, 1e-38f, 1, 0, 0, 1e-38f, 0, 1, 0, 1e-30f,
                          0, 0, 0, 1e-45f, 1, 0, 0, 1, 0, 1, 0, 1 };
    CHECK_OK(mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t }));
    CHECK_OK(tu_draw(e.ctx, &f, e.clip4, big, 4, 9, NULL, 0, MOS_CULL_NONE, MOS_BLEND_ADD, NULL, 0));
    CHECK_OK(tu_end(e.ctx, &f, &st));
    mos_context_destroy(e.ctx);
}

/* Zero-area triangles (collinear, coincident, equal after snapping): culled. */
static void test_degenerate(void)
{
    in_env e;
    if (!in_open(&e)) return;
    const float v[] = {
        -1, -1, 1, 1, 0, 0,                  /* collinear diagonal */
        -0.5f, 0.2f, 0.5f, 0.2f, 0.9f, 0.2f, /* collinear row */
        0.3f, 0.3f, 0.3f, 0.3f, 0.3f, 0.3f,  /* one point */
        -0.9f, -0.9f, 0.9f, 0.9f, 0.9f, 0.9f,/* two equal vertices */
        /* distinct floats, same 1/256-pixel position after snapping */
        0.1f, 0.1f, 0.1f + 1e-5f, 0.1f, 0.1f, 0.1f + 1e-5f,
    };
    tu_frame f = { .n = 0 };
    mos_frame_stats st;
    CHECK_OK(mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t }));
    CHECK_OK(tu_draw(e.ctx, &f, e.ndc2, v, 2, 15, NULL, 0, MOS_CULL_NONE, MOS_BLEND_ADD, NULL, 0));
    CHECK_OK(tu_end(e.ctx, &f, &st));
    CHECK_EQ_INT(lit(&e, 0, 0, IW, IH), 0);
    CHECK_EQ_INT(st.triangles_in, 5);
    CHECK_EQ_INT(st.triangles_binned, 0);
    mos_context_destroy(e.ctx);
}

static void test_backface(void)
{
    in_env e;
    if (!in_open(&e)) return;
    const float ccw[] = { -1, -1, 1, -1, -1, 1 }, cw[] = { -1, -1, -1, 1, 1, -1 };
    const struct { const float *v; mos_cull cull; int drawn; } cases[] = {
        { ccw, MOS_CULL_BACK, 1 }, { cw, MOS_CULL_BACK, 0 }, { cw, MOS_CULL_NONE, 1 },
        { ccw, MOS_CULL_NONE, 1 },
    };
    for (int c = 0; c < 4; c++) {
        tu_frame f = { .n = 0 };
        mos_frame_stats st;
        CHECK_OK(mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t }));
        CHECK_OK(tu_draw(e.ctx, &f, e.ndc2, cases[c].v, 2, 3, NULL, 0, cases[c].cull, MOS_BLEND_ADD, NULL, 0));
        CHECK_OK(tu_end(e.ctx, &f, &st));
        long n = lit(&e, 0, 0, IW, IH);
        /* the lower-left half of the target: IW * IH / 2 pixels minus the diagonal's share */
        if (cases[c].drawn) CHECK_MSG(n > IW * IH / 2 - IW && n <= IW * IH / 2 + IW, "case %d: %ld px", c, n);
        else CHECK_MSG(n == 0, "case %d: %ld px drawn by a culled back face", c, n);
        CHECK_EQ_INT(st.triangles_binned, cases[c].drawn);
    }
    mos_context_destroy(e.ctx);
}

/* Out-of-range indices: the draw is rejected, nothing of it is drawn, the rest
 * of the frame is. */
static void test_index_range(void)
{
    in_env e;
    if (!in_open(&e)) return;
    /* left half: a valid quad; right half: the bad draws */
    const float left[] = { -1, -1, 0, -1, 0, 1, -1, -1, 0, 1, -1, 1 };
    const float right[] = { 0, -1, 1, -1, 1, 1, 0, 1 };
    const uint32_t bad_idx[][3] = { { 0, 1, 4 }, { 0, 1, 0xFFFFFFFFu }, { 7, 1, 2 } };
    mos_buffer vb, ib[3], ok_ib;
    CHECK_OK(mos_buffer_create(e.ctx, &(mos_buffer_desc){ .data = right, .size = sizeof right }, &vb));
    for (int i = 0; i < 3; i++)
        CHECK_OK(mos_buffer_create(e.ctx, &(mos_buffer_desc){ .data = bad_idx[i], .size = sizeof bad_idx[i] }, &ib[i]));
    const uint32_t ok_idx[] = { 0, 1, 2, 0, 2, 3 };
    CHECK_OK(mos_buffer_create(e.ctx, &(mos_buffer_desc){ .data = ok_idx, .size = sizeof ok_idx }, &ok_ib));
    tu_frame f = { .n = 0 };
    CHECK_OK(mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t }));
    CHECK_OK(tu_draw(e.ctx, &f, e.ndc2, left, 2, 6, NULL, 0, MOS_CULL_NONE, MOS_BLEND_ADD, NULL, 0));
    mos_draw_desc d = { .shader = e.ndc2, .vertices = vb, .vertex_stride = 2, .vertex_count = 4,
                        .blend = MOS_BLEND_ADD };
    for (int i = 0; i < 3; i++) {
        d.indices = ib[i];
        d.index_count = 3;
        CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_INDEX_RANGE);
    }
    /* ranges beyond the index buffer, a count not a multiple of 3, negative first */
    d.indices = ok_ib;
    d.index_count = 6; d.first_index = 3;
    CHECK_FAILS(e.ctx, mos_draw(e.ctx, &d));
    d.index_count = 9; d.first_index = 0;
    CHECK_FAILS(e.ctx, mos_draw(e.ctx, &d));
    d.index_count = 4;
    CHECK_FAILS(e.ctx, mos_draw(e.ctx, &d));
    d.index_count = 3; d.first_index = -3;
    CHECK_FAILS(e.ctx, mos_draw(e.ctx, &d));
    /* non-indexed: more vertices than the buffer holds */
    d.indices = (mos_buffer){ 0 };
    d.index_count = 0; d.first_index = 0; d.vertex_count = 6;
    CHECK_FAILS(e.ctx, mos_draw(e.ctx, &d));
    /* indexed: indices fine, vertex_count larger than the buffer */
    d.indices = ok_ib; d.index_count = 6; d.vertex_count = 5;
    CHECK_FAILS(e.ctx, mos_draw(e.ctx, &d));
    CHECK_OK(tu_end(e.ctx, &f, NULL));
    CHECK_EQ_INT(lit(&e, IW / 2, 0, IW, IH), 0);
    CHECK_EQ_INT(lit(&e, 0, 0, IW / 2, IH), IW / 2 * IH);
    /* the same draw with good indices draws the right half */
    CHECK_OK(mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t }));
    d.indices = ok_ib; d.index_count = 6; d.vertex_count = 4;
    CHECK_OK(mos_draw(e.ctx, &d));
    CHECK_OK(mos_end_frame(e.ctx, NULL));
    CHECK_EQ_INT(lit(&e, IW / 2, 0, IW, IH), IW / 2 * IH);
    mos_context_destroy(e.ctx);
}

static void test_bad_sizes(void)
{
    mos_context *ctx = tu_context(1, 0);
    if (!ctx) return;
    mos_target t;
    const int sizes[][2] = { { 0, 10 }, { 10, 0 }, { -5, 10 }, { 10, -1 }, { 16385, 1 }, { 1, 16385 },
                             { 100000, 100000 }, { INT_MAX, INT_MAX }, { INT_MIN, 4 } };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        CHECK_ERR(ctx, mos_target_create(ctx, &(mos_target_desc){ .width = sizes[i][0],
                  .height = sizes[i][1] }, &t), MOS_ERR_BAD_SIZE);
    mos_texture tex;
    uint8_t px[16] = { 0 };
    CHECK_ERR(ctx, mos_texture_create(ctx, &(mos_texture_desc){ .width = 0, .height = 1, .rgba8 = px }, &tex),
              MOS_ERR_BAD_SIZE);
    CHECK_ERR(ctx, mos_texture_create(ctx, &(mos_texture_desc){ .width = 1, .height = 20000, .rgba8 = px }, &tex),
              MOS_ERR_BAD_SIZE);
    mos_buffer b;
    CHECK_FAILS(ctx, mos_buffer_create(ctx, &(mos_buffer_desc){ .data = px, .size = 0 }, &b));
    CHECK_FAILS(ctx, mos_buffer_create(ctx, &(mos_buffer_desc){ .data = NULL, .size = 16 }, &b));
    /* the smallest and a thin target are fine */
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){ .width = 1, .height = 1 }, &t));
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){ .width = 16384, .height = 1, .samples = 16 }, &t));
    mos_context_destroy(ctx);
}

static void test_unsupported_samples(void)
{
    mos_context *ctx = tu_context(1, 0);
    if (!ctx) return;
    mos_target t;
    const int bad[] = { 3, 5, 6, 12, 17, 26, 28, 33, 63, 65, 128 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_ERR(ctx, mos_target_create(ctx, &(mos_target_desc){ .width = 8, .height = 8,
                  .samples = bad[i] }, &t), MOS_ERR_UNSUPPORTED_SAMPLES);
    CHECK_FAILS(ctx, mos_target_create(ctx, &(mos_target_desc){ .width = 8, .height = 8, .samples = -1 }, &t));
    const int good[] = { 0, 1, 2, 4, 8, 16, 27, 32, 64 };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        CHECK_OK(mos_target_create(ctx, &(mos_target_desc){ .width = 8, .height = 8, .samples = good[i] }, &t));
    mos_context_destroy(ctx);
}

static void test_patterns(void)
{
    tu_log_rec lr = { 0 };
    mos_context *ctx = (mos_context *)0x1;
    mos_context_desc cd = { .pipeline = { .threads = 2, .pattern = "no-such-pattern" },
                            .logger = { .func = tu_logger, .user_data = &lr } };
    CHECK_RES(mos_context_create(&cd, &ctx), MOS_ERR_UNKNOWN_PATTERN);
    CHECK(lr.calls >= 1 && lr.last == MOS_ERR_UNKNOWN_PATTERN && lr.msg[0]);
    cd.pipeline.pattern = "g80";
    cd.pipeline.threads = 4;
    CHECK_RES(mos_context_create(&cd, &ctx), MOS_ERR_PATTERN_WORKERS);
    CHECK(lr.last == MOS_ERR_PATTERN_WORKERS);
    cd.pipeline.threads = 6;
    ctx = NULL;
    CHECK_OK(mos_context_create(&cd, &ctx));
    if (!ctx) return;
    mos_pipeline_desc before, after;
    mos_context_pipeline(ctx, &before);
    CHECK(before.pattern && strcmp(before.pattern, "g80") == 0);
    CHECK_EQ_INT(before.threads, 6);
    int calls = lr.calls;
    CHECK_ERR(ctx, mos_context_configure(ctx, &(mos_pipeline_desc){ .threads = 6, .pattern = "nope" }),
              MOS_ERR_UNKNOWN_PATTERN);
    CHECK(lr.calls > calls);
    CHECK_ERR(ctx, mos_context_configure(ctx, &(mos_pipeline_desc){ .threads = 4, .pattern = "g80" }),
              MOS_ERR_PATTERN_WORKERS);
    CHECK_ERR(ctx, mos_context_configure(ctx, &(mos_pipeline_desc){ .threads = 1, .pattern = "g80" }),
              MOS_ERR_PATTERN_WORKERS);
    CHECK(mos_pattern_describe("no-such-pattern") == NULL || mos_pattern_describe("no-such-pattern")[0] == 0);
    /* other bad shapes: rejected with a message, the shape kept */
    const mos_pipeline_desc bad[] = {
        { .bin_px = 3 }, { .bin_px = 512 }, { .bin_px = 2 }, { .bin_px = 16, .coarse_px = 100 },
        { .bin_px = 64, .coarse_px = 32 }, { .threads = MOS_MAX_WORKERS + 1 }, { .threads = -2 },
        { .fifo_depth = -5 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_FAILS(ctx, mos_context_configure(ctx, &bad[i]));
    mos_context_pipeline(ctx, &after);
    CHECK(after.threads == before.threads && after.bin_px == before.bin_px &&
          after.coarse_px == before.coarse_px && after.batch == before.batch &&
          after.early == before.early && after.fifo_depth == before.fifo_depth &&
          after.pattern && strcmp(after.pattern, "g80") == 0);
    /* every registered pattern has a description */
    const char *const *names = mos_pattern_names();
    int has_diag = 0, has_g80 = 0;
    for (int i = 0; names && names[i]; i++) {
        const char *d = mos_pattern_describe(names[i]);
        CHECK_MSG(d && d[0], "pattern %s has no description", names[i]);
        has_diag |= strcmp(names[i], "diagonal") == 0;
        has_g80 |= strcmp(names[i], "g80") == 0;
    }
    CHECK(has_diag && has_g80);
    mos_context_destroy(ctx);
}

static void vs_nop(const mos_vs_batch *b) { tu_vs_ndc2(b); }

static void test_handles(void)
{
    in_env e;
    if (!in_open(&e)) return;
    const float v[] = { -1, -1, 1, -1, -1, 1 };
    mos_buffer vb, vb2;
    CHECK_OK(mos_buffer_create(e.ctx, &(mos_buffer_desc){ .data = v, .size = sizeof v }, &vb));
    mos_buffer_destroy(e.ctx, vb);
    CHECK_OK(mos_buffer_create(e.ctx, &(mos_buffer_desc){ .data = v, .size = sizeof v }, &vb2));
    CHECK(vb.id != vb2.id);  /* a stale handle never aliases a new one */
    mos_shader sh;
    CHECK_OK(mos_shader_create(e.ctx, &(mos_shader_desc){ .vertex = vs_nop, .fragment = tu_fs_count }, &sh));
    uint8_t texel[4] = { 255, 0, 0, 255 };
    mos_texture tex;
    CHECK_OK(mos_texture_create(e.ctx, &(mos_texture_desc){ .width = 1, .height = 1, .rgba8 = texel }, &tex));
    mos_texture_destroy(e.ctx, tex);

    CHECK_OK(mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t }));
    mos_draw_desc d = { .shader = sh, .vertices = vb, .vertex_stride = 2, .vertex_count = 3 };
    CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_BAD_HANDLE);          /* destroyed buffer */
    d.vertices = (mos_buffer){ 0 };
    CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_BAD_HANDLE);          /* null buffer */
    d.vertices = (mos_buffer){ 0xDEADBEEFu };
    CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_BAD_HANDLE);          /* garbage */
    d.vertices = vb2;
    d.indices = vb;
    d.index_count = 3;
    CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_BAD_HANDLE);          /* destroyed index buffer */
    d.indices = (mos_buffer){ 0 };
    d.index_count = 0;
    d.textures[0] = tex;
    CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_BAD_HANDLE);          /* destroyed texture */
    d.textures[0] = (mos_texture){ 0 };
    mos_shader_destroy(e.ctx, sh);
    CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_BAD_HANDLE);          /* destroyed shader */
    CHECK_OK(mos_end_frame(e.ctx, NULL));
    CHECK_EQ_INT(lit(&e, 0, 0, IW, IH), 0);

    /* destroyed target */
    mos_target t2;
    CHECK_OK(mos_target_create(e.ctx, &(mos_target_desc){ .width = 8, .height = 8 }, &t2));
    mos_target_destroy(e.ctx, t2);
    uint8_t buf[8 * 8 * 4];
    CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = t2 }), MOS_ERR_BAD_HANDLE);
    CHECK_ERR(e.ctx, mos_target_read_rgba8(e.ctx, t2, buf, 32), MOS_ERR_BAD_HANDLE);
    CHECK_ERR(e.ctx, mos_target_read_samples(e.ctx, t2, buf, 32), MOS_ERR_BAD_HANDLE);
    /* double destroy and null handles are harmless */
    mos_target_destroy(e.ctx, t2);
    mos_buffer_destroy(e.ctx, vb);
    mos_buffer_destroy(e.ctx, (mos_buffer){ 0 });
    mos_shader_destroy(e.ctx, sh);
    mos_texture_destroy(e.ctx, tex);
    /* row_bytes too small */
    CHECK_FAILS(e.ctx, mos_target_read_rgba8(e.ctx, e.t, buf, IW * 4 - 1));
    mos_context_destroy(e.ctx);
}

static void test_frame_state(void)
{
    in_env e;
    if (!in_open(&e)) return;
    const float v[] = { -1, -1, 1, -1, -1, 1 };
    mos_buffer vb;
    CHECK_OK(mos_buffer_create(e.ctx, &(mos_buffer_desc){ .data = v, .size = sizeof v }, &vb));
    mos_draw_desc d = { .shader = e.ndc2, .vertices = vb, .vertex_stride = 2, .vertex_count = 3 };
    CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_FRAME_STATE);
    CHECK_ERR(e.ctx, mos_end_frame(e.ctx, NULL), MOS_ERR_FRAME_STATE);
    CHECK_OK(mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t }));
    CHECK_ERR(e.ctx, mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t }), MOS_ERR_FRAME_STATE);
    CHECK_ERR(e.ctx, mos_context_configure(e.ctx, &(mos_pipeline_desc){ .threads = 3 }), MOS_ERR_FRAME_STATE);
    CHECK_OK(mos_draw(e.ctx, &d));
    CHECK_OK(mos_end_frame(e.ctx, NULL));
    CHECK_ERR(e.ctx, mos_draw(e.ctx, &d), MOS_ERR_FRAME_STATE);
    CHECK_ERR(e.ctx, mos_end_frame(e.ctx, NULL), MOS_ERR_FRAME_STATE);
    /* the context still works */
    CHECK(lit(&e, 0, 0, IW, IH) > 0);
    CHECK_OK(mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t }));
    CHECK_OK(mos_end_frame(e.ctx, NULL));
    CHECK_EQ_INT(lit(&e, 0, 0, IW, IH), 0);
    mos_context_destroy(e.ctx);
}

static void fs_nop(const mos_fs_batch *b) { tu_fs_count(b); }

static void test_bad_arguments(void)
{
    in_env e;
    if (!in_open(&e)) return;
    mos_shader sh;
    CHECK_FAILS(e.ctx, mos_shader_create(e.ctx, &(mos_shader_desc){ .vertex = NULL, .fragment = fs_nop }, &sh));
    CHECK_FAILS(e.ctx, mos_shader_create(e.ctx, &(mos_shader_desc){ .vertex = vs_nop, .fragment = NULL }, &sh));
    CHECK_FAILS(e.ctx, mos_shader_create(e.ctx, &(mos_shader_desc){ .vertex = vs_nop, .fragment = fs_nop,
                .varying_count = MOS_MAX_VARYINGS + 1 }, &sh));
    CHECK_FAILS(e.ctx, mos_shader_create(e.ctx, &(mos_shader_desc){ .vertex = vs_nop, .fragment = fs_nop,
                .varying_count = -1 }, &sh));
    CHECK_FAILS(e.ctx, mos_shader_create(e.ctx, NULL, &sh));
    CHECK_FAILS(e.ctx, mos_target_create(e.ctx, NULL, &(mos_target){ 0 }));
    const float v[] = { -1, -1, 1, -1, -1, 1 };
    mos_buffer vb;
    CHECK_OK(mos_buffer_create(e.ctx, &(mos_buffer_desc){ .data = v, .size = sizeof v }, &vb));
    CHECK_OK(mos_begin_frame(e.ctx, &(mos_frame_desc){ .target = e.t }));
    static uint8_t big_uniforms[MOS_MAX_UNIFORM_BYTES + 1];
    mos_draw_desc d = { .shader = e.ndc2, .vertices = vb, .vertex_stride = 2, .vertex_count = 3,
                        .uniforms = big_uniforms, .uniform_size = sizeof big_uniforms };
    CHECK_FAILS(e.ctx, mos_draw(e.ctx, &d));
    d.uniform_size = 0; d.uniforms = NULL;
    d.vertex_stride = 0;
    CHECK_FAILS(e.ctx, mos_draw(e.ctx, &d));
    d.vertex_stride = 2; d.vertex_count = -3;
    CHECK_FAILS(e.ctx, mos_draw(e.ctx, &d));
    d.vertex_count = 3; d.blend = (mos_blend)99;
    CHECK_FAILS(e.ctx, mos_draw(e.ctx, &d));
    d.blend = MOS_BLEND_OPAQUE; d.cull = (mos_cull)7;
    CHECK_FAILS(e.ctx, mos_draw(e.ctx, &d));
    CHECK_FAILS(e.ctx, mos_draw(e.ctx, NULL));
    CHECK_OK(mos_end_frame(e.ctx, NULL));
    CHECK_EQ_INT(lit(&e, 0, 0, IW, IH), 0);
    mos_context_destroy(e.ctx);
    mos_context_desc cd = { .pipeline = { .threads = 1 } };
    CHECK(mos_context_create(&cd, NULL) != MOS_OK);
}

/* ---- allocator hooks ------------------------------------------------------ */
typedef struct count_alloc {
    atomic_long allocs, frees;
    atomic_long budget;  /* allocations left before failing; < 0 = unlimited */
    unsigned misalign;   /* non-zero: every block starts this many bytes past a 64-byte boundary */
} count_alloc;
static void *ca_alloc(size_t size, void *user)
{
    count_alloc *c = user;
    if (atomic_load(&c->budget) >= 0 && atomic_fetch_sub(&c->budget, 1) <= 0) return NULL;
    if (!c->misalign) {
        void *p = malloc(size ? size : 1);
        if (p) atomic_fetch_add(&c->allocs, 1);
        return p;
    }
    /* Exactly SIZE bytes (so ASan sees any write past them) starting
     * misalign bytes past a 64-byte boundary, the allocator's own pointer
     * in the 8 bytes below. */
    void *raw;
    if (posix_memalign(&raw, 64, 64 + c->misalign + size)) return NULL;
    unsigned char *q = (unsigned char *)raw + 64 + c->misalign;
    memcpy(q - sizeof raw, &raw, sizeof raw);
    atomic_fetch_add(&c->allocs, 1);
    return q;
}
static void ca_free(void *p, void *user)
{
    count_alloc *c = user;
    if (!p) return;
    atomic_fetch_add(&c->frees, 1);
    if (c->misalign) memcpy(&p, (unsigned char *)p - sizeof p, sizeof p);
    free(p);
}

/* One small frame through a context on C's allocator; returns the first
 * failing result (MOS_OK if none). */
static mos_result alloc_run(count_alloc *c, int threads)
{
    mos_context *ctx = NULL;
    mos_context_desc cd = { .pipeline = { .threads = threads },
                            .allocator = { .alloc = ca_alloc, .free = ca_free, .user_data = c } };
    mos_result r = mos_context_create(&cd, &ctx);
    if (r != MOS_OK) return r;
    mos_target t;
    mos_shader sh;
    mos_buffer vb;
    const float v[] = { -1, -1, 1, -1, -1, 1, 1, 1, -1, 1, 1, -1 };
    uint8_t px[32 * 16 * 4];
    if ((r = mos_target_create(ctx, &(mos_target_desc){ .width = 32, .height = 16, .samples = 4 }, &t)))
        goto done;
    if ((r = mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_nop, .fragment = fs_nop }, &sh)))
        goto done;
    if ((r = mos_buffer_create(ctx, &(mos_buffer_desc){ .data = v, .size = sizeof v }, &vb)))
        goto done;
    for (int frame = 0; frame < 2; frame++) {
        if ((r = mos_begin_frame(ctx, &(mos_frame_desc){ .target = t }))) goto done;
        mos_result rd = mos_draw(ctx, &(mos_draw_desc){ .shader = sh, .vertices = vb, .vertex_stride = 2,
                                 .vertex_count = 6 });
        r = mos_end_frame(ctx, NULL);
        if (rd != MOS_OK) { r = rd; goto done; }  /* (after ending the frame) */
        if (r != MOS_OK) goto done;
    }
    r = mos_target_read_rgba8(ctx, t, px, 32 * 4);
    if (r == MOS_OK && (px[0] != 1 || px[2] != 0)) r = MOS_RESULT_COUNT;  /* wrong image */
    if (r == MOS_OK) r = mos_context_configure(ctx, &(mos_pipeline_desc){ .threads = threads + 1 });
done:
    mos_context_destroy(ctx);
    return r;
}

static void test_allocator_hooks(void)
{
    count_alloc c = { .misalign = 0 };
    atomic_init(&c.allocs, 0);
    atomic_init(&c.frees, 0);
    atomic_init(&c.budget, -1);
    CHECK_OK(alloc_run(&c, 3));
    CHECK(atomic_load(&c.allocs) > 0);
    CHECK_MSG(atomic_load(&c.allocs) == atomic_load(&c.frees), "%ld allocations, %ld frees",
              (long)atomic_load(&c.allocs), (long)atomic_load(&c.frees));
}

/* An allocator that returns blocks 1 to 63 bytes past a 64-byte boundary (the
 * contract asks for no alignment): the library aligns what it needs itself, so the
 * image (colours interpolated from varyings, 4 spp, two threads) equals the
 * one drawn on malloc, and the sanitizers see no misaligned access. */
static void vs_rgb(const mos_vs_batch *b)
{
    for (int i = 0; i < b->count; i++) {
        const float *a = b->attribs + i * b->stride;
        float *c = b->clip + 4 * i;
        c[0] = a[0], c[1] = a[1], c[2] = 0, c[3] = 1;
        for (int k = 0; k < 3; k++) b->varyings[3 * i + k] = 0.5f + 0.5f * (k < 2 ? a[k] : -a[0]);
    }
}
static void fs_rgb(const mos_fs_batch *b)
{
    for (int l = 0; l < 4 * b->quad_count; l++)
        for (int c = 0; c < 4; c++) b->out[c][l] = c < 3 ? b->varyings[c][l] : 1.0f;
}
static uint8_t *misaligned_frame(count_alloc *c)
{
    enum { W = 64, H = 48 };
    mos_context *ctx;
    mos_target t;
    mos_shader sh;
    mos_buffer vb;
    const float v[] = { -1, -1, 1, -1, -1, 1, 1, 1, -0.9f, 0.8f, 0.7f, -0.95f };
    mos_context_desc cd = { .pipeline = { .threads = 2, .bin_px = 16 } };
    if (c) cd.allocator = (mos_allocator){ .alloc = ca_alloc, .free = ca_free, .user_data = c };
    if (!CHECK_OK_B(mos_context_create(&cd, &ctx))) return NULL;
    uint8_t *px = NULL;
    if (CHECK_OK_B(mos_target_create(ctx, &(mos_target_desc){ .width = W, .height = H, .samples = 4 }, &t)) &&
        CHECK_OK_B(mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_rgb, .fragment = fs_rgb,
                                                              .varying_count = 3 }, &sh)) &&
        CHECK_OK_B(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = v, .size = sizeof v }, &vb)) &&
        CHECK_OK_B(mos_begin_frame(ctx, &(mos_frame_desc){ .target = t }))) {
        CHECK_OK(mos_draw(ctx, &(mos_draw_desc){ .shader = sh, .vertices = vb, .vertex_stride = 2,
                                                 .vertex_count = 6 }));
        if (CHECK_OK_B(mos_end_frame(ctx, NULL))) px = tu_read_rgba8(ctx, t, W, H);
    }
    mos_context_destroy(ctx);
    return px;
}

static void test_allocator_any_alignment(void)
{
    uint8_t *want = misaligned_frame(NULL);
    if (!want) return;
    static const unsigned offsets[] = { 1, 8, 16, 24, 32, 48, 57, 63 };
    for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; i++) {
        count_alloc c = { .misalign = offsets[i] };
        atomic_init(&c.allocs, 0);
        atomic_init(&c.frees, 0);
        atomic_init(&c.budget, -1);
        uint8_t *got = misaligned_frame(&c);
        CHECK_MSG(got && !memcmp(got, want, 64 * 48 * 4), "blocks at 64k + %u: image differs", offsets[i]);
        CHECK_MSG(atomic_load(&c.allocs) > 0 && atomic_load(&c.allocs) == atomic_load(&c.frees),
                  "blocks at 64k + %u: %ld allocations, %ld frees", offsets[i], (long)atomic_load(&c.allocs),
                  (long)atomic_load(&c.frees));
        free(got);
    }
    free(want);
}

/* Every allocation failing in turn: each call reports MOS_ERR_OUT_OF_MEMORY
 * (or succeeds), nothing crashes, nothing leaks. */
static void test_out_of_memory(void)
{
    count_alloc c = { .misalign = 0 };
    atomic_init(&c.allocs, 0);
    atomic_init(&c.frees, 0);
    atomic_init(&c.budget, -1);
    if (!CHECK_OK_B(alloc_run(&c, 2))) return;
    long total = atomic_load(&c.allocs);
    int limit = TEST_SANITIZED ? 150 : 400;
    for (long n = 0; n < total && n < limit; n++) {
        atomic_store(&c.allocs, 0);
        atomic_store(&c.frees, 0);
        atomic_store(&c.budget, n);
        mos_result r = alloc_run(&c, 2);
        CHECK_MSG(r == MOS_OK || r == MOS_ERR_OUT_OF_MEMORY || r == MOS_ERR_THREAD,
                  "failing allocation %ld of %ld: %s", n, total, check_res_name_(r));
        CHECK_MSG(atomic_load(&c.allocs) == atomic_load(&c.frees),
                  "failing allocation %ld: %ld allocations, %ld frees", n, (long)atomic_load(&c.allocs),
                  (long)atomic_load(&c.frees));
    }
}

int main(void)
{
    TEST_RUN(test_result_names);
    TEST_RUN(test_samples_cleared);
    TEST_RUN(test_nan_inf);
    TEST_RUN(test_degenerate);
    TEST_RUN(test_backface);
    TEST_RUN(test_index_range);
    TEST_RUN(test_bad_sizes);
    TEST_RUN(test_unsupported_samples);
    TEST_RUN(test_patterns);
    TEST_RUN(test_handles);
    TEST_RUN(test_frame_state);
    TEST_RUN(test_bad_arguments);
    TEST_RUN(test_allocator_hooks);
    TEST_RUN(test_allocator_any_alignment);
    TEST_RUN(test_out_of_memory);
    return TEST_EXIT();
}
