/* test_raster_rules.c — top-left rule on hand-built triangles through pixel
 * centres, and an independent scalar reference rasterizer compared sample by
 * sample on random triangles.  Fed by make test. */
#include "testutil.h"

/* 128 x 64 (powers of two): NDC = X / (128 * W) - 1 is exact in float for
 * every vertex on the 1/256-pixel grid, so snapping is unambiguous. */
enum { RW = 128, RH = 64 };

/* ---- the reference --------------------------------------------------------
 * D3D standard sample positions (1/16 pixel, relative to the pixel centre),
 * used with y up as the library documents; sample s is the s-th RGBA8 value of
 * a pixel in mos_target_read_samples. */
static const int ref_pos1[] = { 0, 0 };
static const int ref_pos2[] = { 4, 4, -4, -4 };
static const int ref_pos4[] = { -2, -6, 6, -2, -6, 2, 2, 6 };
static const int ref_pos8[] = { 1, -3, -1, 3, 5, 1, -3, -5, -5, 5, -7, -1, 3, 7, 7, -7 };
static const int ref_pos16[] = { 1, 1, -1, -3, -3, 2, 4, -1, -5, -2, 2, 5, 5, 3, 3, -5,
                                 -2, 6, 0, -7, -4, -6, -6, 4, -8, 0, 7, -4, 6, 7, -7, -8 };

static const int *ref_positions(int spp)
{
    return spp == 2 ? ref_pos2 : spp == 4 ? ref_pos4 : spp == 8 ? ref_pos8
         : spp == 16 ? ref_pos16 : ref_pos1;
}

/* A triangle in 1/256-pixel fixed point, window space, y up. */
typedef struct ref_tri { int64_t x[3], y[3]; } ref_tri;

/* Does the triangle cover the point (sx, sy) (1/256 px)?  Double-precision
 * edge functions (exact: all terms < 2^53), top-left rule, both windings
 * unless cull_back. */
static int ref_covers(const ref_tri *t, int cull_back, double sx, double sy)
{
    double X[3] = { (double)t->x[0], (double)t->x[1], (double)t->x[2] };
    double Y[3] = { (double)t->y[0], (double)t->y[1], (double)t->y[2] };
    double area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
    if (area == 0 || (area < 0 && cull_back)) return 0;
    if (area < 0) { /* make it counter-clockwise */
        double tx = X[1], ty = Y[1];
        X[1] = X[2]; Y[1] = Y[2]; X[2] = tx; Y[2] = ty;
    }
    for (int e = 0; e < 3; e++) {
        double ax = X[e], ay = Y[e], bx = X[(e + 1) % 3], by = Y[(e + 1) % 3];
        /* > 0: left of a->b, i.e. inside a counter-clockwise triangle */
        double E = (bx - ax) * (sy - ay) - (by - ay) * (sx - ax);
        if (E < 0) return 0;
        if (E == 0) {
            int top = (by == ay) && (bx < ax);  /* horizontal, interior below */
            int left = by < ay;                 /* runs downwards, interior right */
            if (!top && !left) return 0;
        }
    }
    return 1;
}

/* Adds the reference coverage of T to counts[y][x][s] (y up). */
static void ref_raster(const ref_tri *t, int cull_back, int spp, uint8_t *counts)
{
    const int *pos = ref_positions(spp);
    int64_t mnx = t->x[0], mxx = t->x[0], mny = t->y[0], mxy = t->y[0];
    for (int i = 1; i < 3; i++) {
        if (t->x[i] < mnx) mnx = t->x[i];
        if (t->x[i] > mxx) mxx = t->x[i];
        if (t->y[i] < mny) mny = t->y[i];
        if (t->y[i] > mxy) mxy = t->y[i];
    }
    int x0 = (int)floor(mnx / 256.0) - 1, x1 = (int)floor(mxx / 256.0) + 1;
    int y0 = (int)floor(mny / 256.0) - 1, y1 = (int)floor(mxy / 256.0) + 1;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > RW - 1) x1 = RW - 1;
    if (y1 > RH - 1) y1 = RH - 1;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            for (int s = 0; s < spp; s++) {
                double sx = x * 256.0 + 128 + pos[2 * s] * 16, sy = y * 256.0 + 128 + pos[2 * s + 1] * 16;
                if (ref_covers(t, cull_back, sx, sy)) counts[((size_t)y * RW + (size_t)x) * (size_t)spp + (size_t)s]++;
            }
}

/* ---- the library ---------------------------------------------------------- */
typedef struct rr_env {
    mos_context *ctx;
    mos_target t;
    mos_shader sh, zero;
    int spp;
} rr_env;

static int rr_open_isa(rr_env *e, int spp, int threads, int bin, mos_isa isa)
{
    e->spp = spp;
    e->ctx = NULL;
    mos_result r = mos_context_create(&(mos_context_desc){ .pipeline = { .threads = threads, .bin_px = bin }, .isa = isa },
                                      &e->ctx);
    if (!CHECK_OK_B(r)) return 0;
    if (!CHECK_OK_B(mos_target_create(e->ctx, &(mos_target_desc){ .width = RW, .height = RH,
                    .samples = spp, .keep_samples = true }, &e->t))) {
        mos_context_destroy(e->ctx);
        return 0;
    }
    e->sh = tu_count_shader(e->ctx, tu_vs_ndc2);
    e->zero = tu_zero_shader(e->ctx);
    return 1;
}

static int rr_open(rr_env *e, int spp, int threads, int bin) { return rr_open_isa(e, spp, threads, bin, MOS_ISA_AUTO); }

static void tri_to_ndc(const ref_tri *t, float *xy)
{
    for (int i = 0; i < 3; i++) {
        xy[2 * i + 0] = (float)((double)t->x[i] / (128.0 * RW) - 1.0);
        xy[2 * i + 1] = (float)((double)t->y[i] / (128.0 * RH) - 1.0);
    }
}

/* Renders N triangles additively; returns counts[y][x][s] (y up), malloc'd. */
static uint8_t *rr_render(rr_env *e, const ref_tri *tris, int n, int cull_back)
{
    float *xy = malloc(sizeof(float) * 6 * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) tri_to_ndc(&tris[i], xy + 6 * i);
    tu_frame f = { .n = 0 };
    CHECK_OK(mos_begin_frame(e->ctx, &(mos_frame_desc){ .target = e->t }));
    tu_draw_prime(e->ctx, &f, e->zero);
    if (n)
        CHECK_OK(tu_draw(e->ctx, &f, e->sh, xy, 2, 3 * n, NULL, 0, cull_back ? MOS_CULL_BACK : MOS_CULL_NONE,
                         MOS_BLEND_ADD, NULL, 0));
    CHECK_OK(tu_end(e->ctx, &f, NULL));
    uint8_t *raw = tu_read_samples(e->ctx, e->t, RW, RH, e->spp);
    uint8_t *c = malloc((size_t)RW * RH * (size_t)e->spp);
    for (int y = 0; y < RH; y++)
        for (int x = 0; x < RW; x++)
            for (int s = 0; s < e->spp; s++)
                c[((size_t)y * RW + (size_t)x) * (size_t)e->spp + (size_t)s] = (uint8_t)tu_sample(raw, RW, RH, e->spp, x, y, s, 0);
    free(raw);
    free(xy);
    return c;
}

/* Compares library and reference for TRIS; on a mismatch finds and prints the
 * first triangle that differs on its own.  Returns 1 if equal. */
static int rr_compare(rr_env *e, const ref_tri *tris, int n, int cull_back, const char *what)
{
    size_t cnt = (size_t)RW * RH * (size_t)e->spp;
    uint8_t *ref = calloc(cnt, 1);
    for (int i = 0; i < n; i++) ref_raster(&tris[i], cull_back, e->spp, ref);
    uint8_t *lib = rr_render(e, tris, n, cull_back);
    long bad = 0;
    size_t first = 0;
    for (size_t i = 0; i < cnt; i++)
        if (ref[i] != lib[i] && !bad++) first = i;
    if (bad) {
        int s = (int)(first % (size_t)e->spp), px = (int)(first / (size_t)e->spp % RW);
        int py = (int)(first / (size_t)e->spp / RW);
        CHECK_MSG(bad == 0, "%s spp=%d: %ld samples differ; first pixel (%d,%d) sample %d: library %d, "
                  "reference %d", what, e->spp, bad, px, py, s, lib[first], ref[first]);
        for (int i = 0; i < n && n > 1; i++) {
            if (rr_compare(e, &tris[i], 1, cull_back, "  single triangle")) continue;
            fprintf(stderr, "  minimal repro: triangle (1/256 px) (%lld,%lld) (%lld,%lld) (%lld,%lld)%s\n",
                    (long long)tris[i].x[0], (long long)tris[i].y[0], (long long)tris[i].x[1],
                    (long long)tris[i].y[1], (long long)tris[i].x[2], (long long)tris[i].y[2],
                    cull_back ? " cull back" : "");
            break;
        }
    }
    free(ref);
    free(lib);
    return bad == 0;
}

/* Triangle from pixel coordinates (exact multiples of 1/256). */
static ref_tri T(double x0, double y0, double x1, double y1, double x2, double y2)
{
    ref_tri t = { { llrint(x0 * 256), llrint(x1 * 256), llrint(x2 * 256) },
                  { llrint(y0 * 256), llrint(y1 * 256), llrint(y2 * 256) } };
    return t;
}
static ref_tri flip(ref_tri t)
{
    ref_tri r = t;
    r.x[1] = t.x[2]; r.y[1] = t.y[2]; r.x[2] = t.x[1]; r.y[2] = t.y[1];
    return r;
}

/* Counts at pixel centres (1 spp) of TRIS, both windings, checked against
 * expect(x, y); also against the reference. */
static void centre_case(const char *what, const ref_tri *tris, int n, int (*expect)(int x, int y))
{
    for (int w = 0; w < 2; w++) {
        rr_env e;
        if (!rr_open(&e, 1, 1 + w, 16)) return;
        ref_tri tt[4];
        for (int i = 0; i < n; i++) tt[i] = w ? flip(tris[i]) : tris[i];
        uint8_t *c = rr_render(&e, tt, n, 0);
        long bad = 0;
        for (int y = 0; y < RH; y++)
            for (int x = 0; x < RW; x++) {
                int want = expect(x, y);
                if (c[(size_t)y * RW + (size_t)x] != want && !bad++)
                    FAIL_MSG("%s (%s): pixel (%d,%d) count %d, expected %d", what,
                              w ? "clockwise" : "counter-clockwise", x, y, c[(size_t)y * RW + (size_t)x], want);
            }
        CHECK_MSG(bad == 0, "%s: %ld pixels wrong", what, bad);
        free(c);
        rr_compare(&e, tt, n, 0, what);
        mos_context_destroy(e.ctx);
    }
}

/* Square of pixel centres (2.5, 2.5)-(12.5, 12.5) split along its diagonal
 * (through centres (k+.5, k+.5)): left and top sides covered, right and bottom
 * not, the shared diagonal exactly once. */
static int expect_square(int x, int y) { return x >= 2 && x <= 11 && y >= 3 && y <= 12; }
static void test_shared_diagonal(void)
{
    ref_tri t[2] = { T(2.5, 2.5, 12.5, 2.5, 12.5, 12.5), T(2.5, 2.5, 12.5, 12.5, 2.5, 12.5) };
    centre_case("square split on its diagonal", t, 2, expect_square);
    ref_tri u[2] = { T(2.5, 12.5, 2.5, 2.5, 12.5, 2.5), T(2.5, 12.5, 12.5, 2.5, 12.5, 12.5) };
    centre_case("square split on its anti-diagonal", u, 2, expect_square);
}

/* Top edge y = 10.5 from x 2.5 to 12.5, apex (7.5, 0.5) below: centres on the
 * top edge are covered (left end too: it is also on a left edge). */
static int expect_top(int x, int y)
{
    if (y < 1 || y > 10) return 0;
    double cy = y + 0.5, cx = x + 0.5;
    /* left edge from (2.5,10.5) to (7.5,0.5): x >= 2.5 + (10.5 - cy) / 2, included;
     * right edge from (7.5,0.5) to (12.5,10.5): x < 12.5 - (10.5 - cy) / 2 */
    double l = 2.5 + (10.5 - cy) / 2, r = 12.5 - (10.5 - cy) / 2;
    return cx >= l && cx < r;
}
static void test_top_edge(void)
{
    ref_tri t = T(2.5, 10.5, 7.5, 0.5, 12.5, 10.5);
    centre_case("top edge through centres", &t, 1, expect_top);
}
/* Bottom edge y = 3.5, apex (7.5, 13.5) above: centres on it are not covered. */
static int expect_bottom(int x, int y)
{
    if (y < 4 || y > 13) return 0;
    double cy = y + 0.5, cx = x + 0.5;
    double l = 2.5 + (cy - 3.5) / 2, r = 12.5 - (cy - 3.5) / 2;
    return cx >= l && cx < r;
}
static void test_bottom_edge(void)
{
    ref_tri t = T(2.5, 3.5, 12.5, 3.5, 7.5, 13.5);
    centre_case("bottom edge through centres", &t, 1, expect_bottom);
}
/* Left edge x = 3.5 from y 2.5 to 12.5, apex (13.5, 7.5) on the right:
 * covered on the edge. */
static int expect_left(int x, int y)
{
    double cy = y + 0.5, cx = x + 0.5;
    if (cx < 3.5) return 0;
    /* upper edge (13.5,7.5)->(3.5,12.5) runs left and up: not top-left?  It
     * runs leftwards but not along a row and upwards, so exclusive: cy < upper;
     * lower edge (3.5,2.5)->(13.5,7.5) runs up: right edge, exclusive. */
    double up = 12.5 - (cx - 3.5) / 2, lo = 2.5 + (cx - 3.5) / 2;
    return cy < up && cy > lo;
}
static void test_left_edge(void)
{
    ref_tri t = T(3.5, 2.5, 13.5, 7.5, 3.5, 12.5);
    centre_case("left edge through centres", &t, 1, expect_left);
}
/* Right edge x = 10.5, apex (0.5, 7.5) on the left: not covered on the edge. */
static int expect_right(int x, int y)
{
    double cy = y + 0.5, cx = x + 0.5;
    if (cx >= 10.5) return 0;
    /* upper edge (10.5,12.5)->(0.5,7.5) runs down-left: left edge, inclusive;
     * lower edge (0.5,7.5)->(10.5,2.5) runs down-right: left edge, inclusive. */
    double up = 7.5 + (cx - 0.5) / 2, lo = 7.5 - (cx - 0.5) / 2;
    return cy <= up && cy >= lo;
}
static void test_right_edge(void)
{
    ref_tri t = T(10.5, 2.5, 10.5, 12.5, 0.5, 7.5);
    centre_case("right edge through centres", &t, 1, expect_right);
}

/* Axis-aligned rectangle of centres as two triangles, at every sample count:
 * every sample exactly once inside, nothing outside (checked by the reference). */
static void test_rect_all_spp(void)
{
    static const int spps[] = { 1, 2, 4, 8, 16 };
    for (int i = 0; i < 5; i++) {
        rr_env e;
        if (!rr_open(&e, spps[i], 2, 8)) return;
        ref_tri t[2] = { T(1.5, 1.5, 20.5, 1.5, 20.5, 30.5), T(1.5, 1.5, 20.5, 30.5, 1.5, 30.5) };
        rr_compare(&e, t, 2, 0, "rectangle");
        uint8_t *c = rr_render(&e, t, 2, 0);
        long over = 0;
        for (size_t k = 0; k < (size_t)RW * RH * (size_t)spps[i]; k++) over += c[k] > 1;
        CHECK_MSG(over == 0, "spp %d: %ld samples counted twice", spps[i], over);
        free(c);
        mos_context_destroy(e.ctx);
    }
}

/* ---- random triangles ---------------------------------------------------- */
static int64_t quantize(test_rng *r, int64_t v, int mode)
{
    /* mode 0: any 1/256; 1: sample grid (1/16); 2: pixel centres/corners (1/2) */
    int64_t q = mode == 0 ? 1 : mode == 1 ? 16 : 128;
    (void)r;
    return (v / q) * q;
}

/* size 0: 1-8 pixels; 1: anywhere over the target and past it; 2: 8-56
 * pixels (at one sample per pixel the AVX2 block walk's 32-bit edge values
 * hold them). */
static ref_tri random_tri(test_rng *r, int size_class)
{
    ref_tri t;
    int mode = rng_range(r, 0, 2);
    if (size_class == 1) {
        for (int i = 0; i < 3; i++) {
            t.x[i] = quantize(r, rng_range(r, -RW / 4 * 256, RW * 5 / 4 * 256), mode);
            t.y[i] = quantize(r, rng_range(r, -RH / 4 * 256, RH * 5 / 4 * 256), mode);
        }
    } else {
        int size = (size_class == 2 ? rng_range(r, 8, 56) : rng_range(r, 1, 8)) * 256;
        int cx = rng_range(r, -256, RW * 256), cy = rng_range(r, -256, RH * 256);
        for (int i = 0; i < 3; i++) {
            t.x[i] = quantize(r, cx + rng_range(r, 0, size), mode);
            t.y[i] = quantize(r, cy + rng_range(r, 0, size), mode);
        }
    }
    return t;
}

static void random_case_sizes(int spp, int small_n, int medium_n, int large_n, int threads, int bin, unsigned seed,
                              mos_isa isa)
{
    rr_env e;
    if (!rr_open_isa(&e, spp, threads, bin, isa)) return;
    test_rng r = { 0x853C49E6748FEA9Bull + seed };
    enum { PER_FRAME = 48 };
    ref_tri tris[PER_FRAME];
    int total = small_n + medium_n + large_n, done = 0, frame = 0, failed = 0;
    while (done < total && !failed) {
        int n = total - done < PER_FRAME ? total - done : PER_FRAME;
        for (int i = 0; i < n; i++)
            tris[i] = random_tri(&r, done + i < small_n ? 0 : done + i < small_n + medium_n ? 2 : 1);
        char what[64];
        snprintf(what, sizeof what, "random frame %d", frame);
        failed = !rr_compare(&e, tris, n, frame % 3 == 2, what);
        done += n;
        frame++;
    }
    mos_context_destroy(e.ctx);
}

static void random_case_isa(int spp, int small_n, int large_n, int threads, int bin, unsigned seed, mos_isa isa)
{
    random_case_sizes(spp, small_n, 0, large_n, threads, bin, seed, isa);
}

static void random_case(int spp, int small_n, int large_n, int threads, int bin, unsigned seed)
{
    random_case_isa(spp, small_n, large_n, threads, bin, seed, MOS_ISA_AUTO);
}

static void test_random_1spp(void) { random_case(1, TEST_SANITIZED ? 800 : 2500, TEST_SANITIZED ? 150 : 500, 2, 16, 1); }
/* The portable build's paths too (small triangles take a one-block path at
 * one sample per pixel in every instruction set). */
static void test_random_1spp_scalar(void) { random_case_isa(1, TEST_SANITIZED ? 400 : 1500, 50, 2, 16, 6, MOS_ISA_SCALAR); }
/* Medium triangles at one sample per pixel in each instruction set the CPU
 * has: AVX2's 4x4 block walk with 32-bit edge values takes most of them
 * (and hands the rest to the quad walk), AVX-512's its own. */
static void test_random_1spp_medium(void)
{
    const mos_isa isas[] = { MOS_ISA_SCALAR, MOS_ISA_AVX2, MOS_ISA_AVX512 };
    for (int i = 0; i < 3; i++) {
        mos_context *probe = NULL;
        if (mos_context_create(&(mos_context_desc){ .isa = isas[i] }, &probe) != MOS_OK) continue;  /* not this CPU's */
        mos_context_destroy(probe);
        random_case_sizes(1, 100, TEST_SANITIZED ? 300 : 1000, 40, 2, i == 1 ? 32 : 16, 7 + (unsigned)i, isas[i]);
    }
}
static void test_random_4spp(void) { random_case(4, TEST_SANITIZED ? 800 : 2500, TEST_SANITIZED ? 150 : 500, 3, 8, 2); }
static void test_random_2_8_16spp(void)
{
    random_case(2, TEST_SANITIZED ? 200 : 600, TEST_SANITIZED ? 40 : 120, 1, 32, 3);
    random_case(8, TEST_SANITIZED ? 200 : 600, TEST_SANITIZED ? 40 : 120, 4, 16, 4);
    random_case(16, TEST_SANITIZED ? 200 : 600, TEST_SANITIZED ? 40 : 120, 2, 64, 5);
}

int main(void)
{
    TEST_RUN(test_shared_diagonal);
    TEST_RUN(test_top_edge);
    TEST_RUN(test_bottom_edge);
    TEST_RUN(test_left_edge);
    TEST_RUN(test_right_edge);
    TEST_RUN(test_rect_all_spp);
    TEST_RUN(test_random_1spp);
    TEST_RUN(test_random_1spp_scalar);
    TEST_RUN(test_random_1spp_medium);
    TEST_RUN(test_random_4spp);
    TEST_RUN(test_random_2_8_16spp);
    return TEST_EXIT();
}
