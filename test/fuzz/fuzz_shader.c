/* fuzz_shader.c — libFuzzer target: the shader front end.  An input that
 * starts with the SPIR-V magic number is SPIR-V words, translated as a
 * fragment and as a vertex shader (src/shader/spirv.c); any other input is
 * GLSL (glslang, then the translation; a vertex shader if it names
 * gl_Position).  What translates is also partitioned (RDS and RDSh for a
 * small pass, when the DAG is small enough for the partitioner's polynomial
 * time), compiled for the VM and run on one batch.  Run by `make fuzz` and
 * test/test_fuzz.sh (replay_main.c without clang). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "glsl/glsl.h"
#include "shader/shader.h"

static void run_vm(const spv_shader *sh, const part_plan *plan)
{
    vm_program *vm;
    char err[512];
    if (vm_build(&sh->dag, plan, 64, &vm, err, sizeof err) < 0) {
        if (fuzz_verbose())
            fprintf(stderr, "fuzz_shader: vm_build: %s\n", err);
        return;
    }
    static _Alignas(64) float lanes[80][64];
    static _Alignas(64) float outs[80][64];
    static _Alignas(64) unsigned char uniforms[1 << 16];
    const float *in[64];
    float *out[80];
    for (int k = 0; k < 64; k++)
        in[k] = lanes[k];
    for (int k = 0; k < 80; k++)
        out[k] = outs[k];
    if (sh->dag.input_count > 64 || sh->dag.out_count > 80 || sh->uniform_bytes > (int)sizeof uniforms) {
        vm_free(vm);
        return;
    }
    void *scratch = aligned_alloc(64, (vm_scratch_bytes(vm) + 63) / 64 * 64 + 64);
    if (!scratch)
        abort();
    const mos_sampler *tex[MOS_MAX_TEXTURES] = { NULL };
    const vm_io io = { .lanes = 64, .in = in, .frag_x = lanes[64], .frag_y = lanes[65], .uniforms = uniforms,
                       .textures = tex, .out = out, .scratch = scratch, .isa = MOS_ISA_SCALAR };
    vm_run(vm, &io);
    free(scratch);
    vm_free(vm);
}

static void translate(const uint32_t *words, size_t count, ir_stage stage)
{
    spv_shader sh;
    char err[1024];
    if (spv_translate(words, count, stage, "fuzz", &sh, err, sizeof err) < 0) {
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
    if (sh.dag.count <= 400) {
        static const part_limits lim = { 6, 4, 4, 4 };
        static const part_costs cost = { 15, 5, 1 };
        for (int algo = PART_RDS; algo <= PART_RDSH; algo++) {
            part_plan plan;
            if (part_partition(&sh.dag, (part_algo)algo, &lim, &cost, 1.0, &plan, err, sizeof err) == 0) {
                run_vm(&sh, &plan);
                part_plan_free(&plan);
            }
        }
    }
    spv_shader_free(&sh);
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
        if (glsl_compile((const char *)data, size, "fuzz", vertex ? GLSL_VERTEX : GLSL_FRAGMENT, &words, &count, err,
                         sizeof err) < 0) {
            if (fuzz_verbose())
                fprintf(stderr, "fuzz_shader: %s\n", err);
            return 0;
        }
        translate(words, count, vertex ? IR_VERTEX : IR_FRAGMENT);
        free(words);
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
