/* fine.c — the fine binning pass: one coarse tile's triangles (API order)
 * are sorted into the tile's fine bins (those the frame renders: bin_mask),
 * on whichever helper runs the tile (fine_sort), and each non-empty bin
 * then becomes one work item the front-end pushes to the FIFO of the worker
 * that owns it (fine_dispatch, pattern table).
 * Fed by coarse.c (early-draw buffer and decoded tiles); feeds the workers. */
#include <string.h>

#include "binning/binning.h"
#include "pattern/pattern.h"

/* Conservative: false only if no sample of the pixel rectangle
 * [x0, x1) x [y0, y1) can be inside t (one edge negative everywhere). */
static bool tri_may_cover(const frame_tri *t, int x0, int y0, int x1, int y1)
{
    int64_t lo_x = (int64_t)x0 * FRAME_SUBPIXELS, hi_x = (int64_t)x1 * FRAME_SUBPIXELS - 1;
    int64_t lo_y = (int64_t)y0 * FRAME_SUBPIXELS, hi_y = (int64_t)y1 * FRAME_SUBPIXELS - 1;
    for (int e = 0; e < 3; e++) {
        int64_t x = t->a[e] > 0 ? hi_x : lo_x, y = t->b[e] > 0 ? hi_y : lo_y;
        if ((int64_t)t->a[e] * x + (int64_t)t->b[e] * y + t->c[e] < 0) return false;
    }
    return true;
}

/* Doubles the room for (bin, triangle) pairs, keeping the first count. */
static bool grow_pairs(const mos_allocator *a, fine_scratch *s, uint32_t count)
{
    uint32_t cap = s->pair_capacity ? s->pair_capacity * 2 : 4096;
    uint32_t *nb = util_alloc(a, (size_t)cap * sizeof *nb);
    const frame_tri **nt = util_alloc(a, (size_t)cap * sizeof *nt);
    if (!nb || !nt) {
        util_free(a, nb);
        util_free(a, (void *)nt);
        return false;
    }
    if (count) {
        memcpy(nb, s->pair_bin, count * sizeof *nb);
        memcpy((void *)nt, s->pair_tri, count * sizeof *nt);
    }
    util_free(a, s->pair_bin);
    util_free(a, (void *)s->pair_tri);
    s->pair_bin = nb;
    s->pair_tri = nt;
    s->pair_capacity = cap;
    return true;
}

static inline bool add_pair(const mos_allocator *a, fine_scratch *s, uint32_t *count, uint32_t bin,
                            const frame_tri *t)
{
    if (*count == s->pair_capacity && !grow_pairs(a, s, *count)) return false;
    s->pair_bin[*count] = bin;
    s->pair_tri[*count] = t;
    s->bin_count[bin]++;
    (*count)++;
    return true;
}

/* The gathered pairs as one segment of *out: a counting sort by bin (API
 * order kept inside each bin) into lists in arena ar, then one item per
 * non-empty bin.  false when out of memory or past the frame's limit on
 * bin references. */
static bool emit_segment(binner *b, fine_scratch *s, arena *ar, uint32_t pairs, int bx0, int by0, int local_w,
                         int local_bins, fine_out *out)
{
    if (atomic_fetch_add_explicit(&b->refs_taken, pairs, memory_order_relaxed) + pairs > b->bin_ref_limit) {
        out->out_of_memory = out->over_budget = true;
        return false;
    }
    /* Bin lists live in the helper's frame arena until the workers are done. */
    const frame_tri **lists = arena_alloc(ar, (size_t)pairs * sizeof *lists, 64);
    uint32_t offset = 0, items = 0;
    for (int k = 0; k < local_bins; k++) {
        uint32_t c = s->bin_count[k];
        s->bin_count[k] = offset;
        offset += c;
        items += c != 0;
    }
    fine_segment *seg = arena_alloc(ar, sizeof *seg + (size_t)items * sizeof(fine_item), 64);
    if (!lists || !seg) {
        out->out_of_memory = true;
        return false;
    }
    for (uint32_t p = 0; p < pairs; p++) lists[s->bin_count[s->pair_bin[p]]++] = s->pair_tri[p];
    *seg = (fine_segment){.items = items, .pairs = pairs};
    uint32_t begin = 0, i = 0;
    for (int k = 0; k < local_bins; k++) {
        uint32_t end = s->bin_count[k];
        if (end == begin) continue;
        uint32_t bin = (uint32_t)((by0 + k / local_w) * b->bins_x + bx0 + k % local_w);
        seg->item[i++] = (fine_item){.bin = bin, .count = end - begin, .tris = lists + begin};
        begin = end;
    }
    if (out->last) out->last->next = seg;
    else out->first = seg;
    out->last = seg;
    return true;
}

void fine_sort(binner *b, int helper, int tx, int ty, const frame_tri *const *tris, uint32_t n, fine_out *out)
{
    fine_scratch *s = &b->scratch[helper];
    arena *ar = b->helper_arenas[helper];
    const mos_allocator *a = b->allocator;
    const int bpt = b->bins_per_tile, bin_px = b->bin_px;
    const int bx0 = tx * bpt, by0 = ty * bpt;
    const int bx1 = bx0 + bpt < b->bins_x ? bx0 + bpt : b->bins_x;
    const int by1 = by0 + bpt < b->bins_y ? by0 + bpt : b->bins_y;
    const int local_w = bx1 - bx0, local_bins = local_w * (by1 - by0);
    /* The gathered pairs become a segment whenever one more triangle might
     * pass the cap, which bounds the scratch whatever the tile holds. */
    const uint32_t flush_at = BIN_FINE_PAIR_CAP - (uint32_t)local_bins;
    uint32_t pairs = 0;
    /* Part of the screen (frame_state.bin_mask): only rendered bins get pairs. */
    const uint8_t *mask = b->frame->bin_mask;
    memset(s->bin_count, 0, (size_t)local_bins * sizeof *s->bin_count);

    const int sh = b->bin_shift;
    for (uint32_t i = 0; i < n; i++) {
        const frame_tri *t = tris[i];
        /* bounds are on screen: not negative */
        int cx0 = (int)((uint32_t)t->min_x >> sh), cx1 = (int)((uint32_t)t->max_x >> sh);
        int cy0 = (int)((uint32_t)t->min_y >> sh), cy1 = (int)((uint32_t)t->max_y >> sh);
        if (cx0 < bx0) cx0 = bx0;
        if (cy0 < by0) cy0 = by0;
        if (cx1 > bx1 - 1) cx1 = bx1 - 1;
        if (cy1 > by1 - 1) cy1 = by1 - 1;
        if (cx0 == cx1 && cy0 == cy1) {  /* one bin: most small triangles */
            if (mask && !mask[cy0 * b->bins_x + cx0]) continue;
            if (!add_pair(a, s, &pairs, (uint32_t)((cy0 - by0) * local_w + (cx0 - bx0)), t)) goto out_of_memory;
        } else {
            for (int by = cy0; by <= cy1; by++) {
                for (int bx = cx0; bx <= cx1; bx++) {
                    if (mask && !mask[by * b->bins_x + bx]) continue;
                    if (!tri_may_cover(t, bx * bin_px, by * bin_px, (bx + 1) * bin_px, (by + 1) * bin_px)) continue;
                    if (!add_pair(a, s, &pairs, (uint32_t)((by - by0) * local_w + (bx - bx0)), t))
                        goto out_of_memory;
                }
            }
        }
        if (pairs > flush_at) {
            if (!emit_segment(b, s, ar, pairs, bx0, by0, local_w, local_bins, out)) return;
            pairs = 0;
            memset(s->bin_count, 0, (size_t)local_bins * sizeof *s->bin_count);
        }
    }
    if (pairs) emit_segment(b, s, ar, pairs, bx0, by0, local_w, local_bins, out);
    return;
out_of_memory:
    out->out_of_memory = true;
}

/* Inspection: the work a bin receives, and the bin spread of its blurred
 * triangles. */
static void inspect_bin(const binner *b, frame_inspect *in, const fine_item *it)
{
    in->bin_tris[it->bin] += it->count;
    for (uint32_t i = 0; i < it->count; i++) {
        const frame_tri *t = it->tris[i];
        if (!t->blur) continue;
        int bins_x = t->max_x / b->bin_px - t->min_x / b->bin_px + 1;
        int bins_y = t->max_y / b->bin_px - t->min_y / b->bin_px + 1;
        in->bin_blurred[it->bin]++;
        in->bin_spread[it->bin] += (double)bins_x * (double)bins_y;
    }
}

/* Pushes one segment: its items grouped by owner (a stable counting sort,
 * so each worker receives its bins in the order a push per item would have
 * sent them), one push per owner. */
static void dispatch_segment(binner *b, const fine_segment *seg, bool last)
{
    frame_state *f = b->frame;
    const frame_dispatch *d = b->dispatch;
    const uint16_t *owner = f->pattern->owner;
    uint32_t *at = b->owner_at;
    memset(at, 0, ((size_t)d->workers + 1) * sizeof *at);
    for (uint32_t i = 0; i < seg->items; i++) at[owner[seg->item[i].bin] + 1]++;
    for (int w = 0; w < d->workers; w++) at[w + 1] += at[w];
    for (uint32_t i = 0; i < seg->items; i++) {
        const fine_item *fi = &seg->item[i];
        b->by_owner[at[owner[fi->bin]]++] =
            (frame_work_item){.kind = FRAME_WORK_BIN, .bin = fi->bin, .count = fi->count, .tris = fi->tris, .last = last};
    }
    /* at[w] is now the end of worker w's run. */
    for (int w = 0, begin = 0; w < d->workers; w++) {
        const uint32_t end = at[w];
        if (end > (uint32_t)begin)
            f->frontend_stall_ms += d->push(d->queues, w, b->by_owner + begin, end - (uint32_t)begin);
        begin = (int)end;
    }
    f->bin_items += seg->items;
    f->bin_refs += seg->pairs;
}

void fine_dispatch(binner *b, const fine_out *out, bool last)
{
    frame_state *f = b->frame;
    const bool inspect = frame_target_records(f->target, MOS_INSPECT_BINS);
    for (const fine_segment *seg = out->first; seg; seg = seg->next) {
        if (inspect)
            for (uint32_t i = 0; i < seg->items; i++) inspect_bin(b, &f->target->inspect, &seg->item[i]);
        dispatch_segment(b, seg, last && !seg->next);  /* a bin's later segments follow its earlier ones */
    }
    if (out->out_of_memory) {
        b->out_of_memory = true;
        b->over_budget = b->over_budget || out->over_budget;
    }
}
