/* shader_vm.c — how fast Mosaic's shader VM runs compiled GLSL against the
 * native C shaders, per shaded lane, and what partitioning into passes does
 * to a large shader as the batch grows (seed 003 on a CPU: a pass's working
 * set is its live registers times the batch).
 *
 *   build/bench-shader-vm [--rounds N] [--isa scalar|avx2|avx512] [--quick] [--only SHADER]
 *
 * Table 1, VM vs native: the same fragment batches of 64 .. 4096 lanes
 * through mos_fs_batch (the back-end hands 16 quads to a native built-in,
 * mos_shader_desc.batch_quads to a compiled shader: 256 by default): the
 * native shader (a built-in, or bench/wood_native.c for wood) and its GLSL
 * twin on the VM (program_fs, compiled for that batch), rounds alternating,
 * median ns per lane.  The fragments are those of a 512 x 512 image walked
 * in quads, row by row, each varying an affine function of the pixel (as
 * the rasterizer interpolates them), so textures are read at the mip
 * levels a surface would get; the wood row also prints how far the two
 * implementations' colours are apart.
 * Table 2, batch x passes: wood.frag run by the VM directly over batches of
 * 64 .. 65536 lanes, unpartitioned and split by RDS for a register budget,
 * median ns per lane.  Fed by `make -f bench/bench.mk shader`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "glsl/glsl.h"
#include "wood_native.h"
#include "shader/shader.h"
#include "util/alloc.h"
#include "util/cpu.h"

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static uint32_t rng = 1;
static float rnd(float lo, float hi)
{
    rng = rng * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(rng >> 8) / 16777216.0f;
}

static uint32_t *compile(const char *path, size_t *n)
{
    char err[2048];
    uint32_t *w;
    glsl_stage st;
    if (glsl_compile_file(path, NULL, &w, n, &st, err, sizeof err) != MOS_OK) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    return w;
}

static shader_program *build(const char *vert, const char *frag, const program_options *opt)
{
    size_t vn, fn;
    uint32_t *vs = compile(vert, &vn), *fs = compile(frag, &fn);
    char err[2048];
    shader_program *p;
    const mos_result rc = program_build(vs, vn, fs, fn, vert, frag, opt, &p, err, sizeof err);
    util_free(NULL, vs);
    util_free(NULL, fs);
    if (rc != MOS_OK) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    return p;
}

/* ---- table 1: VM against native ------------------------------------------------ */

enum {
    TOTAL = 1 << 18,  /* lanes per measurement: a 512 x 512 image, 1 MiB per varying */
    MAX_BATCH = 4096,
    NVAR = 11,        /* pobj.vert's varyings; builtin.vert's 5 are their prefix */
};

typedef struct fs_env {
    float *var[NVAR];
    float *fx, *fy, *out[4];
    uint8_t *live, *discard;
    const mos_sampler *tex[MOS_MAX_TEXTURES];
    shader_builtin_uniforms u;
} fs_env;

/* Runs FN over the image's lanes [first, first + lanes) into OUT. */
static void run_batch(const fs_env *e, size_t first, int lanes, float *const out[4], mos_fragment_fn fn, void *user,
                      void *scratch, mos_isa isa)
{
    const float *vars[NVAR];
    for (int i = 0; i < NVAR; i++)
        vars[i] = e->var[i] + first;
    const mos_fs_batch b = { .quad_count = lanes / 4, .varyings = vars, .varying_count = NVAR,
                             .frag_x = e->fx + first, .frag_y = e->fy + first, .live = e->live, .uniforms = &e->u,
                             .textures = e->tex, .out = out, .discard = e->discard, .isa = isa, .user = user,
                             .scratch = scratch };
    fn(&b);
}

/* ns per lane of FN over the whole image in batches of BATCH lanes. */
static double run_fs(const fs_env *e, int batch, mos_fragment_fn fn, void *user, void *scratch, mos_isa isa)
{
    float *out[4] = { e->out[0], e->out[1], e->out[2], e->out[3] };
    const double t0 = now_ns();
    for (int k = 0; k < TOTAL / batch; k++)
        run_batch(e, (size_t)k * (size_t)batch, batch, out, fn, user, scratch, isa);
    return (now_ns() - t0) / (double)TOTAL;
}

static const int fs_batches[] = { 64, 256, 1024, 4096 };
enum { FS_BATCHES = sizeof fs_batches / sizeof fs_batches[0] };

/* How far apart two shaders' colours are over the whole image, in 1024-lane
 * batches: the largest difference of a channel, and the share of lanes
 * whose four channels are equal bit for bit. */
static void agreement(fs_env *e, mos_fragment_fn fa, void *ua, void *sa, mos_fragment_fn fb, void *ub, void *sb,
                      mos_isa isa, double *max_diff, double *equal)
{
    enum { B = 1024 };
    static float oa[4][B], ob[4][B];
    long same = 0;
    *max_diff = 0;
    float *const outa[4] = { oa[0], oa[1], oa[2], oa[3] }, *const outb[4] = { ob[0], ob[1], ob[2], ob[3] };
    for (int k = 0; k < TOTAL / B; k++) {
        run_batch(e, (size_t)k * B, B, outa, fa, ua, sa, isa);
        run_batch(e, (size_t)k * B, B, outb, fb, ub, sb, isa);
        for (int l = 0; l < B; l++) {
            int eq = 1;
            for (int c = 0; c < 4; c++) {
                const double d = fabs((double)oa[c][l] - (double)ob[c][l]);
                *max_diff = d > *max_diff || d != d ? d : *max_diff;
                eq &= memcmp(&oa[c][l], &ob[c][l], sizeof(float)) == 0;
            }
            same += eq;
        }
    }
    *equal = (double)same / TOTAL;
}

/* One row: native and VM per lane at each batch size (the VM compiled for
 * that batch), rounds alternating, and how close their colours are. */
static void vm_vs_native(const char *name, const char *vert, const char *frag, mos_fragment_fn native, int fma,
                         fs_env *e, int rounds, mos_isa isa, const char *only)
{
    if (only && strcmp(only, name))
        return;
    e->u.fma = fma;
    printf("| %-10s |", name);
    double max_diff = 0, equal = 0;
    for (int bi = 0; bi < FS_BATCHES; bi++) {
        const int batch = fs_batches[bi];
        const program_options opt = { .costs = { 15, 5, 1 }, .lanes = batch };
        shader_program *p = build(vert, frag, &opt);
        mos_shader_desc d;
        program_desc(p, &d);
        void *scratch = aligned_alloc(64, (d.scratch_bytes + 63) / 64 * 64 + 64);
        if (bi == 0)
            agreement(e, native, NULL, NULL, program_fs, p, scratch, isa, &max_diff, &equal);
        double tn[64], tv[64];
        for (int r = 0; r < rounds; r++) {
            tn[r] = run_fs(e, batch, native, NULL, NULL, isa);
            tv[r] = run_fs(e, batch, program_fs, p, scratch, isa);
        }
        const double mn = median(tn, rounds), mv = median(tv, rounds);
        if (bi == 0) {
            vm_stats st;
            vm_get_stats(p->fs_vm, &st);
            printf(" %5d | %4d |", st.vector_ins, st.registers);
        }
        printf(" %6.2f | %6.2f | %5.2f |", mn, mv, mv / mn);
        fflush(stdout);
        free(scratch);
        program_free(p);
    }
    printf(" %.1e | %5.1f%% |\n", max_diff, 100 * equal);
    e->u.fma = 0;
}

/* ---- table 2: batch size x partitions on the VM directly ---------------------- */

static void batch_table(const char *frag, int rounds, mos_isa isa, const mos_sampler *tex, int quick)
{
    static const int regs[] = { 0, 12, 8, 6 };
    static const int batches[] = { 64, 256, 1024, 4096, 16384, 65536 };
    const int nb = quick ? 4 : 6;
    spv_shader sh;
    {
        size_t n;
        uint32_t *w = compile(frag, &n);
        char err[2048];
        if (spv_translate(w, n, IR_FRAGMENT, frag, &sh, err, sizeof err) != MOS_OK) {
            fprintf(stderr, "%s\n", err);
            exit(1);
        }
        util_free(NULL, w);
    }
    const int total = 1 << 17;  /* lanes per measurement */
    float *in[16];
    for (int k = 0; k < 16; k++) {
        in[k] = aligned_alloc(64, (size_t)total * sizeof(float));
        for (int l = 0; l < total; l++)
            in[k][l] = rnd(-1, 1);
    }
    float *fxy = aligned_alloc(64, (size_t)total * sizeof(float));
    for (int l = 0; l < total; l++)
        fxy[l] = (float)(l & 255) + 0.5f;
    float *out[5];
    for (int k = 0; k < 5; k++)
        out[k] = aligned_alloc(64, (size_t)total * sizeof(float));
    shader_builtin_uniforms u;
    shader_builtin_uniforms_init(&u);
    const mos_sampler *texs[MOS_MAX_TEXTURES] = { tex, tex, tex, tex };
    printf("\n%s, ns per lane (median of %d), by batch (lanes) and register budget (RDS, 15p+5t+i):\n\n", frag, rounds);
    printf("| regs | passes | slots | max regs |");
    for (int b = 0; b < nb; b++)
        printf(" %6d |", batches[b]);
    printf("\n|------|--------|-------|----------|");
    for (int b = 0; b < nb; b++)
        printf("--------|");
    printf("\n");
    for (size_t ri = 0; ri < sizeof regs / sizeof regs[0]; ri++) {
        part_plan plan = { 0 };
        const part_limits lim = { 0, regs[ri], 0, 0 };
        const part_costs cost = { 15, 5, 1 };
        char err[512];
        if (regs[ri] && part_partition(&sh.dag, PART_RDS, &lim, &cost, 10, &plan, err, sizeof err) != MOS_OK) {
            printf("| %4d | %s |\n", regs[ri], err);
            continue;
        }
        int maxr = 0;
        for (int k = 0; k < plan.pass_count; k++)
            maxr = plan.pass[k].use.regs > maxr ? plan.pass[k].use.regs : maxr;
        char label[16];
        if (regs[ri])
            snprintf(label, sizeof label, "%d", regs[ri]);
        else
            strcpy(label, "-");
        printf("| %4s | %6d | %5d | %8s |", label, regs[ri] ? plan.pass_count : 1, plan.slot_count,
               regs[ri] ? (snprintf(label, sizeof label, "%d", maxr), label) : "-");
        for (int b = 0; b < nb; b++) {
            vm_program *vm;
            if (vm_build(&sh.dag, regs[ri] ? &plan : NULL, batches[b], &vm, err, sizeof err) != MOS_OK) {
                printf(" %s |", err);
                continue;
            }
            void *scratch = aligned_alloc(64, (vm_scratch_bytes(vm) + 63) / 64 * 64);
            double t[64];
            for (int r = 0; r < rounds; r++) {
                const double t0 = now_ns();
                for (int o = 0; o < total; o += batches[b]) {
                    const float *ins[16];
                    for (int k = 0; k < 16; k++)
                        ins[k] = in[k] + o;
                    float *outs[5] = { out[0] + o, out[1] + o, out[2] + o, out[3] + o, out[4] + o };
                    const vm_io io = { .lanes = batches[b], .in = ins, .frag_x = fxy + o, .frag_y = fxy + o,
                                       .uniforms = &u, .textures = texs, .out = outs, .scratch = scratch, .isa = isa };
                    vm_run(vm, &io);
                }
                t[r] = (now_ns() - t0) / total;
            }
            printf(" %6.2f |", median(t, rounds));
            fflush(stdout);
            free(scratch);
            vm_free(vm);
        }
        printf("\n");
        part_plan_free(&plan);
    }
    for (int k = 0; k < 16; k++)
        free(in[k]);
    for (int k = 0; k < 5; k++)
        free(out[k]);
    free(fxy);
    spv_shader_free(&sh);
}

int main(int argc, char **argv)
{
    int rounds = 7, quick = 0;
    const char *only = NULL;  /* one shader's row (or "wood": the batch table only) */
    mos_isa isa = MOS_ISA_SCALAR;
#if defined(UTIL_X86)
    __builtin_cpu_init();
    isa = __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")
              ? MOS_ISA_AVX512
          : __builtin_cpu_supports("avx2") ? MOS_ISA_AVX2 : MOS_ISA_SCALAR;
#endif
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
            rounds = atoi(argv[++i]);
            if (rounds < 1 || rounds > 64) {
                fprintf(stderr, "bench-shader-vm: --rounds 1..64\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--isa") && i + 1 < argc) {
            const char *v = argv[++i];
            isa = !strcmp(v, "scalar") ? MOS_ISA_SCALAR : !strcmp(v, "avx2") ? MOS_ISA_AVX2
                  : !strcmp(v, "avx512") ? MOS_ISA_AVX512 : isa;
        } else if (!strcmp(argv[i], "--quick")) {
            quick = 1;
        } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            only = argv[++i];
        } else {
            fprintf(stderr, "usage: bench-shader-vm [--rounds N] [--isa scalar|avx2|avx512] [--quick] [--only SHADER]\n");
            return 2;
        }
    }
    fs_env e;
    shader_builtin_uniforms_init(&e.u);
    for (int c = 0; c < 3; c++)
        e.u.base_color[c] = 0.8f;
    for (int j = 0; j < 4; j++)
        for (int c = 0; c < 3; c++) {
            e.u.light_dir[j][c] = j == c ? 1.0f : 0.0f;
            e.u.light_color[j][c] = 0.5f;
        }
    /* Varying k at pixel (x, y) of the 512 x 512 image: base[k] + gx[k] x +
     * gy[k] y: a normal turning across the image, uv over the texture twice
     * (about half a texel per pixel), object positions across a plank
     * (wood's rings), the vector to the eye. */
    static const float base[NVAR] = { 0.3f, 0.4f, 0.8f, 0.0f, 0.0f, -1.0f, -0.2f, -0.3f, 0.2f, 0.3f, 1.0f };
    static const float gx[NVAR] = { 1.0f / 512, 0, 0, 2.0f / 512, 0, 2.0f / 512, 0, 0, -0.5f / 512, 0, 0 };
    static const float gy[NVAR] = { 0, -1.0f / 512, 0, 0, 2.0f / 512, 0, 0.3f / 512, 0.6f / 512, 0, 0.5f / 512, 0 };
    for (int i = 0; i < NVAR; i++)
        e.var[i] = aligned_alloc(64, (size_t)TOTAL * sizeof(float));
    e.fx = aligned_alloc(64, (size_t)TOTAL * sizeof(float));
    e.fy = aligned_alloc(64, (size_t)TOTAL * sizeof(float));
    for (int l = 0; l < TOTAL; l++) {
        const int q = l / 4, x = (q % 256) * 2 + (l & 1), y = (q / 256) * 2 + ((l >> 1) & 1);
        e.fx[l] = (float)x + 0.5f;
        e.fy[l] = (float)y + 0.5f;
        for (int i = 0; i < NVAR; i++)
            e.var[i][l] = base[i] + gx[i] * e.fx[l] + gy[i] * e.fy[l];
    }
    for (int c = 0; c < 4; c++)
        e.out[c] = aligned_alloc(64, MAX_BATCH * sizeof(float));
    e.live = malloc(MAX_BATCH);
    e.discard = malloc(MAX_BATCH);
    for (int l = 0; l < MAX_BATCH; l++)
        e.live[l] = 1, e.discard[l] = 0;
    mos_sampler tex;
    {
        uint8_t *px = malloc(256 * 256 * 4);
        for (int i = 0; i < 256 * 256 * 4; i++)
            px[i] = (uint8_t)rnd(0, 256);
        if (texture_build(&tex, 256, 256, px, &(mos_allocator){ 0 }) != MOS_OK)
            return 1;
        free(px);
#if defined(UTIL_X86)
        tex.sample = isa == MOS_ISA_AVX512 ? texture_sample_quads_avx512
                     : isa == MOS_ISA_AVX2 ? texture_sample_quads_avx2 : texture_sample_quads_scalar;
#endif
    }
    memset(e.tex, 0, sizeof e.tex);
    e.tex[0] = &tex;
    const char *isa_name = isa == MOS_ISA_AVX512 ? "avx512" : isa == MOS_ISA_AVX2 ? "avx2" : "scalar";
    printf("VM against native C, %s, ns per shaded lane by fragment batch (lanes; median of %d rounds, "
           "alternating):\n\n", isa_name, rounds);
    printf("| shader     | v.ins | regs |");
    for (int b = 0; b < FS_BATCHES; b++)
        printf(" native %4d | VM %4d | ratio |", fs_batches[b], fs_batches[b]);
    printf(" max diff | equal |\n|------------|-------|------|");
    for (int b = 0; b < FS_BATCHES; b++)
        printf("-------------|---------|-------|");
    printf("----------|-------|\n");
    const char *bv = "shaders/builtin.vert";
    vm_vs_native("flat", bv, "shaders/flat.frag", shader_builtin_fs_flat, 0, &e, rounds, isa, only);
    vm_vs_native("lambert", bv, "shaders/lambert.frag", shader_builtin_fs_lambert, 0, &e, rounds, isa, only);
    vm_vs_native("textured", bv, "shaders/textured.frag", shader_builtin_fs_textured, 0, &e, rounds, isa, only);
    vm_vs_native("fma200", bv, "shaders/fma200.frag", shader_builtin_fs_lambert, 200, &e, rounds, isa, only);
    vm_vs_native("wood", "shaders/pobj.vert", "shaders/wood.frag", wood_native_fs, 0, &e, rounds, isa, only);
    if (!only || !strcmp(only, "wood"))
        batch_table("shaders/wood.frag", rounds < 5 ? rounds : 5, isa, &tex, quick);
    texture_release(&tex, &(mos_allocator){ 0 });
    return 0;
}
