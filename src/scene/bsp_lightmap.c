/* bsp_lightmap.c — a Quake 3 map's lightmaps (lump 14: 128 x 128 RGB8 each) packed into one image, and the
 * place in it of every face's light: a lightmapped face's lightmap coordinates moved into its tile, a
 * vertex-lit face (no lightmap: models, some effects) given a small block of its vertices' mean colour.
 * Fed by bsp.c with the lump and the faces; its image becomes the map objects' texture unit 1 (parse.c),
 * drawn by the built-in "lightmapped" shader.
 *
 * Lightmap texels are shifted as the game does (R_ColorShiftLightingBytes, r_mapOverBrightBits 2 on a
 * display with r_overBrightBits 1): doubled, and a texel that would pass 255 is scaled down to keep its
 * hue; the shader doubles again and saturates, as the game's overbright display does.  Vertex colours
 * are shifted and halved there (identityLight), so a block holds them as they are. */
#include <stdlib.h>
#include <string.h>

#include "scene/scene_priv.h"

#define TILE 128                     /* a lightmap's side */
#define LUMP_LIGHTMAP_BYTES (TILE * TILE * 3)
#define BLOCK 4                      /* a vertex-lit face's block: its colour holds for mip levels 0..2 */
#define BLOCKS_PER_TILE ((TILE / BLOCK) * (TILE / BLOCK))
#define MAX_TILES 4096               /* 8192 x 8192 texels */

/* One RGB lighting colour shifted as the game does: doubled, scaled down to 255 at most keeping hue. */
static void color_shift(const uint8_t in[3], uint8_t out[4])
{
    unsigned r = (unsigned)in[0] << 1, g = (unsigned)in[1] << 1, b = (unsigned)in[2] << 1;
    unsigned max = r > g ? r : g;
    max = max > b ? max : b;
    if (max > 255) {
        r = r * 255 / max;
        g = g * 255 / max;
        b = b * 255 / max;
    }
    out[0] = (uint8_t)r, out[1] = (uint8_t)g, out[2] = (uint8_t)b, out[3] = 255;
}

mos_result scene_bsp_atlas_init(scene_bsp_atlas *a, const uint8_t *lump, size_t bytes, uint32_t vertex_lit,
                                const char **why)
{
    memset(a, 0, sizeof *a);
    if (bytes % LUMP_LIGHTMAP_BYTES) {
        *why = "corrupt: the lightmaps lump is not a whole number of 128 x 128 RGB lightmaps";
        return MOS_ERR_PARSE;
    }
    const uint64_t maps = bytes / LUMP_LIGHTMAP_BYTES;
    const uint64_t tiles = maps + (vertex_lit + BLOCKS_PER_TILE - 1) / BLOCKS_PER_TILE;
    if (tiles > MAX_TILES) {
        *why = "too many lightmaps (more than 4096)";
        return MOS_ERR_PARSE;
    }
    if (tiles == 0)
        return MOS_OK;  /* no light at all: the map is drawn without lightmaps */
    int cols = 1;
    while ((uint64_t)cols * (uint64_t)cols < tiles)
        cols *= 2;
    const int rows = (int)((tiles + (uint64_t)cols - 1) / (uint64_t)cols);
    a->width = cols * TILE;
    a->height = rows * TILE;
    a->cols = cols;
    a->maps = (int)maps;
    a->block_cap = vertex_lit;
    a->rgba = calloc((size_t)a->width * (size_t)a->height, 4);
    if (!a->rgba) {
        *why = "out of memory (lightmaps)";
        return MOS_ERR_OUT_OF_MEMORY;
    }
    for (uint64_t m = 0; m < maps; m++) {
        const uint8_t *src = lump + m * LUMP_LIGHTMAP_BYTES;
        const size_t x0 = (size_t)(m % (uint64_t)cols) * TILE, y0 = (size_t)(m / (uint64_t)cols) * TILE;
        for (size_t y = 0; y < TILE; y++)
            for (size_t x = 0; x < TILE; x++)
                color_shift(src + (y * TILE + x) * 3, a->rgba + ((y0 + y) * (size_t)a->width + x0 + x) * 4);
    }
    return MOS_OK;
}

void scene_bsp_atlas_free(scene_bsp_atlas *a)
{
    free(a->rgba);
    memset(a, 0, sizeof *a);
}

/* Texel (x, y) of the atlas (rows top first) as texture coordinates: v = 0 is the bottom row. */
static void atlas_uv(const scene_bsp_atlas *a, float x, float y, float uv[2])
{
    uv[0] = x / (float)a->width;
    uv[1] = 1.0f - y / (float)a->height;
}

void scene_bsp_atlas_uv(const scene_bsp_atlas *a, int lightmap, float s, float t, float uv[2])
{
    const float x0 = (float)((lightmap % a->cols) * TILE), y0 = (float)((lightmap / a->cols) * TILE);
    s = s >= 0.0f ? (s <= 1.0f ? s : 1.0f) : 0.0f;  /* NaN too: 0 */
    t = t >= 0.0f ? (t <= 1.0f ? t : 1.0f) : 0.0f;
    atlas_uv(a, x0 + s * TILE, y0 + t * TILE, uv);
}

void scene_bsp_atlas_block(scene_bsp_atlas *a, const uint8_t rgb[3], float uv[2])
{
    if (a->blocks >= a->block_cap) {  /* more than counted: the light of the first */
        atlas_uv(a, (float)((a->maps % a->cols) * TILE) + 0.5f * BLOCK, (float)((a->maps / a->cols) * TILE) + 0.5f * BLOCK, uv);
        return;
    }
    const int tile = a->maps + (int)(a->blocks / BLOCKS_PER_TILE), in = (int)(a->blocks % BLOCKS_PER_TILE);
    a->blocks++;
    const int x0 = (tile % a->cols) * TILE + (in % (TILE / BLOCK)) * BLOCK;
    const int y0 = (tile / a->cols) * TILE + (in / (TILE / BLOCK)) * BLOCK;
    const uint8_t c[4] = { rgb[0], rgb[1], rgb[2], 255 };  /* rgbGen vertex: shifted, then times the game's
                                                              * identityLight 1/2: the colour as it is */
    for (int y = 0; y < BLOCK; y++)
        for (int x = 0; x < BLOCK; x++)
            memcpy(a->rgba + ((size_t)(y0 + y) * (size_t)a->width + (size_t)(x0 + x)) * 4, c, 4);
    atlas_uv(a, (float)x0 + 0.5f * BLOCK, (float)y0 + 0.5f * BLOCK, uv);
}
