/* read.c — image input: the formats Mosaic documents (PNG, JPEG, TGA), told
 * apart by their signature before any decoder runs, size-capped, decoded to
 * RGBA8 by stb_image.  Fed by `mosaic diff` and scene textures; see image.h.
 *
 * stb_image knows more formats (PNM, HDR, PSD, PIC, GIF, BMP) than Mosaic
 * trusts it with: some of its decoders over-read, hang or allocate gigabytes
 * on hostile files, so they are never reached.  The width and height are
 * read from the header and checked against the caps before decoding. */
#include "image/image.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* The implementation lives in libstb (-lstb): no STB_IMAGE_IMPLEMENTATION here. */
#include <stb_image.h>

static mos_result img_fail(char *err, size_t err_size, mos_result code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
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

/* A TGA has no signature: its 18-byte header must describe an image stb
 * decodes (colour-mapped, true-colour or grey, raw or RLE) with a sane
 * colour map and pixel depth. */
static bool is_tga(const uint8_t *d, size_t n)
{
    if (n < 18) return false;
    int cmap_type = d[1], type = d[2], cmap_bits = d[7], bpp = d[16];
    int width = d[12] | d[13] << 8, height = d[14] | d[15] << 8;
    bool mapped = type == 1 || type == 9;
    if (!(mapped || type == 2 || type == 3 || type == 10 || type == 11)) return false;
    if (cmap_type != (mapped ? 1 : 0)) return false;
    if (mapped && (bpp != 8 || (cmap_bits != 15 && cmap_bits != 16 && cmap_bits != 24 && cmap_bits != 32)))
        return false;
    if (!mapped && bpp != 8 && bpp != 15 && bpp != 16 && bpp != 24 && bpp != 32) return false;
    return width > 0 && height > 0;
}

static const char *img_format(const uint8_t *d, size_t n, const char *name)
{
    static const uint8_t png[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    if (n >= 8 && !memcmp(d, png, 8)) return "PNG";
    if (n >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff) return "JPEG";
    /* Only a file named *.tga is taken for one: a header check alone
     * would accept many other files. */
    size_t len = name ? strlen(name) : 0;
    if (len >= 4 && !strcasecmp(name + len - 4, ".tga") && is_tga(d, n)) return "TGA";
    return NULL;
}

mos_result img_decode(const uint8_t *data, size_t size, const char *name, img_rgba8 *out, char *err,
                      size_t err_size)
{
    if (out) memset(out, 0, sizeof *out);
    if (!data || !name || !out)
        return img_fail(err, err_size, MOS_ERR_INVALID_ARGUMENT, "img_decode: %s is missing",
                        !out ? "output image" : !name ? "name" : "data");
    const char *format = img_format(data, size, name);
    if (!format)
        return img_fail(err, err_size, MOS_ERR_PARSE,
                        "%s: not a PNG, JPEG or TGA image (the formats Mosaic reads)", name);
    if (size > INT_MAX)
        return img_fail(err, err_size, MOS_ERR_BAD_SIZE, "%s: file of %zu bytes is too large", name, size);
    int w = 0, h = 0, comp = 0;
    if (!stbi_info_from_memory(data, (int)size, &w, &h, &comp) || w <= 0 || h <= 0)
        return img_fail(err, err_size, MOS_ERR_PARSE, "%s: malformed %s header", name, format);
    if (w > IMG_MAX_SIDE || h > IMG_MAX_SIDE || (uint64_t)w * (uint64_t)h > IMG_MAX_PIXELS)
        return img_fail(err, err_size, MOS_ERR_BAD_SIZE,
                        "%s: %s of %dx%d pixels is larger than Mosaic reads (at most %dx%d and %d megapixels)",
                        name, format, w, h, IMG_MAX_SIDE, IMG_MAX_SIDE, (int)(IMG_MAX_PIXELS >> 20));

    int dw = 0, dh = 0;
    uint8_t *px = stbi_load_from_memory(data, (int)size, &dw, &dh, &comp, 4);
    if (!px) {
        const char *why = stbi_failure_reason();
        if (why && strcmp(why, "outofmem") == 0)
            return img_fail(err, err_size, MOS_ERR_OUT_OF_MEMORY, "%s: out of memory (%dx%d)", name, w, h);
        return img_fail(err, err_size, MOS_ERR_PARSE, "%s: corrupt %s data (%s)", name, format,
                        why ? why : "unknown reason");
    }
    if (dw != w || dh != h) {
        stbi_image_free(px);
        return img_fail(err, err_size, MOS_ERR_PARSE, "%s: %s header says %dx%d, data is %dx%d", name, format, w,
                        h, dw, dh);
    }
    /* Hand out memory that img_free (plain free) may release, whatever
     * allocator libstb was built with. */
    size_t bytes = (size_t)w * (size_t)h * 4;
    uint8_t *copy = malloc(bytes);
    if (!copy) {
        stbi_image_free(px);
        return img_fail(err, err_size, MOS_ERR_OUT_OF_MEMORY, "%s: out of memory (%dx%d)", name, w, h);
    }
    memcpy(copy, px, bytes);
    stbi_image_free(px);
    out->width = w;
    out->height = h;
    out->pixels = copy;
    return MOS_OK;
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
