/* fuzz_image.c — libFuzzer target: image files through img_decode (src/image/read.c): libpng, libjpeg-turbo
 * and stb_image's TGA decoder, compiled in (stb_image_impl.c).  Run by `make fuzz` and test/test_fuzz.sh
 * (replay_main.c without clang).
 *
 * The name matters only to data without a PNG or JPEG signature: such data is decoded as fuzz.tga (a
 * TGA when its header checks out) and as fuzz.png (refused); signed data once.  Seeds are plain files. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "image/image.h"

static void decode(const uint8_t *data, size_t size, const char *name)
{
    img_rgba8 im;
    char err[512];
    mos_result r = img_decode(data, size, name, &im, err, sizeof err);
    if (fuzz_verbose())
        fprintf(stderr, "fuzz_image: %s: %s", name, r == MOS_OK ? "" : err);
    if (r != MOS_OK) {
        if (fuzz_verbose())
            fputc('\n', stderr);
        if (im.pixels || im.width || im.height) {
            fprintf(stderr, "fuzz_image: %s failed (%s) but left an image\n", name, err);
            abort();
        }
        return;
    }
    if (!im.pixels || im.width < 1 || im.height < 1 || im.width > IMG_MAX_SIDE || im.height > IMG_MAX_SIDE ||
        (uint64_t)im.width * (uint64_t)im.height > IMG_MAX_PIXELS) {
        fprintf(stderr, "fuzz_image: %s decoded to %dx%d\n", name, im.width, im.height);
        abort();
    }
    if (fuzz_verbose())
        fprintf(stderr, "%dx%d\n", im.width, im.height);
    img_free(&im);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t png[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    bool signed_data = (size >= 8 && !memcmp(data, png, 8)) ||
                       (size >= 3 && data[0] == 0xff && data[1] == 0xd8 && data[2] == 0xff);
    decode(data, size, "fuzz.tga");
    if (!signed_data)
        decode(data, size, "fuzz.png");
    return 0;
}
