/* read.c — image input: the formats Mosaic documents (PNG, JPEG, TGA), told
 * apart by their first bytes before any decoder runs, then decoded to RGBA8
 * by decode_png.c (libpng), decode_jpeg.c (libjpeg-turbo) or decode_tga.c
 * (stb_image).  Fed by `mosaic diff` and scene textures; see image.h.
 *
 * stb_image knows more formats (PNM, HDR, PSD, PIC, GIF, BMP) than Mosaic
 * trusts it with: Debian's 2.27 over-reads 16-bit PNM, loops forever on a
 * cut Radiance HDR scanline, and its PNG and JPEG decoders trust chunk
 * lengths and Huffman tables (test/fuzz/regress/image), so only its TGA
 * decoder, behind checks of its own, is used. */
#include "image/decode.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

mos_result img_fail(char *err, size_t err_size, mos_result code, const char *fmt, ...)
{
    if (err && err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return code;
}

mos_result img_decode_check_size(const char *name, const char *format, uint64_t width, uint64_t height, char *err,
                                 size_t err_size)
{
    if (width == 0 || height == 0)
        return img_fail(err, err_size, MOS_ERR_PARSE, "%s: %s of %llux%llu pixels is empty", name, format,
                               (unsigned long long)width, (unsigned long long)height);
    if (width > IMG_MAX_SIDE || height > IMG_MAX_SIDE || width * height > IMG_MAX_PIXELS)
        return img_fail(err, err_size, MOS_ERR_BAD_SIZE,
                               "%s: %s of %llux%llu pixels is larger than Mosaic reads (at most %dx%d and %d "
                               "megapixels)",
                               name, format, (unsigned long long)width, (unsigned long long)height, IMG_MAX_SIDE,
                               IMG_MAX_SIDE, (int)(IMG_MAX_PIXELS >> 20));
    return MOS_OK;
}

typedef mos_result (*img_decoder)(const uint8_t *data, size_t size, const char *name, img_rgba8 *out, char *err,
                                  size_t err_size);

/* The decoder of the format DATA's first bytes (and, for a TGA, which has
 * no signature, NAME and a header that checks out) tell; NULL if none. */
static img_decoder img_format(const uint8_t *d, size_t n, const char *name)
{
    static const uint8_t png[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    if (n >= 8 && !memcmp(d, png, 8)) return img_decode_png;
    if (n >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff) return img_decode_jpeg;
    size_t len = strlen(name);
    if (len >= 4 && !strcasecmp(name + len - 4, ".tga") && img_is_tga(d, n)) return img_decode_tga;
    return NULL;
}

mos_result img_decode(const uint8_t *data, size_t size, const char *name, img_rgba8 *out, char *err,
                      size_t err_size)
{
    if (out) memset(out, 0, sizeof *out);
    if (!data || !name || !out)
        return img_fail(err, err_size, MOS_ERR_INVALID_ARGUMENT, "img_decode: %s is missing",
                               !out ? "output image" : !name ? "name" : "data");
    img_decoder decode = img_format(data, size, name);
    if (!decode)
        return img_fail(err, err_size, MOS_ERR_PARSE,
                               "%s: not a PNG, JPEG or TGA image (the formats Mosaic reads)", name);
    return decode(data, size, name, out, err, err_size);
}

mos_result img_read(const char *path, img_rgba8 *out, char *err, size_t err_size)
{
    if (out) memset(out, 0, sizeof *out);
    if (!path || !*path || !out)
        return img_fail(err, err_size, MOS_ERR_INVALID_ARGUMENT, "img_read: %s is missing",
                        !out ? "output image" : "input path");
    FILE *f = fopen(path, "rb");
    if (!f) return img_fail(err, err_size, MOS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return img_fail(err, err_size, MOS_ERR_IO, "%s: is a directory", path);
    }
    /* Read the whole file (up to the cap) whatever stat says: pipes and
     * special files have no size. */
    size_t cap = 0, size = 0;
    uint8_t *data = NULL;
    mos_result r = MOS_OK;
    for (;;) {
        if (size == cap) {
            if (cap == IMG_MAX_FILE_BYTES) {
                if (fgetc(f) != EOF)
                    r = img_fail(err, err_size, MOS_ERR_BAD_SIZE, "%s: larger than %d MiB, the most Mosaic reads",
                                 path, (int)(IMG_MAX_FILE_BYTES >> 20));
                break;
            }
            size_t ncap = cap ? 2 * cap : (size_t)1 << 16;
            if (ncap > IMG_MAX_FILE_BYTES) ncap = IMG_MAX_FILE_BYTES;
            uint8_t *nd = realloc(data, ncap);
            if (!nd) {
                r = img_fail(err, err_size, MOS_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
                break;
            }
            data = nd;
            cap = ncap;
        }
        size_t got = fread(data + size, 1, cap - size, f);
        size += got;
        if (got == 0) break;
    }
    if (r == MOS_OK && ferror(f)) r = img_fail(err, err_size, MOS_ERR_IO, "%s: read error: %s", path, strerror(errno));
    fclose(f);
    if (r == MOS_OK) r = img_decode(data, size, path, out, err, err_size);
    free(data);
    return r;
}

void img_free(img_rgba8 *img)
{
    if (!img) return;
    free(img->pixels);
    img->pixels = NULL;
    img->width = img->height = 0;
}
