/* test_shader_oom.c — the shader compilers under a failing allocator, both
 * steps.  GLSL -> SPIR-V: glsl_compile_file of every shipped shader
 * (the .vert and .frag files in shaders/) with an allocator that fails its Nth
 * allocation, for every N below the count a successful compile takes (the
 * file's buffer, the source, the macro check, the words: all of src/glsl's
 * own memory; glslang's C++ allocates on its own).  SPIR-V -> VM (issue 29
 * defect 9, issue 31): for every shipped shader pair, mos_shader_create_spirv
 * through a context whose allocator fails its Nth allocation, likewise, one
 * pass and partitioned (small pass limits, so RDS splits the fragment
 * shader).  Each call must return MOS_OK or MOS_ERR_OUT_OF_MEMORY (never
 * MOS_ERR_SHADER for a lack of memory, never a crash), and every block it
 * took must be back when it returns (or, on MOS_OK, when the words are freed
 * or the shader destroyed): counted here, and ASan's leak check in the
 * sanitized build.  Each compile takes all of its memory from the
 * allocator it is given: a successful one makes at least one call to it per
 * compiler stage, counted too.  Fed by the library and the tools library's
 * GLSL compiler (links like test_shader). */
#include <dirent.h>
#include <stdatomic.h>
#include <stdint.h>

#include "check.h"
#include "glsl/glsl.h"
#include "util/alloc.h"

typedef struct hook {
    atomic_long calls;    /* allocations asked for while armed */
    atomic_long live;     /* blocks handed out and not yet freed (always counted) */
    atomic_long fail_at;  /* the allocation (0-based, while armed) that fails; -1: none */
    atomic_int armed;
    atomic_long failed;   /* allocations refused */
} hook;

static void *hook_alloc(size_t size, void *user)
{
    hook *h = user;
    if (atomic_load(&h->armed)) {
        const long k = atomic_fetch_add(&h->calls, 1);
        if (k == atomic_load(&h->fail_at)) {
            atomic_fetch_add(&h->failed, 1);
            return NULL;
        }
    }
    void *p = malloc(size);
    if (p)
        atomic_fetch_add(&h->live, 1);
    return p;
}

static void hook_free(void *p, void *user)
{
    hook *h = user;
    if (p)
        atomic_fetch_sub(&h->live, 1);
    free(p);
}

/* Arms H to fail its Nth allocation (N < 0: none) and clears its counts. */
static void hook_arm(hook *h, long n)
{
    atomic_store(&h->calls, 0);
    atomic_store(&h->failed, 0);
    atomic_store(&h->fail_at, n);
    atomic_store(&h->armed, 1);
}

/* ---- GLSL -> SPIR-V ---------------------------------------------------------- */

/* A fragment shader whose macros the macro check must size (forms of
 * function-like macros, calls with arguments, a macro ending in another's
 * name): its per-macro allocations, which the shipped shaders (no macros)
 * never make. */
static const char macro_frag[] =
    "#version 450\n"
    "#define SQ(x) ((x) * (x))\n"
    "#define SUM3(a, b, c) (SQ(a) + SQ(b) + SQ(c))\n"
    "#define CALL SQ\n"
    "#define K 0.25\n"
    "layout(location = 0) in vec3 v;\n"
    "layout(location = 0) out vec4 o;\n"
    "void main() { o = vec4(SUM3(v.x, v.y, K), CALL(v.z), K, 1.0); }\n";

/* One glsl_compile_file of FILE (SOURCE NULL), or glsl_compile of SOURCE
 * named FILE, through H with the N-th allocation failing (N < 0: none);
 * returns the result, *calls the allocations it asked for.  Checks that no
 * block is left once the words of a success are freed. */
static mos_result glsl_once(const char *file, const char *source, hook *h, long n, long *calls, char *err,
                            size_t err_size)
{
    const mos_allocator a = { hook_alloc, hook_free, h };
    const long live0 = atomic_load(&h->live);
    uint32_t *words = NULL;
    size_t count = 0;
    glsl_stage stage;
    hook_arm(h, n);
    const mos_result r = source ? glsl_compile(source, strlen(source), file, GLSL_FRAGMENT, &a, &words, &count, err,
                                               err_size)
                                : glsl_compile_file(file, &a, &words, &count, &stage, err, err_size);
    atomic_store(&h->armed, 0);
    *calls = atomic_load(&h->calls);
    CHECK_MSG(r == MOS_OK ? words && count > 5 : !words, "%s, allocation %ld failing: %s with words %p", file, n,
              mos_result_name(r), (void *)words);
    util_free(&a, words);
    const long left = atomic_load(&h->live) - live0;
    CHECK_MSG(left == 0, "%s, allocation %ld failing: %ld blocks left (%s)", file, n, left, mos_result_name(r));
    return r;
}

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

/* The shipped shaders: the .vert and .frag files in shaders/, sorted; their count. */
static int shipped_shaders(char names[][64], int max)
{
    DIR *dir = opendir("shaders");
    if (!CHECK_MSG(dir != NULL, "shaders/ cannot be listed (run from the repository root)"))
        return 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        const char *dot = strrchr(e->d_name, '.');
        if (dot && (!strcmp(dot, ".vert") || !strcmp(dot, ".frag")) && strlen(e->d_name) < 50 &&
            CHECK_MSG(n < max, "more than %d shaders", max))
            snprintf(names[n++], 64, "shaders/%s", e->d_name);
    }
    closedir(dir);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    return n;
}

static void test_glsl_out_of_memory(void)
{
    char names[64][64];
    const int shipped = shipped_shaders(names, 63);
    CHECK_MSG(shipped >= 11, "only %d shipped shaders found", shipped);
    snprintf(names[shipped], sizeof names[0], "macros.frag");  /* macro_frag, from memory */
    hook h = { .fail_at = -1 };
    long injected = 0;
    glsl_hold();  /* glslang's tables once for all the compiles */
    for (int i = 0; i <= shipped; i++) {
        const char *source = i == shipped ? macro_frag : NULL;
        char err[1024];
        long total = 0;
        const mos_result r0 = glsl_once(names[i], source, &h, -1, &total, err, sizeof err);
        if (!CHECK_MSG(r0 == MOS_OK, "%s: %s: %s", names[i], mos_result_name(r0), err))
            continue;
        /* the file's buffer, the source's copy, the macro check's tokens, the words */
        CHECK_MSG(total >= 4, "%s: only %ld allocations through the allocator", names[i], total);
        long ok = 0, oom = 0;
        for (long n = 0; n < total; n++) {
            long calls;
            err[0] = 0;
            const mos_result r = glsl_once(names[i], source, &h, n, &calls, err, sizeof err);
            injected++;
            if (r == MOS_OK)
                ok++;
            else if (r == MOS_ERR_OUT_OF_MEMORY)
                oom += CHECK_MSG(strstr(err, "out of memory") != NULL, "%s, allocation %ld failing: message '%s'",
                                 names[i], n, err);
            else
                FAIL_MSG("%s, allocation %ld of %ld failing: %s: %s", names[i], n, total, mos_result_name(r), err);
            CHECK_MSG(atomic_load(&h.failed) == 1, "%s: allocation %ld was not asked for (%ld calls)", names[i], n,
                      calls);
        }
        /* src/glsl recovers from none: every failure is out of memory */
        CHECK_MSG(oom == total, "%s: %ld of %ld failures reported out of memory", names[i], oom, total);
        printf("  %-22s %4ld allocations: %ld out of memory, %ld recovered\n", names[i], total, oom, ok);
    }
    glsl_release();
    printf("  %ld failing allocations injected into the GLSL compiler\n", injected);
    CHECK_MSG(atomic_load(&h.live) == 0, "%ld blocks left", atomic_load(&h.live));
}

/* ---- SPIR-V -> VM ------------------------------------------------------------ */

typedef struct pair {
    const char *frag, *vert;
} pair;

/* The pairs shaders/README.md names: the fragment shaders that read only
 * builtin.vert's varyings with it, the RenderMan ones with pin.vert, wood
 * with pobj.vert. */
static const pair pairs[] = {
    { "shaders/flat.frag", "shaders/builtin.vert" },     { "shaders/lambert.frag", "shaders/builtin.vert" },
    { "shaders/textured.frag", "shaders/builtin.vert" }, { "shaders/fma200.frag", "shaders/builtin.vert" },
    { "shaders/rbp.frag", "shaders/pin.vert" },          { "shaders/rbp_atlas.frag", "shaders/pin.vert" },
    { "shaders/bmbp.frag", "shaders/pin.vert" },         { "shaders/wood.frag", "shaders/pobj.vert" },
};

typedef struct limits {
    const char *name;
    int ops, regs, texs, interps;
    mos_partitioner algo;
    int small_only;  /* only the pairs before SMALL_PAIRS (RDS's search costs seconds on the rest) */
} limits;
enum { SMALL_PAIRS = 3 };

/* One pass; split by RDSh and by RDS (the seed's PC7-like limits).  RDS
 * allocates what RDSh does (its search only re-marks), so RDSh covers the
 * partitioner's allocations on every pair. */
static const limits configs[] = {
    { "one pass", 0, 0, 0, 0, MOS_PARTITION_RDS, 0 },
    { "RDSh 24/8/8/8", 24, 8, 8, 8, MOS_PARTITION_RDSH, 0 },
    { "RDS 24/8/8/8", 24, 8, 8, 8, MOS_PARTITION_RDS, 1 },
};

/* One mos_shader_create_spirv with the N-th allocation failing (N < 0: none);
 * returns the result, *calls the allocations it asked for.  Checks that no
 * block is left (after destroying the shader on MOS_OK). */
static mos_result create_once(mos_context *ctx, hook *h, const mos_spirv_desc *d, long n, long *calls)
{
    const long live0 = atomic_load(&h->live);
    hook_arm(h, n);
    mos_shader s = { 0 };
    const mos_result r = mos_shader_create_spirv(ctx, d, &s);
    atomic_store(&h->armed, 0);
    *calls = atomic_load(&h->calls);
    if (r == MOS_OK)
        mos_shader_destroy(ctx, s);
    const long left = atomic_load(&h->live) - live0;
    CHECK_MSG(left == 0, "%s + %s, %s, allocation %ld failing: %ld blocks left (%s)", d->fragment_name,
              d->vertex_name, d->pass_ops ? "partitioned" : "one pass", n, left, mos_result_name(r));
    return r;
}

static void test_pairs_out_of_memory(void)
{
    hook h = { .fail_at = -1 };
    mos_context *ctx = NULL;
    if (!CHECK_OK_B(mos_context_create(&(mos_context_desc){ .pipeline = { .threads = 1 },
                                                             .allocator = { hook_alloc, hook_free, &h } },
                                       &ctx)))
        return;
    long injected = 0, pairs_run = 0;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        uint32_t *vs = NULL, *fs = NULL;
        size_t vs_n = 0, fs_n = 0;
        glsl_stage st;
        char err[1024];
        if (!CHECK_MSG(glsl_compile_file(pairs[i].vert, NULL, &vs, &vs_n, &st, err, sizeof err) == MOS_OK, "%s", err) ||
            !CHECK_MSG(glsl_compile_file(pairs[i].frag, NULL, &fs, &fs_n, &st, err, sizeof err) == MOS_OK, "%s", err)) {
            util_free(NULL, vs);
            util_free(NULL, fs);
            continue;
        }
        for (size_t k = 0; k < sizeof configs / sizeof configs[0]; k++) {
            const limits *l = &configs[k];
            if (l->small_only && i >= SMALL_PAIRS)
                continue;
            const mos_spirv_desc d = { .vertex = vs, .vertex_words = vs_n, .fragment = fs, .fragment_words = fs_n,
                                       .vertex_name = pairs[i].vert, .fragment_name = pairs[i].frag,
                                       .pass_ops = l->ops, .pass_registers = l->regs, .pass_textures = l->texs,
                                       .pass_interpolants = l->interps, .partitioner = l->algo };
            long total = 0;
            mos_shader warm;  /* the first shader grows the context's handle table, which stays */
            if (mos_shader_create_spirv(ctx, &d, &warm) == MOS_OK)
                mos_shader_destroy(ctx, warm);
            const mos_result r0 = create_once(ctx, &h, &d, -1, &total);
            if (!CHECK_MSG(r0 == MOS_OK, "%s + %s (%s): %s: %s", pairs[i].frag, pairs[i].vert, l->name,
                           mos_result_name(r0), mos_last_error(ctx)))
                continue;
            /* the compiler's memory comes from the hook: the program and its
             * temporaries, more than the shader object alone */
            CHECK_MSG(total >= 8, "%s (%s): only %ld allocations through the context's allocator", pairs[i].frag,
                      l->name, total);
            long ok = 0, oom = 0;
            for (long n = 0; n < total; n++) {
                long calls;
                const mos_result r = create_once(ctx, &h, &d, n, &calls);
                injected++;
                if (r == MOS_OK)
                    ok++;
                else if (r == MOS_ERR_OUT_OF_MEMORY)
                    oom++;
                else
                    FAIL_MSG("%s + %s (%s), allocation %ld of %ld failing: %s: %s", pairs[i].frag,
                              pairs[i].vert, l->name, n, total, mos_result_name(r), mos_last_error(ctx));
                CHECK_MSG(atomic_load(&h.failed) == 1, "allocation %ld was not asked for (%ld calls)", n, calls);
            }
            /* most failures must reach the caller as out of memory */
            CHECK_MSG(oom >= total / 2, "%s (%s): %ld of %ld failures reported out of memory", pairs[i].frag,
                      l->name, oom, total);
            printf("  %-22s + %-20s %-13s %4ld allocations: %ld out of memory, %ld recovered\n", pairs[i].frag,
                   pairs[i].vert, l->name, total, oom, ok);
        }
        pairs_run++;
        util_free(NULL, vs);
        util_free(NULL, fs);
    }
    CHECK(pairs_run == (long)(sizeof pairs / sizeof pairs[0]));
    printf("  %ld failing allocations injected\n", injected);
    mos_context_destroy(ctx);
    CHECK_MSG(atomic_load(&h.live) == 0, "%ld blocks left after mos_context_destroy", atomic_load(&h.live));
}

int main(void)
{
    TEST_RUN(test_glsl_out_of_memory);
    TEST_RUN(test_pairs_out_of_memory);
    return TEST_EXIT();
}
