/* rank_tiles.c — the rank level of the pattern table: screen tiles -> ranks, masks and packed tile pixels.
 * Fed by main.c; builds its table with the worker patterns' registry (pattern/pattern.h), ranks as workers. */
#include "tools/mpi/rank_tiles.h"

#include <stdlib.h>
#include <string.h>

#include "pattern/pattern.h"

int rank_tile_px(int want, int bin_px)
{
    if (want < bin_px) return bin_px;
    return (want + bin_px - 1) / bin_px * bin_px;
}

mos_result rank_tiles_build(rank_tiles *t, const char *name, int ranks, int width, int height, int tile_px, char *err,
                            size_t err_size)
{
    memset(t, 0, sizeof *t);
    t->width = width;
    t->height = height;
    t->tile_px = tile_px;
    t->tiles_x = (width + tile_px - 1) / tile_px;
    t->tiles_y = (height + tile_px - 1) / tile_px;
    t->ranks = ranks;
    pattern_table pt = {0};
    mos_result r = pattern_build(&pt, name, ranks, t->tiles_x, t->tiles_y, NULL, err, err_size);
    if (r != MOS_OK) return r;
    size_t n = (size_t)t->tiles_x * (size_t)t->tiles_y;
    t->owner = malloc(n * sizeof *t->owner);
    if (t->owner) memcpy(t->owner, pt.owner, n * sizeof *t->owner);
    pattern_free(&pt, NULL);
    return t->owner ? MOS_OK : MOS_ERR_OUT_OF_MEMORY;
}

void rank_tiles_free(rank_tiles *t)
{
    free(t->owner);
    memset(t, 0, sizeof *t);
}

void rank_tiles_mask(const rank_tiles *t, int rank, uint8_t *mask)
{
    for (int k = 0; k < t->tiles_x * t->tiles_y; k++) mask[k] = t->owner[k] == rank;
}

int rank_tiles_count(const rank_tiles *t, int rank)
{
    int n = 0;
    for (int k = 0; k < t->tiles_x * t->tiles_y; k++) n += t->owner[k] == rank;
    return n;
}

/* Tile k's pixel rectangle [x0, x1) x [y0, y1), window rows (bottom up). */
static void tile_rect(const rank_tiles *t, int k, int *x0, int *y0, int *x1, int *y1)
{
    *x0 = k % t->tiles_x * t->tile_px;
    *y0 = k / t->tiles_x * t->tile_px;
    *x1 = *x0 + t->tile_px < t->width ? *x0 + t->tile_px : t->width;
    *y1 = *y0 + t->tile_px < t->height ? *y0 + t->tile_px : t->height;
}

size_t rank_tiles_bytes(const rank_tiles *t, int rank)
{
    size_t bytes = 0;
    for (int k = 0; k < t->tiles_x * t->tiles_y; k++) {
        if (t->owner[k] != rank) continue;
        int x0, y0, x1, y1;
        tile_rect(t, k, &x0, &y0, &x1, &y1);
        bytes += (size_t)(x1 - x0) * (size_t)(y1 - y0) * 4;
    }
    return bytes;
}

/* Copies RANK's tiles between the packed buffer and the image (rows top first). */
static void walk(const rank_tiles *t, int rank, uint8_t *packed, uint8_t *image, int to_image)
{
    const size_t row_bytes = (size_t)t->width * 4;
    for (int k = 0; k < t->tiles_x * t->tiles_y; k++) {
        if (t->owner[k] != rank) continue;
        int x0, y0, x1, y1;
        tile_rect(t, k, &x0, &y0, &x1, &y1);
        const size_t n = (size_t)(x1 - x0) * 4;
        for (int y = y0; y < y1; y++) {
            uint8_t *px = image + (size_t)(t->height - 1 - y) * row_bytes + (size_t)x0 * 4;
            if (to_image)
                memcpy(px, packed, n);
            else
                memcpy(packed, px, n);
            packed += n;
        }
    }
}

void rank_tiles_pack(const rank_tiles *t, int rank, const uint8_t *image, uint8_t *out)
{
    walk(t, rank, out, (uint8_t *)image, 0);
}

void rank_tiles_unpack(const rank_tiles *t, int rank, const uint8_t *in, uint8_t *image)
{
    walk(t, rank, (uint8_t *)in, image, 1);
}
