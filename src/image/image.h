/* image.h — RGBA8 images on disk (PNG out; PNG, JPEG, TGA in) and image comparison (PSNR, max diff, SSIM).
 * Fed by the CLI (render output, `mosaic diff`) and the image tests. */
#ifndef MOSAIC_IMAGE_H
#define MOSAIC_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic.h"

/* An RGBA8 image, rows top first, tightly packed (row bytes = 4 * width). */
typedef struct img_rgba8 {
    int width, height;
    uint8_t *pixels;
} img_rgba8;

/* ---- all-or-nothing output files (file.c) ----------------------------------
 * A regular file is written to a temporary file in the same directory
 * ("DIR/.NAME.tmp-PID-N") that is renamed over PATH only once complete, so a
 * failure leaves no file and no damaged old file.  A symlink is followed (the
 * file it names is replaced).  Special files (/dev/null, FIFOs) are written
 * directly, never replaced. */
typedef struct img_file {
    int fd;
    int direct;  /* writing straight into a special file */
    int error;   /* first errno of a failed write, 0 = none */
    const char *path;
    char target[4096];
    char temp[4200];
} img_file;

/* 0, or -1 with "PATH: message" in ERR (nothing created). */
int img_file_begin(img_file *f, const char *path, char *err, size_t err_size);
/* Errors are remembered and reported by img_file_commit. */
void img_file_write(img_file *f, const void *data, size_t size);
/* Closes and renames into place: 0, or -1 with ERR set (temporary removed). */
int img_file_commit(img_file *f, char *err, size_t err_size);
/* Closes and removes the temporary file. */
void img_file_abort(img_file *f);
/* All of the above for one buffer. */
int img_write_file(const char *path, const void *data, size_t size, char *err, size_t err_size);

/* ---- PNG (png.c) ------------------------------------------------------------ */

/* Writes an RGBA8 PNG.  ROWS holds HEIGHT rows of 4 * WIDTH bytes, top row
 * first, ROW_BYTES apart (>= 4 * width), through img_file: all or nothing.
 * Returns MOS_OK, or MOS_ERR_INVALID_ARGUMENT / MOS_ERR_BAD_SIZE /
 * MOS_ERR_OUT_OF_MEMORY / MOS_ERR_IO with "PATH: message" in ERR. */
mos_result img_write_png(const char *path, int width, int height, const uint8_t *rows,
                         size_t row_bytes, char *err, size_t err_size);

/* ---- input (read.c) ------------------------------------------------------------
 * PNG (8 and 16 bits), JPEG (baseline, progressive) and TGA (a file named
 * *.tga whose header checks out), recognised by their first bytes; anything
 * else is refused before a decoder sees it.  At most IMG_MAX_SIDE pixels a
 * side, IMG_MAX_PIXELS in all and IMG_MAX_FILE_BYTES of file. */
#define IMG_MAX_SIDE 16384
#define IMG_MAX_PIXELS ((uint64_t)1 << 26)     /* 64 Mpixels: 256 MiB as RGBA8 */
#define IMG_MAX_FILE_BYTES ((size_t)1 << 28)  /* 256 MiB */

/* Decodes the image file held in DATA[SIZE] as RGBA8; NAME is the file's
 * name (for messages and the TGA rule).  On success fills OUT (free with
 * img_free); on failure OUT is zeroed and ERR holds "NAME: reason":
 * MOS_ERR_PARSE (not one of the formats, malformed), MOS_ERR_BAD_SIZE (over
 * a cap), MOS_ERR_OUT_OF_MEMORY. */
mos_result img_decode(const uint8_t *data, size_t size, const char *name, img_rgba8 *out, char *err,
                      size_t err_size);
/* img_decode of the file at PATH; MOS_ERR_IO when it cannot be read. */
mos_result img_read(const char *path, img_rgba8 *out, char *err, size_t err_size);
void img_free(img_rgba8 *img);

/* ---- comparison (diff.c) ---------------------------------------------------- */

/* Comparison of two images of one size. */
typedef struct img_diff_result {
    double psnr_db;           /* 10 log10(255^2 / MSE); +INFINITY when identical */
    double mse;               /* mean squared channel difference */
    int max_abs;              /* largest absolute channel difference, 0..255 */
    uint64_t differing_pixels;/* pixels where any compared channel differs */
    uint64_t pixel_count;
} img_diff_result;

/* Compares A and B over R, G, B and, when WITH_ALPHA, A.  Returns
 * MOS_ERR_BAD_SIZE (with a message naming both sizes) when the sizes differ,
 * MOS_ERR_INVALID_ARGUMENT on NULL or empty images. */
mos_result img_diff(const img_rgba8 *a, const img_rgba8 *b, int with_alpha, img_diff_result *out,
                    char *err, size_t err_size);

/* The mean SSIM of A and B (Wang et al. 2004) into *SSIM: each of R, G and B on its own (alpha is
 * left out), an 11 x 11 Gaussian window of sigma 1.5 at every position wholly inside the image,
 * K1 = 0.01, K2 = 0.03, L = 255, in double; the mean over the positions and the three channels.
 * Exactly 1 when the images are equal; at most 1, and below 0 only for anti-correlated images.  An
 * image narrower or lower than 11 pixels is one window: the whole image, its pixels weighted alike.
 * No downsampling first (Wang's later ssim.m shrinks images over 256 pixels; this does not).
 * Errors as img_diff's, and MOS_ERR_OUT_OF_MEMORY. */
mos_result img_ssim(const img_rgba8 *a, const img_rgba8 *b, double *ssim, char *err, size_t err_size);

/* Formats a PSNR the way the tools print it: "inf" or "%.4f". */
void img_format_psnr(double psnr_db, char *buf, size_t size);

#endif
