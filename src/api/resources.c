/* resources.c — typed handles over slot pools: render targets, buffers,
 * textures and shaders; creation validates, destruction during a frame is
 * deferred to the frame's end.  Fed by the application. */
#include <string.h>

#include "api/context.h"

enum { KIND_TARGET, KIND_BUFFER, KIND_TEXTURE, KIND_SHADER };

void *pool_get(const pool *p, uint32_t id)
{
    uint32_t index = (id & ((1u << POOL_INDEX_BITS) - 1)) - 1, gen = id >> POOL_INDEX_BITS;
    if (id == 0 || index >= p->count) return NULL;
    const pool_slot *s = &p->slots[index];
    return s->obj && !s->dying && s->generation == gen ? s->obj : NULL;
}

static mos_result pool_add(mos_context *ctx, pool *p, void *obj, uint32_t *id)
{
    uint32_t index = 0;
    while (index < p->count && p->slots[index].obj) index++;
    if (index == p->count) {
        if (p->count == (1u << POOL_INDEX_BITS) - 1) return MOS_ERR_OUT_OF_MEMORY;
        if (p->count == p->capacity) {
            uint32_t cap = p->capacity ? p->capacity * 2 : 16;
            pool_slot *ns = util_calloc(&ctx->allocator, cap, sizeof *ns);
            if (!ns) return MOS_ERR_OUT_OF_MEMORY;
            if (p->count) memcpy(ns, p->slots, p->count * sizeof *ns);
            util_free(&ctx->allocator, p->slots);
            p->slots = ns;
            p->capacity = cap;
        }
        p->count++;
    }
    pool_slot *s = &p->slots[index];
    s->generation = (s->generation + 1) & ((1u << (32 - POOL_INDEX_BITS)) - 1);
    if (s->generation == 0) s->generation = 1;
    s->obj = obj;
    s->dying = false;
    *id = (s->generation << POOL_INDEX_BITS) | (index + 1);
    return MOS_OK;
}

static void free_object(mos_context *ctx, int kind, void *obj)
{
    const mos_allocator *a = &ctx->allocator;
    switch (kind) {
    case KIND_TARGET: backend_target_release(obj, a); break;
    case KIND_BUFFER: util_free(a, ((buffer_obj *)obj)->data); break;
    case KIND_TEXTURE: texture_release(obj, a); break;
    case KIND_SHADER: program_free(((shader_obj *)obj)->program); break;
    default: break;
    }
    util_free(a, obj);
}

static void pool_remove(mos_context *ctx, pool *p, int kind, uint32_t id)
{
    if (!pool_get(p, id)) return;
    pool_slot *s = &p->slots[(id & ((1u << POOL_INDEX_BITS) - 1)) - 1];
    if (ctx->in_frame) {
        s->dying = true;  /* recorded draws may still point at it */
        return;
    }
    free_object(ctx, kind, s->obj);
    s->obj = NULL;
}

static void pool_sweep(mos_context *ctx, pool *p, int kind, bool all)
{
    for (uint32_t i = 0; i < p->count; i++) {
        pool_slot *s = &p->slots[i];
        if (s->obj && (all || s->dying)) {
            free_object(ctx, kind, s->obj);
            s->obj = NULL;
            s->dying = false;
        }
    }
    if (all) {
        util_free(&ctx->allocator, p->slots);
        memset(p, 0, sizeof *p);
    }
}

void pool_collect_dying(mos_context *ctx)
{
    pool_sweep(ctx, &ctx->targets, KIND_TARGET, false);
    pool_sweep(ctx, &ctx->buffers, KIND_BUFFER, false);
    pool_sweep(ctx, &ctx->textures, KIND_TEXTURE, false);
    pool_sweep(ctx, &ctx->shaders, KIND_SHADER, false);
}

void pool_release_all(mos_context *ctx)
{
    pool_sweep(ctx, &ctx->targets, KIND_TARGET, true);
    pool_sweep(ctx, &ctx->buffers, KIND_BUFFER, true);
    pool_sweep(ctx, &ctx->textures, KIND_TEXTURE, true);
    pool_sweep(ctx, &ctx->shaders, KIND_SHADER, true);
}

/* ---- render targets ------------------------------------------------------ */
mos_result mos_target_create(mos_context *ctx, const mos_target_desc *desc, mos_target *out)
{
    if (!ctx || !desc || !out) return ctx ? ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_target_create: NULL argument")
                                          : MOS_ERR_INVALID_ARGUMENT;
    out->id = 0;
    int spp = desc->samples ? desc->samples : 1;
    if (desc->width < 1 || desc->height < 1 || desc->width > 16384 || desc->height > 16384)
        return ctx_fail(ctx, MOS_ERR_BAD_SIZE, "mos_target_create: size %dx%d is outside 1..16384", desc->width,
                        desc->height);
    if (!raster_samples_valid(spp))
        return ctx_fail(ctx, MOS_ERR_UNSUPPORTED_SAMPLES,
                        "mos_target_create: %d samples per pixel is unsupported (1, 2, 4, 8, 16, 27, 32 or 64)",
                        desc->samples);
    if ((uint64_t)desc->width * (uint64_t)desc->height * (uint64_t)spp > (1ull << 31))
        return ctx_fail(ctx, MOS_ERR_BAD_SIZE, "mos_target_create: %dx%d at %d spp is too many samples", desc->width,
                        desc->height, spp);
    frame_target *t = util_calloc(&ctx->allocator, 1, sizeof *t);
    if (!t || backend_target_init(t, desc->width, desc->height, spp, &ctx->allocator) != MOS_OK) {
        util_free(&ctx->allocator, t);
        return ctx_fail(ctx, MOS_ERR_OUT_OF_MEMORY, "mos_target_create: out of memory for %dx%d at %d spp",
                        desc->width, desc->height, spp);
    }
    t->keep_samples = desc->keep_samples;
    mos_result r = pool_add(ctx, &ctx->targets, t, &out->id);
    if (r != MOS_OK) {
        free_object(ctx, KIND_TARGET, t);
        return ctx_fail(ctx, r, "mos_target_create: out of handles");
    }
    return MOS_OK;
}

void mos_target_destroy(mos_context *ctx, mos_target t)
{
    if (ctx) pool_remove(ctx, &ctx->targets, KIND_TARGET, t.id);
}

mos_result mos_target_sample_position(mos_context *ctx, mos_target handle, int x, int y, int s, float xyuvt[5])
{
    if (!ctx) return MOS_ERR_INVALID_ARGUMENT;
    const frame_target *t = pool_get(&ctx->targets, handle.id);
    if (!t) return ctx_fail(ctx, MOS_ERR_BAD_HANDLE, "mos_target_sample_position: target handle %u is invalid", handle.id);
    if (!xyuvt) return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_target_sample_position: NULL output");
    if (x < 0 || y < 0 || x >= t->width || y >= t->height || s < 0 || s >= t->samples)
        return ctx_fail(ctx, MOS_ERR_INDEX_RANGE, "mos_target_sample_position: (%d, %d) sample %d is outside %dx%d, %d spp",
                        x, y, s, t->width, t->height, t->samples);
    const float *q = raster_uvt_at(t->uvt, t->samples, x, y, s);
    xyuvt[0] = (float)x + t->positions.fx[s];
    xyuvt[1] = (float)y + t->positions.fy[s];
    xyuvt[2] = q[0];
    xyuvt[3] = q[1];
    xyuvt[4] = q[2];
    return MOS_OK;
}

mos_result ctx_idle_target(mos_context *ctx, mos_target handle, const char *fn, frame_target **out)
{
    frame_target *t = pool_get(&ctx->targets, handle.id);
    if (!t) return ctx_fail(ctx, MOS_ERR_BAD_HANDLE, "%s: target handle %u is invalid", fn, handle.id);
    if (ctx->in_frame && ctx->current_target.id == handle.id)
        return ctx_fail(ctx, MOS_ERR_FRAME_STATE, "%s: the target is being rendered", fn);
    *out = t;
    return MOS_OK;
}

static mos_result read_rows(mos_context *ctx, mos_target handle, uint8_t *rgba, size_t row_bytes, bool samples)
{
    const char *fn = samples ? "mos_target_read_samples" : "mos_target_read_rgba8";
    if (!ctx) return MOS_ERR_INVALID_ARGUMENT;
    frame_target *t = pool_get(&ctx->targets, handle.id);
    if (!t) return ctx_fail(ctx, MOS_ERR_BAD_HANDLE, "%s: target handle %u is invalid", fn, handle.id);
    if (!rgba) return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "%s: NULL destination", fn);
    if (ctx->in_frame && ctx->current_target.id == handle.id)
        return ctx_fail(ctx, MOS_ERR_FRAME_STATE, "%s: the target is being rendered", fn);
    if (samples && !t->keep_samples)
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "%s: the target keeps no samples (mos_target_desc.keep_samples)",
                        fn);
    size_t per_pixel = samples ? (size_t)t->samples : 1;
    size_t need = (size_t)t->width * per_pixel * 4;
    if (row_bytes < need)
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "%s: row_bytes %zu < %zu", fn, row_bytes, need);
    for (int y = 0; y < t->height; y++) {
        uint8_t *dst = rgba + (size_t)(t->height - 1 - y) * row_bytes;
        for (int x = 0; x < t->width; x++) {
            for (size_t s = 0; s < per_pixel; s++, dst += 4) {
                uint32_t c = samples ? frame_target_sample(t, x, y, (int)s)
                                     : t->resolved[(size_t)y * (size_t)t->width + (size_t)x];
                for (int ch = 0; ch < 4; ch++) dst[ch] = (uint8_t)(c >> (8 * ch));
            }
        }
    }
    return MOS_OK;
}

mos_result mos_target_read_rgba8(mos_context *ctx, mos_target t, uint8_t *rgba, size_t row_bytes)
{
    return read_rows(ctx, t, rgba, row_bytes, false);
}

mos_result mos_target_read_samples(mos_context *ctx, mos_target t, uint8_t *rgba, size_t row_bytes)
{
    return read_rows(ctx, t, rgba, row_bytes, true);
}

/* ---- buffers ---------------------------------------------------------------- */
mos_result mos_buffer_create(mos_context *ctx, const mos_buffer_desc *desc, mos_buffer *out)
{
    if (!ctx) return MOS_ERR_INVALID_ARGUMENT;
    if (!desc || !out) return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_buffer_create: NULL argument");
    out->id = 0;
    if (desc->size == 0 || desc->size > ((size_t)1 << 34))
        return ctx_fail(ctx, MOS_ERR_BAD_SIZE, "mos_buffer_create: size %zu is zero or too large", desc->size);
    if (!desc->data) return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_buffer_create: data is NULL");
    buffer_obj *b = util_calloc(&ctx->allocator, 1, sizeof *b);
    void *data = b ? util_alloc(&ctx->allocator, desc->size) : NULL;
    if (!data) {
        util_free(&ctx->allocator, b);
        return ctx_fail(ctx, MOS_ERR_OUT_OF_MEMORY, "mos_buffer_create: out of memory for %zu bytes", desc->size);
    }
    memcpy(data, desc->data, desc->size);
    b->data = data;
    b->size = desc->size;
    mos_result r = pool_add(ctx, &ctx->buffers, b, &out->id);
    if (r != MOS_OK) {
        free_object(ctx, KIND_BUFFER, b);
        return ctx_fail(ctx, r, "mos_buffer_create: out of handles");
    }
    return MOS_OK;
}

void mos_buffer_destroy(mos_context *ctx, mos_buffer b)
{
    if (ctx) pool_remove(ctx, &ctx->buffers, KIND_BUFFER, b.id);
}

/* ---- textures ---------------------------------------------------------------- */
mos_result mos_texture_create(mos_context *ctx, const mos_texture_desc *desc, mos_texture *out)
{
    if (!ctx) return MOS_ERR_INVALID_ARGUMENT;
    if (!desc || !out || !desc->rgba8)
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_texture_create: NULL argument");
    out->id = 0;
    if (desc->width < 1 || desc->height < 1 || desc->width > 16384 || desc->height > 16384)
        return ctx_fail(ctx, MOS_ERR_BAD_SIZE, "mos_texture_create: size %dx%d is outside 1..16384", desc->width,
                        desc->height);
    if ((unsigned)desc->wrap_u > MOS_WRAP_MIRRORED_REPEAT || (unsigned)desc->wrap_v > MOS_WRAP_MIRRORED_REPEAT ||
        (unsigned)desc->mip > MOS_MIP_LINEAR)
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_texture_create: unknown wrap or mip filter mode");
    mos_sampler *s = util_calloc(&ctx->allocator, 1, sizeof *s);
    if (!s || texture_build(s, desc->width, desc->height, desc->rgba8, &ctx->allocator) != MOS_OK) {
        util_free(&ctx->allocator, s);
        return ctx_fail(ctx, MOS_ERR_OUT_OF_MEMORY, "mos_texture_create: out of memory");
    }
    s->sample = ctx->hot->shader->sample;
    s->wrap[0] = (int)desc->wrap_u;
    s->wrap[1] = (int)desc->wrap_v;
    s->mip_linear = desc->mip == MOS_MIP_LINEAR;
    mos_result r = pool_add(ctx, &ctx->textures, s, &out->id);
    if (r != MOS_OK) {
        free_object(ctx, KIND_TEXTURE, s);
        return ctx_fail(ctx, r, "mos_texture_create: out of handles");
    }
    return MOS_OK;
}

void mos_texture_destroy(mos_context *ctx, mos_texture t)
{
    if (ctx) pool_remove(ctx, &ctx->textures, KIND_TEXTURE, t.id);
}

/* ---- shaders ------------------------------------------------------------------ */
mos_result mos_shader_create(mos_context *ctx, const mos_shader_desc *desc, mos_shader *out)
{
    if (!ctx) return MOS_ERR_INVALID_ARGUMENT;
    if (!desc || !out) return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_shader_create: NULL argument");
    out->id = 0;
    if (!desc->vertex || !desc->fragment)
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_shader_create: vertex and fragment functions are required");
    if (desc->varying_count < 0 || desc->varying_count > MOS_MAX_VARYINGS)
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_shader_create: varying_count %d is outside 0..%d",
                        desc->varying_count, MOS_MAX_VARYINGS);
    if (desc->scratch_bytes > MOS_MAX_SCRATCH_BYTES)
        return ctx_fail(ctx, MOS_ERR_BAD_SIZE, "mos_shader_create: scratch_bytes %zu is more than %zu",
                        desc->scratch_bytes, MOS_MAX_SCRATCH_BYTES);
    if (desc->batch_quads < 0 || desc->batch_quads > MOS_MAX_BATCH_QUADS)
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_shader_create: batch_quads %d is outside 0..%d",
                        desc->batch_quads, MOS_MAX_BATCH_QUADS);
    shader_obj *s = util_calloc(&ctx->allocator, 1, sizeof *s);
    if (!s) return ctx_fail(ctx, MOS_ERR_OUT_OF_MEMORY, "mos_shader_create: out of memory");
    s->desc = *desc;
    s->desc.label = NULL;  /* the caller's string may not outlive the shader */
    mos_result r = pool_add(ctx, &ctx->shaders, s, &out->id);
    if (r != MOS_OK) {
        free_object(ctx, KIND_SHADER, s);
        return ctx_fail(ctx, r, "mos_shader_create: out of handles");
    }
    return MOS_OK;
}

mos_result mos_shader_create_spirv(mos_context *ctx, const mos_spirv_desc *desc, mos_shader *out)
{
    if (!ctx) return MOS_ERR_INVALID_ARGUMENT;
    if (!desc || !out) return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_shader_create_spirv: NULL argument");
    out->id = 0;
    if (!desc->vertex || !desc->fragment || !desc->vertex_words || !desc->fragment_words)
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_shader_create_spirv: vertex and fragment SPIR-V are required");
    if (desc->pass_ops < 0 || desc->pass_registers < 0 || desc->pass_textures < 0 || desc->pass_interpolants < 0 ||
        (unsigned)desc->partitioner > MOS_PARTITION_OPTIMAL || !(desc->pass_cost >= 0) || !(desc->fetch_cost >= 0) ||
        !(desc->op_cost >= 0))
        return ctx_fail(ctx, MOS_ERR_INVALID_ARGUMENT, "mos_shader_create_spirv: negative limit or cost, or unknown partitioner");
    const int default_costs = desc->pass_cost == 0 && desc->fetch_cost == 0 && desc->op_cost == 0;
    const program_options opt = {
        .limits = { desc->pass_ops, desc->pass_registers, desc->pass_textures, desc->pass_interpolants },
        .algo = desc->partitioner == MOS_PARTITION_RDSH ? PART_RDSH
                : desc->partitioner == MOS_PARTITION_OPTIMAL ? PART_OPTIMAL : PART_RDS,
        .costs = { default_costs ? 15 : desc->pass_cost, default_costs ? 5 : desc->fetch_cost,
                   default_costs ? 1 : desc->op_cost },
        .allocator = &ctx->allocator,  /* the program lives in the context */
    };
    char err[sizeof ctx->last_error - 64];
    shader_program *prog;
    const mos_result built = program_build(desc->vertex, desc->vertex_words, desc->fragment, desc->fragment_words,
                                           desc->vertex_name ? desc->vertex_name : "vertex",
                                           desc->fragment_name ? desc->fragment_name : "fragment", &opt, &prog, err,
                                           sizeof err);
    if (built != MOS_OK)  /* the arguments were checked above: MOS_ERR_SHADER or MOS_ERR_OUT_OF_MEMORY */
        return ctx_fail(ctx, built, "mos_shader_create_spirv: %s", err);
    mos_shader_desc d;
    program_desc(prog, &d);
    if (d.scratch_bytes > MOS_MAX_SCRATCH_BYTES) {
        program_free(prog);
        return ctx_fail(ctx, MOS_ERR_SHADER, "mos_shader_create_spirv: the shader needs %zu bytes of scratch per batch, more than %zu",
                        d.scratch_bytes, MOS_MAX_SCRATCH_BYTES);
    }
    shader_obj *s = util_calloc(&ctx->allocator, 1, sizeof *s);
    if (!s) {
        program_free(prog);
        return ctx_fail(ctx, MOS_ERR_OUT_OF_MEMORY, "mos_shader_create_spirv: out of memory");
    }
    s->desc = d;
    s->program = prog;
    mos_result r = pool_add(ctx, &ctx->shaders, s, &out->id);
    if (r != MOS_OK) {
        free_object(ctx, KIND_SHADER, s);
        return ctx_fail(ctx, r, "mos_shader_create_spirv: out of handles");
    }
    return MOS_OK;
}

void mos_shader_destroy(mos_context *ctx, mos_shader s)
{
    if (ctx) pool_remove(ctx, &ctx->shaders, KIND_SHADER, s.id);
}
