/* shading_cache.h — the memoizing shading cache of one worker (seed 001,
 * 4.2): 2x2 quads of shading-grid points keyed by (triangle, quad x, quad y),
 * reference counted while ROP work waits on them, evicting the least
 * recently used entry that nothing references.  Fed and read by decouple.c. */
#ifndef MOSAIC_BACKEND_SHADING_CACHE_H
#define MOSAIC_BACKEND_SHADING_CACHE_H

#include "backend/backend.h"

#define CACHE_NONE (-1)

/* An entry: its key, its place in the lists and where its lanes are
 * shaded.  What the writes read per sample lies apart, per lane of every
 * entry (shading_cache's rgba, discard and last_pixel at entry * 4 + lane,
 * the code the resolve keeps), and its reference count too
 * (shading_cache.refs, which a cache hit reads instead of the entry). */
typedef struct cache_entry {
    const frame_tri *tri;       /* the quad's triangle (SUPERSAMPLE's anonymous entries too); NULL once reset */
    int32_t qx, qy;          /* quad of the shading grid: points (2 qx + i, 2 qy + j) */
    int32_t prev, next;      /* LRU list of unreferenced entries */
    int32_t chain;           /* next entry in the same hash bucket */
    bool keyed;              /* in the hash table */
    float x[4], y[4];        /* where the lanes are shaded (reference space) */
    float lane_px;           /* pixels between neighbouring lanes: 1 / rate (SUPERSAMPLE's: 1) */
} cache_entry;

/* The keys and entries of the grid quads last found or made, direct-mapped
 * by the low bits of (qx, qy): neighbouring samples mostly use the same few
 * quads, so most lookups end here, before the hash, without touching an
 * entry.  A slot's key is its entry's as long as it names one: an entry
 * that takes a new key leaves its old slot first. */
#define CACHE_RECENT 64
typedef struct cache_recent {
    const frame_tri *tri;
    int32_t qx, qy;
    int32_t entry;  /* CACHE_NONE: empty */
} cache_recent;
typedef struct shading_cache {
    cache_entry *entries;
    uint32_t *refs;  /* per entry: the ROP work waiting on it */
    /* per lane, at entry * 4 + lane: its colour (packed RGBA8) and whether
     * its shader discarded it, once shaded; blur area: the last pixel that
     * used it (UINT32_MAX: none since the entry was made) */
    uint32_t *rgba;
    uint8_t *discard;
    uint32_t *last_pixel;
    int capacity;
    int32_t *buckets;
    uint32_t bucket_mask;
    int32_t lru_head, lru_tail;  /* least recently used first */
    int32_t fresh;  /* entries [fresh, capacity) unused since the reset: older than the LRU list */
    cache_recent recent[CACHE_RECENT];
} shading_cache;

mos_result shading_cache_init(shading_cache *c, int capacity, const mos_allocator *a);
void shading_cache_release(shading_cache *c, const mos_allocator *a);
/* Empties the cache (a new tile): every entry unreferenced and free (only
 * the entries used since the last reset are touched). */
void shading_cache_reset(shading_cache *c);
/* The keyed entry holding (tri, qx, qy) in the hash, now referenced once
 * more and in its recent slot, or CACHE_NONE (shading_cache_find tries the
 * recent slot first). */
int32_t shading_cache_lookup(shading_cache *c, const frame_tri *tri, int32_t qx, int32_t qy);
/* Entry i, unreferenced until now, leaves the LRU list. */
void shading_cache_lru_unlink(shading_cache *c, int32_t i);
static inline uint32_t shading_cache_recent_slot(int32_t qx, int32_t qy)
{
    return ((uint32_t)qx & 7u) | ((uint32_t)qy & 7u) << 3;
}
/* The entry holding (tri, qx, qy), now referenced once more, or
 * CACHE_NONE: its recent slot, inline, else the hash. */
static inline int32_t shading_cache_find(shading_cache *c, const frame_tri *tri, int32_t qx, int32_t qy)
{
    const cache_recent *r = &c->recent[shading_cache_recent_slot(qx, qy)];
    const int32_t i = r->entry;
    /* One branch on the key (&, not &&: which part differs is random). */
    if ((i != CACHE_NONE) & (r->tri == tri) & (r->qx == qx) & (r->qy == qy)) {
        if (c->refs[i]++ == 0) shading_cache_lru_unlink(c, i);  /* it was unreferenced: on the LRU list */
        return i;
    }
    return shading_cache_lookup(c, tri, qx, qy);
}
/* One more reference to entry e, which holds one already (so it is off
 * the LRU list). */
static inline void shading_cache_ref(shading_cache *c, int32_t e) { c->refs[e]++; }
/* A new entry for (tri, qx, qy) (keyed) or an anonymous one, referenced
 * once, taken from the least recently used unreferenced entry; CACHE_NONE
 * when every entry is referenced (the caller must drain its ROP work). */
int32_t shading_cache_insert(shading_cache *c, const frame_tri *tri, int32_t qx, int32_t qy, bool keyed);
/* Entry e, unreferenced now, joins the LRU list as its most recently used. */
void shading_cache_lru_append(shading_cache *c, int32_t e);
/* Drops one reference; at zero the entry becomes the most recently used
 * (inline: the ROP's drain drops one per queued write). */
static inline void shading_cache_unref(shading_cache *c, int32_t e)
{
    if (--c->refs[e] == 0) shading_cache_lru_append(c, e);
}

#endif
