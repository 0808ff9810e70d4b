/* shader_vm.c — how fast Mosaic's shader VM runs compiled GLSL against the
 * native C shaders, per shaded lane, and what partitioning into passes does
 * to a large shader as the batch grows (seed 003 on a CPU: a pass's working
 * set is its live registers times the batch).
 *
 *   build/bench-shader-vm [--rounds N] [--isa auto|scalar|avx2|avx512] [--quick]
 *
 * Table 1, VM vs native: the same 64-lane fragment batches (16 quads, as the
 * back-end hands them) through mos_fs_batch: the native built-in and the
 * GLSL twin on the VM (program_fs), rounds alternating, median ns per lane.
 * Table 2, batch x passes: wood.frag run by the VM directly over batches of
 * 64 .. 65536 lanes, unpartitioned and split by RDS for a register budget,
 * median ns per lane.  Fed by `make -f bench/bench.mk shader`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "glsl/glsl.h"
#include "shader/shader.h"
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
    if (glsl_compile_file(path, &w, n, &st, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    return w;
}

static shader_program *build(const char *frag, const program_options *opt)
{
    size_t vn, fn;
    uint32_t *vs = compile("shaders/builtin.vert", &vn), *fs = compile(frag, &fn);
    char err[2048];
    shader_program *p;
    const int rc = program_build(vs, vn, fs, fn, "shaders/builtin.vert", frag, opt, &p, err, sizeof err);
    free(vs);
    free(fs);
    if (rc < 0) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    return p;
}

/* ---- table 1: VM against native, 64-lane batches ------------------------------ */

enum { BATCH = 64, BATCHES = 4096 };  /* a working set of 1 MiB of varyings, as a bin's worth of quads */

typedef struct fs_env {
    float *var[5];
    float *fx, *fy, *out[4];
    uint8_t *live, *discard;
    const mos_sampler *tex[MOS_MAX_TEXTURES];
    shader_builtin_uniforms u;
} fs_env;

static double run_fs(const fs_env *e, mos_fragment_fn fn, void *user, void *scratch, mos_isa isa)
{
    const double t0 = now_ns();
    for (int k = 0; k < BATCHES; k++) {
        const float *vars[5];
        for (int i = 0; i < 5; i++)
            vars[i] = e->var[i] + (size_t)k * BATCH;
        float *out[4] = { e->out[0], e->out[1], e->out[2], e->out[3] };
        const mos_fs_batch b = { .quad_count = BATCH / 4, .varyings = vars, .varying_count = 5, .frag_x = e->fx,
                                 .frag_y = e->fy, .live = e->live, .uniforms = &e->u, .textures = e->tex, .out = out,
                                 .discard = e->discard, .isa = isa, .user = user, .scratch = scratch };
        fn(&b);
    }
    return (now_ns() - t0) / ((double)BATCHES * BATCH);
}

static void vm_vs_native(const char *name, const char *frag, mos_fragment_fn native, int fma, fs_env *e, int rounds,
                         mos_isa isa)
{
    shader_program *p = build(frag, NULL);
    mos_shader_desc d;
    program_desc(p, &d);
    void *scratch = aligned_alloc(64, (d.scratch_bytes + 63) / 64 * 64 + 64);
    e->u.fma = fma;
    double tn[64], tv[64];
    for (int r = 0; r < rounds; r++) {
        tn[r] = run_fs(e, native, NULL, NULL, isa);
        tv[r] = run_fs(e, program_fs, p, scratch, isa);
    }
    const double mn = median(tn, rounds), mv = median(tv, rounds);
    vm_stats st;
    vm_get_stats(p->fs_vm, &st);
    printf("| %-10s | %5d | %5d | %8.2f | %8.2f | %5.2f |\n", name, st.vector_ins, st.registers, mn, mv, mv / mn);
    e->u.fma = 0;
    free(scratch);
    program_free(p);
}

/* ---- table 2: batch size x partitions on the VM directly ---------------------- */

static void batch_table(const char *frag, int rounds, mos_isa isa, const mos_sampler *tex, int quick)
{
    static const int regs[] = { 0, 64, 32, 16 };
    static const int batches[] = { 64, 256, 1024, 4096, 16384, 65536 };
    const int nb = quick ? 4 : 6;
    spv_shader sh;
    {
        size_t n;
        uint32_t *w = compile(frag, &n);
        char err[2048];
        if (spv_translate(w, n, IR_FRAGMENT, frag, &sh, err, sizeof err) < 0) {
            fprintf(stderr, "%s\n", err);
            exit(1);
        }
        free(w);
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
        if (regs[ri] && part_partition(&sh.dag, PART_RDS, &lim, &cost, 10, &plan, err, sizeof err) < 0) {
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
            if (vm_build(&sh.dag, regs[ri] ? &plan : NULL, batches[b], &vm, err, sizeof err) < 0) {
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
        } else {
            fprintf(stderr, "usage: bench-shader-vm [--rounds N] [--isa scalar|avx2|avx512] [--quick]\n");
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
    for (int i = 0; i < 5; i++) {
        e.var[i] = aligned_alloc(64, (size_t)BATCHES * BATCH * sizeof(float));
        for (int l = 0; l < BATCHES * BATCH; l++)
            e.var[i][l] = rnd(-1, 1);
    }
    e.fx = aligned_alloc(64, BATCH * sizeof(float));
    e.fy = aligned_alloc(64, BATCH * sizeof(float));
    for (int c = 0; c < 4; c++)
        e.out[c] = aligned_alloc(64, BATCH * sizeof(float));
    e.live = malloc(BATCH);
    e.discard = malloc(BATCH);
    for (int l = 0; l < BATCH; l++)
        e.fx[l] = e.fy[l] = 0.5f, e.live[l] = 1, e.discard[l] = 0;
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
    printf("VM against native C, %s, 64-lane batches, ns per shaded lane (median of %d rounds, alternating):\n\n",
           isa_name, rounds);
    printf("| shader     | v.ins | regs  | native   | VM       | ratio |\n");
    printf("|------------|-------|-------|----------|----------|-------|\n");
    vm_vs_native("flat", "shaders/flat.frag", shader_builtin_fs_flat, 0, &e, rounds, isa);
    vm_vs_native("lambert", "shaders/lambert.frag", shader_builtin_fs_lambert, 0, &e, rounds, isa);
    vm_vs_native("textured", "shaders/textured.frag", shader_builtin_fs_textured, 0, &e, rounds, isa);
    vm_vs_native("fma200", "shaders/fma200.frag", shader_builtin_fs_lambert, 200, &e, rounds, isa);
    batch_table("shaders/wood.frag", rounds < 5 ? rounds : 5, isa, &tex, quick);
    texture_release(&tex, &(mos_allocator){ 0 });
    return 0;
}
