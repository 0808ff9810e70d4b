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

#include "frame/frame.h"
#include "util/alloc.h"

/* Most (triangle, coarse tile) pairs in one batch's coarse buffer (or the
 * tile count, if larger): a fuller batch is flushed early.  Most (triangle,
 * fine bin) pairs the fine pass gathers before dispatching them. */
#define BIN_COARSE_PAIR_CAP ((size_t)1 << 22)
#define BIN_FINE_PAIR_CAP ((uint32_t)1 << 21)
/* Most (triangle, fine bin) pairs one frame may hold in its bin lists:
 * BIN_REFS_PER_BIN full-screen layers or BIN_REFS_MIN, whichever is more.
 * Past it the frame ends with MOS_ERR_OUT_OF_MEMORY, early, before the
 * workers have rasterized billions of pairs. */
#define BIN_REFS_MIN ((uint64_t)1 << 23)
#define BIN_REFS_PER_BIN 16

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
    const frame_dispatch *dispatch;
    arena *arena;
    const mos_allocator *allocator;
    int width, height, bin_px, coarse_px;
    int bin_shift;     /* log2(bin_px) */
    int coarse_shift;  /* log2(coarse_px), or -1 when it is not a power of two */
    int bins_x, bins_y, tiles_x, tiles_y, bins_per_tile;
    uint32_t batch_capacity;
    /* coarse buffer of the current batch */
    const fe_tri **batch_tris;
    coarse_rect *batch_rects;
    uint32_t batch_count;
    uint64_t batch_pairs;   /* (triangle, coarse tile) pairs of the batch */
    uint64_t pair_cap;      /* flush before batch_pairs would pass it */
    early_draw_buffer early;
    /* scratch for decoding and the fine pass (grown, reused across frames) */
    uint32_t *tile_start;    /* tiles + 1 */
    const fe_tri **tile_tris;  /* decoded coarse buffer: triangles per tile */
    uint32_t *bin_count;     /* bins_per_tile^2 */
    uint32_t *pair_bin;      /* fine-pass (bin, triangle) pairs of one tile */
    const fe_tri **pair_tri;
    uint32_t pair_capacity;
    size_t tile_start_capacity, bin_count_capacity, tile_tris_capacity;
    uint64_t bin_ref_limit;
    bool out_of_memory;
    bool over_budget;  /* out_of_memory because of bin_ref_limit */
} binner;

/* Prepares the binner for frame f, whose draws make at most max_tris set-up
 * triangles, to hand bins out through d (sizes scratch).  false: out of
 * memory. */
bool binner_begin_frame(binner *b, pipe_frame *f, const frame_dispatch *d, uint64_t max_tris, arena *ar,
                        const mos_allocator *a);
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
