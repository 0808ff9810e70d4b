/* test_stress.c — 1,000 frames that change the pipeline shape, the target size
 * and the sample count every frame; each frame must succeed and equal a
 * single-threaded reference.  Fed by make test (also under ASan and TSan). */
#include "testutil.h"

enum { ST_STRIDE = 8, ST_TRIS = 300 };

static void st_vs(const mos_vs_batch *b)
{
    for (int i = 0; i < b->count; i++) {
        const float *a = b->attribs + i * b->stride;
        for (int c = 0; c < 4; c++) b->clip[4 * i + c] = a[c];
        for (int c = 0; c < 4; c++) b->varyings[i * b->varying_count + c] = a[4 + c];
    }
}
static void st_fs(const mos_fs_batch *b)
{
    for (int l = 0; l < 4 * b->quad_count; l++)
        for (int c = 0; c < 4; c++) b->out[c][l] = b->varyings[c][l];
}

typedef struct st_world {
    mos_context *ctx;
    mos_buffer vb;
    mos_shader sh;
} st_world;

static int st_open(st_world *w, const mos_pipeline_desc *pd, const float *verts)
{
    mos_context_desc cd = { .pipeline = *pd };
    w->ctx = NULL;
    if (!CHECK_OK_B(mos_context_create(&cd, &w->ctx))) return 0;
    return CHECK_OK_B(mos_buffer_create(w->ctx, &(mos_buffer_desc){ .data = verts,
                      .size = sizeof(float) * ST_STRIDE * 3 * ST_TRIS }, &w->vb)) &&
           CHECK_OK_B(mos_shader_create(w->ctx, &(mos_shader_desc){ .vertex = st_vs, .fragment = st_fs,
                      .varying_count = 4 }, &w->sh));
}

/* One frame at W x H x SPP; returns the RGBA8 image (malloc'd) or NULL. */
static uint8_t *st_frame(st_world *w, int width, int height, int spp, int empty, mos_frame_stats *st,
                         const char *what)
{
    mos_target t;
    mos_result r = mos_target_create(w->ctx, &(mos_target_desc){ .width = width, .height = height,
                                     .samples = spp }, &t);
    if (!CHECK_MSG(r == MOS_OK, "%s: target %dx%d spp %d: %s", what, width, height, spp, check_res_name_(r)))
        return NULL;
    uint8_t *img = NULL;
    mos_frame_desc fd = { .target = t, .clear_rgba = { 0.0f, 0.0f, 1.0f, 1.0f } };
    mos_result rb = mos_begin_frame(w->ctx, &fd), rd1 = MOS_OK, rd2 = MOS_OK, re = MOS_OK;
    int ok = rb == MOS_OK;
    mos_draw_desc d = { .shader = w->sh, .vertices = w->vb, .vertex_stride = ST_STRIDE,
                        .vertex_count = 3 * ST_TRIS / 2, .depth_test = true, .depth_write = true };
    if (ok && !empty) {
        rd1 = mos_draw(w->ctx, &d);
        d.first_index = 0;
        d.vertex_count = 3 * ST_TRIS;
        d.blend = MOS_BLEND_ALPHA;
        d.depth_write = false;
        rd2 = mos_draw(w->ctx, &d);
    }
    if (ok) re = mos_end_frame(w->ctx, st);
    ok = rb == MOS_OK && rd1 == MOS_OK && rd2 == MOS_OK && re == MOS_OK;
    CHECK_MSG(ok, "%s %dx%d spp %d%s: begin %s, draws %s %s, end %s (%s)", what, width, height, spp,
              empty ? " (no draws)" : "", check_res_name_(rb), check_res_name_(rd1), check_res_name_(rd2),
              check_res_name_(re), mos_last_error(w->ctx));
    if (ok) img = tu_read_rgba8(w->ctx, t, width, height);
    mos_target_destroy(w->ctx, t);
    return img;
}

static const int sizes[][2] = { { 1, 1 }, { 7, 5 }, { 33, 17 }, { 64, 48 }, { 100, 75 }, { 160, 90 } };
static const int spps[] = { 1, 2, 4, 8, 16 };
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
#define NSPPS ((int)(sizeof spps / sizeof spps[0]))

static void test_config_churn(void)
{
    /* the scene: half opaque (drawn first), all of it again blended */
    float *v = malloc(sizeof(float) * ST_STRIDE * 3 * ST_TRIS);
    test_rng r = { 4242 };
    for (int t = 0; t < ST_TRIS; t++) {
        double cx = rng_unit(&r) * 2.2 - 1.1, cy = rng_unit(&r) * 2.2 - 1.1, sz = 0.05 + rng_unit(&r) * 0.6;
        for (int k = 0; k < 3; k++) {
            float *a = v + (3 * t + k) * ST_STRIDE;
            a[0] = (float)(cx + (rng_unit(&r) - 0.5) * sz);
            a[1] = (float)(cy + (rng_unit(&r) - 0.5) * sz);
            a[2] = (float)(rng_unit(&r) * 1.8 - 0.9);
            a[3] = 1.0f;
            for (int c = 0; c < 4; c++) a[4 + c] = (float)rng_unit(&r);
        }
    }
    st_world ref;
    mos_pipeline_desc ref_pd = { .threads = 1 };
    uint8_t *refs[NSIZES][NSPPS] = { { NULL } };
    if (!st_open(&ref, &ref_pd, v)) { free(v); return; }
    for (int i = 0; i < NSIZES; i++)
        for (int j = 0; j < NSPPS; j++)
            refs[i][j] = st_frame(&ref, sizes[i][0], sizes[i][1], spps[j], 0, NULL, "reference");
    mos_context_destroy(ref.ctx);

    const char *const *names = mos_pattern_names();
    int npat = 0;
    while (names && names[npat]) npat++;
    const int frames = 1000;
    st_world w = { 0 };
    int bad_frames = 0, fallback = 0;
    for (int f = 0; f < frames && bad_frames < 5; f++) {
        if (f % 100 == 0) {  /* a fresh context now and then: teardown with live workers */
            if (w.ctx) mos_context_destroy(w.ctx);
            if (!st_open(&w, &ref_pd, v)) break;
        }
        int bin = 4 << rng_range(&r, 0, 6);
        mos_pipeline_desc pd = {
            .threads = rng_range(&r, 1, 8),
            .pattern = npat ? names[rng_range(&r, 0, npat - 1)] : NULL,
            .bin_px = bin,
            .coarse_px = bin * (1 << rng_range(&r, 0, 2)),
            .batch = (int[]){ 1, 3, 64, 4096, -1, 0 }[rng_range(&r, 0, 5)],
            .early = (int[]){ -1, 0, 1, 2, 64, 1000 }[rng_range(&r, 0, 5)],
            .fifo_depth = rng_range(&r, 1, 64),
        };
        if (pd.pattern && !strcmp(pd.pattern, "g80")) pd.threads = 6;
        mos_result cr = mos_context_configure(w.ctx, &pd);
        if (cr == MOS_ERR_PATTERN_WORKERS && strcmp(pd.pattern, "g80") != 0) {
            fallback++;
            pd.pattern = "diagonal";
            cr = mos_context_configure(w.ctx, &pd);
        }
        if (!CHECK_MSG(cr == MOS_OK, "frame %d: configure threads=%d pattern=%s bin=%d coarse=%d: %s (%s)", f,
                       pd.threads, pd.pattern, pd.bin_px, pd.coarse_px, check_res_name_(cr),
                       mos_last_error(w.ctx))) {
            bad_frames++;
            continue;
        }
        int si = rng_range(&r, 0, NSIZES - 1), pi = rng_range(&r, 0, NSPPS - 1);
        int empty = f % 97 == 13;
        mos_frame_stats st;
        memset(&st, 0, sizeof st);
        char what[200];
        snprintf(what, sizeof what, "frame %d: threads=%d pattern=%s bin=%d coarse=%d batch=%d early=%d fifo=%d",
                 f, pd.threads, pd.pattern, pd.bin_px, pd.coarse_px, pd.batch, pd.early, pd.fifo_depth);
        uint8_t *img = st_frame(&w, sizes[si][0], sizes[si][1], spps[pi], empty, &st, what);
        if (!img) { bad_frames++; continue; }
        int ok = CHECK_MSG(st.width == sizes[si][0] && st.height == sizes[si][1] && st.spp == spps[pi] &&
                           st.threads == pd.threads && st.bin == pd.bin_px && st.coarse == pd.coarse_px &&
                           st.fifo == pd.fifo_depth,
                           "frame %d: stats %dx%d spp %d threads %d bin %d coarse %d fifo %d", f, st.width,
                           st.height, st.spp, st.threads, st.bin, st.coarse, st.fifo);
        CHECK_MSG(strcmp(st.pattern, pd.pattern ? pd.pattern : "diagonal") == 0, "frame %d: stats pattern %s",
                  f, st.pattern);
        /* The front-end's CPU time lies within the frame it ran in. */
        ok &= CHECK_MSG(st.frontend_cpu_ms >= 0.0 && st.frontend_cpu_ms <= st.frame_ms + 0.5,
                        "frame %d: frontend_cpu_ms %.3f outside [0, frame_ms %.3f]", f, st.frontend_cpu_ms,
                        st.frame_ms);
        /* Its serial part is a part of it (the jobs' CPU time is measured
         * inside the same interval, so up to clock rounding). */
        ok &= CHECK_MSG(st.frontend_serial_ms >= -0.01 && st.frontend_serial_ms <= st.frontend_cpu_ms + 0.01,
                        "frame %d: frontend_serial_ms %.3f outside [0, frontend_cpu_ms %.3f]", f,
                        st.frontend_serial_ms, st.frontend_cpu_ms);
        if (!empty && refs[si][pi])
            ok &= CHECK_MSG(memcmp(img, refs[si][pi], (size_t)sizes[si][0] * (size_t)sizes[si][1] * 4) == 0,
                            "frame %d: %dx%d spp %d threads=%d pattern=%s bin=%d coarse=%d batch=%d early=%d "
                            "fifo=%d differs from the single-threaded image", f, sizes[si][0], sizes[si][1],
                            spps[pi], pd.threads, pd.pattern, pd.bin_px, pd.coarse_px, pd.batch, pd.early,
                            pd.fifo_depth);
        if (empty) {
            long off = 0;
            for (int k = 0; k < sizes[si][0] * sizes[si][1]; k++) off += img[4 * k + 2] != 255 || img[4 * k] != 0;
            ok &= CHECK_MSG(off == 0, "frame %d: an empty frame is not the clear colour (%ld px)", f, off);
        }
        if (!ok) bad_frames++;
        free(img);
    }
    if (fallback) printf("NOTE %d frames fell back to diagonal (pattern/worker count)\n", fallback);
    if (w.ctx) mos_context_destroy(w.ctx);
    for (int i = 0; i < NSIZES; i++)
        for (int j = 0; j < NSPPS; j++) free(refs[i][j]);
    free(v);
}

int main(void)
{
    TEST_RUN(test_config_churn);
    return TEST_EXIT();
}
