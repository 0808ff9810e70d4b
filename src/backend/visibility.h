/* visibility.h — the visibility buffer of one bin (deferred decoupled
 * shading, Liktor and Dachsbacher 2012): while a run of opaque, depth-tested
 * triangles that never discard is rasterized, each sample keeps only its
 * nearest triangle (depth, the triangle's index in the bin's list, its
 * shading-grid point); decouple_resolve (decouple.c) then shades each
 * visible grid quad once and writes colour and depth to the target.  No
 * cache lookup inside the raster loop, nothing shaded that is hidden.
 *
 * Layout: 4x4 pixel blocks of the bin, each its samples in tuple-group
 * order (frame_tuples): entry (block, g, lane) is sample
 * lane_sample[g][lane] of the block's pixel `lane`, so the sixteen samples
 * a tuple walk tests at once are sixteen consecutive entries.  A block is
 * loaded from the target's depth when the run first touches it.
 * Fed by tile.c (vis_begin, vis_emit's as the walks' emit); read by
 * decouple.c. */
#ifndef MOSAIC_BACKEND_VISIBILITY_H
#define MOSAIC_BACKEND_VISIBILITY_H

#include "backend/decouple.h"

#define VIS_NONE UINT32_MAX  /* an entry no triangle of the run covers */
/* The largest bin the buffer takes, in samples (bin_px^2 x spp): 64x64
 * pixels at 64 samples, 20 bytes each and a row mask per sixteen (5 MiB a
 * worker; a bilinear run's taps and points 24 more); larger bins take the
 * ordered path. */
#define VIS_MAX_ENTRIES (64 * 64 * 64)

typedef struct vis_buffer {
    /* [block][g][lane], entries_cap of each */
    float *z;
    uint32_t *tri;       /* index into the bin's triangle list, or VIS_NONE */
    int32_t *gx, *gy;    /* the sample's shading-grid point (stoch_hits) */
    int32_t *code;       /* its shading-cache entry * 4 + lane (resolve.c) */
    uint16_t *row_visible;  /* per row of sixteen entries [block][g]: the lanes some triangle covers (resolve.c) */
    /* bilinear runs (vis_reserve's bilinear): instead of gx, gy, the
     * sample's point on its triangle's shading grid (its reference point,
     * stoch_hits.rx, ry, times the rate: bilinear.h); and the codes of the
     * four grid points around it, per row of sixteen entries [corner][lane]
     * (resolve.c; code is not used) */
    float *sx, *sy;
    int32_t *taps;
    bool bilinear;
    size_t entries_cap;
    int32_t *held;       /* the cache entries the resolve holds (resolve.c) */
    recent_quads *recent;  /* the resolve's table of the quads it last used (resolve.c) */
    int held_count, held_cap;
    uint32_t *block_stamp;  /* per block: == stamp once loaded in this run */
    uint16_t *touched;      /* the run's loaded blocks, in order */
    int blocks_cap, touched_count;
    uint32_t stamp;
    /* the run */
    const frame_target *t;
    const frame_tri *const *tris;  /* the bin's triangles */
    uint32_t tri_index;         /* the one being rasterized */
    float tri_rate;             /* its shading grid's rate (bilinear runs) */
    int spp, bin_px, x0, y0;    /* samples, bin size and origin */
    bool cleared;               /* the bin holds clear_depth everywhere (blocks load it without reading) */
    float clear_depth;
    uint8_t group[FRAME_CLASSES][FRAME_MAX_POSITIONS];  /* class, sample -> tuple group */
} vis_buffer;

/* Block b of the run's bin (stoch_block_index's order): its first pixel in
 * the target. */
static inline void vis_block_origin(const vis_buffer *vb, int b, int *x, int *y)
{
    const int blocks_x = vb->bin_px >> 2;
    *x = vb->x0 + 4 * (b % blocks_x);
    *y = vb->y0 + 4 * (b / blocks_x);
}

/* Room for bins of bin_px pixels at spp samples and a shading cache of
 * cache_quads entries, for bilinear runs or not (the buffer's runs are
 * then of that kind); false (nothing changed) when they are too large for
 * the buffer or memory ran out. */
bool vis_reserve(vis_buffer *vb, int bin_px, int spp, int cache_quads, bool bilinear, const mos_allocator *a);
void vis_release(vis_buffer *vb, const mos_allocator *a);
/* Whether a bin of this frame can take the buffer (vis_reserve succeeded
 * for it). */
static inline bool vis_fits(const vis_buffer *vb, int bin_px, int spp)
{
    return (size_t)bin_px * (size_t)bin_px * (size_t)spp <= vb->entries_cap;
}
/* A new run over the bin at (x0, y0) of t, whose triangles are tris;
 * clear_depth: every sample of the bin holds it (just cleared), or NULL. */
void vis_begin(vis_buffer *vb, const frame_target *t, int bin_px, int x0, int y0, const frame_tri *const *tris,
               const float *clear_depth);
/* Where a run's resolve writes: the target's samples, colour and depth
 * or colour alone (nothing reads the bin's depth again), or, for a run
 * that is its bin's whole frame (begun on a cleared bin, the bin's last
 * work) in a target that keeps no samples, the resolved image's pixels
 * alone: each the mean of its samples' colours, the samples never stored. */
typedef enum vis_output { VIS_SAMPLES_DEPTH, VIS_SAMPLES, VIS_PIXELS } vis_output;

/* The run's bin, where its blocks were not loaded (the run touched them
 * not): every sample of its pixels in the target to clear_color and the
 * run's clear depth, or for VIS_PIXELS the pixels to clear_color (a run
 * begun on a cleared bin whose clear tile.c left to it: the resolve wrote
 * the loaded blocks). */
void vis_clear_untouched(const vis_buffer *vb, frame_target *t, uint32_t clear_color, vis_output out);
/* The walks' stoch_emit_fn (consumer: the vis_buffer, its tri_index and
 * tri_rate set to the block's triangle's): each live lane nearer than its
 * entry takes it.  The body's AVX2 or x86-64 build, called directly. */
stoch_emit_fn vis_emit(void);

/* The run shaded and written (resolve.c): each visible sample's grid quad
 * found in the decoupled back-end's cache or shaded, then its colour and
 * depth (as `out` says) to the target; in a run begun on a cleared bin
 * (vb->cleared) every other sample of a loaded block too, clear_color and
 * the clear depth, so that the bin's clear may skip those blocks; for
 * VIS_PIXELS (a cleared run) the loaded blocks' pixels instead.  The
 * ordered path's queue must be drained. */
void decouple_resolve(const decouple_ctx *c, vis_buffer *vb, uint32_t clear_color, vis_output out);

#endif
