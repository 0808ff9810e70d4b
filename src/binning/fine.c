/* fine.c — the fine binning pass: one coarse tile's triangles (API order)
 * are sorted into the tile's fine bins (those the frame renders: bin_mask),
 * and each non-empty bin becomes one work item pushed to the FIFO of the
 * worker that owns it (pattern table).
 * Fed by coarse.c (early-draw buffer and decoded tiles); feeds the workers. */
#include <string.h>

#include "binning/binning.h"
#include "pattern/pattern.h"

/* Conservative: false only if no sample of the pixel rectangle
 * [x0, x1) x [y0, y1) can be inside t (one edge negative everywhere). */
static bool tri_may_cover(const fe_tri *t, int x0, int y0, int x1, int y1)
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
static bool grow_pairs(binner *b, uint32_t count)
{
    uint32_t cap = b->pair_capacity ? b->pair_capacity * 2 : 4096;
    uint32_t *nb = util_alloc(b->allocator, (size_t)cap * sizeof *nb);
    const fe_tri **nt = util_alloc(b->allocator, (size_t)cap * sizeof *nt);
    if (!nb || !nt) {
        util_free(b->allocator, nb);
        util_free(b->allocator, (void *)nt);
        return false;
    }
    if (count) {
        memcpy(nb, b->pair_bin, count * sizeof *nb);
        memcpy((void *)nt, b->pair_tri, count * sizeof *nt);
    }
    util_free(b->allocator, b->pair_bin);
    util_free(b->allocator, (void *)b->pair_tri);
    b->pair_bin = nb;
    b->pair_tri = nt;
    b->pair_capacity = cap;
    return true;
}

static inline bool add_pair(binner *b, uint32_t *count, uint32_t bin, const fe_tri *t)
{
    if (*count == b->pair_capacity && !grow_pairs(b, *count)) return false;
    b->pair_bin[*count] = bin;
    b->pair_tri[*count] = t;
    (*count)++;
    return true;
}

/* Inspection: the work a bin receives, and the bin spread of its blurred
 * triangles. */
static void inspect_bin(const binner *b, rt_inspect *in, uint32_t bin, const fe_tri *const *tris, uint32_t n)
{
    in->bin_tris[bin] += n;
    for (uint32_t i = 0; i < n; i++) {
        const fe_tri *t = tris[i];
        if (!t->blur) continue;
        int bins_x = t->max_x / b->bin_px - t->min_x / b->bin_px + 1;
        int bins_y = t->max_y / b->bin_px - t->min_y / b->bin_px + 1;
        in->bin_blurred[bin]++;
        in->bin_spread[bin] += (double)bins_x * (double)bins_y;
    }
}

/* Dispatches the gathered pairs: a counting sort by bin (API order kept
 * inside each bin), then one work item per non-empty bin. */
static void dispatch_pairs(binner *b, uint32_t pairs, int bx0, int by0, int local_w, int local_bins)
{
    pipe_frame *f = b->frame;
    if (f->bin_refs + pairs > b->bin_ref_limit) {
        b->out_of_memory = b->over_budget = true;
        return;
    }
    /* Bin lists live in the frame arena until the workers are done. */
    const fe_tri **lists = arena_alloc(b->arena, (size_t)pairs * sizeof *lists, 64);
    if (!lists) {
        b->out_of_memory = true;
        return;
    }
    uint32_t offset = 0;
    for (int k = 0; k < local_bins; k++) {
        uint32_t c = b->bin_count[k];
        b->bin_count[k] = offset;
        offset += c;
    }
    for (uint32_t p = 0; p < pairs; p++) lists[b->bin_count[b->pair_bin[p]]++] = b->pair_tri[p];

    uint32_t begin = 0;
    for (int k = 0; k < local_bins; k++) {
        uint32_t end = b->bin_count[k];
        if (end == begin) continue;
        uint32_t bin = (uint32_t)((by0 + k / local_w) * b->bins_x + bx0 + k % local_w);
        work_item it = {.kind = WORK_BIN, .bin = bin, .count = end - begin, .tris = lists + begin};
        if (f->target->recording && (f->target->inspect.what & MOS_INSPECT_BINS))
            inspect_bin(b, &f->target->inspect, bin, lists + begin, end - begin);
        f->frontend_stall_ms += b->dispatch->push(b->dispatch->queues, f->pattern->owner[bin], &it);
        f->bin_items++;
        begin = end;
    }
    f->bin_refs += pairs;
}

void binner_fine_tile(binner *b, int tx, int ty, const fe_tri *const *tris, uint32_t n)
{
    const int bpt = b->bins_per_tile, bin_px = b->bin_px;
    const int bx0 = tx * bpt, by0 = ty * bpt;
    const int bx1 = bx0 + bpt < b->bins_x ? bx0 + bpt : b->bins_x;
    const int by1 = by0 + bpt < b->bins_y ? by0 + bpt : b->bins_y;
    const int local_w = bx1 - bx0, local_bins = local_w * (by1 - by0);
    /* Gathered pairs are dispatched whenever one more triangle might pass
     * the cap; a bin's later items follow its earlier ones in its owner's
     * FIFO, so API order holds across dispatches. */
    const uint32_t flush_at = BIN_FINE_PAIR_CAP - (uint32_t)local_bins;
    uint32_t pairs = 0;
    if (b->out_of_memory) return;
    /* Part of the screen (pipe_frame.bin_mask): a coarse tile with no bin
     * to render is skipped whole, and within a tile only rendered bins get
     * pairs. */
    const uint8_t *mask = b->frame->bin_mask;
    if (mask && !b->frame->coarse_mask[ty * b->tiles_x + tx]) return;
    memset(b->bin_count, 0, (size_t)local_bins * sizeof *b->bin_count);

    const int sh = b->bin_shift;
    for (uint32_t i = 0; i < n; i++) {
        const fe_tri *t = tris[i];
        /* bounds are on screen: not negative */
        int cx0 = (int)((uint32_t)t->min_x >> sh), cx1 = (int)((uint32_t)t->max_x >> sh);
        int cy0 = (int)((uint32_t)t->min_y >> sh), cy1 = (int)((uint32_t)t->max_y >> sh);
        if (cx0 < bx0) cx0 = bx0;
        if (cy0 < by0) cy0 = by0;
        if (cx1 > bx1 - 1) cx1 = bx1 - 1;
        if (cy1 > by1 - 1) cy1 = by1 - 1;
        bool single = cx0 == cx1 && cy0 == cy1;
        if (single) {  /* one bin: most small triangles */
            if (mask && !mask[cy0 * b->bins_x + cx0]) continue;
            const uint32_t local = (uint32_t)((cy0 - by0) * local_w + (cx0 - bx0));
            if (!add_pair(b, &pairs, local, t)) {
                b->out_of_memory = true;
                return;
            }
            b->bin_count[local]++;
        } else {
            for (int by = cy0; by <= cy1; by++) {
                for (int bx = cx0; bx <= cx1; bx++) {
                    if (mask && !mask[by * b->bins_x + bx]) continue;
                    if (!tri_may_cover(t, bx * bin_px, by * bin_px, (bx + 1) * bin_px, (by + 1) * bin_px)) continue;
                    uint32_t local = (uint32_t)((by - by0) * local_w + (bx - bx0));
                    if (!add_pair(b, &pairs, local, t)) {
                        b->out_of_memory = true;
                        return;
                    }
                    b->bin_count[local]++;
                }
            }
        }
        if (pairs > flush_at) {
            dispatch_pairs(b, pairs, bx0, by0, local_w, local_bins);
            if (b->out_of_memory) return;
            pairs = 0;
            memset(b->bin_count, 0, (size_t)local_bins * sizeof *b->bin_count);
        }
    }
    if (pairs) dispatch_pairs(b, pairs, bx0, by0, local_w, local_bins);
}
