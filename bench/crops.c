/* crops.c — one region cut out of several images of a size, side by side left to right with a gap of
 * white pixels: the README's blur crops (truth | decoupled | accumulation).
 *
 *   build/bench-crops --region WxH+X+Y [--gap N] -o OUT.png IN.png...
 *
 * The region must lie inside every input.  Reads and writes through Mosaic's image module
 * (img_read, img_write_png).  Fed by bench/crops.sh, built by `make -f bench/bench.mk crops`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image/image.h"

#define CROPS_MAX_INPUTS 16

static const char crops_usage[] = "usage: bench-crops --region WxH+X+Y [--gap N] -o OUT.png IN.png...\n";

/* The region a cut takes out of each input. */
typedef struct crop_region {
    int w, h, x, y;
} crop_region;

static int usage_error(const char *what)
{
    fprintf(stderr, "bench-crops: %s\n%s", what, crops_usage);
    return 2;
}

/* Copies region R of IN into OUT (OUT_W pixels wide) from column X0 on. */
static void paste(const img_rgba8 *in, crop_region r, uint8_t *out, int out_w, int x0)
{
    for (int row = 0; row < r.h; row++)
        memcpy(out + 4 * ((size_t)row * (size_t)out_w + (size_t)x0),
               in->pixels + 4 * ((size_t)(r.y + row) * (size_t)in->width + (size_t)r.x), 4 * (size_t)r.w);
}

int main(int argc, char **argv)
{
    crop_region r = { 0, 0, -1, -1 };
    int gap = 4, n = 0;
    const char *out_path = NULL, *inputs[CROPS_MAX_INPUTS];
    char extra;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--region") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d+%d+%d%c", &r.w, &r.h, &r.x, &r.y, &extra) != 4 || r.w < 1 ||
                r.h < 1 || r.x < 0 || r.y < 0 || r.w > IMG_MAX_SIDE || r.h > IMG_MAX_SIDE || r.x > IMG_MAX_SIDE ||
                r.y > IMG_MAX_SIDE)
                return usage_error("--region: expected WxH+X+Y (W, H >= 1; X, Y >= 0)");
        } else if (strcmp(argv[i], "--gap") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%d%c", &gap, &extra) != 1 || gap < 0 || gap > 256)
                return usage_error("--gap: expected pixels, 0..256");
        } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            out_path = argv[++i];
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(crops_usage, stdout);
            return 0;
        } else if (argv[i][0] == '-') {
            return usage_error("unknown option or missing value");
        } else if (n < CROPS_MAX_INPUTS) {
            inputs[n++] = argv[i];
        } else {
            return usage_error("too many inputs");
        }
    }
    if (r.x < 0 || !out_path || n == 0)
        return usage_error("--region, -o and at least one input are needed");

    const int out_w = n * r.w + (n - 1) * gap;
    uint8_t *out = malloc(4 * (size_t)out_w * (size_t)r.h);
    if (!out) {
        fprintf(stderr, "bench-crops: out of memory\n");
        return 1;
    }
    memset(out, 255, 4 * (size_t)out_w * (size_t)r.h);  /* the gaps: opaque white */
    char err[1024];
    int rc = 0;
    for (int k = 0; k < n && rc == 0; k++) {
        img_rgba8 in = { 0 };
        if (img_read(inputs[k], &in, err, sizeof err) != MOS_OK) {
            fprintf(stderr, "bench-crops: %s\n", err);
            rc = 2;
        } else if (r.x + r.w > in.width || r.y + r.h > in.height) {
            fprintf(stderr, "bench-crops: %s: region %dx%d+%d+%d is not inside its %dx%d pixels\n", inputs[k], r.w,
                    r.h, r.x, r.y, in.width, in.height);
            rc = 2;
        } else {
            paste(&in, r, out, out_w, k * (r.w + gap));
        }
        img_free(&in);
    }
    if (rc == 0 && img_write_png(out_path, out_w, r.h, out, 4 * (size_t)out_w, err, sizeof err) != MOS_OK) {
        fprintf(stderr, "bench-crops: %s\n", err);
        rc = 1;
    }
    free(out);
    return rc;
}
