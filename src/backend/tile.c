/* tile.c — one fine bin on its owning worker: lazy clear (left to the
 * bin's first deferred run where that comes before any other path), then for each
 * triangle in API order either the 2D path, raster -> (batch of quads) ->
 * shade -> ROP, or one of two stochastic paths: deferred, raster_stochastic
 * -> (blocks) -> visibility buffer (visibility.c) -> shade and write the
 * visible samples (decouple_resolve), for runs of opaque triangles that
 * never discard; or ordered, raster_stochastic -> (blocks) -> decouple.c
 * -> (queued samples) -> ROP.  The writes of one path are flushed at one
 * point (flush_writes) whenever the path changes; resolve at frame end.
 * Fed by sched/sched.c; the only writer of this bin's samples. */
#include <string.h>

#include "backend/stages.h"
#include "backend/decouple.h"
#include "backend/visibility.h"
#include "pattern/pattern.h"
#include "util/clock.h"

/* The 2D path's quads wait for the shade stage until TILE_FLUSH_QUADS are
 * pending, or the draw's batch_quads when that is more (a shader that wants
 * a bin's worth per call), or the bin ends. */
#define TILE_FLUSH_QUADS 64
/* pending < MOS_MAX_BATCH_QUADS, plus one raster call: at most
 * TILE_FLUSH_QUADS quads, or two quad rows of the widest bin (256 pixels) */
#define TILE_QUAD_CAP (MOS_MAX_BATCH_QUADS + 2 * (256 / 2))


struct backend_scratch {
    /* The bin's writes waiting for their ROP: quads of the 2D path
     * (pending of them, shaded at the flush) or samples in the stochastic
     * back-end's queue (queued); one path at a time, flushed before the
     * other takes over, so samples are written in API order. */
    int pending;
    bool queued;
    bool vis_run;   /* the visibility buffer holds a run (deferred path) */
    bool pristine;  /* the bin holds its clear values: nothing written since (a run needs not read them) */
    bool unwritten; /* and its clear is left to its first deferred run (the samples hold an old frame's) */
    bool vis_ok;    /* this frame's bins may take the deferred path */
    shade_scratch *shade;
    decouple_scratch *dec;  /* stochastic frames only (backend_scratch_reserve), */
    stoch_pixels *pixels;   /* with the stochastic rasterizer's pixel stamps */
    vis_buffer vis;         /* and the deferred path's buffer, when it fits */
    raster_view view;  /* the target as raster sees it (set per frame) */
    raster_view vis_view;  /* the same without its depth: the deferred path's walks test the buffer instead */
    uint32_t view_serial;  /* the frame view and the shade stage were set for */
    raster_quad quads[TILE_QUAD_CAP];
    _Alignas(64) float z[TILE_QUAD_CAP * RASTER_Z_STRIDE(RASTER_MAX_SAMPLES)];  /* their samples' depth */
    shade_result results[TILE_QUAD_CAP];
};

backend_scratch *backend_scratch_create(const mos_allocator *a)
{
    backend_scratch *s = util_calloc(a, 1, sizeof *s);
    if (!s) return NULL;
    s->shade = shade_scratch_create(a);
    if (!s->shade) {
        util_free(a, s);
        return NULL;
    }
    return s;
}

void backend_scratch_destroy(backend_scratch *s, const mos_allocator *a)
{
    if (!s) return;
    decouple_scratch_destroy(s->dec, a);
    vis_release(&s->vis, a);
    util_free(a, s->pixels);
    shade_scratch_destroy(s->shade, a);
    util_free(a, s);
}

void *backend_shader_scratch(backend_scratch *s) { return shade_user_scratch(s->shade); }

mos_result backend_scratch_reserve(backend_scratch *s, const frame_state *f, const mos_allocator *a)
{
    size_t scratch = 0;  /* the frame's fragment shaders share one scratch per worker */
    for (uint32_t i = 0; i < f->draw_count; i++)
        scratch = f->draws[i].scratch_bytes > scratch ? f->draws[i].scratch_bytes : scratch;
    if (shade_scratch_reserve(s->shade, scratch, a) != MOS_OK) return MOS_ERR_OUT_OF_MEMORY;
    s->vis_ok = false;
    if (!f->blur.stochastic) return MOS_OK;
    /* The deferred path: decoupled nearest-point shading, nothing recorded
     * per write, a bin the buffer holds (else the ordered path does it all). */
    const frame_target *t = f->target;
    const unsigned per_write = MOS_INSPECT_OVERDRAW | MOS_INSPECT_TRIANGLE_AREA;
    s->vis_ok = f->blur.mode == MOS_SAMPLING_DECOUPLED && !frame_target_records(t, per_write) &&
                vis_reserve(&s->vis, f->grid.bin_px, t->samples, f->blur.cache_quads, f->blur.bilinear, a);
    if (!s->pixels) s->pixels = util_calloc(a, 1, sizeof *s->pixels);
    if (!s->pixels) return MOS_ERR_OUT_OF_MEMORY;
    if (decouple_scratch_capacity(s->dec) == f->blur.cache_quads) return MOS_OK;
    decouple_scratch_destroy(s->dec, a);
    s->dec = decouple_scratch_create(f->blur.cache_quads, a);
    return s->dec ? MOS_OK : MOS_ERR_OUT_OF_MEMORY;
}

/* Whether tri needs the stochastic path: it is blurred, or the frame asks
 * for what the 2D quad path cannot do (frame_blur.every_triangle). */
static bool needs_stochastic(const frame_state *f, const frame_tri *tri)
{
    return f->blur.stochastic && (tri->blur || f->blur.every_triangle);
}

typedef struct bin_rect {
    int x0, y0, x1, y1;
} bin_rect;

static bin_rect bin_rect_of(const frame_state *f, uint32_t bin)
{
    const frame_target *t = f->target;
    const int bins_x = f->grid.bins_x;
    bin_rect r;
    r.x0 = (int)(bin % (uint32_t)bins_x) * f->grid.bin_px;
    r.y0 = (int)(bin / (uint32_t)bins_x) * f->grid.bin_px;
    r.x1 = r.x0 + f->grid.bin_px < t->width ? r.x0 + f->grid.bin_px : t->width;
    r.y1 = r.y0 + f->grid.bin_px < t->height ? r.y0 + f->grid.bin_px : t->height;
    return r;
}

static void clear_bin(const frame_state *f, bin_rect r)
{
    backend_clear_rect(f->target, r.x0, r.y0, r.x1, r.y1, f->clear_color, f->clear_depth);
}

/* The clear the bin left to a deferred run (backend_scratch.unwritten),
 * done whole: another path reads the target, or the bin ends without a
 * run. */
static void settle_clear(backend_scratch *s, const frame_state *f, bin_rect r)
{
    if (s->unwritten) clear_bin(f, r);
    s->unwritten = false;
}

/* Inspection: every lane of a shaded quad ran the shader for its pixel;
 * each lane covering a sample is one triangle over its pixel. */
static void inspect_quads(const frame_target *t, const raster_quad *quads, int n)
{
    const frame_inspect *in = &t->inspect;
    const int S = t->samples;
    const uint64_t lane_mask = S == 16 ? 0xffffull : (1ull << S) - 1;
    for (int q = 0; q < n; q++) {
        if (in->what & MOS_INSPECT_SHADES) backend_inspect_quad(in->shades, t, quads[q].x, quads[q].y);
        if (!(in->what & MOS_INSPECT_OVERDRAW)) continue;
        for (int lane = 0; lane < 4; lane++) {
            const size_t px = (size_t)(quads[q].x + (lane & 1)), py = (size_t)(quads[q].y + (lane >> 1));
            if ((quads[q].cover >> (lane * S)) & lane_mask) in->overdraw[py * (size_t)t->width + px] += 1.0f;
        }
    }
}

/* The three paths of a triangle (the opening comment), and NONE: no write
 * waits. */
typedef enum tri_path { PATH_NONE, PATH_QUADS, PATH_ORDERED, PATH_DEFERRED } tri_path;

/* tri's path: the 2D quads unless it needs the stochastic rasterizer, then
 * deferred for a plain opaque write (depth test and write) whose shader
 * never discards, when the frame's bins fit the buffer; else ordered. */
static tri_path path_of(const backend_scratch *s, const frame_state *f, const frame_tri *tri)
{
    if (!needs_stochastic(f, tri)) return PATH_QUADS;
    const frame_draw *d = tri->draw;
    const bool plain = d->never_discards && d->blend == MOS_BLEND_OPAQUE && d->depth_test && d->depth_write;
    return s->vis_ok && plain ? PATH_DEFERRED : PATH_ORDERED;
}

/* The path whose writes wait for flush_writes (one at a time). */
static tri_path waiting_path(const backend_scratch *s)
{
    return s->pending ? PATH_QUADS : s->queued ? PATH_ORDERED : s->vis_run ? PATH_DEFERRED : PATH_NONE;
}

/* The ROP of every write waiting: the pending quads shaded, the
 * stochastic queue drained (its misses shaded first), or the visibility
 * buffer's run resolved: its depth left out of the target when `last`
 * (the bin's last work: nothing reads it again), and when the run is also
 * the bin's first write (its clear left to it) in a target that keeps no
 * samples, straight to the bin's pixels (VIS_PIXELS).  Returns whether it
 * wrote the bin's pixels so (the bin is resolved). */
static bool flush_writes(backend_scratch *s, const frame_state *f, bool last, frame_worker_stats *st)
{
    s->pristine = false;
    const int n = s->pending;
    if (n) {
        backend_shade(s->shade, s->quads, n, f->target->samples, f->blur.cells, s->results);
        backend_rop(f->target, s->quads, s->z, n, s->results);
        st->shade_invocations += 4u * (uint64_t)n;
        if (f->target->recording) inspect_quads(f->target, s->quads, n);
        s->pending = 0;
    }
    const decouple_ctx dc = {.d = s->dec, .f = f, .shade = s->shade, .st = st};
    if (s->queued) decouple_drain(&dc);
    s->queued = false;
    bool pixels = false;
    if (s->vis_run) {
        const vis_output out = !last                                      ? VIS_SAMPLES_DEPTH
                               : s->unwritten && !f->target->keep_samples ? VIS_PIXELS
                                                                          : VIS_SAMPLES;
        decouple_resolve(&dc, &s->vis, f->clear_color, out);
        if (s->unwritten) vis_clear_untouched(&s->vis, f->target, f->clear_color, out);  /* the run wrote the rest */
        s->unwritten = false;
        pixels = out == VIS_PIXELS;
        st->pixel_bins += pixels;
    }
    s->vis_run = false;
    return pixels;
}

/* The 2D path of one triangle over rectangle c of the bin: quads appended
 * to the pending batch, flushed whenever it holds the draw's flush count.
 * Small triangles (most of them) in one raster call; larger ones in bands
 * of rows so each call adds few quads, the bands on a grid of 4 rows so the
 * 4x4 block walk of one sample per pixel never splits a block between two
 * bands. */
static void raster_2d(backend_scratch *s, const frame_state *f, const frame_tri *tri, bin_rect c, raster_fn raster,
                      raster_counts *counts, frame_worker_stats *st)
{
    const size_t z_stride = (size_t)RASTER_Z_STRIDE(f->target->samples);
    const int flush_at = tri->draw->batch_quads > TILE_FLUSH_QUADS ? tri->draw->batch_quads : TILE_FLUSH_QUADS;
    c.x0 &= ~1;  /* the 2D path walks whole quads (bins start even) */
    c.y0 &= ~1;
    const int row_quads = (c.x1 - c.x0 + 1) / 2, quads = row_quads * ((c.y1 - c.y0 + 1) / 2);
    if (quads <= TILE_FLUSH_QUADS) {
        s->pending += raster(tri, &s->view, c.x0, c.y0, c.x1, c.y1, s->quads + s->pending,
                             s->z + (size_t)s->pending * z_stride, counts);
        if (s->pending >= flush_at) flush_writes(s, f, false, st);
        return;
    }
    const int pairs = TILE_FLUSH_QUADS / (2 * row_quads);  /* of quad rows per band, beyond the first */
    const int band = 4 * (pairs > 1 ? pairs : 1);
    for (int y = c.y0, yb; y < c.y1; y = yb) {
        yb = (y & ~3) + band < c.y1 ? (y & ~3) + band : c.y1;
        s->pending += raster(tri, &s->view, c.x0, y, c.x1, yb, s->quads + s->pending,
                             s->z + (size_t)s->pending * z_stride, counts);
        if (s->pending >= flush_at) flush_writes(s, f, false, st);
    }
}

/* The next triangle, while this one is drawn: the front-end wrote it on
 * another core, so it is in none of this core's caches, and a blurred one
 * is a block the walk reads whole at once (the triangle, its frame_tri_blur and
 * rank bounds, fe_setup_blurred's layout: 1.5 KiB at 27 samples). */
static inline void prefetch_tri(const frame_tri *tri, size_t bytes)
{
    for (size_t k = 0; k < bytes; k += 64) __builtin_prefetch((const char *)tri + k);
}

void backend_run_bin(backend_scratch *s, const frame_state *f, uint32_t bin, const frame_tri *const *tris,
                     uint32_t n, bool last, frame_worker_stats *st)
{
    frame_target *t = f->target;
    const bool record_bin = frame_target_records(t, MOS_INSPECT_BINS);
    const double t0 = record_bin ? util_now_ms() : 0.0;
    const uint64_t samples0 = st->fragments;
    bin_rect r = bin_rect_of(f, bin);
    s->pristine = false;
    if (t->bin_stamp[bin] != f->serial) {  /* a deferred run writes every sample of its blocks: the clear can wait */
        if (!s->vis_ok) clear_bin(f, r);
        t->bin_stamp[bin] = f->serial;
        s->pristine = true;
        s->unwritten = s->vis_ok;
    }
    if (s->view_serial != f->serial) {  /* the first bin of a frame on this worker */
        raster_view_init(&s->view, t->depth, t->width, t->height, &t->positions, f->blur.rate, f->blur.centred);
        s->vis_view = s->view;
        s->vis_view.depth = NULL;
        backend_shade_isa(s->shade, f->hot);
        s->view_serial = f->serial;
    }
    const raster_fn raster = f->hot->raster;
    raster_counts counts = {0};
    const decouple_ctx dc = {.d = s->dec, .f = f, .shade = s->shade, .st = st};
    if (f->blur.stochastic) decouple_begin_bin(s->dec);
    for (uint32_t i = 0; i < n; i++) {
        const frame_tri *tri = tris[i];
        if (i + 1 < n) prefetch_tri(tris[i + 1], f->tri_bytes);
        bin_rect c = {r.x0 > tri->min_x ? r.x0 : tri->min_x, r.y0 > tri->min_y ? r.y0 : tri->min_y,
                      r.x1 < tri->max_x + 1 ? r.x1 : tri->max_x + 1, r.y1 < tri->max_y + 1 ? r.y1 : tri->max_y + 1};
        if (c.x0 >= c.x1 || c.y0 >= c.y1) continue;
        const tri_path path = path_of(s, f, tri), waiting = waiting_path(s);
        if (waiting != PATH_NONE && waiting != path) flush_writes(s, f, false, st);  /* writes stay in API order */
        if (path != PATH_DEFERRED) settle_clear(s, f, r);
        switch (path) {
        case PATH_DEFERRED:
            if (!s->vis_run)
                vis_begin(&s->vis, t, f->grid.bin_px, r.x0, r.y0, tris, s->pristine ? &f->clear_depth : NULL);
            s->vis_run = true;
            s->vis.tri_index = i;
            s->vis.tri_rate = grid_rate(&dc, tri);
            f->hot->stoch_walk(tri, &s->vis_view, &t->ranked, t->tuples, f->grid.bin_px, c.x0, c.y0, c.x1, c.y1,
                               s->pixels, vis_emit(), &s->vis, &counts);
            break;
        case PATH_ORDERED:
            f->hot->stoch_walk(tri, &s->view, &t->ranked, t->tuples, f->grid.bin_px, c.x0, c.y0, c.x1, c.y1, s->pixels,
                               decouple_block, (void *)&dc, &counts);
            s->queued = true;
            break;
        default:
            raster_2d(s, f, tri, c, raster, &counts, st);
            break;
        }
    }
    /* the bin's last work: a deferred run's depth is dead, or its samples too */
    if (flush_writes(s, f, last, st)) t->resolve_stamp[bin] = f->serial;
    settle_clear(s, f, r);
    if (last) backend_resolve_bin(f, bin);  /* its samples are final and in cache: now, not at the frame's end */
    st->fragments += counts.samples;
    st->covered_pixels += counts.pixels;
    st->stoch_candidates += counts.stoch_candidates;
    st->stoch_tested += counts.stoch_tested;
    st->stoch_covered += counts.stoch_covered;
    if (record_bin) {
        t->inspect.bin_ms[bin] += util_now_ms() - t0;
        t->inspect.bin_samples[bin] += st->fragments - samples0;
    }
}

/* The rounded mean of S samples per channel, one row of n pixels, for an
 * S known to the compiler (each sample count the target takes; sums of 64 x
 * 255 fit 16 bits, the division is a shift or a multiply): a loop over
 * pixels it vectorizes (strided loads), the same value as the general path
 * below. */
#define RESOLVE_ROW(S)                                                                                    \
    static void resolve_row_##S(const uint32_t *restrict c, uint32_t *restrict dst, size_t n)               \
    {                                                                                                     \
        for (size_t x = 0; x < n; x++) {                                                                  \
            uint32_t r = 0, g = 0, b = 0, a = 0;                                                          \
            for (int s = 0; s < (S); s++) {                                                               \
                const uint32_t v = c[x * (S) + (size_t)s];                                                \
                r += v & 0xffu;                                                                           \
                g += (v >> 8) & 0xffu;                                                                    \
                b += (v >> 16) & 0xffu;                                                                   \
                a += v >> 24;                                                                             \
            }                                                                                             \
            const uint32_t h = (S) / 2;                                                                   \
            dst[x] = (r + h) / (S) | ((g + h) / (S)) << 8 | ((b + h) / (S)) << 16 | ((a + h) / (S)) << 24; \
        }                                                                                                 \
    }
RESOLVE_ROW(2)
RESOLVE_ROW(4)
RESOLVE_ROW(8)
RESOLVE_ROW(16)
RESOLVE_ROW(27)
RESOLVE_ROW(32)
RESOLVE_ROW(64)
#undef RESOLVE_ROW

void backend_resolve_bin(const frame_state *f, uint32_t bin)
{
    frame_target *t = f->target;
    if (t->resolve_stamp[bin] == f->serial) return;  /* done after the bin's last work */
    t->resolve_stamp[bin] = f->serial;
    bin_rect r = bin_rect_of(f, bin);
    const int S = t->samples;
    if (t->bin_stamp[bin] != f->serial) {  /* untouched this frame: the clear colour */
        backend_clear_pixels(t, r.x0, r.y0, r.x1, r.y1, f->clear_color);
        return;
    }
    const size_t row = (size_t)(r.x1 - r.x0);
    for (int y = r.y0; y < r.y1; y++) {
        size_t p0 = (size_t)y * (size_t)t->width + (size_t)r.x0;
        const uint32_t *c = t->color + p0 * (size_t)S;
        uint32_t *dst = t->resolved + p0;
        switch (S) {
        case 1: memcpy(dst, c, row * sizeof *dst); continue;
        case 2: resolve_row_2(c, dst, row); continue;
        case 4: resolve_row_4(c, dst, row); continue;
        case 8: resolve_row_8(c, dst, row); continue;
        case 16: resolve_row_16(c, dst, row); continue;
        case 27: resolve_row_27(c, dst, row); continue;
        case 32: resolve_row_32(c, dst, row); continue;
        case 64: resolve_row_64(c, dst, row); continue;
        default: break;
        }
        /* Average per channel: two channels at a time in 16-bit lanes. */
        for (size_t x = 0; x < row; x++, c += S) {
            uint64_t rb = 0, ga = 0;
            for (int s = 0; s < S; s++) {
                rb += c[s] & 0x00ff00ffu;
                ga += (c[s] >> 8) & 0x00ff00ffu;
            }
            uint32_t half = (uint32_t)S / 2, out = 0;
            out |= (uint32_t)(((rb & 0xffffu) + half) / (uint32_t)S);
            out |= (uint32_t)((((rb >> 16) & 0xffffu) + half) / (uint32_t)S) << 16;
            out |= (uint32_t)(((ga & 0xffffu) + half) / (uint32_t)S) << 8;
            out |= (uint32_t)((((ga >> 16) & 0xffffu) + half) / (uint32_t)S) << 24;
            dst[x] = out;
        }
    }
}
