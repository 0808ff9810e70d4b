/* coarse.c — the coarse binning pass, its encoded coarse buffer and the
 * early-draw buffer with its guard token (seed 004), and the batch's fine
 * pass run as a job over its coarse tiles.
 * Fed by frontend.c one set-up triangle at a time; feeds fine.c. */
#include <stddef.h>
#include <string.h>

#include "binning/binning.h"
#include "pattern/pattern.h"

/* Makes *p hold at least `need` elements (contents are not kept). */
static bool grow(const mos_allocator *a, void **p, size_t *have, size_t need, size_t elem)
{
    if (*have >= need) return true;
    size_t n = *have ? *have : 64;
    while (n < need) n *= 2;
    void *q = util_calloc(a, n, elem);
    if (!q) return false;
    util_free(a, *p);
    *p = q;
    *have = n;
    return true;
}

/* Scratch for `helpers` helpers, each with room for `bins` bin counts;
 * false when out of memory. */
static bool scratch_reserve(binner *b, int helpers, size_t bins)
{
    if (helpers > b->scratch_count) {
        fine_scratch *s = util_calloc(b->allocator, (size_t)helpers, sizeof *s);
        if (!s) return false;
        if (b->scratch_count) memcpy(s, b->scratch, (size_t)b->scratch_count * sizeof *s);
        util_free(b->allocator, b->scratch);
        b->scratch = s;
        b->scratch_count = helpers;
    }
    for (int h = 0; h < helpers; h++) {
        fine_scratch *s = &b->scratch[h];
        if (!grow(b->allocator, (void **)&s->bin_count, &s->bin_count_capacity, bins, sizeof(uint32_t)))
            return false;
    }
    return true;
}

bool binner_begin_frame(binner *b, frame_state *f, const frame_dispatch *d, uint64_t max_tris,
                        arena *const *helper_arenas, const mos_allocator *a)
{
    arena *ar = helper_arenas[0];
    b->frame = f;
    b->dispatch = d;
    b->arena = ar;
    b->helper_arenas = helper_arenas;
    b->allocator = a;
    b->width = f->target->width;
    b->height = f->target->height;
    b->bin_px = f->grid.bin_px;
    b->coarse_px = f->coarse_px;
    b->bin_shift = __builtin_ctz((unsigned)f->grid.bin_px);  /* a power of two (api) */
    b->coarse_shift = (f->coarse_px & (f->coarse_px - 1)) ? -1 : __builtin_ctz((unsigned)f->coarse_px);
    b->bins_x = f->grid.bins_x;
    b->bins_y = f->grid.bins_y;
    b->bins_per_tile = f->coarse_px / f->grid.bin_px;
    b->tiles_x = (b->width + f->coarse_px - 1) / f->coarse_px;
    b->tiles_y = (b->height + f->coarse_px - 1) / f->coarse_px;
    b->batch_count = 0;
    b->batch_pairs = 0;
    b->out_of_memory = b->over_budget = false;
    atomic_store_explicit(&b->refs_taken, 0, memory_order_relaxed);
    uint64_t layers = (uint64_t)b->bins_x * (uint64_t)b->bins_y * BIN_REFS_PER_BIN;
    b->bin_ref_limit = layers > BIN_REFS_MIN ? layers : BIN_REFS_MIN;

    /* A batch never holds more than the frame's triangles. */
    uint64_t cap = f->batch > 0 && (uint64_t)f->batch < max_tris ? (uint64_t)f->batch : max_tris;
    if (cap == 0) cap = 1;
    if (cap > (1u << 26)) cap = 1u << 26;
    b->batch_capacity = (uint32_t)cap;
    b->batch_tris = arena_alloc(ar, cap * sizeof *b->batch_tris, 64);
    b->batch_rects = arena_alloc(ar, cap * sizeof *b->batch_rects, 64);
    b->early.capacity = f->early > 0 ? (uint32_t)f->early : 0;
    b->early.tris = arena_alloc(ar, (b->early.capacity + 1) * sizeof *b->early.tris, 64);
    b->early.count = 0;
    b->early.replayed = b->early.guard = false;

    size_t tiles = (size_t)b->tiles_x * (size_t)b->tiles_y + 1;
    size_t bins = (size_t)b->bins_per_tile * (size_t)b->bins_per_tile;
    b->pair_cap = tiles > BIN_COARSE_PAIR_CAP ? tiles : BIN_COARSE_PAIR_CAP;
    return b->batch_tris && b->batch_rects && b->early.tris &&
           grow(a, (void **)&b->tile_start, &b->tile_start_capacity, tiles, sizeof(uint32_t)) &&
           scratch_reserve(b, d->workers + 1, bins) &&
           grow(a, (void **)&b->by_owner, &b->by_owner_capacity, bins, sizeof(frame_work_item)) &&
           grow(a, (void **)&b->owner_at, &b->owner_at_capacity, (size_t)d->workers + 1, sizeof(uint32_t)) &&
           grow(a, (void **)&b->tile_tris, &b->tile_tris_capacity, cap, sizeof(frame_tri *));
}

void binner_release(binner *b)
{
    const mos_allocator *a = b->allocator;
    util_free(a, b->tile_start);
    util_free(a, (void *)b->tile_tris);
    for (int h = 0; h < b->scratch_count; h++) {
        util_free(a, b->scratch[h].bin_count);
        util_free(a, b->scratch[h].pair_bin);
        util_free(a, (void *)b->scratch[h].pair_tri);
    }
    util_free(a, b->scratch);
    util_free(a, b->by_owner);
    util_free(a, b->owner_at);
    memset(b, 0, sizeof *b);
}

/* Whether the frame renders any bin of coarse tile (tx, ty). */
static bool tile_rendered(const binner *b, int tx, int ty)
{
    return !b->frame->bin_mask || b->frame->coarse_mask[ty * b->tiles_x + tx];
}

/* Replays the early-draw buffer into the fine pass, on the front-end: its
 * triangles all overlap coarse tile (0, 0), the first tile the fine pass
 * visits. */
static void replay_early(binner *b)
{
    if (b->early.replayed) return;
    b->early.replayed = true;
    if (!b->early.count || b->out_of_memory || !tile_rendered(b, 0, 0)) return;
    fine_out out = {0};
    fine_sort(b, 0, 0, 0, b->early.tris, b->early.count, &out);
    fine_dispatch(b, &out, false);  /* the batch's fine pass may follow in tile (0, 0) */
}

/* The fine pass of one batch as a job: chunk c is coarse tile tile[c],
 * its triangles tris[first[c] .. first[c] + count[c]). */
typedef struct fine_job {
    frame_job job;
    binner *b;
    uint32_t *tile, *first, *count;
    fine_out *out;
} fine_job;

static void run_fine_chunk(frame_job *j, uint32_t c, int helper, void *scratch)
{
    fine_job *fj = (fine_job *)((char *)j - offsetof(fine_job, job));
    binner *b = fj->b;
    const int tile = (int)fj->tile[c];
    fine_sort(b, helper, tile % b->tiles_x, tile / b->tiles_x, b->tile_tris + fj->first[c], fj->count[c], &fj->out[c]);
}

/* The fine pass over the decoded batch (start[k]: the end of tile k's
 * triangles in tile_tris), tiles sorted by any helper, dispatched by the
 * front-end in tile order as each is done. */
static void fine_pass(binner *b, const uint32_t *start)
{
    const uint32_t tiles = (uint32_t)(b->tiles_x * b->tiles_y);
    fine_job *fj = arena_alloc(b->arena, sizeof *fj, 64);
    uint32_t *idx = arena_alloc(b->arena, 3 * (size_t)tiles * sizeof *idx, 64);
    fine_out *out = arena_alloc(b->arena, (size_t)tiles * sizeof *out, 64);
    if (!fj || !idx || !out) {
        b->out_of_memory = true;
        return;
    }
    *fj = (fine_job){.b = b, .tile = idx, .first = idx + tiles, .count = idx + 2 * tiles, .out = out};
    uint32_t chunks = 0, begin = 0;
    for (uint32_t k = 0; k < tiles; k++) {
        uint32_t first = begin, end = start[k];
        begin = end;
        if (k == 0) first += b->early.count;  /* already replayed early */
        if (end <= first || !tile_rendered(b, (int)(k % (uint32_t)b->tiles_x), (int)(k / (uint32_t)b->tiles_x)))
            continue;
        fj->tile[chunks] = k;
        fj->first[chunks] = first;
        fj->count[chunks] = end - first;
        out[chunks++] = (fine_out){0};
    }
    frame_state *f = b->frame;
    frame_job *displaced;
    if (!frame_job_open(f, b->dispatch, b->arena, &fj->job, chunks, run_fine_chunk, &displaced)) {
        b->out_of_memory = true;
        return;
    }
    /* Every chunk is waited for, also after a failure: helpers may be
     * writing into this batch's memory until then. */
    for (uint32_t c = 0; c < chunks; c++) {
        frame_job_wait(f, &fj->job, c, NULL);
        if (!b->out_of_memory) fine_dispatch(b, &out[c], b->last_batch);
    }
    frame_job_close(f, b->dispatch, displaced);
}

void binner_finish(binner *b)
{
    b->last_batch = true;
    binner_flush(b);
    b->last_batch = false;
}

coarse_rect binner_rect(const binner *b, const frame_tri *t)
{
    if (b->coarse_shift >= 0) {  /* bounds are on screen: not negative */
        const int sh = b->coarse_shift;
        return (coarse_rect){(uint16_t)((uint32_t)t->min_x >> sh), (uint16_t)((uint32_t)t->min_y >> sh),
                             (uint16_t)((uint32_t)t->max_x >> sh), (uint16_t)((uint32_t)t->max_y >> sh)};
    }
    const int c = b->coarse_px;
    return (coarse_rect){(uint16_t)(t->min_x / c), (uint16_t)(t->min_y / c), (uint16_t)(t->max_x / c),
                         (uint16_t)(t->max_y / c)};
}

void binner_add(binner *b, const frame_tri *t, coarse_rect r)
{
    /* A batch ends early when its (triangle, coarse tile) pairs would pass
     * the cap, so the decoded coarse buffer stays bounded whatever the
     * triangle count, sizes and tile size (one triangle always fits). */
    uint64_t pairs = (uint64_t)(r.tx1 - r.tx0 + 1) * (uint64_t)(r.ty1 - r.ty0 + 1);
    if (b->batch_count && b->batch_pairs + pairs > b->pair_cap) binner_flush(b);
    uint32_t i = b->batch_count++;
    b->batch_tris[i] = t;
    b->batch_rects[i] = r;
    b->batch_pairs += pairs;
    if (r.tx0 == 0 && r.ty0 == 0 && b->early.count < b->early.capacity) {
        b->early.tris[b->early.count++] = t;
        /* Full: self-contained, so the fine pass can start on it now while
         * the coarse pass goes on with the rest of the batch. */
        if (b->early.count == b->early.capacity) replay_early(b);
    }
    if (b->batch_count == b->batch_capacity) binner_flush(b);
}

void binner_flush(binner *b)
{
    /* Guard token: the coarse buffer is complete and may be decoded. */
    b->early.guard = true;
    replay_early(b);  /* a buffer that never filled is consumed first */

    uint32_t n = b->batch_count;
    if (n && !b->out_of_memory) {
        /* Decode: counting sort of the entries by coarse tile, API order
         * kept inside each tile. */
        uint32_t tiles = (uint32_t)(b->tiles_x * b->tiles_y);
        uint32_t *start = b->tile_start;
        memset(start, 0, (tiles + 1) * sizeof *start);
        const int tiles_x = b->tiles_x;
        for (uint32_t i = 0; i < n; i++) {
            coarse_rect r = b->batch_rects[i];
            if (r.tx0 == r.tx1 && r.ty0 == r.ty1) {  /* one tile: most triangles */
                start[r.ty0 * tiles_x + r.tx0 + 1]++;
                continue;
            }
            for (int ty = r.ty0; ty <= r.ty1; ty++)
                for (int tx = r.tx0; tx <= r.tx1; tx++) start[ty * tiles_x + tx + 1]++;
        }
        for (uint32_t k = 0; k < tiles; k++) start[k + 1] += start[k];
        /* A triangle over several tiles has an entry in each. */
        if (!grow(b->allocator, (void **)&b->tile_tris, &b->tile_tris_capacity, start[tiles], sizeof(frame_tri *))) {
            b->out_of_memory = true;
            n = 0;
        }
        for (uint32_t i = 0; i < n; i++) {
            coarse_rect r = b->batch_rects[i];
            if (r.tx0 == r.tx1 && r.ty0 == r.ty1) {
                b->tile_tris[start[r.ty0 * tiles_x + r.tx0]++] = b->batch_tris[i];
                continue;
            }
            for (int ty = r.ty0; ty <= r.ty1; ty++)
                for (int tx = r.tx0; tx <= r.tx1; tx++) b->tile_tris[start[ty * tiles_x + tx]++] = b->batch_tris[i];
        }
        /* start[k] now holds the end of tile k. */
        if (n && !b->out_of_memory) fine_pass(b, start);
    }
    b->batch_count = 0;
    b->batch_pairs = 0;
    b->early.count = 0;
    b->early.replayed = b->early.guard = false;
}
