/* samples.c — the per-pixel visibility sample positions for 1..16 spp.
 * Fed by the back-end and raster; positions are the D3D standard MSAA
 * patterns on a 1/16-pixel grid, given relative to the pixel centre. */
#include "raster/raster.h"

static const int8_t pos1[] = {0, 0};
static const int8_t pos2[] = {4, 4, -4, -4};
static const int8_t pos4[] = {-2, -6, 6, -2, -6, 2, 2, 6};
static const int8_t pos8[] = {1, -3, -1, 3, 5, 1, -3, -5, -5, 5, -7, -1, 3, 7, 7, -7};
static const int8_t pos16[] = {1, 1, -1, -3, -3, 2, 4, -1, -5, -2, 2, 5, 5, 3, 3, -5,
                               -2, 6, 0, -7, -4, -6, -6, 4, -8, 0, 7, -4, 6, 7, -7, -8};

bool raster_samples_supported(int spp) { return spp == 1 || spp == 2 || spp == 4 || spp == 8 || spp == 16; }

void raster_samples_get(int spp, raster_samples *out)
{
    const int8_t *p = spp == 2 ? pos2 : spp == 4 ? pos4 : spp == 8 ? pos8 : spp == 16 ? pos16 : pos1;
    out->count = raster_samples_supported(spp) ? spp : 1;
    for (int s = 0; s < out->count; s++) {
        out->dx[s] = RASTER_SUBPIXELS / 2 + p[2 * s] * (RASTER_SUBPIXELS / 16);
        out->dy[s] = RASTER_SUBPIXELS / 2 + p[2 * s + 1] * (RASTER_SUBPIXELS / 16);
        out->fx[s] = (float)out->dx[s] / RASTER_SUBPIXELS;
        out->fy[s] = (float)out->dy[s] / RASTER_SUBPIXELS;
    }
}
