/* vertex.c — the vertex stage: runs a draw's vertex shader over its vertices.
 * Fed by the front-end loop per draw; feeds primitive assembly and clipping. */
#include "frontend/frontend.h"

#define FE_VERTEX_CHUNK 256

bool fe_vertex_stage(const fe_draw *d, arena *ar, float **clip, float **var)
{
    size_t n = (size_t)d->vertex_count;
    *clip = arena_alloc(ar, n * 4 * sizeof(float), 64);
    *var = arena_alloc(ar, n * (size_t)(d->varying_count ? d->varying_count : 1) * sizeof(float), 64);
    if (!*clip || !*var) return false;
    for (size_t first = 0; first < n; first += FE_VERTEX_CHUNK) {
        size_t count = n - first < FE_VERTEX_CHUNK ? n - first : FE_VERTEX_CHUNK;
        mos_vs_batch b = {
            .count = (int)count,
            .attribs = d->vertices + first * (size_t)d->vertex_stride,
            .stride = d->vertex_stride,
            .uniforms = d->uniforms,
            .clip = *clip + first * 4,
            .varyings = *var + first * (size_t)d->varying_count,
            .varying_count = d->varying_count,
        };
        d->vertex(&b);
    }
    return true;
}
