/* png.c — PNG files: atomic RGBA8 writes through stb_image_write, reads through stb_image.
 * Fed by the CLI (render output, diff inputs) and the image tests; see image.h. */
#include "image/image.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The implementations live in libstb (-lstb): no STB_*_IMPLEMENTATION here. */
#include <stb_image.h>
#include <stb_image_write.h>

static mos_result img_fail(char *err, size_t err_size, mos_result code, const char *fmt, ...)
{
    if (err && err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return code;
}

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

/* ---- reading -------------------------------------------------------------- */

mos_result img_read_png(const char *path, img_rgba8 *out, char *err, size_t err_size)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!path || !*path || !out)
        return img_fail(err, err_size, MOS_ERR_INVALID_ARGUMENT, "img_read_png: %s is missing",
                        !out ? "output image" : "input path");

    FILE *f = fopen(path, "rb");
    if (!f)
        return img_fail(err, err_size, MOS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return img_fail(err, err_size, MOS_ERR_IO, "%s: is a directory", path);
    }

    int w = 0, h = 0, comp = 0;
    uint8_t *px = stbi_load_from_file(f, &w, &h, &comp, 4);
    int read_error = ferror(f);
    fclose(f);
    if (!px) {
        const char *why = stbi_failure_reason();
        if (read_error)
            return img_fail(err, err_size, MOS_ERR_IO, "%s: read error", path);
        if (why && strcmp(why, "outofmem") == 0)
            return img_fail(err, err_size, MOS_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
        return img_fail(err, err_size, MOS_ERR_PARSE, "%s: not a readable image (%s)", path,
                        why ? why : "unknown format");
    }
    if (w <= 0 || h <= 0) {
        stbi_image_free(px);
        return img_fail(err, err_size, MOS_ERR_PARSE, "%s: empty image", path);
    }
    /* Hand out memory that img_free (plain free) may release, whatever
     * allocator libstb was built with. */
    size_t bytes = (size_t)w * (size_t)h * 4;
    uint8_t *copy = malloc(bytes);
    if (!copy) {
        stbi_image_free(px);
        return img_fail(err, err_size, MOS_ERR_OUT_OF_MEMORY, "%s: out of memory (%dx%d)", path,
                        w, h);
    }
    memcpy(copy, px, bytes);
    stbi_image_free(px);
    out->width = w;
    out->height = h;
    out->pixels = copy;
    return MOS_OK;
}

void img_free(img_rgba8 *img)
{
    if (!img)
        return;
    free(img->pixels);
    img->pixels = NULL;
    img->width = img->height = 0;
}
