/* test_sandbox.c — scene_load_ex's limits for untrusted scene files: the sandbox (relative paths without
 * '..' to regular files inside its folder, for the scene and for what assimp opens) and the triangle budget,
 * with exact file:line:col messages; scene_load unchanged.  Fed by make test; links src/scene (TOOLS_A). */
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "scene/scene.h"

static char tmpdir[64], box[128], err[2048];

/* Writes TEXT to tmpdir/NAME (NAME may hold one folder level that exists). */
static void put(const char *name, const void *data, size_t size)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    if (!CHECK_MSG(f != NULL, "%s", path))
        return;
    CHECK(fwrite(data, 1, size, f) == size);
    fclose(f);
}
static void put_text(const char *name, const char *text) { put(name, text, strlen(text)); }

/* The bytes of the project's file PATH into buf (cap bytes); how many (0: unreadable). */
static size_t slurp(const char *path, void *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    const size_t n = f ? fread(buf, 1, cap, f) : 0;
    if (f)
        fclose(f);
    return n;
}

/* Loads box/NAME (the scene TEXT) in the sandbox BOX with budget MAX_TRIS;
 * the result, the message in err. */
static mos_result load_tex(const char *text, uint64_t max_tris, uint64_t max_tex, scene **out)
{
    put_text("box/t.scene", text);
    char path[256];
    snprintf(path, sizeof path, "%s/t.scene", box);
    scene_load_opts o = { .sandbox_dir = box, .max_triangles = max_tris, .max_texture_bytes = max_tex };
    scene *s = NULL;
    mos_result r = scene_load_ex(path, &o, &s, err, sizeof err);
    CHECK((r == MOS_OK) == (s != NULL));
    if (out)
        *out = s;
    else
        scene_free(s);
    return r;
}
static mos_result load(const char *text, uint64_t max_tris) { return load_tex(text, max_tris, 0, NULL); }

/* err is "BOX/t.scene:LINE:COL: " followed by WANT. */
static void expect_err(int line, int col, const char *want)
{
    char head[1024];
    snprintf(head, sizeof head, "%s/t.scene:%d:%d: %s", box, line, col, want);
    CHECK_MSG(!strcmp(err, head), "got '%s', want '%s'", err, head);
}

/* A triangle in glTF whose vertex buffer lies outside the sandbox. */
static const char gltf[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],"
    "\"buffers\":[{\"uri\":\"../outside.bin\",\"byteLength\":36}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
    "\"min\":[0,0,0],\"max\":[1,1,0]}]}";

static void setup(void)
{
    char path[256];
    snprintf(box, sizeof box, "%s/box", tmpdir);
    CHECK(mkdir(box, 0700) == 0);
    snprintf(path, sizeof path, "%s/sub", box);
    CHECK(mkdir(path, 0700) == 0);
    uint8_t png[8192];
    size_t n = slurp("scenes/textures/tiles.png", png, sizeof png);
    CHECK(n > 100 && n < sizeof png);
    put("box/tex.png", png, n);
    put("outside.png", png, n);
    put_text("box/quad.obj", "mtllib quad.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nusemtl m\nf 1 2 3\nf 1 3 4\n");
    put_text("box/quad.mtl", "newmtl m\nKd 1 0 0\n");
    put_text("box/tri.gltf", gltf);
    const float tri[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
    put("outside.bin", tri, sizeof tri);
    snprintf(path, sizeof path, "%s/escape.png", box);
    CHECK(symlink("../outside.png", path) == 0);
    snprintf(path, sizeof path, "%s/sub/inner.png", box);
    CHECK(symlink("../tex.png", path) == 0);
    snprintf(path, sizeof path, "%s/fifo.png", box);
    CHECK(mkfifo(path, 0600) == 0);
    /* GLSL shaders whose vertex shader is the implicit builtin.vert beside them: a link out of the
     * sandbox (vlink/), a FIFO (vfifo/), a real one (vok/). */
    char frag[16384], vert[16384];
    n = slurp("shaders/lambert.frag", frag, sizeof frag);
    CHECK(n > 10 && n < sizeof frag);
    const size_t vn = slurp("shaders/builtin.vert", vert, sizeof vert);
    CHECK(vn > 10 && vn < sizeof vert);
    put("outside.vert", vert, vn);
    static const char *const dirs[] = { "vlink", "vfifo", "vok" };
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", box, dirs[i]);
        CHECK(mkdir(path, 0700) == 0);
        char name[64];
        snprintf(name, sizeof name, "box/%s/lambert.frag", dirs[i]);
        put(name, frag, n);
    }
    snprintf(path, sizeof path, "%s/vlink/builtin.vert", box);
    CHECK(symlink("../../outside.vert", path) == 0);
    snprintf(path, sizeof path, "%s/vfifo/builtin.vert", box);
    CHECK(mkfifo(path, 0600) == 0);
    put("box/vok/builtin.vert", vert, vn);
}

static void test_inside(void)
{
    CHECK_OK(load("object\n  mesh quad.obj\n  shader textured\n  texture tex.png\nend\n"
                  "object\n  plane 1 1\n  texture \"sub/inner.png\"\nend\n", 0));
}

static void test_outside(void)
{
    char want[512];
    CHECK_RES(load("object\n  plane 1 1\n  texture /etc/passwd\nend\n", 0), MOS_ERR_PARSE);
    expect_err(3, 11, "path '/etc/passwd' is outside the scene's sandbox");
    CHECK_RES(load("# comment\nobject\n  mesh ../box/quad.obj\nend\n", 0), MOS_ERR_PARSE);
    snprintf(want, sizeof want, "path '%s/../box/quad.obj' is outside the scene's sandbox", box);
    expect_err(3, 8, want);
    CHECK_RES(load("object\n  plane 1 1\n  texture sub/../tex.png\nend\n", 0), MOS_ERR_PARSE);
    snprintf(want, sizeof want, "path '%s/sub/../tex.png' is outside the scene's sandbox", box);
    expect_err(3, 11, want);
    CHECK_RES(load("object\n  bsp /dev/stdin\nend\n", 0), MOS_ERR_PARSE);
    expect_err(2, 7, "path '/dev/stdin' is outside the scene's sandbox");
    /* A link out of the folder. */
    CHECK_RES(load("object\n  plane 1 1\n  texture escape.png\nend\n", 0), MOS_ERR_PARSE);
    snprintf(want, sizeof want, "path '%s/escape.png' is outside the scene's sandbox", box);
    expect_err(3, 11, want);
    /* What the mesh names goes through the sandbox too: the glTF's buffer is outside. */
    CHECK_RES(load("object\n  mesh tri.gltf\nend\n", 0), MOS_ERR_PARSE);
    snprintf(want, sizeof want, "%s/t.scene:2:8: cannot import '%s/tri.gltf'", box, box);
    CHECK_MSG(!strncmp(err, want, strlen(want)), "got '%s'", err);
}

static void test_not_regular(void)
{
    char want[512];
    CHECK_RES(load("object\n  plane 1 1\n  texture fifo.png\nend\n", 0), MOS_ERR_PARSE);
    snprintf(want, sizeof want, "path '%s/fifo.png' is not a regular file (the scene's sandbox reads only those)", box);
    expect_err(3, 11, want);
    CHECK_RES(load("object\n  mesh sub\nend\n", 0), MOS_ERR_PARSE);
    snprintf(want, sizeof want, "path '%s/sub' is not a regular file (the scene's sandbox reads only those)", box);
    expect_err(2, 8, want);
    CHECK_RES(load("object\n  mesh missing.obj\nend\n", 0), MOS_ERR_IO);
    snprintf(want, sizeof want, "cannot open '%s/missing.obj': No such file or directory", box);
    expect_err(2, 8, want);
}

/* `shader X.frag` without a vertex shader reads builtin.vert beside X through the sandbox too: a link
 * out of it is refused, a FIFO is refused without waiting for a writer. */
static void test_implicit_vertex_shader(void)
{
    char want[512];
    alarm(60);  /* a FIFO that blocks the load fails the test rather than hanging it */
    CHECK_RES(load("object\n  plane 1 1\n  shader vlink/lambert.frag\nend\n", 0), MOS_ERR_SHADER);
    snprintf(want, sizeof want, "path '%s/vlink/builtin.vert' is outside the scene's sandbox", box);
    expect_err(3, 10, want);
    CHECK_RES(load("object\n  plane 1 1\n  shader vfifo/lambert.frag\nend\n", 0), MOS_ERR_SHADER);
    snprintf(want, sizeof want, "path '%s/vfifo/builtin.vert' is not a regular file (the scene's sandbox reads only those)",
             box);
    expect_err(3, 10, want);
    CHECK_OK(load("object\n  plane 1 1\n  shader vok/lambert.frag\nend\n", 0));
    alarm(0);
}

static mos_result note_texture(const scene_export_draw *d, void *user)
{
    int *t = user;
    t[t[0] + 1] = d->texture;
    t[0]++;
    return MOS_OK;
}

/* One file is one image however its path is spelled (./, a link to it), and the textures are held to
 * the budget: tiles.png is 256x256, 349,524 bytes with its mip levels; a second sampling is a copy. */
static void test_texture_identity_and_budget(void)
{
    scene *s = NULL;
    const char *four = "object\n  plane 1 1\n  texture tex.png\nend\nobject\n  plane 1 1\n  texture ./tex.png\nend\n"
                       "object\n  plane 1 1\n  texture ././tex.png\nend\nobject\n  plane 1 1\n  texture sub/inner.png\nend\n";
    CHECK_OK(load_tex(four, 0, 349524, &s));
    int tex[16] = { 0 };
    scene_draw_opts dopt = { .width = 16, .height = 16 };
    CHECK_OK(scene_export_frame(s, &dopt, note_texture, tex));
    CHECK_MSG(tex[0] == 4 && tex[1] >= 0 && tex[2] == tex[1] && tex[3] == tex[1] && tex[4] == tex[1],
              "draws %d, textures %d %d %d %d", tex[0], tex[1], tex[2], tex[3], tex[4]);
    scene_free(s);
    CHECK_RES(load_tex(four, 0, 349523, NULL), MOS_ERR_PARSE);
    char want[512];
    snprintf(want, sizeof want, "textures would take 0.3 MB, over the 0.3 MB budget (image '%s/tex.png', 256x256 "
             "with its mip levels: 0.3 MB)", box);
    expect_err(3, 11, want);
    CHECK_RES(load_tex("object\n  plane 1 1\n  texture tex.png\nend\nobject\n  plane 1 1\n  texture ./tex.png\n"
                       "  wrap clamp\nend\n", 0, 600000, NULL), MOS_ERR_PARSE);
    snprintf(want, sizeof want, "textures would take 0.7 MB, over the 0.6 MB budget (image '%s/tex.png', 256x256 "
             "with its mip levels: 0.3 MB)", box);
    expect_err(9, 1, want);  /* the second sampling is made at the object's end */
}

static void test_budget(void)
{
    /* sphere 8 4: 2 * 8 * (4 - 1) = 48 triangles, checked before the sphere is built. */
    CHECK_OK(load("object\n  sphere 1 8 4\nend\n", 48));
    CHECK_RES(load("object\n  sphere 1 8 4\nend\n", 47), MOS_ERR_PARSE);
    expect_err(2, 3, "object 'object0' brings the scene to 48 triangles per frame; at most 47 are allowed");
    /* Instances count: given after the geometry, at 'end'. */
    CHECK_RES(load("object a\n  box 1 1 1\n  array 2 2 1 1 1 1\nend\n", 47), MOS_ERR_PARSE);
    expect_err(4, 1, "object 'a' brings the scene to 48 triangles per frame; at most 47 are allowed");
    CHECK_RES(load("object a\n  array 3 1 1 1 1 1\n  box 1 1 1\nend\n", 35), MOS_ERR_PARSE);
    expect_err(3, 3, "object 'a' brings the scene to 36 triangles per frame; at most 35 are allowed");
}

static void test_unsandboxed(void)
{
    /* scene_load: absolute paths and '..' as before, and assimp reads the glTF's buffer. */
    char text[512], path[256];
    snprintf(text, sizeof text, "object\n  plane 1 1\n  texture %s/outside.png\nend\n"
             "object\n  mesh ../box/tri.gltf\n  texture sub/../tex.png\nend\n", tmpdir);
    put_text("box/u.scene", text);
    snprintf(path, sizeof path, "%s/u.scene", box);
    scene *s = NULL;
    CHECK_OK(scene_load(path, &s, err, sizeof err));
    CHECK_MSG(s && scene_mesh_count(s) == 2 && scene_triangle_count(s) == 3, "%s", err);
    scene_free(s);
    scene_load_opts o = { .sandbox_dir = "/no/such/folder" };
    CHECK_RES(scene_load_ex(path, &o, &s, err, sizeof err), MOS_ERR_IO);
    snprintf(text, sizeof text, "%s:1:1: sandbox folder '/no/such/folder': No such file or directory", path);
    CHECK_MSG(!strcmp(err, text), "got '%s'", err);
}

int main(void)
{
    if (!tu_tmpdir(tmpdir, sizeof tmpdir, "sandbox")) return 1;
    setup();
    TEST_RUN(test_inside);
    TEST_RUN(test_outside);
    TEST_RUN(test_not_regular);
    TEST_RUN(test_budget);
    TEST_RUN(test_implicit_vertex_shader);
    TEST_RUN(test_texture_identity_and_budget);
    TEST_RUN(test_unsandboxed);
    tu_rmtree(tmpdir);
    return TEST_EXIT();
}
