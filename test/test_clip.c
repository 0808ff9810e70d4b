/* test_clip.c — near/far clipping against analytically known regions, geometry
 * behind the eye, and huge triangles beyond the guard band.  Fed by make test. */
#include "testutil.h"

enum { CW_ = 256, CH_ = 192 };

static const int pos4[] = { -2, -6, 6, -2, -6, 2, 2, 6 };  /* D3D 4x, 1/16 px, y up */

typedef struct clip_env {
    mos_context *ctx;
    mos_target t;
    mos_shader mvp, clip4, zero;
    int spp;
} clip_env;

static int clip_open(clip_env *e, int spp, int threads, int bin)
{
    e->spp = spp;
    e->ctx = tu_context(threads, bin);
    if (!e->ctx) return 0;
    if (!CHECK_OK_B(mos_target_create(e->ctx, &(mos_target_desc){ .width = CW_, .height = CH_,
                    .samples = spp, .keep_samples = true }, &e->t))) {
        mos_context_destroy(e->ctx);
        return 0;
    }
    e->mvp = tu_count_shader(e->ctx, tu_vs_mvp);
    e->clip4 = tu_count_shader(e->ctx, tu_vs_clip4);
    e->zero = tu_zero_shader(e->ctx);
    return 1;
}

/* Sample position (window pixels, y up). */
static void sample_pos(int spp, int x, int y, int s, double *sx, double *sy)
{
    *sx = x + 0.5 + (spp == 4 ? pos4[2 * s] / 16.0 : 0);
    *sy = y + 0.5 + (spp == 4 ? pos4[2 * s + 1] / 16.0 : 0);
}

/* Renders TRI_COUNT triangles of xyz vertices through PROJ. */
static uint8_t *render_mvp(clip_env *e, const float *xyz, int tri_count, const float proj[16],
                           mos_frame_stats *st)
{
    tu_frame f = { .n = 0 };
    CHECK_OK(mos_begin_frame(e->ctx, &(mos_frame_desc){ .target = e->t }));
    tu_draw_prime(e->ctx, &f, e->zero);
    CHECK_OK(tu_draw(e->ctx, &f, e->mvp, xyz, 3, 3 * tri_count, NULL, 0, MOS_CULL_NONE,
                     MOS_BLEND_ADD, proj, 16 * sizeof(float)));
    CHECK_OK(tu_end(e->ctx, &f, st));
    return tu_read_samples(e->ctx, e->t, CW_, CH_, e->spp);
}
static uint8_t *render_clip4(clip_env *e, const float *xyzw, int tri_count, mos_frame_stats *st)
{
    tu_frame f = { .n = 0 };
    CHECK_OK(mos_begin_frame(e->ctx, &(mos_frame_desc){ .target = e->t }));
    tu_draw_prime(e->ctx, &f, e->zero);
    CHECK_OK(tu_draw(e->ctx, &f, e->clip4, xyzw, 4, 3 * tri_count, NULL, 0, MOS_CULL_NONE,
                     MOS_BLEND_ADD, NULL, 0));
    CHECK_OK(tu_end(e->ctx, &f, st));
    return tu_read_samples(e->ctx, e->t, CW_, CH_, e->spp);
}

/* A ground quad y = -1 from z = +10 (behind the eye) to z = -100, x in
 * [-1000, 1000], split along A-C so one triangle has two vertices behind the
 * eye and the other one.  Seen with fovy 90: the visible part ends at the far
 * edge z = -100 (or the far plane, whichever is nearer), a horizontal line at
 * y_ndc = -1 / min(100, far).  Below it every sample is covered exactly once,
 * above it none. */
static void ground_case(int spp, int threads, float far, const char *what)
{
    clip_env e;
    if (!clip_open(&e, spp, threads, 16)) return;
    const float A[3] = { -1000, -1, 10 }, B[3] = { 1000, -1, 10 };
    const float C[3] = { 1000, -1, -100 }, D[3] = { -1000, -1, -100 };
    float xyz[18];
    const float *order[6] = { A, B, C, A, C, D };
    for (int i = 0; i < 6; i++) memcpy(xyz + 3 * i, order[i], sizeof(float) * 3);
    float proj[16];
    tu_perspective(proj, 3.14159265f / 2, (float)CW_ / CH_, 0.1f, far);
    mos_frame_stats st;
    uint8_t *s = render_mvp(&e, xyz, 2, proj, &st);
    double end = far < 100 ? far : 100;
    double horizon_px = (1.0 - 1.0 / end) * 0.5 * CH_;
    long holes = 0, over = 0, above = 0;
    for (int y = 0; y < CH_; y++)
        for (int x = 0; x < CW_; x++)
            for (int k = 0; k < spp; k++) {
                double sx, sy;
                sample_pos(spp, x, y, k, &sx, &sy);
                int v = tu_sample(s, CW_, CH_, spp, x, y, k, 0);
                if (v > 1) over++;
                if (sy < horizon_px - 0.01 && v != 1) holes++;
                if (sy > horizon_px + 0.01 && v != 0) above++;
            }
    CHECK_MSG(holes == 0 && over == 0 && above == 0,
              "%s spp=%d: horizon at y=%.3f px: %ld holes below, %ld samples > 1, %ld covered above",
              what, spp, horizon_px, holes, over, above);
    free(s);
    mos_context_destroy(e.ctx);
}

static void test_near_ground_plane(void)
{
    ground_case(1, 2, 1000.0f, "ground plane through the near plane");
    ground_case(4, 3, 1000.0f, "ground plane through the near plane");
}
static void test_far_plane(void)
{
    ground_case(1, 1, 50.0f, "ground plane through the far plane");
    ground_case(4, 4, 50.0f, "ground plane through the far plane");
}

/* Triangles wholly behind the eye, between the eye and the near plane, and
 * beyond the far plane: nothing drawn, nothing binned. */
static void test_behind_eye(void)
{
    clip_env e;
    if (!clip_open(&e, 1, 2, 16)) return;
    const float xyz[] = {
        -1, -1, 2, 1, -1, 2, 0, 1, 2,           /* behind: projects "onto" the screen mirrored */
        -5, -5, 0.5f, 5, -5, 3, 0, 5, 1,        /* behind, big */
        -1, -1, -0.05f, 1, -1, -0.05f, 0, 1, -0.05f, /* in front of the eye, before the near plane */
        -100, -100, -200, 100, -100, -200, 0, 100, -200, /* beyond the far plane */
    };
    float proj[16];
    tu_perspective(proj, 3.14159265f / 2, (float)CW_ / CH_, 0.1f, 100.0f);
    mos_frame_stats st;
    uint8_t *s = render_mvp(&e, xyz, 4, proj, &st);
    long any = 0;
    for (size_t i = 0; i < (size_t)CW_ * CH_; i++) any += s[4 * i] != 0;
    CHECK_MSG(any == 0, "%ld pixels drawn by triangles outside the view volume", any);
    CHECK_EQ_INT(st.triangles_in, 4 + 2);       /* + the priming quad */
    CHECK_EQ_INT(st.triangles_binned, 0 + 2);
    free(s);
    mos_context_destroy(e.ctx);
}

/* Huge triangles far beyond the guard band (clip space, w = 1). */
static void huge_case(int spp, int threads)
{
    clip_env e;
    if (!clip_open(&e, spp, threads, 32)) return;
    const float G = 1e5f;
    /* (a) one triangle over everything */
    const float full[] = { -G, -G, 0, 1, G, -G, 0, 1, 0, G, 0, 1 };
    /* (b) a quad split along the diagonal y_ndc = x_ndc, which crosses the screen */
    const float quad[] = { -G, -G, 0, 1, G, -G, 0, 1, G, G, 0, 1,
                           -G, -G, 0, 1, G, G, 0, 1, -G, G, 0, 1 };
    /* (c) the half below that diagonal, with w != 1 on one vertex */
    const float half[] = { -G, -G, 0, 1, 2 * G, -2 * G, 0, 2, G, G, 0, 1 };
    const struct { const float *v; int n; int kind; const char *what; } cases[] = {
        { full, 1, 0, "one huge triangle" },
        { quad, 2, 0, "huge quad, diagonal on screen" },
        { half, 1, 1, "huge triangle, edge on screen" },
    };
    for (int c = 0; c < 3; c++) {
        mos_frame_stats st;
        uint8_t *s = render_clip4(&e, cases[c].v, cases[c].n, &st);
        long bad = 0;
        int fx = -1, fy = -1, fv = 0;
        for (int y = 0; y < CH_; y++)
            for (int x = 0; x < CW_; x++)
                for (int k = 0; k < spp; k++) {
                    double sx, sy;
                    sample_pos(spp, x, y, k, &sx, &sy);
                    int v = tu_sample(s, CW_, CH_, spp, x, y, k, 0), want = 1;
                    if (cases[c].kind == 1) {
                        /* below y_ndc = x_ndc, i.e. sy / H < sx / W */
                        double d = sy / CH_ - sx / CW_;
                        if (fabs(d) < 1e-4) continue;
                        want = d < 0;
                    }
                    if (v != want && !bad++) { fx = x; fy = y; fv = v; }
                }
        CHECK_MSG(bad == 0, "%s spp=%d: %ld samples wrong, first at pixel (%d,%d) = %d", cases[c].what,
                  spp, bad, fx, fy, fv);
        free(s);
    }
    mos_context_destroy(e.ctx);
}
static void test_huge_guard_band(void)
{
    huge_case(1, 2);
    huge_case(4, 3);
}

/* A triangle crossing the near plane with its visible part drawn in full:
 * vertex attributes as clip coordinates; the part with z >= -w is exactly the
 * region left of x_ndc = 0 for this construction (the clip edge maps to the
 * screen's vertical centre line). */
static void test_near_vertical_split(void)
{
    clip_env e;
    if (!clip_open(&e, 1, 2, 16)) return;
    /* z = x - 1, w = 1: visible (z >= -w) iff x >= 0, and z <= w throughout; the
     * plane x = 0 is the window column W / 2. */
    const float v[] = { -1.5f, -1.5f, -2.5f, 1, 1.5f, -1.5f, 0.5f, 1, 1.5f, 1.5f, 0.5f, 1,
                        -1.5f, -1.5f, -2.5f, 1, 1.5f, 1.5f, 0.5f, 1, -1.5f, 1.5f, -2.5f, 1 };
    mos_frame_stats st;
    uint8_t *s = render_clip4(&e, v, 2, &st);
    long bad = 0;
    for (int y = 0; y < CH_; y++)
        for (int x = 0; x < CW_; x++) {
            int want = x >= CW_ / 2;
            if (tu_sample(s, CW_, CH_, 1, x, y, 0, 0) != want) bad++;
        }
    CHECK_MSG(bad == 0, "%ld pixels wrong: expected the right half only", bad);
    free(s);
    mos_context_destroy(e.ctx);
}

int main(void)
{
    TEST_RUN(test_near_ground_plane);
    TEST_RUN(test_far_plane);
    TEST_RUN(test_behind_eye);
    TEST_RUN(test_huge_guard_band);
    TEST_RUN(test_near_vertical_split);
    return TEST_EXIT();
}
