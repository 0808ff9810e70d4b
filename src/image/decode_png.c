/* decode_png.c — PNG files to RGBA8 through libpng (Debian's libpng16, fuzzed
 * upstream), its dimensions checked against the caps before any row is read.
 * Fed by read.c (img_decode) with a file already told to be a PNG. */
#include "image/decode.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

typedef struct png_source {
    const uint8_t *data;
    size_t size, at;
} png_source;

/* libpng's error path: the message is kept, then back to the setjmp. */
typedef struct png_failure {
    char message[160];
} png_failure;

static void on_error(png_structp png, png_const_charp msg)
{
    png_failure *f = png_get_error_ptr(png);
    snprintf(f->message, sizeof f->message, "%s", msg ? msg : "error");
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg) { (void)png, (void)msg; }

static void on_read(png_structp png, png_bytep out, png_size_t n)
{
    png_source *s = png_get_io_ptr(png);
    if (n > s->size - s->at) png_error(png, "the file ends early");
    memcpy(out, s->data + s->at, n);
    s->at += n;
}

mos_result img_decode_png(const uint8_t *data, size_t size, const char *name, img_rgba8 *out, char *err,
                          size_t err_size)
{
    png_failure failure = { "" };
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &failure, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return img_fail(err, err_size, MOS_ERR_OUT_OF_MEMORY, "%s: out of memory", name);
    }
    png_source src = { data, size, 0 };
    /* volatile: changed after setjmp, read after a longjmp */
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    mos_result r = MOS_OK;
    if (setjmp(png_jmpbuf(png))) {
        r = img_fail(err, err_size, MOS_ERR_PARSE, "%s: corrupt PNG data (%s)", name, failure.message);
        goto done;
    }
    png_set_read_fn(png, &src, on_read);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    if ((r = img_decode_check_size(name, "PNG", w, h, err, err_size)) != MOS_OK)
        goto done;
    /* Whatever the file holds, 8-bit RGBA: palettes and grey expanded,
     * transparency to alpha, 16 bits scaled (rounded) to 8. */
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4) {
        r = img_fail(err, err_size, MOS_ERR_PARSE, "%s: PNG does not convert to RGBA8", name);
        goto done;
    }
    pixels = malloc((size_t)w * h * 4);
    rows = malloc(h * sizeof *rows);
    if (!pixels || !rows) {
        r = img_fail(err, err_size, MOS_ERR_OUT_OF_MEMORY, "%s: out of memory (%ux%u)", name, (unsigned)w,
                            (unsigned)h);
        goto done;
    }
    for (png_uint_32 y = 0; y < h; y++) rows[y] = pixels + (size_t)y * w * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    out->width = (int)w;
    out->height = (int)h;
    out->pixels = pixels;
    pixels = NULL;
done:
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    free(pixels);
    return r;
}
