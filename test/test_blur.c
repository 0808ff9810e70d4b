/* test_blur.c — motion and defocus blur through the public API: every
 * coverage path against a brute-force double-precision reference that warps
 * the triangle to each sample's (u, v, t); decoupled equals msaa without
 * blur; the image does not depend on the shading cache, threads, pattern
 * or the embedder's floating-point environment;
 * geometry at the focus distance stays sharp; a moving square leaves a
 * streak as long as its motion. */
#include <fenv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "mosaic.h"
#include "testutil.h"

#define W_PX 48
#define H_PX 32
/* The coverage test's target: not whole 4x4 blocks, so the walks' blocks
 * at its right and bottom edges reach beyond it (a lane written there
 * would land on the next row's pixels and differ from the reference). */
#define COV_W (W_PX - 3)
#define COV_H (H_PX - 1)

/* attribs: clip position at t = 0 (4 floats), at t = 1 (4), colour (3);
 * uniforms: one int, which position to emit. */
static void vs_moving(const mos_vs_batch *b)
{
    const int which = *(const int *)b->uniforms;
    for (int i = 0; i < b->count; i++) {
        const float *a = b->attribs + i * b->stride;
        for (int c = 0; c < 4; c++) b->clip[4 * i + c] = a[4 * which + c];
        for (int c = 0; c < b->varying_count; c++) b->varyings[i * b->varying_count + c] = a[8 + c];
    }
}

static void fs_color(const mos_fs_batch *b)
{
    for (int l = 0; l < 4 * b->quad_count; l++) {
        for (int c = 0; c < 3; c++) b->out[c][l] = b->varyings[c][l];
        b->out[3][l] = 1.0f;
    }
}

/* fs_color that discards where red is under 0.3: a shader that breaks
 * the draw's never_discards promise. */
static void fs_color_discards(const mos_fs_batch *b)
{
    fs_color(b);
    for (int l = 0; l < 4 * b->quad_count; l++) b->discard[l] = b->varyings[0][l] < 0.3f;
}

static uint64_t rng_state = 0x1234567;
static double frand(double lo, double hi)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

typedef struct test_tri {
    float v[3][11];  /* clip t0, clip t1, colour */
} test_tri;

typedef struct ref_lens {
    double lx, ly, focus;
} ref_lens;

/* Brute force: warp the three vertices to (u, v, t), then test the sample
 * with 2D homogeneous edge functions (Olano and Greer) in double.  Returns 1
 * covered, 0 not, -1 too close to an edge or plane to call.  cull_back: a
 * warped triangle whose det[p0; p1; p2] is negative (facing away) covers
 * nothing. */
static int ref_cover(const test_tri *tr, const ref_lens *ln, bool fixed_point, bool cull_back, const float q[5])
{
    double P[3][3], Z[3];
    for (int i = 0; i < 3; i++) {
        double c[4];
        for (int k = 0; k < 4; k++) c[k] = tr->v[i][k] + (double)q[4] * ((double)tr->v[i][4 + k] - tr->v[i][k]);
        c[0] += (double)q[2] * ln->lx * (c[3] - ln->focus);
        c[1] += (double)q[3] * ln->ly * (c[3] - ln->focus);
        P[i][0] = (c[0] + c[3]) * 0.5 * COV_W;
        P[i][1] = (c[1] + c[3]) * 0.5 * COV_H;
        P[i][2] = c[3];
        Z[i] = c[2];
    }
    double E[3], scale[3], G[3];
    for (int i = 0; i < 3; i++) {
        const double *a = P[(i + 1) % 3], *b = P[(i + 2) % 3];
        double cx = a[1] * b[2] - a[2] * b[1], cy = a[2] * b[0] - a[0] * b[2], cz = a[0] * b[1] - a[1] * b[0];
        E[i] = cx * q[0] + cy * q[1] + cz;
        scale[i] = fabs(cx * q[0]) + fabs(cy * q[1]) + fabs(cz);
        G[i] = sqrt(cx * cx + cy * cy);
    }
    double det = (P[1][1] * P[2][2] - P[1][2] * P[2][1]) * P[0][0] +
                 (P[1][2] * P[2][0] - P[1][0] * P[2][2]) * P[0][1] + (P[1][0] * P[2][1] - P[1][1] * P[2][0]) * P[0][2];
    if (det == 0) return -1;
    if (cull_back) {
        double mag = 0;  /* the size of det's terms: below 1e-6 of it, too close to call */
        for (int i = 0; i < 3; i++) mag = fmax(mag, fmax(fabs(P[i][0]), fmax(fabs(P[i][1]), fabs(P[i][2]))));
        if (fabs(det) <= 1e-6 * mag * mag * mag) return -1;
        if (det < 0) return 0;
    }
    double sd = det > 0 ? 1 : -1;
    for (int i = 0; i < 3; i++) {
        /* Near the edge: within float rounding of the homogeneous terms, or
         * (fixed-point path) within the 1/256-pixel snapping of the vertices. */
        double tol = fixed_point ? 0.006 * G[i] : 2e-5 * scale[i];  /* G: |gradient|, E / G in pixels */
        if (fabs(E[i]) <= tol) return -1;
    }
    double sum = E[0] + E[1] + E[2];
    if (fabs(sum) <= 1e-5 * (fabs(E[0]) + fabs(E[1]) + fabs(E[2]))) return -1;
    for (int i = 0; i < 3; i++)
        if (sd * E[i] < 0) return 0;
    if (sd * sum < 0) return 0;
    double zn = (E[0] * Z[0] + E[1] * Z[1] + E[2] * Z[2]) / det;
    if (fabs(zn - 1) < 1e-4 || fabs(zn + 1) < 1e-4) return -1;
    return zn >= -1 && zn <= 1;
}

enum path { PATH_STATIC, PATH_MOTION, PATH_DEFOCUS, PATH_BOTH, PATH_NEAR, PATH_LENS_NEAR, PATH_COUNT };
static const char *const path_names[PATH_COUNT] = {"static", "motion", "defocus", "both", "near-crossing",
                                                   "lens, near"};

static void random_vertex(float *out)
{
    double w = frand(0.6, 3.0), x = frand(-1.1, 1.1), y = frand(-1.1, 1.1), z = frand(-0.9, 0.9);
    out[0] = (float)(x * w);
    out[1] = (float)(y * w);
    out[2] = (float)(z * w);
    out[3] = (float)w;
}

static void random_tri(test_tri *tr, enum path p)
{
    double cx = frand(-0.8, 0.8), cy = frand(-0.8, 0.8), size = frand(0.05, 0.8);
    for (int i = 0; i < 3; i++) {
        random_vertex(tr->v[i]);
        /* Pull the vertices together so the triangle is not always huge. */
        double w = tr->v[i][3];
        tr->v[i][0] = (float)((cx + size * (tr->v[i][0] / w - cx)) * w);
        tr->v[i][1] = (float)((cy + size * (tr->v[i][1] / w - cy)) * w);
        for (int k = 0; k < 4; k++) tr->v[i][4 + k] = tr->v[i][k];
        for (int k = 0; k < 3; k++) tr->v[i][8 + k] = 1.0f;
        if (p == PATH_MOTION || p == PATH_BOTH || p == PATH_NEAR) {
            double w1 = w + frand(-0.4, 0.4);
            tr->v[i][4] = (float)((tr->v[i][0] / w + frand(-0.3, 0.3)) * w1);
            tr->v[i][5] = (float)((tr->v[i][1] / w + frand(-0.3, 0.3)) * w1);
            tr->v[i][6] = (float)((tr->v[i][2] / w) * w1);
            tr->v[i][7] = (float)w1;
        }
    }
    if (p == PATH_NEAR || p == PATH_LENS_NEAR) {
        /* Vertex 0 passes behind the eye during the shutter (or, through a
         * lens and still, is behind it: the front-end cuts the triangle at
         * the near plane); z as a perspective projection (near 0.3, far 10)
         * makes it. */
        tr->v[0][7] = (float)frand(-1.5, -0.2);
        if (p == PATH_LENS_NEAR) tr->v[0][3] = tr->v[0][7];
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 2; k++) {
                double w = tr->v[i][4 * k + 3];
                tr->v[i][4 * k + 2] = (float)(w * (10.3 / 9.7) - 2.0 * 10.0 * 0.3 / 9.7);
            }
    }
}

static int spp_of(int i)
{
    static const int spps[] = {4, 16, 27, 64, 8, 32};
    return spps[i % 6];
}

/* Every path, every sample of every pixel, against the reference. */
static void test_coverage_paths(void)
{
    mos_context *ctx = tu_context(2, 0);
    if (!ctx) return;
    mos_shader sh;
    CHECK_OK(mos_shader_create(ctx, &(mos_shader_desc){.vertex = vs_moving, .fragment = tu_fs_count, .varying_count = 0}, &sh));
    const int per_path = TEST_TSAN ? 8 : TEST_SANITIZED ? 30 : 400;  /* 2000 triangles in all */
    mos_target targets[6];
    float *positions[6];
    for (int i = 0; i < 6; i++) {
        const int spp = spp_of(i);
        CHECK_OK(mos_target_create(ctx, &(mos_target_desc){.width = COV_W, .height = COV_H, .samples = spp, .keep_samples = true}, &targets[i]));
        positions[i] = malloc(sizeof(float) * 5 * COV_W * COV_H * (size_t)spp);
        if (!positions[i]) abort();
        for (int y = 0; y < COV_H; y++)
            for (int x = 0; x < COV_W; x++)
                for (int s = 0; s < spp; s++)
                    CHECK_OK(mos_target_sample_position(ctx, targets[i], x, y, s,
                                                        positions[i] + 5 * (((size_t)y * COV_W + (size_t)x) * (size_t)spp + (size_t)s)));
    }
    for (int p = 0; p < PATH_COUNT; p++) {
        uint64_t tested = 0, covered = 0, ambiguous = 0, wrong = 0;
        for (int n = 0; n < per_path; n++) {
            const int spp = spp_of(n);
            test_tri tr;
            random_tri(&tr, (enum path)p);
            ref_lens ln = {0, 0, 0};
            mos_frame_desc fd = {.blur = {.mode = MOS_SAMPLING_DECOUPLED}};
            if (p == PATH_DEFOCUS || p == PATH_BOTH || p == PATH_LENS_NEAR) {
                ln.lx = frand(0.03, 0.25);
                ln.ly = frand(0.03, 0.25);
                ln.focus = frand(0.8, 2.5);
                fd.blur.lens_x = (float)ln.lx;
                fd.blur.lens_y = (float)ln.ly;
                fd.blur.focus_w = (float)ln.focus;
            }
            const mos_target rt = targets[n % 6];
            /* Every other blurred triangle culls back faces: they flip
             * during the shutter or across the lens too. */
            const bool cull_back = p != PATH_STATIC && (n & 1);
            fd.target = rt;
            mos_buffer vb;
            CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){.data = tr.v, .size = sizeof tr.v}, &vb));
            const int which0 = 0, which1 = 1;
            CHECK_OK(mos_begin_frame(ctx, &fd));
            bool moving = p == PATH_MOTION || p == PATH_BOTH || p == PATH_NEAR;
            CHECK_OK(mos_draw(ctx, &(mos_draw_desc){.shader = sh, .vertices = vb, .vertex_stride = 11, .vertex_count = 3,
                                                    .uniforms = &which0, .uniform_size = sizeof which0,
                                                    .uniforms_t1 = moving ? &which1 : NULL, .blend = MOS_BLEND_ADD,
                                                    .cull = cull_back ? MOS_CULL_BACK : MOS_CULL_NONE}));
            mos_frame_stats st;
            CHECK_OK(mos_end_frame(ctx, &st));
            uint8_t *img = tu_read_samples(ctx, rt, COV_W, COV_H, spp);
            for (int y = 0; y < COV_H; y++)
                for (int x = 0; x < COV_W; x++)
                    for (int s = 0; s < spp; s++) {
                        const float *q = positions[n % 6] + 5 * (((size_t)y * COV_W + (size_t)x) * (size_t)spp + (size_t)s);
                        int want = ref_cover(&tr, &ln, p == PATH_STATIC, cull_back, q);
                        int got = tu_sample(img, COV_W, COV_H, spp, x, y, s, 0);
                        tested++;
                        if (want < 0) {
                            ambiguous++;
                            continue;
                        }
                        covered += got != 0;
                        if (got != want) {
                            if (wrong < 5)
                                FAIL_MSG("%s triangle %d (%d spp): sample (%d, %d, %d) at (%.4f %.4f u %.3f v %.3f t %.3f) is %d, reference %d",
                                         path_names[p], n, spp, x, y, s, q[0], q[1], q[2], q[3], q[4], got, want);
                            wrong++;
                        }
                    }
            free(img);
            mos_buffer_destroy(ctx, vb);
        }
        printf("  %-13s %d triangles: %llu samples, %llu covered, %llu too close to call, %llu differ\n",
               path_names[p], per_path, (unsigned long long)tested, (unsigned long long)covered,
               (unsigned long long)ambiguous, (unsigned long long)wrong);
        CHECK(wrong == 0);
        CHECK(covered > (uint64_t)per_path * 100);  /* the comparison is not vacuous */
        /* and the tolerance band is thin: < 0.5 % (< 2 % over the eight
         * triangles of the ThreadSanitizer run, where one nearly
         * degenerate triangle weighs) */
        CHECK(ambiguous * (per_path >= 30 ? 200u : 50u) < tested);
    }
    for (int i = 0; i < 6; i++) free(positions[i]);
    mos_shader_destroy(ctx, sh);
    mos_context_destroy(ctx);
}

/* A small random scene: NTRI coloured triangles (moving when MOTION). */
static test_tri *random_scene(int ntri, bool motion, uint64_t seed)
{
    rng_state = seed;
    test_tri *t = malloc((size_t)ntri * sizeof *t);
    if (!t) abort();
    for (int i = 0; i < ntri; i++) {
        random_tri(&t[i], motion ? PATH_MOTION : PATH_STATIC);
        for (int v = 0; v < 3; v++)
            for (int k = 0; k < 3; k++) t[i].v[v][8 + k] = (float)frand(0.1, 1.0);
    }
    return t;
}

typedef struct scene_run {
    int threads, bin;
    const char *pattern;
    mos_isa isa;
    mos_blur_desc blur;
    bool motion;
    bool count;  /* additive 1/255 without depth test, cleared to 0: coverage counts */
    int w, h;    /* target size; 0: twice the reference test's */
    mos_cull cull;
    /* never_discards on the first half of the triangles (0: neither, 1:
     * the first half, 2: the second half: runs of the deferred path
     * between the ordered one's, 3: both) */
    int deferred;
    /* what render_scene returns: the samples (0), or the resolved pixels
     * of a target that keeps its samples (1) or keeps none (2) */
    int read;
    bool discards;  /* fs_color_discards, whatever never_discards says */
    /* a frame before, of the triangles where they end (deferred, its
     * samples left in the target): the frame's clear still holds */
    bool frame_before;
    int batch, early;  /* the pipeline's (0: the defaults) */
    unsigned inspect;  /* the frame's mos_inspect bits */
    /* the context made (its threads started) under an embedder's odd
     * floating-point environment: rounding toward zero, and on x86
     * denormals-are-zero and flush-to-zero; the test's own is restored
     * right after */
    bool odd_fp;
} scene_run;

/* Renders the random scene and returns its raw samples. */
static uint8_t *render_scene(const test_tri *tris, int ntri, int spp, const scene_run *r, mos_frame_stats *st)
{
    mos_context *ctx = NULL;
    mos_context_desc cd = {.pipeline = {.threads = r->threads, .bin_px = r->bin, .pattern = r->pattern,
                                        .batch = r->batch, .early = r->early},
                           .isa = r->isa};
    fenv_t own;
    if (r->odd_fp) {
        fegetenv(&own);
        fesetround(FE_TOWARDZERO);
#if defined(__x86_64__) || defined(__i386__)
        _mm_setcsr(_mm_getcsr() | 0x8040u); /* DAZ, FTZ */
#endif
    }
    const mos_result made = mos_context_create(&cd, &ctx);
    if (r->odd_fp) fesetenv(&own);
    if (made != MOS_OK) {
        FAIL_MSG("mos_context_create");
        return NULL;
    }
    mos_shader sh;
    mos_target rt;
    mos_buffer vb;
    CHECK_OK(mos_shader_create(ctx,
                               &(mos_shader_desc){.vertex = vs_moving,
                                                  .fragment = r->discards ? fs_color_discards : fs_color,
                                                  .varying_count = 3},
                               &sh));
    const int w = r->w ? r->w : W_PX * 2, h = r->h ? r->h : H_PX * 2;
    CHECK_OK(mos_target_create(
        ctx, &(mos_target_desc){.width = w, .height = h, .samples = spp, .keep_samples = r->read < 2}, &rt));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){.data = tris, .size = (size_t)ntri * sizeof *tris}, &vb));
    const int which0 = 0, which1 = 1;
    mos_frame_desc fd = {.target = rt, .blur = r->blur, .clear_rgba = {0.1f, 0.2f, 0.3f, 1.0f}, .inspect = r->inspect};
    if (r->count) fd.clear_rgba[0] = fd.clear_rgba[1] = fd.clear_rgba[2] = fd.clear_rgba[3] = 0.0f;
    if (r->frame_before) {
        CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){.target = rt, .blur = r->blur, .clear_rgba = {0.9f, 0.8f, 0.7f, 1.0f}}));
        CHECK_OK(mos_draw(ctx, &(mos_draw_desc){.shader = sh, .vertices = vb, .vertex_stride = 11, .vertex_count = 3 * ntri,
                                                .uniforms = &which1, .uniform_size = sizeof which1, .depth_test = true,
                                                .depth_write = true, .never_discards = true}));
        mos_frame_stats before;
        CHECK_OK(mos_end_frame(ctx, &before));
    }
    CHECK_OK(mos_begin_frame(ctx, &fd));
    const int half = r->deferred ? ntri / 2 : ntri;  /* two draws when deferred is asked */
    for (int first = 0; first < ntri; first += half) {
        const int n = first + half < ntri ? half : ntri - first;
        CHECK_OK(mos_draw(ctx, &(mos_draw_desc){.shader = sh, .vertices = vb, .vertex_stride = 11,
                                                .vertex_count = 3 * ntri, .first_index = 3 * first,
                                                .index_count = 3 * n, .uniforms = &which0,
                                                .uniform_size = sizeof which0,
                                                .uniforms_t1 = r->motion ? &which1 : NULL, .depth_test = !r->count,
                                                .depth_write = !r->count, .cull = r->cull,
                                                .blend = r->count ? MOS_BLEND_ADD : MOS_BLEND_OPAQUE,
                                                .never_discards = r->deferred == 3 || r->deferred == 1 + (first > 0)}));
    }
    CHECK_OK(mos_end_frame(ctx, st));
    uint8_t *img = r->read ? tu_read_rgba8(ctx, rt, w, h) : tu_read_samples(ctx, rt, w, h, spp);
    mos_context_destroy(ctx);
    return img;
}

static void test_decoupled_equals_msaa_without_blur(void)
{
    const int ntri = 300;
    test_tri *tris = random_scene(ntri, false, 42);
    static const int spps[] = {1, 4, 16, 27, 64};
    for (int i = 0; i < 5; i++) {
        const int spp = spps[i];
        mos_frame_stats a, b;
        scene_run msaa = {.threads = 2, .blur = {.mode = MOS_SAMPLING_MSAA}};
        scene_run dec = {.threads = 2, .blur = {.mode = MOS_SAMPLING_DECOUPLED}};
        uint8_t *ia = render_scene(tris, ntri, spp, &msaa, &a), *ib = render_scene(tris, ntri, spp, &dec, &b);
        size_t bytes = (size_t)W_PX * 2 * H_PX * 2 * (size_t)spp * 4;
        CHECK_MSG(ia && ib && memcmp(ia, ib, bytes) == 0, "decoupled differs from msaa at %d spp without blur", spp);
        CHECK(a.visibility_samples == b.visibility_samples && a.visibility_samples > 0);
        free(ia);
        free(ib);
    }
    free(tris);
}

/* The cache, threads, pattern, bins and instruction set change cost, never
 * colour (the portable block tester against the best the CPU has). */
static void test_cache_size_invariance(void)
{
    const int ntri = 200, spp = 16;
    test_tri *tris = random_scene(ntri, true, 7);
    mos_blur_desc blur = {.mode = MOS_SAMPLING_DECOUPLED, .lens_x = 0.08f, .lens_y = 0.12f, .focus_w = 1.5f};
    static const int caches[] = {16, 64, 1024, 8192};
    /* Variants: decoupled nearest, supersample, decoupled bilinear (not
     * under the sanitizers). */
    for (int variant = 0; variant < (TEST_SANITIZED ? 2 : 3); variant++) {
        const bool bil = variant == 2;
        uint8_t *first = NULL;
        uint64_t stalls_small = 0, stalls_big = 0;
        for (int c = 0; c < 4; c++)
            for (int k = 0; k < (TEST_SANITIZED ? 2 : 3); k++) {
                scene_run r = {.threads = 1 + 2 * (k & 1), .bin = k == 2 ? 32 : 16,
                               .pattern = k == 2 ? "vdc" : "diagonal", .blur = blur, .motion = true,
                               .isa = k == 1 ? MOS_ISA_SCALAR : MOS_ISA_AUTO};
                r.blur.cache_quads = caches[c];
                r.blur.bilinear = bil;
                if (variant == 1) r.blur.mode = MOS_SAMPLING_SUPERSAMPLE;
                mos_frame_stats st;
                uint8_t *img = render_scene(tris, ntri, spp, &r, &st);
                if (c == 0) stalls_small += st.cache_stalls;
                if (c == 3) stalls_big += st.cache_stalls;
                if (!first) {
                    first = img;
                    continue;
                }
                size_t bytes = (size_t)W_PX * 2 * H_PX * 2 * (size_t)spp * 4;
                CHECK_MSG(img && memcmp(first, img, bytes) == 0,
                          "image differs with cache %d quads, %d threads, %s, bin %d, isa %d, variant %d", caches[c],
                          r.threads, r.pattern, r.bin, (int)r.isa, variant);
                free(img);
            }
        CHECK_MSG(stalls_small > stalls_big, "a 16-quad cache should stall more (%llu) than an 8192-quad one (%llu)",
                  (unsigned long long)stalls_small, (unsigned long long)stalls_big);
        free(first);
    }
    free(tris);
}

/* An embedder's floating-point environment does not reach the image: the
 * threads Mosaic starts inherit their creator's (rounding toward zero,
 * denormals-are-zero, flush-to-zero here) and set the default first.  The
 * same blurred frame, decoupled and supersampled, 1 and 3 threads. */
static void test_fp_environment(void)
{
    const int ntri = 200, spp = 16;
    test_tri *tris = random_scene(ntri, true, 11);
    const mos_blur_desc blur = {.mode = MOS_SAMPLING_DECOUPLED, .lens_x = 0.08f, .lens_y = 0.12f, .focus_w = 1.5f};
    const size_t bytes = (size_t)W_PX * 2 * H_PX * 2 * (size_t)spp * 4;
    int compared = 0;
    for (int k = 0; k < 4; k++) {
        scene_run r = {.threads = k & 1 ? 3 : 1, .bin = 16, .pattern = "diagonal", .blur = blur, .motion = true};
        if (k >= 2) r.blur.mode = MOS_SAMPLING_SUPERSAMPLE;
        mos_frame_stats a, b;
        uint8_t *plain = render_scene(tris, ntri, spp, &r, &a);
        r.odd_fp = true;
        uint8_t *odd = render_scene(tris, ntri, spp, &r, &b);
        CHECK_MSG(plain && odd && memcmp(plain, odd, bytes) == 0,
                  "the image changed with the creator's floating-point environment (%d threads, mode %d)", r.threads,
                  (int)r.blur.mode);
        CHECK(a.visibility_samples == b.visibility_samples && a.visibility_samples > 0);
        compared++;
        free(plain);
        free(odd);
    }
    CHECK(compared == 4);
    free(tris);
}

/* Pixels of row y whose resolved red lies strictly between the two levels
 * found at the row's ends: the width of the blurred edge. */
static int edge_width(const uint8_t *img, int w, int h, int y)
{
    int lo = img[((size_t)(h - 1 - y) * (size_t)w) * 4], hi = img[((size_t)(h - 1 - y) * (size_t)w + (size_t)w - 1) * 4];
    int n = 0;
    for (int x = 0; x < w; x++) {
        int v = img[((size_t)(h - 1 - y) * (size_t)w + (size_t)x) * 4];
        n += v > (lo < hi ? lo : hi) + 2 && v < (lo < hi ? hi : lo) - 2;
    }
    return n;
}

/* A quad covering the right half of the screen at eye depth W; returns the
 * resolved image (width 96, height 16). */
static uint8_t *render_half(float depth_w, const mos_blur_desc *blur, int spp, float shift_px)
{
    mos_context *ctx = tu_context(2, 0);
    if (!ctx) return NULL;
    const int w = 96, h = 16;
    float x0 = (float)(0.0 + 2.0 * shift_px / w) * depth_w, x1 = 3.0f * depth_w, z = 0.0f;
    float y0 = -2.0f * depth_w, y1 = 2.0f * depth_w;
    float v[6][11] = {{x0, y0, z, depth_w}, {x1, y0, z, depth_w}, {x1, y1, z, depth_w},
                      {x0, y0, z, depth_w}, {x1, y1, z, depth_w}, {x0, y1, z, depth_w}};
    for (int i = 0; i < 6; i++) {
        for (int k = 0; k < 4; k++) v[i][4 + k] = v[i][k];
        v[i][8] = v[i][9] = v[i][10] = 1.0f;
    }
    mos_shader sh;
    mos_target rt;
    mos_buffer vb;
    CHECK_OK(mos_shader_create(ctx, &(mos_shader_desc){.vertex = vs_moving, .fragment = fs_color, .varying_count = 3}, &sh));
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){.width = w, .height = h, .samples = spp}, &rt));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){.data = v, .size = sizeof v}, &vb));
    const int which0 = 0;
    CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){.target = rt, .blur = *blur}));
    CHECK_OK(mos_draw(ctx, &(mos_draw_desc){.shader = sh, .vertices = vb, .vertex_stride = 11, .vertex_count = 6,
                                            .uniforms = &which0, .uniform_size = sizeof which0}));
    CHECK_OK(mos_end_frame(ctx, NULL));
    uint8_t *img = tu_read_rgba8(ctx, rt, w, h);
    mos_context_destroy(ctx);
    return img;
}

/* Accumulation's sub-pixel jitter: mos_accum_jitter stays in [-0.5, 0.5)
 * and does not repeat; pixel_offset moves an MSAA frame by that much (an
 * edge at x = 48.3 covers pixel 48's centre unmoved, not when moved by
 * +0.3, and pixel 47's when moved by -0.9); outside -1..1 it is refused. */
static void test_accum_jitter(void)
{
    float seen[64][2];
    int outside = 0, repeated = 0;
    for (int k = 0; k < 64; k++) {
        mos_accum_jitter(k, seen[k]);
        outside += !(seen[k][0] >= -0.5f && seen[k][0] < 0.5f && seen[k][1] >= -0.5f && seen[k][1] < 0.5f);
        for (int j = 0; j < k; j++) repeated += seen[j][0] == seen[k][0] && seen[j][1] == seen[k][1];
    }
    CHECK_MSG(outside == 0 && repeated == 0, "%d jitters outside the pixel, %d repeated", outside, repeated);
    static const float offset[3] = {0.0f, 0.3f, -0.9f};
    static const int first[3] = {48, 49, 47};
    for (int k = 0; k < 3; k++) {
        const mos_blur_desc blur = {.mode = MOS_SAMPLING_MSAA, .pixel_offset = {offset[k], 0.0f}};
        uint8_t *img = render_half(2.0f, &blur, 1, 0.3f);
        if (!img) return;
        int x = 0;
        while (x < 96 && img[(8 * 96 + x) * 4] < 128) x++;
        printf("  pixel_offset %+.1f: first covered pixel %d (expected %d)\n", offset[k], x, first[k]);
        CHECK(x == first[k]);
        free(img);
    }
    mos_context *ctx = tu_context(1, 0);
    if (!ctx) return;
    mos_target rt;
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){.width = 8, .height = 8, .samples = 1}, &rt));
    const mos_result r = mos_begin_frame(ctx, &(mos_frame_desc){.target = rt, .blur = {.pixel_offset = {1.5f, 0.0f}}});
    CHECK_MSG(r == MOS_ERR_INVALID_ARGUMENT, "pixel_offset 1.5 gave %d", (int)r);
    mos_context_destroy(ctx);
}

/* The deferred path (a visibility buffer, then each visible sample's grid
 * quad shaded once: runs of draws that never discard) gives the ordered
 * path's image bit for bit, alone or in runs between ordered draws, at any
 * cache size, thread count, bin, pattern and instruction set, after a
 * frame of other samples in the same target (a deferred run takes over
 * the bin's clear), and shades no more.  Both count a blur area where the
 * frame inspects it (a moving scene's points serve several pixels; the
 * ordered path's counts the samples it writes, hidden ones too), none
 * where it does not, and the image is the same either way. */
static void test_deferred_equals_ordered(void)
{
    const int ntri = 240;
    test_tri *tris = random_scene(ntri, true, 11);
    static const int spps[] = {4, 16, 27, 64};
    for (int k = 0; k < 2 * (TEST_SANITIZED ? 2 : 4); k++) {  /* nearest point, then bilinear */
        const int spp = spps[k % 4];
        const bool bilinear = k >= (TEST_SANITIZED ? 2 : 4);
        scene_run base = {.threads = 1, .bin = 16, .pattern = "diagonal", .motion = true, .isa = MOS_ISA_AUTO,
                          .blur = {.mode = MOS_SAMPLING_DECOUPLED, .lens_x = 0.08f, .lens_y = 0.12f, .focus_w = 1.5f,
                                   .bilinear = bilinear},
                          .inspect = MOS_INSPECT_BLUR_AREA};
        mos_frame_stats ordered_st, deferred_st = {0};
        uint8_t *ordered = render_scene(tris, ntri, spp, &base, &ordered_st);
        const size_t bytes = (size_t)W_PX * 2 * H_PX * 2 * (size_t)spp * 4;
        /* Variants: threads, bins, patterns, ISA, cache sizes, the
         * ordered path's runs between the deferred ones, a frame before;
         * small batches (7, 8: a bin's work in many items, each deferred
         * run but the bin's last keeping its depth for the next, with
         * and without the early-draw buffer). */
        for (int v = 0; v < 10; v++) {
            scene_run r = base;
            r.inspect = v == 9 ? 0 : base.inspect;
            r.frame_before = v == 6;
            r.batch = v == 7 ? 16 : v == 8 ? 37 : 0;
            r.early = v == 7 ? -1 : v == 8 ? 4 : 0;
            r.deferred = v < 4 || v == 6 ? 1 : 2;
            r.threads = v & 1 ? 3 : 1;
            r.bin = v == 2 ? 32 : v == 3 ? 8 : 16;
            r.pattern = v == 2 ? "vdc" : "diagonal";
            r.isa = v == 5 ? MOS_ISA_SCALAR : MOS_ISA_AUTO;
            r.blur.cache_quads = v == 1 ? 16 : v == 4 ? 64 : 1024;
            mos_frame_stats st;
            uint8_t *img = render_scene(tris, ntri, spp, &r, &st);
            CHECK_MSG(ordered && img && memcmp(ordered, img, bytes) == 0,
                      "%d spp%s: deferred variant %d (threads %d, bin %d, cache %d) differs from the ordered image", spp,
                      bilinear ? " bilinear" : "", v, r.threads, r.bin, r.blur.cache_quads);
            if (v == 0) deferred_st = st;
            if (v == 9) CHECK_MSG(st.blur_area == 0.0, "blur area %.3f counted without MOS_INSPECT_BLUR_AREA", st.blur_area);
            free(img);
        }
        printf("  %2d spp%s: shades ordered %llu, deferred %llu; blur area ordered %.3f, deferred %.3f\n", spp,
               bilinear ? " bilinear" : "", (unsigned long long)ordered_st.shade_invocations,
               (unsigned long long)deferred_st.shade_invocations, ordered_st.blur_area, deferred_st.blur_area);
        CHECK(deferred_st.shade_invocations <= ordered_st.shade_invocations);
        CHECK_MSG(ordered_st.blur_area > 1.0 && deferred_st.blur_area > 1.0,
                  "blur area ordered %.3f, deferred %.3f", ordered_st.blur_area, deferred_st.blur_area);
        free(ordered);
    }
    free(tris);
}

/* A target that keeps no samples: a bin that one deferred run draws whole
 * goes straight to its pixels (VIS_PIXELS), and its pixels are those that
 * the stored samples resolve to, bit for bit: nearest and bilinear, at
 * every blur sample count, with threads, bins, stalls of a small cache,
 * each ISA, the blur-area record, a frame before, a bin's work in several
 * items, the ordered path's runs before and after, a target whose edge
 * cuts bins and blocks, the largest bin (64 pixels: at 64 spp the
 * buffer's whole VIS_MAX_ENTRIES) and a shader that discards against its
 * draw's promise. */
static void test_pixels_equal_samples(void)
{
    const int ntri = 240;
    test_tri *tris = random_scene(ntri, true, 13);
    static const int spps[] = {4, 16, 27, 64};
    for (int k = 0; k < 2 * (TEST_SANITIZED ? 2 : 4); k++) {  /* nearest point, then bilinear */
        const int spp = spps[k % 4];
        const bool bilinear = k >= (TEST_SANITIZED ? 2 : 4);
        for (int v = 0; v < 10; v++) {
            scene_run r = {.threads = v & 1 ? 3 : 1, .bin = v == 2 ? 32 : v == 3 ? 8 : v == 8 ? 64 : 16,
                           .pattern = v == 2 ? "vdc" : "diagonal", .motion = true, .isa = MOS_ISA_AUTO,
                           .blur = {.mode = MOS_SAMPLING_DECOUPLED, .lens_x = 0.08f, .lens_y = 0.12f,
                                    .focus_w = 1.5f, .bilinear = bilinear, .cache_quads = v == 1 ? 16 : 1024},
                           .deferred = v == 6 ? 1 : v == 7 ? 2 : 3, .read = 1};
            r.inspect = v == 4 ? MOS_INSPECT_BLUR_AREA : 0;
            r.frame_before = v == 5;
            r.isa = v == 1 ? MOS_ISA_AVX2 : v == 5 ? MOS_ISA_SCALAR : MOS_ISA_AUTO;
            r.discards = v == 9;
            r.batch = v == 3 ? 16 : 0;
            r.early = v == 3 ? 0 : -1;  /* the early-draw buffer gives the first coarse tile's bins two items */
            r.w = v == 2 ? 61 : 0;
            r.h = v == 2 ? 37 : 0;
            const int w = r.w ? r.w : W_PX * 2, h = r.h ? r.h : H_PX * 2;
            mos_frame_stats kept_st, pixels_st;
            uint8_t *kept = render_scene(tris, ntri, spp, &r, &kept_st);
            r.read = 2;
            uint8_t *pixels = render_scene(tris, ntri, spp, &r, &pixels_st);
            CHECK_MSG(kept && pixels && memcmp(kept, pixels, (size_t)w * (size_t)h * 4) == 0,
                      "%d spp%s, variant %d: the pixels resolved from no samples differ", spp,
                      bilinear ? " bilinear" : "", v);
            CHECK_MSG(kept_st.pixel_bins == 0, "%llu bins skipped the samples of a target that keeps them",
                      (unsigned long long)kept_st.pixel_bins);
            if (v == 1)  /* the sums of a block carried over the flushes of a stalled run */
                CHECK_MSG(pixels_st.cache_stalls > 0, "%d spp, variant 1: the 16-quad cache never stalled", spp);
            /* a bin goes straight to its pixels when one item has all its
             * work, all of it deferred */
            if ((v < 6 && v != 3) || v >= 8)
                CHECK_MSG(pixels_st.pixel_bins == pixels_st.bin_items,
                          "%d spp, variant %d: %llu of %llu bins went straight to their pixels", spp, v,
                          (unsigned long long)pixels_st.pixel_bins, (unsigned long long)pixels_st.bin_items);
            free(kept);
            free(pixels);
        }
    }
    free(tris);
}

/* The bin the library picks for a frame of blur (the pipeline's bin_px
 * left 0): 64 pixels for decoupled blur where the target has 16 such bins
 * a worker, else 32, and the same image as a bin the pipeline sets. */
static void test_blur_bin_choice(void)
{
    const int ntri = 120, w = 512, h = 512, spp = 4;
    test_tri *tris = random_scene(ntri, true, 17);
    const mos_blur_desc blur = {.mode = MOS_SAMPLING_DECOUPLED, .lens_x = 0.08f, .lens_y = 0.12f, .focus_w = 1.5f};
    static const struct {
        int threads;
        mos_sampling mode;
        int deferred, want;
    } cases[] = {{2, MOS_SAMPLING_DECOUPLED, 0, 64},  /* 64 bins of 64: 32 a worker */
                 {2, MOS_SAMPLING_DECOUPLED, 3, 64},  /* the deferred path, straight to the pixels */
                 {8, MOS_SAMPLING_DECOUPLED, 3, 32},  /* 8 a worker */
                 {2, MOS_SAMPLING_SUPERSAMPLE, 0, 32}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        scene_run r = {.threads = cases[i].threads, .blur = blur, .motion = true, .w = w, .h = h,
                       .deferred = cases[i].deferred, .read = cases[i].deferred ? 2 : 1, .early = -1};
        r.blur.mode = cases[i].mode;
        mos_frame_stats st, set_st;
        uint8_t *img = render_scene(tris, ntri, spp, &r, &st);
        CHECK_MSG(!cases[i].deferred || st.pixel_bins == st.bin_items, "%llu of %llu bins straight to their pixels",
                  (unsigned long long)st.pixel_bins, (unsigned long long)st.bin_items);
        r.bin = 16;
        r.read = 1;
        uint8_t *set = render_scene(tris, ntri, spp, &r, &set_st);
        CHECK_MSG(st.bin == cases[i].want, "%d threads, mode %d: bin %d, want %d", cases[i].threads,
                  (int)cases[i].mode, st.bin, cases[i].want);
        CHECK_MSG(set_st.bin == 16, "the pipeline's bin 16 became %d", set_st.bin);
        CHECK_MSG(img && set && memcmp(img, set, (size_t)w * (size_t)h * 4) == 0, "bin %d and bin 16 images differ", st.bin);
        free(img);
        free(set);
    }
    free(tris);
}

static void test_focus_stays_sharp(void)
{
    const int spp = 27;
    mos_blur_desc pin = {.mode = MOS_SAMPLING_DECOUPLED};
    mos_blur_desc lens = pin;
    mos_blur_lens(&lens, 1.0f, 2.0f, 60.0f, 6.0f);  /* aperture 1, focus 2 */
    for (int k = 0; k < 3; k++) {
        float shift = 0.3f * (float)k;  /* edge at different sub-pixel offsets */
        uint8_t *a = render_half(2.0f, &pin, spp, shift), *b = render_half(2.0f, &lens, spp, shift);
        uint8_t *c = render_half(6.0f, &lens, spp, shift);
        if (!a || !b || !c) return;
        int wa = edge_width(a, 96, 16, 8), wb = edge_width(b, 96, 16, 8), wc = edge_width(c, 96, 16, 8);
        printf("  edge width at offset %.1f px: pinhole %d, in focus %d, out of focus %d pixels\n", shift, wa, wb, wc);
        CHECK_MSG(wb <= wa + 1, "in-focus edge %d px wide, pinhole %d", wb, wa);
        CHECK_MSG(wc >= wa + 3, "an out-of-focus edge should be wider: %d vs %d", wc, wa);
        free(a);
        free(b);
        free(c);
    }
}

/* A 2x2-pixel square moving D pixels to the right leaves a streak D + 2 long. */
static void test_streak_length(void)
{
    const int w = 96, h = 16, spp = 64;
    mos_context *ctx = tu_context(2, 0);
    if (!ctx) return;
    mos_shader sh;
    mos_target rt;
    CHECK_OK(mos_shader_create(ctx, &(mos_shader_desc){.vertex = vs_moving, .fragment = fs_color, .varying_count = 3}, &sh));
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){.width = w, .height = h, .samples = spp}, &rt));
    static const int dists[] = {5, 12, 30, 61};
    for (int k = 0; k < 4; k++) {
        const int d = dists[k];
        const float px0 = 10.25f, py0 = 7.0f, size = 2.0f, W = 1.5f;
        float corner[4][2] = {{px0, py0}, {px0 + size, py0}, {px0 + size, py0 + size}, {px0, py0 + size}};
        static const int order[6] = {0, 1, 2, 0, 2, 3};
        float v[6][11];
        for (int i = 0; i < 6; i++) {
            const float *c = corner[order[i]];
            float nx = 2.0f * c[0] / w - 1.0f, ny = 2.0f * c[1] / h - 1.0f, nx1 = 2.0f * (c[0] + (float)d) / w - 1.0f;
            float t0[4] = {nx * W, ny * W, 0.0f, W}, t1[4] = {nx1 * W, ny * W, 0.0f, W};
            for (int q = 0; q < 4; q++) {
                v[i][q] = t0[q];
                v[i][4 + q] = t1[q];
            }
            v[i][8] = v[i][9] = v[i][10] = 1.0f;
        }
        mos_buffer vb;
        CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){.data = v, .size = sizeof v}, &vb));
        const int which0 = 0, which1 = 1;
        CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){.target = rt, .blur = {.mode = MOS_SAMPLING_DECOUPLED}}));
        CHECK_OK(mos_draw(ctx, &(mos_draw_desc){.shader = sh, .vertices = vb, .vertex_stride = 11, .vertex_count = 6,
                                                .uniforms = &which0, .uniform_size = sizeof which0,
                                                .uniforms_t1 = &which1}));
        CHECK_OK(mos_end_frame(ctx, NULL));
        uint8_t *img = tu_read_rgba8(ctx, rt, w, h);
        int first = -1, last = -1;
        for (int x = 0; x < w; x++)
            if (img[((size_t)(h - 1 - 8) * (size_t)w + (size_t)x) * 4] > 0) {
                if (first < 0) first = x;
                last = x;
            }
        int len = first < 0 ? 0 : last - first + 1;
        printf("  square moving %d px: streak %d px (from x = %d)\n", d, len, first);
        /* The streak's end pixels are covered only near t = 0 or 1: the
         * left one over a fraction 0.75^2 / (2 d) of (x, t), the one next
         * to the right end 1.75 / d; at 64 spp that is under two expected
         * samples once d passes 48, so one of them may hold none. */
        const int slack = d > 48 ? 2 : 1;
        CHECK_MSG(len >= d + (int)size - slack && len <= d + (int)size + 1, "streak %d px for a %d px move", len, d);
        free(img);
        mos_buffer_destroy(ctx, vb);
    }
    mos_context_destroy(ctx);
}

/* A mesh whose columns of quads alternate between standing still and
 * moving (and, with a lens, seen defocused; or only defocused) must cover
 * every sample exactly once at every (u, v, t): moving triangles share
 * edges with each other and with still ones.  The mesh reaches past
 * the screen by more than its shear, motion or circle of confusion. */
static test_tri *moving_mesh(int nx, int ny, float w, int *ntri)
{
    test_tri *t = malloc((size_t)nx * (size_t)ny * 2 * sizeof *t);
    if (!t) abort();
    float v[2][64][48][4];  /* [time][i][j]: clip x, y, z, w */
    rng_state = 99;
    for (int i = 0; i <= nx; i++)
        for (int j = 0; j <= ny; j++) {
            /* Offset by odd fractions of a quad: a vertex that falls exactly
             * on a sample is a tie the float paths cannot split exactly
             * (the sample lies on two edges whose values round independently).
             * Sheared, so the seams pass samples at every distance. */
            const float y = -1.25f + 2.5f * ((float)j + 0.2718f) / (float)ny;
            const float x = -1.25f + 2.5f * ((float)i + 0.3183f) / (float)nx + 0.1f * y;
            /* Columns 5..7 of every 8 move; 0..4 stand still (4 and 8: the seams). */
            const bool moves = i % 8 > 4 && j > 0 && j < ny;
            /* At most 0.15 and 0.2 of a quad: a vertex closes in on the
             * opposite diagonal by at most (0.3 + 0.4) / sqrt 2 = 0.49 of a
             * quad, less than the 0.71 it stands from it, so no triangle
             * folds over during the shutter. */
            const float dx = moves ? (float)frand(-0.15, 0.15) * 2.5f / (float)nx : 0.0f;
            const float dy = moves ? (float)frand(-0.2, 0.2) * 2.5f / (float)ny : 0.0f;
            for (int k = 0; k < 2; k++) {
                v[k][i][j][0] = (x + (float)k * dx) * w;
                v[k][i][j][1] = (y + (float)k * dy) * w;
                v[k][i][j][2] = 0.0f;
                v[k][i][j][3] = w;
            }
        }
    int n = 0;
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++) {
            /* Diagonals alternate, so edges take every direction. */
            const int q[4][2] = {{i, j}, {i + 1, j}, {i + 1, j + 1}, {i, j + 1}};
            static const int split[2][2][3] = {{{0, 1, 2}, {0, 2, 3}}, {{0, 1, 3}, {1, 2, 3}}};
            for (int h = 0; h < 2; h++) {
                for (int c = 0; c < 3; c++) {
                    const int *p = q[split[(i + j) & 1][h][c]];
                    for (int k = 0; k < 4; k++) {
                        t[n].v[c][k] = v[0][p[0]][p[1]][k];
                        t[n].v[c][4 + k] = v[1][p[0]][p[1]][k];
                    }
                    t[n].v[c][8] = 1.0f / 255.0f;
                    t[n].v[c][9] = t[n].v[c][10] = 0.0f;
                }
                n++;
            }
        }
    *ntri = n;
    return t;
}

static void test_moving_mesh_watertight(void)
{
    const int w = TEST_SANITIZED ? 192 : 480, h = TEST_SANITIZED ? 108 : 270, spp = 16;
    int ntri;
    test_tri *tris = moving_mesh(48, 27, 2.0f, &ntri);
    static const char *const names[] = {"motion", "motion and defocus", "defocus"};
    for (int variant = 0; variant < 3; variant++) {
        scene_run r = {.threads = 2, .motion = variant < 2, .count = true, .w = w, .h = h,
                       .blur = {.mode = MOS_SAMPLING_DECOUPLED}};
        if (variant) r.blur.lens_x = r.blur.lens_y = 0.03f, r.blur.focus_w = 1.0f;
        mos_frame_stats st;
        uint8_t *img = render_scene(tris, ntri, spp, &r, &st);
        if (!img) break;
        size_t holes = 0, doubles = 0, samples = (size_t)w * (size_t)h * (size_t)spp;
        for (size_t i = 0; i < samples; i++) {
            holes += img[4 * i] == 0;
            doubles += img[4 * i] > 1;
        }
        printf("  %-18s %d triangles, %zu samples: %zu uncovered, %zu covered twice or more\n", names[variant], ntri,
               samples, holes, doubles);
        CHECK_MSG(holes == 0 && doubles == 0, "%s: %zu holes, %zu doubles", names[variant], holes, doubles);
        free(img);
    }
    free(tris);
}

/* A sphere of radius 1 at distance 4 seen through a perspective (near 0.5,
 * far 10), counter-clockwise from outside, sliding right during the
 * shutter; colours vary over it. */
static test_tri *moving_sphere(int slices, int stacks, int *ntri)
{
    test_tri *t = malloc((size_t)slices * (size_t)stacks * 2 * sizeof *t);
    if (!t) abort();
    int n = 0;
    const double pi = 3.14159265358979;
    for (int i = 0; i < stacks; i++)
        for (int j = 0; j < slices; j++) {
            double p[4][3];  /* the quad's corners, outward order */
            for (int c = 0; c < 4; c++) {
                const int a = i + (c >= 2), b = j + (c == 1 || c == 2);
                const double th = pi * a / stacks, ph = 2 * pi * b / slices;
                p[c][0] = sin(th) * cos(ph);
                p[c][1] = cos(th);
                p[c][2] = -4.0 - sin(th) * sin(ph);
            }
            static const int split[2][3] = {{0, 2, 1}, {0, 3, 2}};  /* counter-clockwise seen from outside */
            for (int h = 0; h < 2; h++) {
                if ((i == 0 && h == 0) || (i == stacks - 1 && h == 1)) continue;  /* the poles' degenerate halves */
                for (int c = 0; c < 3; c++) {
                    const double *q = p[split[h][c]];
                    for (int k = 0; k < 2; k++) {
                        const double x = q[0] + 0.3 * k, w = -q[2];
                        t[n].v[c][4 * k + 0] = (float)(1.5 * x);
                        t[n].v[c][4 * k + 1] = (float)(1.5 * 16.0 / 9.0 * q[1]);
                        t[n].v[c][4 * k + 2] = (float)(w * 10.5 / 9.5 - 10.0 / 9.5);
                        t[n].v[c][4 * k + 3] = (float)w;
                    }
                    t[n].v[c][8] = (float)(0.5 + 0.5 * q[0]);
                    t[n].v[c][9] = (float)(0.5 + 0.5 * q[1]);
                    t[n].v[c][10] = 0.5f;
                }
                n++;
            }
        }
    *ntri = n;
    return t;
}

/* Back faces of a blurred closed mesh are dropped before binning (their
 * warped determinant is negative at every (u, v, t)), and dropping them
 * changes nothing a depth-tested render shows. */
static void test_back_faces_culled(void)
{
    int ntri;
    test_tri *tris = moving_sphere(48, 24, &ntri);
    const int w = 320, h = 180, spp = 16;
    for (int lens = 0; lens < 2; lens++) {
        scene_run r = {.threads = 2, .motion = true, .w = w, .h = h, .blur = {.mode = MOS_SAMPLING_DECOUPLED}};
        if (lens) r.blur.lens_x = r.blur.lens_y = 0.04f, r.blur.focus_w = 2.5f;
        mos_frame_stats all, culled;
        uint8_t *a = render_scene(tris, ntri, spp, &r, &all);
        r.cull = MOS_CULL_BACK;
        uint8_t *b = render_scene(tris, ntri, spp, &r, &culled);
        if (!a || !b) break;
        size_t differ = 0, samples = (size_t)w * (size_t)h * (size_t)spp;
        for (size_t i = 0; i < samples; i++) differ += memcmp(a + 4 * i, b + 4 * i, 4) != 0;
        printf("  %s: %d triangles, %llu binned culling none, %llu culling back; %zu of %zu samples differ\n",
               lens ? "motion and lens" : "motion", ntri, (unsigned long long)all.triangles_binned,
               (unsigned long long)culled.triangles_binned, differ, samples);
        CHECK(all.triangles_binned > (uint64_t)ntri * 9 / 10);  /* most of the sphere is on screen */
        CHECK(culled.triangles_binned * 10 < all.triangles_binned * 6);  /* about half are back faces */
        CHECK(differ * 2000 <= samples);  /* silhouette ties only (< 0.05%) */
        free(a);
        free(b);
    }
    free(tris);
}

/* The lens/time pattern is interleaved tuples: every pixel of a class (x
 * & 1, y & 1) has the same S tuples, the four classes different ones, each
 * class's times one in each of S strata, its lenses on the unit disk. */
static void test_interleaved_tuples(void)
{
    mos_context *ctx = tu_context(1, 0);
    if (!ctx) return;
    static const int spps[] = {4, 16, 27, 64};
    for (int k = 0; k < 4; k++) {
        const int S = spps[k];
        mos_target rt;
        CHECK_OK(mos_target_create(ctx, &(mos_target_desc){.width = 40, .height = 36, .samples = S}, &rt));
        float ref[4][64][5];
        for (int c = 0; c < 4; c++)
            for (int s = 0; s < S; s++) CHECK_OK(mos_target_sample_position(ctx, rt, c & 1, c >> 1, s, ref[c][s]));
        int mismatched = 0, shared = 0, unstratified = 0, off_disk = 0;
        for (int y = 0; y < 36; y++)
            for (int x = 0; x < 40; x++)
                for (int s = 0; s < S; s++) {
                    float q[5];
                    CHECK_OK(mos_target_sample_position(ctx, rt, x, y, s, q));
                    const float *r = ref[(x & 1) | (y & 1) << 1][s];
                    mismatched += q[2] != r[2] || q[3] != r[3] || q[4] != r[4];
                }
        for (int c = 0; c < 4; c++) {
            bool stratum[64] = {false};
            for (int s = 0; s < S; s++) {
                const int j = (int)(ref[c][s][4] * (float)S);
                if (j >= 0 && j < S) stratum[j] = true;
                off_disk += ref[c][s][2] * ref[c][s][2] + ref[c][s][3] * ref[c][s][3] > 1.0001f;
                for (int o = 0; o < c; o++)  /* another class holding the same tuple */
                    for (int z = 0; z < S; z++)
                        shared += ref[o][z][2] == ref[c][s][2] && ref[o][z][3] == ref[c][s][3] &&
                                  ref[o][z][4] == ref[c][s][4];
            }
            for (int j = 0; j < S; j++) unstratified += !stratum[j];
        }
        printf("  %2d spp: %d samples off their class's tuple, %d tuples shared between classes, %d empty time strata, "
               "%d lenses off the disk\n", S, mismatched, shared, unstratified, off_disk);
        CHECK(mismatched == 0 && shared == 0 && unstratified == 0 && off_disk == 0);
        mos_target_destroy(ctx, rt);
    }
    mos_context_destroy(ctx);
}

int main(void)
{
    TEST_RUN(test_interleaved_tuples);
    TEST_RUN(test_coverage_paths);
    TEST_RUN(test_decoupled_equals_msaa_without_blur);
    TEST_RUN(test_cache_size_invariance);
    TEST_RUN(test_fp_environment);
    TEST_RUN(test_deferred_equals_ordered);
    TEST_RUN(test_pixels_equal_samples);
    TEST_RUN(test_blur_bin_choice);
    TEST_RUN(test_accum_jitter);
    TEST_RUN(test_focus_stays_sharp);
    TEST_RUN(test_streak_length);
    TEST_RUN(test_moving_mesh_watertight);
    TEST_RUN(test_back_faces_culled);
    return TEST_EXIT();
}
