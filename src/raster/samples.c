/* samples.c — where the visibility samples of a pixel lie: the fixed (x, y)
 * offsets shared by all pixels, and the (u, v, t) lens/shutter pattern that
 * repeats every 32x32 pixels, and which sample counts exist (exported as
 * mos_samples_supported).  Fed by the back-end, raster, the api (sample
 * queries) and the tools; every value is a pure function of the sample count. */
#include <math.h>

#include "raster/raster.h"
#include "raster/stoch_lane.h"
#include "util/alloc.h"

static const int8_t pos1[] = {0, 0};
static const int8_t pos2[] = {4, 4, -4, -4};
static const int8_t pos4[] = {-2, -6, 6, -2, -6, 2, 2, 6};
static const int8_t pos8[] = {1, -3, -1, 3, 5, 1, -3, -5, -5, 5, -7, -1, 3, 7, 7, -7};
static const int8_t pos16[] = {1, 1, -1, -3, -3, 2, 4, -1, -5, -2, 2, 5, 5, 3, 3, -5,
                               -2, 6, 0, -7, -4, -6, -6, 4, -8, 0, 7, -4, 6, 7, -7, -8};

bool raster_samples_supported(int spp) { return spp == 1 || spp == 2 || spp == 4 || spp == 8 || spp == 16; }
bool raster_samples_valid(int spp) { return raster_samples_supported(spp) || spp == 27 || spp == 32 || spp == 64; }
bool mos_samples_supported(int spp, bool blur) { return blur ? raster_samples_valid(spp) : raster_samples_supported(spp); }

/* splitmix64: the one pseudo-random source of the fixed patterns. */
static uint64_t mix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void shuffle(int *p, int n, uint64_t *state)
{
    for (int i = 0; i < n; i++) p[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(mix64(state) % (uint64_t)(i + 1)), tmp = p[i];
        p[i] = p[j];
        p[j] = tmp;
    }
}

void raster_samples_get(int spp, frame_samples *out)
{
    out->count = raster_samples_valid(spp) ? spp : 1;
    if (out->count > RASTER_MAX_SAMPLES) {
        /* n-rooks: one sample per column and per row of an spp x spp grid. */
        int perm[FRAME_MAX_POSITIONS];
        uint64_t state = 0x5eed0000u + (uint64_t)spp;
        shuffle(perm, out->count, &state);
        for (int s = 0; s < out->count; s++) {
            out->dx[s] = (int32_t)(((2 * s + 1) * FRAME_SUBPIXELS) / (2 * out->count));
            out->dy[s] = (int32_t)(((2 * perm[s] + 1) * FRAME_SUBPIXELS) / (2 * out->count));
        }
    } else {
        const int8_t *p = spp == 2 ? pos2 : spp == 4 ? pos4 : spp == 8 ? pos8 : spp == 16 ? pos16 : pos1;
        for (int s = 0; s < out->count; s++) {
            out->dx[s] = FRAME_SUBPIXELS / 2 + p[2 * s] * (FRAME_SUBPIXELS / 16);
            out->dy[s] = FRAME_SUBPIXELS / 2 + p[2 * s + 1] * (FRAME_SUBPIXELS / 16);
        }
    }
    for (int s = 0; s < out->count; s++) {
        out->fx[s] = (float)out->dx[s] / FRAME_SUBPIXELS;
        out->fy[s] = (float)out->dy[s] / FRAME_SUBPIXELS;
    }
}

size_t raster_uvt_floats(int spp) { return (size_t)RASTER_UVT_TILE * RASTER_UVT_TILE * (size_t)spp * 3; }

/* The radical inverse of i in base b (Halton's coordinate). */
static double radical_inverse(uint64_t i, unsigned b)
{
    double f = 1.0, r = 0.0;
    for (; i; i /= b) {
        f /= (double)b;
        r += f * (double)(i % b);
    }
    return r;
}

void raster_halton_uvt(uint64_t i, float out[3])
{
    const double r = sqrt(radical_inverse(i, 2)), phi = 6.283185307179586 * radical_inverse(i, 3);
    out[0] = (float)(r * cos(phi));
    out[1] = (float)(r * sin(phi));
    const float t = (float)radical_inverse(i, 5);
    out[2] = t < 1.0f ? t : 0x1.fffffep-1f;
}

void raster_halton_jitter(uint64_t i, float out[2])
{
    out[0] = (float)(radical_inverse(i, 7) - 0.5);
    out[1] = (float)(radical_inverse(i, 11) - 0.5);
}

/* How far two tuples lie apart for a group: the lens's disk is 2 wide,
 * the shutter 1, and a group's spread in either widens its triangles'
 * union alike, so time counts twice. */
static float tuple_distance(const float a[3], const float b[3])
{
    const float du = a[0] - b[0], dv = a[1] - b[1], dt = 2.0f * (a[2] - b[2]);
    return du * du + dv * dv + dt * dt;
}

void raster_tuples_fill(int spp, uint32_t seed, const frame_samples *pos, frame_tuples *out)
{
    float pt[FRAME_CLASSES][FRAME_MAX_POSITIONS][3];
    /* Every class takes the same spp Halton points (the seed's), class c
     * mirrored on the lens (u negated when c & 1, v when c & 2) and its
     * times moved by c / 4 of a stratum: all four as well stratified as
     * the first (consecutive Halton runs further on are worse: 0.2 to 0.7
     * dB against accumulation on defocus.scene and blur.scene; scrambling
     * the run per class loses its regularity: 1.4 to 2.8 dB), and a 2x2
     * block's 4 spp lens points spread over the whole disk, not four
     * near copies of one run (whose error survives a 2x2 box filter). */
    const uint64_t first = (uint64_t)seed * FRAME_CLASSES * (uint64_t)spp + 1;
    for (int c = 0; c < FRAME_CLASSES; c++) {
        for (int s = 0; s < spp; s++) {
            raster_halton_uvt(first + (uint64_t)s, pt[c][s]);
            if (c & 1) pt[c][s][0] = -pt[c][s][0];
            if (c & 2) pt[c][s][1] = -pt[c][s][1];
        }
        /* Times stratified: the point whose time ranks r among the
         * class's takes (r + jitter) / spp, the jitter Halton's base 7
         * moved by c / 4 (mod 1), so every class holds a time in each of
         * spp strata (the first and the last too: a streak reaches its
         * ends). */
        float t[FRAME_MAX_POSITIONS];
        for (int s = 0; s < spp; s++) {
            int rank = 0;
            for (int o = 0; o < spp; o++) rank += pt[c][o][2] < pt[c][s][2] || (pt[c][o][2] == pt[c][s][2] && o < s);
            const double jitter = radical_inverse(first + (uint64_t)s, 7) + (double)c / FRAME_CLASSES;
            const float u = (float)(((double)rank + jitter - floor(jitter)) / (double)spp);
            t[s] = u < 1.0f ? u : 0x1.fffffep-1f;
        }
        for (int s = 0; s < spp; s++) pt[c][s][2] = t[s];
    }
    /* Group g holds class 0's sample g; each other class's samples join
     * the groups by greedy matching, the closest pair left first. */
    int member[FRAME_CLASSES][FRAME_MAX_POSITIONS];
    for (int g = 0; g < spp; g++) member[0][g] = g;
    for (int c = 1; c < FRAME_CLASSES; c++) {
        bool group_done[FRAME_MAX_POSITIONS] = {false}, sample_done[FRAME_MAX_POSITIONS] = {false};
        for (int k = 0; k < spp; k++) {
            int bg = -1, bs = -1;
            float best = INFINITY;
            for (int g = 0; g < spp; g++) {
                if (group_done[g]) continue;
                for (int s = 0; s < spp; s++) {
                    if (sample_done[s]) continue;
                    const float d = tuple_distance(pt[0][g], pt[c][s]);
                    if (d < best) best = d, bg = g, bs = s;
                }
            }
            group_done[bg] = sample_done[bs] = true;
            member[c][bg] = bs;
        }
    }
    out->spp = spp;
    for (int g = 0; g < spp; g++)
        for (int c = 0; c < FRAME_CLASSES; c++) {
            const int i = FRAME_CLASSES * g + c, s = member[c][g];
            out->u[i] = pt[c][s][0];
            out->v[i] = pt[c][s][1];
            out->t[i] = pt[c][s][2];
            out->sample[i] = (uint8_t)s;
        }
    for (int g = 0; g < spp; g++)
        for (int l = 0; l < 16; l++) {
            const int s = out->sample[FRAME_CLASSES * g + raster_lane_class(l)];
            out->lane_sample[g][l] = (uint8_t)s;
            out->lane_sample_i32[g][l] = s;
            out->lane_x[g][l] = (float)(l & 3) + pos->fx[s];
            out->lane_y[g][l] = (float)(l >> 2) + pos->fy[s];
        }
    for (int g = 0; g < spp; g++) {
        stoch_lane_offsets(out->lane_x[g], out->lane_cx[g], 16, 1.0f);
        stoch_lane_offsets(out->lane_y[g], out->lane_cy[g], 16, 1.0f);
    }
}

void raster_uvt_fill(const frame_tuples *tuples, float *uvt)
{
    const int spp = tuples->spp;
    for (int y = 0; y < RASTER_UVT_TILE; y++)
        for (int x = 0; x < RASTER_UVT_TILE; x++)
            for (int i = raster_pixel_class(x, y); i < FRAME_CLASSES * spp; i += FRAME_CLASSES) {
                float *o = uvt + ((size_t)raster_uvt_pixel(x, y) * (size_t)spp + tuples->sample[i]) * 3;
                o[0] = tuples->u[i];
                o[1] = tuples->v[i];
                o[2] = tuples->t[i];
            }
}

mos_result raster_ranked_init(frame_ranked *r, int spp, const float *uvt, const frame_samples *pos,
                              const mos_allocator *a)
{
    static const int component[2] = {[FRAME_RANK_T] = 2, [FRAME_RANK_U] = 0};  /* t, u */
    r->spp = spp;
    r->block = util_alloc(a, (size_t)2 * (size_t)spp * RASTER_RANKED_FIELDS * RASTER_UVT_PIXELS * sizeof *r->plane + 64);
    r->plane = r->block ? (float *)(((uintptr_t)r->block + 63) & ~(uintptr_t)63) : NULL;
    r->sample = util_alloc(a, (size_t)2 * (size_t)spp * RASTER_UVT_PIXELS);
    if (!r->block || !r->sample) {
        raster_ranked_release(r, a);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    for (int key = 0; key < 2; key++)
        for (int j = 0; j < spp; j++) {
            r->range[key][j][0] = INFINITY;
            r->range[key][j][1] = -INFINITY;
        }
    for (int y = 0; y < RASTER_UVT_TILE; y++)
        for (int x = 0; x < RASTER_UVT_TILE; x++) {
            const float *q = uvt + (size_t)raster_uvt_pixel(x, y) * (size_t)spp * 3;
            const int lane = raster_uvt_lane(x, y);
            for (int key = 0; key < 2; key++) {
                const int c = component[key];
                uint8_t o[FRAME_MAX_POSITIONS];
                for (int j = 0; j < spp; j++) {  /* insertion sort: spp <= 64 */
                    int k = j;
                    for (; k > 0 && q[3 * o[k - 1] + c] > q[3 * j + c]; k--) o[k] = o[k - 1];
                    o[k] = (uint8_t)j;
                }
                for (int j = 0; j < spp; j++) {
                    const int s = o[j];
                    float *f = raster_ranked_block(r, key, j, lane & ~15) + (lane & 15);
                    f[RASTER_RANKED_X * 16] = (float)(x & 3) + pos->fx[s];
                    f[RASTER_RANKED_Y * 16] = (float)(y & 3) + pos->fy[s];
                    f[RASTER_RANKED_U * 16] = q[3 * s + 0];
                    f[RASTER_RANKED_V * 16] = q[3 * s + 1];
                    f[RASTER_RANKED_T * 16] = q[3 * s + 2];
                    raster_ranked_sample(r, key, j)[lane] = (uint8_t)s;
                    r->range[key][j][0] = fminf(r->range[key][j][0], q[3 * s + c]);
                    r->range[key][j][1] = fmaxf(r->range[key][j][1], q[3 * s + c]);
                }
            }
        }
    return MOS_OK;
}

void raster_ranked_release(frame_ranked *r, const mos_allocator *a)
{
    util_free(a, r->block);
    util_free(a, r->sample);
    r->block = NULL;
    r->plane = NULL;
    r->sample = NULL;
}
