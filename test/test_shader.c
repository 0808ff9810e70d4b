/* test_shader.c — GLSL shaders through glslang, the SPIR-V -> DAG
 * translation, the DAG's folding and CSE, the SIMD VM and partitioned
 * programs.  Each case compiles real GLSL, runs it on the VM over lanes of
 * pseudo-random inputs and compares with the same arithmetic written in C
 * (bit for bit: the VM and these references use the same operation
 * definitions); partitions and ISAs must not change a bit.  Fed by make test. */
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "glsl/glsl.h"
#include "shader/shader.h"
#include "util/alloc.h"
#include "util/cpu.h"

enum { LANES = 256, NIN = 8 };

static uint32_t rng = 12345;
static float rnd(float lo, float hi)
{
    rng = rng * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(rng >> 8) / 16777216.0f;
}

/* Inputs: NIN varyings per lane (a = 0..3, b = 4..7), window coordinates. */
static _Alignas(64) float in[NIN][LANES];
static _Alignas(64) float frag_x[LANES], frag_y[LANES];
static _Alignas(64) float out[5][LANES];
static _Alignas(64) unsigned char uniforms[256];

static void fill_inputs(void)
{
    for (int k = 0; k < NIN; k++)
        for (int l = 0; l < LANES; l++)
            in[k][l] = rnd(-1.5f, 1.5f);
    for (int l = 0; l < LANES; l++) {
        frag_x[l] = (float)(l / 4 * 2 + (l & 1)) + 0.5f;
        frag_y[l] = (float)((l >> 1) & 1) + 0.5f;
    }
}

/* GLSL source -> translated fragment shader; MOS_OK, else err set. */
static mos_result translate(const char *src, ir_stage stage, spv_shader *sh, char *err, size_t err_size)
{
    uint32_t *words;
    size_t count;
    mos_result rc = glsl_compile(src, strlen(src), stage == IR_VERTEX ? "t.vert" : "t.frag",
                                 stage == IR_VERTEX ? GLSL_VERTEX : GLSL_FRAGMENT, NULL, &words, &count, err, err_size);
    if (rc != MOS_OK)
        return rc;
    rc = spv_translate(words, count, stage, stage == IR_VERTEX ? "t.vert" : "t.frag", sh, err, err_size);
    util_free(NULL, words);
    return rc;
}

/* Runs SH (with PLAN, or one pass) on the inputs; outputs in out[]. */
static int run(const spv_shader *sh, const part_plan *plan, mos_isa isa, const mos_sampler *const *tex,
               int lanes_per_batch)
{
    vm_program *vm;
    char err[256];
    if (!CHECK_MSG(vm_build(&sh->dag, plan, lanes_per_batch, &vm, err, sizeof err) == 0, "vm_build: %s", err))
        return 0;
    void *scratch = aligned_alloc(64, (vm_scratch_bytes(vm) + 63) / 64 * 64);
    if (!scratch)
        abort();
    for (int o = 0; o < LANES; o += lanes_per_batch) {
        const float *ins[NIN];
        for (int k = 0; k < NIN; k++)
            ins[k] = in[k] + o;
        float *outs[5] = { out[0] + o, out[1] + o, out[2] + o, out[3] + o, out[4] + o };
        const vm_io io = { .lanes = LANES - o < lanes_per_batch ? LANES - o : lanes_per_batch, .in = ins, .frag_x = frag_x + o, .frag_y = frag_y + o,
                           .uniforms = uniforms, .textures = tex, .out = outs, .scratch = scratch, .isa = isa };
        vm_run(vm, &io);
    }
    free(scratch);
    vm_free(vm);
    return 1;
}

static int bits_equal(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

#define HEADER                                                                   \
    "#version 450\n"                                                             \
    "layout(location = 0) in vec4 a;\n"                                          \
    "layout(location = 1) in vec4 b;\n"                                          \
    "layout(location = 0) out vec4 o;\n"

/* Checks out[c][l] == want(l, c) bit for bit for every lane. */
#define CHECK_LANES(name, c, expr)                                                            \
    do {                                                                                      \
        long bad_ = 0;                                                                        \
        int first_ = -1;                                                                      \
        for (int l = 0; l < LANES; l++) {                                                     \
            const float *A = (const float[4]){ in[0][l], in[1][l], in[2][l], in[3][l] };      \
            const float *B = (const float[4]){ in[4][l], in[5][l], in[6][l], in[7][l] };      \
            (void)A; (void)B;                                                                 \
            const float w_ = (expr);                                                          \
            if (!bits_equal(out[c][l], w_)) { bad_++; if (first_ < 0) first_ = l; }           \
        }                                                                                     \
        CHECK_MSG(bad_ == 0, "%s: %ld lanes differ (lane %d: got %.9g want %.9g)", name, bad_, first_, \
                  first_ >= 0 ? (double)out[c][first_] : 0.0, 0.0);                          \
    } while (0)

static int compile_run(const char *src, spv_shader *sh)
{
    char err[1024];
    if (!CHECK_MSG(translate(src, IR_FRAGMENT, sh, err, sizeof err) == 0, "%s", err))
        return 0;
    if (!run(sh, NULL, MOS_ISA_SCALAR, NULL, 64)) {
        spv_shader_free(sh);
        return 0;
    }
    return 1;
}

static void test_arithmetic(void)
{
    spv_shader sh;
    if (!compile_run(HEADER "void main() { o = vec4(sin(a.x) * b.y, pow(abs(a.y), b.z), clamp(a.z, -0.5, 0.5),"
                            " mix(a.w, b.w, 0.25)); }\n", &sh))
        return;
    CHECK_LANES("sin * b", 0, sinf(A[0]) * B[1]);
    CHECK_LANES("pow", 1, powf(fabsf(A[1]), B[2]));
    CHECK_LANES("clamp", 2, fminf(fmaxf(A[2], -0.5f), 0.5f));
    CHECK_LANES("mix", 3, A[3] * 0.75f + B[3] * 0.25f);
    CHECK(!sh.discards);
    spv_shader_free(&sh);
}

static float select_ref(const float *A, const float *B)
{
    float r = A[0] > 0.5f ? A[1] * 2.0f : B[1] - 1.0f;
    if (A[2] > 0.0f && B[2] > 0.0f)
        r += 10.0f;
    return r;
}

/* if/else on a per-lane condition, && (a phi in SPIR-V), ?: */
static void test_select(void)
{
    spv_shader sh;
    if (!compile_run(HEADER "void main() {\n"
                            "  float r;\n"
                            "  if (a.x > 0.5) { r = a.y * 2.0; } else { r = b.y - 1.0; }\n"
                            "  if (a.z > 0.0 && b.z > 0.0) r += 10.0;\n"
                            "  float s = a.w < b.w ? a.w : b.x;\n"
                            "  o = vec4(r, s, 0.0, 1.0);\n"
                            "}\n", &sh))
        return;
    CHECK_LANES("if/else", 0, select_ref(A, B));
    CHECK_LANES("?:", 1, A[3] < B[3] ? A[3] : B[0]);
    spv_shader_free(&sh);
}

/* Constant-bound loops unroll, break under a constant condition folds. */
static float loop_ref(const float *A, const float *B)
{
    float s = 0.0f;
    for (int i = 0; i < 10; i++) {
        if (i == 7)
            break;
        s += A[0] * (float)i;
    }
    for (int j = 0; j < 3; j++)
        s = s * 0.5f + B[0];
    return s;
}

static void test_loops(void)
{
    spv_shader sh;
    if (!compile_run(HEADER "void main() {\n"
                            "  float s = 0.0;\n"
                            "  for (int i = 0; i < 10; i++) { if (i == 7) break; s += a.x * float(i); }\n"
                            "  for (int j = 0; j < 3; j++) s = s * 0.5 + b.x;\n"
                            "  o = vec4(s, 0.0, 0.0, 1.0);\n"
                            "}\n", &sh))
        return;
    CHECK_LANES("loops", 0, loop_ref(A, B));
    spv_shader_free(&sh);
}

/* i = 0 adds a.x * 0: folded away?  No (x * 0 is NaN for infinite x): the
 * reference above multiplies too, so this case also pins that choice. */

static void test_discard_and_calls(void)
{
    spv_shader sh;
    if (!compile_run(HEADER "void f(in float x, out float y, inout float z) { y = x * 3.0; z += y; }\n"
                            "float g(float x) { return x * x + 1.0; }\n"
                            "void main() {\n"
                            "  if (a.x < 0.25) discard;\n"
                            "  float y, z = b.x;\n"
                            "  f(a.y, y, z);\n"
                            "  o = vec4(y, z, g(a.z), g(b.z));\n"
                            "}\n", &sh))
        return;
    CHECK(sh.discards);
    CHECK_LANES("discard", IR_FS_DISCARD, A[0] < 0.25f ? 1.0f : 0.0f);
    CHECK_LANES("out param", 0, A[1] * 3.0f);
    CHECK_LANES("inout param", 1, B[0] + A[1] * 3.0f);
    CHECK_LANES("return value", 2, A[2] * A[2] + 1.0f);
    CHECK_LANES("second call", 3, B[2] * B[2] + 1.0f);
    spv_shader_free(&sh);
}

/* Fine derivatives of each 2x2 quad, and gl_FragCoord. */
static void test_derivatives(void)
{
    spv_shader sh;
    if (!compile_run(HEADER "void main() { o = vec4(dFdx(a.x), dFdy(a.x), fwidth(a.y), gl_FragCoord.x + gl_FragCoord.y); }\n",
                     &sh))
        return;
    CHECK_LANES("dFdx", 0, (l & 2) ? in[0][l | 3] - in[0][(l | 3) - 1] : in[0][(l & ~3) + 1] - in[0][l & ~3]);
    CHECK_LANES("dFdy", 1, (l & 1) ? in[0][l | 3] - in[0][(l & ~3) + 1] : in[0][(l & ~3) + 2] - in[0][l & ~3]);
    CHECK_LANES("fwidth", 2,
                fabsf((l & 2) ? in[1][l | 3] - in[1][(l | 3) - 1] : in[1][(l & ~3) + 1] - in[1][l & ~3]) +
                    fabsf((l & 1) ? in[1][l | 3] - in[1][(l & ~3) + 1] : in[1][(l & ~3) + 2] - in[1][l & ~3]));
    CHECK_LANES("gl_FragCoord", 3, frag_x[l] + frag_y[l]);
    spv_shader_free(&sh);
}

/* std140 offsets: vec4 at 0, mat3 at 16 (three vec4 columns), float 64,
 * int 68, vec4[3] at 80. */
static void test_uniforms(void)
{
    const float c[4] = { 0.5f, 2.0f, -1.0f, 3.0f }, k = 0.125f;
    const int32_t n = -3;
    float m[3][4], arr[3][4];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) {
            m[i][j] = rnd(-2, 2);
            arr[i][j] = rnd(-2, 2);
        }
    memcpy(uniforms, c, 16);
    memcpy(uniforms + 16, m, 48);
    memcpy(uniforms + 64, &k, 4);
    memcpy(uniforms + 68, &n, 4);
    memcpy(uniforms + 80, arr, 48);
    spv_shader sh;
    if (!compile_run("#version 450\n"
                     "layout(std140, binding = 0) uniform U { vec4 c; mat3 m; float k; int n; vec4 arr[3]; } u;\n"
                     "layout(location = 0) in vec4 a;\n"
                     "layout(location = 0) out vec4 o;\n"
                     "void main() { o = vec4(u.c.y * float(u.n), (u.m * a.xyz).y, u.arr[2].z + u.k, a.w); }\n",
                     &sh))
        return;
    CHECK_EQ_INT(sh.uniform_bytes, 80 + 32 + 12);
    CHECK_LANES("uniform", 0, c[1] * (float)n);
    CHECK_LANES("mat3 * vec3", 1, m[0][1] * A[0] + m[1][1] * A[1] + m[2][1] * A[2]);
    CHECK_LANES("array", 2, arr[2][2] + k);
    CHECK_LANES("passthrough", 3, A[3]);
    /* The uniform-only expressions are computed once per batch, not per lane. */
    vm_program *vm;
    char err[256];
    if (CHECK(vm_build(&sh.dag, NULL, 64, &vm, err, sizeof err) == 0)) {
        vm_stats st;
        vm_get_stats(vm, &st);
        CHECK_MSG(st.vector_ins <= 10, "%d vector instructions for 5 lane-varying operations and 4 outputs",
                  st.vector_ins);
        vm_free(vm);
    }
    spv_shader_free(&sh);
}

/* test_chains' shader in C, with GLSL's min and max. */
static float chain_min(float a, float b) { return b < a ? b : a; }
static float chain_max(float a, float b) { return a < b ? b : a; }
static float chain_ref(float v, const float k[4])
{
    float x = v * k[0] + k[1];
    x = x * k[2] - k[3];
    x = k[1] - x * k[0];
    x = x + k[2];
    x = k[3] - x;
    x = x * k[1];
    x = k[0] / x;
    x = x / k[2];
    x = chain_min(x, k[1]);
    x = chain_max(k[0], x);
    x = -x;
    x = fabsf(x);
    x = chain_min(k[2], x);
    x = chain_max(x, k[3]);
    return x - k[0];
}

/* A run of operations on one value whose other operands are uniform is one
 * fused chain on the VM (values kept in vector registers): every kind of
 * link, on lanes that include NaN, infinities, signed zeros and
 * subnormals, bit for bit as the per-lane definitions give them, on every
 * ISA and batch size (the blocks of 8 vectors and the 16-lane tail). */
static void test_chains(void)
{
    const float k[4] = { 1.5f, -0.75f, 3.0f, 0.0625f };
    memcpy(uniforms, k, 16);
    float keep[LANES];
    memcpy(keep, in[0], sizeof keep);
    const float special[] = { NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-40f, -1e-40f, 3.4e38f };
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        in[0][37 * i % LANES] = special[i];
    spv_shader sh;
    if (!compile_run("#version 450\n"
                     "layout(std140, binding = 0) uniform U { float k0, k1, k2, k3; } u;\n"
                     "layout(location = 0) in vec4 a;\n"
                     "layout(location = 0) out vec4 o;\n"
                     "void main() {\n"
                     "  float x = a.x * u.k0 + u.k1;\n"
                     "  x = x * u.k2 - u.k3; x = u.k1 - x * u.k0; x = x + u.k2; x = u.k3 - x;\n"
                     "  x = x * u.k1; x = u.k0 / x; x = x / u.k2; x = min(x, u.k1); x = max(u.k0, x);\n"
                     "  x = -x; x = abs(x); x = min(u.k2, x); x = max(x, u.k3); x = x - u.k0;\n"
                     "  o = vec4(x, a.y, a.z, a.w);\n"
                     "}\n",
                     &sh))
        goto out;
    CHECK_LANES("chain", 0, chain_ref(A[0], k));
    vm_program *vm;
    char err[256];
    if (CHECK(vm_build(&sh.dag, NULL, 64, &vm, err, sizeof err) == 0)) {
        vm_stats st;
        vm_get_stats(vm, &st);
        CHECK_MSG(st.chain_links >= 15, "%d operations fused into chains, 16 expected", st.chain_links);
        vm_free(vm);
    }
    float ref[LANES];
    memcpy(ref, out[0], sizeof ref);
#if defined(UTIL_X86)
    __builtin_cpu_init();
    const mos_isa isas[] = { MOS_ISA_SCALAR, MOS_ISA_AVX2, MOS_ISA_AVX512 };
    const int have[] = { 1, __builtin_cpu_supports("avx2"),
                         __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") };
#else
    const mos_isa isas[] = { MOS_ISA_SCALAR };
    const int have[] = { 1 };
#endif
    static const int batches[] = { 16, 48, 80, 128, 256 };  /* 80: a block of 64 lanes and a tail (AVX2) */
    for (size_t i = 0; i < sizeof isas / sizeof isas[0]; i++)
        for (size_t j = 0; j < sizeof batches / sizeof batches[0] && have[i]; j++) {
            memset(out, 0xff, sizeof out);
            if (run(&sh, NULL, isas[i], NULL, batches[j]))
                CHECK_MSG(memcmp(out[0], ref, sizeof ref) == 0, "ISA %d, batch %d: the chain's results differ",
                          (int)isas[i], batches[j]);
        }
    spv_shader_free(&sh);
out:
    memcpy(in[0], keep, sizeof keep);
}

/* Built-ins expanded into DAG arithmetic: determinant and inverse
 * (cofactors), tanh, refract; checked against double precision. */
static void test_std450(void)
{
    spv_shader sh;
    if (!compile_run(HEADER "void main() {\n"
                            "  mat3 m = mat3(a.x + 2.0, a.y, a.z, b.x, b.y + 2.0, b.z, a.w, b.w, 3.0);\n"
                            "  vec3 r = inverse(m) * (m * vec3(1.0, 2.0, 3.0));\n"
                            "  vec3 t = refract(normalize(vec3(a.x, -1.0, 0.0)), vec3(0.0, 1.0, 0.0), 0.8);\n"
                            "  o = vec4(determinant(m), r.y, tanh(a.x * 20.0), t.x);\n"
                            "}\n", &sh))
        return;
    long bad = 0;
    for (int l = 0; l < LANES; l++) {
        const double m[3][3] = { { in[0][l] + 2.0, in[1][l], in[2][l] }, { in[4][l], in[5][l] + 2.0, in[6][l] },
                                 { in[3][l], in[7][l], 3.0 } };  /* columns */
        const double det = m[0][0] * (m[1][1] * m[2][2] - m[2][1] * m[1][2]) -
                           m[1][0] * (m[0][1] * m[2][2] - m[2][1] * m[0][2]) +
                           m[2][0] * (m[0][1] * m[1][2] - m[1][1] * m[0][2]);
        const double ix = in[0][l], len = sqrt(ix * ix + 1.0), ni = -1.0 / len, k = 1.0 - 0.64 * (1.0 - ni * ni);
        const double tx = k < 0 ? 0.0 : 0.8 * ix / len;
        bad += fabs(out[0][l] - det) > 1e-4 * (1.0 + fabs(det));
        bad += fabs(det) > 0.05 && fabs(out[1][l] - 2.0) > 1e-3 * (1.0 + 1.0 / fabs(det));
        bad += fabs(out[2][l] - tanh(20.0 * ix)) > 1e-5;
        bad += fabs(out[3][l] - tx) > 1e-5;
    }
    CHECK_MSG(bad == 0, "%ld lane values off determinant, inverse, tanh or refract", bad);
    spv_shader_free(&sh);
}

/* Folding, CSE and dead code: a.x * a.y twice is one node, 2 * 3 is a
 * constant, an unused sin is gone. */
static void test_dag_cleanup(void)
{
    spv_shader sh;
    char err[1024];
    if (!CHECK_MSG(translate(HEADER "void main() { float unused = sin(a.x) * 100.0;\n"
                                    "  o = vec4(a.x * a.y + a.x * a.y, 2.0 * 3.0 + a.z, a.w, 1.0); }\n",
                             IR_FRAGMENT, &sh, err, sizeof err) == 0,
                   "%s", err))
        return;
    int muls = 0, sins = 0, six = 0;
    for (int i = 0; i < sh.dag.count; i++) {
        const ir_node *x = &sh.dag.node[i];
        muls += x->op == IR_MUL;
        sins += x->op == IR_SIN;
        six += x->op == IR_CONST && x->v.imm == 6.0f;
    }
    CHECK_EQ_INT(muls, 1);
    CHECK_EQ_INT(sins, 0);
    CHECK_EQ_INT(six, 1);
    CHECK_EQ_INT(sh.dag.out_count, 4);
    spv_shader_free(&sh);
}

/* What cannot be flattened is refused with the source line. */
static void test_errors(void)
{
    static const struct {
        const char *body;  /* line 5 of the shader */
        const char *want;
    } cases[] = {
        { "for (int i = 0; i < u.n; i++) o.x += 1.0;", "loop" },
        { "float t[4] = float[4](1.0, 2.0, 3.0, 4.0); o.x = t[int(a.x)];", "indexing" },
        { "o.x = float(int(a.x) & 3);", "bit operations" },
        { "if (a.x > 0.0) return;", "return inside an if" },
        { "o.x = undeclared_thing;", "undeclared" },
        { "o = textureLod(s, a.xy, 0.0);", "textureLod" },
        { "for (int i = 0; i < 4; i++) { if (a.x > float(i)) break; o.x += 1.0; }", "break" },
        { "o.x = float(bitCount(int(a.x)));", "opcode" },
        { "vec4 m; o.x = modf(a.x, m.x);", "modf" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[1024], err[1024];
        snprintf(src, sizeof src,
                 "#version 450\nlayout(std140, binding = 0) uniform U { int n; } u;\n"
                 "layout(binding = 0) uniform sampler2D s;\nlayout(location = 0) in vec4 a; layout(location = 0) out vec4 o;\n"
                 "void main() { o = vec4(0.0);\n%s\n}\n",
                 cases[i].body);
        spv_shader sh;
        const mos_result rc = translate(src, IR_FRAGMENT, &sh, err, sizeof err);
        if (rc == MOS_OK)
            spv_shader_free(&sh);
        CHECK_MSG(rc == MOS_ERR_SHADER && strstr(err, cases[i].want) && strstr(err, "t.frag:6"),
                  "'%s': want an error at t.frag:6 naming '%s', got: %s", cases[i].body, cases[i].want,
                  rc ? err : "(accepted)");
    }
}

/* glsl_compile's results: a #version before 330 (the README's requirement)
 * is refused at its line with Mosaic's message, 150..320 too (glslang's own
 * limit is 150), and 330 on compiles; a NUL byte is the source's fault;
 * glsl_compile_file's file problems have codes of their own. */
static void test_glsl_results(void)
{
    static const int versions[] = { 110, 150, 300, 320, 330, 450 };
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        char src[256], err[1024], want[160];
        snprintf(src, sizeof src, "// first\n#version %d\nlayout(location = 0) out vec4 o;\nvoid main() { o = vec4(1.0); }\n",
                 versions[i]);
        snprintf(want, sizeof want, "t.frag:2: #version %d is not supported: Mosaic compiles GLSL to SPIR-V for OpenGL, "
                 "which needs #version 330 or higher", versions[i]);
        uint32_t *w;
        size_t n;
        const mos_result rc = glsl_compile(src, strlen(src), "t.frag", GLSL_FRAGMENT, NULL, &w, &n, err, sizeof err);
        if (versions[i] < 330)
            CHECK_MSG(rc == MOS_ERR_SHADER && !w && strstr(err, want), "#version %d: %s: %s", versions[i],
                      mos_result_name(rc), rc ? err : "(accepted)");
        else
            CHECK_MSG(rc == MOS_OK && w && n > 5, "#version %d: %s: %s", versions[i], mos_result_name(rc), err);
        util_free(NULL, w);
    }
    char err[256];
    uint32_t *w;
    size_t n;
    glsl_stage st;
    CHECK(glsl_compile("void main() {}\0", 15, "nul.frag", GLSL_FRAGMENT, NULL, &w, &n, err, sizeof err) ==
              MOS_ERR_SHADER && !w && strstr(err, "nul.frag: the source contains a NUL byte"));
    CHECK(glsl_compile_file("shaders/README.md", NULL, &w, &n, &st, err, sizeof err) == MOS_ERR_INVALID_ARGUMENT &&
          !w && strstr(err, "ends in .vert or .frag"));
    CHECK(glsl_compile_file("shaders/no-such-file.frag", NULL, &w, &n, &st, err, sizeof err) == MOS_ERR_IO && !w &&
          strstr(err, "shaders/no-such-file.frag: "));
}

/* A DAG of thousands of nodes (the hash table grows past its first size),
 * and a sampler binding past MOS_MAX_TEXTURES refused at translation. */
static void test_big_and_bindings(void)
{
    spv_shader sh;
    char err[1024];
    if (CHECK_MSG(translate(HEADER "void main() { float s = a.x;\n"
                                   "  for (int i = 0; i < 3000; i++) s = s * a.y + float(i);\n"
                                   "  o = vec4(s); }\n", IR_FRAGMENT, &sh, err, sizeof err) == 0, "%s", err)) {
        CHECK_MSG(sh.dag.count > 6000, "%d nodes", sh.dag.count);
        spv_shader_free(&sh);
    }
    const mos_result rc = translate(HEADER "layout(binding = 8) uniform sampler2D s;\n"
                                           "void main() { o = texture(s, a.xy); }\n", IR_FRAGMENT, &sh, err, sizeof err);
    if (rc == MOS_OK)
        spv_shader_free(&sh);
    CHECK_MSG(rc == MOS_ERR_SHADER && strstr(err, "binding 8"), "got: %s", rc ? err : "(accepted)");
}

/* A shader heavy enough to need several passes: lighting, texture fetches
 * at computed coordinates, transcendental functions. */
static const char heavy_src[] =
    HEADER
    "layout(binding = 0) uniform sampler2D t0;\n"
    "layout(binding = 1) uniform sampler2D t1;\n"
    "float h(float x) { return fract(sin(x * 12.9898) * 43758.5453); }\n"
    "void main() {\n"
    "  vec3 n = normalize(a.xyz + vec3(0.0, 0.0, 2.0));\n"
    "  vec3 l = normalize(vec3(0.3, 0.8, 0.5));\n"
    "  float d = max(dot(n, l), 0.0);\n"
    "  vec3 r = reflect(-l, n);\n"
    "  float sp = pow(max(r.z, 0.0), 16.0);\n"
    "  vec4 c0 = texture(t0, b.xy * 2.0 + vec2(h(a.x), h(a.y)));\n"
    "  vec4 c1 = texture(t1, c0.rg * 0.5 + b.zw);\n"
    "  float rings = fract(length(a.xy) * 8.0 + c1.b);\n"
    "  vec3 col = mix(c0.rgb, c1.gbr, rings) * d + sp * vec3(0.9, 0.8, 0.7);\n"
    "  for (int i = 0; i < 3; i++) col = col * 0.9 + 0.05 * vec3(h(col.x + float(i)), h(col.y), h(col.z));\n"
    "  if (rings < 0.1) discard;\n"
    "  o = vec4(col, c0.a * c1.a);\n"
    "}\n";

static int make_textures(mos_sampler s[2])
{
    const mos_allocator a = { 0 };
    for (int t = 0; t < 2; t++) {
        const int w = t ? 37 : 64, h = t ? 19 : 64;
        uint8_t *px = malloc((size_t)w * (size_t)h * 4);
        if (!px)
            abort();
        for (int i = 0; i < w * h * 4; i++)
            px[i] = (uint8_t)(rnd(0, 256));
        const mos_result r = texture_build(&s[t], w, h, px, &a);
        free(px);
        if (!CHECK_OK_B(r))
            return 0;
    }
    return 1;
}

/* Every partition of the heavy shader, on every pipeline configuration of
 * seed Table 2 and each algorithm, computes the unpartitioned shader's
 * results bit for bit; so does every ISA and batch size. */
static void test_partitions_exact(void)
{
    static const part_limits pcs[] = {
        { 6, 0, 0, 0 }, { 0, 4, 0, 0 }, { 0, 0, 4, 0 }, { 0, 0, 0, 4 },
        { 6, 4, 4, 4 }, { 24, 8, 8, 8 }, { 128, 12, 16, 12 }, { 0, 0, 0, 0 },
    };
    static float ref[5][LANES];
    mos_sampler tex[2];
    if (!make_textures(tex))
        return;
    const mos_sampler *texs[2] = { &tex[0], &tex[1] };
    spv_shader sh;
    char err[1024];
    if (!CHECK_MSG(translate(heavy_src, IR_FRAGMENT, &sh, err, sizeof err) == 0, "%s", err))
        goto out;
    if (!run(&sh, NULL, MOS_ISA_SCALAR, texs, 64))
        goto out_sh;
    memcpy(ref, out, sizeof ref);
    const part_costs cost = { 15, 5, 1 };
    int plans = 0, multi = 0;
    for (size_t pc = 0; pc < sizeof pcs / sizeof pcs[0]; pc++)
        for (int algo = PART_RDS; algo <= PART_RDSH; algo++) {
            part_plan plan;
            if (!CHECK_MSG(part_partition(&sh.dag, (part_algo)algo, &pcs[pc], &cost, 10.0, &plan, err, sizeof err) == 0,
                           "PC%zu algo %d: %s", pc + 1, algo, err))
                continue;
            plans++;
            multi += plan.pass_count > 1;
            memset(out, 0xff, sizeof out);
            if (run(&sh, &plan, MOS_ISA_SCALAR, texs, 64))
                CHECK_MSG(memcmp(out, ref, sizeof ref) == 0, "PC%zu algo %d (%d passes): results differ", pc + 1,
                          algo, plan.pass_count);
            part_plan_free(&plan);
        }
    CHECK_MSG(multi >= 10, "only %d of %d partitions have more than one pass", multi, plans);
    /* The vector view of the same shader (seed's 4-wide machine): spirv.c's
     * groups give it an order; every algorithm's passes fit each PC, and the
     * optimum, where the search finishes, costs no more than RDS. */
    for (size_t pc = 0; pc < sizeof pcs / sizeof pcs[0]; pc++) {
        part_plan vp[2];
        int ok = 1;
        for (int a = 0; a < 2; a++) {
            ok &= CHECK_MSG(part_partition_view(&sh.dag, PART_VECTOR, a ? PART_OPTIMAL : PART_RDS, &pcs[pc], &cost,
                                                0.5, &vp[a], err, sizeof err) == 0,
                            "vector PC%zu: %s", pc + 1, err);
            if (!ok)
                break;
            CHECK(vp[a].node_count > 0 && vp[a].node_count < sh.dag.count / 2);
            for (int k = 0; k < vp[a].pass_count; k++) {
                const part_usage *u = &vp[a].pass[k].use;
                const part_limits *l = &pcs[pc];
                CHECK_MSG((!l->ops || u->ops <= l->ops) && (!l->regs || u->regs <= l->regs) &&
                              (!l->texs || u->texs <= l->texs) && (!l->interps || u->interps <= l->interps),
                          "vector PC%zu: pass %d does not fit", pc + 1, k);
            }
        }
        if (!ok)
            continue;
        if (vp[1].complete)
            CHECK(vp[1].cost <= vp[0].cost + 1e-9);
        part_plan_free(&vp[0]);
        part_plan_free(&vp[1]);
    }
    /* Batch sizes and ISAs. */
    static const int batches[] = { 16, 128, 256 };
    for (size_t i = 0; i < sizeof batches / sizeof batches[0]; i++) {
        memset(out, 0xff, sizeof out);
        if (run(&sh, NULL, MOS_ISA_SCALAR, texs, batches[i]))
            CHECK_MSG(memcmp(out, ref, sizeof ref) == 0, "batch of %d lanes: results differ", batches[i]);
    }
#if defined(UTIL_X86)
    __builtin_cpu_init();
    const struct { mos_isa isa; int ok; const char *name; } isas[] = {
        { MOS_ISA_AVX2, __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"), "avx2" },
        { MOS_ISA_AVX512, __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                              __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"), "avx512" },
    };
    for (size_t i = 0; i < 2; i++) {
        if (!isas[i].ok)
            continue;
        /* the texture sampler of that ISA too, as a context running it would use */
        tex[0].sample = tex[1].sample = isas[i].isa == MOS_ISA_AVX2 ? texture_sample_quads_avx2 : texture_sample_quads_avx512;
        memset(out, 0xff, sizeof out);
        if (run(&sh, NULL, isas[i].isa, texs, 64))
            CHECK_MSG(memcmp(out, ref, sizeof ref) == 0, "%s: results differ from the portable build", isas[i].name);
    }
#endif
out_sh:
    spv_shader_free(&sh);
out:
    for (int t = 0; t < 2; t++)
        texture_release(&tex[t], &(mos_allocator){ 0 });
}

/* The shipped GLSL twins of the built-ins compute what the native C
 * shaders compute, through the public API (mos_shader_create_spirv). */
static void test_builtin_twins(void)
{
    static const char *const names[3] = { "flat", "lambert", "textured" };
    char err[1024];
    uint32_t *vs;
    size_t vs_n;
    glsl_stage st;
    if (!CHECK_MSG(glsl_compile_file("shaders/builtin.vert", NULL, &vs, &vs_n, &st, err, sizeof err) == MOS_OK, "%s", err))
        return;
    mos_sampler tex[2];
    if (!make_textures(tex)) {
        util_free(NULL, vs);
        return;
    }
    shader_builtin_uniforms u;
    shader_builtin_uniforms_init(&u);
    for (int c = 0; c < 4; c++)
        u.base_color[c] = rnd(0.2f, 1.0f);
    for (int j = 0; j < 3; j++) {
        float d[3] = { rnd(-1, 1), rnd(-1, 1), rnd(-1, 1) };
        const float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (int c = 0; c < 3; c++) {
            u.light_dir[j][c] = d[c] / len;
            u.light_color[j][c] = rnd(0, 1);
        }
    }
    u.ambient[0] = 0.1f, u.ambient[1] = 0.15f, u.ambient[2] = 0.2f;
    u.alpha_cutoff = 0.5f;
    for (int i = 0; i < 3; i++) {
        char path[64];
        snprintf(path, sizeof path, "shaders/%s.frag", names[i]);
        uint32_t *fs;
        size_t fs_n;
        if (!CHECK_MSG(glsl_compile_file(path, NULL, &fs, &fs_n, &st, err, sizeof err) == MOS_OK, "%s", err))
            continue;
        shader_program *p;
        if (CHECK_MSG(program_build(vs, vs_n, fs, fs_n, "builtin.vert", path, NULL, &p, err, sizeof err) == MOS_OK, "%s",
                      err)) {
            mos_shader_desc gd;
            program_desc(p, &gd);
            const mos_shader_desc *nd = shader_builtin_find(names[i]);
            CHECK_EQ_INT(gd.varying_count, nd->varying_count);
            /* fragment stage: 16 quads of random varyings */
            static _Alignas(64) float var[5][64], fx[64], fy[64], o_g[4][64], o_n[4][64];
            uint8_t live[64], dg[64] = { 0 }, dn[64] = { 0 };
            for (int k = 0; k < 5; k++)
                for (int l = 0; l < 64; l++)
                    var[k][l] = rnd(-2, 2);
            for (int l = 0; l < 64; l++)
                fx[l] = fy[l] = 0.5f, live[l] = 1;
            const float *vars[5] = { var[0], var[1], var[2], var[3], var[4] };
            const mos_sampler *texs[MOS_MAX_TEXTURES] = { &tex[0] };
            void *scratch = aligned_alloc(64, (gd.scratch_bytes + 63) / 64 * 64);
            mos_fs_batch b = { .quad_count = 16, .varyings = vars, .varying_count = 5, .frag_x = fx, .frag_y = fy,
                               .live = live, .uniforms = &u, .textures = texs, .isa = MOS_ISA_SCALAR,
                               .user = p, .scratch = scratch };
            float *og[4] = { o_g[0], o_g[1], o_g[2], o_g[3] }, *on[4] = { o_n[0], o_n[1], o_n[2], o_n[3] };
            b.out = og;
            b.discard = dg;
            gd.fragment(&b);
            b.out = on;
            b.discard = dn;
            b.user = NULL;
            nd->fragment(&b);
            CHECK_MSG(memcmp(o_g, o_n, sizeof o_g) == 0 && memcmp(dg, dn, sizeof dg) == 0,
                      "%s: the GLSL twin's colours or discards differ from the native shader's", names[i]);
            /* vertex stage: 100 vertices */
            static float attr[100 * 8], clip_g[400], clip_n[400], vary_g[500], vary_n[500];
            for (int k = 0; k < 800; k++)
                attr[k] = rnd(-3, 3);
            for (int k = 0; k < 16; k++)
                u.mvp[k] = rnd(-1, 1), u.normal_matrix[k % 12] = rnd(-1, 1);
            mos_vs_batch vb = { .count = 100, .attribs = attr, .stride = 8, .uniforms = &u, .clip = clip_g,
                                .varyings = vary_g, .varying_count = 5, .user = p, .scratch = scratch };
            gd.vertex(&vb);
            vb.clip = clip_n;
            vb.varyings = vary_n;
            vb.user = NULL;
            nd->vertex(&vb);
            CHECK_MSG(memcmp(clip_g, clip_n, sizeof clip_g) == 0 && memcmp(vary_g, vary_n, sizeof vary_g) == 0,
                      "builtin.vert: clip positions or varyings differ from the native vertex stage");
            free(scratch);
            program_free(p);
        }
        util_free(NULL, fs);
    }
    util_free(NULL, vs);
    for (int t = 0; t < 2; t++)
        texture_release(&tex[t], &(mos_allocator){ 0 });
}

/* The public entry: bad SPIR-V and a bad pair give MOS_ERR_SHADER with a
 * message; a good pair draws. */
static void test_api(void)
{
    mos_context *ctx;
    if (!CHECK_OK_B(mos_context_create(&(mos_context_desc){ 0 }, &ctx)))
        return;
    const uint32_t junk[8] = { 0x07230203, 0x10000, 0, 100, 0, 0xdeadbeef, 1, 2 };
    mos_shader s;
    CHECK_ERR(ctx, mos_shader_create_spirv(ctx, &(mos_spirv_desc){ .vertex = junk, .vertex_words = 8, .fragment = junk,
                                                                   .fragment_words = 8 }, &s),
              MOS_ERR_SHADER);
    char err[1024];
    uint32_t *vs, *fs;
    size_t vs_n, fs_n;
    glsl_stage st;
    if (CHECK(glsl_compile_file("shaders/builtin.vert", NULL, &vs, &vs_n, &st, err, sizeof err) == MOS_OK)) {
        if (CHECK(glsl_compile_file("shaders/lambert.frag", NULL, &fs, &fs_n, &st, err, sizeof err) == MOS_OK)) {
            CHECK_OK(mos_shader_create_spirv(ctx, &(mos_spirv_desc){ .vertex = vs, .vertex_words = vs_n, .fragment = fs,
                                                                     .fragment_words = fs_n, .pass_ops = 12 }, &s));
            /* a draw giving fewer uniform bytes than the shader reads is refused, naming both counts */
            mos_target rt;
            mos_buffer vb;
            static const float tri[3 * 8] = { 0 };
            static const shader_builtin_uniforms u;
            if (CHECK_OK_B(mos_target_create(ctx, &(mos_target_desc){ .width = 8, .height = 8 }, &rt)) &&
                CHECK_OK_B(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = tri, .size = sizeof tri }, &vb))) {
                CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){ .target = rt }));
                mos_draw_desc dd = { .shader = s, .vertices = vb, .vertex_stride = 8, .vertex_count = 3,
                                     .uniforms = &u, .uniform_size = 16 };
                CHECK_ERR(ctx, mos_draw(ctx, &dd), MOS_ERR_INVALID_ARGUMENT);
                CHECK_MSG(strstr(mos_last_error(ctx), "mos_draw: fragment:") &&
                              strstr(mos_last_error(ctx), "bytes of its uniform block; the draw's uniform_size gives 16"),
                          "%s", mos_last_error(ctx));
                dd.uniform_size = 0;
                dd.uniforms = NULL;
                CHECK_ERR(ctx, mos_draw(ctx, &dd), MOS_ERR_INVALID_ARGUMENT);
                dd.uniforms = &u;
                dd.uniform_size = sizeof u;
                CHECK_OK(mos_draw(ctx, &dd));
                CHECK_OK(mos_end_frame(ctx, NULL));
                mos_buffer_destroy(ctx, vb);
                mos_target_destroy(ctx, rt);
            }
            mos_shader_destroy(ctx, s);
            /* the stages swapped: a vertex module where the fragment one goes */
            CHECK_ERR(ctx, mos_shader_create_spirv(ctx, &(mos_spirv_desc){ .vertex = fs, .vertex_words = fs_n,
                                                                           .fragment = vs, .fragment_words = vs_n }, &s),
                      MOS_ERR_SHADER);
            CHECK(strstr(mos_last_error(ctx), "vertex") != NULL);
            util_free(NULL, fs);
        }
        util_free(NULL, vs);
    }
    mos_context_destroy(ctx);
}

int main(void)
{
    fill_inputs();
    TEST_RUN(test_arithmetic);
    TEST_RUN(test_select);
    TEST_RUN(test_loops);
    TEST_RUN(test_discard_and_calls);
    TEST_RUN(test_derivatives);
    TEST_RUN(test_uniforms);
    TEST_RUN(test_chains);
    TEST_RUN(test_std450);
    TEST_RUN(test_dag_cleanup);
    TEST_RUN(test_errors);
    TEST_RUN(test_glsl_results);
    TEST_RUN(test_big_and_bindings);
    TEST_RUN(test_partitions_exact);
    TEST_RUN(test_builtin_twins);
    TEST_RUN(test_api);
    return TEST_EXIT();
}
