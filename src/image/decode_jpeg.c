/* decode_jpeg.c — JPEG files to RGBA8 through libjpeg-turbo (Debian's
 * libjpeg62-turbo, fuzzed upstream), its dimensions checked against the caps
 * before decompression starts.  Fed by read.c with a file told to be a JPEG. */
#include "image/decode.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

/* libjpeg's error manager, extended with the way back to the setjmp. */
typedef struct jpeg_failure {
    struct jpeg_error_mgr mgr;
    jmp_buf back;
    char message[JMSG_LENGTH_MAX];
} jpeg_failure;

static void on_error(j_common_ptr cinfo)
{
    jpeg_failure *f = (jpeg_failure *)cinfo->err;
    f->mgr.format_message(cinfo, f->message);
    longjmp(f->back, 1);
}

static void on_message(j_common_ptr cinfo) { (void)cinfo; }  /* warnings: not on stderr */

/* A progressive JPEG of a few KiB can hold thousands of scans, each a pass
 * over every coefficient of the image: more than JPEG_MAX_SCANS is refused
 * (libjpeg-turbo's own tools stop at 500 too). */
#define JPEG_MAX_SCANS 500
#define JPEG_MAX_MEMORY ((long)1 << 30)

static void on_progress(j_common_ptr cinfo)
{
    if (cinfo->is_decompressor && ((j_decompress_ptr)cinfo)->input_scan_number > JPEG_MAX_SCANS) {
        jpeg_failure *f = (jpeg_failure *)cinfo->err;
        snprintf(f->message, sizeof f->message, "more than %d scans", JPEG_MAX_SCANS);
        longjmp(f->back, 1);
    }
}

mos_result img_decode_jpeg(const uint8_t *data, size_t size, const char *name, img_rgba8 *out, char *err,
                           size_t err_size)
{
    struct jpeg_decompress_struct cinfo;
    memset(&cinfo, 0, sizeof cinfo);  /* jpeg_destroy_decompress after an early failure reads it */
    jpeg_failure failure;
    cinfo.err = jpeg_std_error(&failure.mgr);
    failure.mgr.error_exit = on_error;
    failure.mgr.output_message = on_message;
    uint8_t *volatile pixels = NULL;  /* changed after setjmp, read after a longjmp */
    mos_result r = MOS_OK;
    if (setjmp(failure.back)) {
        r = img_fail(err, err_size, MOS_ERR_PARSE, "%s: corrupt JPEG data (%s)", name, failure.message);
        goto done;
    }
    jpeg_create_decompress(&cinfo);
    struct jpeg_progress_mgr progress = { .progress_monitor = on_progress };
    cinfo.progress = &progress;
    cinfo.mem->max_memory_to_use = JPEG_MAX_MEMORY;
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    if ((r = img_decode_check_size(name, "JPEG", cinfo.image_width, cinfo.image_height, err, err_size)) != MOS_OK)
        goto done;
    cinfo.out_color_space = JCS_EXT_RGBA;  /* libjpeg-turbo: grey and YCbCr to RGBA, alpha 255 */
    jpeg_start_decompress(&cinfo);
    const size_t w = cinfo.output_width, h = cinfo.output_height;
    pixels = malloc(w * h * 4);
    if (!pixels) {
        r = img_fail(err, err_size, MOS_ERR_OUT_OF_MEMORY, "%s: out of memory (%zux%zu)", name, w, h);
        goto done;
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = pixels + (size_t)cinfo.output_scanline * w * 4;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_decompress(&cinfo);
    out->width = (int)w;
    out->height = (int)h;
    out->pixels = pixels;
    pixels = NULL;
done:
    jpeg_destroy_decompress(&cinfo);
    free(pixels);
    return r;
}
