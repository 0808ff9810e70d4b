/* context.h — private: the mos_context and its handle pools.
 * Fed by every file of src/api; no other stage includes it. */
#ifndef MOSAIC_API_CONTEXT_H
#define MOSAIC_API_CONTEXT_H

#include <stdarg.h>

#include "backend/backend.h"
#include "frontend/frontend.h"
#include "pattern/pattern.h"
#include "sched/sched.h"
#include "shader/shader.h"

/* A slot pool: handle id = (generation << 20) | (index + 1), 0 = invalid. */
#define POOL_INDEX_BITS 20
typedef struct pool_slot {
    void *obj;
    uint32_t generation;
    bool dying;  /* destroyed during a frame: freed when the frame ends */
} pool_slot;
typedef struct pool {
    pool_slot *slots;
    uint32_t count, capacity;
} pool;

typedef struct buffer_obj {
    size_t size;
    void *data;
} buffer_obj;
typedef struct shader_obj {
    mos_shader_desc desc;
    shader_program *program;  /* mos_shader_create_spirv: owned, desc.user */
} shader_obj;

struct mos_context {
    mos_allocator allocator;
    mos_logger logger;
    char last_error[512];

    mos_pipeline_desc pipeline;  /* defaults filled in */
    bool bin_auto;               /* bin_px was left 0: 16, or FRAME_BLUR_BIN_PX for frames of blur */
    bool batch_auto;             /* batch was left 0: 4096, or the whole frame for frames of blur */
    mos_isa isa;                 /* resolved: never MOS_ISA_AUTO */
    const backend_isa *hot;      /* the back-end's per-ISA loops (backend_isa_select(isa)) */
    char pattern_name[256];  /* longer names are rejected, never cut */
    sched sched;
    bool sched_running;

    /* bin -> worker table for the last frame's grid */
    pattern_table pattern;
    int pattern_bin_px, pattern_width, pattern_height;
    /* the same pattern packed onto the bins a tile mask leaves (frame.c,
     * frame_packed_pattern), and that mask (bins of the grid above) */
    pattern_table packed;
    uint8_t *packed_mask;

    pool targets, buffers, textures, shaders;

    /* frame being recorded */
    bool in_frame;
    uint32_t frame_serial;
    mos_target current_target;
    uint32_t clear_color;
    float clear_depth;
    mos_blur_desc blur;  /* as given (validated) */
    unsigned current_inspect;  /* mos_frame_desc.inspect of the frame being recorded */
    const uint8_t *tile_mask;  /* mos_frame_desc.tile_mask copied into draw_arena, or NULL (whole screen) */
    int tile_px;
    bool frame_moves;    /* a draw has uniforms_t1 */
    arena draw_arena;  /* uniform copies */
    frame_draw *draws;
    uint32_t draw_count, draw_capacity;
};

/* Records an error on the context (and the logger); returns code. */
mos_result ctx_fail(mos_context *ctx, mos_result code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void ctx_clear_error(mos_context *ctx);
/* Frees the bin -> worker tables, both or the packed one (the next frame
 * builds them again). */
void ctx_patterns_free(mos_context *ctx);
void ctx_packed_free(mos_context *ctx);

/* Pools (resources.c). */
void *pool_get(const pool *p, uint32_t id);
/* The target of `handle` in *out when it exists and is not being rendered;
 * else the error, recorded for function fn. */
mos_result ctx_idle_target(mos_context *ctx, mos_target handle, const char *fn, frame_target **out);
void pool_release_all(mos_context *ctx);
/* Frees objects destroyed while a frame was being recorded. */
void pool_collect_dying(mos_context *ctx);

#endif
