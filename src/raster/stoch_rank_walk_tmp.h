/* stoch_rank_walk_tmp.h — the stochastic rasterizer's walk over one small
 * blurred triangle in one bin by ranks (stoch_walk_tmp.h sends it the
 * triangles whose pixel bounds are small: there a sample costs less to rule
 * out by bounds than to test a whole group's block), included once per ISA
 * by raster_scalar.c, raster_avx2.c and raster_avx512.c before
 * stoch_walk_tmp.h, which define STOCH_RANK_WALK_FN (its name),
 * STOCH_CHUNK (samples one test runs at a time), STOCH_MASK16 (the
 * mask of sixteen int lanes that are 0 or -1, 64-byte aligned),
 * STOCH_GRID16 (stoch_grid16's grid points), STOCH_COMPRESS16 (append
 * the 32-bit lanes a mask selects, in lane order; it may write all 16
 * lanes at dst) and STOCH_EARLY_DEPTH16 (a block's
 * early depth, stoch_early_depth's bits).  Rank by rank (each rank's box,
 * bound lines and edge bounds come from tables filled sixteen ranks at a
 * time, STOCH_RANKS), the 4x4 blocks of the rank's box: each pixel's
 * sample of that rank is first held
 * against the rank's dual-space bounds at its own lens position
 * (frame_tri_blur.rank: four multiply-adds); those that pass are packed into a
 * packet and given the full 5D test (stoch_lane.h) STOCH_CHUNK at a time,
 * and the covered ones go back to their blocks, which leave in walk order
 * (early depth, then stoch_finish_block: counts, emit). */

#include <string.h>

#ifndef MOSAIC_RASTER_STOCH_PACKET_
#define MOSAIC_RASTER_STOCH_PACKET_
/* Samples: tested once 16 wait, so an append finds n <= 15, and its
 * 16-lane writes (STOCH_COMPRESS16, the memset of `block`) end by n + 15. */
#define STOCH_PACKET 32
_Static_assert(2 * STOCH_LANES - 1 <= STOCH_PACKET, "a block's append must fit the packet");
typedef struct stoch_packet {
    _Alignas(64) float x[STOCH_PACKET], y[STOCH_PACKET], u[STOCH_PACKET], v[STOCH_PACKET], t[STOCH_PACKET];
    _Alignas(64) int32_t lane[STOCH_PACKET];  /* the lane of its block each came from */
    uint8_t block[STOCH_PACKET];              /* and the block (of blk) */
    _Alignas(64) float z[STOCH_PACKET], w[3][STOCH_PACKET], rx[STOCH_PACKET], ry[STOCH_PACKET];
    _Alignas(64) int32_t gx[STOCH_PACKET], gy[STOCH_PACKET];
    int n, blocks;
    stoch_block blk[STOCH_PACKET];
} stoch_packet;

/* Every rank of one triangle in one bin, a table per field so that one
 * loop fills sixteen ranks at a time (the rank ends are SoA too): whether
 * its box meets the bin's rectangle (-1), the box there (its end x1, y1
 * and the stoch_box of its blocks), the lens u range its bounds run over,
 * its bounds as lines f = a + b u (x) or a + b v (y) through their two
 * ends, widened by the slack, and its edge bounds. */
#define STOCH_RANK_TABLE(type, name) _Alignas(64) type name[FRAME_MAX_POSITIONS];
typedef struct stoch_ranks {
    STOCH_RANK_TABLE(int32_t, meet) STOCH_RANK_TABLE(int32_t, x1) STOCH_RANK_TABLE(int32_t, y1)
    STOCH_RANK_TABLE(int32_t, bx_first) STOCH_RANK_TABLE(int32_t, bx_last)
    STOCH_RANK_TABLE(int32_t, by_first) STOCH_RANK_TABLE(int32_t, by_last)
    STOCH_RANK_TABLE(uint32_t, col_first) STOCH_RANK_TABLE(uint32_t, col_last)
    STOCH_RANK_TABLE(uint32_t, row_first) STOCH_RANK_TABLE(uint32_t, row_last)
    STOCH_RANK_TABLE(float, u0) STOCH_RANK_TABLE(float, u1)
    STOCH_RANK_TABLE(float, axl) STOCH_RANK_TABLE(float, bxl) STOCH_RANK_TABLE(float, axh) STOCH_RANK_TABLE(float, bxh)
    STOCH_RANK_TABLE(float, ayl) STOCH_RANK_TABLE(float, byl) STOCH_RANK_TABLE(float, ayh) STOCH_RANK_TABLE(float, byh)
    /* With frame_tri_blur.edges: bound k as the plane ex X + ey Y + eu U + ev V <= ec. */
    _Alignas(64) float ex[3][FRAME_MAX_POSITIONS], ey[3][FRAME_MAX_POSITIONS], eu[3][FRAME_MAX_POSITIONS];
    _Alignas(64) float ev[3][FRAME_MAX_POSITIONS], ec[3][FRAME_MAX_POSITIONS];
} stoch_ranks;
#undef STOCH_RANK_TABLE

static const int32_t stoch_lane_index[STOCH_LANES] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
#endif

#define STOCH_CAT_(a, b) a##b
#define STOCH_CAT(a, b) STOCH_CAT_(a, b)
#define STOCH_TEST STOCH_CAT(STOCH_RANK_WALK_FN, _test)
#define STOCH_FLUSH STOCH_CAT(STOCH_RANK_WALK_FN, _flush)
#define STOCH_RANKS STOCH_CAT(STOCH_RANK_WALK_FN, _ranks)

/* The full test of the packet's n samples: covered ones as bits, their
 * depth, shading-reference points and grid points in z, rx, ry, gx, gy. */
static uint32_t STOCH_TEST(const frame_tri_blur *restrict b, stoch_packet *restrict P)
{
    const int n = P->n, end = (n + STOCH_CHUNK - 1) / STOCH_CHUNK * STOCH_CHUNK;
    for (int l = n; l < end; l++) {  /* padding: a copy of the first sample */
        P->x[l] = P->x[0];
        P->y[l] = P->y[0];
        P->u[l] = P->u[0];
        P->v[l] = P->v[0];
        P->t[l] = P->t[0];
    }
    _Alignas(64) int hit[STOCH_PACKET];  /* -1: covered; set up to end */
    float *restrict z = P->z, *restrict w0 = P->w[0], *restrict w1 = P->w[1], *restrict w2 = P->w[2];
    const float *restrict x = P->x, *restrict y = P->y, *restrict u = P->u, *restrict v = P->v, *restrict t = P->t;
    for (int l0 = 0; l0 < end; l0 += STOCH_CHUNK) {
        switch (b->kind) {
        case FRAME_BLUR_MOTION:
#pragma GCC ivdep /* the packet's arrays are distinct */
            for (int l = l0; l < l0 + STOCH_CHUNK; l++)
                hit[l] = -stoch_lane_motion(b, x[l], y[l], t[l], &z[l], &w0[l], &w1[l], &w2[l]);
            break;
        case FRAME_BLUR_DEFOCUS:
#pragma GCC ivdep /* the packet's arrays are distinct */
            for (int l = l0; l < l0 + STOCH_CHUNK; l++)
                hit[l] = -stoch_lane_defocus(b, x[l], y[l], u[l], v[l], &z[l], &w0[l], &w1[l], &w2[l]);
            break;
        default:
#pragma GCC ivdep /* the packet's arrays are distinct */
            for (int l = l0; l < l0 + STOCH_CHUNK; l++)
                hit[l] = -stoch_lane_warp(b, x[l], y[l], u[l], v[l], t[l], &z[l], &w0[l], &w1[l], &w2[l]);
            break;
        }
    }
    for (int l = end; l < STOCH_PACKET; l++) hit[l] = 0;
    const uint32_t m = (STOCH_MASK16(hit) | STOCH_MASK16(hit + STOCH_LANES) << STOCH_LANES) &
                       (uint32_t)((UINT64_C(1) << n) - 1);
    if (!m) return 0;  /* no divisions for the reference */
    float *restrict rx = P->rx, *restrict ry = P->ry;
    int32_t *restrict gx = P->gx, *restrict gy = P->gy;
    const float rate = b->rate;
    _Alignas(64) float ox[STOCH_PACKET], oy[STOCH_PACKET];
    stoch_sample_offsets(x, ox, end, rate, b->centred);
    stoch_sample_offsets(y, oy, end, rate, b->centred);
#pragma GCC ivdep /* the packet's arrays are distinct */
    for (int l = 0; l < end; l++) {
        stoch_lane_reference(b, w0[l], w1[l], w2[l], &rx[l], &ry[l]);
        rx[l] -= ox[l];
        ry[l] -= oy[l];
    }
    for (int l = end; l % STOCH_LANES; l++) rx[l] = ry[l] = 0.0f;  /* STOCH_GRID16 takes sixteen */
    for (int l0 = 0; l0 < end; l0 += STOCH_LANES) {
        STOCH_GRID16(rx + l0, rate, gx + l0);
        STOCH_GRID16(ry + l0, rate, gy + l0);
    }
    return m;
}

/* Tests the waiting samples, hands each covered one back to its block and
 * finishes the blocks in the order they were walked. */
static void STOCH_FLUSH(const frame_tri *tri, stoch_packet *P, const raster_view *v, bool depth_test, int bin_px,
                        stoch_pixels *px, stoch_emit_fn emit, void *consumer, raster_counts *counts)
{
    const uint32_t m = STOCH_TEST(tri->blur, P);
    counts->stoch_tested += (uint64_t)P->n;
    counts->stoch_covered += (uint64_t)__builtin_popcount(m);
    counts->samples += (uint64_t)__builtin_popcount(m);
    for (uint32_t k = m; k; k &= k - 1) {
        const int l = __builtin_ctz(k), lane = P->lane[l];
        stoch_block *blk = &P->blk[P->block[l]];
        blk->covered |= 1u << lane;
        blk->hits.z[lane] = P->z[l];
        blk->hits.rx[lane] = P->rx[l];
        blk->hits.ry[lane] = P->ry[l];
        blk->hits.gx[lane] = P->gx[l];
        blk->hits.gy[lane] = P->gy[l];
    }
    if (m)
        for (int i = 0; i < P->blocks; i++)
            if (P->blk[i].covered) {
                stoch_block *blk = &P->blk[i];
                stoch_finish_block(blk, depth_test ? STOCH_EARLY_DEPTH16(blk, v) : blk->covered, px, emit,
                                   consumer, counts);
            }
    P->n = P->blocks = 0;
}

/* Fills T for the ranks of b over pixels [x0, x1) x [y0, y1): a rank's box
 * runs from the column of its least x_lo to that of its greatest x_hi
 * (the shift), rows likewise; empty ranks have x_lo above every column,
 * so their boxes are empty. */
static void STOCH_RANKS(const frame_tri_blur *restrict b, const frame_ranked *ranked, int S, int x0, int y0, int x1,
                        int y1, stoch_ranks *restrict T)
{
    const int stride = FRAME_RANK_STRIDE(S), shift = b->rank_shift;
    const float unit = 1.0f / (float)(1 << shift), slack = STOCH_LANE_SLACK;
    const int16_t *restrict R = b->rank;
    /* The bounds' lines run over the rank's u (key U) or the lens's [-1, 1]. */
    for (int j = 0; j < stride; j++) T->u0[j] = -1.0f, T->u1[j] = 1.0f;
    if (b->rank_key == FRAME_RANK_U)
        for (int j = 0; j < S; j++) T->u0[j] = ranked->range[FRAME_RANK_U][j][0], T->u1[j] = ranked->range[FRAME_RANK_U][j][1];
    for (int j = 0; j < stride; j++) {
        const int32_t xl0 = R[FRAME_RANK_XL0 * stride + j], xl1 = R[FRAME_RANK_XL1 * stride + j];
        const int32_t yl0 = R[FRAME_RANK_YL0 * stride + j], yl1 = R[FRAME_RANK_YL1 * stride + j];
        const int32_t xh0 = R[FRAME_RANK_XH0 * stride + j], xh1 = R[FRAME_RANK_XH1 * stride + j];
        const int32_t yh0 = R[FRAME_RANK_YH0 * stride + j], yh1 = R[FRAME_RANK_YH1 * stride + j];
        const int32_t lo_x = (xl0 < xl1 ? xl0 : xl1) >> shift, hi_x = (xh0 > xh1 ? xh0 : xh1) >> shift;
        const int32_t lo_y = (yl0 < yl1 ? yl0 : yl1) >> shift, hi_y = (yh0 > yh1 ? yh0 : yh1) >> shift;
        const int32_t bx0 = lo_x > x0 ? lo_x : x0, by0 = lo_y > y0 ? lo_y : y0;
        const int32_t bx1 = hi_x + 1 < x1 ? hi_x + 1 : x1, by1 = hi_y + 1 < y1 ? hi_y + 1 : y1;
        T->meet[j] = -((bx0 < bx1) & (by0 < by1));
        T->x1[j] = bx1;
        T->y1[j] = by1;
        stoch_box box;
        stoch_box_init(&box, bx0, by0, bx1, by1);
        T->bx_first[j] = box.bx_first, T->bx_last[j] = box.bx_last;
        T->by_first[j] = box.by_first, T->by_last[j] = box.by_last;
        T->col_first[j] = box.col_first, T->col_last[j] = box.col_last;
        T->row_first[j] = box.row_first, T->row_last[j] = box.row_last;
        const float u0 = T->u0[j], u1 = T->u1[j], du = u1 > u0 ? 1.0f / (u1 - u0) : 0.0f;
        const float fxl0 = (float)xl0 * unit, fxl1 = (float)xl1 * unit, fxh0 = (float)xh0 * unit, fxh1 = (float)xh1 * unit;
        const float fyl0 = (float)yl0 * unit, fyl1 = (float)yl1 * unit, fyh0 = (float)yh0 * unit, fyh1 = (float)yh1 * unit;
        const float sxl = (fxl1 - fxl0) * du, sxh = (fxh1 - fxh0) * du;
        const float syl = (fyl1 - fyl0) * 0.5f, syh = (fyh1 - fyh0) * 0.5f;
        /* a = f0 - b u0 (x; one u, du = 0: the bound's extreme end) or
         * f0 - b v0 at v0 = -1 (y). */
        T->axl[j] = (du == 0.0f ? (float)(xl0 < xl1 ? xl0 : xl1) * unit : fxl0 - sxl * u0) - slack;
        T->axh[j] = (du == 0.0f ? (float)(xh0 > xh1 ? xh0 : xh1) * unit : fxh0 - sxh * u0) + slack;
        T->ayl[j] = (fyl0 - syl * -1.0f) - slack;
        T->ayh[j] = (fyh0 - syh * -1.0f) + slack;
        T->bxl[j] = sxl;
        T->bxh[j] = sxh;
        T->byl[j] = syl;
        T->byh[j] = syh;
    }
    if (!b->edges) return;
    for (int k = 0; k < 3; k++) {
        const int16_t *restrict Q0 = R + (FRAME_RANK_ENDS + 2 * k) * stride, *restrict Q1 = Q0 + stride;
#pragma GCC ivdep /* the ends and the lens ranges are read only; the bound tables are written */
        for (int j = 0; j < stride; j++)
            stoch_edge_plane(b, k, Q0[j], Q1[j], T->u0[j], T->u1[j], slack, &T->ex[k][j], &T->ey[k][j], &T->eu[k][j],
                             &T->ev[k][j], &T->ec[k][j]);
    }
}

static void STOCH_RANK_WALK_FN(const frame_tri *tri, const raster_view *v, const frame_ranked *ranked, int bin_px,
                               int x0, int y0, int x1, int y1, stoch_pixels *px, stoch_emit_fn emit, void *consumer,
                               raster_counts *counts)
{
    const frame_tri_blur *b = tri->blur;
    stoch_pixels_next(px);
    const int S = v->samples->count, key = b->rank_key;
    const bool depth_test = v->depth && tri->draw->depth_test;
    stoch_packet P;
    P.n = P.blocks = 0;
    stoch_ranks rk;
    STOCH_RANKS(b, ranked, S, x0, y0, x1, y1, &rk);
    /* The ranks whose box meets the rectangle, in rank order. */
    const int stride = FRAME_RANK_STRIDE(S);
    uint64_t ranks = 0;
    for (int j0 = 0; j0 < stride; j0 += STOCH_LANES) ranks |= (uint64_t)STOCH_MASK16(rk.meet + j0) << j0;
    for (; ranks; ranks &= ranks - 1) {
        const int j = __builtin_ctzll(ranks);
        if (ranks & (ranks - 1)) {  /* the next rank's first block (x, y, u, v), while this one is walked */
            const int jn = __builtin_ctzll(ranks & (ranks - 1));
            const float *next = raster_ranked_block(ranked, key, jn, 0);
            for (int f = 0; f < RASTER_RANKED_T; f++) __builtin_prefetch(next + f * STOCH_LANES);
        }
        const int bx1 = rk.x1[j], by1 = rk.y1[j];
        const stoch_box box = {rk.bx_first[j], rk.bx_last[j], rk.by_first[j], rk.by_last[j],
                               rk.col_first[j], rk.col_last[j], rk.row_first[j], rk.row_last[j]};
        /* Samples beyond a line by more than the slack cannot be covered. */
        const float axl = rk.axl[j], bxl = rk.bxl[j], axh = rk.axh[j], bxh = rk.bxh[j];
        const float ayl = rk.ayl[j], byl = rk.byl[j], ayh = rk.ayh[j], byh = rk.byh[j];
        const uint8_t *sample = raster_ranked_sample(ranked, key, j);
        /* every block of the pattern is the same one */
        const float *restrict lanes = __builtin_assume_aligned(raster_ranked_block(ranked, key, j, 0), 64);
        for (int by = box.by_first; by < by1; by += 4) {
            for (int bx = box.bx_first; bx < bx1; bx += 4) {
                const uint32_t mask = stoch_box_lanes(&box, bx, by);
                const float *restrict X = lanes + RASTER_RANKED_X * STOCH_LANES;
                const float *restrict Y = lanes + RASTER_RANKED_Y * STOCH_LANES;
                const float *restrict U = lanes + RASTER_RANKED_U * STOCH_LANES;
                const float *restrict V = lanes + RASTER_RANKED_V * STOCH_LANES;
                const float *restrict T = lanes + RASTER_RANKED_T * STOCH_LANES;
                const float fx = (float)bx, fy = (float)by;
                _Alignas(64) float xs[STOCH_LANES], ys[STOCH_LANES];
                _Alignas(64) int in[STOCH_LANES];
#pragma GCC ivdep /* the block's lanes are read only; xs, ys, in are this loop's own */
                for (int i = 0; i < STOCH_LANES; i++) {
                    xs[i] = fx + X[i];
                    ys[i] = fy + Y[i];
                    in[i] = -((xs[i] >= axl + bxl * U[i]) & (xs[i] <= axh + bxh * U[i]) & (ys[i] >= ayl + byl * V[i]) &
                              (ys[i] <= ayh + byh * V[i]));
                }
                uint32_t pass = STOCH_MASK16(in) & mask;
                counts->stoch_candidates += (uint64_t)__builtin_popcount(mask);
                if (pass && b->edges) {  /* then the edge bounds */
                    for (int i = 0; i < STOCH_LANES; i++) {
                        int inside = 1;
                        for (int k = 0; k < 3; k++)
                            inside &= rk.ex[k][j] * xs[i] + rk.ey[k][j] * ys[i] + rk.eu[k][j] * U[i] +
                                          rk.ev[k][j] * V[i] <=
                                      rk.ec[k][j];
                        in[i] = -inside;
                    }
                    pass &= STOCH_MASK16(in);
                }
                if (!pass) continue;
                const int slot = P.blocks++;
                stoch_block *blk = &P.blk[slot];
                blk->tri = tri;
                blk->x0 = bx;
                blk->y0 = by;
                blk->block = stoch_block_index(bin_px, bx, by);
                blk->sample = sample;
                blk->group = -1;
                blk->covered = 0;
                STOCH_COMPRESS16(P.x + P.n, xs, pass);
                STOCH_COMPRESS16(P.y + P.n, ys, pass);
                STOCH_COMPRESS16(P.u + P.n, U, pass);
                STOCH_COMPRESS16(P.v + P.n, V, pass);
                STOCH_COMPRESS16(P.t + P.n, T, pass);
                STOCH_COMPRESS16(P.lane + P.n, stoch_lane_index, pass);
                memset(P.block + P.n, slot, STOCH_LANES);
                P.n += __builtin_popcount(pass);
                if (P.n >= STOCH_LANES) STOCH_FLUSH(tri, &P, v, depth_test, bin_px, px, emit, consumer, counts);
            }
        }
    }
    if (P.n) STOCH_FLUSH(tri, &P, v, depth_test, bin_px, px, emit, consumer, counts);
}

#undef STOCH_TEST
#undef STOCH_FLUSH
#undef STOCH_RANKS
#undef STOCH_CAT
#undef STOCH_CAT_
#undef STOCH_CHUNK
#undef STOCH_COMPRESS16
