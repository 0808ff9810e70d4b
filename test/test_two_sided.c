/* test_two_sided.c — a two-sided card (two triangles with the same three
 * corners, the second drawn from another corner and in the other winding)
 * must not z-fight: with the less-than depth test the first drawn covers the
 * second at every sample, in every raster path (small-triangle blocks, 4x4
 * blocks, quads), every ISA, 1 to 16 samples per pixel, sharp and blurred
 * (decoupled ordered and deferred, supersample),
 * and where clipping at the near plane cuts the card.  Fed by make test. */
#include "testutil.h"

enum { TW = 160, TH = 96, TRIS = 300 };

/* Opaque red (first draw) or green (second), chosen by the uniform. */
static void fs_solid(const mos_fs_batch *b)
{
    const float *u = b->uniforms;
    for (int l = 0; l < 4 * b->quad_count; l++) {
        b->out[0][l] = u[0];
        b->out[1][l] = u[1];
        b->out[2][l] = 0.0f;
        b->out[3][l] = 1.0f;
    }
}

/* clip x, y, z, w, moved by the uniforms' (dx, dy) (floats 2, 3): with
 * uniforms_t1 the card moves during the shutter. */
static void vs_moved(const mos_vs_batch *b)
{
    const float *u = b->uniforms;
    tu_vs_clip4(b);
    for (int i = 0; i < b->count; i++) {
        b->clip[4 * i + 0] += u[2];
        b->clip[4 * i + 1] += u[3];
    }
}

static float unit(test_rng *r) { return (float)rng_unit(r); }

/* TRIS random triangles as clip x, y, z, w: sizes from a pixel to half the
 * screen, so both the small-triangle path and the block walk run; depths in
 * (-0.9, 0.9), tilted.  With NEAR, w in (0.3, 2) and z down to -1.6 w: most
 * cards cross the near plane, and clipping cuts them into polygons. */
static void make_cards(uint32_t seed, bool near, float *first, float *second)
{
    test_rng rs = { seed }, *s = &rs;
    for (int i = 0; i < TRIS; i++) {
        const float size = unit(s) < 0.5f ? 0.02f + 0.1f * unit(s) : 0.2f + 0.8f * unit(s);
        const float cx = 2.0f * unit(s) - 1.0f, cy = 2.0f * unit(s) - 1.0f;
        float *a = first + 12 * i, *b = second + 12 * i;
        for (int v = 0; v < 3; v++) {
            const float w = near ? 0.3f + 1.7f * unit(s) : 1.0f;
            a[4 * v + 0] = w * (cx + size * (2.0f * unit(s) - 1.0f));
            a[4 * v + 1] = w * (cy + size * (2.0f * unit(s) - 1.0f));
            a[4 * v + 2] = near ? w * (2.5f * unit(s) - 1.6f) : 1.8f * unit(s) - 0.9f;
            a[4 * v + 3] = w;
        }
        /* The same corners from corner 1, the other way round: 1, 0, 2. */
        static const int order[3] = {1, 0, 2};
        for (int v = 0; v < 3; v++) memcpy(b + 4 * v, a + 4 * order[v], 4 * sizeof(float));
    }
}

/* Draws each card's first side then its second; returns the samples where
 * the second side shows (green), or -1 when the frame failed. */
static long second_side_samples(mos_context *ctx, mos_target t, mos_shader sh, int spp, const float *first,
                                const float *second, const mos_blur_desc *blur, bool deferred)
{
    static const float red[4] = {1.0f, 0.0f, 0.0f, 0.0f}, green[4] = {0.0f, 1.0f, 0.0f, 0.0f};
    static const float red_t1[4] = {1.0f, 0.0f, 0.06f, 0.02f}, green_t1[4] = {0.0f, 1.0f, 0.06f, 0.02f};
    tu_frame f = { .n = 0 };
    mos_buffer vb[2] = { { 0 }, { 0 } };
    const float *src[2] = {first, second};
    if (!CHECK_OK_B(mos_begin_frame(ctx, &(mos_frame_desc){ .target = t, .blur = *blur }))) return -1;
    for (int k = 0; k < 2; k++) {
        CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = src[k], .size = sizeof(float) * 12 * TRIS },
                                   &vb[k]));
        f.bufs[f.n++] = vb[k];
    }
    /* Card by card, first side then second, so that every card's pair meets
     * in the depth test whatever the other cards did. */
    for (int i = 0; i < TRIS; i++)
        for (int k = 0; k < 2; k++)
            CHECK_OK(mos_draw(ctx, &(mos_draw_desc){ .shader = sh, .vertices = vb[k], .vertex_stride = 4,
                              .vertex_count = 3 * TRIS, .indices = { 0 }, .first_index = 3 * i,
                              .index_count = 3, .uniforms = k ? green : red, .uniform_size = sizeof red,
                              .uniforms_t1 = blur->mode == MOS_SAMPLING_MSAA ? NULL : k ? green_t1 : red_t1,
                              .depth_test = true, .depth_write = true, .cull = MOS_CULL_NONE,
                              .blend = MOS_BLEND_OPAQUE, .never_discards = deferred }));
    if (!CHECK_OK_B(tu_end(ctx, &f, NULL))) return -1;
    uint8_t *raw = tu_read_samples(ctx, t, TW, TH, spp);
    long shown = 0, red_seen = 0;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++)
            for (int s = 0; s < spp; s++) {
                shown += tu_sample(raw, TW, TH, spp, x, y, s, 1) > 0;
                red_seen += tu_sample(raw, TW, TH, spp, x, y, s, 0) > 0;
            }
    free(raw);
    CHECK_MSG(red_seen > (long)TW * TH * spp / 4, "the first sides cover only %ld samples", red_seen);
    return shown;
}

static void two_sided_cards(void)
{
    static const mos_isa isas[] = {MOS_ISA_SCALAR, MOS_ISA_AVX2, MOS_ISA_AVX512};
    static const char *const isa_names[] = {"scalar", "avx2", "avx512"};
    static const int spps[] = {1, 2, 4, 8, 16};
    float *first = malloc(sizeof(float) * 12 * TRIS), *second = malloc(sizeof(float) * 12 * TRIS);
    for (size_t ii = 0; ii < sizeof isas / sizeof isas[0]; ii++) {
        mos_context *ctx = NULL;
        if (mos_context_create(&(mos_context_desc){ .pipeline = { .threads = 2, .bin_px = 16 }, .isa = isas[ii] },
                               &ctx) != MOS_OK) {
            printf("NOTE two_sided_cards: this CPU has no %s\n", isa_names[ii]);
            continue;
        }
        mos_shader sh = { 0 };
        CHECK_OK(mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs_moved, .fragment = fs_solid,
                                   .label = "solid" }, &sh));
        for (size_t si = 0; si < sizeof spps / sizeof spps[0]; si++) {
            mos_target t = { 0 };
            if (!CHECK_OK_B(mos_target_create(ctx, &(mos_target_desc){ .width = TW, .height = TH,
                                              .samples = spps[si], .keep_samples = true }, &t)))
                continue;
            static const char *const mode_names[] = {"sharp", "decoupled", "supersample", "decoupled deferred"};
            for (int mode = 0; mode < 4; mode++) {
                /* Sharp (MSAA), and moving with a lens (decoupled: ordered, and deferred through the
                 * visibility buffer, the draws promising no discard; supersample). */
                const mos_blur_desc blur = { .mode = mode == 0 ? MOS_SAMPLING_MSAA
                                                   : mode == 2 ? MOS_SAMPLING_SUPERSAMPLE : MOS_SAMPLING_DECOUPLED,
                                             .lens_x = mode ? 0.02f : 0.0f, .lens_y = mode ? 0.02f : 0.0f,
                                             .focus_w = 0.5f };
                for (uint32_t seed = 1; seed <= (mode ? 2u : 4u); seed++) {
                    const bool near = seed % 2 == 0;  /* every other set crosses the near plane */
                    make_cards(seed * 2654435761u, near, first, second);
                    const long shown = second_side_samples(ctx, t, sh, spps[si], first, second, &blur, mode == 3);
                    CHECK_MSG(shown == 0, "%s, %d spp, %s, seed %u%s: the second side shows at %ld samples",
                              isa_names[ii], spps[si], mode_names[mode], seed, near ? " (near plane)" : "", shown);
                }
            }
            mos_target_destroy(ctx, t);
        }
        mos_shader_destroy(ctx, sh);
        mos_context_destroy(ctx);
    }
    free(first);
    free(second);
}

int main(void)
{
    TEST_RUN(two_sided_cards);
    return TEST_EXIT();
}
