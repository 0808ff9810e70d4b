/* test_stoch_bounds.c — the stochastic rasterizer's per-rank bounds never
 * drop a sample its 5D test takes.  Random blurred triangles (motion,
 * defocus, both; slivers, far off the window's origin, near the eye) are
 * set up by the front-end (fe_setup_blurred); samples drawn in a rank's
 * slice of (u, v, t), at and around the warped triangle, go through the
 * float sample test the walk runs (stoch_lane.h); every one it covers
 * must pass the rank's edge bounds (stoch_edge_plane, the walk's planes,
 * with its slack).  The reference here is the float test itself, not exact
 * geometry: the bounds must keep what it takes, rounding included.  And
 * the walks' block masks of a box against its pixels counted one by one;
 * the samples' offsets in their pixels (stoch_lane_offsets) against their
 * definition in double precision; the tuple walk's edge thresholds
 * (stoch_edge_tie) against the tie rule they stand for.
 * Fed by make test. */
#include "check.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "frontend/frontend.h"
#include "raster/stoch.h"
#include "raster/stoch_lane.h"

/* A rank's edge bounds (frame.h) as planes over a sample: it may be
 * covered only if x[k] X + y[k] Y + u[k] U + v[k] V <= c[k] for k = 0..2
 * (no bound: zeros and c = INFINITY). */
typedef struct stoch_edges {
    float x[3], y[3], u[3], v[3], c[3];
} stoch_edges;

/* Rank j's three edge bounds as the walk's tables hold them (none
 * without frame_tri_blur.edges). */
static void edges_of_rank(const frame_tri_blur *b, int stride, int j, float u0, float u1, float slack, stoch_edges *out)
{
    for (int k = 0; k < 3; k++) {
        const int16_t *ends = b->rank + (FRAME_RANK_ENDS + 2 * k) * stride + j;
        if (b->edges)
            stoch_edge_plane(b, k, ends[0], ends[stride], u0, u1, slack, &out->x[k], &out->y[k], &out->u[k],
                             &out->v[k], &out->c[k]);
        else
            out->x[k] = out->y[k] = out->u[k] = out->v[k] = 0.0f, out->c[k] = INFINITY;
    }
}

static test_rng rng = {0x9e3779b97f4a7c15ull};
static double frand(double lo, double hi) { return lo + (hi - lo) * rng_unit(&rng); }

enum { KIND_MOTION, KIND_DEFOCUS, KIND_BOTH, KINDS };
static const char *const kind_names[KINDS] = {"motion", "defocus", "both"};

/* A clip-space vertex at window-relative position (x, y) in [-1, 1] and w. */
static void clip_at(float out[4], double x, double y, double w)
{
    out[0] = (float)(x * w);
    out[1] = (float)(y * w);
    out[2] = (float)(0.2 * w);
    out[3] = (float)w;
}

/* Triangle n of a kind: 4-100 pixels, every fourth a sliver, every third
 * in a corner of the window; moves and turns when the kind moves, every
 * eighth a half turn by straight paths (it shrinks to nearly a point at
 * mid-shutter while both ends look fine). */
static bool is_half_turn(int n) { return n % 8 == 3; }
static void random_triangle(int n, int kind, float c0[3][4], float c1[3][4])
{
    const bool corner = n % 3 == 0, sliver = n % 4 == 1, half_turn = is_half_turn(n);
    const double cx = corner ? frand(0.85, 1.0) * (n & 8 ? 1 : -1) : frand(-0.9, 0.9);
    const double cy = corner ? frand(0.85, 1.0) * (n & 16 ? 1 : -1) : frand(-0.9, 0.9);
    const double size = exp(frand(log(0.004), log(0.1))), w = exp(frand(log(0.3), log(30.0)));
    double x[3], y[3];
    for (int i = 0; i < 3; i++) {
        x[i] = cx + frand(-size, size);
        y[i] = cy + frand(-size, size);
    }
    if (sliver) {  /* vertex 2 almost on the line through 0 and 1 */
        const double a = frand(-0.5, 1.5), off = frand(-1e-3, 1e-3) * size;
        x[2] = x[0] + a * (x[1] - x[0]) - off * (y[1] - y[0]);
        y[2] = y[0] + a * (y[1] - y[0]) + off * (x[1] - x[0]);
    }
    const double dx = frand(-0.05, 0.05), dy = frand(-0.05, 0.05);
    const double turn = half_turn ? 3.14159265358979 * (1.0 + frand(-1e-3, 1e-3)) : frand(-0.3, 0.3);
    for (int i = 0; i < 3; i++) {
        const double wi = w * frand(0.9, 1.1);
        clip_at(c0[i], x[i], y[i], wi);
        const double rx = x[i] - cx, ry = y[i] - cy;
        const double mx = cx + dx + cos(turn) * rx - sin(turn) * ry, my = cy + dy + sin(turn) * rx + cos(turn) * ry;
        clip_at(c1[i], kind == KIND_DEFOCUS ? x[i] : mx, kind == KIND_DEFOCUS ? y[i] : my,
                kind == KIND_DEFOCUS || half_turn ? wi : wi * frand(0.8, 1.25));
    }
}

/* The float sample test the walk runs for b's kind. */
static int sample_test(const frame_tri_blur *b, float x, float y, float u, float v, float t)
{
    float z, w0, w1, w2;
    switch (b->kind) {
    case FRAME_BLUR_MOTION: return stoch_lane_motion(b, x, y, t, &z, &w0, &w1, &w2);
    case FRAME_BLUR_DEFOCUS: return stoch_lane_defocus(b, x, y, u, v, &z, &w0, &w1, &w2);
    default: return stoch_lane_warp(b, x, y, u, v, t, &z, &w0, &w1, &w2);
    }
}

static void test_edge_bounds_keep_samples(void)
{
    const int per_kind = TEST_SANITIZED ? 300 : 3000, per_tri = 400;
    const fe_viewport vp = {1920, 1080, 0.0f, 0.0f};
    for (int kind = 0; kind < KINDS; kind++) {
        uint64_t covered = 0, lost = 0, outside = 0, rejected = 0;
        int set_up = 0, bounded = 0;
        for (int n = 0; n < per_kind; n++) {
            const int S = (int[]){8, 27, 64}[n % 3];
            const bool by_u = kind == KIND_DEFOCUS;
            float range[FRAME_MAX_POSITIONS][2];
            for (int j = 0; j < S; j++) {
                range[j][0] = by_u ? -1.0f + 2.0f * (float)j / (float)S : (float)j / (float)S;
                range[j][1] = by_u ? -1.0f + 2.0f * (float)(j + 1) / (float)S : (float)(j + 1) / (float)S;
            }
            frame_blur fb = {.stochastic = true, .motion = kind != KIND_DEFOCUS, .ranks = S};
            fb.rank_range[by_u ? FRAME_RANK_U : FRAME_RANK_T] = (const float(*)[2])range;
            fb.rank_range[by_u ? FRAME_RANK_T : FRAME_RANK_U] = (const float(*)[2])range;
            if (kind != KIND_MOTION) {
                fb.lens_x = (float)frand(0.002, 0.03);
                fb.lens_y = fb.lens_x * (float)frand(0.8, 1.8);
                fb.focus_w = (float)exp(frand(log(0.3), log(30.0)));
            }
            frame_draw d = {.cull = n & 1 ? MOS_CULL_BACK : MOS_CULL_NONE};
            float c0[3][4], c1[3][4];
            random_triangle(n, kind, c0, c1);
            const float *p0[3] = {c0[0], c0[1], c0[2]}, *p1[3] = {c1[0], c1[1], c1[2]}, *var[3] = {NULL, NULL, NULL};
            const size_t bytes = (fe_blurred_bytes(&d, &fb) + 63) & ~(size_t)63;
            void *slot = aligned_alloc(64, bytes);
            if (!slot) abort();
            const frame_tri *tri = fe_setup_blurred(p0, kind == KIND_DEFOCUS ? NULL : p1, var, &d, &fb, &vp, slot);
            if (!tri) {
                free(slot);
                continue;
            }
            set_up++;
            const frame_tri_blur *b = tri->blur;
            const int stride = FRAME_RANK_STRIDE(S);
            bool any = false;
            const bool middle = is_half_turn(n) && kind != KIND_DEFOCUS;  /* where it shrinks to a point */
            for (int k = 0; k < per_tri; k++) {
                const int j = middle ? S / 2 - 1 + (k & 1) : (int)frand(0, S);
                const float u = by_u ? (float)frand(range[j][0], range[j][1]) : (float)frand(-1, 1);
                const float v = (float)frand(-1, 1), t = by_u ? 0.0f : (float)frand(range[j][0], range[j][1]);
                /* A point of the warped triangle (weights a little past its
                 * edges), then up to a pixel off it. */
                double a0 = frand(-0.1, 1.1), a1 = frand(-0.1, 1.1) * (1 - a0), px = 0, py = 0;
                const double a[3] = {a0, a1, 1 - a0 - a1};
                for (int i = 0; i < 3; i++) {
                    const double W = b->p[i][3] + t * b->dp[i][3], off = W - b->focus;
                    px += a[i] * (b->p[i][0] + t * b->dp[i][0] + u * b->sx * off) / W;
                    py += a[i] * (b->p[i][1] + t * b->dp[i][1] + v * b->sy * off) / W;
                }
                float x = (float)(px + frand(-1, 1) * (k & 1)), y = (float)(py + frand(-1, 1) * (k & 1));
                if (k % 4 == 3) {  /* anywhere in the box of the rank's bounds */
                    const int16_t *r = b->rank + j;
                    const float q = 1.0f / (float)(1 << b->rank_shift);
                    x = (float)frand(fminf(r[FRAME_RANK_XL0 * stride], r[FRAME_RANK_XL1 * stride]) * q,
                                     fmaxf(r[FRAME_RANK_XH0 * stride], r[FRAME_RANK_XH1 * stride]) * q);
                    y = (float)frand(fminf(r[FRAME_RANK_YL0 * stride], r[FRAME_RANK_YL1 * stride]) * q,
                                     fmaxf(r[FRAME_RANK_YH0 * stride], r[FRAME_RANK_YH1 * stride]) * q);
                }
                stoch_edges E;
                edges_of_rank(b, stride, j, by_u ? range[j][0] : -1.0f, by_u ? range[j][1] : 1.0f, STOCH_LANE_SLACK,
                              &E);
                int pass = 1;
                for (int e = 0; e < 3; e++) {
                    pass &= E.x[e] * x + E.y[e] * y + E.u[e] * u + E.v[e] * v <= E.c[e];
                    any |= E.c[e] < INFINITY;
                }
                if (sample_test(b, x, y, u, v, t)) {
                    covered++;
                    if (!pass && lost++ < 5)
                        FAIL_MSG("%s triangle %d rank %d of %d: the sample test covers (%.4f, %.4f) at u %.4f v %.4f "
                                 "t %.4f, the edge bounds drop it", kind_names[kind], n, j, S, x, y, u, v, t);
                } else {
                    outside++;
                    rejected += !pass;
                }
            }
            bounded += any;
            free(slot);
        }
        printf("  %-8s %d triangles set up, %d with edge bounds: %llu covered samples, %llu dropped; "
               "%.0f%% of %llu uncovered ones rejected\n",
               kind_names[kind], set_up, bounded, (unsigned long long)covered, (unsigned long long)lost,
               100.0 * (double)rejected / (double)(outside ? outside : 1), (unsigned long long)outside);
        CHECK(lost == 0);
        CHECK(covered > (uint64_t)set_up * 50);  /* not vacuous: many covered samples */
        CHECK(bounded * 12 > set_up);             /* triangles get edge bounds (11-22% of these) */
        CHECK(rejected * 40 > outside);           /* which reject some of the rest (4-11%) */
    }
}

/* The walks' block masks (stoch_box) against the lanes counted one by one:
 * every box of pixels [x0, x1) x [y0, y1) within 0..20, every block the
 * walk visits, its lanes exactly the box's pixels in it. */
static void test_box_lanes(void)
{
    int boxes = 0, wrong = 0;
    for (int x0 = 0; x0 < 20; x0++)
        for (int x1 = x0 + 1; x1 <= 20; x1++)
            for (int y0 = 0; y0 < 20; y0++)
                for (int y1 = y0 + 1; y1 <= 20; y1++) {
                    stoch_box box;
                    stoch_box_init(&box, x0, y0, x1, y1);
                    int seen = 0;
                    for (int by = box.by_first; by < y1; by += 4)
                        for (int bx = box.bx_first; bx < x1; bx += 4) {
                            uint32_t want = 0;
                            for (int l = 0; l < 16; l++) {
                                const int x = bx + (l & 3), y = by + (l >> 2);
                                want |= (uint32_t)(x >= x0 && x < x1 && y >= y0 && y < y1) << l;
                            }
                            const uint32_t got = stoch_box_lanes(&box, bx, by);
                            wrong += got != want;
                            seen += __builtin_popcount(got);
                        }
                    wrong += seen != (x1 - x0) * (y1 - y0);  /* and the walk visits all of the box */
                    boxes++;
                }
    printf("  %d boxes, %d wrong masks\n", boxes, wrong);
    CHECK(boxes == 210 * 210);
    CHECK(wrong == 0);
}

/* stoch_lane_offsets on window coordinates of every subpixel step in
 * [0, 64) at rates from 1/16 to 16: s less its offset is the centre of
 * the stretch its pixel and its cell (1 / rate from 0) share, to a float's
 * rounding, so that a static sample keeps its pixel and its grid point
 * (floor(s rate)); at rate 1 the centre is exactly the pixel's. */
static void test_sample_offsets(void)
{
    static const float rates[] = {1.0f, 2.0f, 1.5f, 0.5f, 0.37f, 3.0f, 16.0f, 0.0625f, 0.8f};
    float s[64 * FRAME_SUBPIXELS], o[64 * FRAME_SUBPIXELS];
    const int n = 64 * FRAME_SUBPIXELS;
    for (int i = 0; i < n; i++) s[i] = (float)i / (float)FRAME_SUBPIXELS;
    int checked = 0, off = 0, moved = 0, unit = 0;
    for (size_t r = 0; r < sizeof rates / sizeof rates[0]; r++) {
        const float rate = rates[r];
        stoch_lane_offsets(s, o, n, rate);
        for (int i = 0; i < n; i++) {
            const double p = floor((double)s[i]), k = floor((double)s[i] * (double)rate);
            const double lo = fmax(p, k / (double)rate), hi = fmin(p + 1.0, (k + 1.0) / (double)rate);
            const float c = s[i] - o[i];
            off += fabs((double)c - 0.5 * (lo + hi)) > 1e-5 * (1.0 + (double)s[i]);
            moved += floorf(c) != floorf(s[i]) || util_floor_i32(c * rate) != util_floor_i32(s[i] * rate);
            if (rate == 1.0f) unit += c != (float)p + 0.5f;
            checked++;
        }
    }
    printf("  %d offsets: %d off the centre, %d left their pixel or cell, %d not the pixel's centre at rate 1\n",
           checked, off, moved, unit);
    CHECK(checked == n * (int)(sizeof rates / sizeof rates[0]));
    CHECK(off == 0);
    CHECK(moved == 0);
    CHECK(unit == 0);
}

/* The tie rule as the walks stated it before it became a threshold: on
 * the edge, the triangle whose gradient points to +x, or along +y when
 * vertical. */
static int rule_inside(float e, float gx, float gy)
{
    return (e > 0.0f) | ((e == 0.0f) & ((gx > 0.0f) | ((gx == 0.0f) & (gy > 0.0f))));
}

/* stoch_edge_inside (e > stoch_edge_tie(gx, gy)) is the rule for every
 * edge value, zeros, subnormals, infinities and NaN included, and every
 * gradient sign; and a lane's edge test from the thresholds, as the tuple
 * walk runs it and as the rank walk does (stoch_lane_inside), is the rule
 * on random lines, on points on the edges too. */
static void test_edge_thresholds(void)
{
    const float special[] = {0.0f, -0.0f, FLT_TRUE_MIN, -FLT_TRUE_MIN, 2.0f * FLT_TRUE_MIN, -2.0f * FLT_TRUE_MIN,
                             FLT_MIN, -FLT_MIN, 1.0f, -1.0f, 1e30f, -1e30f, INFINITY, -INFINITY, NAN};
    const int ns = (int)(sizeof special / sizeof special[0]);
    int checked = 0, wrong = 0;
    for (int i = 0; i < ns; i++)
        for (int j = 0; j < ns; j++)
            for (int k = 0; k < ns; k++) {
                const float e = special[i], gx = special[j], gy = special[k];
                wrong += stoch_edge_inside(e, gx, gy) != rule_inside(e, gx, gy);
                checked++;
            }
    int lanes = 0, on_edge = 0, lane_wrong = 0;
    for (int n = 0; n < 200000; n++) {
        float c[3][3], row[3], tie[3], cx[3], e0[3], e1[3], e2[3];
        for (int k = 0; k < 3; k++)
            for (int a = 0; a < 3; a++) c[k][a] = (float)frand(-4.0, 4.0);
        if (n % 4 == 0) c[n / 4 % 3][0] = 0.0f;  /* horizontal edges: the rule's second case */
        const float x = (float)frand(-8.0, 8.0), y = (float)frand(-8.0, 8.0);
        if (n % 2) c[n / 2 % 3][2] = -(c[n / 2 % 3][0] * x + c[n / 2 % 3][1] * y);  /* near the edge */
        int want = 1;
        for (int k = 0; k < 3; k++) {
            row[k] = stoch_edge_row(c[k], y);
            tie[k] = stoch_edge_tie(c[k][0], c[k][1]);
            cx[k] = c[k][0];
            e0[k] = c[k][0] * x + row[k];
            want &= rule_inside(e0[k], c[k][0], c[k][1]);
            on_edge += e0[k] == 0.0f;
        }
        want &= e0[0] + e0[1] + e0[2] > 0.0f;
        const int tuple = stoch_lane_inside_tie(cx, x, row, tie, e1), rank = stoch_lane_inside(c, x, y, e2);
        lane_wrong += want != tuple || want != rank || memcmp(e0, e1, sizeof e0) != 0 || memcmp(e0, e2, sizeof e0) != 0;
        lanes++;
    }
    printf("  %d edge values against the rule: %d differ; %d lanes (%d values on an edge): %d differ\n", checked,
           wrong, lanes, on_edge, lane_wrong);
    CHECK(checked == ns * ns * ns);
    CHECK(wrong == 0);
    CHECK(on_edge > 1000);  /* the tie rule is exercised */
    CHECK(lane_wrong == 0);
}

int main(void)
{
    TEST_RUN(test_edge_thresholds);
    TEST_RUN(test_box_lanes);
    TEST_RUN(test_sample_offsets);
    TEST_RUN(test_edge_bounds_keep_samples);
    return TEST_EXIT();
}
