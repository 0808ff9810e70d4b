/* test_materials.c — the look of real scenes: materials of a mesh file (one
 * draw per material, each with its own texture; a missing texture drawn
 * magenta with a warning; scene overrides joining the parts into one draw;
 * glTF MASK and BLEND materials with embedded textures),
 * the alpha test against an analytic cut-out, premultiplied blending, and
 * the warnings for what a scene asks but is not drawn.  The mesh files and
 * textures are written by the test into a temporary folder. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <assimp/cexport.h>
#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/scene.h>

#include "check.h"
#include "image/image.h"
#include "scene/scene.h"
#include "shader/shader.h"
#include "testutil.h"

static char dir[64];

static void write_text(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
}

static void write_solid_png(const char *name, uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
    uint8_t px[4 * 4 * 4];
    for (int i = 0; i < 16; i++) {
        px[4 * i] = r;
        px[4 * i + 1] = g;
        px[4 * i + 2] = b;
        px[4 * i + 3] = a;
    }
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (img_write_png(path, 4, 4, px, 16, err, sizeof err) != MOS_OK) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
}

/* Loads DIR/NAME, renders view 0 at W x H, 1 spp, into a malloc'd RGBA8
 * image (rows top first); the scene is returned in *out (free it). */
static uint8_t *render_scene(const char *name, int w, int h, scene **out)
{
    char path[128], err[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *out = NULL;
    if (!CHECK_OK_B(scene_load(path, out, err, sizeof err))) {
        fprintf(stderr, "  %s\n", err);
        return NULL;
    }
    mos_context *ctx = tu_context(2, 16);
    mos_target t;
    scene_gpu *g = NULL;
    uint8_t *img = NULL;
    if (CHECK_OK_B(mos_target_create(ctx, &(mos_target_desc){ .width = w, .height = h, .samples = 1 }, &t)) &&
        CHECK_OK_B(scene_upload(*out, ctx, &g))) {
        float clear[4];
        scene_clear_color(*out, clear);
        mos_frame_desc fd = { .target = t };
        memcpy(fd.clear_rgba, clear, sizeof clear);
        CHECK_OK(mos_begin_frame(ctx, &fd));
        CHECK_OK(scene_draw(g, ctx, &(scene_draw_opts){ .width = w, .height = h }));
        CHECK_OK(mos_end_frame(ctx, NULL));
        img = tu_read_rgba8(ctx, t, w, h);
    }
    scene_gpu_free(g, ctx);
    mos_context_destroy(ctx);
    return img;
}

static void check_pixel(const uint8_t *img, int w, int x, int y, const uint8_t want[3], const char *what)
{
    const uint8_t *p = img + 4 * ((size_t)y * (size_t)w + (size_t)x);
    bool ok = true;
    for (int c = 0; c < 3; c++)
        ok = ok && abs(p[c] - want[c]) <= 1;
    CHECK_MSG(ok, "%s at (%d, %d): %d %d %d, expected %d %d %d", what, x, y, p[0], p[1], p[2], want[0], want[1],
              want[2]);
}

static int count_warnings(const scene *s, const char *needle)
{
    int n = 0;
    for (int i = 0; i < scene_warning_count(s); i++)
        n += strstr(scene_warning(s, i), needle) != NULL;
    return n;
}

/* Four quads side by side (x in [-4, 4], 2 units each), facing +z, one
 * material each: two textured, one plain colour, one whose texture file
 * does not exist. */
static void write_four_quads(void)
{
    write_solid_png("left.png", 200, 40, 40, 255);
    write_solid_png("right.png", 40, 60, 220, 255);
    write_text("quads.mtl",
               "newmtl left\nKd 1 1 1\nmap_Kd left.png\n\n"
               "newmtl middle\nKd 0.1 0.8 0.2\n\n"
               "newmtl right\nKd 1 1 1\nmap_Kd .\\right.png\n\n"  /* a Windows export's path */
               "newmtl broken\nKd 1 1 1\nmap_Kd nothere.png\n");
    char obj[4096];
    int n = snprintf(obj, sizeof obj, "mtllib quads.mtl\nvn 0 0 1\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n");
    static const char *const mats[4] = { "left", "middle", "right", "broken" };
    for (int q = 0; q < 4; q++) {
        float x0 = -4.0f + 2.0f * (float)q, x1 = x0 + 2.0f;
        n += snprintf(obj + n, sizeof obj - (size_t)n,
                      "v %g -1 0\nv %g -1 0\nv %g 1 0\nv %g 1 0\nusemtl %s\nf %d/1/1 %d/2/1 %d/3/1 %d/4/1\n", x0, x1,
                      x1, x0, mats[q], 4 * q + 1, 4 * q + 2, 4 * q + 3, 4 * q + 4);
    }
    write_text("quads.obj", obj);
}

static const char scene_head[] =
    "background 0 0 0\nambient 1 1 1\nlight 0 0 1  0 0 0\n"
    "camera front\n  eye 0 0 10\n  target 0 0 0\n  up 0 1 0\n  fov 30\n  near 1\n  far 100\nend\n";

/* Pixel column of world x on the plane z = 0 (fov 30, eye at z = 10). */
static int column_of(float x, int w, int h)
{
    float ndc = x / 10.0f / (tanf(15.0f * 3.14159265f / 180.0f) * (float)w / (float)h);
    return (int)((ndc + 1.0f) * 0.5f * (float)w);
}

static void test_obj_materials(void)
{
    write_four_quads();
    char text[1024];
    snprintf(text, sizeof text, "%sobject quads\n  mesh quads.obj\nend\n", scene_head);
    write_text("materials.scene", text);
    enum { W = 400, H = 100 };
    scene *s = NULL;
    uint8_t *img = render_scene("materials.scene", W, H, &s);
    if (!img) {
        scene_free(s);
        return;
    }
    CHECK_EQ_INT(scene_object_count(s), 4);  /* one draw per material */
    CHECK_MSG(count_warnings(s, "nothere.png") == 1 && count_warnings(s, "magenta") == 1,
              "expected one warning about nothere.png drawn magenta (%d warnings)", scene_warning_count(s));
    static const uint8_t want[4][3] = { { 200, 40, 40 }, { 26, 204, 51 }, { 40, 60, 220 }, { 255, 0, 255 } };
    static const char *const what[4] = { "left texture", "middle colour", "right texture", "missing texture" };
    for (int q = 0; q < 4; q++)
        check_pixel(img, W, column_of(-3.0f + 2.0f * (float)q, W, H), H / 2, want[q], what[q]);
    free(img);
    scene_free(s);

    /* The scene overrides shader and colour: the parts look alike and are
     * one draw; each material's texture is reported as not drawn. */
    snprintf(text, sizeof text, "%sobject quads\n  mesh quads.obj\n  shader flat\n  color 0.5 0.25 1\nend\n",
             scene_head);
    write_text("override.scene", text);
    img = render_scene("override.scene", W, H, &s);
    if (img) {
        CHECK_EQ_INT(scene_object_count(s), 1);
        CHECK_EQ_INT(count_warnings(s, "does not sample textures"), 3);
        for (int q = 0; q < 4; q++)
            check_pixel(img, W, column_of(-3.0f + 2.0f * (float)q, W, H), H / 2, (const uint8_t[3]){ 128, 64, 255 },
                        "override colour");
    }
    free(img);
    scene_free(s);
}

/* ---- a glTF file with a MASK material and an embedded (data URI) texture ---- */

static char *base64(const uint8_t *p, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(4 * ((n + 2) / 3) + 1), *o = out;
    if (!out)
        abort();
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        *o++ = tab[v >> 18 & 63];
        *o++ = tab[v >> 12 & 63];
        *o++ = i + 1 < n ? tab[v >> 6 & 63] : '=';
        *o++ = i + 2 < n ? tab[v & 63] : '=';
    }
    *o = '\0';
    return out;
}

/* Bytes of the file DIR/NAME (malloc'd) and their count. */
static uint8_t *slurp(const char *name, size_t *n)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    uint8_t *buf = malloc(1 << 16);
    if (!f || !buf)
        abort();
    *n = fread(buf, 1, 1 << 16, f);
    fclose(f);
    return buf;
}

/* An opaque frame around one-texel alpha stripes (columns 1, 3, 5 with
 * alpha CLEAR_ALPHA): the same across rows, so the glTF's v direction does
 * not matter. */
static void write_stripes_png(const char *name, uint8_t clear_alpha)
{
    uint8_t px[8 * 8 * 4];
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            uint8_t *p = px + 4 * (y * 8 + x);
            const bool on = x == 0 || x == 7 || y == 0 || y == 7 || x % 2 == 0;
            p[0] = 220, p[1] = 170, p[2] = 60, p[3] = on ? 255 : clear_alpha;
        }
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (img_write_png(path, 8, 8, px, 32, err, sizeof err) != MOS_OK) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
}

/* DIR/NAME: a glTF quad x, y in [-1, 1] facing +z, one material with
 * alphaMode MODE (cut-off 0.5), two-sided, its base-colour texture the
 * image DIR/PNG embedded as a data URI. */
static void write_quad_gltf(const char *name, const char *mode, const char *png_name)
{
    size_t png_n;
    uint8_t *png = slurp(png_name, &png_n);
    char *png64 = base64(png, png_n);
    /* positions, normals, uvs (float), then indices (uint16) */
    static const float attr[4 * 8] = { -1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0,
                                       0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1,
                                       0, 1, 1, 1, 1, 0, 0, 0 };
    static const uint16_t idx[6] = { 0, 1, 2, 0, 2, 3 };
    uint8_t bin[sizeof attr + sizeof idx];
    memcpy(bin, attr, sizeof attr);
    memcpy(bin + sizeof attr, idx, sizeof idx);
    char *bin64 = base64(bin, sizeof bin);
    size_t cap = strlen(png64) + strlen(bin64) + 4096;
    char *gltf = malloc(cap);
    if (!gltf)
        abort();
    snprintf(gltf, cap,
             "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,\"TEXCOORD_0\":2},"
             "\"indices\":3,\"material\":0}]}],"
             "\"materials\":[{\"name\":\"fence\",\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}},"
             "\"alphaMode\":\"%s\",\"alphaCutoff\":0.5,\"doubleSided\":true}],"
             "\"textures\":[{\"source\":0}],\"images\":[{\"uri\":\"data:image/png;base64,%s\"}],"
             "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;base64,%s\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":%zu},"
             "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}],"
             "\"accessors\":["
             "{\"bufferView\":0,\"byteOffset\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\","
             "\"min\":[-1,-1,0],\"max\":[1,1,0]},"
             "{\"bufferView\":0,\"byteOffset\":48,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":0,\"byteOffset\":96,\"componentType\":5126,\"count\":4,\"type\":\"VEC2\"},"
             "{\"bufferView\":1,\"byteOffset\":0,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"}]}\n",
             mode, png64, sizeof bin, bin64, sizeof attr, sizeof attr, sizeof idx);
    write_text(name, gltf);
    free(gltf);
    free(bin64);
    free(png64);
    free(png);
}

/* Renders DIR/NAME (object `fence` with EXTRA lines) and checks the centre
 * of each texel column of the quad: want_clear for columns 1, 3, 5,
 * want_other for the others. */
static void check_gltf_columns(const char *gltf, const char *extra, const uint8_t want_clear[3],
                               const uint8_t want_other[3], const char *what)
{
    enum { W = 800, H = 200 };
    char text[1024];
    snprintf(text, sizeof text, "%sobject fence\n  mesh %s\n%send\n", scene_head, gltf, extra);
    write_text("gltf.scene", text);
    scene *s = NULL;
    uint8_t *img = render_scene("gltf.scene", W, H, &s);
    if (img) {
        CHECK_EQ_INT(scene_warning_count(s), 0);
        for (int k = 0; k < 8; k++) {
            const bool clear = k % 2 == 1 && k < 7;
            const int x = column_of(-1.0f + ((float)k + 0.5f) / 4.0f, W, H);
            check_pixel(img, W, x, H / 2, clear ? want_clear : want_other, clear ? what : "other column");
        }
    }
    free(img);
    scene_free(s);
}

/* glTF materials with an embedded (data URI) base-colour texture: alphaMode
 * MASK cuts the clear columns out (and a scene line alpha_cutoff 0 turns
 * that off); alphaMode BLEND blends a texture of alpha 128 over the black
 * background ("over": 220 * 128 / 255 = 110 ...), where drawn opaque it
 * would be the texel colour 220 170 60. */
static void test_gltf_alpha_modes(void)
{
    static const uint8_t texel[3] = { 220, 170, 60 }, black[3] = { 0, 0, 0 }, half[3] = { 110, 85, 30 };
    write_stripes_png("stripes.png", 0);
    write_quad_gltf("fence.gltf", "MASK", "stripes.png");
    check_gltf_columns("fence.gltf", "", black, texel, "cut-out column");
    check_gltf_columns("fence.gltf", "  alpha_cutoff 0\n", texel, texel, "column, no cut-out");
    write_solid_png("half.png", 220, 170, 60, 128);
    write_quad_gltf("glass.gltf", "BLEND", "half.png");
    check_gltf_columns("glass.gltf", "", half, half, "blended column");
}

/* Hostile material properties: a mesh file whose opacity, two-sidedness
 * and alpha cut-off are arrays of 4096 values (assimp's binary format can
 * say so; made here by patching an imported OBJ and exporting it) loads
 * and renders; the importer reads one value of each (it used to let assimp
 * write them all over one variable on the stack). */
static void test_array_properties(void)
{
    write_text("tri.mtl", "newmtl m\nKd 1 1 1\nd 0.5\n");
    write_text("tri.obj", "mtllib tri.mtl\nv -1 -1 0\nv 1 -1 0\nv 0 1 0\nusemtl m\nf 1 2 3\n");
    char path[128];
    snprintf(path, sizeof path, "%s/tri.obj", dir);
    const struct aiScene *sc = aiImportFile(path, 0);
    if (!CHECK_MSG(sc != NULL, "assimp cannot import %s: %s", path, aiGetErrorString())) return;
    static float big[4096];
    for (int k = 0; k < 4096; k++) big[k] = 0.25f;
    /* Patch, export, then put assimp's own data back before it frees it. */
    struct aiMaterialProperty *patched[8];
    char *saved[8];
    unsigned saved_len[8];
    int n = 0;
    for (unsigned m = 0; m < sc->mNumMaterials; m++)
        for (unsigned i = 0; i < sc->mMaterials[m]->mNumProperties && n < 8; i++) {
            struct aiMaterialProperty *pr = sc->mMaterials[m]->mProperties[i];
            if (strcmp(pr->mKey.data, "$mat.opacity")) continue;
            patched[n] = pr;
            saved[n] = pr->mData;
            saved_len[n] = pr->mDataLength;
            pr->mData = (char *)big;
            pr->mDataLength = sizeof big;
            n++;
        }
    CHECK_MSG(n > 0, "the imported OBJ has no opacity property to patch");
    snprintf(path, sizeof path, "%s/evil.assbin", dir);
    const int exported = aiExportScene(sc, "assbin", path, 0) == aiReturn_SUCCESS;
    for (int i = 0; i < n; i++) {
        patched[i]->mData = saved[i];
        patched[i]->mDataLength = saved_len[i];
    }
    aiReleaseImport(sc);
    if (!CHECK_MSG(exported, "assimp cannot export assbin")) return;
    char text[1024];
    snprintf(text, sizeof text, "%sobject tri\n  mesh evil.assbin\nend\n", scene_head);
    write_text("evil.scene", text);
    scene *s = NULL;
    uint8_t *img = render_scene("evil.scene", 64, 32, &s);
    CHECK(img != NULL);
    free(img);
    scene_free(s);
}

/* A texture line on an object whose shader does not sample it: drawn with
 * its colour, and a warning naming the line; without a shader line the
 * texture line makes the object textured. */
static void test_texture_warnings(void)
{
    write_solid_png("left.png", 200, 40, 40, 255);
    char text[1024];
    snprintf(text, sizeof text,
             "%sobject a\n  plane 2 2 1 1\n  rotate 90 1 0 0\n  translate -2 0 0\n  texture left.png\n  shader flat\n"
             "  color 0.2 0.4 0.6\nend\n"
             "object b\n  plane 2 2 1 1\n  rotate 90 1 0 0\n  translate 2 0 0\n  texture left.png\nend\n",
             scene_head);
    write_text("warn.scene", text);
    enum { W = 400, H = 100 };
    scene *s = NULL;
    uint8_t *img = render_scene("warn.scene", W, H, &s);
    if (img) {
        CHECK_EQ_INT(scene_warning_count(s), 1);
        CHECK_MSG(count_warnings(s, "warn.scene:16:") == 1 && count_warnings(s, "shader flat does not sample") == 1,
                  "warning: %s", scene_warning_count(s) ? scene_warning(s, 0) : "(none)");
        check_pixel(img, W, column_of(-2.0f, W, H), H / 2, (const uint8_t[3]){ 51, 102, 153 }, "flat colour");
        /* the texture times the default colour 0.8 */
        check_pixel(img, W, column_of(2.0f, W, H), H / 2, (const uint8_t[3]){ 160, 32, 32 }, "implicit texture");
    }
    free(img);
    scene_free(s);
}

/* The alpha test against an analytic cut-out: an 8x8 texture whose alpha is
 * a one-texel checkerboard, magnified 16x onto a 128x128 target.  Bilinear
 * alpha on a checkerboard is >= 1/2 exactly inside the opaque texels'
 * squares, so with cut-off 1/2 pixel (x, y) is covered iff texel
 * (x / 16, y / 16) is opaque, at 1 and at 4 spp. */
static void test_alpha_cutoff(void)
{
    enum { N = 128, T = 8 };
    uint8_t tex[T * T * 4];
    for (int y = 0; y < T; y++)
        for (int x = 0; x < T; x++) {
            uint8_t *p = tex + 4 * (y * T + x);
            p[0] = p[1] = p[2] = 255;
            p[3] = (x + y) % 2 == 0 ? 255 : 0;
        }
    /* A full-screen quad: pos (NDC, z = 0.5), normal +z, uv 0..1 (v up). */
    static const float quad[4 * 8] = {
        -1, -1, 0.5f, 0, 0, 1, 0, 0,  1, -1, 0.5f, 0, 0, 1, 1, 0,
        1,  1,  0.5f, 0, 0, 1, 1, 1,  -1, 1, 0.5f, 0, 0, 1, 0, 1,
    };
    static const uint32_t idx[6] = { 0, 1, 2, 0, 2, 3 };
    for (int spp = 1; spp <= 4; spp *= 4) {
        mos_context *ctx = tu_context(2, 16);
        mos_target t;
        mos_texture tx;
        mos_buffer vb, ib;
        mos_shader sh;
        CHECK_OK(mos_target_create(ctx, &(mos_target_desc){ .width = N, .height = N, .samples = spp }, &t));
        CHECK_OK(mos_texture_create(ctx, &(mos_texture_desc){ .width = T, .height = T, .rgba8 = tex }, &tx));
        CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad, .size = sizeof quad }, &vb));
        CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = idx, .size = sizeof idx }, &ib));
        CHECK_OK(mos_shader_create(ctx, shader_builtin_find("textured"), &sh));
        shader_builtin_uniforms u;
        shader_builtin_uniforms_init(&u);
        u.ambient[0] = u.ambient[1] = u.ambient[2] = 1.0f;
        u.alpha_cutoff = 0.5f;
        CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){ .target = t }));
        CHECK_OK(mos_draw(ctx, &(mos_draw_desc){ .shader = sh, .vertices = vb, .vertex_stride = SHADER_BUILTIN_STRIDE,
                                                 .vertex_count = 4, .indices = ib, .uniforms = &u,
                                                 .uniform_size = sizeof u, .textures = { tx } }));
        CHECK_OK(mos_end_frame(ctx, NULL));
        uint8_t *img = tu_read_rgba8(ctx, t, N, N);
        long wrong = 0, covered = 0;
        for (int y = 0; img && y < N; y++)
            for (int x = 0; x < N; x++) {
                const uint8_t *p = img + 4 * (y * N + x);
                bool on = p[0] == 255 && p[1] == 255 && p[2] == 255, off = !p[0] && !p[1] && !p[2];
                bool want = (x / 16 + y / 16) % 2 == 0;
                wrong += !(want ? on : off);
                covered += on;
            }
        CHECK_MSG(img && wrong == 0, "alpha test at %d spp: %ld of %d pixels differ from the cut-out (%ld covered)",
                  spp, wrong, N * N, covered);
        free(img);
        mos_context_destroy(ctx);
    }
}

/* Premultiplied blending: dst = src + dst * (1 - a), per channel rounded. */
static void test_premultiplied(void)
{
    enum { N = 32 };
    static const float quad[4 * 8] = {
        -1, -1, 0.5f, 0, 0, 1, 0, 0,  1, -1, 0.5f, 0, 0, 1, 1, 0,
        1,  1,  0.5f, 0, 0, 1, 1, 1,  -1, 1, 0.5f, 0, 0, 1, 0, 1,
    };
    static const uint32_t idx[6] = { 0, 1, 2, 0, 2, 3 };
    mos_context *ctx = tu_context(2, 16);
    mos_target t;
    mos_buffer vb, ib;
    mos_shader sh;
    CHECK_OK(mos_target_create(ctx, &(mos_target_desc){ .width = N, .height = N, .samples = 1 }, &t));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = quad, .size = sizeof quad }, &vb));
    CHECK_OK(mos_buffer_create(ctx, &(mos_buffer_desc){ .data = idx, .size = sizeof idx }, &ib));
    CHECK_OK(mos_shader_create(ctx, shader_builtin_find("flat"), &sh));
    shader_builtin_uniforms u;
    shader_builtin_uniforms_init(&u);
    const float src[4] = { 0.25f, 0.5f, 0.0f, 0.5f };
    memcpy(u.base_color, src, sizeof src);
    CHECK_OK(mos_begin_frame(ctx, &(mos_frame_desc){ .target = t, .clear_rgba = { 100 / 255.0f, 1.0f, 0.0f, 1.0f } }));
    CHECK_OK(mos_draw(ctx, &(mos_draw_desc){ .shader = sh, .vertices = vb, .vertex_stride = SHADER_BUILTIN_STRIDE,
                                             .vertex_count = 4, .indices = ib, .uniforms = &u, .uniform_size = sizeof u,
                                             .blend = MOS_BLEND_PREMULTIPLIED }));
    CHECK_OK(mos_end_frame(ctx, NULL));
    uint8_t *img = tu_read_rgba8(ctx, t, N, N);
    const int dst[4] = { 100, 255, 0, 255 }, a = 128;
    int want[4];
    for (int c = 0; c < 4; c++) {
        int s = (int)lrintf(src[c] * 255.0f);
        int v = s + (dst[c] * (255 - a) + 127) / 255;
        want[c] = v > 255 ? 255 : v;
    }
    long wrong = 0;
    for (int i = 0; img && i < N * N; i++)
        for (int c = 0; c < 4; c++)
            wrong += img[4 * i + c] != want[c];
    CHECK_MSG(img && wrong == 0, "premultiplied blend: %ld channels differ from %d %d %d %d (first pixel %d %d %d %d)",
              wrong, want[0], want[1], want[2], want[3], img ? img[0] : -1, img ? img[1] : -1, img ? img[2] : -1,
              img ? img[3] : -1);
    free(img);
    mos_context_destroy(ctx);
}

int main(void)
{
    if (!tu_tmpdir(dir, sizeof dir, "materials")) return 1;
    TEST_RUN(test_obj_materials);
    TEST_RUN(test_gltf_alpha_modes);
    TEST_RUN(test_array_properties);
    TEST_RUN(test_texture_warnings);
    TEST_RUN(test_alpha_cutoff);
    TEST_RUN(test_premultiplied);
    tu_rmtree(dir);
    return TEST_EXIT();
}
