/* stoch_block_tmp.h — the body of a stoch_block variant, included once per
 * ISA by raster_scalar.c, raster_avx2.c and raster_avx512.c, which define
 * STOCH_BLOCK_FN (its name).  One lane per pixel
 * of a 4x4 block; the compiler turns each lane loop into vector code. */

uint32_t STOCH_BLOCK_FN(const fe_blur *restrict b, int x0, int y0, const float *restrict lanes, uint32_t mask,
                        stoch_hits *restrict out)
{
    lanes = __builtin_assume_aligned(lanes, 64);  /* no scalar peeling before the vector loops */
    out = __builtin_assume_aligned(out, 64);
    const float *X = lanes + RASTER_RANKED_X * RASTER_UVT_PIXELS, *Y = lanes + RASTER_RANKED_Y * RASTER_UVT_PIXELS;
    const float *U = lanes + RASTER_RANKED_U * RASTER_UVT_PIXELS, *V = lanes + RASTER_RANKED_V * RASTER_UVT_PIXELS;
    const float *T = lanes + RASTER_RANKED_T * RASTER_UVT_PIXELS;
    const float fx = (float)x0, fy = (float)y0;
    _Alignas(64) int hit[STOCH_LANES];
    _Alignas(64) float w[3][STOCH_LANES];
    switch (b->kind) {
    case FE_BLUR_MOTION:
        for (int l = 0; l < STOCH_LANES; l++)
            hit[l] = stoch_lane_motion(b, fx + X[l], fy + Y[l], T[l], &out->z[l], &w[0][l], &w[1][l], &w[2][l]);
        break;
    case FE_BLUR_DEFOCUS:
        for (int l = 0; l < STOCH_LANES; l++)
            hit[l] = stoch_lane_defocus(b, fx + X[l], fy + Y[l], U[l], V[l], &out->z[l], &w[0][l], &w[1][l],
                                        &w[2][l]);
        break;
    default:
        for (int l = 0; l < STOCH_LANES; l++)
            hit[l] = stoch_lane_warp(b, fx + X[l], fy + Y[l], U[l], V[l], T[l], &out->z[l], &w[0][l],
                                     &w[1][l], &w[2][l]);
        break;
    }
    uint32_t m = 0;
    for (int l = 0; l < STOCH_LANES; l++) m |= (uint32_t)hit[l] << l;
    if (!(m & mask)) return 0;  /* most blocks: no divisions for the reference */
    for (int l = 0; l < STOCH_LANES; l++)
        stoch_lane_reference(b, w[0][l], w[1][l], w[2][l], &out->rx[l], &out->ry[l]);
    return m & mask;
}

#undef STOCH_BLOCK_FN
