/* test_tile_mask.c — mos_frame_desc.tile_mask: a frame that renders part of the screen gives, in its
 * tiles, the whole-screen render's pixels bit for bit and leaves the others as they were.
 * Fed by make test; drives the public API only (a procedural scene, sharp and blurred). */
#include "testutil.h"

enum { STRIDE = 9 };  /* x y z w | r g b a | depth-test flag (unused by the shaders) */

/* Clip position plus (uniforms) a clip-space offset times w: the t = 1
 * uniforms move the triangles (motion blur). */
static void vs_move(const mos_vs_batch *b)
{
    const float *off = b->uniforms;
    for (int i = 0; i < b->count; i++) {
        const float *a = b->attribs + i * b->stride;
        b->clip[4 * i + 0] = a[0] + off[0] * a[3];
        b->clip[4 * i + 1] = a[1] + off[1] * a[3];
        b->clip[4 * i + 2] = a[2];
        b->clip[4 * i + 3] = a[3];
        for (int c = 0; c < 4; c++) b->varyings[i * b->varying_count + c] = a[4 + c];
    }
}

/* The varying colour, modulated by the window position, so a pixel's value
 * depends on where it was shaded (the shading grid of decoupled shading). */
static void fs_pos(const mos_fs_batch *b)
{
    for (int l = 0; l < 4 * b->quad_count; l++) {
        float m = 0.75f + 0.25f * sinf(b->frag_x[l] * 0.37f) * cosf(b->frag_y[l] * 0.23f);
        b->out[0][l] = b->varyings[0][l] * m;
        b->out[1][l] = b->varyings[1][l];
        b->out[2][l] = b->varyings[2][l] * (1.0f - 0.5f * m);
        b->out[3][l] = b->varyings[3][l];
    }
}

typedef struct world {
    mos_context *ctx;
    mos_target rt;
    mos_shader sh;
    mos_buffer vb;
    int w, h, spp, tris;
    bool blur;
    /* a target that keeps no samples, drawn by one opaque draw that never
     * discards: decoupled blur's bins straight to their pixels */
    bool pixels;
    mos_frame_stats st;  /* the last frame's */
} world;

static void make_scene(world *wd, uint64_t seed)
{
    const int n = wd->tris;
    float *v = malloc(sizeof(float) * 3 * (size_t)n * STRIDE);
    if (!v) abort();
    test_rng r = {seed};
    for (int t = 0; t < n; t++) {
        /* a few large triangles over many tiles, the rest small */
        double sz = t % 10 == 0 ? 0.6 + rng_unit(&r) * 1.2 : 0.04 + rng_unit(&r) * 0.3;
        double cx = rng_unit(&r) * 2.4 - 1.2, cy = rng_unit(&r) * 2.4 - 1.2;
        for (int k = 0; k < 3; k++) {
            float *a = v + (3 * t + k) * STRIDE;
            double w = 0.6 + rng_unit(&r) * 1.4;
            a[0] = (float)((cx + (rng_unit(&r) - 0.5) * sz) * w);
            a[1] = (float)((cy + (rng_unit(&r) - 0.5) * sz) * w);
            a[2] = (float)((rng_unit(&r) * 1.8 - 0.9) * w);
            a[3] = (float)w;
            for (int c = 0; c < 4; c++) a[4 + c] = (float)rng_unit(&r);
            a[8] = 0.0f;
        }
    }
    CHECK_OK(mos_buffer_create(wd->ctx, &(mos_buffer_desc){.data = v, .size = sizeof(float) * 3 * (size_t)n * STRIDE},
                               &wd->vb));
    free(v);
    CHECK_OK(mos_shader_create(wd->ctx, &(mos_shader_desc){.vertex = vs_move, .fragment = fs_pos, .varying_count = 4,
                                                             .label = "tile-mask"},
                               &wd->sh));
}

/* One frame: clear CLEAR, the scene unless EMPTY, with MASK (NULL = whole
 * screen) of TILE_PX tiles.  Returns mos_end_frame's result. */
static mos_result render(world *wd, const uint8_t *mask, int tile_px, float clear, bool empty)
{
    mos_frame_desc fd = {.target = wd->rt, .clear_rgba = {clear, 0.2f, 1.0f - clear, 1.0f}, .tile_mask = mask,
                         .tile_px = tile_px};
    if (wd->blur) {
        fd.blur.mode = MOS_SAMPLING_DECOUPLED;
        fd.blur.lens_x = 0.05f;
        fd.blur.lens_y = 0.04f;
        fd.blur.focus_w = 1.2f;
    }
    mos_result r = mos_begin_frame(wd->ctx, &fd);
    if (r != MOS_OK) return r;
    static const float off0[2] = {0, 0}, off1[2] = {0.06f, -0.03f};
    const int half = wd->tris / 2 * 3;
    if (!empty) {
        mos_draw_desc d = {.shader = wd->sh, .vertices = wd->vb, .vertex_stride = STRIDE,
                           .vertex_count = 3 * wd->tris, .index_count = wd->pixels ? 3 * wd->tris : half,
                           .uniforms = off0, .uniform_size = sizeof off0, .uniforms_t1 = wd->blur ? off1 : NULL,
                           .depth_test = true, .depth_write = true, .blend = MOS_BLEND_OPAQUE,
                           .never_discards = wd->pixels};
        r = mos_draw(wd->ctx, &d);
        d.first_index = half;
        d.index_count = 3 * wd->tris - half;
        d.blend = MOS_BLEND_ALPHA;
        d.depth_write = false;
        if (r == MOS_OK && !wd->pixels) r = mos_draw(wd->ctx, &d);
    }
    mos_result e = mos_end_frame(wd->ctx, &wd->st);
    return r != MOS_OK ? r : e;
}

static bool pixel_in(const uint8_t *mask, int tile_px, int w, int h, int x, int y_img)
{
    const int tiles_x = (w + tile_px - 1) / tile_px, y = h - 1 - y_img;  /* window rows bottom up */
    return mask[(y / tile_px) * tiles_x + x / tile_px] != 0;
}

/* Masks of every kind over several configurations: every masked-in pixel
 * (and sample, where the target keeps them) equals the whole-screen
 * render, every other pixel keeps what the target held before. */
static void check_config(int threads, int bin_px, int coarse_px, int spp, bool blur, bool pixels, uint64_t seed)
{
    world wd = {.w = TEST_SANITIZED ? 150 : 233, .h = TEST_SANITIZED ? 97 : 141, .spp = spp,
                .tris = TEST_SANITIZED ? 120 : 400, .blur = blur, .pixels = pixels};
    /* without the early-draw buffer every bin's work is one item (its
     * pixels then need no samples) */
    mos_context_desc cd = {.pipeline = {.threads = threads, .bin_px = bin_px, .coarse_px = coarse_px,
                                        .early = pixels ? -1 : 0}};
    if (!CHECK_OK_B(mos_context_create(&cd, &wd.ctx))) return;
    CHECK_OK(mos_target_create(
        wd.ctx, &(mos_target_desc){.width = wd.w, .height = wd.h, .samples = spp, .keep_samples = !pixels}, &wd.rt));
    make_scene(&wd, seed);
    CHECK_OK(render(&wd, NULL, 0, 0.1f, false));
    if (pixels)
        CHECK_MSG(wd.st.pixel_bins > 0 && wd.st.pixel_bins == wd.st.bin_items,
                  "%llu of %llu bins went straight to their pixels", (unsigned long long)wd.st.pixel_bins,
                  (unsigned long long)wd.st.bin_items);
    uint8_t *ref = tu_read_rgba8(wd.ctx, wd.rt, wd.w, wd.h);
    uint8_t *ref_s = pixels ? NULL : tu_read_samples(wd.ctx, wd.rt, wd.w, wd.h, spp);
    test_rng r = {seed * 7 + 1};
    for (int m = 0; m < 4; m++) {
        const int tile_px = bin_px * (1 + (int)(rng_u32(&r) % 3));
        const int tiles_x = (wd.w + tile_px - 1) / tile_px, tiles_y = (wd.h + tile_px - 1) / tile_px;
        uint8_t *mask = malloc((size_t)tiles_x * (size_t)tiles_y), *given = malloc((size_t)tiles_x * (size_t)tiles_y);
        if (!mask || !given) abort();
        /* m = 0: none; 1: all; else random (about half, any non-zero byte) */
        for (int k = 0; k < tiles_x * tiles_y; k++)
            mask[k] = m == 0 ? 0 : m == 1 ? 1 : (uint8_t)(rng_u32(&r) % 2 ? 1 + rng_u32(&r) % 255 : 0);
        memcpy(given, mask, (size_t)tiles_x * (size_t)tiles_y);
        /* What the target holds before: an empty frame of another colour. */
        CHECK_OK(render(&wd, NULL, 0, 0.9f, true));
        uint8_t *before = tu_read_rgba8(wd.ctx, wd.rt, wd.w, wd.h);
        mos_frame_desc fd = {.target = wd.rt, .tile_mask = given, .tile_px = tile_px};
        CHECK_OK(mos_begin_frame(wd.ctx, &fd));
        memset(given, 0, (size_t)tiles_x * (size_t)tiles_y);  /* copied at mos_begin_frame */
        CHECK_OK(mos_end_frame(wd.ctx, NULL));
        memcpy(given, mask, (size_t)tiles_x * (size_t)tiles_y);
        CHECK_OK(render(&wd, given, tile_px, 0.1f, false));
        uint8_t *got = tu_read_rgba8(wd.ctx, wd.rt, wd.w, wd.h);
        uint8_t *got_s = pixels ? NULL : tu_read_samples(wd.ctx, wd.rt, wd.w, wd.h, spp);
        int bad_in = 0, bad_out = 0, bad_s = 0;
        const size_t row_s = (size_t)wd.w * (size_t)spp * 4;
        for (int y = 0; y < wd.h; y++) {
            for (int x = 0; x < wd.w; x++) {
                const size_t p = ((size_t)y * (size_t)wd.w + (size_t)x) * 4;
                if (pixel_in(mask, tile_px, wd.w, wd.h, x, y)) {
                    bad_in += memcmp(got + p, ref + p, 4) != 0;
                    const size_t q = (size_t)y * row_s + (size_t)x * (size_t)spp * 4;
                    bad_s += got_s && memcmp(got_s + q, ref_s + q, (size_t)spp * 4) != 0;
                } else {
                    bad_out += memcmp(got + p, before + p, 4) != 0;
                }
            }
        }
        CHECK_MSG(bad_in == 0 && bad_s == 0 && bad_out == 0,
                  "threads %d bin %d coarse %d spp %d blur %d mask %d tile %d: %d masked-in pixels differ from the "
                  "whole-screen render (%d with their samples), %d masked-out pixels changed",
                  threads, bin_px, coarse_px, spp, blur, m, tile_px, bad_in, bad_s, bad_out);
        free(mask);
        free(given);
        free(got);
        free(got_s);
        free(before);
    }
    free(ref);
    free(ref_s);
    mos_buffer_destroy(wd.ctx, wd.vb);
    mos_shader_destroy(wd.ctx, wd.sh);
    mos_target_destroy(wd.ctx, wd.rt);
    mos_context_destroy(wd.ctx);
}

static void test_sharp(void)
{
    static const int cfg[][4] = {{1, 16, 0, 1}, {3, 8, 64, 4}, {2, 32, 0, 1}, {4, 16, 128, 8}};
    const int n = TEST_SANITIZED ? 2 : 4;
    for (int i = 0; i < n; i++)
        check_config(cfg[i][0], cfg[i][1], cfg[i][2], cfg[i][3], false, false, 11u + (uint64_t)i);
}

static void test_blurred(void)
{
    static const int cfg[][4] = {{2, 16, 0, 4}, {3, 8, 32, 8}, {1, 32, 0, 16}};
    const int n = TEST_SANITIZED ? 2 : 3;
    for (int i = 0; i < n; i++)
        check_config(cfg[i][0], cfg[i][1], cfg[i][2], cfg[i][3], true, false, 101u + (uint64_t)i);
}

/* The same with a target that keeps no samples: the masked-in bins go
 * straight to their pixels. */
static void test_blurred_pixels(void)
{
    static const int cfg[][4] = {{2, 16, 0, 16}, {3, 32, 0, 27}, {1, 64, 0, 64}};
    const int n = TEST_SANITIZED ? 2 : 3;
    for (int i = 0; i < n; i++)
        check_config(cfg[i][0], cfg[i][1], cfg[i][2], cfg[i][3], true, true, 201u + (uint64_t)i);
}

/* tile_px must be a positive multiple of the bin size; a refused frame
 * starts nothing. */
static void test_bad_tile_px(void)
{
    mos_context *ctx = tu_context(2, 16);
    if (!ctx) return;
    mos_target rt;
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){.width = 64, .height = 40}, &rt));
    const uint8_t mask[64] = {1};
    const int bad[] = {0, -16, 8, 24, 40, 1 << 20};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_ERR(ctx, mos_begin_frame(ctx, &(mos_frame_desc){.target = rt, .tile_mask = mask, .tile_px = bad[i]}),
                  MOS_ERR_INVALID_ARGUMENT);
        CHECK(strstr(mos_last_error(ctx), "tile_px") != NULL);
    }
    /* tile_px without a mask is the whole screen; then a good one */
    CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){.target = rt, .tile_px = 7}));
    CHECK_OK(mos_end_frame(ctx, NULL));
    CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){.target = rt, .tile_mask = mask, .tile_px = 48}));
    CHECK_OK(mos_end_frame(ctx, NULL));
    mos_target_destroy(ctx, rt);
    mos_context_destroy(ctx);
}

int main(void)
{
    TEST_RUN(test_bad_tile_px);
    TEST_RUN(test_sharp);
    TEST_RUN(test_blurred);
    TEST_RUN(test_blurred_pixels);
    return TEST_EXIT();
}
