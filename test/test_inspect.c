/* test_inspect.c — what a frame records about itself (mos_frame_desc.inspect,
 * mos_target_read_bins / _read_map) and the (u, v, t) pattern seed: the
 * records agree with the frame statistics and with geometry known in
 * advance, and recording never changes the image.  Fed by make test. */
#include "testutil.h"

enum { W = 96, H = 64 };

/* Clip x, y from the attributes, shifted right by the uniform (motion). */
static void vs_shift(const mos_vs_batch *b)
{
    const float dx = b->uniforms ? *(const float *)b->uniforms : 0.0f;
    for (int i = 0; i < b->count; i++) {
        const float *a = b->attribs + i * b->stride;
        float *c = b->clip + 4 * i;
        c[0] = a[0] + dx, c[1] = a[1], c[2] = a[2], c[3] = 1.0f;
        b->varyings[i] = 0.5f + 0.5f * a[0];
    }
}
static void fs_ramp(const mos_fs_batch *b)
{
    for (int l = 0; l < 4 * b->quad_count; l++) {
        b->out[0][l] = b->varyings[0][l];
        b->out[1][l] = 0.25f;
        b->out[2][l] = 1.0f - b->varyings[0][l];
        b->out[3][l] = 1.0f;
    }
}

typedef struct scene {
    mos_context *ctx;
    mos_target t;
    mos_shader sh;
    int spp;
} scene;

static int open_scene(scene *s, int threads, const char *pattern, int spp)
{
    mos_context_desc cd = { .pipeline = { .threads = threads, .pattern = pattern, .bin_px = 16 } };
    s->spp = spp;
    if (!CHECK_OK_B(mos_context_create(&cd, &s->ctx))) return 0;
    if (!CHECK_OK_B(mos_target_create(s->ctx, &(mos_target_desc){ .width = W, .height = H, .samples = spp }, &s->t)) ||
        !CHECK_OK_B(mos_shader_create(s->ctx, &(mos_shader_desc){ .vertex = vs_shift, .fragment = fs_ramp,
                                                                  .varying_count = 1 }, &s->sh))) {
        mos_context_destroy(s->ctx);
        return 0;
    }
    return 1;
}

/* Three layers, back to front: a quad over everything at depth 0.9, a quad
 * over the left half (x < 0, NDC) at 0.5, a triangle over the middle at 0.2
 * (pixels 24..72 x 16..56, apex at the top); with motion, the triangle moves
 * right by MOVE (NDC) during the shutter. */
static mos_result draw_layers(scene *s, unsigned inspect, float move, uint32_t seed, mos_frame_stats *st)
{
    static const float left[] = { -1, -1, 0.5f, 0, -1, 0.5f, 0, 1, 0.5f, -1, -1, 0.5f, 0, 1, 0.5f, -1, 1, 0.5f };
    static const float mid[] = { -0.5f, -0.5f, 0.2f, 0.5f, -0.5f, 0.2f, 0, 0.75f, 0.2f };
    static const float all[] = { -1, -1, 0.9f, 1, -1, 0.9f, 1, 1, 0.9f, -1, -1, 0.9f, 1, 1, 0.9f, -1, 1, 0.9f };
    mos_frame_desc fd = { .target = s->t, .inspect = inspect };
    if (move != 0.0f) fd.blur = (mos_blur_desc){ .mode = MOS_SAMPLING_DECOUPLED, .seed = seed };
    mos_result r = mos_begin_frame(s->ctx, &fd);
    if (r != MOS_OK) return r;
    tu_frame f = { .n = 0 };
    const float zero = 0.0f;
    const float *layers[3] = { all, left, mid };
    const int counts[3] = { 6, 6, 3 };
    for (int k = 0; k < 3 && r == MOS_OK; k++) {
        mos_buffer vb;
        r = mos_buffer_create(s->ctx, &(mos_buffer_desc){ .data = layers[k], .size = (size_t)counts[k] * 3 * sizeof(float) },
                              &vb);
        if (r != MOS_OK) break;
        f.bufs[f.n++] = vb;
        r = mos_draw(s->ctx, &(mos_draw_desc){ .shader = s->sh, .vertices = vb, .vertex_stride = 3,
                                               .vertex_count = counts[k], .uniforms = &zero, .uniform_size = sizeof zero,
                                               .uniforms_t1 = k == 2 && move != 0.0f ? &move : NULL,
                                               .depth_test = true, .depth_write = true });
    }
    mos_result re = tu_end(s->ctx, &f, st);
    return r != MOS_OK ? r : re;
}

static float *read_map(scene *s, mos_inspect map)
{
    float *m = malloc((size_t)W * H * sizeof *m);
    if (!m) abort();
    if (!CHECK_OK_B(mos_target_read_map(s->ctx, s->t, map, m, W))) {
        free(m);
        return NULL;
    }
    return m;
}

/* Pixel (x, y), y up, of a map read rows top first. */
static float at(const float *m, int x, int y) { return m[(size_t)(H - 1 - y) * W + (size_t)x]; }

/* Owners follow the pattern: G80's table (seed 002) at 6 workers, bin by bin. */
static void test_bin_owners_g80(void)
{
    scene s;
    if (!open_scene(&s, 6, "g80", 1)) return;
    mos_bin_grid g;
    CHECK_RES(mos_target_read_bins(s.ctx, s.t, NULL, 0, &g), MOS_ERR_FRAME_STATE);  /* nothing rendered yet */
    CHECK_OK(draw_layers(&s, MOS_INSPECT_NONE, 0.0f, 0, NULL));
    CHECK_OK(mos_target_read_bins(s.ctx, s.t, NULL, 0, &g));
    CHECK(g.bins_x == W / 16 && g.bins_y == H / 16 && g.bin_px == 16);
    mos_bin_info bins[(W / 16) * (H / 16)];
    CHECK_RES(mos_target_read_bins(s.ctx, s.t, bins, 3, &g), MOS_ERR_BAD_SIZE);
    CHECK_OK(mos_target_read_bins(s.ctx, s.t, bins, sizeof bins / sizeof bins[0], &g));
    static const int N[6] = { 0, 2, 4, 1, 5, 3 };
    int wrong = 0;
    for (int by = 0; by < g.bins_y; by++)
        for (int bx = 0; bx < g.bins_x; bx++) {
            const mos_bin_info *b = &bins[by * g.bins_x + bx];
            wrong += b->worker != (bx + N[by % 6]) % 6;
            wrong += b->triangles != 0 || b->samples != 0 || b->ms != 0.0;  /* not recorded */
        }
    CHECK_MSG(wrong == 0, "%d bins disagree with G80's table (or hold unrecorded counts)", wrong);
    mos_context_destroy(s.ctx);
}

/* Per-bin counts add up to the frame's: samples to visibility_samples,
 * triangles to bin_spread x triangles_binned; every bin with work took time. */
static void test_bin_counts(void)
{
    scene s;
    if (!open_scene(&s, 2, NULL, 4)) return;
    mos_frame_stats st;
    CHECK_OK(draw_layers(&s, MOS_INSPECT_BINS, 0.0f, 0, &st));
    mos_bin_info bins[(W / 16) * (H / 16)];
    mos_bin_grid g;
    CHECK_OK(mos_target_read_bins(s.ctx, s.t, bins, sizeof bins / sizeof bins[0], &g));
    uint64_t samples = 0, tris = 0;
    int idle = 0;
    for (int b = 0; b < g.bins_x * g.bins_y; b++) {
        samples += bins[b].samples;
        tris += bins[b].triangles;
        idle += bins[b].triangles > 0 && !(bins[b].ms > 0.0);
        CHECK(bins[b].blurred_spread == 0.0);
    }
    CHECK_MSG(samples == st.visibility_samples, "bins hold %llu samples, the frame %llu", (unsigned long long)samples,
              (unsigned long long)st.visibility_samples);
    double refs = st.bin_spread * (double)st.triangles_binned;
    CHECK_MSG(fabs((double)tris - refs) < 0.5, "bins received %llu triangles, the frame sent %.1f",
              (unsigned long long)tris, refs);
    CHECK_MSG(idle == 0, "%d bins with work and no time", idle);
    mos_context_destroy(s.ctx);
}

/* Overdraw is the number of layers over each pixel (all pass the early
 * depth test, back to front); shades add up to the frame's invocations, one
 * quad per layer over an inner pixel; the area is that of the front layer. */
static void test_pixel_maps(void)
{
    scene s;
    if (!open_scene(&s, 2, NULL, 4)) return;
    mos_frame_stats st;
    CHECK_OK(draw_layers(&s, MOS_INSPECT_ALL, 0.0f, 0, &st));
    float *over = read_map(&s, MOS_INSPECT_OVERDRAW), *shades = read_map(&s, MOS_INSPECT_SHADES),
          *area = read_map(&s, MOS_INSPECT_TRIANGLE_AREA);
    if (over && shades && area) {
        /* Pixels well inside each region (away from edges). */
        static const struct { int x, y; float layers, area; } px[] = {
            { 4, 60, 2, 48 * 64 / 2 },  /* back, left */
            { 92, 4, 1, 96 * 64 / 2 },  /* back */
            { 36, 30, 3, 48 * 40 / 2 }, /* back, left, middle */
            { 60, 30, 2, 48 * 40 / 2 }, /* back, middle */
        };
        for (size_t i = 0; i < sizeof px / sizeof px[0]; i++) {
            CHECK_MSG(at(over, px[i].x, px[i].y) == px[i].layers, "(%d, %d): overdraw %g, expected %g", px[i].x,
                      px[i].y, at(over, px[i].x, px[i].y), px[i].layers);
            CHECK_MSG(at(shades, px[i].x, px[i].y) == px[i].layers, "(%d, %d): %g shades, expected %g", px[i].x,
                      px[i].y, at(shades, px[i].x, px[i].y), px[i].layers);
            CHECK_MSG(fabsf(at(area, px[i].x, px[i].y) - px[i].area) < 0.01f, "(%d, %d): area %g, expected %g",
                      px[i].x, px[i].y, at(area, px[i].x, px[i].y), px[i].area);
        }
        double sum = 0.0;
        for (int i = 0; i < W * H; i++) sum += shades[i];
        CHECK_MSG(sum == (double)st.shade_invocations, "shades add up to %.0f, the frame ran %llu", sum,
                  (unsigned long long)st.shade_invocations);
    }
    free(over);
    free(shades);
    free(area);
    /* A frame that records nothing: the maps are gone. */
    CHECK_OK(draw_layers(&s, MOS_INSPECT_BINS, 0.0f, 0, NULL));
    float m[W];
    CHECK_RES(mos_target_read_map(s.ctx, s.t, MOS_INSPECT_SHADES, m, W), MOS_ERR_FRAME_STATE);
    CHECK_RES(mos_target_read_map(s.ctx, s.t, MOS_INSPECT_BINS, m, W), MOS_ERR_INVALID_ARGUMENT);
    mos_context_destroy(s.ctx);
}

/* With motion blur (decoupled shading), shades still add up to the frame's
 * invocations, the moving triangle's bins report its spread, and bad inspect
 * bits are refused. */
static void test_blur_maps(void)
{
    scene s;
    if (!open_scene(&s, 2, NULL, 8)) return;
    mos_frame_stats st;
    CHECK_OK(draw_layers(&s, MOS_INSPECT_ALL, 0.3f, 0, &st));
    CHECK(st.blurred_triangles == 1);
    float *shades = read_map(&s, MOS_INSPECT_SHADES), *over = read_map(&s, MOS_INSPECT_OVERDRAW);
    if (shades && over) {
        double sum = 0.0;
        for (int i = 0; i < W * H; i++) sum += shades[i];
        CHECK_MSG(sum == (double)st.shade_invocations, "shades add up to %.0f, the frame ran %llu", sum,
                  (unsigned long long)st.shade_invocations);
        CHECK_MSG(at(over, 36, 30) == 3.0f, "middle: overdraw %g, expected 3", at(over, 36, 30));
    }
    free(shades);
    free(over);
    mos_bin_info bins[(W / 16) * (H / 16)];
    mos_bin_grid g;
    CHECK_OK(mos_target_read_bins(s.ctx, s.t, bins, sizeof bins / sizeof bins[0], &g));
    const mos_bin_info *mid = &bins[(30 / 16) * g.bins_x + 48 / 16];
    /* Bounds over the shutter: x from 24 to 24 + 48 + 14.4 pixels, y 16..56. */
    CHECK_MSG(mid->blurred_spread >= 12.0 && mid->blurred_spread <= 20.0, "blurred spread %g, expected 12..20 bins",
              mid->blurred_spread);
    CHECK_RES(mos_begin_frame(s.ctx, &(mos_frame_desc){ .target = s.t, .inspect = 1u << 7 }), MOS_ERR_INVALID_ARGUMENT);
    mos_context_destroy(s.ctx);
}

static uint8_t *render(scene *s, unsigned inspect, float move, uint32_t seed)
{
    CHECK_OK(draw_layers(s, inspect, move, seed, NULL));
    return tu_read_rgba8(s->ctx, s->t, W, H);
}

/* Recording changes no pixel (sharp and blurred); a seed draws another
 * (u, v, t) pattern, the same one whatever the thread count, and seed 0 is
 * the fixed pattern again. */
static void test_inspect_and_seed_keep_images(void)
{
    scene a, b;
    if (!open_scene(&a, 1, NULL, 8)) return;
    if (!open_scene(&b, 3, "hilbert", 8)) {
        mos_context_destroy(a.ctx);
        return;
    }
    const size_t n = (size_t)W * H * 4;
    uint8_t *plain = render(&a, 0, 0.0f, 0), *rec = render(&b, MOS_INSPECT_ALL, 0.0f, 0);
    CHECK_MSG(!memcmp(plain, rec, n), "recording changed the sharp image");
    free(plain);
    free(rec);
    uint8_t *s0 = render(&a, 0, 0.3f, 0), *s0rec = render(&b, MOS_INSPECT_ALL, 0.3f, 0);
    CHECK_MSG(!memcmp(s0, s0rec, n), "recording changed the blurred image");
    uint8_t *s1 = render(&a, 0, 0.3f, 1), *s1b = render(&b, 0, 0.3f, 1), *s0again = render(&b, 0, 0.3f, 0);
    CHECK_MSG(memcmp(s0, s1, n) != 0, "seed 1 drew the image of seed 0");
    CHECK_MSG(!memcmp(s1, s1b, n), "seed 1 differs between 1 and 3 threads");
    CHECK_MSG(!memcmp(s0, s0again, n), "seed 0 after seed 1 is not the fixed pattern");
    free(s0);
    free(s0rec);
    free(s1);
    free(s1b);
    free(s0again);
    mos_context_destroy(a.ctx);
    mos_context_destroy(b.ctx);
}

int main(void)
{
    TEST_RUN(test_bin_owners_g80);
    TEST_RUN(test_bin_counts);
    TEST_RUN(test_pixel_maps);
    TEST_RUN(test_blur_maps);
    TEST_RUN(test_inspect_and_seed_keep_images);
    return TEST_EXIT();
}
