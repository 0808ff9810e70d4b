/* alloc.h — allocation through the context's mos_allocator hooks, and a
 * chunked per-frame arena.  Fed by every stage that owns memory. */
#ifndef MOSAIC_UTIL_ALLOC_H
#define MOSAIC_UTIL_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include "mosaic.h"

/* Blocks are UTIL_ALIGN-aligned (a cache line, the widest SIMD load) whatever
 * the mos_allocator returns; NULL when out of memory. */
#define UTIL_ALIGN 64
void *util_alloc(const mos_allocator *a, size_t size);
void *util_calloc(const mos_allocator *a, size_t count, size_t size);
void util_free(const mos_allocator *a, void *p);
/* A block of NEW_BYTES holding the first OLD_BYTES of P (P: from util_alloc
 * with A, or NULL; freed on success), or NULL with P untouched. */
void *util_realloc(const mos_allocator *a, void *p, size_t old_bytes, size_t new_bytes);

/* A bump allocator over a list of chunks: allocations never move, so
 * pointers handed to workers stay valid until arena_reset at frame end.
 * One thread allocates from an arena (the front-end from its own, a worker
 * from the one it sets triangles up in). */
typedef struct arena_chunk arena_chunk;
typedef struct arena {
    const mos_allocator *allocator;
    arena_chunk *head;    /* chunk being filled */
    arena_chunk *spare;   /* chunks kept from earlier frames */
    size_t chunk_size;
    size_t bytes_used;
    size_t limit;         /* bytes_used never exceeds it */
    bool over_limit;      /* an allocation failed on the limit (not the allocator) */
} arena;

void arena_init(arena *ar, const mos_allocator *a, size_t chunk_size, size_t limit);
/* NULL when out of memory. align must be a power of two <= 64. */
void *arena_alloc(arena *ar, size_t size, size_t align);
void arena_reset(arena *ar);  /* keeps chunks for the next frame */
void arena_release(arena *ar);

#endif
