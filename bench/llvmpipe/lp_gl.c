/* lp_gl.c — the llvmpipe side of the reference: OSMesa context, FBOs, GLSL twins of the built-in shaders, the
 * scene's own GLSL files, one frame.
 * Fed by lp_main.c with a loaded scene; draws exactly the draws scene_export_frame yields (src/scene/export.c). */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/osmesa.h>
#include <GL/gl.h>
#include <GL/glext.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp.h"

/* ---- GLSL twins of src/shader/builtin.c ------------------------------------------
 * Vertex: clip = mvp * (pos, 1), varying normal = normal_matrix * n, uv.  With BLUR
 * (accumulation sub-frames) the clip position is Mosaic's pinhole warp
 * (src/frontend/vertex.c): clip += t (mvp1 * (pos, 1) - clip), then the lens shear
 * x += u lens_x (w - focus_w), y += v lens_y (w - focus_w), then the sub-pixel jitter
 * x += jx w, y += jy w (mos_accum_jitter in clip units); mvp1 = mvp for a still draw.
 * Fragment: flat = base colour; lambert/textured = (ambient + sum max(0, n.l) light)
 * * base (* texture), alpha from base (* texture); lightmapped = min(base * texture *
 * lightmap (unit 1, at the lightmap uv, location 3) * 2, 1), alpha from base * texture;
 * then FMA dependent x = x*k + c
 * and colour += x * zero, exactly as kernel_fma (FMA is a compile-time constant). */
static const char lp_vs_head[] =
    "#version 330 core\n";

static const char lp_vs_src[] =
    "layout(location = 0) in vec3 a_pos;\n"
    "layout(location = 1) in vec3 a_nrm;\n"
    "layout(location = 2) in vec2 a_uv;\n"
    "layout(location = 3) in vec2 a_lm;\n"
    "uniform mat4 u_mvp;\n"
    "uniform mat3 u_nmat;\n"
    "out vec3 v_nrm;\n"
    "out vec2 v_uv;\n"
    "out vec2 v_lm;\n"
    "#if BLUR\n"
    "uniform mat4 u_mvp1;\n"
    "uniform vec3 u_uvt;   /* lens u, v and shutter t of the sub-frame */\n"
    "uniform vec3 u_lens;  /* lens_x, lens_y, focus_w */\n"
    "uniform vec2 u_jitter;  /* the sub-pixel jitter, clip units per w */\n"
    "#endif\n"
    "void main() {\n"
    "  vec4 c = u_mvp * vec4(a_pos, 1.0);\n"
    "#if BLUR\n"
    "  c += u_uvt.z * (u_mvp1 * vec4(a_pos, 1.0) - c);\n"
    "  c.x += u_uvt.x * u_lens.x * (c.w - u_lens.z);\n"
    "  c.y += u_uvt.y * u_lens.y * (c.w - u_lens.z);\n"
    "  c.x += u_jitter.x * c.w;\n"
    "  c.y += u_jitter.y * c.w;\n"
    "#endif\n"
    "  gl_Position = c;\n"
    "  v_nrm = u_nmat * a_nrm;\n"
    "  v_uv = a_uv;\n"
    "  v_lm = a_lm;\n"
    "}\n";

static const char lp_fs_head[] =
    "#version 330 core\n";

static const char lp_fs_body[] =
    "in vec3 v_nrm;\n"
    "in vec2 v_uv;\n"
    "in vec2 v_lm;\n"
    "uniform vec4 u_base;\n"
    "uniform vec4 u_ldir[4];\n"
    "uniform vec4 u_lcol[4];\n"
    "uniform vec3 u_amb;\n"
    "uniform float u_fma_k, u_fma_c, u_fma_zero, u_cutoff;\n"
    "uniform sampler2D u_tex, u_lm;\n"
    "uniform float u_tex_none, u_lm_none;  /* unbound: the base colour; 0.5 (times 2: no change) */\n"
    "uniform uint u_draw_id;\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "  vec4 c;\n"
    "#if KIND == 0\n"
    "  c = u_base;\n"
    "#elif KIND == 3\n"
    "  vec4 t = u_tex_none > 0.0 ? u_base : u_base * texture(u_tex, v_uv);\n"
    "  vec3 l = u_lm_none > 0.0 ? vec3(0.5) : texture(u_lm, v_lm).rgb;\n"
    "  c = vec4(min(t.rgb * l * 2.0, vec3(1.0)), t.a);\n"
    "#else\n"
    "  vec4 t = u_base;\n"
    "#if KIND == 2\n"
    "  t *= texture(u_tex, v_uv);\n"
    "#endif\n"
    "  vec3 n = v_nrm * inversesqrt(dot(v_nrm, v_nrm) + 1e-20);\n"
    "  vec3 s = u_amb;\n"
    "  for (int j = 0; j < 4; j++)\n"
    "    s += max(dot(n, u_ldir[j].xyz), 0.0) * u_lcol[j].rgb;\n"
    "  c = vec4(s * t.rgb, t.a);\n"
    "#endif\n"
    "  if (u_cutoff > 0.0 && !(c.a >= u_cutoff)) discard;  /* the alpha test, as Mosaic's */\n"
    "#if ID_PASS\n"
    "  uint id = (u_draw_id << 20) + uint(gl_PrimitiveID) + 1u;\n"
    "  o_color = vec4(float(id & 255u), float((id >> 8) & 255u), float((id >> 16) & 255u),\n"
    "                 float(id >> 24)) / 255.0;\n"
    "#else\n"
    "#if FMA > 0\n"
    "  float x = c.r + c.g + c.b;\n"
    "  for (int i = 0; i < FMA; i++)\n"
    "    x = x * u_fma_k + u_fma_c;\n"
    "  c.rgb += vec3(x * u_fma_zero);\n"
    "#endif\n"
    "  o_color = c;\n"
    "#endif\n"
    "}\n";

typedef struct lp_prog {
    GLuint prog;
    GLint mvp, mvp1, uvt, lens, jitter, nmat, base, ldir, lcol, amb, fma_k, fma_c, fma_zero, cutoff, tex, lm, tex_none,
        lm_none, draw_id;
} lp_prog;

/* ---- the scene's GLSL files --------------------------------------------------------
 * A draw the export marks as GLSL (vertex_shader != NULL: a `shader FILE.frag [FILE.vert]`
 * object, or a built-in under scene_load_opts.glsl_builtins) runs the very files Mosaic
 * compiled, unchanged, through Mesa's GLSL compiler (#version 450: the context is 4.5 core).
 * Their interface is Mosaic's: the uniform block at binding 0 is shader_builtin_uniforms
 * byte for byte (std140; bound here as a range of one UBO holding every draw's copy),
 * the sampler at unit 0, attributes 0/1/2 = position, normal, uv of the 8-float vertex.
 * The ID pass runs the same files with the fragment shader's main renamed
 * (#define main lp_user_main after #version) and a new main that calls it (so its
 * discards still cut) and writes the ID at the last draw-buffer location (7), the one
 * location the ID pass maps to the colour attachment. */
typedef struct lp_glsl {
    char *vert_path, *frag_path;
    GLuint prog, id_prog;
    GLint id_draw_id;    /* lp_draw_id in id_prog */
    GLint block_size;    /* GL_UNIFORM_BLOCK_DATA_SIZE of the block at binding 0, 0 = none */
} lp_glsl;

typedef struct lp_mesh {
    GLuint vao, vbo, ebo;
    GLsizei index_count;
} lp_mesh;

typedef struct lp_draw {
    int mesh, texture, lightmap, kind;  /* lightmap: kind 3's unit 1, -1 = none */
    int glsl;  /* index in lp_renderer.glsl, -1 = a native built-in (its twin, by kind) */
    shader_builtin_uniforms u;
    shader_builtin_uniforms u1;  /* at shutter close: a copy of u for a still draw */
    mos_cull cull;
    mos_blend blend;
    bool depth_test, depth_write;
} lp_draw;

struct lp_renderer {
    OSMesaContext osmesa;
    uint8_t *osmesa_buf;
    int width, height, spp, fma;
    float clear[4];
    GLuint fbo_ms, rb_color_ms, rb_depth_ms;  /* spp > 1 */
    GLuint fbo, rb_color, rb_depth;            /* single-sample (resolve target / spp 1) */
    /* Accumulation (lp_opts.accum): sub-frame k seen at mos_accum_pinhole(k) */
    int accum, accum_frames;                   /* sub-frames per lp_frame; in the sum now */
    float lens[3];                             /* lens_x, lens_y, focus_w (scene_lens) */
    float uvt[3];                              /* this sub-frame's lens u, v and shutter t */
    float jitter[2];                           /* and its sub-pixel jitter, clip units per w */
    uint8_t *acc_sub;                          /* the sub-frame read back, rows bottom first */
    uint32_t *acc_sum;                         /* per-channel sums, rows bottom first */
    uint8_t *acc_mean;                         /* the rounded mean, rows top first */
    lp_prog progs[2][4];                       /* [id pass][kind] */
    lp_mesh *meshes;
    int mesh_cap;
    GLuint *textures;
    int tex_cap;
    lp_draw *draws;
    int draw_count, draw_cap;
    lp_glsl *glsl;                             /* compiled GLSL programs, by (vert, frag) path */
    int glsl_count, glsl_cap;
    GLuint ubo;                                /* every draw's uniforms, ubo_stride bytes apart */
    GLsizeiptr ubo_stride, ubo_range;
    GLint id_location;                         /* the ID pass's output of GLSL draws */
    char renderer[256];
    char err[2048];                            /* a GLSL draw's error, for lp_create */
};

static int lp_error(char *err, size_t size, const char *fmt, const char *arg)
{
    snprintf(err, size, fmt, arg);
    return -1;
}

static GLuint lp_compile(GLenum type, const char *const *src, int parts, char *err, size_t err_size)
{
    GLuint sh = glCreateShader(type);
    glShaderSource(sh, parts, src, NULL);
    glCompileShader(sh);
    GLint ok = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetShaderInfoLog(sh, sizeof log, NULL, log);
        lp_error(err, err_size, "GLSL compile failed: %s", log);
        glDeleteShader(sh);
        return 0;
    }
    return sh;
}

static int lp_build_prog(lp_prog *p, int id_pass, int kind, int fma, int blur, char *err, size_t err_size)
{
    char defs[128], vdefs[32];
    snprintf(defs, sizeof defs, "#define ID_PASS %d\n#define KIND %d\n#define FMA %d\n", id_pass, kind, fma);
    snprintf(vdefs, sizeof vdefs, "#define BLUR %d\n", blur);
    const char *vs[] = { lp_vs_head, vdefs, lp_vs_src };
    const char *fs[] = { lp_fs_head, defs, lp_fs_body };
    GLuint v = lp_compile(GL_VERTEX_SHADER, vs, 3, err, err_size);
    if (!v)
        return -1;
    GLuint f = lp_compile(GL_FRAGMENT_SHADER, fs, 3, err, err_size);
    if (!f) {
        glDeleteShader(v);
        return -1;
    }
    p->prog = glCreateProgram();
    glAttachShader(p->prog, v);
    glAttachShader(p->prog, f);
    glLinkProgram(p->prog);
    glDeleteShader(v);
    glDeleteShader(f);
    GLint ok = 0;
    glGetProgramiv(p->prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetProgramInfoLog(p->prog, sizeof log, NULL, log);
        return lp_error(err, err_size, "GLSL link failed: %s", log);
    }
    p->mvp = glGetUniformLocation(p->prog, "u_mvp");
    p->mvp1 = glGetUniformLocation(p->prog, "u_mvp1");
    p->uvt = glGetUniformLocation(p->prog, "u_uvt");
    p->lens = glGetUniformLocation(p->prog, "u_lens");
    p->jitter = glGetUniformLocation(p->prog, "u_jitter");
    p->nmat = glGetUniformLocation(p->prog, "u_nmat");
    p->base = glGetUniformLocation(p->prog, "u_base");
    p->ldir = glGetUniformLocation(p->prog, "u_ldir");
    p->lcol = glGetUniformLocation(p->prog, "u_lcol");
    p->amb = glGetUniformLocation(p->prog, "u_amb");
    p->fma_k = glGetUniformLocation(p->prog, "u_fma_k");
    p->fma_c = glGetUniformLocation(p->prog, "u_fma_c");
    p->fma_zero = glGetUniformLocation(p->prog, "u_fma_zero");
    p->cutoff = glGetUniformLocation(p->prog, "u_cutoff");
    p->tex = glGetUniformLocation(p->prog, "u_tex");
    p->lm = glGetUniformLocation(p->prog, "u_lm");
    p->lm_none = glGetUniformLocation(p->prog, "u_lm_none");
    p->tex_none = glGetUniformLocation(p->prog, "u_tex_none");
    p->draw_id = glGetUniformLocation(p->prog, "u_draw_id");
    return 0;
}

/* The file at PATH as a NUL-terminated string (free it), or NULL with ERR set. */
static char *lp_read_text(const char *path, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *text = NULL;
    for (;;) {
        char *t = cap <= ((size_t)1 << 26) ? realloc(text, cap) : NULL;  /* 64 MiB of source: no */
        if (!t) {
            snprintf(err, err_size, "%s: out of memory or too large", path);
            goto fail;
        }
        text = t;
        n += fread(text + n, 1, cap - 1 - n, f);
        if (n < cap - 1)
            break;
        cap *= 2;
    }
    if (ferror(f)) {
        snprintf(err, err_size, "%s: read error", path);
        goto fail;
    }
    fclose(f);
    text[n] = '\0';
    return text;
fail:
    fclose(f);
    free(text);
    return NULL;
}

/* Appends Mesa's info LOG to ERR with its "0:" source prefixes replaced by PATH:
 * "0:12(5): error: ..." -> "PATH:12(5): error: ...". */
static void lp_append_log(char *err, size_t err_size, const char *path, const char *log)
{
    size_t at = strlen(err);
    for (const char *line = log; *line && at + 1 < err_size; ) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) : strlen(line);
        const int src0 = strncmp(line, "0:", 2) == 0;
        int k = snprintf(err + at, err_size - at, "\n  %s%.*s", src0 ? path : "", (int)(src0 ? len - 1 : len),
                         src0 ? line + 1 : line);
        at += k > 0 ? (size_t)k : 0;
        if (at >= err_size)
            at = err_size - 1;
        line += len + (end ? 1 : 0);
    }
}

/* Compiles the PARTS strings of SRC (LENS as glShaderSource's, NULL = NUL-terminated) as one TYPE
 * shader of PATH; 0 with ERR naming PATH and WHAT ("fragment shader") on failure. */
static GLuint lp_compile_file(GLenum type, const char *path, const char *what, const char *const *src,
                              const GLint *lens, int parts, char *err, size_t err_size)
{
    GLuint sh = glCreateShader(type);
    glShaderSource(sh, parts, src, lens);
    glCompileShader(sh);
    GLint ok = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[4096] = "";
        glGetShaderInfoLog(sh, sizeof log, NULL, log);
        snprintf(err, err_size, "%s: llvmpipe (Mesa GLSL) could not compile the %s:", path, what);
        lp_append_log(err, err_size, path, log);
        glDeleteShader(sh);
        return 0;
    }
    return sh;
}

/* Links V and F into a program (deleting both); 0 with ERR naming VERT and FRAG on failure. */
static GLuint lp_link_files(GLuint v, GLuint f, const char *vert, const char *frag, char *err, size_t err_size)
{
    GLuint prog = glCreateProgram();
    glAttachShader(prog, v);
    glAttachShader(prog, f);
    glLinkProgram(prog);
    glDeleteShader(v);
    glDeleteShader(f);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[4096] = "";
        glGetProgramInfoLog(prog, sizeof log, NULL, log);
        snprintf(err, err_size, "%s + %s: llvmpipe (Mesa GLSL) could not link the program:", vert, frag);
        lp_append_log(err, err_size, frag, log);
        glDeleteProgram(prog);
        return 0;
    }
    return prog;
}

#define LP_ID_OUT "lp_id_out"
#define LP_MAX_ID_BUFFERS 8  /* the ID output's location: GL_MAX_DRAW_BUFFERS - 1, at most 7 (GL 4.5 has >= 8) */

/* The ID-pass fragment shader around the user's TEXT: its parts (up to 4) in PARTS,
 * the count returned; HEAD_BUF receives the text inserted after the #version line. */
static int lp_id_fragment_parts(const char *text, GLint id_location, const char **parts, GLint *lens,
                                char *head_buf, size_t head_size, char *tail_buf, size_t tail_size)
{
    /* The #version line: the first line whose first token is '#' 'version'. */
    const char *after = text;  /* just past the #version line (text itself when none) */
    int line_no = 1, version_line = 0;
    for (const char *l = text; *l; line_no++) {
        const char *q = l;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == '#') {
            q++;
            while (*q == ' ' || *q == '\t')
                q++;
            if (strncmp(q, "version", 7) == 0) {
                const char *e = strchr(q, '\n');
                after = e ? e + 1 : q + strlen(q);
                version_line = line_no;
                break;
            }
        }
        const char *e = strchr(l, '\n');
        if (!e)
            break;
        l = e + 1;
    }
    /* #line N: the next line is line N (GLSL >= 3.30), so messages keep the file's numbers. */
    snprintf(head_buf, head_size, "%s#define main lp_user_main\n#line %d\n",
             after > text && after[-1] != '\n' ? "\n" : "", version_line + 1);
    snprintf(tail_buf, tail_size,
             "\n#undef main\n"
             "layout(location = %d) out vec4 " LP_ID_OUT ";\n"
             "uniform uint lp_draw_id;\n"
             "void main()\n"
             "{\n"
             "    lp_user_main();\n"
             "    uint id = (lp_draw_id << 20) + uint(gl_PrimitiveID) + 1u;\n"
             "    " LP_ID_OUT " = vec4(float(id & 255u), float((id >> 8) & 255u), float((id >> 16) & 255u),\n"
             "                     float(id >> 24)) / 255.0;\n"
             "}\n",
             (int)id_location);
    int n = 0;
    parts[n] = text, lens[n++] = (GLint)(after - text);
    parts[n] = head_buf, lens[n++] = -1;
    parts[n] = after, lens[n++] = -1;
    parts[n] = tail_buf, lens[n++] = -1;
    return n;
}

/* Compiles and links VERT + FRAG (the colour program and its ID-pass variant) into G. */
static int lp_glsl_build(lp_renderer *r, lp_glsl *g, char *err, size_t err_size)
{
    int rc = -1;
    char *vs = lp_read_text(g->vert_path, err, err_size);
    char *fs = vs ? lp_read_text(g->frag_path, err, err_size) : NULL;
    if (!fs)
        goto done;
    for (int id = 0; id < 2; id++) {
        const char *vparts[] = { vs }, *fparts[4] = { fs };
        GLint flens[4];
        char head[128], tail[1024], what[128] = "fragment shader";
        int fn = 1;
        if (id) {
            fn = lp_id_fragment_parts(fs, r->id_location, fparts, flens, head, sizeof head, tail, sizeof tail);
            snprintf(what, sizeof what, "fragment shader's ID-pass variant (main renamed lp_user_main, "
                     "output at location %d)", (int)r->id_location);
        }
        GLuint v = lp_compile_file(GL_VERTEX_SHADER, g->vert_path, "vertex shader", vparts, NULL, 1, err, err_size);
        if (!v)
            goto done;
        GLuint f = lp_compile_file(GL_FRAGMENT_SHADER, g->frag_path, what, fparts, id ? flens : NULL, fn, err,
                                   err_size);
        if (!f) {
            glDeleteShader(v);
            goto done;
        }
        GLuint prog = lp_link_files(v, f, g->vert_path, g->frag_path, err, err_size);
        if (!prog)
            goto done;
        if (!id)
            g->prog = prog;
        else
            g->id_prog = prog;
    }
    g->id_draw_id = glGetUniformLocation(g->id_prog, "lp_draw_id");
    /* The block at binding 0 (GL_UNIFORM_BLOCK_BINDING: the layout's binding). */
    GLint blocks = 0;
    glGetProgramiv(g->prog, GL_ACTIVE_UNIFORM_BLOCKS, &blocks);
    for (GLint b = 0; b < blocks; b++) {
        GLint binding = -1, size = 0;
        glGetActiveUniformBlockiv(g->prog, (GLuint)b, GL_UNIFORM_BLOCK_BINDING, &binding);
        glGetActiveUniformBlockiv(g->prog, (GLuint)b, GL_UNIFORM_BLOCK_DATA_SIZE, &size);
        if (binding == 0) {
            g->block_size = size > g->block_size ? size : g->block_size;
        } else {
            char name[128] = "";
            glGetActiveUniformBlockName(g->prog, (GLuint)b, sizeof name, NULL, name);
            snprintf(err, err_size, "%s + %s: uniform block '%s' is at binding %d; the reference binds only the "
                     "built-in uniforms, at binding 0", g->vert_path, g->frag_path, name, (int)binding);
            goto done;
        }
    }
    rc = 0;
done:
    free(vs);
    free(fs);
    return rc;
}

/* The cached program of D's (vertex_shader, shader) pair, built on first use: its index, or -1 with r->err. */
static int lp_glsl_find(lp_renderer *r, const scene_export_draw *d)
{
    for (int i = 0; i < r->glsl_count; i++)
        if (strcmp(r->glsl[i].vert_path, d->vertex_shader) == 0 && strcmp(r->glsl[i].frag_path, d->shader) == 0)
            return i;
    if (r->glsl_count == r->glsl_cap) {
        const int cap = r->glsl_cap ? 2 * r->glsl_cap : 4;
        lp_glsl *g = realloc(r->glsl, (size_t)cap * sizeof *g);
        if (!g) {
            snprintf(r->err, sizeof r->err, "out of memory");
            return -1;
        }
        r->glsl = g;
        r->glsl_cap = cap;
    }
    lp_glsl *g = &r->glsl[r->glsl_count];
    memset(g, 0, sizeof *g);
    g->vert_path = strdup(d->vertex_shader);
    g->frag_path = strdup(d->shader);
    r->glsl_count++;  /* kept even when it fails: lp_destroy frees the paths */
    if (!g->vert_path || !g->frag_path) {
        snprintf(r->err, sizeof r->err, "out of memory");
        return -1;
    }
    return lp_glsl_build(r, g, r->err, sizeof r->err) ? -1 : r->glsl_count - 1;
}

/* The UBO of every draw's uniforms: slot i holds draws[i].u, zero-padded to the largest
 * block size, slots aligned to GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT. */
static int lp_make_ubo(lp_renderer *r)
{
    GLsizeiptr range = (GLsizeiptr)sizeof(shader_builtin_uniforms);
    for (int i = 0; i < r->glsl_count; i++)
        if (r->glsl[i].block_size > range)
            range = r->glsl[i].block_size;
    GLint align = 256;
    glGetIntegerv(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, &align);
    if (align < 1)
        align = 256;
    r->ubo_range = range;
    r->ubo_stride = (range + align - 1) / align * align;
    if (r->draw_count == 0)
        return 0;
    uint8_t *data = calloc((size_t)r->draw_count, (size_t)r->ubo_stride);
    if (!data)
        return -1;
    for (int i = 0; i < r->draw_count; i++)
        memcpy(data + (size_t)i * (size_t)r->ubo_stride, &r->draws[i].u, sizeof r->draws[i].u);
    glGenBuffers(1, &r->ubo);
    glBindBuffer(GL_UNIFORM_BUFFER, r->ubo);
    glBufferData(GL_UNIFORM_BUFFER, (GLsizeiptr)r->draw_count * r->ubo_stride, data, GL_STATIC_DRAW);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
    free(data);
    return 0;
}

/* Grows *ARR (elements of SIZE bytes, *CAP of them, zeroed) to hold index I. */
static int lp_grow(void **arr, int *cap, int i, size_t size)
{
    if (i < *cap)
        return 0;
    int n = *cap ? *cap : 8;
    while (n <= i)
        n *= 2;
    void *p = realloc(*arr, (size_t)n * size);
    if (!p)
        return -1;
    memset((char *)p + (size_t)*cap * size, 0, (size_t)(n - *cap) * size);
    *arr = p;
    *cap = n;
    return 0;
}

static mos_result lp_upload_mesh(lp_renderer *r, const scene_export_draw *d)
{
    if (lp_grow((void **)&r->meshes, &r->mesh_cap, d->mesh, sizeof *r->meshes))
        return MOS_ERR_OUT_OF_MEMORY;
    lp_mesh *m = &r->meshes[d->mesh];
    if (m->vao)
        return MOS_OK;
    glGenVertexArrays(1, &m->vao);
    glBindVertexArray(m->vao);
    glGenBuffers(1, &m->vbo);
    glBindBuffer(GL_ARRAY_BUFFER, m->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)d->vert_count * d->vertex_stride * (GLsizeiptr)sizeof(float), d->verts,
                 GL_STATIC_DRAW);
    glGenBuffers(1, &m->ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m->ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)d->index_count * sizeof(uint32_t), d->indices,
                 GL_STATIC_DRAW);
    const GLsizei stride = d->vertex_stride * (GLsizei)sizeof(float);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, (const void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, (const void *)(3 * sizeof(float)));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride, (const void *)(6 * sizeof(float)));
    if (d->vertex_stride >= SHADER_BUILTIN_LIT_STRIDE) {  /* the lightmap's u, v */
        glEnableVertexAttribArray(3);
        glVertexAttribPointer(3, 2, GL_FLOAT, GL_FALSE, stride, (const void *)(8 * sizeof(float)));
    }
    glBindVertexArray(0);
    m->index_count = (GLsizei)d->index_count;
    return MOS_OK;
}

/* Mosaic's textures: rows top first with v = 0 at the image bottom; GL's row 0 is
 * t = 0, so the rows go up bottom first.  The scene's wrap modes and mip filter
 * (nearest level or trilinear), bilinear within a level, as Mosaic's texture. */
static mos_result lp_upload_texture(lp_renderer *r, int image, int width, int height, const uint8_t *rgba,
                                    const mos_wrap wrap[2], mos_mip_filter mip)
{
    if (lp_grow((void **)&r->textures, &r->tex_cap, image, sizeof *r->textures))
        return MOS_ERR_OUT_OF_MEMORY;
    if (r->textures[image])
        return MOS_OK;
    const size_t row = (size_t)width * 4;
    uint8_t *flip = malloc(row * (size_t)height);
    if (!flip)
        return MOS_ERR_OUT_OF_MEMORY;
    for (int y = 0; y < height; y++)
        memcpy(flip + (size_t)y * row, rgba + (size_t)(height - 1 - y) * row, row);
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, flip);
    free(flip);
    glGenerateMipmap(GL_TEXTURE_2D);
    static const GLint wraps[3] = { GL_REPEAT, GL_CLAMP_TO_EDGE, GL_MIRRORED_REPEAT };  /* mos_wrap order */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, wraps[wrap[0] % 3]);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, wraps[wrap[1] % 3]);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
                    mip == MOS_MIP_LINEAR ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR_MIPMAP_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    r->textures[image] = t;
    return MOS_OK;
}

static mos_result lp_record(const scene_export_draw *d, void *user)
{
    lp_renderer *r = user;
    if (r->accum && d->vertex_shader) {
        snprintf(r->err, sizeof r->err, "object '%s' (GLSL %s): --accum draws motion, the lens and the sub-pixel "
                 "jitter only with the twins of the built-in shaders; a GLSL vertex shader cannot be moved, "
                 "sheared or jittered here",
                 d->name, d->vertex_shader);
        return MOS_ERR_SHADER;
    }
    const int glsl = d->vertex_shader ? lp_glsl_find(r, d) : -1;
    if (d->vertex_shader && glsl < 0)
        return MOS_ERR_SHADER;
    /* A GLSL draw gets the object's texture at unit 0 as Mosaic binds it (whether it samples or not). */
    const bool lit = !d->vertex_shader && strcmp(d->shader, "lightmapped") == 0;
    const bool textured = d->tex_rgba && (d->vertex_shader || lit || strcmp(d->shader, "textured") == 0);
    mos_result res = lp_upload_mesh(r, d);
    if (res == MOS_OK && textured)
        res = lp_upload_texture(r, d->texture, d->tex_width, d->tex_height, d->tex_rgba, d->tex_wrap, d->tex_mip);
    if (res == MOS_OK && (lit || d->vertex_shader) && d->lm_rgba)  /* unit 1, as Mosaic binds it */
        res = lp_upload_texture(r, d->lightmap, d->lm_width, d->lm_height, d->lm_rgba, d->lm_wrap, d->lm_mip);
    if (res != MOS_OK)
        return res;
    if (lp_grow((void **)&r->draws, &r->draw_cap, r->draw_count, sizeof *r->draws))
        return MOS_ERR_OUT_OF_MEMORY;
    lp_draw *w = &r->draws[r->draw_count++];
    w->mesh = d->mesh;
    w->texture = textured ? d->texture : -1;
    w->lightmap = (lit || d->vertex_shader) && d->lm_rgba ? d->lightmap : -1;
    w->glsl = glsl;
    w->kind = strcmp(d->shader, "flat") == 0 ? 0 : strcmp(d->shader, "lambert") == 0 ? 1 : lit ? 3 : 2;
    w->u = *d->uniforms;
    w->u1 = d->uniforms_t1 ? *d->uniforms_t1 : *d->uniforms;
    w->cull = d->cull;
    w->blend = d->blend;
    w->depth_test = d->depth_test;
    w->depth_write = d->depth_write;
    return MOS_OK;
}

static int lp_make_fbo(GLuint *fbo, GLuint *color, GLuint *depth, int w, int h, int samples)
{
    glGenFramebuffers(1, fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, *fbo);
    glGenRenderbuffers(1, color);
    glBindRenderbuffer(GL_RENDERBUFFER, *color);
    if (samples > 1)
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, w, h);
    else
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, *color);
    glGenRenderbuffers(1, depth);
    glBindRenderbuffer(GL_RENDERBUFFER, *depth);
    if (samples > 1)
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH_COMPONENT32F, w, h);
    else
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT32F, w, h);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, *depth);
    return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE ? 0 : -1;
}

int lp_create(const scene *s, const lp_opts *o, lp_renderer **out, char *err, size_t err_size)
{
    *out = NULL;
    lp_renderer *r = calloc(1, sizeof *r);
    if (!r)
        return lp_error(err, err_size, "%s", "out of memory");
    r->width = o->width, r->height = o->height, r->spp = o->spp, r->fma = o->fma, r->accum = o->accum;
    scene_clear_color(s, r->clear);
    const scene_draw_opts dopts = { .width = o->width, .height = o->height, .fma = o->fma, .view = o->view };
    mos_blur_desc lens = { 0 };
    if (r->accum && scene_lens(s, &dopts, &lens) != MOS_OK) {
        free(r);
        snprintf(err, err_size, "--view %d: the scene has no such view", o->view);
        return -1;
    }
    r->lens[0] = lens.lens_x, r->lens[1] = lens.lens_y, r->lens[2] = lens.focus_w;
    /* 4.5 core for the scene's GLSL files (#version 450, layout(binding)); 3.3 core, all the
     * twins need, where Mesa offers no more (GLSL draws then fail to compile, with the reason). */
    for (int minor = 5; minor >= 3 && !r->osmesa; minor -= 2) {
        const int attribs[] = {
            OSMESA_FORMAT, OSMESA_RGBA, OSMESA_DEPTH_BITS, 0, OSMESA_STENCIL_BITS, 0,
            OSMESA_PROFILE, OSMESA_CORE_PROFILE, OSMESA_CONTEXT_MAJOR_VERSION, minor == 5 ? 4 : 3,
            OSMESA_CONTEXT_MINOR_VERSION, minor, 0,
        };
        r->osmesa = OSMesaCreateContextAttribs(attribs, NULL);
    }
    if (!r->osmesa) {
        free(r);
        return lp_error(err, err_size, "%s", "OSMesaCreateContextAttribs failed (no GL 4.5 or 3.3 core context)");
    }
    /* The OSMesa buffer only makes the context current; drawing goes to FBOs. */
    r->osmesa_buf = calloc(16 * 16, 4);
    if (!r->osmesa_buf || !OSMesaMakeCurrent(r->osmesa, r->osmesa_buf, GL_UNSIGNED_BYTE, 16, 16)) {
        lp_destroy(r);
        return lp_error(err, err_size, "%s", "OSMesaMakeCurrent failed");
    }
    snprintf(r->renderer, sizeof r->renderer, "%s", (const char *)glGetString(GL_RENDERER));
    GLint max_samples = 0, max_draw_buffers = 1;
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    glGetIntegerv(GL_MAX_DRAW_BUFFERS, &max_draw_buffers);
    r->id_location = (max_draw_buffers < LP_MAX_ID_BUFFERS ? max_draw_buffers : LP_MAX_ID_BUFFERS) - 1;
    if (r->spp > 1 && r->spp > max_samples) {
        char n[32];
        snprintf(n, sizeof n, "%d", r->spp);
        lp_destroy(r);
        return lp_error(err, err_size, "%s samples per pixel: more than GL_MAX_SAMPLES", n);
    }
    if (lp_make_fbo(&r->fbo, &r->rb_color, &r->rb_depth, r->width, r->height, 1) ||
        (r->spp > 1 && lp_make_fbo(&r->fbo_ms, &r->rb_color_ms, &r->rb_depth_ms, r->width, r->height, r->spp))) {
        lp_destroy(r);
        return lp_error(err, err_size, "%s", "framebuffer incomplete");
    }
    for (int id = 0; id < 2; id++)
        for (int k = 0; k < 4; k++)
            if (lp_build_prog(&r->progs[id][k], id, k, id ? 0 : r->fma, r->accum > 0, err, err_size)) {
                lp_destroy(r);
                return -1;
            }
    const size_t bytes = (size_t)r->width * (size_t)r->height * 4;
    if (r->accum && (!(r->acc_sub = malloc(bytes)) || !(r->acc_sum = malloc(bytes * sizeof *r->acc_sum)) ||
                     !(r->acc_mean = malloc(bytes)))) {
        lp_destroy(r);
        return lp_error(err, err_size, "%s", "out of memory for the accumulation buffer");
    }
    mos_result res = scene_export_frame(s, &dopts, lp_record, r);
    if (res != MOS_OK) {
        if (*r->err)
            snprintf(err, err_size, "%s", r->err);
        else
            lp_error(err, err_size, "scene export failed: %s", mos_result_message(res));
        lp_destroy(r);
        return -1;
    }
    if (r->glsl_count && lp_make_ubo(r)) {
        lp_destroy(r);
        return lp_error(err, err_size, "%s", "out of memory");
    }
    *out = r;
    return 0;
}

const char *lp_renderer_string(const lp_renderer *r) { return r->renderer; }

static void lp_set_uniforms(const lp_renderer *r, const lp_prog *p, const lp_draw *w, uint32_t draw_id)
{
    const shader_builtin_uniforms *u = &w->u;
    float nm[9];
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 3; k++)
            nm[c * 3 + k] = u->normal_matrix[c * 4 + k];
    glUniformMatrix4fv(p->mvp, 1, GL_FALSE, u->mvp);
    if (p->mvp1 >= 0) {  /* BLUR: the sub-frame's pinhole */
        glUniformMatrix4fv(p->mvp1, 1, GL_FALSE, w->u1.mvp);
        glUniform3fv(p->uvt, 1, r->uvt);
        glUniform3fv(p->lens, 1, r->lens);
        glUniform2fv(p->jitter, 1, r->jitter);
    }
    glUniformMatrix3fv(p->nmat, 1, GL_FALSE, nm);
    glUniform4fv(p->base, 1, u->base_color);
    glUniform4fv(p->ldir, SHADER_BUILTIN_MAX_LIGHTS, &u->light_dir[0][0]);
    glUniform4fv(p->lcol, SHADER_BUILTIN_MAX_LIGHTS, &u->light_color[0][0]);
    glUniform3fv(p->amb, 1, u->ambient);
    glUniform1f(p->fma_k, u->fma_k);
    glUniform1f(p->fma_c, u->fma_c);
    glUniform1f(p->fma_zero, u->fma_zero);
    glUniform1f(p->cutoff, u->alpha_cutoff);
    glUniform1i(p->tex, 0);
    glUniform1i(p->lm, 1);
    glUniform1f(p->lm_none, w->lightmap < 0 ? 1.0f : 0.0f);
    glUniform1f(p->tex_none, w->texture < 0 ? 1.0f : 0.0f);
    glUniform1ui(p->draw_id, draw_id);
}

/* Draws every recorded draw into the bound framebuffer. */
static void lp_draw_all(lp_renderer *r, int id_pass)
{
    glViewport(0, 0, r->width, r->height);
    glFrontFace(GL_CCW);
    glCullFace(GL_BACK);
    glDepthFunc(GL_LESS);
    GLuint cur_prog = 0;
    int id_remapped = 0;  /* ID pass: the colour attachment takes location r->id_location */
    for (int i = 0; i < r->draw_count; i++) {
        const lp_draw *w = &r->draws[i];
        if (w->glsl >= 0) {
            const lp_glsl *g = &r->glsl[w->glsl];
            const GLuint prog = id_pass ? g->id_prog : g->prog;
            if (cur_prog != prog) {
                glUseProgram(prog);
                cur_prog = prog;
            }
            glBindBufferRange(GL_UNIFORM_BUFFER, 0, r->ubo, (GLintptr)i * r->ubo_stride, r->ubo_range);
            if (id_pass)
                glUniform1ui(g->id_draw_id, (GLuint)i);
            if (id_pass && !id_remapped) {
                GLenum bufs[LP_MAX_ID_BUFFERS];
                for (GLint k = 0; k < r->id_location; k++)
                    bufs[k] = GL_NONE;
                bufs[r->id_location] = GL_COLOR_ATTACHMENT0;
                glDrawBuffers(r->id_location + 1, bufs);
                id_remapped = 1;
            }
            glActiveTexture(GL_TEXTURE0);
            glBindTexture(GL_TEXTURE_2D, w->texture >= 0 ? r->textures[w->texture] : 0);
            glActiveTexture(GL_TEXTURE1);
            glBindTexture(GL_TEXTURE_2D, w->lightmap >= 0 ? r->textures[w->lightmap] : 0);
        } else {
            const int kind = w->kind;  /* the id pass too: its alpha test needs the texture */
            const lp_prog *p = &r->progs[id_pass][kind];
            if (cur_prog != p->prog) {
                glUseProgram(p->prog);
                cur_prog = p->prog;
            }
            lp_set_uniforms(r, p, w, (uint32_t)i);
            if (id_remapped) {
                const GLenum buf = GL_COLOR_ATTACHMENT0;
                glDrawBuffers(1, &buf);
                id_remapped = 0;
            }
            if (w->texture >= 0) {
                glActiveTexture(GL_TEXTURE0);
                glBindTexture(GL_TEXTURE_2D, r->textures[w->texture]);
            }
            if (w->lightmap >= 0) {
                glActiveTexture(GL_TEXTURE1);
                glBindTexture(GL_TEXTURE_2D, r->textures[w->lightmap]);
            }
        }
        if (w->cull == MOS_CULL_BACK)
            glEnable(GL_CULL_FACE);
        else
            glDisable(GL_CULL_FACE);
        if (w->depth_test)
            glEnable(GL_DEPTH_TEST);
        else
            glDisable(GL_DEPTH_TEST);
        glDepthMask(w->depth_write ? GL_TRUE : GL_FALSE);
        if (id_pass || w->blend == MOS_BLEND_OPAQUE) {
            glDisable(GL_BLEND);
        } else {
            glEnable(GL_BLEND);
            if (w->blend == MOS_BLEND_ALPHA)
                glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
            else if (w->blend == MOS_BLEND_PREMULTIPLIED)
                glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
            else
                glBlendFunc(GL_ONE, GL_ONE);
        }
        const lp_mesh *m = &r->meshes[w->mesh];
        glBindVertexArray(m->vao);
        glDrawElements(GL_TRIANGLES, m->index_count, GL_UNSIGNED_INT, (const void *)0);
    }
    glBindVertexArray(0);
    if (id_remapped) {
        const GLenum buf = GL_COLOR_ATTACHMENT0;
        glDrawBuffers(1, &buf);
    }
}

/* One image at r->uvt: clear, draw, resolve into r->fbo (no glFinish). */
static void lp_draw_frame(lp_renderer *r)
{
    glBindFramebuffer(GL_FRAMEBUFFER, r->spp > 1 ? r->fbo_ms : r->fbo);
    glDepthMask(GL_TRUE);
    glClearColor(r->clear[0], r->clear[1], r->clear[2], r->clear[3]);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    lp_draw_all(r, 0);
    if (r->spp > 1) {  /* resolve, as mos_end_frame does */
        glBindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo_ms);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, r->fbo);
        glBlitFramebuffer(0, 0, r->width, r->height, 0, 0, r->width, r->height, GL_COLOR_BUFFER_BIT,
                          GL_NEAREST);
    }
}

/* The accumulation buffer: each sub-frame's resolved RGBA8 image is read back
 * (glReadPixels, a copy: llvmpipe's memory is the CPU's) and added into 32-bit
 * per-channel sums; the mean is rounded as mos_target_read_accumulated rounds
 * it, (2 sum + m) / (2 m) in integers, ties up: the same arithmetic as Mosaic's
 * --mode accum.  (Summing on the GPU side instead, a float RGBA32F target with
 * additive blending, measured 15-23 ms per 1080p sub-frame against 11-15 ms for
 * the read-back and sum.) */
void lp_accum(lp_renderer *r, int n, bool restart)
{
    const size_t bytes = (size_t)r->width * (size_t)r->height * 4;
    if (restart) {
        memset(r->acc_sum, 0, bytes * sizeof *r->acc_sum);
        r->accum_frames = 0;
    }
    for (int i = 0; i < n; i++) {
        float px[2];
        mos_accum_jitter(r->accum_frames, px);
        r->jitter[0] = 2.0f * px[0] / (float)r->width;  /* as the api's pixel_offset */
        r->jitter[1] = 2.0f * px[1] / (float)r->height;
        mos_accum_pinhole(r->accum_frames++, r->uvt);
        lp_draw_frame(r);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, r->width, r->height, GL_RGBA, GL_UNSIGNED_BYTE, r->acc_sub);
        const uint8_t *sub = r->acc_sub;
        uint32_t *sum = r->acc_sum;
        for (size_t k = 0; k < bytes; k++)
            sum[k] += sub[k];
    }
    /* 2 sum + m < 2^26 for up to 65536 sub-frames: 32-bit division is exact. */
    const uint32_t m = (uint32_t)(r->accum_frames > 0 ? r->accum_frames : 1);
    const size_t row = (size_t)r->width * 4;
    for (int y = 0; y < r->height; y++) {
        const uint32_t *src = r->acc_sum + (size_t)y * row;
        uint8_t *dst = r->acc_mean + (size_t)(r->height - 1 - y) * row;
        for (size_t k = 0; k < row; k++)
            dst[k] = (uint8_t)((2 * src[k] + m) / (2 * m));
    }
}

int lp_accum_frames(const lp_renderer *r) { return r->accum_frames; }

void lp_frame(lp_renderer *r)
{
    if (r->accum) {
        lp_accum(r, r->accum, true);
        return;
    }
    lp_draw_frame(r);
    glFinish();
}

/* Reads the single-sample colour buffer into RGBA, rows top first. */
static void lp_read(lp_renderer *r, uint8_t *rgba)
{
    const size_t row = (size_t)r->width * 4;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, r->width, r->height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    uint8_t *tmp = malloc(row);
    if (!tmp)
        return;
    for (int y = 0; y < r->height / 2; y++) {
        uint8_t *a = rgba + (size_t)y * row, *b = rgba + (size_t)(r->height - 1 - y) * row;
        memcpy(tmp, a, row);
        memcpy(a, b, row);
        memcpy(b, tmp, row);
    }
    free(tmp);
}

void lp_read_rgba8(lp_renderer *r, uint8_t *rgba)
{
    if (r->accum)
        memcpy(rgba, r->acc_mean, (size_t)r->width * (size_t)r->height * 4);
    else
        lp_read(r, rgba);
}

void lp_read_ids(lp_renderer *r, uint32_t *ids)
{
    glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
    glDepthMask(GL_TRUE);
    glClearColor(0, 0, 0, 0);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    lp_draw_all(r, 1);
    glFinish();
    lp_read(r, (uint8_t *)ids);  /* little-endian: byte 0 = low bits */
}

void lp_destroy(lp_renderer *r)
{
    if (!r)
        return;
    if (r->osmesa)
        OSMesaDestroyContext(r->osmesa);  /* frees every GL object */
    free(r->osmesa_buf);
    for (int i = 0; i < r->glsl_count; i++) {
        free(r->glsl[i].vert_path);
        free(r->glsl[i].frag_path);
    }
    free(r->glsl);
    free(r->meshes);
    free(r->textures);
    free(r->draws);
    free(r->acc_sub);
    free(r->acc_sum);
    free(r->acc_mean);
    free(r);
}
