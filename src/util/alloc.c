/* alloc.c — allocator hooks and the chunked arena.
 * Fed by the api (context), the front-end (per-frame data) and workers. */
#include "util/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Every block is UTIL_ALIGN-aligned whatever the allocator returns (the
 * contract in mosaic.h asks for no alignment): the block is over-allocated
 * by UTIL_PAD bytes, room for the allocator's own pointer, kept in the word
 * just below the address handed out, and for rounding that address up. */
#define UTIL_PAD (sizeof(void *) + UTIL_ALIGN - 1)
static void *aligned_in(unsigned char *raw)
{
    if (!raw) return NULL;
    uintptr_t at = ((uintptr_t)raw + sizeof(void *) + UTIL_ALIGN - 1) & ~(uintptr_t)(UTIL_ALIGN - 1);
    unsigned char *p = raw + (at - (uintptr_t)raw);
    memcpy(p - sizeof raw, &raw, sizeof raw);
    return p;
}

void *util_alloc(const mos_allocator *a, size_t size)
{
    if (size > SIZE_MAX - UTIL_PAD) return NULL;
    size_t n = size + UTIL_PAD;
    return aligned_in(a && a->alloc ? a->alloc(n, a->user_data) : malloc(n));
}

/* C's calloc when there is no allocator hook: large blocks then arrive as
 * untouched zero pages instead of being written here. */
void *util_calloc(const mos_allocator *a, size_t count, size_t size)
{
    if (size && count > (SIZE_MAX - UTIL_PAD) / size) return NULL;
    size_t n = count * size + UTIL_PAD;
    if (!(a && a->alloc)) return aligned_in(calloc(1, n));
    unsigned char *raw = a->alloc(n, a->user_data);
    if (raw) memset(raw, 0, n);
    return aligned_in(raw);
}

void util_free(const mos_allocator *a, void *p)
{
    if (!p) return;
    void *raw;
    memcpy(&raw, (unsigned char *)p - sizeof raw, sizeof raw);
    if (a && a->free) a->free(raw, a->user_data);
    else free(raw);
}

void *util_realloc(const mos_allocator *a, void *p, size_t old_bytes, size_t new_bytes)
{
    void *q = util_alloc(a, new_bytes);
    if (!q) return NULL;
    if (p && old_bytes) memcpy(q, p, old_bytes < new_bytes ? old_bytes : new_bytes);
    util_free(a, p);
    return q;
}

struct arena_chunk {
    arena_chunk *next;
    size_t size, used;
    _Alignas(64) unsigned char data[];
};

void arena_init(arena *ar, const mos_allocator *a, size_t chunk_size, size_t limit)
{
    memset(ar, 0, sizeof *ar);
    ar->allocator = a;
    ar->chunk_size = chunk_size;
    ar->limit = limit;
}

void *arena_alloc(arena *ar, size_t size, size_t align)
{
    if (size > ar->limit - ar->bytes_used) {
        ar->over_limit = true;
        return NULL;
    }
    arena_chunk *c = ar->head;
    if (c) {
        size_t at = (c->used + align - 1) & ~(align - 1);
        if (at <= c->size && size <= c->size - at) {
            c->used = at + size;
            ar->bytes_used += size;
            return c->data + at;
        }
    }
    /* Take a spare chunk that fits, else allocate a new one. */
    arena_chunk **pp = &ar->spare;
    while (*pp && (*pp)->size < size) pp = &(*pp)->next;
    if (*pp) {
        c = *pp;
        *pp = c->next;
    } else {
        size_t n = size > ar->chunk_size ? size : ar->chunk_size;
        if (n > SIZE_MAX - sizeof(arena_chunk)) return NULL;
        c = util_alloc(ar->allocator, sizeof(arena_chunk) + n);
        if (!c) return NULL;
        c->size = n;
    }
    c->used = size;
    c->next = ar->head;
    ar->head = c;
    ar->bytes_used += size;
    return c->data;
}

void arena_reset(arena *ar)
{
    while (ar->head) {
        arena_chunk *c = ar->head;
        ar->head = c->next;
        c->used = 0;
        c->next = ar->spare;
        ar->spare = c;
    }
    ar->bytes_used = 0;
    ar->over_limit = false;
}

void arena_release(arena *ar)
{
    arena_reset(ar);
    while (ar->spare) {
        arena_chunk *c = ar->spare;
        ar->spare = c->next;
        util_free(ar->allocator, c);
    }
}
