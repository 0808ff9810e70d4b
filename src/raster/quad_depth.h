/* quad_depth.h — the window depth of a quad's covered samples and the early
 * depth test against the target, for the 2D rasterizer (raster_tmp.h):
 * raster_depth_scalar walks the covered slots one by one (the slot tables
 * of raster_view say where each lies), quad_depth_avx2.h does eight slots
 * per instruction with the same bits.  Private to raster/. */
#ifndef MOSAIC_RASTER_QUAD_DEPTH_H
#define MOSAIC_RASTER_QUAD_DEPTH_H

#include "raster/raster.h"

/* Writes the depth of the covered slots of the quad at (qx, qy) to zq and
 * returns `mask` less the slots that fail the early test. */
static inline uint64_t raster_depth_scalar(const raster_view *v, bool test, const frame_tri *t, int qx, int qy,
                                           uint64_t mask, float *zq)
{
    const raster_zslots *zs = &v->zs;
    const int S = zs->spp;
    for (uint64_t left = mask; left; left &= left - 1) {
        int slot = __builtin_ctzll(left), lane = zs->lane_of[slot], s = zs->sample_of[slot];
        int px = qx + (lane & 1), py = qy + (lane >> 1);
        float z = raster_sample_depth(t, v->samples, px, py, s);
        zq[slot] = z;
        if (test) {
            const float *zbuf = v->depth + ((size_t)py * (size_t)v->width + (size_t)px) * (size_t)S;
            if (!(z < zbuf[s])) mask &= ~(1ull << slot);
        }
    }
    return mask;
}

#endif
