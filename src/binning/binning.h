/* binning.h — two-level binning (seed 004) on the front-end thread.
 * The coarse pass encodes, per batch, which coarse tiles each triangle
 * overlaps; the first K triangles (API order) that overlap the first coarse
 * tile also go to a self-contained early-draw buffer that the fine pass
 * consumes while the coarse pass still runs, closed by a guard token.  The
 * fine pass then replays each coarse tile in order into fine bins and pushes
 * each bin's triangles to the worker that owns the bin.
 * Fed by the front-end loop (frontend.c); feeds the workers' FIFOs. */
#ifndef MOSAIC_BINNING_H
#define MOSAIC_BINNING_H

#include <stdbool.h>
#include <stdint.h>

#include "frontend/frontend.h"

struct sched;

/* Coarse-buffer entry: the coarse-tile rectangle of one triangle, 16-bit
 * tile coordinates; the triangle is implicit (its position in the batch).
 * Entries decode into per-tile lists only once the pass is complete. */
typedef struct coarse_rect {
    uint16_t tx0, ty0, tx1, ty1;
} coarse_rect;

/* The early-draw buffer: up to `capacity` triangles, then a guard token. */
typedef struct early_draw_buffer {
    const fe_tri **tris;
    uint32_t count, capacity;
    bool replayed;  /* the fine pass already consumed it */
    bool guard;     /* guard token written: the coarse buffer is complete */
} early_draw_buffer;

typedef struct binner {
    pipe_frame *frame;
    struct sched *sched;
    arena *arena;
    const mos_allocator *allocator;
    int width, height, bin_px, coarse_px;
    int bins_x, bins_y, tiles_x, tiles_y, bins_per_tile;
    uint32_t batch_capacity;
    /* coarse buffer of the current batch */
    const fe_tri **batch_tris;
    coarse_rect *batch_rects;
    uint32_t batch_count;
    early_draw_buffer early;
    /* scratch for decoding and the fine pass (grown, reused across frames) */
    uint32_t *tile_start;    /* tiles + 1 */
    const fe_tri **tile_tris;  /* decoded coarse buffer: triangles per tile */
    uint32_t *bin_count;     /* bins_per_tile^2 */
    uint32_t *pair_bin;      /* fine-pass (bin, triangle) pairs of one tile */
    const fe_tri **pair_tri;
    uint32_t pair_capacity;
    size_t tile_start_capacity, bin_count_capacity, tile_tris_capacity;
    bool out_of_memory;
} binner;

/* Prepares the binner for frame f (sizes scratch).  false: out of memory. */
bool binner_begin_frame(binner *b, pipe_frame *f, struct sched *s, arena *ar, const mos_allocator *a);
void binner_release(binner *b);
/* Coarse pass: adds one set-up triangle in API order.  May run the fine pass
 * on the early-draw buffer, and on the whole batch when the batch is full. */
void binner_add(binner *b, const fe_tri *t);
/* Ends the batch: guard token, then the fine pass over the coarse buffer. */
void binner_flush(binner *b);

/* Fine pass over triangles that all overlap coarse tile (tx, ty): sorts
 * them into the tile's fine bins (API order kept) and dispatches each bin. */
void binner_fine_tile(binner *b, int tx, int ty, const fe_tri *const *tris, uint32_t n);

#endif
