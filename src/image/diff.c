/* diff.c — image comparison: PSNR, largest channel difference, differing pixel count, mean SSIM.
 * Fed by `mosaic diff`, the blur bench and the image tests (golden images, test_image); see image.h. */
#include "image/image.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Both images there, not empty, of one size, and somewhere for the result (OUT): MOS_OK, or the failure
 * with "WHO: ..." or the sizes in ERR. */
static mos_result check_pair(const char *who, const img_rgba8 *a, const img_rgba8 *b, const void *out, char *err,
                             size_t err_size)
{
    if (!a || !b || !out || !a->pixels || !b->pixels || a->width <= 0 || a->height <= 0) {
        if (err && err_size)
            snprintf(err, err_size, "%s: missing or empty image", who);
        return MOS_ERR_INVALID_ARGUMENT;
    }
    if (a->width != b->width || a->height != b->height) {
        if (err && err_size)
            snprintf(err, err_size, "image sizes differ: %dx%d vs %dx%d", a->width, a->height,
                     b->width, b->height);
        return MOS_ERR_BAD_SIZE;
    }
    return MOS_OK;
}

mos_result img_diff(const img_rgba8 *a, const img_rgba8 *b, int with_alpha, img_diff_result *out,
                    char *err, size_t err_size)
{
    const mos_result res = check_pair("img_diff", a, b, out, err, err_size);
    if (res != MOS_OK)
        return res;
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

/* ---- SSIM ------------------------------------------------------------------
 * Wang, Bovik, Sheikh, Simoncelli 2004: each of R, G and B separately, an 11 x 11 Gaussian window
 * (sigma 1.5, weights summing to 1) at every position where it lies inside the image, K1 = 0.01,
 * K2 = 0.03, L = 255; the result is the mean over those positions and the three channels.  The
 * window is separable: each image row is filtered across once (5 moments into a ring of 11 rows),
 * then each output row down the ring. */
#define SSIM_WIN 11
#define SSIM_MOMENTS 5  /* x, y, x^2, y^2, x y */
static const double ssim_c1 = (0.01 * 255.0) * (0.01 * 255.0);
static const double ssim_c2 = (0.03 * 255.0) * (0.03 * 255.0);

/* SSIM of one window from the weighted means MX, MY and second moments XX, YY, XY. */
static double ssim_window(double mx, double my, double xx, double yy, double xy)
{
    const double vx = xx - mx * mx, vy = yy - my * my, cxy = xy - mx * my;
    return (2.0 * mx * my + ssim_c1) * (2.0 * cxy + ssim_c2) /
           ((mx * mx + my * my + ssim_c1) * (vx + vy + ssim_c2));
}

/* Images under the window's side: one window over the whole image, every pixel weighted alike. */
static double ssim_whole(const img_rgba8 *a, const img_rgba8 *b)
{
    const size_t count = (size_t)a->width * (size_t)a->height;
    double sum = 0.0;
    for (int c = 0; c < 3; c++) {
        double m[SSIM_MOMENTS] = { 0 };
        for (size_t i = 0; i < count; i++) {
            const double x = a->pixels[4 * i + (size_t)c], y = b->pixels[4 * i + (size_t)c];
            m[0] += x, m[1] += y, m[2] += x * x, m[3] += y * y, m[4] += x * y;
        }
        for (int q = 0; q < SSIM_MOMENTS; q++)
            m[q] /= (double)count;
        sum += ssim_window(m[0], m[1], m[2], m[3], m[4]);
    }
    return sum / 3.0;
}

/* The 5 moments of row Y of channel C filtered across by G into ROW (SSIM_MOMENTS x OW, moment-major). */
static void ssim_row(const img_rgba8 *a, const img_rgba8 *b, int c, int y, const double *g, double *row, int ow)
{
    const uint8_t *pa = a->pixels + (size_t)y * (size_t)a->width * 4 + (size_t)c;
    const uint8_t *pb = b->pixels + (size_t)y * (size_t)b->width * 4 + (size_t)c;
    for (int x = 0; x < ow; x++) {
        double m[SSIM_MOMENTS] = { 0 };
        for (int i = 0; i < SSIM_WIN; i++) {
            const double u = pa[4 * (size_t)(x + i)], v = pb[4 * (size_t)(x + i)], w = g[i];
            m[0] += w * u, m[1] += w * v, m[2] += w * (u * u), m[3] += w * (v * v), m[4] += w * (u * v);
        }
        for (int q = 0; q < SSIM_MOMENTS; q++)
            row[(size_t)q * (size_t)ow + (size_t)x] = m[q];
    }
}

mos_result img_ssim(const img_rgba8 *a, const img_rgba8 *b, double *ssim, char *err, size_t err_size)
{
    const mos_result res = check_pair("img_ssim", a, b, ssim, err, err_size);
    if (res != MOS_OK)
        return res;
    if (a->width < SSIM_WIN || a->height < SSIM_WIN) {
        *ssim = ssim_whole(a, b);
        return MOS_OK;
    }
    const int ow = a->width - (SSIM_WIN - 1), oh = a->height - (SSIM_WIN - 1);
    const size_t row_doubles = (size_t)SSIM_MOMENTS * (size_t)ow;
    double *ring = malloc(SSIM_WIN * row_doubles * sizeof *ring);
    if (!ring) {
        if (err && err_size)
            snprintf(err, err_size, "img_ssim: out of memory");
        return MOS_ERR_OUT_OF_MEMORY;
    }
    double g[SSIM_WIN], gsum = 0.0;
    for (int i = 0; i < SSIM_WIN; i++) {
        const double d = i - (SSIM_WIN - 1) / 2;
        gsum += g[i] = exp(-d * d / (2.0 * 1.5 * 1.5));
    }
    for (int i = 0; i < SSIM_WIN; i++)
        g[i] /= gsum;
    double sum = 0.0;
    for (int c = 0; c < 3; c++) {
        for (int y = 0; y < a->height; y++) {
            ssim_row(a, b, c, y, g, ring + (size_t)(y % SSIM_WIN) * row_doubles, ow);
            if (y < SSIM_WIN - 1)
                continue;
            const int top = y - (SSIM_WIN - 1);  /* the output row: rows top .. y */
            for (int x = 0; x < ow; x++) {
                double m[SSIM_MOMENTS] = { 0 };
                for (int j = 0; j < SSIM_WIN; j++) {
                    const double *r = ring + (size_t)((top + j) % SSIM_WIN) * row_doubles + (size_t)x;
                    for (int q = 0; q < SSIM_MOMENTS; q++)
                        m[q] += g[j] * r[(size_t)q * (size_t)ow];
                }
                sum += ssim_window(m[0], m[1], m[2], m[3], m[4]);
            }
        }
    }
    free(ring);
    *ssim = sum / (3.0 * (double)ow * (double)oh);
    return MOS_OK;
}

void img_format_psnr(double psnr_db, char *buf, size_t size)
{
    if (isinf(psnr_db) && psnr_db > 0)
        snprintf(buf, size, "inf");
    else
        snprintf(buf, size, "%.4f", psnr_db);
}
