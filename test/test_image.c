/* test_image.c — image comparison's SSIM (img_ssim, image/diff.c) against references that share no code
 * with it: exactly 1 for equal images; the closed form of constant images (the luminance term alone);
 * and a second SSIM written here in plain loops (the 11 x 11 Gaussian recomputed at every position,
 * variances from the deviations, not from the second moments) on random images, within 1e-9.
 * Fed by run.sh. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "image/image.h"

/* Wang et al. 2004's constants, written out again: K1 = 0.01, K2 = 0.03, L = 255. */
#define REF_C1 (2.55 * 2.55)
#define REF_C2 (7.65 * 7.65)

/* A W x H RGBA8 image (malloc'd pixels; alpha 255). */
static img_rgba8 image_new(int w, int h)
{
    img_rgba8 img = { .width = w, .height = h, .pixels = malloc((size_t)w * (size_t)h * 4) };
    if (!img.pixels) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
        img.pixels[4 * i + 3] = 255;
    return img;
}

/* Every pixel R, G, B = RGB. */
static img_rgba8 image_const(int w, int h, const int rgb[3])
{
    img_rgba8 img = image_new(w, h);
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
        for (int c = 0; c < 3; c++)
            img.pixels[4 * i + (size_t)c] = (uint8_t)rgb[c];
    return img;
}

/* Random R, G, B (and random alpha, which SSIM must ignore). */
static img_rgba8 image_random(int w, int h, test_rng *rng)
{
    img_rgba8 img = image_new(w, h);
    for (size_t i = 0; i < (size_t)w * (size_t)h * 4; i++)
        img.pixels[i] = (uint8_t)rng_range(rng, 0, 255);
    return img;
}

/* A with each channel moved by a random amount in -NOISE..NOISE (clamped): like A, not equal to it. */
static img_rgba8 image_noisy(const img_rgba8 *a, int noise, test_rng *rng)
{
    img_rgba8 img = image_new(a->width, a->height);
    for (size_t i = 0; i < (size_t)a->width * (size_t)a->height * 4; i++) {
        int v = a->pixels[i] + rng_range(rng, -noise, noise);
        img.pixels[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
    return img;
}

static double ssim_of(const img_rgba8 *a, const img_rgba8 *b)
{
    double s = NAN;
    char err[256];
    CHECK_OK(img_ssim(a, b, &s, err, sizeof err));
    return s;
}

/* The reference's weight at (I, J) of the window: the Gaussian, or 1 for SMALL images (one window). */
static double ref_weight(int small, int i, int j)
{
    const double dx = i - 5, dy = j - 5;
    return small ? 1.0 : exp(-(dx * dx + dy * dy) / 4.5);
}

/* Channel C of pixel (X, Y) of IMG. */
static double ref_px(const img_rgba8 *img, int x, int y, int c)
{
    return img->pixels[4 * ((size_t)y * (size_t)img->width + (size_t)x) + (size_t)c];
}

/* The reference: for each channel and each position (X, Y) where the 11 x 11 window fits, the
 * window's weights exp(-(dx^2 + dy^2) / (2 * 1.5^2)) over their 2D sum, weighted means, then the
 * weighted variances and covariance from the deviations; the mean over positions and channels.
 * Under 11 pixels a side: one window, the whole image, equal weights. */
static double ssim_reference(const img_rgba8 *a, const img_rgba8 *b)
{
    const int w = a->width, h = a->height;
    const int small = w < 11 || h < 11;
    const int side_x = small ? w : 11, side_y = small ? h : 11;
    double sum = 0.0;
    long windows = 0;
    for (int c = 0; c < 3; c++) {
        for (int y0 = 0; y0 + side_y <= h; y0++) {
            for (int x0 = 0; x0 + side_x <= w; x0++) {
                double wsum = 0.0, mx = 0.0, my = 0.0;
                for (int j = 0; j < side_y; j++)
                    for (int i = 0; i < side_x; i++) {
                        const double wt = ref_weight(small, i, j);
                        wsum += wt;
                        mx += wt * ref_px(a, x0 + i, y0 + j, c);
                        my += wt * ref_px(b, x0 + i, y0 + j, c);
                    }
                mx /= wsum, my /= wsum;
                double vx = 0.0, vy = 0.0, cxy = 0.0;
                for (int j = 0; j < side_y; j++)
                    for (int i = 0; i < side_x; i++) {
                        const double wt = ref_weight(small, i, j);
                        const double ex = ref_px(a, x0 + i, y0 + j, c) - mx, ey = ref_px(b, x0 + i, y0 + j, c) - my;
                        vx += wt * ex * ex;
                        vy += wt * ey * ey;
                        cxy += wt * ex * ey;
                    }
                vx /= wsum, vy /= wsum, cxy /= wsum;
                sum += (2 * mx * my + REF_C1) * (2 * cxy + REF_C2) / ((mx * mx + my * my + REF_C1) * (vx + vy + REF_C2));
                windows++;
            }
        }
    }
    return sum / (double)windows;
}

/* Equal images: exactly 1, random, constant, and under the window's size. */
static void test_ssim_equal(void)
{
    test_rng rng = { 0x55aa1234u };
    static const int sizes[][2] = { { 64, 48 }, { 11, 11 }, { 5, 5 }, { 1, 1 }, { 40, 7 } };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        img_rgba8 a = image_random(sizes[s][0], sizes[s][1], &rng);
        img_rgba8 k = image_const(sizes[s][0], sizes[s][1], (const int[3]){ 0, 128, 255 });
        double sa = ssim_of(&a, &a), sk = ssim_of(&k, &k);
        CHECK_MSG(sa == 1.0, "%dx%d random: %.17g", sizes[s][0], sizes[s][1], sa);
        CHECK_MSG(sk == 1.0, "%dx%d constant: %.17g", sizes[s][0], sizes[s][1], sk);
        free(a.pixels);
        free(k.pixels);
    }
}

/* Constant images P and Q per channel: no variance, no covariance, so only the luminance term is left,
 * (2 p q + C1) / (p^2 + q^2 + C1), averaged over R, G, B; alpha differs and counts for nothing. */
static void test_ssim_constant_offset(void)
{
    static const int cases[][2][3] = {
        { { 100, 100, 100 }, { 110, 110, 110 } },
        { { 0, 0, 0 }, { 255, 255, 255 } },
        { { 10, 200, 30 }, { 20, 180, 90 } },
        { { 0, 50, 255 }, { 0, 51, 200 } },
    };
    static const int sizes[][2] = { { 32, 24 }, { 11, 11 }, { 8, 6 } };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        double expect = 0.0;
        for (int c = 0; c < 3; c++) {
            const double p = cases[k][0][c], q = cases[k][1][c];
            expect += (2 * p * q + REF_C1) / (p * p + q * q + REF_C1) / 3.0;
        }
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            img_rgba8 a = image_const(sizes[s][0], sizes[s][1], cases[k][0]);
            img_rgba8 b = image_const(sizes[s][0], sizes[s][1], cases[k][1]);
            b.pixels[3] = 0;
            const double got = ssim_of(&a, &b);
            CHECK_MSG(fabs(got - expect) < 1e-9, "case %zu at %dx%d: %.12f, expected %.12f", k, sizes[s][0],
                      sizes[s][1], got, expect);
            free(a.pixels);
            free(b.pixels);
        }
    }
}

/* Random images against the plain-loop reference within 1e-9: unrelated images (SSIM near 0), noisy
 * copies (near 1), exactly one window, and images under the window's size. */
static void test_ssim_reference(void)
{
    test_rng rng = { 0x1234567u };
    static const int sizes[][2] = { { 37, 23 }, { 11, 11 }, { 12, 30 }, { 64, 16 }, { 10, 40 }, { 9, 3 } };
    static const int noise[] = { 0, 3, 40 };  /* 0: B unrelated to A */
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (size_t n = 0; n < sizeof noise / sizeof noise[0]; n++) {
            img_rgba8 a = image_random(sizes[s][0], sizes[s][1], &rng);
            img_rgba8 b = noise[n] ? image_noisy(&a, noise[n], &rng) : image_random(sizes[s][0], sizes[s][1], &rng);
            const double got = ssim_of(&a, &b), expect = ssim_reference(&a, &b);
            CHECK_MSG(fabs(got - expect) < 1e-9 && got < 1.0, "%dx%d noise %d: %.15f, reference %.15f",
                      sizes[s][0], sizes[s][1], noise[n], got, expect);
            free(a.pixels);
            free(b.pixels);
        }
    }
}

/* Sizes that differ, missing images and a missing result are refused. */
static void test_ssim_errors(void)
{
    img_rgba8 a = image_const(16, 16, (const int[3]){ 1, 2, 3 }), b = image_const(16, 15, (const int[3]){ 1, 2, 3 });
    double s = 0.0;
    char err[256] = "";
    CHECK_RES(img_ssim(&a, &b, &s, err, sizeof err), MOS_ERR_BAD_SIZE);
    CHECK_MSG(strstr(err, "16x16 vs 16x15") != NULL, "message '%s'", err);
    CHECK_RES(img_ssim(&a, NULL, &s, err, sizeof err), MOS_ERR_INVALID_ARGUMENT);
    CHECK_RES(img_ssim(&a, &a, NULL, err, sizeof err), MOS_ERR_INVALID_ARGUMENT);
    CHECK_RES(img_ssim(&a, &a, &s, NULL, 0), MOS_OK);
    free(a.pixels);
    free(b.pixels);
}

int main(void)
{
    TEST_RUN(test_ssim_equal);
    TEST_RUN(test_ssim_constant_offset);
    TEST_RUN(test_ssim_reference);
    TEST_RUN(test_ssim_errors);
    return TEST_EXIT();
}
