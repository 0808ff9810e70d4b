/* test_determinism.c — the image (RGBA8 and raw samples) is bit-identical
 * across thread counts, patterns, bin/coarse/batch sizes, early-draw capacity
 * and FIFO depth; two contexts coexist.  Fed by make test; renders
 * scenes/default.scene through src/scene and a procedural scene. */
#include <pthread.h>
#include "testutil.h"
#include "scene/scene.h"

#define SCENE_PATH "scenes/default.scene"

static int DW(void) { return TEST_SANITIZED ? 256 : 480; }
static int DH(void) { return TEST_SANITIZED ? 144 : 270; }
enum { DSPP = 4 };

/* ---- a procedural scene: depth-tested, blended, textured ----------------- */
typedef struct proc_scene {
    mos_buffer vb, ib;
    mos_texture tex;
    mos_shader sh;
    int tri_count;
} proc_scene;

enum { PROC_STRIDE = 10 };  /* x y z w | r g b a | u v */

static void proc_vs(const mos_vs_batch *b)
{
    for (int i = 0; i < b->count; i++) {
        const float *a = b->attribs + i * b->stride;
        for (int c = 0; c < 4; c++) b->clip[4 * i + c] = a[c];
        for (int c = 0; c < 6; c++) b->varyings[i * b->varying_count + c] = a[4 + c];
    }
}
static void proc_fs(const mos_fs_batch *b)
{
    int lanes = 4 * b->quad_count;
    float tr[256], tg[256], tb[256], ta[256];
    float *const tout[4] = { tr, tg, tb, ta };
    if (b->textures[0] && lanes <= 256)
        mos_sample_quads(b->textures[0], b->quad_count, b->varyings[4], b->varyings[5], tout);
    else
        for (int l = 0; l < lanes && l < 256; l++) tr[l] = tg[l] = tb[l] = ta[l] = 1.0f;
    for (int l = 0; l < lanes; l++) {
        int k = l < 256 ? l : 255;
        b->out[0][l] = b->varyings[0][l] * tr[k];
        b->out[1][l] = b->varyings[1][l] * tg[k];
        b->out[2][l] = b->varyings[2][l] * tb[k];
        b->out[3][l] = b->varyings[3][l];
        /* discard a pattern that depends on the pixel only */
        b->discard[l] = ((int)b->frag_x[l] * 7 + (int)b->frag_y[l] * 13) % 29 == 0;
    }
}

static int proc_upload(mos_context *ctx, proc_scene *p)
{
    enum { N = 600 };
    float *v = malloc(sizeof(float) * 3 * N * PROC_STRIDE);
    uint32_t *idx = malloc(sizeof(uint32_t) * 3 * N);
    test_rng r = { 12345 };
    for (int t = 0; t < N; t++) {
        double cx = rng_unit(&r) * 2.4 - 1.2, cy = rng_unit(&r) * 2.4 - 1.2, sz = 0.05 + rng_unit(&r) * 0.5;
        for (int k = 0; k < 3; k++) {
            float *a = v + (3 * t + k) * PROC_STRIDE;
            double w = 0.5 + rng_unit(&r) * 1.5;
            a[0] = (float)((cx + (rng_unit(&r) - 0.5) * sz) * w);
            a[1] = (float)((cy + (rng_unit(&r) - 0.5) * sz) * w);
            a[2] = (float)((rng_unit(&r) * 1.8 - 0.9) * w);
            a[3] = (float)w;
            for (int c = 0; c < 4; c++) a[4 + c] = (float)rng_unit(&r);
            a[8] = (float)(rng_unit(&r) * 4);
            a[9] = (float)(rng_unit(&r) * 4);
        }
    }
    for (int i = 0; i < 3 * N; i++) idx[i] = (uint32_t)i;
    p->tri_count = N;
    uint8_t texels[64 * 64 * 4];
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            uint8_t *t = texels + 4 * (y * 64 + x);
            t[0] = (uint8_t)(((x / 8 + y / 8) & 1) ? 255 : 40);
            t[1] = (uint8_t)(x * 4);
            t[2] = (uint8_t)(y * 4);
            t[3] = 255;
        }
    int ok = CHECK_OK_B(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = v,
                        .size = sizeof(float) * 3 * N * PROC_STRIDE }, &p->vb)) &&
             CHECK_OK_B(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = idx, .size = sizeof(uint32_t) * 3 * N }, &p->ib)) &&
             CHECK_OK_B(mos_texture_create(ctx, &(mos_texture_desc){ .width = 64, .height = 64, .rgba8 = texels }, &p->tex)) &&
             CHECK_OK_B(mos_shader_create(ctx, &(mos_shader_desc){ .vertex = proc_vs, .fragment = proc_fs,
                        .varying_count = 6, .label = "proc" }, &p->sh));
    free(idx);
    free(v);
    return ok;
}

/* Three draws over thirds of the triangles: opaque depth-tested, alpha over,
 * additive; the first two textured. */
static mos_result proc_draw(mos_context *ctx, const proc_scene *p)
{
    int third = p->tri_count / 3 * 3;
    mos_draw_desc d = { .shader = p->sh, .vertices = p->vb, .vertex_stride = PROC_STRIDE,
                        .vertex_count = 3 * p->tri_count, .indices = p->ib, .index_count = third,
                        .depth_test = true, .depth_write = true, .blend = MOS_BLEND_OPAQUE };
    d.textures[0] = p->tex;
    mos_result r = mos_draw(ctx, &d);
    d.first_index = third; d.depth_write = false; d.blend = MOS_BLEND_ALPHA; d.cull = MOS_CULL_BACK;
    if (r == MOS_OK) r = mos_draw(ctx, &d);
    d.first_index = 2 * third; d.textures[0] = (mos_texture){ 0 }; d.blend = MOS_BLEND_ADD;
    d.cull = MOS_CULL_NONE; d.depth_test = false;
    if (r == MOS_OK) r = mos_draw(ctx, &d);
    return r;
}

/* ---- one world per context: the file scene and the procedural scene ------ */
typedef struct world {
    mos_context *ctx;
    mos_target t;
    scene *sc;            /* shared, read-only */
    scene_gpu *g;
    proc_scene proc;
    int have_proc;
} world;

static int world_open(world *w, scene *sc, const mos_pipeline_desc *pd)
{
    memset(w, 0, sizeof *w);
    mos_context_desc cd = { .pipeline = *pd };
    if (!CHECK_OK_B(mos_context_create(&cd, &w->ctx))) return 0;
    if (!CHECK_OK_B(mos_target_create(w->ctx, &(mos_target_desc){ .width = DW(), .height = DH(),
                    .samples = DSPP, .keep_samples = true }, &w->t))) return 0;
    w->sc = sc;
    if (sc && !CHECK_OK_B(scene_upload(sc, w->ctx, &w->g))) w->g = NULL;
    w->have_proc = proc_upload(w->ctx, &w->proc);
    return 1;
}
static void world_close(world *w)
{
    if (w->g) scene_gpu_free(w->g, w->ctx);
    if (w->ctx) mos_context_destroy(w->ctx);
}

typedef struct image { uint8_t *rgba, *samples; } image;

/* Renders the file scene (which = 0) or the procedural one (1). */
static int render(world *w, int which, image *out)
{
    out->rgba = out->samples = NULL;
    float clear[4] = { 0.1f, 0.2f, 0.3f, 1.0f };
    if (which == 0) {
        if (!w->g) return 0;
        scene_clear_color(w->sc, clear);
    } else if (!w->have_proc) return 0;
    mos_frame_desc fd = { .target = w->t, .clear_depth = 1 };
    memcpy(fd.clear_rgba, clear, sizeof clear);
    if (!CHECK_OK_B(mos_begin_frame(w->ctx, &fd))) return 0;
    mos_result r = which == 0
        ? scene_draw(w->g, w->ctx, &(scene_draw_opts){ .width = DW(), .height = DH() })
        : proc_draw(w->ctx, &w->proc);
    CHECK_OK(r);
    mos_frame_stats st;
    if (!CHECK_OK_B(mos_end_frame(w->ctx, &st))) return 0;
    out->rgba = tu_read_rgba8(w->ctx, w->t, DW(), DH());
    out->samples = tu_read_samples(w->ctx, w->t, DW(), DH(), DSPP);
    return r == MOS_OK;
}
static void image_free(image *im) { free(im->rgba); free(im->samples); }

static void describe(char *buf, size_t n, const mos_pipeline_desc *p)
{
    snprintf(buf, n, "threads=%d pattern=%s bin=%d coarse=%d batch=%d early=%d fifo=%d", p->threads,
             p->pattern ? p->pattern : "(default)", p->bin_px, p->coarse_px, p->batch, p->early, p->fifo_depth);
}

/* Compares A with the reference; prints the first difference. */
static int same_image(const image *ref, const image *a, const char *what, const char *cfg)
{
    size_t n = (size_t)DW() * (size_t)DH() * 4, ns = n * DSPP;
    if (!ref->rgba || !a->rgba) return 0;
    int ok = 1;
    if (memcmp(ref->rgba, a->rgba, n) != 0) {
        size_t i = 0, diff = 0;
        while (ref->rgba[i] == a->rgba[i]) i++;
        for (size_t k = 0; k < n; k += 4) diff += memcmp(ref->rgba + k, a->rgba + k, 4) != 0;
        FAIL_MSG("%s with %s: RGBA8 differs from the reference in %zu pixels; first at image pixel "
                 "(%zu,%zu): %d vs %d", what, cfg, diff, (i / 4) % (size_t)DW(), (i / 4) / (size_t)DW(),
                 a->rgba[i], ref->rgba[i]);
        ok = 0;
    }
    if (memcmp(ref->samples, a->samples, ns) != 0) {
        size_t diff = 0;
        for (size_t k = 0; k < ns; k += 4) diff += memcmp(ref->samples + k, a->samples + k, 4) != 0;
        FAIL_MSG("%s with %s: raw samples differ in %zu samples", what, cfg, diff);
        ok = 0;
    }
    return ok;
}

/* The reference configuration. */
static const mos_pipeline_desc REF = { .threads = 1, .pattern = "diagonal", .bin_px = 16,
                                       .coarse_px = 256, .batch = 4096, .early = 64, .fifo_depth = 256 };

static scene *load_scene(void)
{
    scene *sc = NULL;
    char err[512] = "";
    mos_result r = scene_load(SCENE_PATH, &sc, err, sizeof err);
    CHECK_MSG(r == MOS_OK, "scene_load(%s): %s: %s", SCENE_PATH, check_res_name_(r), err);
    return r == MOS_OK ? sc : NULL;
}

/* Renders with every configuration in CFGS on one context (configured in
 * between) and compares each with the reference. */
static void sweep(int which, const mos_pipeline_desc *cfgs, int n, const char *what)
{
    scene *sc = which == 0 ? load_scene() : NULL;
    if (which == 0 && !sc) return;
    world w;
    if (!world_open(&w, sc, &REF)) { world_close(&w); if (sc) scene_free(sc); return; }
    image ref;
    if (!CHECK(render(&w, which, &ref))) { image_free(&ref); world_close(&w); if (sc) scene_free(sc); return; }
    /* The image is not empty: something was drawn over the clear colour. */
    size_t differ = 0;
    for (size_t k = 4; k < (size_t)DW() * (size_t)DH() * 4; k += 4) differ += memcmp(ref.rgba, ref.rgba + k, 4) != 0;
    CHECK_MSG(differ > (size_t)DW() * (size_t)DH() / 20, "%s: the reference image is nearly uniform", what);
    for (int i = 0; i < n; i++) {
        char cfg[160];
        describe(cfg, sizeof cfg, &cfgs[i]);
        mos_result r = mos_context_configure(w.ctx, &cfgs[i]);
        if (!CHECK_MSG(r == MOS_OK, "configure %s: %s (%s)", cfg, check_res_name_(r), mos_last_error(w.ctx)))
            continue;
        mos_pipeline_desc got;
        mos_context_pipeline(w.ctx, &got);
        CHECK_MSG(got.threads == cfgs[i].threads && (!cfgs[i].bin_px || got.bin_px == cfgs[i].bin_px) &&
                  (!cfgs[i].coarse_px || got.coarse_px == cfgs[i].coarse_px) &&
                  got.pattern && !strcmp(got.pattern, cfgs[i].pattern), "pipeline after configure %s", cfg);
        image im;
        if (render(&w, which, &im)) same_image(&ref, &im, what, cfg);
        image_free(&im);
    }
    image_free(&ref);
    world_close(&w);
    if (sc) scene_free(sc);
}

/* A sampled product of the pipeline knobs in which every value appears. */
static int product(mos_pipeline_desc *out, int max)
{
    static const int threads[] = { 1, 2, 3, 8 }, bins[] = { 8, 16, 32, 64, 128 }, coarse[] = { 128, 256 };
    static const int batch[] = { 64, 4096, -1 }, early[] = { -1, 64 }, fifo[] = { 1, 64 };
    test_rng r = { 777 };
#define PICK(arr) arr[i < (int)(sizeof arr / sizeof arr[0]) ? i : (int)(rng_u32(&r) % (sizeof arr / sizeof arr[0]))]
    for (int i = 0; i < max; i++) {
        out[i] = (mos_pipeline_desc){ .threads = PICK(threads), .pattern = "diagonal", .bin_px = PICK(bins),
                                      .coarse_px = PICK(coarse), .batch = PICK(batch), .early = PICK(early),
                                      .fifo_depth = PICK(fifo) };
    }
#undef PICK
    return max;
}

static int product_size(void) { return TEST_TSAN ? 8 : TEST_SANITIZED ? 12 : 40; }

static void test_scene_product(void)
{
    mos_pipeline_desc cfgs[64];
    int n = product(cfgs, product_size());
    sweep(0, cfgs, n, SCENE_PATH);
}
static void test_procedural_product(void)
{
    mos_pipeline_desc cfgs[64];
    int n = product(cfgs, product_size());
    sweep(1, cfgs, n, "procedural scene");
}

/* diagonal and g80 at 6 workers, then every other registered pattern at the
 * first worker count it accepts. */
static void test_patterns(void)
{
    mos_pipeline_desc cfgs[64];
    int n = 0;
    cfgs[n++] = (mos_pipeline_desc){ .threads = 6, .pattern = "diagonal" };
    cfgs[n++] = (mos_pipeline_desc){ .threads = 6, .pattern = "g80", .bin_px = 32 };
    mos_context *probe = tu_context(1, 0);
    const char *const *names = mos_pattern_names();
    for (int i = 0; probe && names && names[i] && n < 60; i++) {
        if (!strcmp(names[i], "diagonal") || !strcmp(names[i], "g80")) continue;
        static const int counts[] = { 6, 4, 5, 8, 16 };
        int found = 0;
        for (int k = 0; k < 5 && !found; k++) {
            mos_pipeline_desc d = { .threads = counts[k], .pattern = names[i] };
            if (mos_context_configure(probe, &d) == MOS_OK) { cfgs[n++] = d; found = 1; }
        }
        if (!found) printf("NOTE pattern %s accepted none of 4/5/6/8/16 workers: not compared\n", names[i]);
    }
    if (probe) mos_context_destroy(probe);
    sweep(0, cfgs, n, SCENE_PATH);
    sweep(1, cfgs, n, "procedural scene");
}

/* Two contexts with different shapes, rendering alternately, then from two
 * threads at once: every image equals the reference. */
typedef struct par_job { world *w; int which; image im[2]; int ok; } par_job;
static void *par_main(void *arg)
{
    par_job *j = arg;
    j->ok = render(j->w, j->which, &j->im[0]) && render(j->w, j->which, &j->im[1]);
    return NULL;
}
static void test_two_contexts(void)
{
    scene *sc = load_scene();
    for (int which = 0; which < 2; which++) {
        if (which == 0 && !sc) continue;
        const char *what = which == 0 ? SCENE_PATH : "procedural scene";
        world a, b;
        mos_pipeline_desc pb = { .threads = 3, .bin_px = 32, .coarse_px = 128, .batch = 64, .early = -1,
                                 .fifo_depth = 2 };
        int oka = world_open(&a, sc, &REF), okb = world_open(&b, sc, &pb);
        image ref = { NULL, NULL };
        if (oka && okb && render(&a, which, &ref)) {
            for (int round = 0; round < 2; round++) {
                image ia, ib;
                if (render(&b, which, &ib)) same_image(&ref, &ib, what, "second context");
                if (render(&a, which, &ia)) same_image(&ref, &ia, what, "first context after the second");
                image_free(&ia);
                image_free(&ib);
            }
            par_job ja = { .w = &a, .which = which }, jb = { .w = &b, .which = which };
            pthread_t ta, tb;
            CHECK(pthread_create(&ta, NULL, par_main, &ja) == 0);
            CHECK(pthread_create(&tb, NULL, par_main, &jb) == 0);
            pthread_join(ta, NULL);
            pthread_join(tb, NULL);
            CHECK(ja.ok && jb.ok);
            for (int k = 0; k < 2; k++) {
                if (ja.ok) same_image(&ref, &ja.im[k], what, "first context, concurrent");
                if (jb.ok) same_image(&ref, &jb.im[k], what, "second context, concurrent");
                image_free(&ja.im[k]);
                image_free(&jb.im[k]);
            }
        }
        image_free(&ref);
        world_close(&a);
        world_close(&b);
    }
    if (sc) scene_free(sc);
}

int main(void)
{
    TEST_RUN(test_scene_product);
    TEST_RUN(test_procedural_product);
    TEST_RUN(test_patterns);
    TEST_RUN(test_two_contexts);
    return TEST_EXIT();
}
