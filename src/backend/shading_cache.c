/* shading_cache.c — the memoizing shading cache (shading_cache.h): a hash
 * table over a fixed pool of quad entries and an LRU list of the entries no
 * ROP work references.  Fed and read by the stochastic back-end. */
#include <string.h>

#include "backend/shading_cache.h"

static uint32_t key_hash(const frame_tri *tri, int32_t qx, int32_t qy)
{
    uint64_t h = (uint64_t)(uintptr_t)tri * 0x9e3779b97f4a7c15ull;
    h ^= ((uint64_t)(uint32_t)qx << 32 | (uint32_t)qy) * 0xc2b2ae3d27d4eb4full;
    return (uint32_t)(h ^ (h >> 29));
}

mos_result shading_cache_init(shading_cache *c, int capacity, const mos_allocator *a)
{
    memset(c, 0, sizeof *c);
    uint32_t buckets = 16;
    while (buckets < 2u * (uint32_t)capacity) buckets *= 2;
    c->entries = util_alloc(a, (size_t)capacity * sizeof *c->entries);
    c->refs = util_alloc(a, (size_t)capacity * sizeof *c->refs);
    c->rgba = util_alloc(a, 4 * (size_t)capacity * sizeof *c->rgba);
    c->discard = util_alloc(a, 4 * (size_t)capacity * sizeof *c->discard);
    c->last_pixel = util_alloc(a, 4 * (size_t)capacity * sizeof *c->last_pixel);
    c->buckets = util_alloc(a, buckets * sizeof *c->buckets);
    if (!c->entries || !c->refs || !c->rgba || !c->discard || !c->last_pixel || !c->buckets) {
        shading_cache_release(c, a);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    c->capacity = capacity;
    c->bucket_mask = buckets - 1;
    for (uint32_t b = 0; b < buckets; b++) c->buckets[b] = CACHE_NONE;
    shading_cache_reset(c);
    return MOS_OK;
}

void shading_cache_release(shading_cache *c, const mos_allocator *a)
{
    util_free(a, c->entries);
    util_free(a, c->refs);
    util_free(a, c->rgba);
    util_free(a, c->discard);
    util_free(a, c->last_pixel);
    util_free(a, c->buckets);
    memset(c, 0, sizeof *c);
}

/* The bucket heads of every keyed entry, and so every chain, go; entries
 * never used since are untouched (shading_cache_insert takes them in index
 * order before any on the LRU list, as a list that began 0 .. capacity - 1
 * would). */
void shading_cache_reset(shading_cache *c)
{
    for (int32_t i = 0; i < c->fresh; i++) {
        cache_entry *e = &c->entries[i];
        if (e->keyed) c->buckets[key_hash(e->tri, e->qx, e->qy) & c->bucket_mask] = CACHE_NONE;
        e->tri = NULL;
        e->keyed = false;
        c->refs[i] = 0;
    }
    c->fresh = 0;
    c->lru_head = c->lru_tail = CACHE_NONE;
    for (int i = 0; i < CACHE_RECENT; i++) c->recent[i].entry = CACHE_NONE;
}

void shading_cache_lru_unlink(shading_cache *c, int32_t i)
{
    cache_entry *e = &c->entries[i];
    if (e->prev != CACHE_NONE) c->entries[e->prev].next = e->next;
    else c->lru_head = e->next;
    if (e->next != CACHE_NONE) c->entries[e->next].prev = e->prev;
    else c->lru_tail = e->prev;
}

int32_t shading_cache_lookup(shading_cache *c, const frame_tri *tri, int32_t qx, int32_t qy)
{
    for (int32_t i = c->buckets[key_hash(tri, qx, qy) & c->bucket_mask]; i != CACHE_NONE; i = c->entries[i].chain) {
        const cache_entry *e = &c->entries[i];
        if (e->tri != tri || e->qx != qx || e->qy != qy) continue;
        if (c->refs[i]++ == 0) shading_cache_lru_unlink(c, i);
        c->recent[shading_cache_recent_slot(qx, qy)] = (cache_recent){tri, qx, qy, i};
        return i;
    }
    return CACHE_NONE;
}

/* Keyed entry i leaves the hash table and its recent slot. */
static void unhash(shading_cache *c, int32_t i)
{
    cache_entry *e = &c->entries[i];
    int32_t *link = &c->buckets[key_hash(e->tri, e->qx, e->qy) & c->bucket_mask];
    while (*link != i) link = &c->entries[*link].chain;
    *link = e->chain;
    e->keyed = false;
    cache_recent *recent = &c->recent[shading_cache_recent_slot(e->qx, e->qy)];
    if (recent->entry == i) recent->entry = CACHE_NONE;
}

int32_t shading_cache_insert(shading_cache *c, const frame_tri *tri, int32_t qx, int32_t qy, bool keyed)
{
    int32_t i;
    if (c->fresh < c->capacity) {
        i = c->fresh++;
    } else {
        i = c->lru_head;
        if (i == CACHE_NONE) return CACHE_NONE;
        shading_cache_lru_unlink(c, i);
        if (c->entries[i].keyed) unhash(c, i);
    }
    cache_entry *e = &c->entries[i];
    e->keyed = false;
    e->tri = tri;
    e->qx = qx;
    e->qy = qy;
    c->refs[i] = 1;
    for (int l = 0; l < 4; l++) c->last_pixel[4 * i + l] = UINT32_MAX;
    if (keyed) {
        uint32_t b = key_hash(tri, qx, qy) & c->bucket_mask;
        e->chain = c->buckets[b];
        c->buckets[b] = i;
        e->keyed = true;
        c->recent[shading_cache_recent_slot(qx, qy)] = (cache_recent){tri, qx, qy, i};
    }
    return i;
}

void shading_cache_lru_append(shading_cache *c, int32_t i)
{
    cache_entry *e = &c->entries[i];
    e->prev = c->lru_tail;
    e->next = CACHE_NONE;
    if (c->lru_tail != CACHE_NONE) c->entries[c->lru_tail].next = i;
    else c->lru_head = i;
    c->lru_tail = i;
}
