/* stoch_walk_tmp.h — the body of the stochastic rasterizer's walk over one
 * triangle in one bin (static ones go to stoch.c, small blurred ones to the
 * rank walk, stoch_rank_walk_tmp.h, the rest take the tuple walk below),
 * included once per ISA by raster_scalar.c,
 * raster_avx2.c and raster_avx512.c, which define STOCH_WALK_FN (its name),
 * STOCH_MASK16 (the mask of sixteen int lanes that are 0 or -1, 64-byte
 * aligned), STOCH_GRID16 (stoch_grid16's grid points) and
 * STOCH_EARLY_DEPTH16 (a block's early depth, stoch_early_depth's bits).
 *
 * Interleaved (u, v, t) (Fatahalian et al. 2009): the frame's lens/time
 * pattern is a bounded set of tuples (frame_tuples), and at one tuple a
 * blurred triangle is a plain 2D triangle.  So, per triangle and bin:
 *   1. SETUP, every tuple at once (loops the compiler vectorizes): its
 *      edge lines, determinant, clip z and w (stoch_lines_*, the formula
 *      of the triangle's kind of blur), the edges' tie thresholds and the
 *      pixel box of its vertices; each group's union of boxes; the
 *      reference's vertices in lanes;
 *   2. per group of four tuples (one per pixel class, close in (u, v, t)),
 *      the union of their boxes within the bin, its 4x4 blocks each one
 *      test of sixteen lanes, lane l at its class's tuple and its own
 *      sample (stoch_lane_finish: three edge values, the near and far
 *      planes, depth), the covered lanes' reference and grid points, then
 *      early depth and stoch_finish_block (counts, emit).
 * No bounds per sample, no packing: a block costs one vector test.
 * Small triangles (STOCH_TUPLE_MIN_AREA) take the rank walk instead. */

#include <string.h>

#ifndef MOSAIC_RASTER_STOCH_TUPLES_
#define MOSAIC_RASTER_STOCH_TUPLES_
/* One triangle's tuples in one bin, a table per field (tuple i at [i]):
 * stoch_lines' fields, and the pixels [bx0, bx1) x [by0, by1) of the bin
 * that may hold a covered sample (empty when the tuple's triangle is
 * degenerate or culled; the whole bin when a vertex is not in front of
 * the eye). */
typedef struct stoch_setup {
    _Alignas(64) float c[3][3][FRAME_MAX_TUPLES];
    _Alignas(64) float det[FRAME_MAX_TUPLES], z[3][FRAME_MAX_TUPLES], w[3][FRAME_MAX_TUPLES];
    _Alignas(64) float tie[3][FRAME_MAX_TUPLES];  /* the edges' thresholds, stoch_edge_tie */
    /* the reference's vertices in every lane: operands the block loop
     * reads, where broadcasts in it would be made again for every block */
    _Alignas(64) float ref[3][3][STOCH_LANES];
    _Alignas(64) int32_t bx0[FRAME_MAX_TUPLES], bx1[FRAME_MAX_TUPLES], by0[FRAME_MAX_TUPLES], by1[FRAME_MAX_TUPLES];
    /* per group g: the union of its four boxes (empty: (x1, x0) x (y1,
     * y0)) and the lanes of its classes whose box is not empty */
    _Alignas(64) int32_t gx0[FRAME_MAX_POSITIONS], gx1[FRAME_MAX_POSITIONS], gy0[FRAME_MAX_POSITIONS],
        gy1[FRAME_MAX_POSITIONS];
    _Alignas(64) uint32_t classes[FRAME_MAX_POSITIONS];
} stoch_setup;

/* One group's lines in lane order (lane l: its class's tuple). */
typedef struct stoch_group_lanes {
    _Alignas(64) float c[3][3][STOCH_LANES];
    _Alignas(64) float z[3][STOCH_LANES], w[3][STOCH_LANES], tie[3][STOCH_LANES];
} stoch_group_lanes;

/* A box whose vertices lie beyond +-2^30 pixels (or are not finite) is
 * the whole bin. */
#define STOCH_BOX_LIMIT 1073741824.0f
/* The box's margin, in pixels: the float error between a tuple's lines
 * (from the kind's coefficients) and its vertices, 1/16 pixel plus 2^-12
 * of the box's distance from the window's origin. */
#define STOCH_BOX_SLACK 0.0625f
#define STOCH_BOX_SLACK_REL 0x1p-12f

/* The lanes of each pixel class in a 4x4 block (raster_lane_class). */
static const uint32_t stoch_class_lanes[FRAME_CLASSES] = {0x0505u, 0x0a0au, 0x5050u, 0xa0a0u};

/* Triangles whose pixel bounds (over the whole shutter and lens) hold
 * fewer pixels go to the rank walk (stoch_rank_walk_tmp.h): a group's
 * setup and block tests cost more than bounds on so few samples
 * (blur.scene, 1080p: 256 against 512 took 0.94-0.96 of the time at 27
 * and 64 spp, 128 0.95, 64 0.98; herd, defocus, motion 0.99-1.0). */
#define STOCH_TUPLE_MIN_AREA 256

static inline float stoch_min(float a, float b) { return a < b ? a : b; }
static inline float stoch_max(float a, float b) { return a > b ? a : b; }
static inline int32_t stoch_min_i(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t stoch_max_i(int32_t a, int32_t b) { return a > b ? a : b; }

static inline void stoch_setup_store(stoch_setup *restrict S, int i, const stoch_lines *L)
{
    for (int e = 0; e < 3; e++) {
        for (int k = 0; k < 3; k++) S->c[e][k][i] = L->c[e][k];
        S->z[e][i] = L->z[e];
        S->w[e][i] = L->w[e];
    }
    S->det[i] = L->det;
}
#endif

#define STOCH_CAT_(a, b) a##b
#define STOCH_CAT(a, b) STOCH_CAT_(a, b)
#define STOCH_SETUP STOCH_CAT(STOCH_WALK_FN, _setup)
#define STOCH_GROUP STOCH_CAT(STOCH_WALK_FN, _group)

/* Step 1: every tuple's lines (one loop per kind of blur, so that each
 * vectorizes), then its box. */
static void STOCH_SETUP(const frame_tri_blur *restrict b, const frame_tuples *restrict tp, int x0, int y0, int x1, int y1,
                        stoch_setup *restrict S)
{
    const int n = FRAME_CLASSES * tp->spp;
    const float *restrict U = tp->u, *restrict V = tp->v, *restrict T = tp->t;
    switch (b->kind) {
    case FRAME_BLUR_MOTION:
#pragma GCC ivdep /* the tables are distinct */
        for (int i = 0; i < n; i++) {
            stoch_lines L;
            stoch_lines_motion(b, T[i], &L);
            stoch_setup_store(S, i, &L);
        }
        break;
    case FRAME_BLUR_DEFOCUS:
#pragma GCC ivdep /* the tables are distinct */
        for (int i = 0; i < n; i++) {
            stoch_lines L;
            stoch_lines_defocus(b, U[i], V[i], &L);
            stoch_setup_store(S, i, &L);
        }
        break;
    default:
#pragma GCC ivdep /* the tables are distinct */
        for (int i = 0; i < n; i++) {
            stoch_lines L;
            stoch_lines_warp(b, U[i], V[i], T[i], &L);
            stoch_setup_store(S, i, &L);
        }
        break;
    }
    for (int e = 0; e < 3; e++)
#pragma GCC ivdep /* the tables are distinct */
        for (int i = 0; i < n; i++) S->tie[e][i] = stoch_edge_tie(S->c[e][0][i], S->c[e][1][i]);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            for (int l = 0; l < STOCH_LANES; l++) S->ref[i][k][l] = b->ref[i][k];
    const int cull = b->cull_back;
    const float fx0 = (float)x0, fx1 = (float)x1, fy0 = (float)y0, fy1 = (float)y1;
#pragma GCC ivdep /* the tables are distinct */
    for (int i = 0; i < n; i++) {
        float p[3][3];
        stoch_vertices(b, U[i], V[i], T[i], p);
        const float vx0 = p[0][0] / p[0][2], vx1 = p[1][0] / p[1][2], vx2 = p[2][0] / p[2][2];
        const float vy0 = p[0][1] / p[0][2], vy1 = p[1][1] / p[1][2], vy2 = p[2][1] / p[2][2];
        const float xl = stoch_min(vx0, stoch_min(vx1, vx2)), xh = stoch_max(vx0, stoch_max(vx1, vx2));
        const float yl = stoch_min(vy0, stoch_min(vy1, vy2)), yh = stoch_max(vy0, stoch_max(vy1, vy2));
        const float mx = stoch_max(fabsf(xl), fabsf(xh)), my = stoch_max(fabsf(yl), fabsf(yh));
        const float sx = STOCH_BOX_SLACK + STOCH_BOX_SLACK_REL * mx, sy = STOCH_BOX_SLACK + STOCH_BOX_SLACK_REL * my;
        /* In front of the eye and finite (NaN fails a compare): the
         * vertices' box; else all. */
        const int front = (p[0][2] > 0.0f) & (p[1][2] > 0.0f) & (p[2][2] > 0.0f) & (mx < STOCH_BOX_LIMIT) &
                          (my < STOCH_BOX_LIMIT);
        const float det = S->det[i];
        const int none = (!(det > 0.0f || det < 0.0f)) | (cull & (det < 0.0f));
        const float bx0 = front ? stoch_max(floorf(xl - sx), fx0) : fx0, bx1 = front ? stoch_min(floorf(xh + sx) + 1.0f, fx1) : fx1;
        const float by0 = front ? stoch_max(floorf(yl - sy), fy0) : fy0, by1 = front ? stoch_min(floorf(yh + sy) + 1.0f, fy1) : fy1;
        /* An empty box as (x1, x0) x (y1, y0), so that a union is min and max. */
        const int empty = none | !(bx0 < bx1) | !(by0 < by1);
        S->bx0[i] = empty ? x1 : (int32_t)bx0;
        S->bx1[i] = empty ? x0 : (int32_t)bx1;
        S->by0[i] = empty ? y1 : (int32_t)by0;
        S->by1[i] = empty ? y0 : (int32_t)by1;
    }
    /* The groups' unions (a group's four tuples are consecutive; empty
     * boxes are (x1, x0) x (y1, y0), so a union is min and max). */
#pragma GCC ivdep /* the tables are distinct */
    for (int g = 0; g < tp->spp; g++) {
        const int i = FRAME_CLASSES * g;
        S->gx0[g] = stoch_min_i(stoch_min_i(S->bx0[i], S->bx0[i + 1]), stoch_min_i(S->bx0[i + 2], S->bx0[i + 3]));
        S->gx1[g] = stoch_max_i(stoch_max_i(S->bx1[i], S->bx1[i + 1]), stoch_max_i(S->bx1[i + 2], S->bx1[i + 3]));
        S->gy0[g] = stoch_min_i(stoch_min_i(S->by0[i], S->by0[i + 1]), stoch_min_i(S->by0[i + 2], S->by0[i + 3]));
        S->gy1[g] = stoch_max_i(stoch_max_i(S->by1[i], S->by1[i + 1]), stoch_max_i(S->by1[i + 2], S->by1[i + 3]));
        uint32_t classes = 0;
        for (int c = 0; c < FRAME_CLASSES; c++)
            classes |= (S->bx0[i + c] < S->bx1[i + c]) & (S->by0[i + c] < S->by1[i + c]) ? stoch_class_lanes[c] : 0u;
        S->classes[g] = classes;
    }
}

/* Step 2 for group g over pixels [x0, x1) x [y0, y1) (the union of its
 * tuples' boxes within the bin, not empty), testing the lanes of
 * `classes` (those whose tuple's box is not empty: each box is
 * conservative, so the edge test decides the rest), cut by `cut` where the
 * window's edge crosses a block. */
static void STOCH_GROUP(const frame_tri *tri, const stoch_setup *restrict S, const frame_tuples *tp, int g,
                        uint32_t classes, const stoch_box *cut, const raster_view *v,
                        bool depth_test, int bin_px, int x0, int y0, int x1, int y1, stoch_pixels *px,
                        stoch_emit_fn emit, void *consumer, raster_counts *counts)
{
    const frame_tri_blur *b = tri->blur;
    const uint8_t *sample = tp->lane_sample[g];
    const float *restrict OX = tp->lane_x[g], *restrict OY = tp->lane_y[g];
    const int i0 = FRAME_CLASSES * g;
    stoch_group_lanes G;
    for (int e = 0; e < 3; e++) {
        for (int k = 0; k < 3; k++) stoch_expand16(G.c[e][k], S->c[e][k] + i0);
        stoch_expand16(G.z[e], S->z[e] + i0);
        stoch_expand16(G.w[e], S->w[e] + i0);
        stoch_expand16(G.tie[e], S->tie[e] + i0);
    }
    const float rate = b->rate;
    /* The samples' offsets in their pixels (stoch_lane_offsets; zero where
     * not centred): at rate 1 the same in every block (blocks start at
     * whole pixels), else taken per covered block. */
    _Alignas(64) float ox[STOCH_LANES], oy[STOCH_LANES];
    const bool per_block = b->centred && rate != 1.0f;
    if (!b->centred) {
        memset(ox, 0, sizeof ox);
        memset(oy, 0, sizeof oy);
    } else if (!per_block) {
        memcpy(ox, tp->lane_cx[g], sizeof ox);
        memcpy(oy, tp->lane_cy[g], sizeof oy);
    }
    const float(*ref)[3][STOCH_LANES] = S->ref;
    const int bx_first = x0 & ~3, by_first = y0 & ~3;
    stoch_block blk;
    blk.tri = tri;
    blk.sample = sample;
    blk.group = g;
    uint64_t tested = 0, covered = 0;  /* counted here: emit may write *counts (no register copy) */
    for (int by = by_first; by < y1; by += 4) {
        _Alignas(64) float row[3][STOCH_LANES];  /* the edges' part that the row's blocks share */
        const float fy = (float)by;
        const int row_block = stoch_block_index(bin_px, 0, by);
#pragma GCC ivdep /* the lanes are distinct */
        for (int l = 0; l < STOCH_LANES; l++)
            for (int k = 0; k < 3; k++) {
                const float c[3] = {G.c[k][0][l], G.c[k][1][l], G.c[k][2][l]};
                row[k][l] = stoch_edge_row(c, fy + OY[l]);
            }
        for (int bx = bx_first; bx < x1; bx += 4) {
            const uint32_t mask = cut ? classes & stoch_box_lanes(cut, bx, by) : classes;
            tested += (uint64_t)__builtin_popcount(mask);  /* every candidate is tested */
            const float fx = (float)bx;
            _Alignas(64) int hit[STOCH_LANES];
            _Alignas(64) float w0[STOCH_LANES], w1[STOCH_LANES], w2[STOCH_LANES];
#pragma GCC ivdep /* the lanes are distinct */
            for (int l = 0; l < STOCH_LANES; l++) {  /* the edges */
                const float cx[3] = {G.c[0][0][l], G.c[1][0][l], G.c[2][0][l]};
                const float r[3] = {row[0][l], row[1][l], row[2][l]}, t[3] = {G.tie[0][l], G.tie[1][l], G.tie[2][l]};
                float e[3];
                hit[l] = -stoch_lane_inside_tie(cx, fx + OX[l], r, t, e);  /* det: in the box (setup) */
                w0[l] = e[0];
                w1[l] = e[1];
                w2[l] = e[2];
            }
            uint32_t m = STOCH_MASK16(hit) & mask;
            if (!m) continue;
#pragma GCC ivdep /* the lanes are distinct */
            for (int l = 0; l < STOCH_LANES; l++) {  /* depth, near and far */
                const float e[3] = {w0[l], w1[l], w2[l]};
                const float z[3] = {G.z[0][l], G.z[1][l], G.z[2][l]}, w[3] = {G.w[0][l], G.w[1][l], G.w[2][l]};
                hit[l] = -stoch_lane_depth(e, z, w, &blk.hits.z[l]);
            }
            m &= STOCH_MASK16(hit);
            if (!m) continue;
            covered += (uint64_t)__builtin_popcount(m);
            if (per_block) {
                _Alignas(64) float xs[STOCH_LANES], ys[STOCH_LANES];
                for (int l = 0; l < STOCH_LANES; l++) xs[l] = fx + OX[l], ys[l] = fy + OY[l];
                stoch_lane_offsets(xs, ox, STOCH_LANES, rate);
                stoch_lane_offsets(ys, oy, STOCH_LANES, rate);
            }
#pragma GCC ivdep /* the lanes are distinct */
            for (int l = 0; l < STOCH_LANES; l++) {  /* the reference point, then the grid point */
                float rx, ry;
                const float r[3][3] = {{ref[0][0][l], ref[0][1][l], ref[0][2][l]},
                                       {ref[1][0][l], ref[1][1][l], ref[1][2][l]},
                                       {ref[2][0][l], ref[2][1][l], ref[2][2][l]}};
                stoch_lane_reference_of(r, w0[l], w1[l], w2[l], &rx, &ry);
                rx -= ox[l];
                ry -= oy[l];
                blk.hits.rx[l] = rx;
                blk.hits.ry[l] = ry;
            }
            STOCH_GRID16(blk.hits.rx, rate, blk.hits.gx);
            STOCH_GRID16(blk.hits.ry, rate, blk.hits.gy);
            blk.x0 = bx;
            blk.y0 = by;
            blk.block = row_block + ((bx & (bin_px - 1)) >> 2);
            blk.covered = m;
            stoch_finish_block(&blk, depth_test ? STOCH_EARLY_DEPTH16(&blk, v) : m, px, emit, consumer, counts);
        }
    }
    counts->stoch_candidates += tested;
    counts->stoch_tested += tested;
    counts->stoch_covered += covered;
    counts->samples += covered;
}

void STOCH_WALK_FN(const frame_tri *tri, const raster_view *v, const frame_ranked *ranked, const frame_tuples *tp,
                   int bin_px, int x0, int y0, int x1, int y1, stoch_pixels *px, stoch_emit_fn emit, void *consumer,
                   raster_counts *counts)
{
    const frame_tri_blur *b = tri->blur;
    if (!b) {
        raster_stochastic_static(tri, v, tp, bin_px, x0, y0, x1, y1, px, emit, consumer, counts);
        return;
    }
    const int64_t area = ((int64_t)tri->max_x - tri->min_x + 1) * ((int64_t)tri->max_y - tri->min_y + 1);
    if (area < STOCH_TUPLE_MIN_AREA) {
        STOCH_RANK_WALK_FN(tri, v, ranked, bin_px, x0, y0, x1, y1, px, emit, consumer, counts);
        return;
    }
    stoch_pixels_next(px);
    const bool depth_test = v->depth && tri->draw->depth_test;
    stoch_setup S;
    STOCH_SETUP(b, tp, x0, y0, x1, y1, &S);
    /* Where the walk's rectangle ends on the window's edge and that edge
     * cuts its last blocks, the window's lanes (the boxes lie within the
     * rectangle, their blocks may reach beyond it). */
    const bool cut_x = (x1 & 3) && x1 == v->width, cut_y = (y1 & 3) && y1 == v->height;
    stoch_box window;
    stoch_box_init(&window, x0 & ~3, y0 & ~3, cut_x ? x1 : (x1 + 3) & ~3, cut_y ? y1 : (y1 + 3) & ~3);
    const stoch_box *cut = cut_x || cut_y ? &window : NULL;
    for (int g = 0; g < tp->spp; g++) {
        if (!S.classes[g]) continue;
        STOCH_GROUP(tri, &S, tp, g, S.classes[g], cut, v, depth_test, bin_px, S.gx0[g], S.gy0[g], S.gx1[g], S.gy1[g],
                    px, emit, consumer, counts);
    }
}

#undef STOCH_SETUP
#undef STOCH_GROUP
#undef STOCH_CAT
#undef STOCH_CAT_
#undef STOCH_WALK_FN
#undef STOCH_MASK16
#undef STOCH_GRID16
#undef STOCH_EARLY_DEPTH16
#undef STOCH_RANK_WALK_FN
