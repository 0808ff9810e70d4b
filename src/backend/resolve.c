/* resolve.c — the end of a visibility buffer's run (visibility.h): every
 * visible sample's grid quad found in the shading cache or made and queued
 * for shading, held by the run once however many samples use it (LOOKUP);
 * the queue shaded in SIMD batches (decouple.c's shade stage); then each
 * visible sample's colour and depth written to the target, or for a run
 * that is its bin's whole frame (VIS_PIXELS) summed into its pixel, whose
 * mean goes to the resolved image (WRITE).  When every cache entry is
 * held, what the run has so far is shaded and written and the run's
 * entries let go: a stall, as the ordered path has.
 * LOOKUP goes a row of sixteen entries (one tuple group of a 4x4 block) at
 * a time: a table of the quads last used answers most of them in one
 * vector pass (the ISA table's recent_row: recent_quads.h), the rest one by
 * one.
 * Fed by tile.c (flush_writes); writes the bin's samples or pixels. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "backend/bilinear.h"
#include "backend/decouple.h"
#include "backend/recent_quads.h"
#include "backend/visibility.h"
#include "raster/raster.h"
#include "util/cpu.h"

_Static_assert(VIS_NONE == UINT32_MAX, "an empty recent slot is VIS_NONE's");

/* A position in the run: touched block k, entry j of it (16 g + lane). */
typedef struct vis_pos {
    int k, j;
} vis_pos;

/* What a resolve works with. */
typedef struct resolve_ctx {
    const decouple_ctx *c;
    vis_buffer *vb;
    shading_cache *cache;
    vis_pos done;  /* entries before it are written */
    uint32_t clear_color;
    vis_output out;
    uint64_t visible;  /* samples written */
    /* VIS_PIXELS: block done.k's pixels' sums so far (resolve_row.sum) */
    _Alignas(64) uint32_t sum[32];
} resolve_ctx;

/* Sixteen int lanes as GCC's vector type (two AVX2 vectors, one AVX-512). */
typedef int32_t resolve_i32x16 __attribute__((vector_size(64)));

/* The lanes of a row of sixteen entries that some triangle covers. */
UTIL_CLONES_AVX2 static uint32_t visible_lanes(const uint32_t *restrict tri)
{
    uint32_t m = 0;
    for (int l = 0; l < 16; l++) m |= (uint32_t)(tri[l] != VIS_NONE) << l;
    return m;
}

/* Whether a held entry has a lane its shader discarded (a shader that
 * broke its never_discards promise: WRITE then leaves those samples). */
static bool held_discard(const vis_buffer *vb, const shading_cache *cache)
{
    uint32_t any = 0;
    for (int i = 0; i < vb->held_count; i++) {
        const uint8_t *d = cache->discard + 4 * (size_t)vb->held[i];
        any |= (uint32_t)(d[0] | d[1] | d[2] | d[3]);
    }
    return any != 0;
}

/* A 4x4 block's pixels, lane l at pixel[l], where in the target (inside):
 * the rounded mean of their S samples per channel from their sums
 * (resolve_row.sum), as backend_resolve_bin computes it from the samples. */
UTIL_CLONES_AVX2 static void write_pixels(uint32_t *resolved, const uint32_t *pixel, uint32_t inside,
                                          const uint32_t *sum, int S, float inv)
{
    /* n / S, rounded down, as n times inv (the float above 1 / S),
     * truncated: exact for the n < 2^15 here (never below a whole n / S,
     * and less than 2^-8 above n / S, short of the next whole number by
     * 1 / S or more); a loop over all sixteen lanes, vectorized */
    const uint32_t h = (uint32_t)S / 2;
    uint32_t out[16];
#define RESOLVE_DIV(n) ((uint32_t)((float)((n) + h) * inv))
    for (int l = 0; l < 16; l++) {
        const uint32_t rb = sum[l], ga = sum[16 + l];
        out[l] = RESOLVE_DIV(rb & 0xffffu) | RESOLVE_DIV(ga & 0xffffu) << 8 | RESOLVE_DIV(rb >> 16) << 16 |
                 RESOLVE_DIV(ga >> 16) << 24;
    }
#undef RESOLVE_DIV
    if (inside == 0xffffu) {  /* four rows of four pixels */
        for (int y = 0; y < 4; y++) memcpy(resolved + pixel[4 * y], out + 4 * y, 4 * sizeof *out);
        return;
    }
    for (uint32_t v = inside; v; v &= v - 1) resolved[pixel[__builtin_ctz(v)]] = out[__builtin_ctz(v)];
}

/* WRITE for entries [r->done, to) of the run, a row of sixteen at a time
 * (the ISA table's write_row, resolve_row_tmp.h): each visible sample's
 * colour from its grid point (vb->code: entry * 4 + lane), or in a
 * bilinear run the mix of its four (vb->taps; the nearest is its point
 * then), with its depth for VIS_SAMPLES_DEPTH, to the target, but where
 * `discards` and the (nearest) lane was discarded; in a run begun on a
 * cleared bin, every other sample of the target's pixels the clear values
 * (the bin's clear left them to the run).  VIS_PIXELS (a cleared run):
 * those colours summed per pixel instead, and a block's pixels written to
 * the resolved image once its last row is.  Blur area as the ordered
 * path's drain counts it, where the frame inspects it.  Adds the visible
 * samples to r->visible. */
UTIL_CLONES_AVX2 static void resolve_writes(resolve_ctx *r, vis_pos to, bool discards)
{
    const vis_buffer *vb = r->vb;
    shading_cache *cache = r->cache;
    frame_target *t = r->c->f->target;
    const backend_isa *hot = r->c->f->hot;
    const vis_pos from = r->done;
    const frame_tuples *tp = t->tuples;
    const int S = vb->spp, per_block = 16 * S;
    const uint32_t width = (uint32_t)t->width;
    const bool bilinear = vb->bilinear, cleared = vb->cleared, pixels = r->out == VIS_PIXELS;
    float *const depth = r->out == VIS_SAMPLES_DEPTH ? t->depth : NULL;
    uint32_t *const last_pixel = frame_target_records(t, MOS_INSPECT_BLUR_AREA) ? cache->last_pixel : NULL;
    const bool sums = pixels && !bilinear && !discards && !last_pixel;  /* sum_rows takes whole rows */
    const float inv = nextafterf(1.0f / (float)S, INFINITY);            /* write_pixels' divisor */
    uint64_t points = 0, refs = 0, visible = 0;
    resolve_row w = {.clear_color = r->clear_color, .clear_depth = vb->clear_depth, .sum = pixels ? r->sum : NULL};
    for (int k = from.k; k <= to.k && k < vb->touched_count; k++) {
        const int b = vb->touched[k];
        int bx, by;
        vis_block_origin(vb, b, &bx, &by);
        int32_t first[16];    /* lane l's pixel's first sample */
        uint32_t inside = 0;  /* the lanes whose pixel is in the target */
        for (int l = 0; l < 16; l++) {
            w.pixel[l] = (uint32_t)(by + (l >> 2)) * width + (uint32_t)(bx + (l & 3));
            first[l] = (int32_t)(w.pixel[l] * (uint32_t)S);  /* a target has at most 2^31 samples */
            inside |= (uint32_t)(bx + (l & 3) < t->width && by + (l >> 2) < t->height) << l;
        }
        const int j0 = k == from.k ? from.j : 0, j1 = k == to.k ? to.j : per_block;
        if (pixels && j0 == 0) memset(r->sum, 0, sizeof r->sum);
        const size_t base = (size_t)b * (size_t)per_block;
        for (int j = j0; j < j1;) {  /* row by row: row g's lanes are at their pixels' samples lane_sample[g] */
            if (sums && (j & 15) == 0 && j1 - j >= 16) {  /* whole rows to the pixels' sums at once */
                const int g0 = j >> 4, g1 = j1 >> 4;
                visible += hot->sum_rows(cache->rgba, vb->code + base + 16 * (size_t)g0,
                                         vb->row_visible + (base >> 4) + (size_t)g0, g1 - g0, inside, r->clear_color,
                                         r->sum);
                j = 16 * g1;
                continue;
            }
            const int g = j >> 4, end = 16 * g + 16 < j1 ? 16 * g + 16 : j1;
            const size_t row = base + 16 * (size_t)g;
            const uint32_t span = (0xffffu << (j & 15)) & (0xffffu >> (16 * g + 16 - end));
            const uint32_t m = vb->row_visible[row >> 4] & span;
            uint32_t rgba[16];
            int32_t code[16];  /* a bilinear run's nearest grid points */
            w.visible = w.kept = m;
            w.z = vb->z + row;
            w.code = vb->code + row;
            w.rgba = NULL;
            if (!bilinear) {
                for (uint32_t v = discards ? m : 0; v; v &= v - 1)
                    if (cache->discard[w.code[__builtin_ctz(v)]]) w.kept &= ~(v & -v);
            } else if (!discards) {
                hot->mix_row(cache->rgba, vb->taps + 4 * row, vb->sx + row, vb->sy + row, m, rgba, code);
                w.code = code;
                w.rgba = rgba;
            } else {  /* the scalar mix, with its rule for discarded taps */
                for (uint32_t v = m; v; v &= v - 1) {
                    const int l = __builtin_ctz(v);
                    int32_t ix, iy, wx, wy, tap[4];
                    bilinear_point(vb->sx[row + (size_t)l], &ix, &wx);
                    bilinear_point(vb->sy[row + (size_t)l], &iy, &wy);
                    for (int c = 0; c < 4; c++) tap[c] = vb->taps[4 * row + 16 * (size_t)c + (size_t)l];
                    code[l] = tap[bilinear_nearest(wx, wy)];
                    if (!bilinear_mix(cache, tap, wx, wy, &rgba[l])) w.kept &= ~(1u << l);
                }
                w.code = code;
                w.rgba = rgba;
            }
            w.fill = cleared ? inside & span & ~w.kept : 0u;  /* the clear values */
            /* Lane by lane first + sample, in a vector type: GCC keeps the
             * loop scalar (a byte table may alias w, which escapes). */
            if (!pixels) {
                resolve_i32x16 idx, add;
                memcpy(&idx, first, sizeof idx);
                memcpy(&add, tp->lane_sample_i32[g], sizeof add);
                idx += add;
                memcpy(w.idx, &idx, sizeof idx);
            }
            const uint64_t counts = hot->write_row(&w, cache->rgba, last_pixel, t->color, depth);
            visible += (uint64_t)__builtin_popcount(m);
            points += (uint32_t)counts;
            refs += counts >> 32;
            j = end;
        }
        if (pixels && j1 == per_block) write_pixels(t->resolved, w.pixel, inside, r->sum, S, inv);
    }
    r->c->st->blur_points += points;
    r->c->st->blur_refs += refs;
    r->visible += visible;
}

/* The run's held entries go back to the cache's LRU list. */
static void release_held(resolve_ctx *r)
{
    vis_buffer *vb = r->vb;
    for (int i = 0; i < vb->held_count; i++) shading_cache_unref(r->cache, vb->held[i]);
    vb->held_count = 0;
}

/* Shade what is queued, WRITE up to `to`, let the held entries go. */
static void resolve_flush(resolve_ctx *r, vis_pos to)
{
    const decouple_ctx *c = r->c;
    decouple_shade(c);
    resolve_writes(r, to, held_discard(r->vb, r->cache));
    release_held(r);
    recent_empty(r->vb->recent);
    r->done = to;
}

/* The entry of grid quad (qx, qy) of the run's triangle id, held by the run
 * (found in the cache, or made and queued for shading), or CACHE_NONE when
 * every entry is held. */
static int32_t hold_entry(resolve_ctx *r, uint32_t id, int32_t qx, int32_t qy, int px, int py)
{
    const decouple_ctx *c = r->c;
    vis_buffer *vb = r->vb;
    shading_cache *cache = r->cache;
    const frame_tri *tri = vb->tris[id];
    int32_t e = shading_cache_find(cache, tri, qx, qy);
    if (e != CACHE_NONE) {
        if (cache->refs[e] == 1) vb->held[vb->held_count++] = e;  /* it was free: now the run's */
        else cache->refs[e]--;                                    /* the run held it already */
        return e;
    }
    e = decouple_new_grid_entry(c->d, c, tri, qx, qy, px, py);
    if (e != CACHE_NONE) vb->held[vb->held_count++] = e;
    return e;
}

/* Grid quad (qx, qy) of the run's triangle id as hold_entry gives it,
 * the table of recent quads asked first and told after. */
static inline __attribute__((always_inline)) int32_t take_quad(resolve_ctx *r, uint32_t id, int32_t qx, int32_t qy, int px, int py)
{
    recent_quads *R = r->vb->recent;
    const uint32_t s = RECENT_SLOT(id, qx, qy);
    if (recent_holds(R, s, id, qx, qy)) return R->slot[s].code >> 2;
    const int32_t e = hold_entry(r, id, qx, qy, px, py);
    if (e != CACHE_NONE) recent_put(R, s, id, qx, qy, e);
    return e;
}

/* LOOKUP for row g of touched block k (at pixel (bx, by); the row's
 * first entry i0) of a bilinear run: the codes of the four grid points around each visible sample's
 * point (bilinear.h), corner by corner; the table of recent quads answers
 * most of them in one vector pass, the rest are taken one lane at a time
 * (a lane's quads may be one, two or four). */
static void lookup_row_bilinear(resolve_ctx *r, int k, int g, int bx, int by, size_t i0)
{
    vis_buffer *vb = r->vb;
    const uint32_t *tri = vb->tri + i0;
    const float *sx = vb->sx + i0, *sy = vb->sy + i0;
    int32_t *taps = vb->taps + 4 * i0;
    const uint64_t miss = r->c->f->hot->bilinear_row(r->vb->recent, tri, sx, sy, taps);
    vb->row_visible[i0 >> 4] = (uint16_t)visible_lanes(tri);
    uint32_t lanes = (uint32_t)(miss | miss >> 16 | miss >> 32 | miss >> 48) & 0xffffu;
    for (; lanes; lanes &= lanes - 1) {  /* each such lane's one, two or four quads, taken once each */
        const int l = __builtin_ctz(lanes);
        const uint32_t id = tri[l];
        int32_t ix, iy, wx, wy;
        bilinear_point(sx[l], &ix, &wx);
        bilinear_point(sy[l], &iy, &wy);
        const int32_t qx = ix >> 1, qy = iy >> 1, ox = ix & 1, oy = iy & 1;  /* corner 0's quad; a step leaves it where odd */
        int32_t e[4] = {0, 0, 0, 0};  /* the entries of quads (qx, qy) + (q & 1, q >> 1) */
        for (int q = 0; q < 4; q++) {
            if (((q & 1) && !ox) || ((q >> 1) && !oy)) continue;
            e[q] = take_quad(r, id, qx + (q & 1), qy + (q >> 1), bx + (l & 3), by + (l >> 2));
            if (e[q] == CACHE_NONE) {  /* every entry is held: write what the run has before this lane */
                r->c->st->cache_stalls++;
                resolve_flush(r, (vis_pos){k, 16 * g + l});
                /* this lane's quads and every later lane's lost their entries */
                lanes |= vb->row_visible[i0 >> 4] & (0xffffu << l);
                q = -1;
            }
        }
        for (int c = 0; c < 4; c++) {
            const int32_t x = ix + (c & 1), y = iy + (c >> 1);
            taps[16 * c + l] = 4 * e[((x >> 1) - qx) | ((y >> 1) - qy) << 1] + recent_lane(x, y);
        }
    }
}

/* LOOKUP for row g of touched block k (at pixel (bx, by); the row's first
 * entry i0). */
static void lookup_row(resolve_ctx *r, int k, int g, int bx, int by, size_t i0)
{
    vis_buffer *vb = r->vb;
    const uint32_t *tri = vb->tri + i0;
    const int32_t *gx = vb->gx + i0, *gy = vb->gy + i0;
    int32_t *code = vb->code + i0;
    uint32_t miss = r->c->f->hot->recent_row(r->vb->recent, tri, gx, gy, code);
    vb->row_visible[i0 >> 4] = (uint16_t)(miss >> 16);
    for (miss &= 0xffffu; miss; miss &= miss - 1) {
        const int l = __builtin_ctz(miss);
        const uint32_t id = tri[l];
        const int32_t qx = gx[l] >> 1, qy = gy[l] >> 1;
        int32_t e = take_quad(r, id, qx, qy, bx + (l & 3), by + (l >> 2));  /* a lane before it may have made it */
        if (e == CACHE_NONE) {  /* every entry is held: write what the run has before this lane */
            r->c->st->cache_stalls++;
            resolve_flush(r, (vis_pos){k, 16 * g + l});
            /* the lanes after it answered from the table lost their entries */
            miss |= vb->row_visible[i0 >> 4] & (0xffffu << l);
            e = take_quad(r, id, qx, qy, bx + (l & 3), by + (l >> 2));
        }
        code[l] = 4 * e + recent_lane(gx[l], gy[l]);
    }
}

void decouple_resolve(const decouple_ctx *c, vis_buffer *vb, uint32_t clear_color, vis_output out)
{
    resolve_ctx rc = {.c = c, .vb = vb, .cache = decouple_cache(c->d), .clear_color = clear_color, .out = out};
    resolve_ctx *r = &rc;
    recent_empty(r->vb->recent);
    const uint64_t misses = c->st->cache_misses;
    for (int k = 0; k < vb->touched_count; k++) {
        int bx, by;
        vis_block_origin(vb, vb->touched[k], &bx, &by);
        const size_t base = (size_t)vb->touched[k] * (size_t)vb->spp * 16;
        for (int g = 0; g < vb->spp; g++) {
            if (vb->bilinear) lookup_row_bilinear(r, k, g, bx, by, base + 16 * (size_t)g);
            else lookup_row(r, k, g, bx, by, base + 16 * (size_t)g);
        }
    }
    resolve_flush(r, (vis_pos){vb->touched_count, 0});
    c->st->cache_hits += r->visible - (c->st->cache_misses - misses);  /* as the ordered path: writes less new quads */
    vb->touched_count = 0;
}
