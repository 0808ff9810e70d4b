/* decouple.c — the stochastic back-end (seed 001, 3 and 4.4): the blocks
 * the stochastic rasterizer emits (raster_stochastic) -> each live sample
 * on the shading grid of its triangle's reference (the rasterizer gives its
 * grid point, stoch_hits.gx/gy, at the rate chosen here) -> shading-cache
 * lookup -> misses shaded in 2x2 quads, 16 at a time (SHADE) -> the
 * samples' writes queued in order and handed to the ROP (rop.c) once their
 * quads are shaded.  SUPERSAMPLE shades every sample in quads of the same
 * rank over a 2x2 pixel block, through the same queues.
 * Fed by raster through tile.c; feeds the ROP. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/bilinear.h"
#include "backend/decouple.h"
#include "raster/raster.h"

#define DECOUPLE_WRITE_CAP 4096  /* queued sample writes */
#define DECOUPLE_SHADE_QUADS (BACKEND_SHADE_LANES / 4)

static const float lane_ox[4] = {0.5f, 1.5f, 0.5f, 1.5f}, lane_oy[4] = {0.5f, 0.5f, 1.5f, 1.5f};

/* A queued sample write: its triangle, pixel and sample, depth, and where
 * its colour comes from: the nearest grid point (lane of an entry), or
 * (n = 4, bilinear) the four around it in taps[i] with their weights
 * (bilinear.h; entry and lane then name the nearest of them).
 * The drain colours it and hands it to the ROP (backend_rop_write); the
 * pixel counts the blur area too. */
typedef struct queued_write {
    const frame_tri *tri;
    uint32_t pixel;
    float z;
    int32_t entry;
    uint8_t sample, lane, n;
} queued_write;
_Static_assert(FRAME_MAX_POSITIONS <= 256, "a queued write's sample index fits its byte");
typedef struct write_taps {
    int32_t code[4];  /* entry * 4 + lane, corner order */
    int32_t wx, wy;
} write_taps;

/* The most groups order_pending sorts a pending list into (a bin's draws
 * at one spacing); beyond them it leaves the rest in queue order. */
#define DECOUPLE_SHADE_GROUPS 32

struct decouple_scratch {
    shading_cache cache;
    int32_t *pending;  /* entries to shade, capacity entries */
    int32_t *sorted;   /* order_pending's, capacity entries */
    uint8_t *group;    /* order_pending's: each pending entry's, capacity entries */
    int pending_count;
    queued_write *writes;
    write_taps *taps;  /* bilinear frames only */
    int write_count;
    const frame_tri *tris[DECOUPLE_SHADE_QUADS];
    float x[BACKEND_SHADE_LANES], y[BACKEND_SHADE_LANES], lane_px[DECOUPLE_SHADE_QUADS];
    shade_result results[DECOUPLE_SHADE_QUADS];
};

decouple_scratch *decouple_scratch_create(int cache_quads, const mos_allocator *a)
{
    decouple_scratch *d = util_calloc(a, 1, sizeof *d);
    if (!d) return NULL;
    d->pending = util_alloc(a, (size_t)cache_quads * sizeof *d->pending);
    d->sorted = util_alloc(a, (size_t)cache_quads * sizeof *d->sorted);
    d->group = util_alloc(a, (size_t)cache_quads * sizeof *d->group);
    d->writes = util_alloc(a, DECOUPLE_WRITE_CAP * sizeof *d->writes);
    d->taps = util_alloc(a, DECOUPLE_WRITE_CAP * sizeof *d->taps);
    if (!d->pending || !d->sorted || !d->group || !d->writes || !d->taps || shading_cache_init(&d->cache, cache_quads, a) != MOS_OK) {
        decouple_scratch_destroy(d, a);
        return NULL;
    }
    return d;
}

void decouple_scratch_destroy(decouple_scratch *d, const mos_allocator *a)
{
    if (!d) return;
    shading_cache_release(&d->cache, a);
    util_free(a, d->pending);
    util_free(a, d->sorted);
    util_free(a, d->group);
    util_free(a, d->writes);
    util_free(a, d->taps);
    util_free(a, d);
}

int decouple_scratch_capacity(const decouple_scratch *d) { return d ? d->cache.capacity : 0; }

/* The pending entries grouped by draw and lane spacing, the groups in the
 * order they first appear and each in queue order (a counting sort): a
 * fragment-shader call takes one draw at one spacing, and a deferred
 * run's misses mix the draws of a bin (a frame of blur hands a bin all its
 * triangles at once), which cut the calls short.  Each entry is shaded
 * alone, so the order changes no colour. */
static void order_pending(decouple_scratch *d)
{
    const frame_draw *draw[DECOUPLE_SHADE_GROUPS];
    float lane_px[DECOUPLE_SHADE_GROUPS];
    int count[DECOUPLE_SHADE_GROUPS + 1] = {0}, groups = 0, g = 0;
    const int n = d->pending_count;
    for (int i = 0; i < n; i++) {
        const cache_entry *e = &d->cache.entries[d->pending[i]];
        if (groups == 0 || e->tri->draw != draw[g] || e->lane_px != lane_px[g]) {  /* mostly the last one's */
            for (g = 0; g < groups && (e->tri->draw != draw[g] || e->lane_px != lane_px[g]); g++) continue;
            if (g == groups) {
                if (groups == DECOUPLE_SHADE_GROUPS) return;  /* too many: as queued */
                draw[groups] = e->tri->draw;
                lane_px[groups++] = e->lane_px;
            }
        }
        d->group[i] = (uint8_t)g;
        count[g + 1]++;
    }
    if (groups < 2) return;
    for (g = 0; g < groups; g++) count[g + 1] += count[g];
    for (int i = 0; i < n; i++) d->sorted[count[d->group[i]]++] = d->pending[i];
    memcpy(d->pending, d->sorted, (size_t)n * sizeof *d->pending);
}

/* SHADE: the pending entries (order_pending), DECOUPLE_SHADE_QUADS quads
 * per call of the shade stage, which cuts them into fragment-shader
 * calls, with the frame's cell filter (frame_blur.cells). */
void decouple_shade(const decouple_ctx *c)
{
    decouple_scratch *d = c->d;
    order_pending(d);
    for (int i0 = 0; i0 < d->pending_count; i0 += DECOUPLE_SHADE_QUADS) {
        int n = d->pending_count - i0 < DECOUPLE_SHADE_QUADS ? d->pending_count - i0 : DECOUPLE_SHADE_QUADS;
        for (int q = 0; q < n; q++) {
            const cache_entry *e = &d->cache.entries[d->pending[i0 + q]];
            d->tris[q] = e->tri;
            memcpy(d->x + 4 * q, e->x, sizeof e->x);
            memcpy(d->y + 4 * q, e->y, sizeof e->y);
            d->lane_px[q] = e->lane_px;
        }
        backend_shade_points(c->shade, d->tris, d->x, d->y, d->lane_px, c->f->blur.cells, n, d->results);
        for (int q = 0; q < n; q++) {
            const size_t at = 4 * (size_t)d->pending[i0 + q];
            memcpy(d->cache.rgba + at, d->results[q].rgba, sizeof d->results[q].rgba);
            memcpy(d->cache.discard + at, d->results[q].discard, sizeof d->results[q].discard);
        }
        c->st->shade_invocations += 4u * (uint64_t)n;
    }
    d->pending_count = 0;
}

/* The queued writes in order: each one's colour from its shaded entries,
 * then the ROP.  Blur area, where the frame records it: a write whose
 * grid point was last used from another pixel (or never) counts (an entry
 * keeps its key while a write holds it), without a branch on the entries'
 * pixels, which are random. */
void decouple_drain(const decouple_ctx *c)
{
    decouple_scratch *d = c->d;
    frame_target *t = c->f->target;
    frame_worker_stats *st = c->st;
    decouple_shade(c);
    shading_cache *cache = &d->cache;
    rop_run rop = backend_rop_run(t);
    const size_t S = (size_t)t->samples;
    uint64_t points = 0, refs = 0;
    const bool area = frame_target_records(t, MOS_INSPECT_BLUR_AREA);
    for (int i = 0; i < d->write_count; i++) {
        const queued_write *w = &d->writes[i];
        const size_t at = 4 * (size_t)w->entry + w->lane;
        if (area) {
            uint32_t *last = &cache->last_pixel[at];
            points += *last == UINT32_MAX;
            refs += *last != w->pixel;
            *last = w->pixel;
        }
        uint32_t rgba;
        bool shaded;  /* false: discarded, nothing written */
        if (w->n == 1) {  /* the nearest point */
            shaded = !cache->discard[at];
            rgba = cache->rgba[at];
            shading_cache_unref(cache, w->entry);
        } else {
            const write_taps *tp = &d->taps[i];
            shaded = bilinear_mix(cache, tp->code, tp->wx, tp->wy, &rgba);
            for (int k = 0; k < 4; k++) shading_cache_unref(cache, tp->code[k] >> 2);
        }
        if (shaded) backend_rop_write(t, &rop, w->tri, (size_t)w->pixel * S + w->sample, w->z, rgba);
    }
    st->blur_points += points;
    st->blur_refs += refs;
    d->write_count = 0;
}

void decouple_begin_bin(decouple_scratch *d) { shading_cache_reset(&d->cache); }

/* A new referenced entry for (tri, qx, qy) (anonymous unless keyed),
 * queued for shading at the lane positions the caller writes, or
 * CACHE_NONE when every entry is referenced. */
static int32_t try_new_entry(decouple_scratch *d, const decouple_ctx *c, const frame_tri *tri, int32_t qx,
                             int32_t qy, bool keyed, int px, int py)
{
    const int32_t e = shading_cache_insert(&d->cache, tri, qx, qy, keyed);
    if (e == CACHE_NONE) return CACHE_NONE;
    c->st->cache_misses++;
    const frame_target *t = c->f->target;
    /* Inspection: the quad's four lanes, at the 2x2 pixels of the sample
     * that missed (their grid points lie about there). */
    if (frame_target_records(t, MOS_INSPECT_SHADES)) backend_inspect_quad(t->inspect.shades, t, px & ~1, py & ~1);
    d->pending[d->pending_count++] = e;  /* pending entries are referenced: never more than capacity */
    return e;
}

/* try_new_entry; when every entry is referenced the ROP queue drains
 * first: a stall. */
static int32_t new_entry(decouple_scratch *d, const decouple_ctx *c, const frame_tri *tri, int32_t qx, int32_t qy,
                         bool keyed, int px, int py)
{
    int32_t e = try_new_entry(d, c, tri, qx, qy, keyed, px, py);
    if (e == CACHE_NONE) {
        c->st->cache_stalls++;
        decouple_drain(c);
        e = try_new_entry(d, c, tri, qx, qy, keyed, px, py);
    }
    return e;
}

/* One covered sample of one quad lane, as the rasterizer found it. */
typedef struct lane_hit {
    int px, py, s;
    float z;
    float rx, ry;  /* where it lands in the triangle's shading reference (SUPERSAMPLE) */
} lane_hit;

/* Where entry ce of grid quad (qx, qy) is shaded, at `rate` grid points
 * per pixel, and how far apart its lanes are. */
static void grid_points(cache_entry *ce, int32_t qx, int32_t qy, float rate)
{
    for (int l = 0; l < 4; l++) {
        ce->x[l] = ((float)(2 * qx) + lane_ox[l]) / rate;
        ce->y[l] = ((float)(2 * qy) + lane_oy[l]) / rate;
    }
    ce->lane_px = 1.0f / rate;
}

/* The entry of shading-grid quad (qx, qy) of tri at grid points per pixel
 * `rate`: a cache hit, or a new entry at the quad's grid points. */
static int32_t grid_entry(decouple_scratch *d, const decouple_ctx *c, const frame_tri *tri, int32_t qx, int32_t qy,
                          float rate, int px, int py)
{
    int32_t e = shading_cache_find(&d->cache, tri, qx, qy);
    if (e != CACHE_NONE) {
        c->st->cache_hits++;
        return e;
    }
    e = new_entry(d, c, tri, qx, qy, true, px, py);
    grid_points(&d->cache.entries[e], qx, qy, rate);
    return e;
}

/* The next queued write (the queue has room): sample `sample` of pixel
 * `pixel`, its colour from lane LANE of ENTRY (the nearest point; bilinear
 * adds its taps). */
static queued_write *queue_write(decouple_scratch *d, const frame_tri *tri, uint32_t pixel, int sample, float z,
                                 int32_t entry, int lane)
{
    queued_write *w = &d->writes[d->write_count++];
    w->tri = tri;
    w->pixel = pixel;
    w->z = z;
    w->entry = entry;
    w->sample = (uint8_t)sample;
    w->lane = (uint8_t)lane;
    w->n = 1;
    return w;
}

/* queue_write, making room first. */
static queued_write *push_ref(decouple_scratch *d, const decouple_ctx *c, const frame_tri *tri, uint32_t pixel,
                              int sample, float z, int32_t entry, int lane)
{
    if (d->write_count == DECOUPLE_WRITE_CAP) decouple_drain(c);
    return queue_write(d, tri, pixel, sample, z, entry, lane);
}

/* DECOUPLED with bilinear reconstruction: the four grid points around the
 * sample's point (sx, sy) on the grid (bilinear.h), and its queued write. */
static void decouple_sample_bilinear(decouple_scratch *d, const decouple_ctx *c, const frame_tri *tri,
                                     const lane_hit *h, float rate, float sx, float sy)
{
    const frame_target *t = c->f->target;
    const uint32_t pixel = (uint32_t)h->py * (uint32_t)t->width + (uint32_t)h->px;
    int32_t ix, iy, wx, wy, code[4];
    bilinear_point(sx, &ix, &wx);
    bilinear_point(sy, &iy, &wy);
    /* Entries first (a stall may drain the queue), then the write. */
    for (int k = 0; k < 4; k++) {
        const int32_t cx = ix + (k & 1), cy = iy + (k >> 1);
        code[k] = 4 * grid_entry(d, c, tri, cx >> 1, cy >> 1, rate, h->px, h->py) + ((cx & 1) | (cy & 1) << 1);
    }
    const int near = bilinear_nearest(wx, wy);
    queued_write *r = push_ref(d, c, tri, pixel, h->s, h->z, code[near] >> 2, code[near] & 3);
    write_taps *tp = &d->taps[r - d->writes];
    r->n = 4;
    for (int k = 0; k < 4; k++) tp->code[k] = code[k];
    tp->wx = wx;
    tp->wy = wy;
}

/* SUPERSAMPLE: the covered samples of one rank over a 2x2 pixel block are
 * one shaded quad, each covered lane at its own sample's point, the others
 * one pixel from the first covered lane.  Lane positions come from coverage,
 * not from early depth (which depends on how far the ROP queue has drained),
 * so the colours do not depend on the cache; only live lanes are written. */
static void supersample_quad(decouple_scratch *d, const decouple_ctx *c, const frame_tri *tri, const lane_hit *h,
                             const bool covered[4], const bool live[4])
{
    const frame_target *t = c->f->target;
    if (!(live[0] || live[1] || live[2] || live[3])) return;
    int first = -1;
    float x[4], y[4];
    for (int l = 0; l < 4; l++) {
        if (!covered[l]) continue;
        x[l] = h[l].rx;
        y[l] = h[l].ry;
        if (first < 0) first = l;
    }
    for (int l = 0; l < 4; l++) {
        if (covered[l]) continue;
        x[l] = x[first] + (lane_ox[l] - lane_ox[first]);
        y[l] = y[first] + (lane_oy[l] - lane_oy[first]);
    }
    const int32_t e = new_entry(d, c, tri, 0, 0, false, h[first].px, h[first].py);
    memcpy(d->cache.entries[e].x, x, sizeof x);
    memcpy(d->cache.entries[e].y, y, sizeof y);
    d->cache.entries[e].lane_px = 1.0f;
    bool referenced = false;  /* new_entry's reference goes to the first write */
    for (int l = 0; l < 4; l++) {
        if (!live[l]) continue;
        uint32_t pixel = (uint32_t)h[l].py * (uint32_t)t->width + (uint32_t)h[l].px;
        if (referenced) shading_cache_ref(&d->cache, e);
        referenced = true;
        push_ref(d, c, tri, pixel, h[l].s, h[l].z, e, l);
    }
}

/* DECOUPLED: every live sample of the block mapped to its point on the
 * shading grid (the reference point times the rate; the rasterizer gives
 * the grid point at or below it), the entry of the grid quad that holds the
 * nearest point (or the four around it, bilinear) looked up or made, and
 * its write queued. */
static void decouple_block_samples(decouple_scratch *d, const decouple_ctx *c, const stoch_block *blk)
{
    const frame_tri *tri = blk->tri;
    const frame_target *t = c->f->target;
    /* The rasterizer's grid points are at this rate too (stoch_hits). */
    const float rate = grid_rate(c, tri);
    if (c->f->blur.bilinear) {
        for (uint32_t m = blk->live; m; m &= m - 1) {
            const int l = __builtin_ctz(m);
            const lane_hit h = {.px = blk->x0 + (l & 3), .py = blk->y0 + (l >> 2), .s = blk->sample[l],
                                .z = blk->hits.z[l]};
            decouple_sample_bilinear(d, c, tri, &h, rate, raster_grid_clamp(blk->hits.rx[l] * rate),
                                     raster_grid_clamp(blk->hits.ry[l] * rate));
        }
        return;
    }
    /* Room for the block's writes first (a stall in new_entry may drain
     * the queue too, which only makes more). */
    if (d->write_count > DECOUPLE_WRITE_CAP - STOCH_LANES) decouple_drain(c);
    const uint32_t width = (uint32_t)t->width, pixel0 = (uint32_t)blk->y0 * width + (uint32_t)blk->x0;
    int32_t e = CACHE_NONE, qx_last = INT32_MIN, qy_last = INT32_MIN;  /* grid quads are within +-2^29 */
    uint64_t repeats = 0;
    for (uint32_t m = blk->live; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        const int32_t ix = blk->hits.gx[l], iy = blk->hits.gy[l];
        /* Entry first (a stall may drain the queue), then the write.  The
         * previous sample's quad again: its entry, referenced by that
         * sample's write (no drain since), once more. */
        if ((ix >> 1) == qx_last && (iy >> 1) == qy_last) {
            shading_cache_ref(&d->cache, e);
            repeats++;
        } else {
            qx_last = ix >> 1;
            qy_last = iy >> 1;
            e = grid_entry(d, c, tri, qx_last, qy_last, rate, blk->x0 + (l & 3), blk->y0 + (l >> 2));
        }
        const uint8_t lane = (uint8_t)((ix & 1) | (iy & 1) << 1);
        const uint32_t pixel = pixel0 + (uint32_t)(l >> 2) * width + (uint32_t)(l & 3);
        queue_write(d, tri, pixel, blk->sample[l], blk->hits.z[l], e, lane);
    }
    c->st->cache_hits += repeats;
}

void decouple_block(void *consumer, const stoch_block *blk)
{
    const decouple_ctx *c = consumer;
    decouple_scratch *d = c->d;
    const frame_target *t = c->f->target;
    const frame_tri *tri = blk->tri;
    float *const overdraw = frame_target_records(t, MOS_INSPECT_OVERDRAW) ? t->inspect.overdraw : NULL;
    if (overdraw)
        for (uint32_t m = blk->first_live; m; m &= m - 1) {
            const int l = __builtin_ctz(m);
            overdraw[(size_t)(blk->y0 + (l >> 2)) * (size_t)t->width + (size_t)(blk->x0 + (l & 3))] += 1.0f;
        }
    if (c->f->blur.mode != MOS_SAMPLING_SUPERSAMPLE) {
        decouple_block_samples(d, c, blk);
        return;
    }
    for (int q = 0; q < 4; q++) {
        const int qx = 2 * (q & 1), qy = 2 * (q >> 1);
        if (!(blk->covered & 0x33u << (qy * 4 + qx))) continue;
        lane_hit h[4];
        bool covered[4] = {false, false, false, false}, live[4] = {false, false, false, false};
        for (int l = 0; l < 4; l++) {
            const int bl = (qy + (l >> 1)) * 4 + qx + (l & 1);  /* lane in the block */
            h[l].px = blk->x0 + qx + (l & 1);
            h[l].py = blk->y0 + qy + (l >> 1);
            h[l].s = blk->sample[bl];
            if (!(blk->covered >> bl & 1)) continue;
            h[l].z = blk->hits.z[bl];
            h[l].rx = blk->hits.rx[bl];
            h[l].ry = blk->hits.ry[bl];
            covered[l] = true;
            live[l] = blk->live >> bl & 1;
        }
        supersample_quad(d, c, tri, h, covered, live);
    }
}

/* ---- what the visibility buffer's resolve (resolve.c) uses ---------------- */

shading_cache *decouple_cache(decouple_scratch *d) { return &d->cache; }

int32_t decouple_new_grid_entry(decouple_scratch *d, const decouple_ctx *c, const frame_tri *tri, int32_t qx,
                                int32_t qy, int px, int py)
{
    const int32_t e = try_new_entry(d, c, tri, qx, qy, true, px, py);
    if (e != CACHE_NONE) grid_points(&d->cache.entries[e], qx, qy, grid_rate(c, tri));
    return e;
}

