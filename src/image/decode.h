/* decode.h — private to src/image: the image decoders behind img_decode
 * (read.c), one per format, and the error helper the folder shares.  Each
 * decoder checks the size in the header with img_decode_check_size before
 * it allocates the pixels. */
#ifndef MOSAIC_IMAGE_DECODE_H
#define MOSAIC_IMAGE_DECODE_H

#include <stdbool.h>

#include "image/image.h"

/* Formats ERR ("NAME: reason") and returns CODE (defined in read.c). */
mos_result img_fail(char *err, size_t err_size, mos_result code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* MOS_OK, or MOS_ERR_BAD_SIZE / MOS_ERR_PARSE with the caps in ERR. */
mos_result img_decode_check_size(const char *name, const char *format, uint64_t width, uint64_t height, char *err,
                                 size_t err_size);

/* DATA[SIZE] holds a file of the format (its signature checked); on success
 * OUT holds malloc'd RGBA8 pixels, rows top first. */
mos_result img_decode_png(const uint8_t *data, size_t size, const char *name, img_rgba8 *out, char *err,
                          size_t err_size);
mos_result img_decode_jpeg(const uint8_t *data, size_t size, const char *name, img_rgba8 *out, char *err,
                           size_t err_size);
mos_result img_decode_tga(const uint8_t *data, size_t size, const char *name, img_rgba8 *out, char *err,
                          size_t err_size);
/* Whether an 18-byte TGA header describes an image decode_tga reads. */
bool img_is_tga(const uint8_t *d, size_t n);

#endif
