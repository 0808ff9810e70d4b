/* diff.c — image comparison: PSNR, largest channel difference, differing pixel count.
 * Fed by `mosaic diff` and the image tests (golden images); see image.h. */
#include "image/image.h"

#include <math.h>
#include <stdio.h>

mos_result img_diff(const img_rgba8 *a, const img_rgba8 *b, int with_alpha, img_diff_result *out,
                    char *err, size_t err_size)
{
    if (!a || !b || !out || !a->pixels || !b->pixels || a->width <= 0 || a->height <= 0) {
        if (err && err_size)
            snprintf(err, err_size, "img_diff: missing or empty image");
        return MOS_ERR_INVALID_ARGUMENT;
    }
    if (a->width != b->width || a->height != b->height) {
        if (err && err_size)
            snprintf(err, err_size, "image sizes differ: %dx%d vs %dx%d", a->width, a->height,
                     b->width, b->height);
        return MOS_ERR_BAD_SIZE;
    }
    const int channels = with_alpha ? 4 : 3;
    const uint64_t count = (uint64_t)a->width * (uint64_t)a->height;
    uint64_t sum_sq = 0, differing = 0;
    int max_abs = 0;
    for (uint64_t i = 0; i < count; i++) {
        const uint8_t *pa = a->pixels + 4 * i, *pb = b->pixels + 4 * i;
        int pixel_differs = 0;
        for (int c = 0; c < channels; c++) {
            int d = (int)pa[c] - (int)pb[c];
            if (d < 0)
                d = -d;
            if (d) {
                pixel_differs = 1;
                sum_sq += (uint64_t)(d * d);
                if (d > max_abs)
                    max_abs = d;
            }
        }
        differing += (uint64_t)pixel_differs;
    }
    out->pixel_count = count;
    out->differing_pixels = differing;
    out->max_abs = max_abs;
    out->mse = (double)sum_sq / ((double)count * channels);
    out->psnr_db = sum_sq ? 10.0 * log10(255.0 * 255.0 / out->mse) : INFINITY;
    return MOS_OK;
}

void img_format_psnr(double psnr_db, char *buf, size_t size)
{
    if (isinf(psnr_db) && psnr_db > 0)
        snprintf(buf, size, "inf");
    else
        snprintf(buf, size, "%.4f", psnr_db);
}
