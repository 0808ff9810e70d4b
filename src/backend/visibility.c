/* visibility.c — the bin's visibility buffer (visibility.h): its storage,
 * a run's start, the load of a block from the target and the depth test of
 * an emitted block.  Fed by tile.c; decouple.c resolves it. */
#include <math.h>

#include "backend/recent_quads.h"
#include "backend/visibility.h"
#include "util/cpu.h"

bool vis_reserve(vis_buffer *vb, int bin_px, int spp, int cache_quads, bool bilinear, const mos_allocator *a)
{
    const size_t entries = (size_t)bin_px * (size_t)bin_px * (size_t)spp;
    const int blocks = (bin_px / 4) * (bin_px / 4);
    if (entries > VIS_MAX_ENTRIES) return false;
    if (entries <= vb->entries_cap && blocks <= vb->blocks_cap && cache_quads <= vb->held_cap &&
        (!bilinear || vb->taps)) {
        vb->bilinear = bilinear;
        return true;
    }
    vis_buffer n = {0};
    n.bilinear = bilinear;
    if (bilinear) {
        n.sx = util_alloc(a, entries * sizeof *n.sx);
        n.sy = util_alloc(a, entries * sizeof *n.sy);
        n.taps = util_alloc(a, 4 * entries * sizeof *n.taps);
    }
    n.code = util_alloc(a, entries * sizeof *n.code);
    n.row_visible = util_alloc(a, entries / 16 * sizeof *n.row_visible);
    n.held = util_alloc(a, (size_t)cache_quads * sizeof *n.held);
    n.held_cap = cache_quads;
    n.recent = util_alloc(a, sizeof *n.recent);
    if (n.recent) recent_init(n.recent);
    n.z = util_alloc(a, entries * sizeof *n.z);
    n.tri = util_alloc(a, entries * sizeof *n.tri);
    n.gx = util_alloc(a, entries * sizeof *n.gx);
    n.gy = util_alloc(a, entries * sizeof *n.gy);
    n.block_stamp = util_calloc(a, (size_t)blocks, sizeof *n.block_stamp);
    n.touched = util_alloc(a, (size_t)blocks * sizeof *n.touched);
    n.entries_cap = entries;
    n.blocks_cap = blocks;
    if (!n.z || !n.tri || !n.gx || !n.gy || !n.code || !n.row_visible || !n.held || !n.recent || !n.block_stamp || !n.touched ||
        (bilinear && (!n.sx || !n.sy || !n.taps))) {
        vis_release(&n, a);
        return false;
    }
    vis_release(vb, a);
    *vb = n;
    return true;
}

void vis_release(vis_buffer *vb, const mos_allocator *a)
{
    util_free(a, vb->z);
    util_free(a, vb->tri);
    util_free(a, vb->gx);
    util_free(a, vb->gy);
    util_free(a, vb->code);
    util_free(a, vb->row_visible);
    util_free(a, vb->held);
    util_free(a, vb->recent);
    util_free(a, vb->sx);
    util_free(a, vb->sy);
    util_free(a, vb->taps);
    util_free(a, vb->block_stamp);
    util_free(a, vb->touched);
    *vb = (vis_buffer){0};
}

void vis_begin(vis_buffer *vb, const frame_target *t, int bin_px, int x0, int y0, const frame_tri *const *tris,
               const float *clear_depth)
{
    vb->cleared = clear_depth != NULL;
    vb->clear_depth = clear_depth ? *clear_depth : 0.0f;
    if (vb->t != t || vb->spp != t->samples) {  /* the tuple groups of the target's pattern */
        const frame_tuples *tp = t->tuples;
        for (int g = 0; g < tp->spp; g++)
            for (int c = 0; c < FRAME_CLASSES; c++) vb->group[c][tp->sample[FRAME_CLASSES * g + c]] = (uint8_t)g;
    }
    vb->t = t;
    vb->tris = tris;
    vb->spp = t->samples;
    vb->bin_px = bin_px;
    vb->x0 = x0;
    vb->y0 = y0;
    vb->touched_count = 0;
    if (++vb->stamp == 0) {  /* wrapped: no block may look loaded */
        for (int b = 0; b < vb->blocks_cap; b++) vb->block_stamp[b] = 0;
        vb->stamp = 1;
    }
}

/* A block's entries from base on, wholly inside a cleared bin: the clear
 * depth, no triangle (the common case: one fill). */
static inline void fill_block(vis_buffer *vb, size_t base)
{
    float *restrict z = vb->z + base;
    uint32_t *restrict tri = vb->tri + base;
    const size_t n = (size_t)vb->spp * 16;
    const float clear = vb->clear_depth;
    for (size_t i = 0; i < n; i++) {
        z[i] = clear;
        tri[i] = VIS_NONE;
    }
}

/* The same for any block (at pixel (bx, by) of the target): its samples'
 * depth from the target (the clear depth, without reading it, in a bin
 * just cleared), no triangle; samples of pixels outside the target can
 * never be nearer. */
static inline void read_block(vis_buffer *vb, size_t base, int bx, int by)
{
    const frame_target *t = vb->t;
    const frame_tuples *tp = t->tuples;
    const int S = vb->spp;
    /* Lane l reads its pixel's samples at[l] floats after the block's
     * first, or takes the fixed depth fix[l], so that each row is one pass
     * over sixteen lanes (a fill where the bin was just cleared). */
    int32_t at[16];
    float fix[16];
    bool read[16];
    for (int l = 0; l < 16; l++) {
        const int x = bx + (l & 3), y = by + (l >> 2);
        const bool inside = x < t->width && y < t->height;
        read[l] = inside && !vb->cleared;
        at[l] = read[l] ? ((l >> 2) * t->width + (l & 3)) * S : 0;
        fix[l] = inside ? vb->clear_depth : -INFINITY;
    }
    const float *depth = vb->cleared ? NULL : t->depth + ((size_t)by * (size_t)t->width + (size_t)bx) * (size_t)S;
    for (int g = 0; g < S; g++) {
        float *restrict z = vb->z + base + (size_t)g * 16;
        uint32_t *restrict tri = vb->tri + base + (size_t)g * 16;
        const uint8_t *restrict sample = tp->lane_sample[g];
        if (depth) {
            for (int l = 0; l < 16; l++) z[l] = read[l] ? depth[at[l] + sample[l]] : fix[l];
        } else {
            for (int l = 0; l < 16; l++) z[l] = fix[l];
        }
        for (int l = 0; l < 16; l++) tri[l] = VIS_NONE;
    }
}

/* Block b (at pixel (bx, by) of the target) loaded into the run. */
UTIL_CLONES_AVX2 static void load_block(vis_buffer *vb, int b, int bx, int by)
{
    const size_t base = (size_t)b * (size_t)vb->spp * 16;
    if (vb->cleared && bx + 4 <= vb->t->width && by + 4 <= vb->t->height) fill_block(vb, base);
    else read_block(vb, base, bx, by);
    vb->block_stamp[b] = vb->stamp;
    vb->touched[vb->touched_count++] = (uint16_t)b;
}

void vis_clear_untouched(const vis_buffer *vb, frame_target *t, uint32_t clear_color, vis_output out)
{
    const int blocks_x = vb->bin_px >> 2, blocks = blocks_x * blocks_x;
    for (int b = 0; b < blocks; b++) {
        if (vb->block_stamp[b] == vb->stamp) continue;
        int bx, by;
        vis_block_origin(vb, b, &bx, &by);
        if (bx >= t->width || by >= t->height) continue;  /* a bin at the target's edge */
        const int x1 = bx + 4 < t->width ? bx + 4 : t->width, y1 = by + 4 < t->height ? by + 4 : t->height;
        if (out == VIS_PIXELS) backend_clear_pixels(t, bx, by, x1, y1, clear_color);
        else backend_clear_rect(t, bx, by, x1, y1, clear_color, vb->clear_depth);
    }
}

static const uint32_t vis_lane_bit[16] = {1u << 0,  1u << 1,  1u << 2,  1u << 3,  1u << 4,  1u << 5,
                                          1u << 6,  1u << 7,  1u << 8,  1u << 9,  1u << 10, 1u << 11,
                                          1u << 12, 1u << 13, 1u << 14, 1u << 15};

/* Sixteen consecutive entries against a block's hits (the live lanes
 * that are nearer take them, with the hit's two values of type T: its grid
 * point, or in a bilinear run its point on the grid), in a loop the compiler
 * vectorizes: NAME(z, tri, x, y, hz, hx, hy, live, id). */
#define VIS_TAKE16(NAME, T)                                                                                      \
    static inline void NAME(float *restrict z, uint32_t *restrict tri, T *restrict x, T *restrict y,            \
                            const float *restrict hz, const T *restrict hx, const T *restrict hy, uint32_t live, \
                            uint32_t id)                                                                         \
    {                                                                                                            \
        _Pragma("GCC ivdep") /* the buffer's entries and the block's hits are distinct */                       \
        for (int l = 0; l < 16; l++) {                                                                           \
            if (((live & vis_lane_bit[l]) != 0) & (hz[l] < z[l])) { /* masked stores */                          \
                z[l] = hz[l];                                                                                    \
                tri[l] = id;                                                                                     \
                x[l] = hx[l];                                                                                    \
                y[l] = hy[l];                                                                                    \
            }                                                                                                    \
        }                                                                                                        \
    }
VIS_TAKE16(vis_take16, int32_t)
VIS_TAKE16(vis_take16_ref, float)
#undef VIS_TAKE16

/* vis_emit's, built for AVX2 and any x86-64 (static: a global function's
 * clones would be exported however the library hides the rest). */
UTIL_CLONES_AVX2 static void vis_block_clones(void *consumer, const stoch_block *blk)
{
    vis_buffer *vb = consumer;
    const int b = blk->block;  /* the buffer's blocks are the bin's, in stoch_block_index's order */
    if (vb->block_stamp[b] != vb->stamp) load_block(vb, b, blk->x0, blk->y0);
    const size_t base = (size_t)b * (size_t)vb->spp * 16;
    const uint32_t id = vb->tri_index;
    if (blk->group >= 0) {  /* sixteen consecutive entries */
        const size_t i = base + (size_t)blk->group * 16;
        if (vb->bilinear) {
            float sx[16], sy[16];
            for (int l = 0; l < 16; l++) {
                sx[l] = raster_grid_clamp(blk->hits.rx[l] * vb->tri_rate);
                sy[l] = raster_grid_clamp(blk->hits.ry[l] * vb->tri_rate);
            }
            vis_take16_ref(vb->z + i, vb->tri + i, vb->sx + i, vb->sy + i, blk->hits.z, sx, sy, blk->live, id);
        } else
            vis_take16(vb->z + i, vb->tri + i, vb->gx + i, vb->gy + i, blk->hits.z, blk->hits.gx, blk->hits.gy,
                       blk->live, id);
        return;
    }
    for (uint32_t m = blk->live; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        const size_t i = base + (size_t)vb->group[raster_lane_class(l)][blk->sample[l]] * 16 + (size_t)l;
        if (!(blk->hits.z[l] < vb->z[i])) continue;
        vb->z[i] = blk->hits.z[l];
        vb->tri[i] = id;
        if (vb->bilinear) {
            vb->sx[i] = raster_grid_clamp(blk->hits.rx[l] * vb->tri_rate);
            vb->sy[i] = raster_grid_clamp(blk->hits.ry[l] * vb->tri_rate);
        } else {
            vb->gx[i] = blk->hits.gx[l];
            vb->gy[i] = blk->hits.gy[l];
        }
    }
}

stoch_emit_fn vis_emit(void) { return vis_block_clones; }
