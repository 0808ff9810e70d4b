/* rank_tiles.h — which screen tiles each MPI rank of mosaic-mpi renders, and their pixels packed for the gather.
 * Fed by main.c (grid, rank pattern, image rows); no MPI here, so the layout can be read and tested alone. */
#ifndef MOSAIC_MPI_RANK_TILES_H
#define MOSAIC_MPI_RANK_TILES_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic.h"

#define RANK_TILE_DEFAULT 128  /* pixels: 8 x 8 bins of 16, the order of a coarse tile */
/* The default rank pattern, measured: per-tile cost (MOS_INSPECT_BINS bin
 * times, 1080p, 4 spp, 128 px tiles) of the default, blur, engine and herd
 * scenes summed per rank for 2, 3, 4, 8 and 16 ranks; vdc had the lowest
 * load cv over ranks on average (0.14; xshift-offset 0.15, hilbert 0.18,
 * diagonal 0.22, prut 0.31), and it takes any rank count (g80 needs 6). */
#define RANK_PATTERN_DEFAULT "vdc"

/* The screen cut into tiles of tile_px pixels (tile (0, 0) the lower-left, as
 * the bin grid and mos_frame_desc.tile_mask), each owned by one rank. */
typedef struct rank_tiles {
    int width, height, tile_px, tiles_x, tiles_y, ranks;
    uint16_t *owner;  /* [ty * tiles_x + tx]: the rank */
} rank_tiles;

/* tile_px rounded up to a multiple of bin_px (and at least bin_px). */
int rank_tile_px(int want, int bin_px);

/* Builds the ownership with the worker-pattern registry's NAME (pattern.h:
 * NAME, NAME:SEED or file:PATH) for RANKS "workers" over the tile grid.
 * MOS_OK, or the registry's error with its message in ERR. */
mos_result rank_tiles_build(rank_tiles *t, const char *name, int ranks, int width, int height, int tile_px, char *err,
                            size_t err_size);
void rank_tiles_free(rank_tiles *t);

/* RANK's tile mask (one byte per tile, as mos_frame_desc.tile_mask) into MASK. */
void rank_tiles_mask(const rank_tiles *t, int rank, uint8_t *mask);
/* Tiles RANK owns, and the bytes its packed pixels take. */
int rank_tiles_count(const rank_tiles *t, int rank);
size_t rank_tiles_bytes(const rank_tiles *t, int rank);

/* Packs RANK's tiles out of IMAGE (RGBA8 rows top first, width * 4 bytes a
 * row) into OUT (rank_tiles_bytes): its tiles in tile order, each tile's
 * rows bottom up, clipped to the screen.  rank_tiles_unpack is the inverse
 * into IMAGE. */
void rank_tiles_pack(const rank_tiles *t, int rank, const uint8_t *image, uint8_t *out);
void rank_tiles_unpack(const rank_tiles *t, int rank, const uint8_t *in, uint8_t *image);

#endif
