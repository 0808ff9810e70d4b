/* fuzz_shader.c — libFuzzer target: the shader front end.  An input that
 * starts with the SPIR-V magic number is SPIR-V words, translated as a
 * fragment and as a vertex shader (src/shader/spirv.c); any other input is
 * GLSL (glslang, then the translation; a vertex shader if it names
 * gl_Position).  What translates is also partitioned (RDS and RDSh for a
 * small pass, whatever the DAG's size: the partitioner's clock stops it
 * after FUZZ_PART_SECONDS), compiled for the VM and run on one batch with
 * every input it reads and a uniform block of exactly the bytes the
 * translation says the shader reads (so ASan sees a read past them).  A
 * GLSL fragment shader is also built into a program with builtin.vert's
 * twin under an allocator that fails one allocation (picked from the
 * input): the build must say out of memory or succeed, and give every
 * block back.  Run by `make fuzz` and test/test_fuzz.sh (replay_main.c
 * without clang). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "glsl/glsl.h"
#include "shader/shader.h"
#include "util/alloc.h"

#define FUZZ_PART_SECONDS 0.25  /* the partitioner's time limit per call (its fallback may take 1.5 times that) */

static void run_vm(const spv_shader *sh, const part_plan *plan)
{
    vm_program *vm;
    char err[512];
    if (vm_build(&sh->dag, plan, 64, &vm, err, sizeof err) != MOS_OK) {
        if (fuzz_verbose())
            fprintf(stderr, "fuzz_shader: vm_build: %s\n", err);
        return;
    }
    static _Alignas(64) float lanes[80][64];
    static _Alignas(64) float outs[80][64];
    if (sh->uniform_bytes < 0 || sh->uniform_bytes > SPV_MAX_UNIFORM_BYTES) {
        fprintf(stderr, "fuzz_shader: the shader reads %d uniform bytes, past the limit\n", sh->uniform_bytes);
        abort();
    }
    /* every input the DAG reads (arrays shared past 64), outputs likewise */
    const int nin = sh->dag.input_count > 0 ? sh->dag.input_count : 1;
    const int nout = sh->dag.out_count > 0 ? sh->dag.out_count : 1;
    const float **in = malloc((size_t)nin * sizeof *in);
    float **out = malloc((size_t)nout * sizeof *out);
    /* exactly the bytes the translation says the shader reads: a read past them is ASan's */
    unsigned char *uniforms = malloc(sh->uniform_bytes > 0 ? (size_t)sh->uniform_bytes : 1);
    void *scratch = aligned_alloc(64, (vm_scratch_bytes(vm) + 63) / 64 * 64 + 64);
    if (!in || !out || !uniforms || !scratch)
        abort();
    for (int k = 0; k < nin; k++)
        in[k] = lanes[k % 64];
    for (int k = 0; k < nout; k++)
        out[k] = outs[k % 80];
    for (int b = 0; b < sh->uniform_bytes; b++)
        uniforms[b] = (unsigned char)(b * 37 + 11);
    const mos_sampler *tex[MOS_MAX_TEXTURES] = { NULL };
    const vm_io io = { .lanes = 64, .in = in, .frag_x = lanes[64], .frag_y = lanes[65],
                       .uniforms = sh->uniform_bytes > 0 ? uniforms : NULL, .textures = tex, .out = out,
                       .scratch = scratch, .isa = MOS_ISA_SCALAR };
    vm_run(vm, &io);
    free(scratch);
    free(uniforms);
    free(in);
    free(out);
    vm_free(vm);
}

static void translate(const uint32_t *words, size_t count, ir_stage stage)
{
    spv_shader sh;
    char err[1024];
    if (spv_translate(words, count, stage, "fuzz", &sh, err, sizeof err) != MOS_OK) {
        if (fuzz_verbose())
            fprintf(stderr, "fuzz_shader: %s\n", err);
        if (!err[0]) {
            fprintf(stderr, "fuzz_shader: translation failed without a message\n");
            abort();
        }
        return;
    }
    if (fuzz_verbose())
        fprintf(stderr, "fuzz_shader: %s shader, %d nodes\n", stage == IR_VERTEX ? "vertex" : "fragment",
                sh.dag.count);
    run_vm(&sh, NULL);
    static const part_limits lim = { 6, 4, 4, 4 };
    static const part_costs cost = { 15, 5, 1 };
    for (int algo = PART_RDS; algo <= PART_RDSH; algo++) {
        part_plan plan;
        if (part_partition(&sh.dag, (part_algo)algo, &lim, &cost, FUZZ_PART_SECONDS, &plan, err, sizeof err) == MOS_OK) {
            run_vm(&sh, &plan);
            part_plan_free(&plan);
        } else if (!err[0]) {
            fprintf(stderr, "fuzz_shader: the partitioner failed without a message\n");
            abort();
        }
    }
    spv_shader_free(&sh);
}

/* An allocator that fails its FAIL_AT-th call (0-based; -1: none) and counts. */
typedef struct fuzz_hook {
    long calls, live, fail_at;
} fuzz_hook;
static void *hook_alloc(size_t n, void *user)
{
    fuzz_hook *h = user;
    if (h->calls++ == h->fail_at)
        return NULL;
    void *p = malloc(n);
    h->live += p != NULL;
    return p;
}
static void hook_free(void *p, void *user)
{
    fuzz_hook *h = user;
    h->live -= p != NULL;
    free(p);
}

/* builtin.vert's interface (locations 0: vec3, 1: vec2), for pairing. */
static const char pair_vert[] =
    "#version 450\n"
    "layout(std140, binding = 0) uniform U { mat4 mvp; } u;\n"
    "layout(location = 0) in vec3 position;\n"
    "layout(location = 1) in vec3 normal;\n"
    "layout(location = 2) in vec2 texcoord;\n"
    "layout(location = 0) out vec3 v_normal;\n"
    "layout(location = 1) out vec2 v_uv;\n"
    "void main() { gl_Position = u.mvp * vec4(position, 1.0); v_normal = normal; v_uv = texcoord; }\n";

/* FS (a fragment shader's SPIR-V) with the vertex shader above into a
 * program, first to count its allocations, then with one of them failing. */
static void build_out_of_memory(const uint32_t *fs, size_t fs_n, const uint8_t *data, size_t size)
{
    static uint32_t *vs;
    static size_t vs_n;
    char err[1024];
    if (!vs && glsl_compile(pair_vert, sizeof pair_vert - 1, "pair.vert", GLSL_VERTEX, NULL, &vs, &vs_n, err,
                            sizeof err) != MOS_OK) {
        fprintf(stderr, "fuzz_shader: pair.vert: %s\n", err);
        abort();
    }
    fuzz_hook h = { .fail_at = -1 };
    const mos_allocator a = { hook_alloc, hook_free, &h };
    program_options opt = { .costs = { 15, 5, 1 }, .allocator = &a, .time_limit_s = FUZZ_PART_SECONDS };
    if (size % 2)  /* odd inputs are also split into passes */
        opt.limits = (part_limits){ 6, 4, 4, 4 };
    shader_program *p;
    if (program_build(vs, vs_n, fs, fs_n, "pair.vert", "fuzz", &opt, &p, err, sizeof err) != MOS_OK) {
        if (h.live) {
            fprintf(stderr, "fuzz_shader: a failed build left %ld blocks\n", h.live);
            abort();
        }
        return;
    }
    program_free(p);
    uint32_t pick = 2166136261u;  /* FNV-1a of the input picks the allocation to fail */
    for (size_t i = 0; i < size; i++)
        pick = (pick ^ data[i]) * 16777619u;
    const long total = h.calls;
    h = (fuzz_hook){ .fail_at = total > 0 ? (long)(pick % (uint32_t)total) : -1 };
    const mos_result rc = program_build(vs, vs_n, fs, fs_n, "pair.vert", "fuzz", &opt, &p, err, sizeof err);
    if (rc == MOS_OK)
        program_free(p);
    else if (rc != MOS_ERR_OUT_OF_MEMORY &&
             !(rc == MOS_ERR_SHADER && strstr(err, "time limit"))) {  /* the clock may run out this time */
        fprintf(stderr, "fuzz_shader: allocation %ld of %ld failing: not out of memory: %s\n", h.fail_at, total, err);
        abort();
    }
    if (h.live) {
        fprintf(stderr, "fuzz_shader: allocation %ld of %ld failing left %ld blocks\n", h.fail_at, total, h.live);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int held;
    if (!held) {  /* glslang's tables built once for the whole run */
        glsl_hold();
        held = 1;
    }
    static const uint8_t magic[4] = { 0x03, 0x02, 0x23, 0x07 };
    if (size < 4 || memcmp(data, magic, 4) != 0) {
        if (size > 1 << 16)
            return 0;
        const int vertex = memmem(data, size, "gl_Position", 11) != NULL;  /* else a fragment shader */
        uint32_t *words;
        size_t count;
        char err[1024];
        if (glsl_compile((const char *)data, size, "fuzz", vertex ? GLSL_VERTEX : GLSL_FRAGMENT, NULL, &words, &count,
                         err, sizeof err) != MOS_OK) {
            if (fuzz_verbose())
                fprintf(stderr, "fuzz_shader: %s\n", err);
            return 0;
        }
        translate(words, count, vertex ? IR_VERTEX : IR_FRAGMENT);
        if (!vertex)
            build_out_of_memory(words, count, data, size);
        util_free(NULL, words);
        return 0;
    }
    const size_t count = size / 4;
    uint32_t *words = malloc(count ? count * 4 : 4);
    if (!words)
        abort();
    memcpy(words, data, count * 4);
    translate(words, count, IR_FRAGMENT);
    translate(words, count, IR_VERTEX);
    free(words);
    return 0;
}
