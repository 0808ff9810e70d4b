/* decouple.h — the stochastic back-end (decouple.c): shading and writes of
 * blurred triangles and of every triangle of frames the 2D quad path
 * cannot render (more than 16 samples, SUPERSAMPLE, a shading rate other
 * than 1, bilinear lookups).  Consumes the blocks raster_stochastic emits
 * (tile.c runs it per triangle of a bin, in API order). */
#ifndef MOSAIC_BACKEND_DECOUPLE_H
#define MOSAIC_BACKEND_DECOUPLE_H

#include "backend/stages.h"
#include "backend/shading_cache.h"

typedef struct decouple_scratch decouple_scratch;

/* What one bin's work needs besides the scratch. */
typedef struct decouple_ctx {
    decouple_scratch *d;
    const frame_state *f;
    shade_scratch *shade;
    frame_worker_stats *st;
} decouple_ctx;

/* The shading grid's points per pixel edge for tri: a blurred triangle's
 * own rate (frame_tri_blur.rate), else the frame's. */
static inline float grid_rate(const decouple_ctx *c, const frame_tri *tri)
{
    return tri->blur ? tri->blur->rate : c->f->blur.rate;
}

decouple_scratch *decouple_scratch_create(int cache_quads, const mos_allocator *a);
void decouple_scratch_destroy(decouple_scratch *d, const mos_allocator *a);
int decouple_scratch_capacity(const decouple_scratch *d);  /* 0 for NULL */

/* A new tile: the per-tile cache starts empty. */
void decouple_begin_bin(decouple_scratch *d);
/* A stoch_emit_fn (consumer: the decouple_ctx): queues the shading and
 * sample writes of one emitted block's live samples. */
void decouple_block(void *consumer, const stoch_block *blk);
/* For the visibility buffer's resolve (resolve.c), which shares the cache
 * and the shade stage: the cache; a new keyed entry for grid quad (qx, qy)
 * of tri queued for shading at its grid points (a miss, as the ordered
 * path counts and inspects it; pixel (px, py) asked for it), or CACHE_NONE
 * when every entry is referenced; the queued entries shaded (their writes
 * are the caller's). */
shading_cache *decouple_cache(decouple_scratch *d);
int32_t decouple_new_grid_entry(decouple_scratch *d, const decouple_ctx *c, const frame_tri *tri, int32_t qx,
                                int32_t qy, int px, int py);
void decouple_shade(const decouple_ctx *c);
/* Shades what is pending and applies every queued write, in order. */
void decouple_drain(const decouple_ctx *c);

#endif
