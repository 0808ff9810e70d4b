/* agree.c — image agreement: % of pixels within a tolerance, and whether the differences lie on edges.
 * Fed by one.c (and bench/llvmpipe/lp_main.c) with Mosaic's and llvmpipe's images and llvmpipe's ID render. */
#include "tools/bench/bench.h"

#include <stdlib.h>
#include <string.h>

#include "image/image.h"

static int max_channel_diff(const uint8_t *a, const uint8_t *b)
{
    int m = 0;
    for (int c = 0; c < 4; c++) {
        int d = a[c] > b[c] ? a[c] - b[c] : b[c] - a[c];
        m = d > m ? d : m;
    }
    return m;
}

/* Does the 3x3 neighbourhood of (x, y) hold more than one ID? */
static int on_edge(const uint32_t *ids, int w, int h, int x, int y)
{
    const uint32_t id = ids[(size_t)y * (size_t)w + (size_t)x];
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int xx = x + dx, yy = y + dy;
            if (xx < 0 || yy < 0 || xx >= w || yy >= h)
                continue;
            if (ids[(size_t)yy * (size_t)w + (size_t)xx] != id)
                return 1;
        }
    return 0;
}

void bench_agree(const uint8_t *a, const uint8_t *b, const uint32_t *ids, int width, int height, int tol,
                 bench_agreement *out)
{
    memset(out, 0, sizeof *out);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            const size_t i = (size_t)y * (size_t)width + (size_t)x;
            int d = max_channel_diff(a + 4 * i, b + 4 * i);
            out->pixels++;
            out->max_abs = d > out->max_abs ? d : out->max_abs;
            if (d <= tol) {
                out->agree++;
                continue;
            }
            out->diff++;
            if (!ids || !on_edge(ids, width, height, x, y))
                out->diff_off_edge++;
        }
}

int bench_write_diff_png(const char *path, const uint8_t *a, const uint8_t *b, const uint32_t *ids,
                         int width, int height, int tol, char *err, size_t err_size)
{
    uint8_t *img = malloc((size_t)width * (size_t)height * 4);
    if (!img) {
        snprintf(err, err_size, "%s: out of memory", path);
        return -1;
    }
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            const size_t i = (size_t)y * (size_t)width + (size_t)x;
            uint8_t *p = img + 4 * i;
            const uint8_t *s = a + 4 * i;
            int grey = (s[0] + s[1] + s[2]) / 12;
            p[0] = p[1] = p[2] = (uint8_t)grey;
            p[3] = 255;
            if (max_channel_diff(s, b + 4 * i) > tol) {
                int edge = ids && on_edge(ids, width, height, x, y);
                p[0] = 255, p[1] = edge ? 220 : 0, p[2] = 0;
            }
        }
    mos_result r = img_write_png(path, width, height, img, (size_t)width * 4, err, err_size);
    free(img);
    return r == MOS_OK ? 0 : -1;
}
