/* png.c — PNG output: atomic RGBA8 writes through stb_image_write.
 * Fed by the CLI (render output) and the image tests; see image.h. */
#include "image/decode.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The implementation lives in libstb (-lstb): no STB_IMAGE_WRITE_IMPLEMENTATION here. */
#include <stb_image_write.h>

/* ---- writing -------------------------------------------------------------- */

/* stb hands the encoded bytes to the open img_file. */
static void img_png_sink(void *context, void *data, int size)
{
    if (size > 0)
        img_file_write(context, data, (size_t)size);
}

mos_result img_write_png(const char *path, int width, int height, const uint8_t *rows,
                         size_t row_bytes, char *err, size_t err_size)
{
    if (!path || !*path || !rows)
        return img_fail(err, err_size, MOS_ERR_INVALID_ARGUMENT, "img_write_png: %s is missing",
                        !path || !*path ? "output path" : "pixel data");
    /* stb_image_write sizes its buffers with int: (4 * w + 1) * h must fit. */
    if (width <= 0 || height <= 0 || width > (INT_MAX - 1) / 4 ||
        (long long)(4LL * width + 1) * height > INT_MAX)
        return img_fail(err, err_size, MOS_ERR_BAD_SIZE, "%s: cannot write a %dx%d PNG", path,
                        width, height);
    if (row_bytes < (size_t)width * 4 || row_bytes > INT_MAX)
        return img_fail(err, err_size, MOS_ERR_INVALID_ARGUMENT,
                        "%s: row stride %zu bytes is invalid for width %d", path, row_bytes, width);

    img_file f;
    if (img_file_begin(&f, path, err, err_size) != 0)
        return MOS_ERR_IO;
    if (!stbi_write_png_to_func(img_png_sink, &f, width, height, 4, rows, (int)row_bytes)) {
        img_file_abort(&f);
        return img_fail(err, err_size, MOS_ERR_OUT_OF_MEMORY, "%s: PNG encoder ran out of memory",
                        path);
    }
    if (img_file_commit(&f, err, err_size) != 0)
        return MOS_ERR_IO;
    return MOS_OK;
}
