/* alloc.c — allocator hooks and the chunked arena.
 * Fed by the api (context), the front-end (per-frame data) and workers. */
#include "util/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *util_alloc(const mos_allocator *a, size_t size)
{
    if (size == 0) size = 1;
    if (a && a->alloc) return a->alloc(size, a->user_data);
    return malloc(size);
}

void *util_calloc(const mos_allocator *a, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) return NULL;
    void *p = util_alloc(a, count * size);
    if (p) memset(p, 0, count * size);
    return p;
}

void util_free(const mos_allocator *a, void *p)
{
    if (!p) return;
    if (a && a->free) a->free(p, a->user_data);
    else free(p);
}

struct arena_chunk {
    arena_chunk *next;
    size_t size, used;
    _Alignas(64) unsigned char data[];
};

void arena_init(arena *ar, const mos_allocator *a, size_t chunk_size)
{
    memset(ar, 0, sizeof *ar);
    ar->allocator = a;
    ar->chunk_size = chunk_size;
}

void *arena_alloc(arena *ar, size_t size, size_t align)
{
    arena_chunk *c = ar->head;
    if (c) {
        size_t at = (c->used + align - 1) & ~(align - 1);
        if (at + size <= c->size) {
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
