/* samples.c — where the visibility samples of a pixel lie: the fixed (x, y)
 * offsets shared by all pixels, and the (u, v, t) lens/shutter pattern that
 * repeats every 32x32 pixels, and which sample counts exist (exported as
 * mos_samples_supported).  Fed by the back-end, raster, the api (sample
 * queries) and the tools; every value is a pure function of the sample count. */
#include <math.h>

#include "raster/raster.h"
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

static float unit01(uint64_t *state) { return (float)(mix64(state) >> 40) * (1.0f / 16777216.0f); }

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

/* Shirley and Chiu's concentric map of [-1, 1]^2 onto the unit disk. */
static void concentric_disk(float a, float b, float *u, float *v)
{
    if (a == 0.0f && b == 0.0f) {
        *u = *v = 0.0f;
        return;
    }
    const float quarter_pi = 0.78539816f;
    float r, phi;
    if (fabsf(a) > fabsf(b)) {
        r = a;
        phi = quarter_pi * (b / a);
    } else {
        r = b;
        phi = 2.0f * quarter_pi - quarter_pi * (a / b);
    }
    *u = r * cosf(phi);
    *v = r * sinf(phi);
}

void raster_uvt_fill(int spp, uint32_t seed, float *uvt)
{
    int pu[FRAME_MAX_POSITIONS], pv[FRAME_MAX_POSITIONS], pt[FRAME_MAX_POSITIONS];
    for (int pix = 0; pix < RASTER_UVT_TILE * RASTER_UVT_TILE; pix++) {
        uint64_t state = ((uint64_t)spp << 32) ^ (uint64_t)pix * UINT64_C(0x2545f4914f6cdd1d) ^
                         (uint64_t)seed * UINT64_C(0xd1b54a32d192ed03);
        shuffle(pu, spp, &state);
        shuffle(pv, spp, &state);
        shuffle(pt, spp, &state);
        for (int s = 0; s < spp; s++) {
            float a = ((float)pu[s] + unit01(&state)) / (float)spp * 2.0f - 1.0f;
            float b = ((float)pv[s] + unit01(&state)) / (float)spp * 2.0f - 1.0f;
            float *o = uvt + ((size_t)pix * (size_t)spp + (size_t)s) * 3;
            concentric_disk(a, b, &o[0], &o[1]);
            float t = ((float)pt[s] + unit01(&state)) / (float)spp;
            o[2] = t < 1.0f ? t : 0x1.fffffep-1f;
        }
    }
}

mos_result raster_ranked_init(frame_ranked *r, int spp, const float *uvt, const frame_samples *pos,
                              const mos_allocator *a)
{
    static const int component[2] = {[FE_RANK_T] = 2, [FE_RANK_U] = 0};  /* t, u */
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
