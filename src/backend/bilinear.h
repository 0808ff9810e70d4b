/* bilinear.h — bilinear reconstruction from the shading grid (--bilinear):
 * a sample at point (sx, sy) of its triangle's shading grid (its reference
 * point times the grid's rate; grid point (i, j) lies at i + 0.5, j + 0.5)
 * takes the colours of the four grid points around it, mixed by weights in
 * fixed point so that every path and every ISA mixes to the same bits: the
 * ordered path (decouple.c) one write at a time, the resolve (resolve.c) a
 * row of sixteen at a time (bilinear_row_tmp.h).
 *
 * Along each axis, bilinear_point gives the grid point at or below
 * s - 0.5 and the next point's weight in 1/256ths (w, 0..256; the point's
 * own is 256 - w).  Corner k = 0..3 of the four is point
 * (ix + (k & 1), iy + (k >> 1)), its weight bilinear_weight(k, wx, wy):
 * the four sum to 65536 exactly, so a mix of unsigned 8-bit channels is
 * (sum of weight * channel + 32768) >> 16, at most 255.  The nearest
 * corner (bilinear_nearest) decides whether the sample was discarded and
 * is the point the blur-area statistic counts.  Private to backend/. */
#ifndef MOSAIC_BACKEND_BILINEAR_H
#define MOSAIC_BACKEND_BILINEAR_H

#include "backend/shading_cache.h"
#include "util/floor.h"

#define BILINEAR_ONE 256  /* a whole weight along one axis */

/* The grid point at or below s - 0.5 along one axis, and the next one's
 * weight, rounded to 1/256 (the subtraction and the scaling are exact). */
static inline void bilinear_point(float s, int32_t *i, int32_t *w)
{
    const float p = s - 0.5f;
    *i = util_floor_i32(p);
    *w = (int32_t)((p - (float)*i) * (float)BILINEAR_ONE + 0.5f);
}
static inline uint32_t bilinear_weight(int k, int32_t wx, int32_t wy)
{
    return (uint32_t)((k & 1) ? wx : BILINEAR_ONE - wx) * (uint32_t)((k >> 1) ? wy : BILINEAR_ONE - wy);
}
static inline int bilinear_nearest(int32_t wx, int32_t wy)
{
    return (wx >= BILINEAR_ONE / 2) | (wy >= BILINEAR_ONE / 2) << 1;
}

/* The mix of colours rgba[code[k]] (corner order) with weights (wx, wy),
 * the corners of `keep` only (bits 1 << k), their weights renormalized
 * (then a division; all four: a shift, as the vector mix computes it). */
static inline uint32_t bilinear_blend(const uint32_t *rgba, const int32_t code[4], int32_t wx, int32_t wy,
                                      unsigned keep)
{
    uint32_t sum = 0, v[4] = {0, 0, 0, 0};
    for (int k = 0; k < 4; k++) {
        const uint32_t w = (keep >> k & 1u) ? bilinear_weight(k, wx, wy) : 0u, c = rgba[code[k]];
        sum += w;
        for (int ch = 0; ch < 4; ch++) v[ch] += w * ((c >> (8 * ch)) & 0xffu);
    }
    uint32_t out = 0;
    for (int ch = 0; ch < 4; ch++)
        out |= (sum == BILINEAR_ONE * BILINEAR_ONE ? (v[ch] + sum / 2) >> 16 : (v[ch] + sum / 2) / sum) << (8 * ch);
    return out;
}

/* The mix of the four shaded lanes code[k] (entry * 4 + lane, corner
 * order) of the cache, those their shader discarded left out; false
 * (nothing written) when the nearest was discarded. */
static inline bool bilinear_mix(const shading_cache *c, const int32_t code[4], int32_t wx, int32_t wy,
                                uint32_t *color)
{
    if (c->discard[code[bilinear_nearest(wx, wy)]]) return false;
    unsigned keep = 0;
    for (int k = 0; k < 4; k++) keep |= (unsigned)!c->discard[code[k]] << k;
    *color = bilinear_blend(c->rgba, code, wx, wy, keep);
    return true;
}

#endif
