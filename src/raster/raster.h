/* raster.h — coverage, the raster stage's entry point: sample positions and
 * the (u, v, t) pattern; 2D coverage (edge functions over 24.8 fixed-point
 * samples, emitting 2x2 quads with a per-sample coverage mask after early
 * depth); stochastic coverage of 4x4 pixel blocks for the blurred paths.
 * Fed by the per-bin back-end (backend/tile.c, decouple.c); feeds the shade
 * stage. */
#ifndef MOSAIC_RASTER_H
#define MOSAIC_RASTER_H

#include <stdbool.h>
#include <stdint.h>

#include "frame/frame.h"
#include "util/cpu.h"
#include "util/floor.h"

#define RASTER_MAX_SAMPLES 16    /* the 2D quad rasterizer's coverage masks */

bool raster_samples_supported(int spp);  /* by the 2D quad rasterizer: 1..16 */
bool raster_samples_valid(int spp);      /* 1, 2, 4, 8, 16, 27, 32, 64 */
void raster_samples_get(int spp, frame_samples *out);

/* The lens and time pattern: (u, v, t) of sample s of pixel (x, y) is
 * uvt[(((y & 3) * 4 + (x & 3)) * spp + s) * 3 + k], the tuple of its
 * class that has sample index s (frame_tuples).  A pixel's tuples depend
 * on its class only, so one 4x4 block (a tile of 2x2 classes, the block
 * the walks test at once) holds the whole pattern.  Class c's tuples are the
 * Halton points (bases 2, 3, 5, as mos_accum_pinhole's) numbered from
 * (4 seed + c) spp + 1, the lens's pair mapped to the unit disk as
 * mos_accum_pinhole maps it; so every seed gives four new segments of one
 * low-discrepancy sequence. */
#define RASTER_UVT_TILE 4
size_t raster_uvt_floats(int spp);
/* The pattern pixel (0..15) pixel (x, y) repeats. */
static inline int raster_uvt_pixel(int x, int y) { return (y & 3) * RASTER_UVT_TILE + (x & 3); }
/* The (u, v, t) triple of sample s of pixel (x, y). */
static inline const float *raster_uvt_at(const float *uvt, int spp, int x, int y, int s)
{
    return uvt + ((size_t)raster_uvt_pixel(x, y) * (size_t)spp + (size_t)s) * 3;
}
/* The class of pixel (x, y) and of lane l of a 4x4 block. */
static inline int raster_pixel_class(int x, int y) { return (x & 1) | (y & 1) << 1; }
static inline int raster_lane_class(int l) { return (l & 1) | (l >> 2 & 1) << 1; }
/* Halton point i (i >= 1; bases 2, 3, 5): a lens point on the unit disk
 * (radius sqrt of the first, angle the second) and a shutter time in
 * [0, 1); mos_accum_pinhole's sub-frame i - 1. */
void raster_halton_uvt(uint64_t i, float out[3]);
/* Halton point i's next two dimensions (bases 7, 11) less 1/2: an offset in
 * [-1/2, 1/2) of the pixel (mos_accum_jitter's sub-frame i - 1). */
void raster_halton_jitter(uint64_t i, float out[2]);
void raster_tuples_fill(int spp, uint32_t seed, const frame_samples *pos, frame_tuples *out);
void raster_uvt_fill(const frame_tuples *tuples, float *uvt);

/* The samples of each pattern pixel ranked by time (key FRAME_RANK_T) and by
 * lens u (FRAME_RANK_U), as tables the stochastic walk (stoch_walk_fn, below) reads sixteen pixels
 * at a time: the pattern's one 4x4 block (raster_uvt_lane), and for key k
 * and rank j (the sample with the j-th smallest t or u) the block's fields
 * (raster_ranked_block: 320 contiguous bytes): the sample's x, y from the
 * lower-left corner of its 4x4 block, then u, v, t, sixteen lanes each.
 * sample[(k * spp + j) * 16 + lane] is its index, range[k][j] the
 * [min, max] of the key at rank j over the 16 pixels.  The stochastic
 * rasterizer visits rank j of every pixel together, within the triangle's
 * bounds for that slice of t (or u). */
#define RASTER_UVT_PIXELS (RASTER_UVT_TILE * RASTER_UVT_TILE)
enum { RASTER_RANKED_X, RASTER_RANKED_Y, RASTER_RANKED_U, RASTER_RANKED_V, RASTER_RANKED_T, RASTER_RANKED_FIELDS };
/* Where pixel (x, y) lies in a plane: its lane of the pattern's block. */
static inline int raster_uvt_lane(int x, int y) { return (y & 3) * 4 + (x & 3); }
/* The fields of rank j under key for the 4x4 block whose first lane is
 * lane0 (a multiple of 16): field f of lane i at [f * 16 + i]; and the
 * sample indices of rank j. */
static inline float *raster_ranked_block(const frame_ranked *r, int key, int j, int lane0)
{
    return r->plane + ((size_t)key * (size_t)r->spp + (size_t)j) * RASTER_RANKED_FIELDS * RASTER_UVT_PIXELS +
           (size_t)lane0 * RASTER_RANKED_FIELDS;
}
static inline uint8_t *raster_ranked_sample(const frame_ranked *r, int key, int j)
{
    return r->sample + ((size_t)key * (size_t)r->spp + (size_t)j) * RASTER_UVT_PIXELS;
}
mos_result raster_ranked_init(frame_ranked *r, int spp, const float *uvt, const frame_samples *pos,
                              const mos_allocator *a);
void raster_ranked_release(frame_ranked *r, const mos_allocator *a);

/* A 2x2 quad: lane i covers pixel (x + (i & 1), y + (i >> 1)); bit
 * (lane * spp + s) of cover is sample s of that lane. */
typedef struct raster_quad {
    const frame_tri *tri;
    uint16_t x, y;
    uint64_t cover;
} raster_quad;

/* Floats of window depth per emitted quad: slot (lane * spp + s), padded to
 * whole 8-float vectors. */
#define RASTER_Z_STRIDE(spp) ((4 * (spp) + 7) & ~7)

/* Each slot's (lane * spp + s) place in a quad, for the depth of its
 * samples (raster/quad_depth.h). */
typedef struct raster_zslots {
    int spp, slots;
    uint8_t lane_of[4 * RASTER_MAX_SAMPLES], sample_of[4 * RASTER_MAX_SAMPLES];
    /* Slot k of a quad at (qx, qy) lies at window x ((float)qx + lx[k]) +
     * fx[k], the same sum raster_sample_depth makes of (float)px + fx[s]. */
    _Alignas(32) float lx[4 * RASTER_MAX_SAMPLES], ly[4 * RASTER_MAX_SAMPLES];
    _Alignas(32) float fx[4 * RASTER_MAX_SAMPLES], fy[4 * RASTER_MAX_SAMPLES];
} raster_zslots;

/* Where raster reads depth for the early test (NULL depth = no test), and
 * the target's slot tables (raster_view_init). */
typedef struct raster_view {
    const float *depth;  /* [y][x][s] of the target */
    int width, height;
    const frame_samples *samples;
    float rate;  /* the stochastic path's shading grid for static triangles: points per pixel edge */
    bool centred;  /* their reference points less the samples' offsets (frame_blur.centred) */
    int32_t lane_depth[16];  /* floats from depth[y0][x0][0] to depth[y0 + l / 4][x0 + l % 4][0], lane l */
    raster_zslots zs;
} raster_view;

static inline void raster_view_init(raster_view *v, const float *depth, int width, int height,
                                    const frame_samples *sp, float rate, bool centred)
{
    v->depth = depth;
    v->width = width;
    v->height = height;
    v->samples = sp;
    v->rate = rate;
    v->centred = centred;
    const int S = sp->count;
    for (int l = 0; l < 16; l++) v->lane_depth[l] = ((l >> 2) * width + (l & 3)) * S;
    raster_zslots *zs = &v->zs;
    zs->spp = S;
    zs->slots = 4 * S;
    if (S > RASTER_MAX_SAMPLES) return;  /* only the stochastic rasterizer takes these */
    for (int lane = 0, k = 0; lane < 4; lane++) {
        for (int s = 0; s < S; s++, k++) {
            zs->lane_of[k] = (uint8_t)lane;
            zs->sample_of[k] = (uint8_t)s;
            zs->lx[k] = (float)(lane & 1);
            zs->ly[k] = (float)(lane >> 1);
            zs->fx[k] = sp->fx[s];
            zs->fy[k] = sp->fy[s];
        }
    }
    for (int k = 4 * S; k < RASTER_Z_STRIDE(S); k++)  /* padding of the last vector */
        zs->lx[k] = zs->ly[k] = zs->fx[k] = zs->fy[k] = 0.0f;
}


typedef struct raster_counts {
    uint64_t samples;  /* covered samples before depth */
    uint64_t pixels;   /* pixels with a covered sample before depth */
    /* The stochastic rasterizer's sample slots: inside a rank's box, given
     * the full test (not ruled out by the rank's bounds), and covered. */
    uint64_t stoch_candidates, stoch_tested, stoch_covered;
} raster_counts;

/* Rasterizes t over pixels [x0, x1) x [y0, y1) (x0, y0 even; the caller has
 * intersected the rectangle with the bin and t's pixel bounds), appending
 * quads with a sample left after early depth to out; returns how many.
 * When t's draw tests or writes depth, the window depth of quad i's covered
 * samples is at z[i * RASTER_Z_STRIDE(spp) + slot] (raster_sample_depth's
 * bits), for the ROP to test and write. */
typedef int (*raster_fn)(const frame_tri *t, const raster_view *v, int x0, int y0, int x1, int y1, raster_quad *out,
                         float *z, raster_counts *counts);

/* A point's coordinate on the shading grid (reference coordinate times
 * the grid's points per unit), kept within +-2^30 (NaN at the lower end),
 * so that util_floor_i32 takes its floor. */
#define RASTER_GRID_LIMIT 1073741824.0f
static inline float raster_grid_clamp(float g)
{
    g = g > -RASTER_GRID_LIMIT ? g : -RASTER_GRID_LIMIT;
    return g < RASTER_GRID_LIMIT ? g : RASTER_GRID_LIMIT;
}
/* The grid point at or below reference coordinate r at `rate` points per
 * unit. */
static inline int32_t raster_grid_point(float r, float rate) { return util_floor_i32(raster_grid_clamp(r * rate)); }

/* Stochastic coverage of 5D visibility samples (x, y, u, v, t), a 4x4
 * block of pixels at a time, each pixel at one sample.  Edges (seed 001,
 * 5.1): the 2D rasterizer's fixed-point edges for a static, sharp triangle
 * (stoch.c); time-continuous edge functions when it moves,
 * aperture-continuous 4D edge functions when it is defocused, warping its
 * vertices to the sample's (u, v, t) when both (stoch_lane.h).  Walks: a
 * blurred triangle at each (u, v, t) tuple of frame_tuples, a group of four
 * at a time (stoch_walk_tmp.h), or, when small, rank by rank within bounds
 * (frame_ranked, stoch_rank_walk_tmp.h).  Fed by backend/tile.c. */
/* Lane (y & 3) * 4 + (x & 3) of a block: for each covered lane, the
 * sample's window depth, where it lands in the triangle's shading
 * reference less its offset in its pixel (stoch_lane_offsets; for a
 * static, sharp triangle: its pixel's centre, at rate 1), and the
 * grid point at or below that on the triangle's shading grid (floor of the
 * point times the grid's rate: the nearest point's quad is (gx >> 1,
 * gy >> 1)).  The rate is the triangle's (frame_tri_blur.rate) or, static, the
 * frame's (raster_view.rate): the one decouple.c shades the grid at. */
#define STOCH_LANES 16
typedef struct stoch_hits {
    _Alignas(64) float z[STOCH_LANES];
    _Alignas(64) float rx[STOCH_LANES];
    _Alignas(64) float ry[STOCH_LANES];
    _Alignas(64) int32_t gx[STOCH_LANES];
    _Alignas(64) int32_t gy[STOCH_LANES];
} stoch_hits;

/* One block of a stochastic triangle at one rank, as raster_stochastic
 * emits it: lanes (y & 3) * 4 + (x & 3) of the 4x4 pixels at (x0, y0),
 * each at its own sample sample[lane]; `covered` the lanes whose sample
 * the triangle covers, `live` those of them past early depth (against
 * what the ROP had written), `first_covered` / `first_live` those that are
 * the triangle's first covered / live sample of their pixel; hits the
 * covered lanes' depth, shading-reference points and grid points (other
 * lanes' entries are undefined). */
typedef struct stoch_block {
    const frame_tri *tri;
    int x0, y0;
    int block;  /* its index among its bin's 4x4 blocks, row-major (stoch_block_index) */
    uint32_t covered, live, first_covered, first_live;
    const uint8_t *sample;
    int group;  /* sample is frame_tuples.lane_sample[group], or -1 (a rank walk's lanes) */
    stoch_hits hits;
} stoch_block;
typedef void (*stoch_emit_fn)(void *consumer, const stoch_block *blk);

/* The index of the block at pixel (x0, y0) among the 4x4 blocks of its
 * bin (bin_px a side, a power of two), row-major. */
static inline int stoch_block_index(int bin_px, int x0, int y0)
{
    return ((y0 & (bin_px - 1)) >> 2) * (bin_px >> 2) + ((x0 & (bin_px - 1)) >> 2);
}

/* Which pixels of a bin (up to 256 x 256) the current triangle has
 * covered, and covered past early depth: per 4x4 block of the bin, a bit
 * per lane; a block not stamped with `stamp` holds none. */
#define STOCH_BIN_BLOCKS (64 * 64)
typedef struct stoch_pixels {
    uint32_t stamp;
    uint32_t block_stamp[STOCH_BIN_BLOCKS];
    uint16_t covered[STOCH_BIN_BLOCKS], live[STOCH_BIN_BLOCKS];
} stoch_pixels;

/* The stochastic rasterizer: tri over pixels [x0, x1) x [y0, y1) of a bin
 * of bin_px pixels, a 4x4 block at a time (by tuple groups, or by ranks
 * within frame_tri_blur.rank's bounds when the triangle is small); emits each block
 * with a covered sample, in that order, and counts covered samples and
 * pixels.  One body (stoch_walk_tmp.h) per ISA: every ISA decides the same. */
typedef void (*stoch_walk_fn)(const frame_tri *tri, const raster_view *v, const frame_ranked *ranked,
                              const frame_tuples *tuples, int bin_px, int x0, int y0, int x1, int y1,
                              stoch_pixels *px, stoch_emit_fn emit, void *consumer, raster_counts *counts);

/* The block test of a static, sharp triangle: sample[lane] is each lane's
 * sample index, tested against the fixed-point edges of the 2D rasterizer
 * (so that decoupled and MSAA agree without blur); grid points at `rate`
 * per pixel edge; reference points less the samples' offsets where
 * `centred`. */
uint32_t stoch_block_static(const frame_tri *t, const frame_samples *sp, float rate, bool centred, int x0, int y0,
                            const uint8_t *sample, uint32_t mask, stoch_hits *out);

/* Every hot loop of this stage has one body (raster_tmp.h, stoch_walk_tmp.h)
 * compiled once per instruction set by one small file per ISA
 * (raster_scalar.c, raster_avx2.c, raster_avx512.c); the back-end's ISA
 * table (backend_isa_select) picks a set. */
int raster_triangle_scalar(const frame_tri *, const raster_view *, int, int, int, int, raster_quad *, float *,
                           raster_counts *);
void raster_stochastic_scalar(const frame_tri *, const raster_view *, const frame_ranked *, const frame_tuples *, int,
                              int, int, int, int,
                              stoch_pixels *, stoch_emit_fn, void *, raster_counts *);
#if defined(UTIL_X86)
int raster_triangle_avx2(const frame_tri *, const raster_view *, int, int, int, int, raster_quad *, float *,
                         raster_counts *);
int raster_triangle_avx512(const frame_tri *, const raster_view *, int, int, int, int, raster_quad *, float *,
                           raster_counts *);
void raster_stochastic_avx2(const frame_tri *, const raster_view *, const frame_ranked *, const frame_tuples *, int, int,
                            int, int, int,
                            stoch_pixels *, stoch_emit_fn, void *, raster_counts *);
void raster_stochastic_avx512(const frame_tri *, const raster_view *, const frame_ranked *, const frame_tuples *, int,
                              int, int, int, int,
                              stoch_pixels *, stoch_emit_fn, void *, raster_counts *);
#endif

/* Window depth of sample s of pixel (px, py): the one formula the early
 * test and the ROP share, so both see the same bits. */
static inline float raster_sample_depth(const frame_tri *t, const frame_samples *sp, int px, int py, int s)
{
    return frame_plane(t->z, (float)px + sp->fx[s] - t->x0, (float)py + sp->fy[s] - t->y0);
}

#endif
