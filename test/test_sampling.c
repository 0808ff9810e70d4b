/* test_sampling.c — the texture sampler (src/shader/sample_tmp.h, texture.c):
 * every instruction-set build returns the same bits as the portable one on
 * random coordinates, footprints, sizes and NaN/Inf/huge inputs; the mip
 * chain of an even-sized texture is the rounded-up mean of means of each
 * 2x2 block (what glGenerateMipmap gives on llvmpipe), computed here from the
 * input image; the mip level follows log2 of the footprint, rounded, checked
 * on levels filled with distinct colours; the wrap modes (repeat,
 * clamp-to-edge, mirrored), trilinear blending between levels, and the cell
 * filter of decoupled shading grids against the mean of its four taps.  (That the
 * same coordinates give
 * llvmpipe's texels is test_llvmpipe_agreement's textured level.) */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "check.h"
#include "shader/texture.h"

static uint32_t rng = 0x9e3779b9u;
static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* A w x h texture of random texels in px (w * h * 4 bytes, which the
 * sampler keeps); false when it could not be built. */
static bool random_texture(mos_sampler *s, uint8_t *px, int w, int h, const mos_allocator *a)
{
    for (size_t i = 0; i < (size_t)w * (size_t)h * 4; i++) px[i] = (uint8_t)next();
    return CHECK_OK_B(texture_build(s, w, h, px, a));
}
static float uniform(float lo, float hi) { return lo + (hi - lo) * (float)(next() & 0xffffff) / 16777216.0f; }

enum { Q = 2048 };
static float u[4 * Q], v[4 * Q], ref[4][4 * Q], got[4][4 * Q];

static void test_isa_bits(void)
{
    const mos_allocator a = { 0 };
    static const int sizes[][2] = { { 8, 8 }, { 256, 256 }, { 7, 5 }, { 100, 37 }, { 1, 1 }, { 64, 2 }, { 3, 300 },
                                    { 512, 128 } };
    static const mos_isa isas[] = { MOS_ISA_AVX2, MOS_ISA_AVX512 };
    int tested = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        const int w = sizes[si][0], h = sizes[si][1];
        uint8_t *px = malloc((size_t)w * (size_t)h * 4);
        if (!px) abort();
        mos_sampler s;
        if (!random_texture(&s, px, w, h, &a)) {
            free(px);
            continue;
        }
        for (int q = 0; q < Q; q++) {
            float cu = uniform(-3, 3), cv = uniform(-3, 3), scale = powf(2.0f, uniform(-14, 4)), skew = uniform(-1, 1);
            if (q % 97 == 0) cu = NAN;
            if (q % 89 == 0) cv = INFINITY;
            if (q % 83 == 0) scale = 0.0f;
            if (q % 79 == 0) cu = 3e9f;
            if (q % 73 == 0) scale = INFINITY;
            for (int l = 0; l < 4; l++) {
                u[4 * q + l] = cu + scale * (float)(l & 1) + scale * skew * (float)(l >> 1);
                v[4 * q + l] = cv + scale * (float)(l >> 1);
            }
        }
        float *r[4] = { ref[0], ref[1], ref[2], ref[3] }, *g[4] = { got[0], got[1], got[2], got[3] };
        for (int mode = 0; mode < 36; mode++) {  /* wrap u, wrap v, mip filter, cell filter */
            s.wrap[0] = mode % 3;
            s.wrap[1] = mode / 3 % 3;
            s.mip_linear = mode / 9 % 2;
            const bool cells = mode >= 18;
            texture_sample_quads_scalar(&s, Q, u, v, r, 1.0f, cells);
            for (size_t k = 0; k < sizeof isas / sizeof isas[0]; k++) {
                if (backend_isa_available(isas[k]) != isas[k]) continue;
                tested++;
                backend_isa_select(isas[k])->shader->sample(&s, Q, u, v, g, 1.0f, cells);
                long bad = 0;
                for (int c = 0; c < 4; c++) bad += memcmp(ref[c], got[c], sizeof ref[c]) != 0;
                CHECK_MSG(bad == 0, "ISA %d on a %dx%d texture, wrap %d %d, mip linear %d, cells %d: %ld channels "
                          "differ from the portable sampler", isas[k], w, h, s.wrap[0], s.wrap[1], s.mip_linear,
                          cells, bad);
            }
        }
        texture_release(&s, &a);
        free(px);
    }
    printf("  %d (texture, mode, ISA) triples compared with the portable sampler\n", tested);
}

static uint32_t avg_up(uint32_t p, uint32_t q)
{
    uint32_t out = 0;
    for (int c = 0; c < 4; c++) out |= ((((p >> (8 * c)) & 255u) + ((q >> (8 * c)) & 255u) + 1u) >> 1) << (8 * c);
    return out;
}

static void test_mip_chain(void)
{
    enum { W = 64, H = 32 };
    const mos_allocator a = { 0 };
    static uint8_t px[W * H * 4];
    mos_sampler s;
    if (!random_texture(&s, px, W, H, &a)) return;
    CHECK_EQ_INT(s.levels, 7);  /* 64x32 .. 1x1 */
    CHECK(s.level[1].width == W / 2 && s.level[1].height == H / 2);
    long bad = 0;
    for (int j = 0; j < H / 2; j++)      /* level rows bottom first: input row H - 1 - 2j is level-0 row 2j */
        for (int i = 0; i < W / 2; i++) {
            uint32_t t[4];
            for (int k = 0; k < 4; k++) {
                const int x = 2 * i + (k & 1), y = H - 1 - (2 * j + (k >> 1));
                memcpy(&t[k], px + 4 * (y * W + x), 4);
            }
            bad += s.level[1].texels[j * (W / 2) + i] != avg_up(avg_up(t[0], t[1]), avg_up(t[2], t[3]));
        }
    CHECK_MSG(bad == 0, "level 1: %ld texels are not the rounded-up mean of means of their 2x2 block", bad);
    texture_release(&s, &a);
}

/* A 256x256 texture whose level k is grey 20 k (the level a quad used is
 * its red / 20); false when it could not be built. */
enum { GREY_N = 256 };
static bool grey_levels(mos_sampler *s)
{
    const mos_allocator a = { 0 };
    static uint8_t px[GREY_N * GREY_N * 4];
    if (!CHECK_OK_B(texture_build(s, GREY_N, GREY_N, px, &a))) return false;
    for (int k = 0; k < s->levels; k++) {
        uint32_t *t = (uint32_t *)(uintptr_t)s->level[k].texels;
        for (int i = 0; i < s->level[k].width * s->level[k].height; i++) t[i] = 0xff000000u | 0x010101u * (uint32_t)(20 * k);
    }
    return true;
}

/* Red of one quad sampled with a footprint of d texels per pixel (d along
 * x, d / 2 along y), its lanes lane_px pixels apart (mos_sample_quads_spaced). */
static float sample_footprint(const mos_sampler *s, float d, float lane_px)
{
    float qu[4], qv[4], o[4][4];
    float *op[4] = { o[0], o[1], o[2], o[3] };
    for (int l = 0; l < 4; l++) {
        qu[l] = 0.3f + (float)(l & 1) * d * lane_px / GREY_N;
        qv[l] = 0.6f + (float)(l >> 1) * 0.5f * d * lane_px / GREY_N;
    }
    if (lane_px == 1.0f) texture_sample_quads_scalar(s, 1, qu, qv, op, 1.0f, false);
    else mos_sample_quads_spaced(s, lane_px, 1, qu, qv, op);
    return o[0][0];
}

static void test_level_rule(void)
{
    const mos_allocator a = { 0 };
    mos_sampler s;
    if (!grey_levels(&s)) return;
    long bad = 0, n = 0;
    /* Lanes a pixel apart, and the spaced quads of a shading grid (the level
     * is the pixel footprint's whatever the spacing). */
    static const float spacing[] = { 1.0f, 0.5f, 1.0f / 1.5f, 2.0f };
    for (int k = 0; k < 4; k++)
        for (int e = -8; e <= 20; e++) {  /* footprint d texels per pixel, 2^(e/2) nudged off the thresholds */
            const float d = powf(2.0f, (float)e * 0.5f) * (e % 2 ? 1.03f : 0.98f);
            const int want_level = (int)floorf(log2f(d) + 0.5f), want = want_level < 0 ? 0 : want_level > 8 ? 8 : want_level;
            const int level = (int)lrintf(sample_footprint(&s, d, spacing[k]) * 255.0f) / 20;
            n++;
            if (level != want) {
                bad++;
                fprintf(stderr, "  footprint %g texels, lanes %g px apart: level %d, expected %d\n", d, spacing[k],
                        level, want);
            }
        }
    /* A zero footprint takes level 0; a NaN one along y the last (the
     * larger footprint is taken as x86's maxps takes it: y when either is
     * NaN). */
    float zu[4] = { 0.5f, 0.5f, 0.5f, 0.5f }, nv[4] = { 0.5f, 0.5f, NAN, 0.5f }, o[4][4];
    float *op[4] = { o[0], o[1], o[2], o[3] };
    texture_sample_quads_scalar(&s, 1, zu, zu, op, 1.0f, false);
    CHECK_EQ_INT((int)lrintf(o[0][0] * 255.0f) / 20, 0);
    texture_sample_quads_scalar(&s, 1, zu, nv, op, 1.0f, false);
    CHECK_EQ_INT((int)lrintf(o[0][3] * 255.0f) / 20, s.levels - 1);
    CHECK_MSG(bad == 0, "%ld of %ld footprints took another level than log2 rounded", bad, n);
    texture_release(&s, &a);
}

/* Clamp to edge holds the edge texels outside 0..1; mirrored repeat reads
 * -u as u and 1 + u as 1 - u; repeat reads u + 1 as u (at level 0). */
static void test_wrap_modes(void)
{
    enum { N = 16 };
    const mos_allocator a = { 0 };
    static uint8_t px[N * N * 4];
    mos_sampler s;
    if (!random_texture(&s, px, N, N, &a)) return;
    long bad = 0;
    for (int i = 0; i < 200; i++) {
        const float cu = uniform(0.0f, 1.0f), cv = uniform(0.0f, 1.0f), e = 1.0f / 4096;  /* tiny footprint: level 0 */
        float qu[2][4], qv[2][4], o[2][4][4];
        float *op0[4] = { o[0][0], o[0][1], o[0][2], o[0][3] }, *op1[4] = { o[1][0], o[1][1], o[1][2], o[1][3] };
        for (int mode = 0; mode < 3; mode++) {
            s.wrap[0] = s.wrap[1] = mode;
            for (int l = 0; l < 4; l++) {
                const float du = e * (float)(l & 1), dv = e * (float)(l >> 1);
                if (mode == MOS_WRAP_CLAMP_TO_EDGE) {         /* far outside, and just at the edge */
                    qu[0][l] = -5.0f + du, qv[0][l] = 7.0f + dv;
                    qu[1][l] = 0.0f + du, qv[1][l] = 1.0f - 0.5f / N + dv;
                } else if (mode == MOS_WRAP_MIRRORED_REPEAT) { /* -u and 1 + u mirror u and 1 - u */
                    qu[0][l] = -cu + du, qv[0][l] = 1.0f + cv + dv;
                    qu[1][l] = cu + du, qv[1][l] = 1.0f - cv + dv;
                } else {                                       /* a whole period away */
                    qu[0][l] = cu + 3.0f + du, qv[0][l] = cv - 2.0f + dv;
                    qu[1][l] = cu + du, qv[1][l] = cv + dv;
                }
            }
            texture_sample_quads_scalar(&s, 1, qu[0], qv[0], op0, 1.0f, false);
            texture_sample_quads_scalar(&s, 1, qu[1], qv[1], op1, 1.0f, false);
            for (int c = 0; c < 4; c++) bad += fabsf(o[0][c][0] - o[1][c][0]) > (mode == 0 ? 1.5f / 255 : 0.0f);
        }
    }
    CHECK_MSG(bad == 0, "%ld channels differ between a coordinate and its wrapped image", bad);
    texture_release(&s, &a);
}

/* Trilinear: between levels k and k + 1 (filled with 20 k and 20 k + 20)
 * the value moves from one to the other as the footprint grows. */
static void test_trilinear(void)
{
    const mos_allocator a = { 0 };
    mos_sampler s;
    if (!grey_levels(&s)) return;
    s.mip_linear = true;
    float last = -1.0f;
    long bad = 0;
    for (int i = 0; i <= 64; i++) {  /* footprint 2^(2 + i / 32): lod from 2 to 4 */
        const float d = powf(2.0f, 2.0f + (float)i / 32.0f), red = sample_footprint(&s, d, 1.0f);
        const float lod = 2.0f + (float)i / 32.0f, want = 20.0f * lod / 255.0f;
        bad += red < last || fabsf(red - want) > 1.5f / 255.0f;  /* monotonic, within the linear log2's error */
        last = red;
    }
    CHECK_MSG(bad == 0, "%ld of 65 trilinear samples off the blend of their two levels", bad);
    texture_release(&s, &a);
}

/* The cell filter (mos_fs_batch.cells) against its definition, through the
 * public calls: each lane the mean of the point samples a quarter of a lane
 * step from it along both axes of its quad, the quad's level its own.  Dyadic
 * coordinates keep every tap position, and the tap quads' differences, exact,
 * so the taps are sampled here as quads of their own.  A quad sheared along y
 * tells the axes apart; random texels, every level, both mip filters. */
static void test_cell_filter(void)
{
    enum { N = 64 };
    const mos_allocator a = { 0 };
    static uint8_t px[N * N * 4];
    mos_sampler s;
    if (!random_texture(&s, px, N, N, &a)) return;
    long bad = 0, n = 0;
    for (int i = 0; i < 400; i++) {
        s.mip_linear = i % 2;
        const float step = ldexpf(1.0f, -6 - (int)(next() % 6)) * (float)(1 + next() % 3);  /* 1/64 .. 3/2048 */
        const float shear = (float)((int)(next() % 5) - 2) * 0.25f * step;
        const float cu = (float)(next() % 4096) / 4096.0f, cv = (float)(next() % 4096) / 4096.0f;
        float qu[4], qv[4], cell[4][4], tap[4][4];
        for (int l = 0; l < 4; l++) {
            qu[l] = cu + step * (float)(l & 1) + shear * (float)(l >> 1);
            qv[l] = cv + step * (float)(l >> 1);
        }
        float *co[4] = { cell[0], cell[1], cell[2], cell[3] }, *to[4] = { tap[0], tap[1], tap[2], tap[3] };
        const mos_fs_batch b = { .quad_count = 1, .lane_px = 1.0f, .cells = true };
        mos_sample_quads_batch(&b, &s, 1, qu, qv, co);
        uint32_t sum[4][4] = { { 0 } };
        for (int k = 0; k < 4; k++) {
            const float sx = k & 1 ? 0.25f : -0.25f, sy = k & 2 ? 0.25f : -0.25f;
            float tu[4], tv[4];
            for (int l = 0; l < 4; l++) {  /* the quad moved by the tap's offset: same differences, same level */
                tu[l] = qu[l] + sx * step + sy * shear;
                tv[l] = qv[l] + sy * step;
            }
            mos_sample_quads_spaced(&s, 1.0f, 1, tu, tv, to);
            for (int c = 0; c < 4; c++)
                for (int l = 0; l < 4; l++) sum[c][l] += (uint32_t)lrintf(tap[c][l] * 255.0f);
        }
        for (int c = 0; c < 4; c++)
            for (int l = 0; l < 4; l++, n++) bad += cell[c][l] != (float)sum[c][l] * (1.0f / (4.0f * 255.0f));
    }
    CHECK_MSG(bad == 0, "%ld of %ld channels are not the mean of the cell's four taps", bad, n);
    /* Without cells the batch call is mos_sample_quads_spaced. */
    const float qu[4] = { 0.25f, 0.3f, 0.25f, 0.3f }, qv[4] = { 0.5f, 0.5f, 0.55f, 0.55f };
    float p1[4][4], p2[4][4];
    float *o1[4] = { p1[0], p1[1], p1[2], p1[3] }, *o2[4] = { p2[0], p2[1], p2[2], p2[3] };
    const mos_fs_batch b = { .quad_count = 1, .lane_px = 0.5f };
    mos_sample_quads_batch(&b, &s, 1, qu, qv, o1);
    mos_sample_quads_spaced(&s, 0.5f, 1, qu, qv, o2);
    CHECK(memcmp(p1, p2, sizeof p1) == 0);
    texture_release(&s, &a);
}

int main(void)
{
    TEST_RUN(test_isa_bits);
    TEST_RUN(test_mip_chain);
    TEST_RUN(test_level_rule);
    TEST_RUN(test_wrap_modes);
    TEST_RUN(test_trilinear);
    TEST_RUN(test_cell_filter);
    return TEST_EXIT();
}
