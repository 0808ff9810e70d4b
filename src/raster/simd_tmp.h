/* simd_tmp.h — the raster stage's primitives for the vector builds, written
 * once in util/simd.h's vocabulary and included by raster_avx2.c (8 lanes)
 * and raster_avx512.c (16 lanes): the quad walk's coverage of a quad's
 * samples (raster_tmp.h's RASTER_COVER); a 4x4 pixel block's coverage from
 * 32-bit edge values and its depth and early test (RASTER_SMALL_COVER,
 * RASTER_SMALL_DEPTH; small_block.h has them a lane at a time); the walk of
 * a triangle's 4x4 blocks at one sample per pixel (RASTER_BLOCKS); and the
 * stochastic walks' lane mask, compress and early depth (STOCH_MASK16,
 * STOCH_COMPRESS16, STOCH_EARLY_DEPTH16; raster_scalar.c and stoch.h have
 * their portable forms).  A block is 16 / SIMD_LANES vectors of 32-bit
 * lanes, SIMD_LANES / 4 of its rows each (twice as many vectors of its
 * 64-bit edge values).  The same integer edge values and the same float
 * operations in the same order (contraction is off) as the portable forms,
 * so the same bits.  Private to raster/. */
#ifndef MOSAIC_RASTER_SIMD_TMP_H
#define MOSAIC_RASTER_SIMD_TMP_H

#if !defined(SIMD_LANES) || SIMD_LANES < 8
#error "include util/simd.h with SIMD_LANES 8 or 16 before raster/simd_tmp.h"
#endif

#include "raster/block_quads.h"
#include "raster/stoch.h"

#define RASTER_BLOCK_VECS (16 / SIMD_LANES) /* vectors of a block's 32-bit lanes */
#define RASTER_BLOCK_ROWS (SIMD_LANES / 4)  /* block rows per vector */
#define RASTER_Q_LANES (SIMD_LANES / 2)     /* 64-bit lanes per vector */

/* The quad walk's coverage: slot k is covered iff row[e] + off[e][k] >= 0
 * for the three edges (the padding slots are -1: never). */
static inline uint64_t raster_cover_simd(const int64_t row[3], const int64_t (*off)[4 * RASTER_MAX_SAMPLES + 8],
                                         int slots)
{
    const simd_i r0 = simd_set1_q(row[0]), r1 = simd_set1_q(row[1]), r2 = simd_set1_q(row[2]);
    uint64_t neg = 0;
    for (int k = 0; k < slots; k += RASTER_Q_LANES) {
        const simd_i e0 = simd_add_q(r0, simd_load_i(&off[0][k]));
        const simd_i e1 = simd_add_q(r1, simd_load_i(&off[1][k]));
        const simd_i e2 = simd_add_q(r2, simd_load_i(&off[2][k]));
        neg |= (uint64_t)simd_sign_q(simd_or3_i(e0, e1, e2)) << k;
    }
    uint64_t valid = slots == 64 ? ~0ull : (1ull << slots) - 1;
    return ~neg & valid;
}

/* small_block.h's raster_small_cover_scalar: lane l = ly * 4 + lx of the
 * block is covered iff e0[e] + step_x[e] * lx + step_y[e] * ly >= 0 for
 * the three edges (no sum overflows: FRAME_TRI_SMALL). */
static inline uint32_t raster_small_cover_simd(const int32_t e0[3], const int32_t step_x[3], const int32_t step_y[3])
{
    const simd_i lx = simd_lane_x_i(), ly = simd_lane_y_i();
    simd_i any[RASTER_BLOCK_VECS];
    for (int k = 0; k < RASTER_BLOCK_VECS; k++) any[k] = simd_zero_i();
    for (int e = 0; e < 3; e++) {
        const simd_i sy = simd_set1_i(step_y[e]);
        simd_i r = simd_add_i(simd_set1_i(e0[e]),
                              simd_add_i(simd_mul_i(simd_set1_i(step_x[e]), lx), simd_mul_i(sy, ly)));
        for (int k = 0; k < RASTER_BLOCK_VECS; k++) {
            any[k] = simd_or_i(any[k], r);
            r = simd_add_i(r, simd_add_i(sy, sy)); /* the next two rows (AVX2's second vector) */
        }
    }
    uint32_t neg = 0;
    for (int k = 0; k < RASTER_BLOCK_VECS; k++) neg |= simd_sign_i(any[k]) << (k * SIMD_LANES);
    return ~neg & 0xffffu;
}

/* small_block.h's raster_small_depth_scalar: writes zb[l], the depth of
 * every lane (raster_sample_depth's bits), and returns `mask` less the
 * lanes that fail the early test.  The target's depth is read in the
 * block's first `cols` columns and `rows` rows only (1..4 each: the lanes
 * of mask lie there). */
static inline uint32_t raster_block_depth_simd(const raster_view *v, bool test, const frame_tri *t, int x0, int y0,
                                               int cols, int rows, uint32_t mask, float zb[16])
{
    const frame_samples *sp = v->samples;
    const simd_f tx0 = simd_set1_f(t->x0), ty0 = simd_set1_f(t->y0);
    const simd_f z0 = simd_set1_f(t->z[0]), zx = simd_set1_f(t->z[1]), zy = simd_set1_f(t->z[2]);
    /* ((float)px + fx) - x0, as raster_sample_depth has it */
    const simd_f px = simd_add_f(simd_set1_f((float)x0), simd_lane_x_f());
    const simd_f dx = simd_sub_f(simd_add_f(px, simd_set1_f(sp->fx[0])), tx0);
    const simd_f zdx = simd_add_f(z0, simd_mul_f(zx, dx)), fy = simd_set1_f(sp->fy[0]);
    const size_t w = (size_t)v->width;
    const float *row = v->depth + (size_t)y0 * w + (size_t)x0;
    simd_f py = simd_add_f(simd_set1_f((float)y0), simd_lane_y_f());
    uint32_t pass = 0;
    for (int k = 0; k < RASTER_BLOCK_VECS; k++) {
        const simd_f dy = simd_sub_f(simd_add_f(py, fy), ty0);
        const simd_f z = simd_add_f(zdx, simd_mul_f(zy, dy));
        simd_store_f(zb + k * SIMD_LANES, z);
        py = simd_add_f(py, simd_set1_f((float)RASTER_BLOCK_ROWS));
        if (!test) continue;
        __m128 d[RASTER_BLOCK_ROWS];
        for (int r = 0; r < RASTER_BLOCK_ROWS; r++) {
            const int ry = k * RASTER_BLOCK_ROWS + r;
            d[r] = ry < rows ? simd_row4_f(row + (size_t)ry * w, cols) : _mm_setzero_ps();
        }
        pass |= simd_bits(simd_lt_f(z, simd_rows_f(d))) << (k * SIMD_LANES);
    }
    return test ? mask & pass : mask;
}

/* raster_triangle at one sample per pixel, 4x4 pixel blocks at a time: a
 * block's sixteen pixels' three edge values, as the quad walk has them
 * (E_e(pixel) = a * 256 * px + b * 256 * py + (a * dx + b * dy + c)),
 * from the block's first lane plus a per-lane offset; their depth and early
 * test (raster_block_depth_simd), then up to four quads out.  The values
 * are added in 32-bit lanes when every one over the triangle's blocks lies
 * within +-2^29 (an edge's extremes over a rectangle are at its corners),
 * else in 64-bit lanes, twice the vectors; the sign is the same either way.
 * The same quads cover the same samples with the same depth as in the quad
 * walk; only the order in which one triangle's quads come out differs (no
 * two of them share a pixel). */
#define RASTER_BLOCKS_NARROW (INT64_C(1) << 29)
static int raster_blocks_1spp_simd(const frame_tri *t, const raster_view *v, int x0, int y0, int x1, int y1,
                                   raster_quad *out, float *z, raster_counts *counts)
{
    const frame_samples *sp = v->samples;
    int px0, py0, px1, py1;
    if (!raster_block_span(t, x0, y0, x1, y1, &px0, &py0, &px1, &py1)) return 0;
    const int bx0 = px0 & ~3, by0 = py0 & ~3, bx1 = (px1 + 3) & ~3, by1 = (py1 + 3) & ~3;
    int64_t step_x[3], step_y[3], base[3];
    bool narrow = true;
    for (int e = 0; e < 3; e++) {
        const int64_t a = t->a[e], b = t->b[e];
        step_x[e] = a * FRAME_SUBPIXELS;
        step_y[e] = b * FRAME_SUBPIXELS;
        base[e] = a * sp->dx[0] + b * sp->dy[0] + t->c[e] + step_x[e] * bx0 + step_y[e] * by0;
        const int64_t ex = step_x[e] * (bx1 - 1 - bx0), ey = step_y[e] * (by1 - 1 - by0);
        const int64_t lo = base[e] + (ex < 0 ? ex : 0) + (ey < 0 ? ey : 0);
        const int64_t hi = base[e] + (ex > 0 ? ex : 0) + (ey > 0 ? ey : 0);
        narrow = narrow && lo >= -RASTER_BLOCKS_NARROW && hi <= RASTER_BLOCKS_NARROW;
    }
    /* The lanes' offsets a * 256 * lx + b * 256 * ly, vector k of the block
     * the one before plus its rows of b * 256; narrow: 32-bit lanes (exact:
     * |3 a 256| + |3 b 256| <= hi - lo), the first RASTER_BLOCK_VECS. */
    simd_i off[3][2 * RASTER_BLOCK_VECS];
    for (int e = 0; e < 3; e++) {
        if (narrow) {
            const simd_i sy = simd_set1_i((int32_t)step_y[e]);
            off[e][0] = simd_add_i(simd_mul_i(simd_set1_i((int32_t)step_x[e]), simd_lane_x_i()),
                                   simd_mul_i(sy, simd_lane_y_i()));
            for (int k = 1; k < RASTER_BLOCK_VECS; k++) off[e][k] = simd_add_i(off[e][k - 1], simd_add_i(sy, sy));
        } else {
            off[e][0] = simd_lanes4x4_q(step_x[e], step_y[e]);
            const simd_i down = simd_set1_q(step_y[e] * (RASTER_Q_LANES / 4));
            for (int k = 1; k < 2 * RASTER_BLOCK_VECS; k++) off[e][k] = simd_add_q(off[e][k - 1], down);
        }
    }
    const bool depth_test = v->depth && t->draw->depth_test;
    const bool want_z = depth_test || t->draw->depth_write;
    int n = 0;
    uint64_t covered = 0;
    for (int by = by0; by < py1; by += 4) {
        const uint32_t rows = raster_block_rows(py0 - by, py1 - by);
        int64_t row_e[3];
        for (int e = 0; e < 3; e++) row_e[e] = base[e] + step_y[e] * (by - by0);
        for (int bx = bx0; bx < px1; bx += 4) {
            uint32_t neg = 0;
            if (narrow) {
                simd_i any[RASTER_BLOCK_VECS];
                for (int k = 0; k < RASTER_BLOCK_VECS; k++) any[k] = simd_zero_i();
                for (int e = 0; e < 3; e++) {
                    const simd_i at = simd_set1_i((int32_t)(row_e[e] + step_x[e] * (bx - bx0)));
                    for (int k = 0; k < RASTER_BLOCK_VECS; k++)
                        any[k] = simd_or_i(any[k], simd_add_i(at, off[e][k]));
                }
                for (int k = 0; k < RASTER_BLOCK_VECS; k++) neg |= simd_sign_i(any[k]) << (k * SIMD_LANES);
            } else {
                simd_i any[2 * RASTER_BLOCK_VECS];
                for (int k = 0; k < 2 * RASTER_BLOCK_VECS; k++) any[k] = simd_zero_i();
                for (int e = 0; e < 3; e++) {
                    const simd_i at = simd_set1_q(row_e[e] + step_x[e] * (bx - bx0));
                    for (int k = 0; k < 2 * RASTER_BLOCK_VECS; k++)
                        any[k] = simd_or_i(any[k], simd_add_q(at, off[e][k]));
                }
                for (int k = 0; k < 2 * RASTER_BLOCK_VECS; k++) neg |= simd_sign_q(any[k]) << (k * RASTER_Q_LANES);
            }
            uint32_t mask = ~neg & rows & raster_block_cols(px0 - bx, px1 - bx);
            if (!mask) continue;
            covered += (uint64_t)__builtin_popcount(mask);
            _Alignas(64) float zb[16];
            if (want_z) {
                const int cols = v->width - bx < 4 ? v->width - bx : 4, rows_in = v->height - by < 4 ? v->height - by : 4;
                mask = raster_block_depth_simd(v, depth_test, t, bx, by, cols, rows_in, mask, zb);
                if (!mask) continue;
            }
            n = raster_block_quads(t, bx, by, mask, zb, want_z, out, z, n);
        }
    }
    counts->samples += covered;
    counts->pixels += covered;
    return n;
}

/* The sign bits of sixteen int lanes (0 or -1, 64-byte aligned) as a mask. */
static inline uint32_t stoch_mask16_simd(const int *in)
{
    uint32_t m = 0;
    for (int k = 0; k < RASTER_BLOCK_VECS; k++) m |= simd_sign_i(simd_load_i(in + k * SIMD_LANES)) << (k * SIMD_LANES);
    return m;
}

/* stoch_grid16 (the grid points of sixteen reference coordinates) in
 * vectors: its clamps are one instruction each here. */
static inline void stoch_grid16_simd(const float *r, float rate, int32_t *g)
{
    const simd_f s = simd_set1_f(rate), lo = simd_set1_f(-RASTER_GRID_LIMIT), hi = simd_set1_f(RASTER_GRID_LIMIT);
    for (int k = 0; k < RASTER_BLOCK_VECS; k++) {
        const simd_f c = simd_min_f(simd_max_f(simd_mul_f(simd_load_f(r + k * SIMD_LANES), s), lo), hi);
        simd_storeu_i(g + k * SIMD_LANES, simd_trunc_i(simd_floor_f(c)));
    }
}

/* Appends the 32-bit lanes of src[0..16) that mask selects to dst, in lane
 * order; writes 16 lanes of dst (the packet has the room). */
static inline void stoch_compress16_simd(void *dst, const void *src, uint32_t mask)
{
    for (int k = 0; k < RASTER_BLOCK_VECS; k++) {
        const uint32_t m = mask >> (k * SIMD_LANES) & SIMD_ALL_BITS;
        simd_compress_i(dst, simd_loadu_i((const uint32_t *)src + k * SIMD_LANES), m);
        dst = (uint32_t *)dst + __builtin_popcount(m);
    }
}

/* stoch_early_depth by masked gathers: the covered lanes' depths in the
 * target (the others are not read: a block may hang over the target's
 * edge), compared as the scalar loop does (false for NaN). */
static inline uint32_t stoch_early_depth_simd(const stoch_block *blk, const raster_view *v)
{
    const float *depth = stoch_block_depth(blk, v);
    uint32_t live = 0;
    for (int k = 0; k < RASTER_BLOCK_VECS; k++) {
        const uint32_t m = blk->covered >> (k * SIMD_LANES) & SIMD_ALL_BITS;
        if (!m) continue;
        const simd_i at =
            simd_add_i(simd_loadu_i(v->lane_depth + k * SIMD_LANES), simd_loadu_u8(blk->sample + k * SIMD_LANES));
        const simd_f dz = simd_gather_f_masked(depth, at, simd_mask(m));
        live |= (simd_bits(simd_lt_f(simd_load_f(blk->hits.z + k * SIMD_LANES), dz)) & m) << (k * SIMD_LANES);
    }
    return live;
}

#endif
