/* decode_tga.c — TGA files to RGBA8 through stb_image's TGA decoder, behind
 * checks of the header and of the file's length that stb does not make.
 * Fed by read.c with a file named *.tga whose header img_is_tga accepted. */
#include "image/decode.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The implementation lives in libstb (-lstb): no STB_IMAGE_IMPLEMENTATION here. */
#include <stb_image.h>

static unsigned u16le(const uint8_t *d) { return (unsigned)d[0] | (unsigned)d[1] << 8; }

bool img_is_tga(const uint8_t *d, size_t n)
{
    if (n < 18) return false;
    int cmap_type = d[1], type = d[2], cmap_bits = d[7], bpp = d[16];
    bool mapped = type == 1 || type == 9;
    if (!(mapped || type == 2 || type == 3 || type == 10 || type == 11)) return false;
    if (cmap_type != (mapped ? 1 : 0)) return false;
    if (mapped && (bpp != 8 || (cmap_bits != 15 && cmap_bits != 16 && cmap_bits != 24 && cmap_bits != 32)))
        return false;
    if (!mapped && bpp != 8 && bpp != 15 && bpp != 16 && bpp != 24 && bpp != 32) return false;
    return u16le(d + 12) > 0 && u16le(d + 14) > 0;
}

/* stb_image reads zeros past the end of a TGA: 87 bytes declaring 6168x6168
 * pixels decode, slowly, to a black image.  True when the file is long
 * enough for the colour map and the pixels its header declares (RLE: at
 * best one packet of 128 pixels per header byte and pixel value). */
static bool tga_data_complete(const uint8_t *d, size_t n)
{
    uint64_t pixels = (uint64_t)u16le(d + 12) * u16le(d + 14);
    uint64_t bytes = (d[16] + 7u) / 8u, need = 18u + d[0];
    if (d[1]) need += (uint64_t)u16le(d + 5) * ((d[7] + 7u) / 8u);
    need += d[2] >= 9 ? (pixels + 127) / 128 * (1 + bytes) : pixels * bytes;
    return need <= n;
}

mos_result img_decode_tga(const uint8_t *data, size_t size, const char *name, img_rgba8 *out, char *err,
                          size_t err_size)
{
    const unsigned w = u16le(data + 12), h = u16le(data + 14);
    mos_result r = img_decode_check_size(name, "TGA", w, h, err, err_size);
    if (r != MOS_OK) return r;
    if (size > INT_MAX || !tga_data_complete(data, size))
        return img_fail(err, err_size, MOS_ERR_PARSE, "%s: corrupt TGA data (%ux%u pixels need more than %zu bytes)",
                               name, w, h, size);
    int dw = 0, dh = 0, comp = 0;
    uint8_t *px = stbi_load_from_memory(data, (int)size, &dw, &dh, &comp, 4);
    if (!px) {
        const char *why = stbi_failure_reason();
        if (why && strcmp(why, "outofmem") == 0)
            return img_fail(err, err_size, MOS_ERR_OUT_OF_MEMORY, "%s: out of memory (%ux%u)", name, w, h);
        return img_fail(err, err_size, MOS_ERR_PARSE, "%s: corrupt TGA data (%s)", name,
                               why ? why : "unknown reason");
    }
    if ((unsigned)dw != w || (unsigned)dh != h) {
        stbi_image_free(px);
        return img_fail(err, err_size, MOS_ERR_PARSE, "%s: TGA header says %ux%u, data is %dx%d", name, w, h,
                               dw, dh);
    }
    /* Memory that img_free (plain free) may release, whatever allocator
     * libstb was built with. */
    size_t bytes = (size_t)w * h * 4;
    uint8_t *copy = malloc(bytes);
    if (!copy) {
        stbi_image_free(px);
        return img_fail(err, err_size, MOS_ERR_OUT_OF_MEMORY, "%s: out of memory (%ux%u)", name, w, h);
    }
    memcpy(copy, px, bytes);
    stbi_image_free(px);
    out->width = (int)w;
    out->height = (int)h;
    out->pixels = copy;
    return MOS_OK;
}
