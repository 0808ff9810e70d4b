/* frame.c — frame recording (mos_begin_frame, mos_draw), the hand-off to
 * the front-end thread (mos_end_frame) and the per-frame statistics.
 * Fed by the application; feeds sched_run_frame. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "api/context.h"
#include "binning/binning.h"
#include "util/clock.h"

static uint32_t pack_clear(const float c[4])
{
    return unorm8(c[0]) | unorm8(c[1]) << 8 | unorm8(c[2]) << 16 | unorm8(c[3]) << 24;
}

void mos_blur_lens(mos_blur_desc *b, float aperture, float focus_dist, float fov_y_deg, float aspect)
{
    if (!b) return;
    float f = 1.0f / tanf(fov_y_deg * 0.5f * 3.14159265f / 180.0f);
    bool ok = aperture > 0.0f && focus_dist > 0.0f && aspect > 0.0f && isfinite(f) && f > 0.0f;
    b->lens_x = ok ? aperture * (f / aspect) / focus_dist : 0.0f;
    b->lens_y = ok ? aperture * f / focus_dist : 0.0f;
    b->focus_w = ok ? focus_dist : 0.0f;
}

/* Halton in bases 2, 3, 5 (stratified): a lens point uniform on the unit
 * disk and a shutter time (raster_halton_uvt, the same points the
 * stochastic pattern's tuples take). */
void mos_accum_pinhole(int k, float uvt[3])
{
    if (!uvt) return;
    raster_halton_uvt((uint64_t)(k < 0 ? 0 : k) + 1, uvt);
}

void mos_accum_jitter(int k, float xy[2])
{
    if (!xy) return;
    raster_halton_jitter((uint64_t)(k < 0 ? 0 : k) + 1, xy);  /* mos_accum_pinhole's index */
}

/* Checks a frame's blur settings; NULL when they are valid, else why not. */
static const char *blur_problem(const mos_blur_desc *b)
{
    if ((unsigned)b->mode > MOS_SAMPLING_SUPERSAMPLE) return "unknown sampling mode";
    if (!isfinite(b->lens_x) || !isfinite(b->lens_y) || !isfinite(b->focus_w) || fabsf(b->lens_x) > 1e6f ||
        fabsf(b->lens_y) > 1e6f || fabsf(b->focus_w) > 1e30f)
        return "lens_x, lens_y and focus_w must be finite";
    if (b->shading_rate != 0.0f && !(b->shading_rate >= 1.0f / 16.0f && b->shading_rate <= 16.0f))
        return "shading_rate must be within 1/16..16 (0 = 1)";
    if (b->cache_quads != 0 && (b->cache_quads < 4 || b->cache_quads > 65536)) return "cache_quads must be within 4..65536";
    for (int k = 0; k < 3; k++)
        if (!isfinite(b->pinhole[k])) return "pinhole must be finite";
    if (b->pinhole[0] * b->pinhole[0] + b->pinhole[1] * b->pinhole[1] > 1.0001f) return "pinhole (u, v) must lie on the unit disk";
    if (b->pinhole[2] < 0.0f || b->pinhole[2] > 1.0f) return "pinhole t must be within 0..1";
    for (int k = 0; k < 2; k++)
        if (!(b->pixel_offset[k] >= -1.0f && b->pixel_offset[k] <= 1.0f)) return "pixel_offset must be within -1..1";
    return NULL;
}

mos_result mos_begin_frame(mos_context *ctx, const mos_frame_desc *desc)
{
    if (!ctx) return MOS_ERR_INVALID_ARGUMENT;
    if (!desc) return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_begin_frame: NULL desc");
    if (ctx->in_frame) return ctx_fail(ctx, MOS_ERR_FRAME_STATE, "mos_begin_frame: a frame is already being recorded");
    const frame_target *target = pool_get(&ctx->targets, desc->target.id);
    if (!target)
        return ctx_fail(ctx, MOS_ERR_BAD_HANDLE, "mos_begin_frame: target handle %u is invalid", desc->target.id);
    float depth = desc->clear_depth == 0.0f ? 1.0f : desc->clear_depth;
    if (!(depth > 0.0f && depth <= 1.0f))
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_begin_frame: clear_depth must be in (0, 1]");
    const char *why = blur_problem(&desc->blur);
    if (why) return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_begin_frame: blur: %s", why);
    if (desc->inspect & ~(unsigned)MOS_INSPECT_ALL)
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_begin_frame: unknown inspect bits 0x%x",
                        desc->inspect & ~(unsigned)MOS_INSPECT_ALL);
    size_t mask_bytes = 0;
    if (desc->tile_mask) {
        const int bin = ctx->pipeline.bin_px, tp = desc->tile_px;
        if (tp <= 0 || tp % bin != 0 || tp > 65536)
            return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT,
                            "mos_begin_frame: tile_px %d must be a positive multiple of the bin size %d (at most "
                            "65536) when tile_mask is given",
                            tp, bin);
        mask_bytes = (size_t)((target->width + tp - 1) / tp) * (size_t)((target->height + tp - 1) / tp);
    }
    if (!ctx->sched_running) {
        /* A failed mos_context_configure could restart neither shape. */
        mos_result r = sched_start(&ctx->sched, ctx->pipeline.threads, ctx->pipeline.fifo_depth, &ctx->allocator);
        if (r != MOS_OK)
            return ctx_fail(ctx, r, "mos_begin_frame: could not start %d worker threads", ctx->pipeline.threads);
        ctx->sched_running = true;
    }
    ctx->blur = desc->blur;
    ctx->current_inspect = desc->inspect;
    ctx->frame_moves = false;
    ctx->in_frame = true;
    ctx->current_target = desc->target;
    ctx->clear_color = pack_clear(desc->clear_rgba);
    ctx->clear_depth = depth;
    ctx->draw_count = 0;
    arena_reset(&ctx->draw_arena);
    ctx->tile_mask = NULL;
    ctx->tile_px = 0;
    if (desc->tile_mask) {  /* copied: the caller may reuse its memory */
        uint8_t *m = arena_alloc(&ctx->draw_arena, mask_bytes, 64);
        if (!m) {
            ctx->in_frame = false;
            return ctx_fail(ctx, MOS_ERR_OUT_OF_MEMORY, "mos_begin_frame: out of memory for the tile mask");
        }
        memcpy(m, desc->tile_mask, mask_bytes);
        ctx->tile_mask = m;
        ctx->tile_px = desc->tile_px;
    }
    ctx_clear_error(ctx);
    return MOS_OK;
}

mos_result mos_draw(mos_context *ctx, const mos_draw_desc *desc)
{
    if (!ctx) return MOS_ERR_INVALID_ARGUMENT;
    if (!ctx->in_frame) return ctx_fail(ctx, MOS_ERR_FRAME_STATE, "mos_draw: no frame is being recorded");
    if (!desc) return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_draw: NULL desc");
    const shader_obj *sh = pool_get(&ctx->shaders, desc->shader.id);
    if (!sh) return ctx_fail(ctx, MOS_ERR_BAD_HANDLE, "mos_draw: shader handle %u is invalid", desc->shader.id);
    const buffer_obj *vb = pool_get(&ctx->buffers, desc->vertices.id);
    if (!vb) return ctx_fail(ctx, MOS_ERR_BAD_HANDLE, "mos_draw: vertex buffer handle %u is invalid", desc->vertices.id);
    if (desc->vertex_stride < 1 || desc->vertex_count < 0)
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_draw: vertex_stride %d / vertex_count %d are invalid",
                        desc->vertex_stride, desc->vertex_count);
    if ((uint64_t)desc->vertex_stride * (uint64_t)desc->vertex_count * sizeof(float) > vb->size)
        return ctx_fail(ctx, MOS_ERR_INDEX_RANGE,
                        "mos_draw: %d vertices of %d floats need %llu bytes, the vertex buffer has %zu",
                        desc->vertex_count, desc->vertex_stride,
                        (unsigned long long)desc->vertex_stride * (unsigned long long)desc->vertex_count * 4u,
                        vb->size);
    if ((unsigned)desc->blend > MOS_BLEND_PREMULTIPLIED || (unsigned)desc->cull > MOS_CULL_BACK)
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_draw: unknown blend or cull mode");
    if (desc->uniform_size > MOS_MAX_UNIFORM_BYTES || (desc->uniform_size && !desc->uniforms))
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_draw: uniform_size %zu (max %d) without data or too large",
                        desc->uniform_size, MOS_MAX_UNIFORM_BYTES);
    if (sh->program && desc->uniform_size < (size_t)sh->program->uniform_bytes) {
        char why[256];
        program_check_uniforms(sh->program, desc->uniform_size, "the draw's uniform_size", why, sizeof why);
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_draw: %s", why);
    }
    if (desc->first_index < 0 || desc->index_count < 0)
        return ctx_fail(ctx, MOS_ERR_INDEX_RANGE, "mos_draw: negative first_index or index_count");

    frame_draw d = {0};
    const uint32_t *indices = NULL;
    int64_t available;
    if (desc->indices.id) {
        const buffer_obj *ib = pool_get(&ctx->buffers, desc->indices.id);
        if (!ib) return ctx_fail(ctx, MOS_ERR_BAD_HANDLE, "mos_draw: index buffer handle %u is invalid", desc->indices.id);
        indices = ib->data;
        available = (int64_t)(ib->size / sizeof(uint32_t));
    } else {
        available = desc->vertex_count;
    }
    int64_t count = desc->index_count ? desc->index_count : available - desc->first_index;
    if (count < 0 || desc->first_index + count > available)
        return ctx_fail(ctx, MOS_ERR_INDEX_RANGE, "mos_draw: indices [%d, %lld) exceed the %lld available",
                        desc->first_index, (long long)(desc->first_index + count), (long long)available);
    if (count % 3)
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_draw: %lld indices is not a whole number of triangles",
                        (long long)count);
    if (indices) {
        for (int64_t i = 0; i < count; i++) {
            uint32_t v = indices[desc->first_index + i];
            if (v >= (uint32_t)desc->vertex_count)
                return ctx_fail(ctx, MOS_ERR_INDEX_RANGE, "mos_draw: index %lld is %u, vertex_count is %d",
                                (long long)(desc->first_index + i), v, desc->vertex_count);
        }
    }
    for (int k = 0; k < MOS_MAX_TEXTURES; k++) {
        if (!desc->textures[k].id) continue;
        d.samplers[k] = pool_get(&ctx->textures, desc->textures[k].id);
        if (!d.samplers[k])
            return ctx_fail(ctx, MOS_ERR_BAD_HANDLE, "mos_draw: texture %d handle %u is invalid", k,
                            desc->textures[k].id);
    }
    if (count == 0) return MOS_OK;

    if (ctx->draw_count == ctx->draw_capacity) {
        uint32_t cap = ctx->draw_capacity ? ctx->draw_capacity * 2 : 64;
        frame_draw *nd = util_alloc(&ctx->allocator, cap * sizeof *nd);
        if (!nd) return ctx_fail(ctx, MOS_ERR_OUT_OF_MEMORY, "mos_draw: out of memory");
        if (ctx->draw_count) memcpy(nd, ctx->draws, ctx->draw_count * sizeof *nd);
        util_free(&ctx->allocator, ctx->draws);
        ctx->draws = nd;
        ctx->draw_capacity = cap;
    }
    if (desc->uniform_size) {
        void *u = arena_alloc(&ctx->draw_arena, desc->uniform_size, 64);
        if (!u) return ctx_fail(ctx, MOS_ERR_OUT_OF_MEMORY, "mos_draw: out of memory for uniforms");
        memcpy(u, desc->uniforms, desc->uniform_size);
        d.uniforms = u;
        if (desc->uniforms_t1) {
            void *u1 = arena_alloc(&ctx->draw_arena, desc->uniform_size, 64);
            if (!u1) return ctx_fail(ctx, MOS_ERR_OUT_OF_MEMORY, "mos_draw: out of memory for uniforms");
            memcpy(u1, desc->uniforms_t1, desc->uniform_size);
            d.uniforms_t1 = u1;
            ctx->frame_moves = true;
        }
    }
    d.vertex = sh->desc.vertex;
    d.fragment = sh->desc.fragment;
    d.varying_count = sh->desc.varying_count;
    d.user = sh->desc.user;
    d.scratch_bytes = sh->desc.scratch_bytes;
    d.batch_quads = sh->desc.batch_quads ? sh->desc.batch_quads : FRAME_DEFAULT_BATCH_QUADS;
    d.vertices = vb->data;
    d.vertex_stride = desc->vertex_stride;
    d.vertex_count = desc->vertex_count;
    d.indices = indices;
    d.first_index = desc->first_index;
    d.prim_count = (int)(count / 3);
    d.depth_test = desc->depth_test;
    d.depth_write = desc->depth_write;
    d.cull = desc->cull;
    d.blend = desc->blend;
    d.never_discards = sh->desc.never_discards || desc->never_discards;
    ctx->draws[ctx->draw_count++] = d;
    return MOS_OK;
}

/* The bin -> worker table for this frame's grid, rebuilt when it changed. */
static mos_result frame_pattern(mos_context *ctx, const frame_target *t)
{
    const int bin = t->grid.bin_px;
    if (ctx->pattern.owner && ctx->pattern_bin_px == bin && ctx->pattern_width == t->width &&
        ctx->pattern_height == t->height)
        return MOS_OK;
    ctx_patterns_free(ctx);
    char err[256];
    mos_result r = pattern_build(&ctx->pattern, ctx->pipeline.pattern, ctx->pipeline.threads, t->grid.bins_x,
                                 t->grid.bins_y, &ctx->allocator, err, sizeof err);
    if (r != MOS_OK) return ctx_fail(ctx, r, "mos_end_frame: %s", err);
    ctx->pattern_bin_px = bin;
    ctx->pattern_width = t->width;
    ctx->pattern_height = t->height;
    return MOS_OK;
}

static void fill_stats(const mos_context *ctx, const frame_state *f, double frame_ms, mos_frame_stats *st)
{
    memset(st, 0, sizeof *st);
    const mos_pipeline_desc *p = &ctx->pipeline;
    st->frame_ms = frame_ms;
    st->frontend_ms = f->frontend_ms;
    st->frontend_stall_ms = f->frontend_stall_ms;
    st->frontend_cpu_ms = f->frontend_cpu_ms;
    st->frontend_serial_ms = f->frontend_cpu_ms - f->frontend_job_cpu_ms;
    st->width = f->target->width;
    st->height = f->target->height;
    st->spp = f->target->samples;
    st->threads = p->threads;
    st->bin = f->grid.bin_px;
    st->coarse = p->coarse_px;
    st->batch = f->batch;
    st->early = p->early;
    st->fifo = p->fifo_depth;
    snprintf(st->pattern, sizeof st->pattern, "%s", p->pattern);
    st->triangles_in = f->triangles_in;
    st->triangles_binned = f->triangles_binned;
    st->bin_items = f->bin_items;
    st->bin_spread = f->triangles_binned ? (double)f->bin_refs / (double)f->triangles_binned : 0.0;
    st->blurred_triangles = f->triangles_blurred;
    double first = 0;
    frame_worker_stats sum = {0};
    for (int w = 0; w < ctx->sched.worker_count; w++) {
        const worker *wk = &ctx->sched.workers[w];
        st->worker_busy_ms[w] = wk->busy_ms;
        st->worker_fragments[w] = wk->stats.fragments;
#define ADD(name) sum.name += wk->stats.name;
        WORKER_STATS(ADD)
#undef ADD
        if (wk->first_work_ms > 0 && (first == 0 || wk->first_work_ms < first)) first = wk->first_work_ms;
    }
    st->visibility_samples = sum.fragments;
    st->covered_pixels = sum.covered_pixels;
    st->shade_invocations = sum.shade_invocations;
    st->cache_hits = sum.cache_hits;
    st->cache_misses = sum.cache_misses;
    st->cache_stalls = sum.cache_stalls;
    st->pixel_bins = sum.pixel_bins;
    st->frontend_chunks_helped = sum.frontend_chunks;
    st->sample_candidates = sum.stoch_candidates;
    st->sample_tests = sum.stoch_tested;
    st->sample_test_efficiency = sum.stoch_tested ? (double)sum.stoch_covered / (double)sum.stoch_tested : 0.0;
    st->frontend_ns_per_triangle = f->triangles_in ? f->frontend_ms * 1e6 / (double)f->triangles_in : 0.0;
    const uint64_t refs = sum.blur_refs, points = sum.blur_points;
    st->first_work_ms = first > 0 ? first - f->t_start_ms : 0.0;
    st->shading_rate = st->covered_pixels ? (double)st->shade_invocations / (double)st->covered_pixels : 0.0;
    uint64_t lookups = st->cache_hits + st->cache_misses;
    st->cache_hit_rate = lookups ? (double)st->cache_hits / (double)lookups : 0.0;
    st->blur_area = points ? (double)refs / (double)points : 0.0;
}

/* The frame's blur settings with defaults and AUTO resolved. */
static frame_blur blur_settings(const mos_context *ctx, const frame_target *t)
{
    const mos_blur_desc *d = &ctx->blur;
    frame_blur b = {0};
    b.lens_x = d->lens_x;
    b.lens_y = d->lens_y;
    b.focus_w = d->focus_w;
    b.motion = ctx->frame_moves;
    bool blurred = b.motion || b.lens_x != 0.0f || b.lens_y != 0.0f;
    b.mode = d->mode != MOS_SAMPLING_AUTO ? d->mode : blurred ? MOS_SAMPLING_DECOUPLED : MOS_SAMPLING_MSAA;
    for (int k = 0; k < 3; k++) b.pinhole[k] = d->pinhole[k];
    /* pixels -> clip units per w (the viewport maps 2 clip units to the size) */
    b.jitter_x = b.mode == MOS_SAMPLING_MSAA ? 2.0f * d->pixel_offset[0] / (float)t->width : 0.0f;
    b.jitter_y = b.mode == MOS_SAMPLING_MSAA ? 2.0f * d->pixel_offset[1] / (float)t->height : 0.0f;
    b.rate = d->shading_rate != 0.0f ? d->shading_rate : 1.0f;
    b.adaptive = d->adaptive_rate && b.mode == MOS_SAMPLING_DECOUPLED;
    b.bilinear = d->bilinear && b.mode == MOS_SAMPLING_DECOUPLED;
    /* A blurred frame's shade serves every sample that takes it: the shaders'
     * textures average its cell (the pixel, or the grid cell), as those
     * samples would have seen it.  Bilinear lookups blend points instead;
     * a frame without blur stays MSAA's, bit for bit. */
    b.cells = blurred && b.mode == MOS_SAMPLING_DECOUPLED && !b.bilinear;
    /* Samples take their grid points from their pixels' centres
     * (stoch_lane_offsets); supersample shades at the samples themselves. */
    b.centred = b.mode == MOS_SAMPLING_DECOUPLED;
    b.cache_quads = d->cache_quads ? d->cache_quads : 1024;
    b.ranks = t->samples;
    for (int key = 0; key < 2; key++) b.rank_range[key] = t->ranked.range[key];
    /* What the 2D quad path cannot draw: more than 16 samples, a shade
     * per sample, another shading rate, bilinear lookups. */
    b.every_triangle = t->samples > RASTER_MAX_SAMPLES || b.mode == MOS_SAMPLING_SUPERSAMPLE || b.rate != 1.0f ||
                       b.bilinear;
    b.stochastic = b.mode != MOS_SAMPLING_MSAA || b.every_triangle;
    return b;
}

/* The frame's part of the screen (mos_frame_desc.tile_mask) as fine bins
 * and coarse tiles to render, in the draw arena; f->bin_mask stays NULL
 * for the whole screen.  false: out of memory. */
static bool frame_masks(mos_context *ctx, const frame_target *t, frame_state *f)
{
    if (!ctx->tile_mask) return true;
    const int bin = f->grid.bin_px, coarse = f->coarse_px;
    const int bins_x = f->grid.bins_x, bins_y = f->grid.bins_y;
    const int tiles_x = (t->width + ctx->tile_px - 1) / ctx->tile_px;
    const int coarse_x = (t->width + coarse - 1) / coarse, coarse_y = (t->height + coarse - 1) / coarse;
    const int bins_per_tile = ctx->tile_px / bin;  /* a whole number: checked at mos_begin_frame */
    uint8_t *bm = arena_alloc(&ctx->draw_arena, (size_t)bins_x * (size_t)bins_y, 64);
    uint8_t *cm = arena_alloc(&ctx->draw_arena, (size_t)coarse_x * (size_t)coarse_y, 64);
    if (!bm || !cm) return false;
    memset(cm, 0, (size_t)coarse_x * (size_t)coarse_y);
    for (int by = 0; by < bins_y; by++) {
        for (int bx = 0; bx < bins_x; bx++) {
            const uint8_t on = ctx->tile_mask[(by / bins_per_tile) * tiles_x + bx / bins_per_tile] != 0;
            bm[by * bins_x + bx] = on;
            if (on) cm[(by * bin / coarse) * coarse_x + bx * bin / coarse] = 1;
        }
    }
    f->bin_mask = bm;
    f->coarse_mask = cm;
    return true;
}

/* With a tile mask, the workers share the bins the frame renders: the
 * pattern dealt over them packed together (pattern_build_packed), so that
 * tiles spread over the screen leave no worker idle.  Which worker runs a
 * bin changes no pixel.  Kept while the mask stays the same; the whole-grid
 * pattern stays in use should the packed one fail. */
static void frame_packed_pattern(mos_context *ctx, frame_state *f)
{
    const pattern_table *full = &ctx->pattern;
    const size_t n = (size_t)full->bins_x * (size_t)full->bins_y;
    if (!ctx->packed.owner || memcmp(ctx->packed_mask, f->bin_mask, n) != 0) {
        char err[256];
        ctx_packed_free(ctx);
        ctx->packed_mask = util_alloc(&ctx->allocator, n);
        if (!ctx->packed_mask ||
            pattern_build_packed(&ctx->packed, ctx->pipeline.pattern, ctx->pipeline.threads, full->bins_x,
                                 full->bins_y, f->bin_mask, full, &ctx->allocator, err, sizeof err) != MOS_OK) {
            ctx_packed_free(ctx);
            return;
        }
        memcpy(ctx->packed_mask, f->bin_mask, n);
    }
    f->pattern = &ctx->packed;
}

/* The pixels the frame draws: the target's, or those of the tiles that
 * the tile mask keeps (a tile at the target's edge counted whole). */
static int64_t frame_pixels(const mos_context *ctx, const frame_target *t)
{
    if (!ctx->tile_mask) return (int64_t)t->width * t->height;
    const int tp = ctx->tile_px, tiles_x = (t->width + tp - 1) / tp, tiles_y = (t->height + tp - 1) / tp;
    int64_t kept = 0;
    for (int i = 0; i < tiles_x * tiles_y; i++) kept += ctx->tile_mask[i] != 0;
    return kept * tp * tp;
}

/* Whether bins of `bin` pixels suit the frame's coarse tile and tile mask
 * (whole multiples of it). */
static bool bin_fits(const mos_context *ctx, int bin)
{
    return ctx->pipeline.coarse_px % bin == 0 && (!ctx->tile_mask || ctx->tile_px % bin == 0);
}

/* The frame's fine bin: the pipeline's, or for a frame of blur with the
 * size left to the library FRAME_DECOUPLED_BIN_PX for decoupled blur that
 * gives each worker FRAME_DECOUPLED_BINS_PER_WORKER such bins or more,
 * else FRAME_BLUR_BIN_PX; each where it suits the coarse tile and the
 * tile mask. */
static int frame_bin_px(const mos_context *ctx, const frame_blur *b, const frame_target *t)
{
    if (!ctx->bin_auto || !b->stochastic) return ctx->pipeline.bin_px;
    const int64_t big = FRAME_DECOUPLED_BIN_PX;
    if (b->mode == MOS_SAMPLING_DECOUPLED && bin_fits(ctx, FRAME_DECOUPLED_BIN_PX) &&
        frame_pixels(ctx, t) >= (int64_t)FRAME_DECOUPLED_BINS_PER_WORKER * ctx->pipeline.threads * big * big)
        return FRAME_DECOUPLED_BIN_PX;
    return bin_fits(ctx, FRAME_BLUR_BIN_PX) ? FRAME_BLUR_BIN_PX : ctx->pipeline.bin_px;
}

/* The frame the recorded draws make, for target t: the pattern, the target's
 * bin grid, (u, v, t) tables and inspection records, the workers' scratch,
 * then *f, everything the stages read.  Not MOS_OK: nothing to run. */
static mos_result frame_build(mos_context *ctx, frame_target *t, double t0, frame_state *f)
{
    mos_result r = MOS_OK;
    frame_blur blur = blur_settings(ctx, t);
    const int bin = frame_bin_px(ctx, &blur, t);
    if (!ctx->blur.cache_quads && bin > 16) {  /* the default cache holds a bin's quads: 1024 per 16x16 pixels */
        const int quads = 1024 * (bin / 16) * (bin / 16);
        blur.cache_quads = quads < 65536 ? quads : 65536;
    }
    if (backend_target_bin_grid(t, bin, &ctx->allocator) != MOS_OK)
        r = ctx_fail(ctx, MOS_ERR_OUT_OF_MEMORY, "mos_end_frame: out of memory");
    if (r == MOS_OK) r = frame_pattern(ctx, t);  /* over the target's grid */
    if (r == MOS_OK && backend_target_uvt_seed(t, ctx->blur.seed, &ctx->allocator) != MOS_OK)
        r = ctx_fail(ctx, MOS_ERR_OUT_OF_MEMORY, "mos_end_frame: out of memory for the (u, v, t) pattern");
    if (r != MOS_OK) return r;
    *f = (frame_state){
        .target = t,
        .clear_color = ctx->clear_color,
        .clear_depth = ctx->clear_depth,
        .draws = ctx->draws,
        .draw_count = ctx->draw_count,
        .pattern = &ctx->pattern,
        .grid = t->grid,
        .coarse_px = ctx->pipeline.coarse_px,
        .batch = ctx->batch_auto && blur.stochastic ? -1 : ctx->pipeline.batch,
        .early = ctx->pipeline.early,
        .hot = ctx->hot,
        .isa = ctx->hot->isa,
        .blur = blur,
        .t_start_ms = t0,
    };
    if (!frame_masks(ctx, t, f)) return ctx_fail(ctx, MOS_ERR_OUT_OF_MEMORY, "mos_end_frame: out of memory for the tile mask");
    if (f->bin_mask) frame_packed_pattern(ctx, f);
    if (backend_target_inspect_begin(t, ctx->current_inspect, f->pattern->owner, &ctx->allocator) != MOS_OK)
        return ctx_fail(ctx, MOS_ERR_OUT_OF_MEMORY, "mos_end_frame: out of memory for the inspection records");
    for (uint32_t i = 0; i < f->draw_count; i++) {
        const size_t bytes = f->blur.stochastic ? fe_blurred_bytes(&f->draws[i], &f->blur) : fe_tri_bytes(&f->draws[i]);
        f->tri_bytes = bytes > f->tri_bytes ? bytes : f->tri_bytes;
    }
    for (int w = 0; w < ctx->sched.worker_count; w++)
        if (backend_scratch_reserve(ctx->sched.workers[w].scratch, f, &ctx->allocator) != MOS_OK)
            return ctx_fail(ctx, MOS_ERR_OUT_OF_MEMORY,
                            "mos_end_frame: out of memory for the shading cache or the shaders' scratch");
    if (++ctx->frame_serial == 0) ctx->frame_serial = 1;
    f->serial = ctx->frame_serial;
    return MOS_OK;
}

/* What a frame's front-end status means to the caller. */
static mos_result frame_status(mos_context *ctx, const frame_state *f)
{
    if (f->status == MOS_OK) return MOS_OK;
    if (f->bin_ref_limit)
        return ctx_fail(ctx, f->status,
                        "mos_end_frame: the frame's triangles overlap fine bins more than %" PRIu64
                        " times (the limit: %d per bin, at least %" PRIu64 "; larger bins, fewer or smaller "
                        "triangles overlap fewer); the image is incomplete",
                        f->bin_ref_limit, BIN_REFS_PER_BIN, BIN_REFS_MIN);
    if (f->over_memory_limit)
        return ctx_fail(ctx, f->status,
                        "mos_end_frame: the frame needs more than %zu MiB of front-end memory (vertices, "
                        "triangles and bin lists); the image is incomplete", FRAME_MEMORY_LIMIT >> 20);
    return ctx_fail(ctx, f->status, "mos_end_frame: out of memory in the front-end; the image is incomplete");
}

mos_result mos_end_frame(mos_context *ctx, mos_frame_stats *stats)
{
    if (!ctx) return MOS_ERR_INVALID_ARGUMENT;
    if (!ctx->in_frame) return ctx_fail(ctx, MOS_ERR_FRAME_STATE, "mos_end_frame: no frame is being recorded");
    double t0 = util_now_ms();
    /* The target may have been destroyed during recording: it is only
     * marked dying, so its slot still holds it. */
    uint32_t index = (ctx->current_target.id & ((1u << POOL_INDEX_BITS) - 1)) - 1;
    frame_target *t = ctx->targets.slots[index].obj;
    frame_state f;
    mos_result r = frame_build(ctx, t, t0, &f);
    if (r == MOS_OK) {
        sched_run_frame(&ctx->sched, &f);
        t->last_serial = f.serial;
        t->last_clear = f.clear_color;
        r = frame_status(ctx, &f);
        if (stats) fill_stats(ctx, &f, util_now_ms() - t0, stats);
    }
    t->recording = false;
    if (r != MOS_OK) t->inspect.what = 0;  /* the records of a failed frame are not kept */
    ctx->in_frame = false;
    pool_collect_dying(ctx);
    return r;
}
