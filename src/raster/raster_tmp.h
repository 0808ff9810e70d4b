/* raster_tmp.h — the body of raster_triangle, included once per ISA by
 * raster_scalar.c, raster_avx2.c and raster_avx512.c, which define
 * RASTER_FN (the function's name), RASTER_COVER (how one quad's 4 * spp
 * samples are tested against the three edges) and RASTER_DEPTH (their
 * depth and the early depth test, quad_depth.h), and may define
 * RASTER_BLOCKS (a whole-block walk for one sample per pixel).  Fed by backend/tile.c through the ISA table. */

int RASTER_FN(const fe_tri *t, const raster_view *v, int x0, int y0, int x1, int y1, raster_quad *out, float *z,
              raster_counts *counts)
{
    const frame_samples *sp = v->samples;
    const int S = sp->count, slots = 4 * S;
#ifdef RASTER_BLOCKS
    if (S == 1) return RASTER_BLOCKS(t, v, x0, y0, x1, y1, out, z, counts);
#endif
    /* E(quad at qx, qy; slot) = a * 256 * qx + b * 256 * qy + off[slot]: the
     * lane's pixel offset, the sample position and the edge constant fold
     * into one table per edge, padded to a whole vector. */
    _Alignas(64) int64_t off[3][4 * RASTER_MAX_SAMPLES + 8];
    int64_t step_x[3], step_y[3];
    for (int e = 0; e < 3; e++) {
        const int64_t a = t->a[e], b = t->b[e], c = t->c[e];
        step_x[e] = a * FRAME_SUBPIXELS;
        step_y[e] = b * FRAME_SUBPIXELS;
        for (int s = 0; s < S; s++) {
            int64_t base = a * sp->dx[s] + b * sp->dy[s] + c;
            off[e][s] = base;
            off[e][S + s] = base + step_x[e];
            off[e][2 * S + s] = base + step_y[e];
            off[e][3 * S + s] = base + step_x[e] + step_y[e];
        }
        for (int k = slots; k < slots + 8; k++) off[e][k] = -1;  /* padding: never covered */
    }
    const bool depth_test = v->depth && t->draw->depth_test;
    const bool want_z = depth_test || t->draw->depth_write;
    const int z_stride = RASTER_Z_STRIDE(S);
    const uint64_t lane_mask = S == 16 ? 0xffffull : (1ull << S) - 1;
    int n = 0;
    uint64_t cov_samples = 0, cov_pixels = 0;
    for (int qy = y0; qy < y1; qy += 2) {
        int64_t row[3];
        for (int e = 0; e < 3; e++) row[e] = step_x[e] * x0 + step_y[e] * qy;
        for (int qx = x0; qx < x1; qx += 2) {
            uint64_t mask = RASTER_COVER(row, off, slots);
            for (int e = 0; e < 3; e++) row[e] += 2 * step_x[e];
            if (!mask) continue;
            /* Pixels past the target's right or top edge (odd sizes). */
            if (qx + 1 > t->max_x) mask &= ~((lane_mask << S) | (lane_mask << 3 * S));
            if (qy + 1 > t->max_y) mask &= ~((lane_mask << 2 * S) | (lane_mask << 3 * S));
            if (qx < t->min_x) mask &= ~(lane_mask | (lane_mask << 2 * S));
            if (qy < t->min_y) mask &= ~(lane_mask | (lane_mask << S));
            if (!mask) continue;
            cov_samples += (uint64_t)__builtin_popcountll(mask);
            cov_pixels += (uint64_t)(((mask & lane_mask) != 0) + (((mask >> S) & lane_mask) != 0) +
                                     (((mask >> 2 * S) & lane_mask) != 0) + ((mask >> 3 * S) != 0));
            if (want_z) {
                mask = RASTER_DEPTH(v, depth_test, t, qx, qy, mask, z + (size_t)n * (size_t)z_stride);
                if (!mask) continue;
            }
            out[n].tri = t;
            out[n].x = (uint16_t)qx;
            out[n].y = (uint16_t)qy;
            out[n].cover = mask;
            n++;
        }
    }
    counts->samples += cov_samples;
    counts->pixels += cov_pixels;
    return n;
}
