/* glsl.c — GLSL to SPIR-V through glslang's C interface (see glsl.h).
 * glslang keeps process-wide tables: glslang_initialize_process and
 * glslang_finalize_process are reference-counted inside glslang, so each
 * compile brackets itself with them. */
#include "glsl/glsl.h"
#include "glsl/macros.h"
#include "util/alloc.h"

#include <errno.h>
#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

void glsl_hold(void) { glslang_initialize_process(); }
void glsl_release(void) { glslang_finalize_process(); }

/* Rewrites glslang's log ("ERROR: 0:12: 'x' : undeclared identifier") as
 * "FILE:12: 'x' : undeclared identifier", one line per message. */
static void format_log(const char *log, const char *file, char *err, size_t err_size)
{
    size_t used = 0;
    err[0] = 0;
    while (log && *log && used + 1 < err_size) {
        const char *end = strchr(log, '\n');
        const size_t n = end ? (size_t)(end - log) : strlen(log);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(n < 1000 ? n : 1000), log);
        log += n + (end ? 1 : 0);
        const char *msg = line;
        if (strncmp(msg, "ERROR: ", 7) == 0)
            msg += 7;
        else if (strncmp(msg, "WARNING: ", 9) == 0)
            continue;
        if (!*msg || strstr(msg, "compilation errors.  No code generated") || strstr(msg, "compilation terminated"))
            continue;
        int lineno = 0, consumed = 0;
        if (sscanf(msg, "%*d:%d: %n", &lineno, &consumed) >= 1 && consumed > 0)
            used += (size_t)snprintf(err + used, err_size - used, "%s%s:%d: %s", used ? "\n" : "", file, lineno,
                                     msg + consumed);
        else
            used += (size_t)snprintf(err + used, err_size - used, "%s%s: %s", used ? "\n" : "", file, msg);
        if (used >= err_size)
            break;
    }
    if (!err[0])
        snprintf(err, err_size, "%s: GLSL compilation failed", file);
}

/* glslang's parser and its AST traversals recurse once per level of an
 * expression: a statement of N chained operators ("a+a*2.0+a*2.0...") is an
 * AST N deep, and each level takes several frames on the way through the
 * parser, the symbol collector and the SPIR-V builder.  A thread's default
 * stack (8 MiB) holds about 10,000 levels; a scene file can hold more.  Two
 * guards: the preprocessed source is measured first (operators in one
 * statement, bracket nesting), and glslang runs on a thread whose stack is
 * large enough for what the measure lets through, under ASan too (the stack
 * is reserved, and only the pages a compile touches are committed). */
#define GLSL_STACK_BYTES ((size_t)512 << 20)
#define GLSL_MAX_STATEMENT_OPERATORS 16384
#define GLSL_MAX_NESTING 256

/* Checks the preprocessed source against the two limits; MOS_OK when it
 * fits, else MOS_ERR_SHADER with "FILE:LINE: ..." in err (LINE as the
 * preprocessor's #line directives and newlines say). */
static mos_result check_depth(const char *code, const char *file, char *err, size_t err_size)
{
    int line = 1, stmt_line = 1, depth = 0;
    long ops = 0;
    for (const char *p = code; *p; p++) {
        const char c = *p;
        if (c == '\n') {
            line++;
            if (p[1] == '#') { /* "#line N" from the preprocessor */
                int n = 0;
                if (sscanf(p + 1, "#line %d", &n) == 1 && n > 0)
                    line = n - 1;
            }
            continue;
        }
        if (c == '/' && p[1] == '/') { /* comments survive only with some options */
            while (p[1] && p[1] != '\n')
                p++;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') {
            if (++depth > GLSL_MAX_NESTING) {
                snprintf(err, err_size, "%s:%d: brackets nested more than %d deep (Mosaic's GLSL limit)", file, line,
                         GLSL_MAX_NESTING);
                return MOS_ERR_SHADER;
            }
        } else if (c == ')' || c == ']' || c == '}') {
            depth -= depth > 0;
        }
        if (c == ';' || c == '{' || c == '}') {
            ops = 0;
            stmt_line = line;
        } else if (strchr("+-*/%<>=!&|^?:,", c)) {
            if (ops == 0)
                stmt_line = line;
            if (++ops > GLSL_MAX_STATEMENT_OPERATORS) {
                snprintf(err, err_size,
                         "%s:%d: a statement with more than %d operators (Mosaic's GLSL limit: glslang's parser "
                         "recurses once per operator); split it into several statements",
                         file, stmt_line, GLSL_MAX_STATEMENT_OPERATORS);
                return MOS_ERR_SHADER;
            }
        }
    }
    return MOS_OK;
}

/* A #version before GLSL_MIN_VERSION is refused first, at its line (glslang
 * itself cannot even build its built-in tables before 1.50 with SPIR-V as the
 * target: it prints its whole built-in prelude and "Unable to parse
 * built-ins"); the others get glslang's own messages.  MOS_OK or
 * MOS_ERR_SHADER. */
static mos_result check_version(const char *code, const char *file, char *err, size_t err_size)
{
    int line = 1;
    for (const char *p = code; *p; p++) {
        if (*p == '\n') {
            line++;
        } else if (p[0] == '/' && p[1] == '/') {
            while (p[1] && p[1] != '\n') p++;
        } else if (p[0] == '/' && p[1] == '*') {
            for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++) line += *p == '\n';
            if (!*p) break;
            p++;
        } else if (*p == '#') {
            int version = 0;
            if (sscanf(p, "#%*[ \t]version %d", &version) != 1 && sscanf(p, "#version %d", &version) != 1)
                return MOS_OK;  /* another directive first: glslang says what it thinks */
            if (version > 0 && version < GLSL_MIN_VERSION) {
                snprintf(err, err_size,
                         "%s:%d: #version %d is not supported: Mosaic compiles GLSL to SPIR-V for OpenGL, which "
                         "needs #version %d or higher (Mosaic's shaders use 450)",
                         file, line, version, GLSL_MIN_VERSION);
                return MOS_ERR_SHADER;
            }
            return MOS_OK;
        } else if (*p != ' ' && *p != '\t' && *p != '\r') {
            return MOS_OK;  /* code before any #version: glslang's default (450) */
        }
    }
    return MOS_OK;
}

typedef struct glsl_job {
    const glslang_input_t *input;
    glslang_stage_t stage;
    const char *file;
    const mos_allocator *alloc;
    char *err;
    size_t err_size;
    uint32_t *words;
    size_t count;
    mos_result rc;
} glsl_job;

/* The whole of glslang's work for one compile, on the large-stack thread. */
static void *compile_job(void *arg)
{
    glsl_job *job = arg;
    const char *file = job->file;
    char *err = job->err;
    const size_t err_size = job->err_size;
    job->rc = MOS_ERR_SHADER;  /* what a goto done reports where nothing else is set */
    glslang_initialize_process();
    glslang_shader_t *sh = glslang_shader_create(job->input);
    glslang_program_t *prog = NULL;
    if (!sh) {
        snprintf(err, err_size, "%s: glslang could not start", file);
        goto done;
    }
    if ((job->rc = check_version(job->input->code, file, err, err_size)) != MOS_OK ||
        (job->rc = glsl_check_macros(job->input->code, file, job->alloc, err, err_size)) != MOS_OK)
        goto done;
    job->rc = MOS_ERR_SHADER;  /* glslang's failures from here on */
    if (!glslang_shader_preprocess(sh, job->input)) {
        format_log(glslang_shader_get_info_log(sh), file, err, err_size);
        goto done;
    }
    const char *pre = glslang_shader_get_preprocessed_code(sh);
    if (pre && check_depth(pre, file, err, err_size) != MOS_OK)
        goto done;
    if (!glslang_shader_parse(sh, job->input)) {
        format_log(glslang_shader_get_info_log(sh), file, err, err_size);
        goto done;
    }
    prog = glslang_program_create();
    glslang_program_add_shader(prog, sh);
    if (!glslang_program_link(prog, GLSLANG_MSG_SPV_RULES_BIT)) {
        format_log(glslang_program_get_info_log(prog), file, err, err_size);
        goto done;
    }
    glslang_spv_options_t spv = { .generate_debug_info = 1, .validate = 1 };
    glslang_program_SPIRV_generate_with_options(prog, job->stage, &spv);
    const char *msgs = glslang_program_SPIRV_get_messages(prog);
    if (msgs && *msgs) {
        format_log(msgs, file, err, err_size);
        goto done;
    }
    const size_t n = glslang_program_SPIRV_get_size(prog);
    uint32_t *w = util_alloc(job->alloc, (n ? n : 1) * sizeof *w);
    if (!w) {
        snprintf(err, err_size, "%s: out of memory", file);
        job->rc = MOS_ERR_OUT_OF_MEMORY;
        goto done;
    }
    glslang_program_SPIRV_get(prog, w);
    job->words = w;
    job->count = n;
    job->rc = MOS_OK;
done:
    if (prog)
        glslang_program_delete(prog);
    if (sh)
        glslang_shader_delete(sh);
    glslang_finalize_process();
    return NULL;
}

mos_result glsl_compile(const char *source, size_t len, const char *file, glsl_stage stage,
                        const mos_allocator *alloc, uint32_t **words, size_t *count, char *err, size_t err_size)
{
    *words = NULL;
    *count = 0;
    char *src = len < SIZE_MAX ? util_alloc(alloc, len + 1) : NULL;
    if (!src) {
        snprintf(err, err_size, "%s: out of memory", file);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    memcpy(src, source, len);
    src[len] = 0;
    if (strlen(src) != len) {
        snprintf(err, err_size, "%s: the source contains a NUL byte", file);
        util_free(alloc, src);
        return MOS_ERR_SHADER;
    }
    const glslang_stage_t gs = stage == GLSL_VERTEX ? GLSLANG_STAGE_VERTEX : GLSLANG_STAGE_FRAGMENT;
    const glslang_input_t input = {
        .language = GLSLANG_SOURCE_GLSL,
        .stage = gs,
        .client = GLSLANG_CLIENT_OPENGL,
        .client_version = GLSLANG_TARGET_OPENGL_450,
        .target_language = GLSLANG_TARGET_SPV,
        .target_language_version = GLSLANG_TARGET_SPV_1_0,
        .code = src,
        .default_version = 450,
        .default_profile = GLSLANG_CORE_PROFILE,
        .messages = GLSLANG_MSG_DEFAULT_BIT,
        .resource = glslang_default_resource(),
    };
    glsl_job job = { .input = &input, .stage = gs, .file = file, .alloc = alloc, .err = err, .err_size = err_size,
                     .rc = MOS_ERR_THREAD };
    pthread_attr_t attr;
    pthread_t thread;
    int started = pthread_attr_init(&attr) == 0;
    if (started) {
        started = pthread_attr_setstacksize(&attr, GLSL_STACK_BYTES) == 0 &&
                  pthread_create(&thread, &attr, compile_job, &job) == 0;
        pthread_attr_destroy(&attr);
    }
    if (started)
        pthread_join(thread, NULL);
    else
        snprintf(err, err_size, "%s: could not start the GLSL compiler's thread (%zu MiB stack)", file,
                 GLSL_STACK_BYTES >> 20);
    util_free(alloc, src);
    *words = job.words;
    *count = job.count;
    return job.rc;
}

mos_result glsl_compile_file(const char *file, const mos_allocator *alloc, uint32_t **words, size_t *count,
                             glsl_stage *stage, char *err, size_t err_size)
{
    *words = NULL;
    *count = 0;
    const char *dot = strrchr(file, '.');
    if (dot && strcmp(dot, ".vert") == 0)
        *stage = GLSL_VERTEX;
    else if (dot && strcmp(dot, ".frag") == 0)
        *stage = GLSL_FRAGMENT;
    else {
        snprintf(err, err_size, "%s: a GLSL shader file ends in .vert or .frag", file);
        return MOS_ERR_INVALID_ARGUMENT;
    }
    FILE *f = fopen(file, "rb");
    if (!f) {
        snprintf(err, err_size, "%s: %s", file, strerror(errno));
        return MOS_ERR_IO;
    }
    size_t cap = 1 << 14, len = 0;
    char *buf = util_alloc(alloc, cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            snprintf(err, err_size, "%s: out of memory", file);
            return MOS_ERR_OUT_OF_MEMORY;
        }
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap || len >= (1u << 24))
            break;
        char *g = util_realloc(alloc, buf, cap, cap * 2);
        if (!g)
            util_free(alloc, buf);
        buf = g;
        cap *= 2;
    }
    const int bad = ferror(f);
    fclose(f);
    if (bad || len >= (1u << 24)) {
        util_free(alloc, buf);
        snprintf(err, err_size, "%s: %s", file, bad ? "read error" : "larger than 16 MiB");
        return bad ? MOS_ERR_IO : MOS_ERR_BAD_SIZE;
    }
    const mos_result rc = glsl_compile(buf, len, file, *stage, alloc, words, count, err, err_size);
    util_free(alloc, buf);
    return rc;
}
