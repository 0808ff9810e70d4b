/* mosaic.h — the public API of libmosaic, a multithreaded sort-middle
 * software rasterizer.  Everything the library owns hangs off a mos_context.
 *
 * USAGE
 *
 *   mos_context *ctx;
 *   mos_context_desc cd = { .pipeline = { .threads = 0 } };   // 0 = default
 *   if (mos_context_create(&cd, &ctx) != MOS_OK) ...
 *
 *   mos_target rt;   mos_target_create(ctx, &(mos_target_desc){ .width = 640,
 *                        .height = 480, .samples = 4 }, &rt);
 *   mos_buffer vb;   mos_buffer_create(ctx, &(mos_buffer_desc){ .data = verts,
 *                        .size = sizeof verts }, &vb);
 *   mos_shader sh;   mos_shader_create(ctx, &(mos_shader_desc){ .vertex = my_vs,
 *                        .fragment = my_fs, .varying_count = 3 }, &sh);
 *
 *   mos_begin_frame(ctx, &(mos_frame_desc){ .target = rt, .clear_depth = 1 });
 *   mos_draw(ctx, &(mos_draw_desc){ .shader = sh, .vertices = vb,
 *            .vertex_stride = 6, .vertex_count = 3, .depth_test = true });
 *   mos_frame_stats st;
 *   mos_end_frame(ctx, &st);          // returns when the image is complete
 *   mos_target_read_rgba8(ctx, rt, pixels, 640 * 4);
 *
 *   mos_context_destroy(ctx);
 *
 * Descriptor structs follow one rule: a zero field means "the default".
 * Every call that can fail returns a mos_result; mos_last_error(ctx) then
 * holds a readable message naming what was wrong.
 *
 * THREADING CONTRACT
 *   A context is used from one application thread at a time.  Inside, one
 *   front-end thread and N worker threads run the frame; mos_end_frame returns
 *   only when every worker has finished and resolved its bins.  Buffers,
 *   textures and shaders are immutable once created, and uniforms are copied
 *   at mos_draw, so the application may reuse its memory right after a call.
 *   Shader callbacks run on worker and front-end threads concurrently and must
 *   be pure functions of their inputs (this is what makes images
 *   deterministic across thread counts and bin sizes).
 *
 * COORDINATES
 *   Clip space as in OpenGL (x, y, z in [-w, w]); window y points up, so
 *   pixel (0, 0) and fine bin (0, 0) are the lower-left ones.  Pixel centres
 *   are at +0.5.  mos_target_read_rgba8 returns rows top first (image order).
 */
#ifndef MOSAIC_H
#define MOSAIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* MOS_API marks the library's public functions: libmosaic is built with
 * -fvisibility=hidden, so these are the only symbols libmosaic.so exports
 * (and the only global ones of the installed libmosaic.a).  Define MOS_API
 * yourself before including this header to override it (e.g. empty). */
#ifndef MOS_API
#if defined(__GNUC__) || defined(__clang__)
#define MOS_API __attribute__((visibility("default")))
#else
#define MOS_API
#endif
#endif

/* VERSION
 * Until 1.0 a minor version may change the layout of public structs (0.2:
 * mos_shader_desc.user, scratch_bytes; mos_vs_batch and mos_fs_batch.user,
 * scratch, isa; 0.3: mos_shader_desc.batch_quads, mos_vs_batch.isa; 0.4:
 * mos_frame_stats.frontend_serial_ms; 0.5: never_discards in mos_shader_desc
 * and mos_draw_desc, mos_blur_desc.pixel_offset; 0.6: mos_fs_batch.lane_px,
 * mos_sample_quads_spaced):
 * rebuild against the header of the library you link.  These three lines are
 * the one place the version is written: the Makefile reads them for the
 * shared library's file name and soname (libmosaic.so.MAJOR.MINOR.PATCH;
 * soname libmosaic.so.MAJOR, or libmosaic.so.0.MINOR before 1.0, as a minor
 * version then breaks the ABI) and for mosaic.pc's Version. */
#define MOS_VERSION_MAJOR 0
#define MOS_VERSION_MINOR 7
#define MOS_VERSION_PATCH 0
/* The version packed into one integer, 0x00MMmmpp: compare with < and >. */
#define MOS_MAKE_VERSION(major, minor, patch) \
    (((uint32_t)(major) << 16) | ((uint32_t)(minor) << 8) | (uint32_t)(patch))
#define MOS_VERSION MOS_MAKE_VERSION(MOS_VERSION_MAJOR, MOS_VERSION_MINOR, MOS_VERSION_PATCH)
/* The version of the library linked at run time, packed as MOS_VERSION (the
 * header's version is what a program was compiled against).  A program that
 * loads libmosaic.so may check it has the ABI it was built for:
 *   uint32_t v = mos_version();
 *   if ((v >> 16) != MOS_VERSION_MAJOR ||
 *       (MOS_VERSION_MAJOR == 0 && ((v >> 8) & 0xff) != MOS_VERSION_MINOR)) ...
 * (the soname already ensures this for a dynamic link). */
MOS_API uint32_t mos_version(void);

#define MOS_MAX_WORKERS 256   /* logical rasterizers per context */
#define MOS_MAX_VARYINGS 16   /* floats a vertex shader may pass on */
#define MOS_MAX_TEXTURES 8    /* textures bound per draw */
#define MOS_MAX_UNIFORM_BYTES 1024

/* ---- results ------------------------------------------------------------
 * One X-macro list gives the enum and the default messages (grep ORDER
 * MOS_RESULTS: src/api/result.c expands the same list). */
#define MOS_RESULTS(X)                                                        \
    X(MOS_OK, "ok")                                                           \
    X(MOS_ERR_INVALID_ARGUMENT, "invalid argument")                          \
    X(MOS_ERR_OUT_OF_MEMORY, "out of memory")                                 \
    X(MOS_ERR_BAD_HANDLE, "handle is invalid or was destroyed")               \
    X(MOS_ERR_UNKNOWN_PATTERN, "unknown bin pattern")                         \
    X(MOS_ERR_PATTERN_WORKERS, "pattern does not support this worker count")  \
    X(MOS_ERR_BAD_SIZE, "size is zero or out of range")                       \
    X(MOS_ERR_UNSUPPORTED_SAMPLES, "unsupported samples per pixel")           \
    X(MOS_ERR_INDEX_RANGE, "index out of range")                              \
    X(MOS_ERR_FRAME_STATE, "call not allowed in this frame state")            \
    X(MOS_ERR_THREAD, "could not start a thread")                             \
    X(MOS_ERR_IO, "file could not be read or written")                        \
    X(MOS_ERR_PARSE, "malformed input file")                                  \
    X(MOS_ERR_SHADER, "shader could not be compiled")

typedef enum mos_result {
#define MOS_X_ENUM(name, msg) name,
    MOS_RESULTS(MOS_X_ENUM)
#undef MOS_X_ENUM
    MOS_RESULT_COUNT
} mos_result;

/* The fixed name ("MOS_ERR_INDEX_RANGE") and default message of a code. */
MOS_API const char *mos_result_name(mos_result r);
MOS_API const char *mos_result_message(mos_result r);

/* ---- hooks --------------------------------------------------------------- */
/* The allocator contract: alloc returns SIZE bytes or NULL (NULL becomes
 * MOS_ERR_OUT_OF_MEMORY, never a crash); the address needs no particular
 * alignment, not even malloc's (the library over-allocates by 71 bytes and
 * aligns what it needs itself).  free receives exactly the pointers alloc
 * returned, once each.  Both may be called from any of the context's threads
 * (the caller's, the front-end, the workers), so they must be thread-safe;
 * the library never calls them in its per-pixel loops. */
typedef struct mos_allocator {
    void *(*alloc)(size_t size, void *user_data);
    void (*free)(void *ptr, void *user_data);
    void *user_data;
} mos_allocator;

typedef struct mos_logger {
    /* Called with every error the library reports (also those of
     * mos_context_create, which has no context yet to hold a message). */
    void (*func)(mos_result code, const char *message, void *user_data);
    void *user_data;
} mos_logger;

/* ---- context ------------------------------------------------------------- */
typedef struct mos_context mos_context;

/* The sort-middle pipeline's shape.  Zero fields take the defaults below. */
typedef struct mos_pipeline_desc {
    int threads;          /* worker threads (logical rasterizers); 0 = the cores this process may run on */
    const char *pattern;  /* bin -> worker table: "diagonal" (default), "g80", ...; at most 255 chars */
    int bin_px;           /* fine bin edge in pixels, power of two 4..256; 0: 16, and 32 for frames
                           * the stochastic back-end draws (blur), 64 for decoupled blur on targets
                           * of 16 such bins a thread or more, when coarse_px and a frame's tile_px
                           * are multiples of it (mos_frame_stats.bin says which) */
    int coarse_px;        /* coarse tile edge in pixels, multiple of bin_px; default 256 */
    int batch;            /* primitives per binning batch; <0 = whole frame; 0: 4096, and the whole
                           * frame for frames the stochastic back-end draws (blur: each bin's work
                           * then comes at once, and its last work need not keep its depth;
                           * mos_frame_stats.batch says which) */
    int early;            /* early-draw capacity K; default 64; <0 = off (K = 0) */
    int fifo_depth;       /* work items per worker FIFO; default 256 */
} mos_pipeline_desc;

/* Instruction set of the hot loops; AUTO picks the best the CPU has. */
typedef enum mos_isa {
    MOS_ISA_AUTO = 0,
    MOS_ISA_SCALAR,  /* portable C */
    MOS_ISA_AVX2,
    MOS_ISA_AVX512,
} mos_isa;

typedef struct mos_context_desc {
    mos_pipeline_desc pipeline;
    mos_isa isa;              /* zero = best available; asking for one the CPU lacks fails */
    mos_allocator allocator;  /* zero = malloc/free */
    mos_logger logger;        /* zero = silent */
} mos_context_desc;

MOS_API mos_result mos_context_create(const mos_context_desc *desc, mos_context **out);
MOS_API void mos_context_destroy(mos_context *ctx);
/* Changes the pipeline shape between frames (threads, pattern, bins, ...).
 * Resources stay valid.  On error the previous shape is kept. */
MOS_API mos_result mos_context_configure(mos_context *ctx, const mos_pipeline_desc *desc);
/* The shape in use, with defaults filled in (pattern points into the context). */
MOS_API void mos_context_pipeline(const mos_context *ctx, mos_pipeline_desc *out);
/* The message of the last failed call on this context ("" if none). */
MOS_API const char *mos_last_error(const mos_context *ctx);

/* Names of the registered bin patterns, NULL-terminated, and a one-line
 * description of each. */
MOS_API const char *const *mos_pattern_names(void);
MOS_API const char *mos_pattern_describe(const char *name);

/* ---- handles ------------------------------------------------------------- */
typedef struct mos_target { uint32_t id; } mos_target;
typedef struct mos_buffer { uint32_t id; } mos_buffer;
typedef struct mos_texture { uint32_t id; } mos_texture;
typedef struct mos_shader { uint32_t id; } mos_shader;

/* ---- render targets: colour RGBA8 + depth per sample --------------------- */
typedef struct mos_target_desc {
    int width, height;  /* pixels, 1..16384; width * height * samples at most 2^31 */
    int samples;        /* visibility samples per pixel: 1, 2, 4, 8, 16, 27, 32 or 64; 0 = 1 */
    bool keep_samples;  /* every frame stores every sample, for mos_target_read_samples; false: a
                         * bin that decoupled blur draws whole may go straight to its pixels (faster
                         * at high sample counts), and mos_target_read_samples refuses the target */
} mos_target_desc;

/* Whether libmosaic renders SPP visibility samples per pixel.  BLUR true:
 * every count a target takes, 1, 2, 4, 8, 16, 27, 32 or 64 (27, 32 and 64
 * are for blur: the lens and the shutter want more samples).  BLUR false:
 * the counts with a standard MSAA pattern, 1, 2, 4, 8 and 16 (the ones an
 * OpenGL renderer also draws).  The one list of supported counts: a tool
 * that lists them asks for 1..64. */
MOS_API bool mos_samples_supported(int spp, bool blur);
MOS_API mos_result mos_target_create(mos_context *ctx, const mos_target_desc *desc, mos_target *out);
MOS_API void mos_target_destroy(mos_context *ctx, mos_target t);
/* Resolved image, rows top first, row_bytes >= 4 * width. */
MOS_API mos_result mos_target_read_rgba8(mos_context *ctx, mos_target t, uint8_t *rgba, size_t row_bytes);
/* Raw samples, rows top first: width * samples RGBA8 values per row
 * (row_bytes >= 4 * width * samples), of a target created with
 * keep_samples (MOS_ERR_INVALID_ARGUMENT else).  For tests and tools. */
/* The 5D position of visibility sample s of pixel (x, y) (rows bottom up):
 * window x, y (pixel centre at +0.5), lens u, v on the unit disk, time t. */
MOS_API mos_result mos_target_sample_position(mos_context *ctx, mos_target t, int x, int y, int s, float xyuvt[5]);
MOS_API mos_result mos_target_read_samples(mos_context *ctx, mos_target t, uint8_t *rgba, size_t row_bytes);

/* ---- buffers: vertex floats or uint32 indices, copied at creation -------- */
typedef struct mos_buffer_desc {
    const void *data;
    size_t size;  /* bytes */
} mos_buffer_desc;

MOS_API mos_result mos_buffer_create(mos_context *ctx, const mos_buffer_desc *desc, mos_buffer *out);
MOS_API void mos_buffer_destroy(mos_context *ctx, mos_buffer b);

/* ---- textures: RGBA8, mipmapped, repeat wrap, bilinear within a level ----- */
/* How a texture repeats outside 0..1 (GL's wrap modes), per axis. */
typedef enum mos_wrap {
    MOS_WRAP_REPEAT = 0,      /* GL_REPEAT */
    MOS_WRAP_CLAMP_TO_EDGE,   /* GL_CLAMP_TO_EDGE */
    MOS_WRAP_MIRRORED_REPEAT, /* GL_MIRRORED_REPEAT */
} mos_wrap;
/* Filtering between mip levels; within a level it is always bilinear. */
typedef enum mos_mip_filter {
    MOS_MIP_NEAREST = 0,  /* one level per 2x2 quad (GL_LINEAR_MIPMAP_NEAREST) */
    MOS_MIP_LINEAR,       /* the two nearest levels blended (GL_LINEAR_MIPMAP_LINEAR, trilinear) */
} mos_mip_filter;

typedef struct mos_texture_desc {
    int width, height;     /* 1..16384 */
    const uint8_t *rgba8;  /* width * height * 4 bytes, rows top first */
    mos_wrap wrap_u, wrap_v;  /* default repeat */
    mos_mip_filter mip;       /* default nearest level */
} mos_texture_desc;

MOS_API mos_result mos_texture_create(mos_context *ctx, const mos_texture_desc *desc, mos_texture *out);
MOS_API void mos_texture_destroy(mos_context *ctx, mos_texture t);

/* What a fragment shader sees of a bound texture. */
typedef struct mos_sampler mos_sampler;
/* Samples quad_count 2x2 quads (lanes as in mos_fs_batch): the mip level of
 * each quad comes from its (u, v) differences.  out[c][lane], c = r,g,b,a in
 * 0..1. */
MOS_API void mos_sample_quads(const mos_sampler *s, int quad_count, const float *u, const float *v,
                      float *const out[4]);
/* mos_sample_quads for quads whose lanes are lane_px pixels apart
 * (mos_fs_batch.lane_px): the differences are taken per pixel, so the level
 * is the one a quad of pixels there picks.  lane_px 1 (or 0): as
 * mos_sample_quads. */
MOS_API void mos_sample_quads_spaced(const mos_sampler *s, float lane_px, int quad_count, const float *u,
                                     const float *v, float *const out[4]);

/* ---- native C shaders ----------------------------------------------------
 * Vertex stage: count vertices at a time.  attribs points at the first
 * vertex's floats (stride floats apart); the shader writes clip-space
 * positions (4 floats per vertex) and varying_count floats per vertex. */
typedef struct mos_vs_batch {
    int count;
    const float *attribs;
    int stride;
    const void *uniforms;
    float *clip;      /* [count][4] */
    float *varyings;  /* [count][varying_count] */
    int varying_count;
    void *user;       /* mos_shader_desc.user */
    void *scratch;    /* mos_shader_desc.scratch_bytes, 64-byte aligned, this thread's (NULL if 0) */
    mos_isa isa;      /* the instruction set the context runs (never AUTO), as in mos_fs_batch */
} mos_vs_batch;

/* Fragment stage: quad_count 2x2 quads in SoA layout.  Lane l = 4*q + i with
 * i = 0 (x, y), 1 (x+1, y), 2 (x, y+1), 3 (x+1, y+1), so ddx of a value is
 * lane 1 - lane 0 and ddy lane 2 - lane 0.  Lanes that cover no sample are
 * helper lanes: they are shaded so derivatives exist, their colour is unused.
 * Varyings arrive perspective-correct at pixel centres. */
typedef struct mos_fs_batch {
    int quad_count;
    const float *const *varyings;  /* [varying_count][4 * quad_count] */
    int varying_count;
    const float *frag_x, *frag_y;  /* window coordinates of pixel centres */
    const uint8_t *live;           /* 1 = covers a sample, 0 = helper lane */
    const void *uniforms;
    const mos_sampler *const *textures;  /* MOS_MAX_TEXTURES, NULL if unbound */
    float *const *out;             /* out[c][lane], c = r, g, b, a, 0..1 */
    uint8_t *discard;              /* set lane to 1 to discard; starts 0 */
    mos_isa isa;                   /* the instruction set the context runs (never AUTO): a shader
                                    * may pick a build of its loops for it */
    void *user;                    /* mos_shader_desc.user */
    void *scratch;                 /* mos_shader_desc.scratch_bytes, 64-byte aligned, this thread's
                                    * (NULL if 0); contents undefined at entry */
    float lane_px;                 /* pixels between neighbouring lanes of a quad: 1 (or 0) for
                                    * pixel quads, 1 / rate for decoupled shading-grid quads;
                                    * pass it to mos_sample_quads_spaced */
    bool cells;                    /* each lane stands for the cell of lane_px pixels around it (a
                                    * shading-grid point, or a pixel, of a blurred decoupled frame):
                                    * textures average the cell (mos_sample_quads_batch), as the
                                    * samples it serves would see it */
} mos_fs_batch;

/* What a fragment shader of batch b should call: mos_sample_quads_spaced
 * at b->lane_px, and where b->cells is set each lane the mean of four taps
 * a quarter of a lane step from it along both of its quad's axes (at the
 * quad's level), so a shading-grid point returns its cell's average as the
 * samples it stands for would have seen it. */
MOS_API void mos_sample_quads_batch(const mos_fs_batch *b, const mos_sampler *s, int quad_count, const float *u,
                                    const float *v, float *const out[4]);

typedef void (*mos_vertex_fn)(const mos_vs_batch *b);
typedef void (*mos_fragment_fn)(const mos_fs_batch *b);

/* A shader object: what every draw with it hands to the back-end.  Native C
 * shaders and compiled ones meet the pipeline here alike: two entry points,
 * a pointer to the shader's own state (user: a compiled program, tables;
 * read-only while frames run, as batches run on several threads at once),
 * and scratch_bytes of per-thread working memory each batch gets. */
#define MOS_MAX_SCRATCH_BYTES ((size_t)1 << 26)
#define MOS_MAX_BATCH_QUADS 256  /* the most quads a fragment batch may hold */
typedef struct mos_shader_desc {
    mos_vertex_fn vertex;
    mos_fragment_fn fragment;
    int varying_count;  /* 0..MOS_MAX_VARYINGS */
    const char *label;
    void *user;            /* handed to every batch (mos_vs_batch.user, mos_fs_batch.user) */
    size_t scratch_bytes;  /* 0..MOS_MAX_SCRATCH_BYTES per batch */
    /* The most quads a fragment batch of this shader holds, 1..MOS_MAX_BATCH_QUADS
     * (0: 16).  The back-end gathers up to this many quads of a bin before it
     * shades them, so a shader whose cost per call is high (an interpreter, a
     * multipass program) runs over a bin's worth at once; the image does not
     * depend on it. */
    int batch_quads;
    /* A promise: the fragment shader never sets discard, whatever its
     * uniforms.  Decoupled blur then resolves visibility before it shades
     * (only the nearest sample's shading point is shaded); without it a
     * draw's samples take the ordered path.  Compiled shaders set it
     * themselves when their fragment stage has no discard. */
    bool never_discards;
} mos_shader_desc;

MOS_API mos_result mos_shader_create(mos_context *ctx, const mos_shader_desc *desc, mos_shader *out);
MOS_API void mos_shader_destroy(mos_context *ctx, mos_shader s);

/* ---- compiled shaders ------------------------------------------------------
 * A vertex and a fragment shader as SPIR-V (GLSL 4.50 compiled by glslang,
 * e.g. `glslangValidator -G`, or libmosaic_tools' glsl_compile), translated
 * into Mosaic's DAG IR and run on its SIMD VM behind the same mos_shader as a
 * native one.  What they may use: float, vec2-4, mat3-4, int and bool
 * (carried as floats: exact below 2^24, no bit operations), one uniform
 * block (std140 offsets into mos_draw_desc.uniforms), sampler2D at binding
 * b = texture unit b, inputs and outputs by location (the vertex inputs are
 * the vertex's floats packed in location order; varyings likewise), the
 * GLSL.std.450 built-ins, discard, dFdx/dFdy (fine, from the 2x2 quad),
 * gl_FragCoord.xy, if/else (flattened to selects), loops whose bounds fold to
 * constants (unrolled) and function calls (inlined).  The rest fails with
 * MOS_ERR_SHADER and a "name:line: message" in mos_last_error, and so do a
 * vertex shader reading more than 256 input floats, a fragment shader
 * reading more than MOS_MAX_VARYINGS varying floats, and a uniform read past
 * MOS_MAX_UNIFORM_BYTES.  A draw must give at least the uniform bytes the
 * shader reads (mos_draw: MOS_ERR_INVALID_ARGUMENT otherwise).
 *
 * With any pass limit set, the fragment shader is split into passes that
 * each fit them (Recursive Dominator Split, Chan et al. 2002): each pass runs
 * over the whole batch before the next, saving what later passes read.  Every
 * partitioner stops after 60 s with the best partition it has (the
 * heuristic's at worst, which may run to 1.5x that).  All the
 * compiler's memory comes from the context's allocator; a failed allocation
 * is MOS_ERR_OUT_OF_MEMORY. */
typedef enum mos_partitioner {
    MOS_PARTITION_RDS = 0,   /* the seed's RDS: search over save / recompute decisions */
    MOS_PARTITION_RDSH,      /* its heuristic form: faster, usually costlier passes */
    MOS_PARTITION_OPTIMAL,   /* exhaustive (small shaders; gives up at the time limit with the best found) */
} mos_partitioner;

typedef struct mos_spirv_desc {
    const uint32_t *vertex;     /* SPIR-V words of the vertex shader */
    size_t vertex_words;
    const uint32_t *fragment;   /* ... of the fragment shader */
    size_t fragment_words;
    const char *vertex_name, *fragment_name;  /* for messages (e.g. file names); NULL: "vertex", "fragment" */
    int pass_ops, pass_registers, pass_textures, pass_interpolants;  /* per pass; 0 = unlimited */
    mos_partitioner partitioner;
    float pass_cost, fetch_cost, op_cost;  /* the partitioner's cost model; all 0: 15, 5, 1 */
} mos_spirv_desc;

MOS_API mos_result mos_shader_create_spirv(mos_context *ctx, const mos_spirv_desc *desc, mos_shader *out);

/* ---- frames and draws ----------------------------------------------------- */
/* How visibility samples get their colour.  Sample s of a pixel has a fixed
 * (x, y) offset (one pattern for all pixels) and a lens position (u, v) on
 * the unit disk and a shutter time t in [0, 1) from a bounded set of 4 S
 * tuples: each pixel class (x & 1, y & 1) has its own S (a Halton segment,
 * times stratified), interleaved across the image (mos_target_sample_position
 * gives them). */
typedef enum mos_sampling {
    MOS_SAMPLING_AUTO = 0,     /* DECOUPLED when the frame has blur, else MSAA */
    MOS_SAMPLING_MSAA,         /* no blur: every draw seen at one (u, v, t), shaded once per pixel */
    MOS_SAMPLING_DECOUPLED,    /* blur; a covered sample maps to a shading-grid point on the
                                * triangle at the lens centre and t = 0, memoized per tile */
    MOS_SAMPLING_SUPERSAMPLE,  /* blur; every covered visibility sample is shaded */
} mos_sampling;

/* Motion and defocus blur and the shading that goes with them.  Motion comes
 * from draws with uniforms_t1 (the draw at shutter close, t = 1); the lens
 * shears clip space: x += u * lens_x * (w - focus_w), y += v * lens_y * (w - focus_w)
 * (mos_blur_lens fills these from a camera). */
typedef struct mos_blur_desc {
    mos_sampling mode;
    float lens_x, lens_y;  /* clip-space shear per unit of w - focus_w; 0 = pinhole */
    float focus_w;         /* clip w (eye depth) that stays sharp */
    float shading_rate;    /* shading-grid points per pixel edge, 1/16..16; 0 = 1 */
    bool adaptive_rate;    /* DECOUPLED: coarser grid for triangles blurred more than a pixel */
    bool bilinear;         /* DECOUPLED: blend the four nearest grid points */
    int cache_quads;       /* shading-cache capacity per worker in 2x2 quads, 4..65536; 0 = 1024 per
                            * 16x16 pixels of the frame's bin, at least 1024 (4096 for blur's 32, 16384 for 64) */
    float pinhole[3];      /* MSAA: the (u, v, t) every draw is seen at (accumulation sub-frames) */
    float pixel_offset[2]; /* MSAA: the image moved by (dx, dy) pixels, each within -1..1: the sub-pixel
                            * jitter of accumulation sub-frames (mos_accum_jitter); 0 = none */
    uint32_t seed;         /* 0 = the fixed (u, v, t) pattern; others draw another pattern of
                            * the same kind (frames averaged over seeds converge: progressive blur) */
} mos_blur_desc;

/* Lens shear of a thin lens for a gluPerspective camera: aperture radius and
 * focus distance in world units, vertical field of view, width / height. */
MOS_API void mos_blur_lens(mos_blur_desc *b, float aperture, float focus_dist, float fov_y_deg, float aspect);
/* The accumulation buffer, for renders that average frames (pinhole
 * sub-frames seen at mos_accum_pinhole(k), progressive refinement): the
 * target keeps a running per-channel sum of its resolved images.
 * mos_target_accumulate adds the last frame's image (restart = true empties
 * the sum first); mos_target_read_accumulated writes the mean of the frames
 * added, rounded to nearest (ties up), as RGBA8 rows top first, and the
 * frame count to *frames when frames is not NULL.  MOS_ERR_FRAME_STATE
 * while the target is being rendered or, for reading, when nothing was
 * added; MOS_ERR_BAD_SIZE past MOS_ACCUM_MAX_FRAMES. */
#define MOS_ACCUM_MAX_FRAMES 16843009  /* UINT32_MAX / 255: a channel's sum stays in 32 bits */
MOS_API mos_result mos_target_accumulate(mos_context *ctx, mos_target t, bool restart);
MOS_API mos_result mos_target_read_accumulated(mos_context *ctx, mos_target t, uint8_t *rgba, size_t row_bytes, int *frames);

/* The pinhole (u, v, t) of accumulation sub-frame k (k >= 0): a Halton
 * sequence, (u, v) uniform on the unit disk, t in [0, 1).  K sub-frames
 * rendered with pinhole = these and averaged approximate the blurred image. */
MOS_API void mos_accum_pinhole(int k, float uvt[3]);
/* The sub-pixel jitter (dx, dy) of accumulation sub-frame k, each in
 * [-0.5, 0.5) (Halton bases 7 and 11, the next dimensions of the same
 * sequence): sub-frames drawn with pixel_offset = these also average over
 * the pixel's area, as S samples per pixel do. */
MOS_API void mos_accum_jitter(int k, float xy[2]);

/* What a frame records about itself for viewers and tools, beyond
 * mos_frame_stats (bit mask; each costs a little time when on).  Read the
 * records after mos_end_frame with mos_target_read_bins / _read_map. */
typedef enum mos_inspect {
    MOS_INSPECT_NONE = 0,
    MOS_INSPECT_BINS = 1 << 0,           /* per bin: time, triangles, samples, blurred spread */
    MOS_INSPECT_SHADES = 1 << 1,         /* per pixel: fragment-shader lanes run for it */
    MOS_INSPECT_OVERDRAW = 1 << 2,       /* per pixel: triangles drawn over it (covering a sample that
                                          * passed the early depth test) */
    MOS_INSPECT_TRIANGLE_AREA = 1 << 3,  /* per pixel: area in pixels of the triangle seen there */
    MOS_INSPECT_BLUR_AREA = 1 << 4,      /* per frame: mos_frame_stats.blur_area (a look-up per
                                          * visible sample: some percent of a blurred frame) */
    MOS_INSPECT_ALL = (1 << 5) - 1,
} mos_inspect;

typedef struct mos_frame_desc {
    mos_target target;
    float clear_rgba[4];  /* 0..1 */
    float clear_depth;    /* window depth in (0, 1]; 0 = default 1 (far) */
    mos_blur_desc blur;   /* zero = no blur, MSAA */
    unsigned inspect;     /* mos_inspect bits; 0 = record nothing extra */
    /* Part of the screen (sort-first over processes: mosaic-mpi gives each
     * rank its tiles).  NULL tile_mask = the whole target.  Otherwise the
     * screen is cut into tiles of tile_px x tile_px pixels, a positive
     * multiple of the context's bin_px (MOS_ERR_INVALID_ARGUMENT else), and
     * tile_mask holds one byte per tile, ceil(width / tile_px) *
     * ceil(height / tile_px) of them, row by row from the lower-left tile as
     * the bin grid (tile (tx, ty) at [ty * tiles_x + tx], pixel rows bottom
     * up); non-zero = render it.  Only the fine bins inside masked-in tiles
     * are binned, rasterized and resolved, and their pixels are
     * bit-identical to a whole-screen render of the same frame; the pixels
     * of the other tiles keep what the target held before the frame (read
     * them with mos_target_read_rgba8 as before; their samples, in
     * mos_target_read_samples, read back as the clear colour).  The mask is
     * copied by mos_begin_frame and stays in force until mos_end_frame. */
    const uint8_t *tile_mask;
    int tile_px;
} mos_frame_desc;

typedef enum mos_blend {
    MOS_BLEND_OPAQUE = 0,  /* dst = src */
    MOS_BLEND_ALPHA,       /* dst = src * a + dst * (1 - a) ("over") */
    MOS_BLEND_ADD,         /* dst = min(dst + src, 1) per channel, 8-bit exact */
    MOS_BLEND_PREMULTIPLIED, /* dst = src + dst * (1 - a): colour already times alpha */
} mos_blend;

typedef enum mos_cull {
    MOS_CULL_NONE = 0,
    MOS_CULL_BACK,  /* drop clockwise triangles (window space, y up) */
} mos_cull;

typedef struct mos_draw_desc {
    mos_shader shader;
    mos_buffer vertices;  /* floats */
    int vertex_stride;    /* floats per vertex (>= 1) */
    int vertex_count;
    mos_buffer indices;   /* uint32; id 0 = non-indexed (vertices in order) */
    int index_count;      /* multiple of 3; 0 with indices = whole buffer */
    int first_index;
    const void *uniforms; /* copied; at most MOS_MAX_UNIFORM_BYTES, at least what a SPIR-V shader reads */
    size_t uniform_size;
    /* Motion blur: the uniforms at shutter close (same size), or NULL for a
     * static draw.  The vertex shader runs with both; clip positions move
     * linearly in between, varyings come from the run with uniforms. */
    const void *uniforms_t1;
    mos_texture textures[MOS_MAX_TEXTURES];
    bool depth_test;      /* less-than */
    bool depth_write;
    mos_cull cull;
    mos_blend blend;
    /* The same promise as mos_shader_desc.never_discards, for this draw
     * only (e.g. a shader whose alpha test is off in these uniforms). */
    bool never_discards;
} mos_draw_desc;

MOS_API mos_result mos_begin_frame(mos_context *ctx, const mos_frame_desc *desc);
MOS_API mos_result mos_draw(mos_context *ctx, const mos_draw_desc *desc);
/* Runs the frame and returns when the image is complete.  stats may be NULL. */
typedef struct mos_frame_stats mos_frame_stats;
MOS_API mos_result mos_end_frame(mos_context *ctx, mos_frame_stats *stats);

/* ---- what the last frame recorded (mos_frame_desc.inspect) ---------------- */
/* The fine-bin grid of the target's last frame: bin (0, 0) is the lower-left. */
typedef struct mos_bin_grid {
    int bins_x, bins_y, bin_px;
} mos_bin_grid;

typedef struct mos_bin_info {
    int worker;               /* owner (pattern table); always filled */
    /* With MOS_INSPECT_BINS, else 0: */
    uint32_t triangles;       /* (triangle, bin) work received */
    uint64_t samples;         /* covered visibility samples */
    double ms;                /* time its owner spent rasterizing, shading and writing it */
    double blurred_spread;    /* mean fine bins per blurred triangle it received; 0 = none */
} mos_bin_info;

/* Copies the last frame's bins, row by row from the bottom (bin (bx, by) at
 * [by * bins_x + bx]), into out[0 .. capacity); grid gets the grid.  With
 * out NULL, only grid is filled.  MOS_ERR_BAD_SIZE when capacity is short,
 * MOS_ERR_FRAME_STATE before the target's first frame. */
MOS_API mos_result mos_target_read_bins(mos_context *ctx, mos_target t, mos_bin_info *out, size_t capacity,
                                mos_bin_grid *grid);
/* Copies one per-pixel record of the last frame (one mos_inspect bit) as
 * floats, rows top first, row_floats >= width apart.  MOS_ERR_FRAME_STATE
 * when the last frame did not record it. */
MOS_API mos_result mos_target_read_map(mos_context *ctx, mos_target t, mos_inspect map, float *out, size_t row_floats);

/* ---- per-frame statistics (names match the --stats-json keys) ------------- */
/* Every field of mos_frame_stats, in struct order: S(type, name) for a
 * scalar, A(type, name, count) for an array.  One list feeds the struct,
 * the CLI's --stats-json writer and anything else that walks them.
 *   frame_ms            mos_end_frame: submit to image complete
 *   first_work_ms       frame start -> first work item at any worker
 *   frontend_ms         front-end thread busy (vertex .. fine binning)
 *   frontend_stall_ms   front-end blocked on a full worker FIFO
 *   frontend_cpu_ms     the front-end thread's CPU time (its own work and
 *                       the setup chunks it ran): below frontend_ms where
 *                       the threads outnumber the cores and it waited for one
 *   frontend_serial_ms  of frontend_cpu_ms, the part outside the data-parallel
 *                       vertex and setup jobs (running or awaiting them):
 *                       binning in API order, clipping, dispatch.  More
 *                       workers do not shorten it, so a frame takes at least
 *                       this long whatever the thread count
 *   frontend_ns_per_triangle   frontend_ms per triangle submitted
 *   frontend_chunks_helped     vertex / setup chunks the workers ran for
 *                       the front-end (they run the vertex stage and setup
 *                       data-parallel; binning stays on the front-end)
 *   pattern             as configured (names up to 255 characters)
 *   triangles_in        triangles submitted
 *   triangles_binned    after clip and cull (clipping may add some)
 *   bin_spread          fine bins per binned triangle
 *   bin_items           work items pushed to workers
 * Coverage counts are taken at raster, before the depth test; shading runs
 * after the early depth test, so quads whose samples are all hidden are
 * never shaded and shading_rate can fall below 1.
 *   covered_pixels      (triangle, pixel) pairs with a covered sample
 *   visibility_samples  covered samples
 *   shade_invocations   fragment shader lanes run (2x2 quads, helpers included)
 *   shading_rate        shade_invocations / covered_pixels
 * Blur and decoupled shading: the cache counts are per shading-grid point
 * looked up (0 without a stochastic path).
 *   blurred_triangles   binned triangles that move or are defocused
 *   cache_hit_rate      hits / (hits + misses)
 *   blur_area           mean pixels touched per shading-grid point used
 *                       (with MOS_INSPECT_BLUR_AREA, else 0)
 *   pixel_bins          bins whose decoupled blur went straight to their
 *                       pixels, no sample stored (mos_target_desc.keep_samples)
 *   sample_candidates   sample slots the stochastic rasterizer visited: for
 *                       a large triangle, the lanes of 4x4 blocks inside a
 *                       (u, v, t) tuple's box; for a small one, one sample
 *                       of one rank per pixel inside the rank's box, each
 *                       held against the triangle's bounds there
 *   sample_tests        those of them given the full coverage test (a large
 *                       triangle's are all of them)
 *   sample_test_efficiency   covered / sample_tests (0 without any)
 *   worker_busy_ms, worker_fragments   per worker: busy time, covered samples */
#define MOS_FRAME_STATS(S, A)                                                                        \
    S(double, frame_ms) S(double, first_work_ms) S(double, frontend_ms) S(double, frontend_stall_ms)  \
    S(double, frontend_cpu_ms) S(double, frontend_serial_ms) S(double, frontend_ns_per_triangle)      \
    S(uint64_t, frontend_chunks_helped)                                                              \
    S(int, width) S(int, height) S(int, spp)                                                         \
    S(int, threads) S(int, bin) S(int, coarse) S(int, batch) S(int, early) S(int, fifo)              \
    A(char, pattern, 256)                                                                            \
    S(uint64_t, triangles_in) S(uint64_t, triangles_binned) S(double, bin_spread) S(uint64_t, bin_items) \
    S(uint64_t, covered_pixels) S(uint64_t, visibility_samples) S(uint64_t, shade_invocations)        \
    S(double, shading_rate)                                                                          \
    S(uint64_t, blurred_triangles) S(uint64_t, cache_hits) S(uint64_t, cache_misses)                 \
    S(uint64_t, cache_stalls) S(double, cache_hit_rate) S(double, blur_area) S(uint64_t, pixel_bins)  \
    S(uint64_t, sample_candidates) S(uint64_t, sample_tests) S(double, sample_test_efficiency)        \
    A(double, worker_busy_ms, MOS_MAX_WORKERS) A(uint64_t, worker_fragments, MOS_MAX_WORKERS)

#define MOS_STATS_SCALAR_(type, name) type name;
#define MOS_STATS_ARRAY_(type, name, count) type name[count];
struct mos_frame_stats {
    MOS_FRAME_STATS(MOS_STATS_SCALAR_, MOS_STATS_ARRAY_)
};
#undef MOS_STATS_SCALAR_
#undef MOS_STATS_ARRAY_

#ifdef __cplusplus
}
#endif
#endif /* MOSAIC_H */
