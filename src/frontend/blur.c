/* blur.c — setup of a triangle that moves during the shutter or is seen
 * through a thin lens: conservative screen bounds over (u, v, t), the
 * coefficients of its time-continuous or aperture-continuous edge functions
 * (seed 001, 5.1 and Appendix A), and its shading reference: the triangle
 * at t = 0 seen from the lens centre, else at t = 1, else a barycentric grid.
 * Fed by the front-end loop with clip positions; feeds coarse binning. */
#include <math.h>
#include <string.h>

#include "frontend/frontend.h"
#include "util/cpu.h"
#include "util/floor.h"

#define BLUR_MIN_W 1e-5f       /* a vertex this close to the eye plane has no finite image */
#define BLUR_MIN_AREA 1e-6f    /* window area (pixels^2) below which a reference is degenerate */
#define BLUR_BARY_GRID 64.0f   /* barycentric-grid fallback: grid points along an edge */
#define BLUR_BOUNDS_MARGIN (1.0f / 64.0f)  /* pixels: far beyond the sample tests' rounding */

/* Canonical vertex order for an edge: compare position, then motion. */
static bool vertex_less(const frame_tri_blur *b, int i, int j)
{
    for (int k = 0; k < 4; k++)
        if (b->p[i][k] != b->p[j][k]) return b->p[i][k] < b->p[j][k];
    for (int k = 0; k < 4; k++)
        if (b->dp[i][k] != b->dp[j][k]) return b->dp[i][k] < b->dp[j][k];
    return false;
}

/* Edge coefficients of edge e from vertices (ia, ib) in canonical order,
 * for the MOTION and DEFOCUS paths (BOTH warps the vertices per sample). */
static void edge_coefficients(frame_tri_blur *b, int e)
{
    int ia = (e + 1) % 3, ib = (e + 2) % 3;
    b->sign[e] = 1.0f;
    if (vertex_less(b, ib, ia)) {
        int tmp = ia;
        ia = ib;
        ib = tmp;
        b->sign[e] = -1.0f;
    }
    const float pa[3] = {b->p[ia][0], b->p[ia][1], b->p[ia][3]}, pb[3] = {b->p[ib][0], b->p[ib][1], b->p[ib][3]};
    frame_cross3(b->c0[e], pa, pb);
    if (b->kind == FRAME_BLUR_MOTION) {
        const float da[3] = {b->dp[ia][0], b->dp[ia][1], b->dp[ia][3]};
        const float db[3] = {b->dp[ib][0], b->dp[ib][1], b->dp[ib][3]};
        float x[3], y[3];
        frame_cross3(x, pa, db);
        frame_cross3(y, da, pb);
        for (int k = 0; k < 3; k++) b->c1[e][k] = x[k] + y[k];
        frame_cross3(b->c2[e], da, db);
    } else if (b->kind == FRAME_BLUR_DEFOCUS) {
        /* Vertex (X + u alpha, Y + v beta, W), alpha = sx (W - F), beta = sy (W - F):
         * the cross product is c0 + u c1 + v c2 (the uv term cancels). */
        float aa = b->sx * (pa[2] - b->focus), ab = b->sx * (pb[2] - b->focus);
        float ba = b->sy * (pa[2] - b->focus), bb = b->sy * (pb[2] - b->focus);
        b->c1[e][0] = 0.0f;
        b->c1[e][1] = pa[2] * ab - aa * pb[2];
        b->c1[e][2] = aa * pb[1] - pa[1] * ab;
        b->c2[e][0] = ba * pb[2] - pa[2] * bb;
        b->c2[e][1] = 0.0f;
        b->c2[e][2] = pa[0] * bb - ba * pb[0];
    }
}

/* Pixel bounds of everything the triangle covers over the box of lens and
 * shutter positions range[0] (u), range[1] (v), range[2] (t).  A warped vertex is multilinear in (u, v, t), so
 * every warped triangle lies in the convex hull of the 24 corner points
 * (3 vertices x 2 times x 2 x 2 lens positions).  Samples in front of the
 * near plane (z >= -w, hence w > 0) see the hull clipped by that plane: its
 * image is bounded by the corners in front and by the points where the
 * segments between corners cross the plane. */
bool fe_blur_bounds(const frame_tri_blur *b, const float range[3][2], int width, int height, int32_t out[4])
{
    float P[24][4];  /* X, Y, W, z + w */
    int n = 0;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 2; k++)
            for (int c = 0; c < 4; c++) {
                float t = range[2][k], u = range[0][c & 1], v = range[1][c >> 1];
                float W = b->p[i][3] + t * b->dp[i][3], off = W - b->focus;
                P[n][0] = b->p[i][0] + t * b->dp[i][0] + u * b->sx * off;
                P[n][1] = b->p[i][1] + t * b->dp[i][1] + v * b->sy * off;
                P[n][2] = W;
                P[n][3] = b->p[i][2] + t * b->dp[i][2] + W;
                n++;
            }
    float lo_x = INFINITY, hi_x = -INFINITY, lo_y = INFINITY, hi_y = -INFINITY;
    int seen = 0;
#define BLUR_EXTEND(X, Y, W)                    \
    do {                                        \
        float x_ = (X) / (W), y_ = (Y) / (W);   \
        lo_x = x_ < lo_x ? x_ : lo_x;           \
        hi_x = x_ > hi_x ? x_ : hi_x;           \
        lo_y = y_ < lo_y ? y_ : lo_y;           \
        hi_y = y_ > hi_y ? y_ : hi_y;           \
        seen++;                                 \
    } while (0)
    for (int i = 0; i < n; i++) {
        /* In front of the near plane but not of the eye: no projection bounds
         * it (real perspective projections never do this). */
        if (P[i][3] >= 0.0f && !(P[i][2] >= BLUR_MIN_W)) {
            lo_x = lo_y = -INFINITY;
            hi_x = hi_y = INFINITY;
            seen++;
            break;
        }
        if (P[i][3] >= 0.0f) BLUR_EXTEND(P[i][0], P[i][1], P[i][2]);
        if (P[i][3] >= 0.0f) continue;
        for (int j = 0; j < n; j++) {
            if (!(P[j][3] > 0.0f)) continue;
            float a = P[i][3] / (P[i][3] - P[j][3]);  /* where z + w = 0 on i -> j */
            float W = P[i][2] + a * (P[j][2] - P[i][2]);
            if (W > 0.0f) BLUR_EXTEND(P[i][0] + a * (P[j][0] - P[i][0]), P[i][1] + a * (P[j][1] - P[i][1]), W);
        }
    }
#undef BLUR_EXTEND
    /* The sample tests round too: one a hair outside the exact image of an
     * edge may still test inside, so the bounds keep a margin for it. */
    lo_x -= BLUR_BOUNDS_MARGIN;
    lo_y -= BLUR_BOUNDS_MARGIN;
    hi_x += BLUR_BOUNDS_MARGIN;
    hi_y += BLUR_BOUNDS_MARGIN;
    if (!seen || !(hi_x >= 0.0f && hi_y >= 0.0f && lo_x < (float)width && lo_y < (float)height))
        return false;  /* wholly behind the near plane, or off-screen (NaN too) */
    int32_t x0 = 0, y0 = 0, x1 = width - 1, y1 = height - 1;
    if (lo_x > 0.0f) x0 = (int32_t)lo_x;
    if (lo_y > 0.0f) y0 = (int32_t)lo_y;
    if (hi_x < (float)x1) x1 = (int32_t)hi_x;
    if (hi_y < (float)y1) y1 = (int32_t)hi_y;
    out[0] = x0;
    out[1] = y0;
    out[2] = x1;
    out[3] = y1;
    return x0 <= x1 && y0 <= y1;
}

/* The orientation of the warped triangle.  While every w > 0 its window
 * area has the sign of det[p0; p1; p2] (rows X, Y, W), the determinant the
 * per-sample test takes for back faces (stoch_lane_finish).  The lens
 * shears every row along x by u and along y by v, so det is bilinear in
 * (u, v); at a lens corner each row is linear in t, so det is a cubic in
 * t.  Its largest value over a box of (u, v, t) is at a lens corner, at an
 * end of the t range or where the cubic's derivative vanishes.  In double,
 * with a margin far above its rounding, so a triangle or rank it finds
 * back-facing everywhere is one whose samples the exact test rejects. */
typedef struct blur_orient {
    double c[4][4];  /* lens corner (u = c & 1 ? 1 : -1, v = c & 2 ? 1 : -1): det = sum c[k] t^k */
    double crit_t[4][2], crit_det[4][2];  /* where each corner's cubic has a critical point in (0, 1) */
    int crits[4];
    double margin;
} blur_orient;

static double dmax(double a, double b) { return a > b ? a : b; }

static double cubic_at(const double c[4], double t) { return ((c[3] * t + c[2]) * t + c[1]) * t + c[0]; }

static void cross3d(double out[3], const double a[3], const double b[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot3d(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

UTIL_CLONES_AVX2 static void orient_init(blur_orient *o, const frame_tri_blur *b)
{
    /* A bound on every entry of the rows at any (u, v, t) in the box: the
     * scale of det's terms for the margin. */
    double big = 0.0;
    for (int i = 0; i < 3; i++)
        for (int t = 0; t < 2; t++) {  /* each entry is linear in t and in the lens: extreme at the ends */
            const double W = b->p[i][3] + t * b->dp[i][3], X = b->p[i][0] + t * b->dp[i][0];
            const double Y = b->p[i][1] + t * b->dp[i][1];
            big = dmax(big, dmax(fabs(W), dmax(fabs(X) + fabs(b->sx * (W - b->focus)),
                                               fabs(Y) + fabs(b->sy * (W - b->focus)))));
        }
    o->margin = 1e-9 * big * big * big;
    const bool moving = b->kind & FRAME_BLUR_MOTION;
    for (int c = 0; c < 4; c++) {
        const double u = c & 1 ? 1.0 : -1.0, v = c & 2 ? 1.0 : -1.0;
        double a[3][3], d[3][3];  /* row i at t: a[i] + t d[i] */
        for (int i = 0; i < 3; i++) {
            const double W = b->p[i][3], dW = b->dp[i][3];
            a[i][0] = b->p[i][0] + u * b->sx * (W - b->focus);
            a[i][1] = b->p[i][1] + v * b->sy * (W - b->focus);
            a[i][2] = W;
            d[i][0] = b->dp[i][0] + u * b->sx * dW;
            d[i][1] = b->dp[i][1] + v * b->sy * dW;
            d[i][2] = dW;
        }
        /* det[a0 + t d0; a1 + t d1; a2 + t d2] = (a0 + t d0) . ((a1 + t d1) x (a2 + t d2)):
         * the cross product's terms P + t Q + t^2 R. */
        double P[3], Q[3], Q2[3], R[3];
        double *k = o->c[c];
        cross3d(P, a[1], a[2]);
        k[0] = dot3d(a[0], P);
        if (!moving) {  /* no motion: det does not change with t */
            k[1] = k[2] = k[3] = 0.0;
            o->crits[c] = 0;
            continue;
        }
        cross3d(Q, d[1], a[2]);
        cross3d(Q2, a[1], d[2]);
        cross3d(R, d[1], d[2]);
        for (int j = 0; j < 3; j++) Q[j] += Q2[j];
        k[1] = dot3d(d[0], P) + dot3d(a[0], Q);
        k[2] = dot3d(a[0], R) + dot3d(d[0], Q);
        k[3] = dot3d(d[0], R);
        /* Critical points: roots of 3 k3 t^2 + 2 k2 t + k1 inside (0, 1). */
        const double A = 3.0 * k[3], B = 2.0 * k[2], C = k[1];
        double roots[2];
        int n = 0;
        if (A != 0.0) {
            const double disc = B * B - 4.0 * A * C;
            if (disc >= 0.0) {
                const double r = sqrt(disc);
                roots[n++] = (-B - r) / (2.0 * A);
                roots[n++] = (-B + r) / (2.0 * A);
            }
        } else if (B != 0.0) {
            roots[n++] = -C / B;
        }
        o->crits[c] = 0;
        for (int i = 0; i < n; i++)
            if (roots[i] > 0.0 && roots[i] < 1.0) {
                o->crit_t[c][o->crits[c]] = roots[i];
                o->crit_det[c][o->crits[c]++] = cubic_at(k, roots[i]);
            }
    }
}

/* The largest det at lens corner c over t in [t0, t1], given its values
 * d0, d1 at the ends. */
static double orient_corner_max(const blur_orient *o, int c, double t0, double t1, double d0, double d1)
{
    double m = dmax(d0, d1);
    for (int i = 0; i < o->crits[c]; i++)
        if (o->crit_t[c][i] > t0 && o->crit_t[c][i] < t1) m = dmax(m, o->crit_det[c][i]);
    return m;
}

/* Whether the triangle faces away at every (u, v) with u in [u0, u1], v in
 * [-1, 1], given each lens corner's largest det over the t range: at fixed
 * t det is bilinear, its value at (u, +-1) the lerp of the corners', and the
 * max over t of a lerp at most the lerp of the maxima. */
static bool orient_back(const blur_orient *o, const double corner_max[4], double u0, double u1)
{
    for (int e = 0; e < 2; e++) {
        const double u = e ? u1 : u0, lo = 0.5 * (1.0 - u), hi = 0.5 * (1.0 + u);
        for (int v = 0; v < 2; v++)
            if (lo * corner_max[2 * v] + hi * corner_max[2 * v + 1] >= -o->margin) return false;
    }
    return true;
}

/* Whether it faces away at every (u, v, t) of the lens square and shutter. */
static bool orient_back_always(const blur_orient *o)
{
    double m[4];
    for (int c = 0; c < 4; c++) m[c] = orient_corner_max(o, c, 0.0, 1.0, o->c[c][0], cubic_at(o->c[c], 1.0));
    return orient_back(o, m, -1.0, 1.0);
}

/* Whether it faces the eye at every (u, v, t): the smallest det at each
 * lens corner (as orient_corner_max, the least of ends and critical
 * points) above the margin; then no rank can face away. */
static bool orient_front_always(const blur_orient *o)
{
    for (int c = 0; c < 4; c++) {
        double m = o->c[c][0] < cubic_at(o->c[c], 1.0) ? o->c[c][0] : cubic_at(o->c[c], 1.0);
        for (int i = 0; i < o->crits[c]; i++) m = o->crit_det[c][i] < m ? o->crit_det[c][i] : m;
        if (!(m > o->margin)) return false;
    }
    return true;
}

/* Rank bounds are stored in 16 bits: quarter pixels while the screen and
 * RANK_SLACK pixels around it fit, else halves or whole pixels. */
#define RANK_SLACK 256.0f  /* pixels off screen a bound's end may lie and stay a line */
static int rank_shift(const fe_viewport *vp)
{
    const float span = (float)(vp->width > vp->height ? vp->width : vp->height) + 2.0f * RANK_SLACK;
    return span * 4.0f <= 32767.0f ? 2 : span * 2.0f <= 32767.0f ? 1 : 0;
}

static float min2(float a, float b) { return a < b ? a : b; }
static float max2(float a, float b) { return a > b ? a : b; }

/* Stores rank j's bounds xl/xh (x at the two ends of its u range) and
 * yl/yh (y at v = -1, 1), widened by the margin and rounded outward.  Ends
 * that are not finite or lie far off screen make a box instead: the lines'
 * extent clamped to the screen (a bound's line may not be clamped). */
static void rank_store(frame_tri_blur *b, int stride, int j, const float xl[2], const float xh[2], const float yl[2],
                       const float yh[2], const fe_viewport *vp)
{
    const float w = (float)vp->width, h = (float)vp->height;
    float v[FRAME_RANK_ENDS] = {xl[0], xl[1], yl[0], yl[1], xh[0], xh[1], yh[0], yh[1]};
    const float lim_lo = -RANK_SLACK, lim_x = w + RANK_SLACK, lim_y = h + RANK_SLACK;
    const bool lines = v[0] >= lim_lo && v[1] >= lim_lo && v[2] >= lim_lo && v[3] >= lim_lo && v[4] <= lim_x &&
                       v[5] <= lim_x && v[6] <= lim_y && v[7] <= lim_y;  /* false for NaN too */
    if (!lines) {
        v[0] = v[1] = fmaxf(fminf(xl[0], xl[1]), -1.0f);  /* fmaxf/fminf: NaN -> the other */
        v[4] = v[5] = fminf(fmaxf(xh[0], xh[1]), w + 1.0f);
        v[2] = v[3] = fmaxf(fminf(yl[0], yl[1]), -1.0f);
        v[6] = v[7] = fminf(fmaxf(yh[0], yh[1]), h + 1.0f);
        if (!(xl[0] == xl[0]) || !(xl[1] == xl[1]) || !(yl[0] == yl[0]) || !(yl[1] == yl[1])) v[0] = v[1] = v[2] = v[3] = -1.0f;
        if (!(xh[0] == xh[0]) || !(xh[1] == xh[1]) || !(yh[0] == yh[0]) || !(yh[1] == yh[1])) {
            v[4] = v[5] = w + 1.0f;
            v[6] = v[7] = h + 1.0f;
        }
    }
    const float m = BLUR_BOUNDS_MARGIN, s = (float)(1 << b->rank_shift);
    for (int e = 0; e < FRAME_RANK_ENDS; e++)  /* lo: floor((v - m) s); hi: ceil((v + m) s) = -floor(-(v + m) s) */
        b->rank[e * stride + j] =
            (int16_t)(e < FRAME_RANK_XH0 ? util_floor_i32((v[e] - m) * s) : -util_floor_i32(-(v[e] + m) * s));
}

static void rank_empty(frame_tri_blur *b, int stride, int j)
{
    for (int e = 0; e < FRAME_RANK_ENDS; e++) b->rank[e * stride + j] = e < FRAME_RANK_XH0 ? INT16_MAX : INT16_MIN;
}

/* The bounds of each rank's slice of time (or lens u), for the rasterizer:
 * much smaller than those of the whole shutter (or lens).  While every
 * vertex stays in front of the near plane at both ends of the shutter (w
 * and z + w are linear in t), the image of vertex i at (u, t) is
 * x = (X(t) + u sx (W(t) - F)) / W(t): linear in u, monotone in t, so over
 * the rank's slice x lies above the chord of the smallest of the six
 * corners (3 vertices x 2 times) at the two ends of the u range, and below
 * that of the largest; y likewise in v (rank_bounds_projective).  Otherwise
 * the near-plane clipped hull of fe_blur_bounds gives a box.  With back (a
 * back-face culled, projective triangle) ranks where it faces away are
 * empty.  Writes the pixels the ranks cover (x0, y0, x1, y1 inclusive) to
 * box; false when they cover none. */
/* Times a rank table reads: both ends of every rank when the ranks' t
 * ranges overlap (interleaved tuples), padded (RANK_PAD). */
#define RANK_POINTS FRAME_RANK_STRIDE(2 * FRAME_MAX_POSITIONS + 1)
/* Every rank's eight ends before rounding, in pixels (FRAME_RANK_*), and
 * whether it is empty; padded to FRAME_RANK_STRIDE ranks.  The loops over
 * ranks and times below have fixed, padded trip counts and no branches,
 * so they run four (SSE2) or more lanes at once: eight where the CPU has
 * AVX2, for the functions built twice (UTIL_CLONES_AVX2: extents_at,
 * rank_bounds_projective, orient_init and ranks_store).  ranks_store's
 * rounding is written twice instead (ranks_round): a clone's body gets
 * util_floor_i32's baseline form, which eight wide costs more than four. */
#define RANK_PAD(n) FRAME_RANK_STRIDE(n)
typedef struct rank_ends {
    float e[FRAME_RANK_ENDS][FRAME_MAX_POSITIONS];
    int empty[FRAME_MAX_POSITIONS];
} rank_ends;

/* The three vertices' extent at times t[0 .. n) (n a multiple of 16):
 * vertex i lies at x = mx + u kx, y = my + v ky, so at u (v) = -1 and 1
 * the ends are m -+ k. */
typedef struct time_extents {
    float e[FRAME_RANK_ENDS][RANK_POINTS];
} time_extents;

UTIL_CLONES_AVX2 static void extents_at(const frame_tri_blur *b, const float *t, int n, time_extents *x)
{
    for (int k = 0; k < n; k++) {
        float lo[4] = {0}, hi[4] = {0};  /* x at u = -1, 1, y at v = -1, 1 */
        for (int i = 0; i < 3; i++) {
            const float W = b->p[i][3] + t[k] * b->dp[i][3], iw = 1.0f / W;
            const float mx = (b->p[i][0] + t[k] * b->dp[i][0]) * iw, kx = b->sx * (W - b->focus) * iw;
            const float my = (b->p[i][1] + t[k] * b->dp[i][1]) * iw, ky = b->sy * (W - b->focus) * iw;
            const float v[4] = {mx - kx, mx + kx, my - ky, my + ky};
            for (int e = 0; e < 4; e++) {
                lo[e] = i ? min2(lo[e], v[e]) : v[e];
                hi[e] = i ? max2(hi[e], v[e]) : v[e];
            }
        }
        for (int e = 0; e < 4; e++) {
            x->e[FRAME_RANK_XL0 + e][k] = lo[e];
            x->e[FRAME_RANK_XH0 + e][k] = hi[e];
        }
    }
}

/* lo: floor((v - m) s); hi: ceil((v + m) s) = -floor(-(v + m) s); empty
 * ranks (the padding too): lo above every column, hi below.  FLOOR is
 * util_floor_i32, or util_floor_i32_avx2 in the AVX2 body (one instruction
 * there, a call per lane in the baseline's): the same bits. */
static inline __attribute__((always_inline)) void ranks_round(int16_t *restrict out, const rank_ends *restrict r,
                                                              int stride, float m, float s, int32_t (*floor_i32)(float))
{
    for (int e = 0; e < FRAME_RANK_XH0; e++)
        for (int j = 0; j < stride; j++) {
            const int16_t q = (int16_t)floor_i32((r->e[e][j] - m) * s);
            out[e * stride + j] = r->empty[j] ? INT16_MAX : q;
        }
    for (int e = FRAME_RANK_XH0; e < FRAME_RANK_ENDS; e++)
        for (int j = 0; j < stride; j++) {
            const int16_t q = (int16_t)-floor_i32(-(r->e[e][j] + m) * s);
            out[e * stride + j] = r->empty[j] ? INT16_MIN : q;
        }
}
#if defined(UTIL_X86)
__attribute__((target("avx2"))) static void ranks_round_avx2(int16_t *restrict out, const rank_ends *restrict r,
                                                             int stride, float m, float s)
{
    ranks_round(out, r, stride, m, s, util_floor_i32_avx2);
}
#endif

/* Rounds every rank's ends outward (rank_store's rule, all ranks at once)
 * into b->rank; ranks marked empty, or whose ends are not lines, go the
 * slow way. */
UTIL_CLONES_AVX2 static void ranks_store(frame_tri_blur *b, rank_ends *restrict r, int S, const fe_viewport *vp)
{
    const float w = (float)vp->width, h = (float)vp->height, m = BLUR_BOUNDS_MARGIN;
    const float s = (float)(1 << b->rank_shift);
    const int stride = FRAME_RANK_STRIDE(S);
    int lines[FRAME_MAX_POSITIONS];
    for (int j = 0; j < stride; j++)
        lines[j] = !r->empty[j] & (r->e[FRAME_RANK_XL0][j] >= -RANK_SLACK) & (r->e[FRAME_RANK_XL1][j] >= -RANK_SLACK) &
                   (r->e[FRAME_RANK_YL0][j] >= -RANK_SLACK) & (r->e[FRAME_RANK_YL1][j] >= -RANK_SLACK) &
                   (r->e[FRAME_RANK_XH0][j] <= w + RANK_SLACK) & (r->e[FRAME_RANK_XH1][j] <= w + RANK_SLACK) &
                   (r->e[FRAME_RANK_YH0][j] <= h + RANK_SLACK) & (r->e[FRAME_RANK_YH1][j] <= h + RANK_SLACK);
    /* Ranks that are not lines get their ends another way after the pass
     * below: their ends move aside, zeros in their place keep its
     * conversions defined (NaN, huge values). */
    float aside[FRAME_MAX_POSITIONS][FRAME_RANK_ENDS];
    for (int j = 0; j < stride; j++)
        if (!lines[j])
            for (int e = 0; e < FRAME_RANK_ENDS; e++) {
                aside[j][e] = r->e[e][j];
                r->e[e][j] = 0.0f;
            }
#if defined(UTIL_X86)
    if (__builtin_cpu_supports("avx2")) ranks_round_avx2(b->rank, r, stride, m, s);
    else
#endif
        ranks_round(b->rank, r, stride, m, s, util_floor_i32);
    for (int j = 0; j < stride; j++) {
        if (lines[j] || r->empty[j]) continue;
        const float *v = aside[j];
        const float xl[2] = {v[FRAME_RANK_XL0], v[FRAME_RANK_XL1]}, xh[2] = {v[FRAME_RANK_XH0], v[FRAME_RANK_XH1]};
        const float yl[2] = {v[FRAME_RANK_YL0], v[FRAME_RANK_YL1]}, yh[2] = {v[FRAME_RANK_YH0], v[FRAME_RANK_YH1]};
        rank_store(b, stride, j, xl, xh, yl, yh, vp);
    }
}

/* The sample test (stoch_lane.h) decides in float from homogeneous edge
 * lines whose values carry rounding of about eps R^2 (W_max / W_min)^2 / L
 * pixels (R the largest window coordinate, L the edge's length): near an
 * edge, and for a sliver far beyond its tip, it may take samples outside
 * the exact triangle.  Edges pushed out by delta move a vertex of angle
 * theta by delta / sin(theta / 2) <= 2 delta L_a L_b / A (A twice the area,
 * L_a, L_b its edges), and L >= A / L_max, so the triangle the test takes
 * lies within 2 eps R^2 (W_max / W_min)^2 L_max^3 / A^2 of the exact one
 * along every direction.  A's least value over the lens square and the
 * shutter comes from det of the homogeneous vertices (blur_orient: at each
 * lens corner a cubic in t, at fixed t bilinear in the lens), over
 * W_max^3: a triangle that nearly collapses mid-shutter (a half turn) is
 * caught even though both ends look fine.  L_max and R are taken at the
 * ends of the shutter, lens centre and corners.  Returns EDGE_ROUNDING
 * times that slack; INFINITY when the triangle may turn over or needs
 * more than EDGE_MAX_SLACK. */
/* Vertex i at time t: its pinhole image (x, y) and lens factor kappa =
 * (W - F) / W (at lens (u, v) it lies at (x + kappa sx u, y + kappa sy v));
 * returns W. */
static inline float vertex_image(const frame_tri_blur *b, int i, float t, float *x, float *y, float *kappa)
{
    const float W = b->p[i][3] + t * b->dp[i][3], iw = 1.0f / W;
    *x = (b->p[i][0] + t * b->dp[i][0]) * iw;
    *y = (b->p[i][1] + t * b->dp[i][1]) * iw;
    *kappa = (W - b->focus) * iw;
    return W;
}

#define EDGE_ROUNDING 4.0f    /* times the estimate above */
#define EDGE_MAX_SLACK 1.0f   /* pixels: beyond this the box's bounds alone */
#define EDGE_MAX_COORD 1e6f   /* pixels (and lens factors): beyond this, likewise */
/* Samples a triangle's rank boxes hold below which its edge bounds are not
 * set up: they cost about as many instructions as 600 sample tests. */
#define EDGE_MIN_HELD 2048.0f
static float edge_slack(const frame_tri_blur *b, bool by_u)
{
    blur_orient o;
    orient_init(&o, b);
    double det_min = INFINITY, sign = 0.0;
    for (int c = 0; c < 4; c++) {
        double v[4] = {o.c[c][0], cubic_at(o.c[c], 1.0), 0.0, 0.0};
        int n = 2;
        for (int i = 0; i < o.crits[c]; i++) v[n++] = o.crit_det[c][i];
        for (int i = 0; i < n; i++) {
            if (!(fabs(v[i]) > o.margin) || v[i] * sign < 0.0) return INFINITY;  /* may turn over (NaN too) */
            sign = v[i];
            det_min = fabs(v[i]) < det_min ? fabs(v[i]) : det_min;
        }
    }
    float R = 1.0f, L = 0.0f, w_lo = INFINITY, w_hi = 0.0f;
    for (int k = 0; k < (by_u ? 1 : 2); k++)
        for (int lens = 0; lens < 5; lens++) {
            const float t = (float)k, u = lens ? (lens & 1 ? 1.0f : -1.0f) : 0.0f,
                        v = lens ? (lens & 2 ? 1.0f : -1.0f) : 0.0f;
            float x[3], y[3];
            for (int i = 0; i < 3; i++) {
                float kappa;
                const float W = vertex_image(b, i, t, &x[i], &y[i], &kappa);
                x[i] += kappa * b->sx * u;
                y[i] += kappa * b->sy * v;
                R = max2(R, max2(fabsf(x[i]), fabsf(y[i])) + 1.0f);
                w_lo = min2(w_lo, W);
                w_hi = max2(w_hi, W);
            }
            for (int i = 0; i < 3; i++) {
                const int a = (i + 1) % 3;
                L = max2(L, sqrtf((x[a] - x[i]) * (x[a] - x[i]) + (y[a] - y[i]) * (y[a] - y[i])));
            }
        }
    const double area = det_min / ((double)w_hi * w_hi * w_hi), ratio = (double)w_hi / w_lo;
    const double slack = EDGE_ROUNDING * 0x1p-24 * (double)R * R * ratio * ratio * 2.0 * (double)L * L * L / (area * area);
    return slack <= EDGE_MAX_SLACK ? (float)slack : INFINITY;  /* NaN too */
}

static void rank_edges(frame_tri_blur *b, const frame_blur *fb, bool worth_it)
{
    const int S = fb->ranks, stride = FRAME_RANK_STRIDE(S);
    const bool by_u = b->rank_key == FRAME_RANK_U;
    int16_t *restrict out = b->rank + FRAME_RANK_ENDS * stride;
    b->edges = false;  /* the box's bounds alone, until the rows are written */
    if (!worth_it) return;
    const float slack = edge_slack(b, by_u);
    if (!(slack < INFINITY)) return;
    /* The directions: the triangle's outward edge normals at mid-shutter
     * (at t = 0 when ranks slice u: it does not move), lens centre. */
    float x[3], y[3], kappa_mid;
    for (int i = 0; i < 3; i++) vertex_image(b, i, by_u ? 0.0f : 0.5f, &x[i], &y[i], &kappa_mid);
    for (int k = 0; k < 3; k++) {
        const int a = (k + 1) % 3, c = (k + 2) % 3;  /* edge k: vertices a, c; k opposite */
        float nx = y[c] - y[a], ny = x[a] - x[c];
        if (nx * (x[k] - x[a]) + ny * (y[k] - y[a]) > 0.0f) nx = -nx, ny = -ny;
        const float len = sqrtf(nx * nx + ny * ny);
        if (!(len > 0.0f) || !isfinite(len)) return;  /* degenerate */
        b->edge_n[k][0] = nx / len;
        b->edge_n[k][1] = ny / len;
        /* Ends count from the centroid's projection (a lower end clamps up:
         * a looser bound, still a bound). */
        b->edge_o[k] = b->edge_n[k][0] * (x[0] + x[1] + x[2]) / 3.0f + b->edge_n[k][1] * (y[0] + y[1] + y[2]) / 3.0f;
    }
    /* Each rank's slice: its u range and the two ends of its time; the
     * loops over ranks below have fixed, padded trip counts (they
     * vectorize, as the box's). */
    const float (*range)[2] = fb->rank_range[b->rank_key];
    float u[2][FRAME_MAX_POSITIONS], t[2][FRAME_MAX_POSITIONS];
    for (int j = 0; j < stride; j++)
        for (int e = 0; e < 2; e++) {
            const float r = j < S ? range[j][e] : 0.0f;
            u[e][j] = by_u ? r : (e ? 1.0f : -1.0f);
            t[e][j] = by_u ? 0.0f : r;
        }
    /* Vertex i's pinhole image and lens factor at both ends of every
     * slice; all of them (and the lens) within EDGE_MAX_COORD, so the
     * values below are finite. */
    float mx[3][2][FRAME_MAX_POSITIONS], my[3][2][FRAME_MAX_POSITIONS], kappa[3][2][FRAME_MAX_POSITIONS];
    int huge = !(fabsf(b->sx) + fabsf(b->sy) <= EDGE_MAX_COORD);  /* int, not bool: the loop vectorizes */
    for (int i = 0; i < 3; i++)
        for (int e = 0; e < 2; e++)
            for (int j = 0; j < stride; j++) {
                float ix, iy, ik;
                vertex_image(b, i, t[e][j], &ix, &iy, &ik);
                mx[i][e][j] = ix;
                my[i][e][j] = iy;
                kappa[i][e][j] = ik;
                huge |= !(fabsf(ix) <= EDGE_MAX_COORD) | !(fabsf(iy) <= EDGE_MAX_COORD) | !(fabsf(ik) <= EDGE_MAX_COORD);
            }
    if (huge) return;
    b->edges = true;
    for (int e = 0; e < FRAME_RANK_EDGE_ROWS * stride; e++) out[e] = INT16_MAX;  /* ranks past S */
    const float scale = (float)(1 << b->rank_shift), margin = BLUR_BOUNDS_MARGIN;
    for (int k = 0; k < 3; k++) {
        const float nx = b->edge_n[k][0], ny = b->edge_n[k][1];
        float h[2][FRAME_MAX_POSITIONS];  /* at the low and high end of s */
        for (int j = 0; j < stride; j++) {
            float s[2];
            frame_edge_s_range(b, k, u[0][j], u[1][j], &s[0], &s[1]);
            h[0][j] = h[1][j] = -INFINITY;
            for (int i = 0; i < 3; i++)
                for (int z = 0; z < 2; z++) {
                    const float a = nx * mx[i][z][j] + ny * my[i][z][j];
                    h[0][j] = max2(h[0][j], a + kappa[i][z][j] * s[0]);
                    h[1][j] = max2(h[1][j], a + kappa[i][z][j] * s[1]);
                }
        }
        /* Rounded up; ends too far above the origin stay INT16_MAX (no
         * bound), those far below it clamp up. */
        const float o = b->edge_o[k];
        for (int e = 0; e < 2; e++)
            for (int j = 0; j < S; j++) {
                const float q = (h[e][j] - o + slack + margin) * scale;
                out[(2 * k + e) * stride + j] = q <= 32766.0f ? (int16_t)-util_floor_i32(-max2(q, -32767.0f)) : INT16_MAX;
            }
    }
}

UTIL_CLONES_AVX2 static void rank_bounds_projective(frame_tri_blur *b, const frame_blur *fb, const fe_viewport *vp,
                                                    const blur_orient *back)
{
    const int S = fb->ranks, stride = FRAME_RANK_STRIDE(S);
    const float (*range)[2] = fb->rank_range[b->rank_key];
    rank_ends r;
    for (int j = 0; j < stride; j++) r.empty[j] = j >= S;  /* the padding */
    if (b->rank_key == FRAME_RANK_U) {  /* defocus only: no motion, one time; ranks slice u */
        float t0[RANK_PAD(1)] = {0};
        time_extents x;
        extents_at(b, t0, 1, &x);
        float u[2][FRAME_MAX_POSITIONS];  /* the ends of each rank's u range */
        for (int j = 0; j < stride; j++) {
            u[0][j] = j < S ? range[j][0] : 0.0f;
            u[1][j] = j < S ? range[j][1] : 0.0f;
        }
        for (int i = 0; i < 3; i++) {
            const float iw = 1.0f / b->p[i][3];
            const float mx = b->p[i][0] * iw, kx = b->sx * (b->p[i][3] - b->focus) * iw;
            for (int e = 0; e < 2; e++)
                for (int j = 0; j < stride; j++) {
                    const float v = mx + u[e][j] * kx;
                    r.e[FRAME_RANK_XL0 + e][j] = i ? min2(r.e[FRAME_RANK_XL0 + e][j], v) : v;
                    r.e[FRAME_RANK_XH0 + e][j] = i ? max2(r.e[FRAME_RANK_XH0 + e][j], v) : v;
                }
        }
        for (int e = 0; e < 2; e++)
            for (int j = 0; j < stride; j++) {
                r.e[FRAME_RANK_YL0 + e][j] = x.e[FRAME_RANK_YL0 + e][0];
                r.e[FRAME_RANK_YH0 + e][j] = x.e[FRAME_RANK_YH0 + e][0];
            }
        if (back) {
            double corner[4];
            for (int c = 0; c < 4; c++) corner[c] = back->c[c][0];  /* det does not change with t */
            for (int j = 0; j < S; j++) r.empty[j] = orient_back(back, corner, range[j][0], range[j][1]);
        }
    } else {
        /* Ranks slice t: the extents at the ends of every rank's slice, shared
         * between neighbours when the slices do not overlap (stratified t). */
        int disjoint = 1;
        for (int j = 1; j < S; j++) disjoint &= range[j][0] >= range[j - 1][1];
        float t[RANK_POINTS + 16];
        int n = 0;
        if (disjoint) {
            for (int j = 0; j < S; j++) t[n++] = range[j][0];
            t[n++] = range[S - 1][1];
        } else {
            for (int j = 0; j < S; j++) {
                t[n++] = range[j][0];
                t[n++] = range[j][1];
            }
        }
        const int step = disjoint ? 1 : 2, padded = RANK_PAD(step * stride + 1);
        while (n < padded) t[n++] = t[0];  /* padding: a time already taken */
        time_extents x;
        extents_at(b, t, padded, &x);
        if (disjoint) {
            for (int e = 0; e < FRAME_RANK_XH0; e++)
                for (int j = 0; j < stride; j++) r.e[e][j] = min2(x.e[e][j], x.e[e][j + 1]);
            for (int e = FRAME_RANK_XH0; e < FRAME_RANK_ENDS; e++)
                for (int j = 0; j < stride; j++) r.e[e][j] = max2(x.e[e][j], x.e[e][j + 1]);
        } else {
            for (int e = 0; e < FRAME_RANK_ENDS; e++)
                for (int j = 0; j < stride; j++)
                    r.e[e][j] = e < FRAME_RANK_XH0 ? min2(x.e[e][2 * j], x.e[e][2 * j + 1])
                                                : max2(x.e[e][2 * j], x.e[e][2 * j + 1]);
        }
        if (back) {
            double det[4][RANK_POINTS];
            const int points = step * S + 2 - step;
            for (int c = 0; c < 4; c++)
                for (int k = 0; k < points; k++) det[c][k] = cubic_at(back->c[c], t[k]);
            for (int j = 0; j < S; j++) {
                const int a = step * j, z = a + 1;
                double corner[4];
                for (int c = 0; c < 4; c++) corner[c] = orient_corner_max(back, c, t[a], t[z], det[c][a], det[c][z]);
                r.empty[j] = orient_back(back, corner, -1.0, 1.0);  /* facing away all through the rank */
            }
        }
    }
    const float w = (float)vp->width, h = (float)vp->height, m = BLUR_BOUNDS_MARGIN;
    for (int j = 0; j < stride; j++)  /* off screen at this rank (NaN too) */
        r.empty[j] |= !((max2(r.e[FRAME_RANK_XH0][j], r.e[FRAME_RANK_XH1][j]) >= -m) &
                        (max2(r.e[FRAME_RANK_YH0][j], r.e[FRAME_RANK_YH1][j]) >= -m) &
                        (min2(r.e[FRAME_RANK_XL0][j], r.e[FRAME_RANK_XL1][j]) < w + m) &
                        (min2(r.e[FRAME_RANK_YL0][j], r.e[FRAME_RANK_YL1][j]) < h + m));
    /* The samples the ranks' boxes hold (one a pixel per rank, on screen):
     * edge bounds pay for their setup only where they spare many tests. */
    float held = 0.0f;
    for (int j = 0; j < stride; j++) {
        const float x0 = max2(min2(r.e[FRAME_RANK_XL0][j], r.e[FRAME_RANK_XL1][j]), 0.0f);
        const float x1 = min2(max2(r.e[FRAME_RANK_XH0][j], r.e[FRAME_RANK_XH1][j]), w);
        const float y0 = max2(min2(r.e[FRAME_RANK_YL0][j], r.e[FRAME_RANK_YL1][j]), 0.0f);
        const float y1 = min2(max2(r.e[FRAME_RANK_YH0][j], r.e[FRAME_RANK_YH1][j]), h);
        held += r.empty[j] ? 0.0f : max2(x1 - x0, 0.0f) * max2(y1 - y0, 0.0f);
    }
    ranks_store(b, &r, S, vp);
    rank_edges(b, fb, held >= EDGE_MIN_HELD);
}

static bool rank_bounds(frame_tri_blur *b, const frame_blur *fb, const fe_viewport *vp, bool projective,
                        const blur_orient *back, int32_t box[4])
{
    b->rank_key = b->kind & FRAME_BLUR_MOTION ? FRAME_RANK_T : FRAME_RANK_U;
    b->rank_shift = rank_shift(vp);
    if (projective) {
        rank_bounds_projective(b, fb, vp, back);
    } else {
        for (int j = 0; j < fb->ranks; j++) {
            float range[3][2] = {{-1.0f, 1.0f}, {-1.0f, 1.0f}, {0.0f, 1.0f}};
            const int axis = b->rank_key == FRAME_RANK_T ? 2 : 0;
            range[axis][0] = fb->rank_range[b->rank_key][j][0];
            range[axis][1] = fb->rank_range[b->rank_key][j][1];
            int32_t r[4];
            if (!fe_blur_bounds(b, range, vp->width, vp->height, r)) {
                rank_empty(b, FRAME_RANK_STRIDE(fb->ranks), j);
                continue;
            }
            /* whole pixels of the clipped hull's bounds */
            const float xl[2] = {(float)r[0], (float)r[0]}, yl[2] = {(float)r[1], (float)r[1]};
            const float xh[2] = {(float)r[2] + 1.0f, (float)r[2] + 1.0f}, yh[2] = {(float)r[3] + 1.0f, (float)r[3] + 1.0f};
            rank_store(b, FRAME_RANK_STRIDE(fb->ranks), j, xl, xh, yl, yh, vp);
        }
    }
    const int stride = FRAME_RANK_STRIDE(fb->ranks);
    if (!projective)
        for (int j = fb->ranks; j < stride; j++) rank_empty(b, stride, j);  /* padding */
    /* The triangle's pixels: the ranks' boxes together (empty ranks and the
     * padding have lo = INT16_MAX, hi = INT16_MIN: they add nothing), on
     * screen. */
    const int16_t *restrict e = b->rank;
    int16_t lo[2] = {INT16_MAX, INT16_MAX}, hi[2] = {INT16_MIN, INT16_MIN};  /* x, y */
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 2 * stride; j++) {  /* both ends of x (k = 0) or y */
            const int16_t l = e[(FRAME_RANK_XL0 + 2 * k) * stride + j], h = e[(FRAME_RANK_XH0 + 2 * k) * stride + j];
            lo[k] = l < lo[k] ? l : lo[k];
            hi[k] = h > hi[k] ? h : hi[k];
        }
    const int32_t x0 = lo[0] >> b->rank_shift, x1 = hi[0] >> b->rank_shift;
    const int32_t y0 = lo[1] >> b->rank_shift, y1 = hi[1] >> b->rank_shift;
    box[0] = x0 > 0 ? x0 : 0;
    box[1] = y0 > 0 ? y0 : 0;
    box[2] = x1 < vp->width - 1 ? x1 : vp->width - 1;
    box[3] = y1 < vp->height - 1 ? y1 : vp->height - 1;
    return box[0] <= box[2] && box[1] <= box[3];
}

/* The reference triangle at time t from the lens centre, as window x, y
 * and 1/W; false when a vertex has no image or the triangle is a sliver. */
static bool reference_at(const frame_tri_blur *b, float t, float x[3], float y[3], float iw[3])
{
    for (int i = 0; i < 3; i++) {
        float W = b->p[i][3] + t * b->dp[i][3];
        if (!(W >= BLUR_MIN_W)) return false;
        iw[i] = 1.0f / W;
        x[i] = (b->p[i][0] + t * b->dp[i][0]) * iw[i];
        y[i] = (b->p[i][1] + t * b->dp[i][1]) * iw[i];
    }
    float area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
    return fabsf(area) >= BLUR_MIN_AREA && isfinite(area);
}

/* Shading-grid points per pixel for this triangle: the frame's rate, made
 * coarser (adaptive) by the smallest circle of confusion at its vertices. */
static float triangle_rate(const frame_tri_blur *b, const frame_blur *fb)
{
    if (!fb->adaptive || !(b->kind & FRAME_BLUR_DEFOCUS)) return fb->rate;
    float coc = INFINITY;
    for (int i = 0; i < 3; i++) {
        float W = b->p[i][3];
        if (!(W >= BLUR_MIN_W)) return fb->rate;
        float r = fmaxf(fabsf(b->sx), fabsf(b->sy)) * fabsf(W - b->focus) / W;  /* radius, pixels */
        coc = fminf(coc, r);
    }
    return coc > 1.0f ? fb->rate / coc : fb->rate;
}

bool fe_blur_has_lens(const frame_blur *fb, const fe_viewport *vp)
{
    const float hw = 0.5f * (float)vp->width, hh = 0.5f * (float)vp->height;
    return fb->lens_x * hw != 0.0f || fb->lens_y * hh != 0.0f;  /* as fe_setup_blurred's shear */
}

frame_tri *fe_tri_move(void *dst, const void *src, size_t bytes)
{
    memcpy(dst, src, bytes);
    frame_tri *t = dst;
    if (t->blur) {  /* fe_setup_blurred's layout: the triangle, its frame_tri_blur, the rank bounds */
        const char *s = src;
        frame_tri_blur *b = (frame_tri_blur *)((char *)dst + ((const char *)t->blur - s));
        b->rank = (int16_t *)(void *)((char *)dst + ((const char *)b->rank - s));
        t->blur = b;
    }
    return t;
}

size_t fe_blurred_bytes(const frame_draw *d, const frame_blur *fb)
{
    return fe_tri_bytes(d) + FE_ROUND64(sizeof(frame_tri_blur)) +
           FE_ROUND64((size_t)FRAME_RANK_ROWS * (size_t)FRAME_RANK_STRIDE(fb->ranks) * sizeof(int16_t));
}

frame_tri *fe_setup_blurred(const float *const clip0[3], const float *const clip1[3], const float *const var[3],
                         const frame_draw *d, const frame_blur *fb, const fe_viewport *vp, void *slot)
{
    frame_tri_blur b;
    memset(&b, 0, sizeof b);
    /* Clip -> window-homogeneous: X = (x / 2 + w / 2) * width; the lens
     * shear scales alike. */
    const float hw = 0.5f * (float)vp->width, hh = 0.5f * (float)vp->height;
    /* Every triangle of a moving draw takes the moving paths, even one whose
     * vertices stand still: its edges shared with moving neighbours are
     * then computed by the same arithmetic, so they meet without cracks or
     * double hits (a still edge's motion terms are exact zeros). */
    const bool moving = clip1 != NULL;
    for (int i = 0; i < 3; i++) {
        const float *c[2] = {clip0[i], clip1 ? clip1[i] : clip0[i]};
        float q[2][4];
        for (int k = 0; k < 2; k++) {
            for (int j = 0; j < 4; j++)
                if (!isfinite(c[k][j])) return NULL;  /* NaN/Inf positions are culled */
            q[k][0] = (c[k][0] + c[k][3]) * hw;
            q[k][1] = (c[k][1] + c[k][3]) * hh;
            q[k][2] = c[k][2];
            q[k][3] = c[k][3];
        }
        for (int j = 0; j < 4; j++) {
            b.p[i][j] = q[0][j];
            b.dp[i][j] = q[1][j] - q[0][j];
        }
    }
    b.sx = fb->lens_x * hw;
    b.sy = fb->lens_y * hh;
    b.focus = fb->focus_w;
    bool lens = b.sx != 0.0f || b.sy != 0.0f;
    b.kind = (moving ? FRAME_BLUR_MOTION : 0) | (lens ? FRAME_BLUR_DEFOCUS : 0);
    if (!b.kind) return NULL;  /* the caller sets up a static, sharp draw's triangles (fe_setup_triangle) */
    /* Wholly behind the eye or beyond the far plane at both ends: culled. */
    int behind = 0, beyond = 0;
    for (int i = 0; i < 3; i++) {
        for (int t = 0; t < 2; t++) {
            float W = b.p[i][3] + (float)t * b.dp[i][3], Z = b.p[i][2] + (float)t * b.dp[i][2];
            behind += !(W > 0.0f);
            beyond += Z > W;
        }
    }
    if (behind == 6 || beyond == 6) return NULL;
    b.cull_back = d->cull == MOS_CULL_BACK;
    /* In front of the near plane at both ends of the shutter (w and z + w
     * are linear in t): projections bound it, and det gives its facing. */
    bool projective = true;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 2; k++) {
            const float W = b.p[i][3] + (float)k * b.dp[i][3], zw = b.p[i][2] + (float)k * b.dp[i][2] + W;
            projective = projective && W >= BLUR_MIN_W && zw >= 0.0f;
        }
    blur_orient orient;
    if (b.cull_back && projective) {
        orient_init(&orient, &b);
        if (orient_back_always(&orient)) return NULL;  /* a back face at every (u, v, t) */
    }
    /* Ranks are held against the orientation only when it may turn. */
    const blur_orient *back = b.cull_back && projective && !orient_front_always(&orient) ? &orient : NULL;
    /* The rank bounds, and from them the pixels it may cover. */
    frame_tri *t = slot;
    frame_tri_blur *bp = (frame_tri_blur *)((char *)slot + fe_tri_bytes(d));
    b.rank = (int16_t *)(void *)((char *)bp + FE_ROUND64(sizeof(frame_tri_blur)));
    int32_t box[4];
    if (!rank_bounds(&b, fb, vp, projective, back, box))
        return NULL;  /* off screen, behind the near plane, or facing away in every rank */
    if (b.kind != FRAME_BLUR_BOTH)
        for (int e = 0; e < 3; e++) edge_coefficients(&b, e);

    /* The shading reference and its planes. */
    float x[3], y[3], iw[3];
    b.centred = fb->centred;
    if (!reference_at(&b, 0.0f, x, y, iw) && !reference_at(&b, 1.0f, x, y, iw)) {
        b.centred = false;
        const float g = BLUR_BARY_GRID;
        x[0] = 0.0f, y[0] = 0.0f, x[1] = g, y[1] = 0.0f, x[2] = 0.0f, y[2] = g;
        iw[0] = iw[1] = iw[2] = 1.0f;
    }
    for (int i = 0; i < 3; i++) {
        b.ref[i][2] = 1.0f / iw[i];
        b.ref[i][0] = x[i] * b.ref[i][2];
        b.ref[i][1] = y[i] * b.ref[i][2];
    }
    b.rate = triangle_rate(&b, fb);

    *bp = b;
    memset(t, 0, sizeof *t);
    t->draw = d;
    t->blur = bp;
    t->min_x = box[0];
    t->min_y = box[1];
    t->max_x = box[2];
    t->max_y = box[3];
    float d1x = x[1] - x[0], d1y = y[1] - y[0], d2x = x[2] - x[0], d2y = y[2] - y[0];
    const float z[3] = {0.0f, 0.0f, 0.0f};  /* depth comes from the sample test */
    fe_setup_planes(t, x[0], y[0], d1x, d1y, d2x, d2y, 1.0f / (d1x * d2y - d2x * d1y), z, iw, var,
                    d->varying_count);
    return t;
}
