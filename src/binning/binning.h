/* binning.h — two-level binning (seed 004), conducted by the front-end
 * thread.  The coarse pass encodes, per batch, which coarse tiles each
 * triangle overlaps; the first K triangles (API order) that overlap the
 * first coarse tile also go to a self-contained early-draw buffer that the
 * fine pass consumes while the coarse pass still runs, closed by a guard
 * token.  The fine pass then sorts each coarse tile's triangles into its
 * fine bins, tiles in parallel (a frame_job the workers help with: each
 * tile's bin lists are its own output), and the front-end pushes each
 * tile's bins, tiles in order, to the workers that own them, so every
 * FIFO receives what a serial pass would have sent it, in the same order.
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
    const frame_tri **tris;
    uint32_t count, capacity;
    bool replayed;  /* the fine pass already consumed it */
    bool guard;     /* guard token written: the coarse buffer is complete */
} early_draw_buffer;

/* One helper's scratch for the fine pass (helper 0 is the front-end,
 * 1 + w worker w): only that helper's thread touches it once the frame's
 * first job is open, and it grows there (kept across frames). */
typedef struct fine_scratch {
    uint32_t *bin_count;     /* bins_per_tile^2 */
    size_t bin_count_capacity;
    uint32_t *pair_bin;      /* (bin, triangle) pairs of one tile */
    const frame_tri **pair_tri;
    uint32_t pair_capacity;
} fine_scratch;

/* One fine bin's triangles (API order), ready for its owner. */
typedef struct fine_item {
    uint32_t bin, count;
    const frame_tri *const *tris;
} fine_item;

/* What the fine pass made of one coarse tile: segments of bins, each at
 * most BIN_FINE_PAIR_CAP pairs (a bin's later items follow its earlier
 * ones), in the helper's arena. */
typedef struct fine_segment {
    struct fine_segment *next;
    uint32_t items, pairs;
    fine_item item[];
} fine_segment;

typedef struct fine_out {
    fine_segment *first, *last;
    bool out_of_memory, over_budget;
} fine_out;

typedef struct binner {
    frame_state *frame;
    const frame_dispatch *dispatch;
    arena *arena;                 /* the front-end's frame arena (helper 0's) */
    arena *const *helper_arenas;  /* per helper: where its fine pass keeps bin lists */
    const mos_allocator *allocator;
    int width, height, bin_px, coarse_px;
    int bin_shift;     /* log2(bin_px) */
    int coarse_shift;  /* log2(coarse_px), or -1 when it is not a power of two */
    int bins_x, bins_y, tiles_x, tiles_y, bins_per_tile;
    uint32_t batch_capacity;
    /* coarse buffer of the current batch */
    const frame_tri **batch_tris;
    coarse_rect *batch_rects;
    uint32_t batch_count;
    uint64_t batch_pairs;   /* (triangle, coarse tile) pairs of the batch */
    uint64_t pair_cap;      /* flush before batch_pairs would pass it */
    early_draw_buffer early;
    /* scratch for decoding and the fine pass (grown, reused across frames) */
    uint32_t *tile_start;    /* tiles + 1 */
    const frame_tri **tile_tris;  /* decoded coarse buffer: triangles per tile */
    size_t tile_start_capacity, tile_tris_capacity;
    fine_scratch *scratch;   /* per helper */
    int scratch_count;
    /* the front-end's dispatch of one segment: its items grouped by owner */
    frame_work_item *by_owner;     /* bins_per_tile^2 */
    uint32_t *owner_at;      /* workers + 1 */
    size_t by_owner_capacity, owner_at_capacity;
    uint64_t bin_ref_limit;
    _Atomic uint64_t refs_taken;  /* bin references the fine pass has made this frame */
    bool last_batch;  /* the frame's last batch is being flushed (binner_finish) */
    bool out_of_memory;
    bool over_budget;  /* out_of_memory because of bin_ref_limit */
} binner;

/* Prepares the binner for frame f, whose draws make at most max_tris set-up
 * triangles, to hand bins out through d (sizes scratch); helper_arenas[h]
 * is helper h's frame arena (h = 0 the front-end's own, 1 + w worker w's,
 * d->workers + 1 of them).  false: out of memory. */
bool binner_begin_frame(binner *b, frame_state *f, const frame_dispatch *d, uint64_t max_tris,
                        arena *const *helper_arenas, const mos_allocator *a);
void binner_release(binner *b);
/* The coarse tiles triangle t overlaps (any thread: the setup jobs find it
 * while the triangle is in their cache, so the front-end need not touch it). */
coarse_rect binner_rect(const binner *b, const frame_tri *t);
/* Coarse pass: adds one set-up triangle, over tiles r, in API order.  May
 * run the fine pass on the early-draw buffer, and on the whole batch when
 * the batch is full. */
void binner_add(binner *b, const frame_tri *t, coarse_rect r);
/* Ends the batch: guard token, then the fine pass over the coarse buffer.
 * binner_finish ends the frame's last batch: each bin's item from the last
 * segment of its tile's fine pass is marked as the bin's last. */
void binner_flush(binner *b);
void binner_finish(binner *b);

/* The fine pass (fine.c).  fine_sort, on any helper's thread: sorts
 * triangles that all overlap coarse tile (tx, ty) into the tile's fine
 * bins (API order kept) and appends the bins to *out.  fine_dispatch, on
 * the front-end's: pushes them to their owners. */
void fine_sort(binner *b, int helper, int tx, int ty, const frame_tri *const *tris, uint32_t n, fine_out *out);
/* Dispatches out's items in order; LAST: out is its bins' last work of the
 * frame (then the items of its last segment say so, frame_work_item.last). */
void fine_dispatch(binner *b, const fine_out *out, bool last);

#endif
