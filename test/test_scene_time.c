/* test_scene_time.c — scene time (image sequences, scene_draw_opts.time): time 0 is the scene as
 * written, bit for bit; later frames continue `velocity` and `motion` (checked against scenes that
 * write the moved object where it should be, at time 0); camera `path` keys (interpolated, held,
 * blurred when the camera moves during the shutter, lens focused mid-shutter); the `path` line's
 * errors and hostile values.  Fed by run.sh from the repository root (scenes/motion.scene,
 * blur.scene, reel.scene); its other scenes are written into a temporary folder. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "scene/scene.h"
#include "testutil.h"

enum { W = 160, H = 120 };

static char dir[64];

/* DIR/NAME holding TEXT; the path into PATH (128 bytes). */
static void write_scene(const char *name, const char *text, char *path)
{
    snprintf(path, 128, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
}

/* Scene PATH rendered at W x H, SPP samples, under OPTS (width and height
 * set here; blur: automatic, the view's lens): a malloc'd RGBA8 image, or
 * NULL (a failed check). */
static uint8_t *render(const char *path, scene_draw_opts opts, int spp)
{
    char err[512];
    scene *s = NULL;
    if (!CHECK_OK_B(scene_load(path, &s, err, sizeof err))) {
        fprintf(stderr, "  %s\n", err);
        return NULL;
    }
    mos_context *ctx = tu_context(2, 16);
    mos_target t;
    scene_gpu *g = NULL;
    uint8_t *img = NULL;
    opts.width = W, opts.height = H;
    if (ctx && CHECK_OK_B(mos_target_create(ctx, &(mos_target_desc){ .width = W, .height = H, .samples = spp }, &t)) &&
        CHECK_OK_B(scene_upload(s, ctx, &g))) {
        mos_frame_desc fd = { .target = t };
        scene_clear_color(s, fd.clear_rgba);
        CHECK_OK(scene_frame_lens(g, &opts, &fd.blur));
        CHECK_OK(mos_begin_frame(ctx, &fd));
        CHECK_OK(scene_draw(g, ctx, &opts));
        CHECK_OK(mos_end_frame(ctx, NULL));
        img = tu_read_rgba8(ctx, t, W, H);
    }
    scene_gpu_free(g, ctx);
    mos_context_destroy(ctx);
    scene_free(s);
    return img;
}

/* Pixels of A and B that differ by more than TOL in some channel; *max_diff the largest difference. */
static int differing(const uint8_t *a, const uint8_t *b, int tol, int *max_diff)
{
    int n = 0, mx = 0;
    for (int i = 0; i < W * H; i++) {
        int d = 0;
        for (int c = 0; c < 4; c++) {
            int e = abs(a[4 * i + c] - b[4 * i + c]);
            d = e > d ? e : d;
        }
        n += d > tol;
        mx = d > mx ? d : mx;
    }
    if (max_diff)
        *max_diff = mx;
    return n;
}

/* The tolerance of "the same picture by another route" (float rounding moves an edge here and there):
 * at most SAME_PIXELS pixels (0.5% of 160 x 120) differ by more than 2 in a channel. */
#define SAME_PIXELS (W * H / 200)
/* ... and a frame that should have changed differs in at least 3% of its pixels. */
#define CHANGED_PIXELS (W * H * 3 / 100)

/* A and B are the same picture within the tolerance, and unlike C (the picture had to change). */
static void check_same(const uint8_t *a, const uint8_t *b, const uint8_t *unlike, const char *what)
{
    if (!a || !b || !unlike)
        return;
    int mx, n = differing(a, b, 2, &mx);
    CHECK_MSG(n <= SAME_PIXELS, "%s: %d pixels differ by more than 2 (max %d), allowed %d", what, n, mx, SAME_PIXELS);
    int m = differing(a, unlike, 2, NULL);
    CHECK_MSG(m >= CHANGED_PIXELS, "%s: only %d pixels changed from the frame it should differ from", what, m);
}

static void check_identical(const uint8_t *a, const uint8_t *b, const char *what)
{
    if (a && b)
        CHECK_MSG(!memcmp(a, b, (size_t)W * H * 4), "%s: images differ (%d pixels)", what, differing(a, b, 0, NULL));
}

/* ---- a: time 0 is the scene as written ----------------------------------------------------- */

static void time_zero_case(const char *path, int spp)
{
    if (access(path, R_OK) != 0) {
        printf("NOTE %s missing, skipped\n", path);
        return;
    }
    const scene_draw_opts plain = { 0 };
    uint8_t *ref = render(path, plain, spp);
    static const double same[] = { 0.0, -0.0, -3.0, -INFINITY, NAN };  /* negative and NaN: taken as 0 */
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        uint8_t *img = render(path, (scene_draw_opts){ .time = same[i] }, spp);
        char what[160];
        snprintf(what, sizeof what, "%s at time %g against the default draw", path, same[i]);
        check_identical(ref, img, what);
        free(img);
    }
    /* Later frames move (both scenes have velocity and motion lines). */
    uint8_t *later = render(path, (scene_draw_opts){ .time = 3 }, spp);
    if (ref && later)
        CHECK_MSG(differing(ref, later, 2, NULL) >= CHANGED_PIXELS / 3, "%s: time 3 looks like time 0", path);
    free(later);
    free(ref);
}

static void test_time_zero(void)
{
    time_zero_case("scenes/motion.scene", 4);
    time_zero_case("scenes/blur.scene", 4);
    time_zero_case("scenes/reel.scene", 4);
}

/* What the draw walk gives at time 0 for motion.scene, worked out from the file's own numbers:
 * the runner's first instance at (-2.2, 0.45, 0.5) at shutter open, plus its velocity 0.9 at close;
 * at time 2 the same moved by 2 * 0.9. */
typedef struct runner_seen { float open[3], close[3]; int found; } runner_seen;

static mos_result see_runner(const scene_export_draw *d, void *user)
{
    runner_seen *r = user;
    if (strcmp(d->name, "runner") || d->instance != 0)
        return MOS_OK;
    r->found++;
    memcpy(r->open, d->uniforms->model + 12, sizeof r->open);
    if (d->uniforms_t1)
        memcpy(r->close, d->uniforms_t1->model + 12, sizeof r->close);
    return MOS_OK;
}

static void test_time_exported(void)
{
    char err[512];
    scene *s = NULL;
    if (!CHECK_OK_B(scene_load("scenes/motion.scene", &s, err, sizeof err))) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    for (int k = 0; k <= 2; k += 2) {
        runner_seen r = { .found = 0 };
        CHECK_OK(scene_export_frame(s, &(scene_draw_opts){ .width = W, .height = H, .time = k }, see_runner, &r));
        CHECK_EQ_INT(r.found, 1);
        const float want_open[3] = { -2.2f + 0.9f * (float)k, 0.45f, 0.5f };
        if (k == 0)  /* bit for bit what a single frame has always drawn: the ends blended in float */
            CHECK_MSG(r.open[0] == -2.2f && r.close[0] == (-2.2f + 1.0f * (-2.2f - -2.2f)) + 1.0f * 0.9f,
                      "time 0: runner x at open %.9g, close %.9g", r.open[0], r.close[0]);
        for (int i = 0; i < 3; i++) {
            CHECK_MSG(fabsf(r.open[i] - want_open[i]) < 1e-5f, "time %d: runner at open [%d] = %g, expected %g", k,
                      i, r.open[i], want_open[i]);
            CHECK_MSG(fabsf(r.close[i] - want_open[i] - (i == 0 ? 0.9f : 0.0f)) < 1e-5f,
                      "time %d: runner at close [%d] = %g", k, i, r.close[i]);
        }
    }
    scene_free(s);
}

/* ---- b, c: objects' motion continued ------------------------------------------------------- */

static const char head[] =
    "background 0 0 0\nambient 0.3 0.3 0.3\nlight 0.3 1 0.6  0.8 0.8 0.8\n"
    "camera c\n  eye 0 2.5 7\n  target 0 0.5 0\n  fov 45\n  shutter %s\nend\n"
    "object floor\n  plane 10 10 4 4\n  color 0.4 0.4 0.45\nend\n";

/* DIR/NAME: HEAD with SHUTTER, then OBJECT; its path into PATH (128 bytes). */
static void object_scene(const char *name, const char *shutter, const char *object, char *path)
{
    char text[2048];
    int n = snprintf(text, sizeof text, head, shutter);
    snprintf(text + n, sizeof text - (size_t)n, "%s", object);
    write_scene(name, text, path);
}

/* The scene A rendered at time K and B at time 0 look the same; A at time 0 does not. */
static void same_as_placed(const char *a, double k, const char *b, const char *what)
{
    uint8_t *at_k = render(a, (scene_draw_opts){ .time = k }, 4);
    uint8_t *ref = render(b, (scene_draw_opts){ 0 }, 4);
    uint8_t *at_0 = render(a, (scene_draw_opts){ 0 }, 4);
    check_same(at_k, ref, at_0, what);
    free(at_k);
    free(ref);
    free(at_0);
}

static void velocity_case(double k, const char *shutter)
{
    /* An array of two spheres sliding along x, 0.4 per frame (and sinking 0.05), and the same
     * written where they are at time K. */
    static const char sphere[] = "object s\n  sphere 0.5 24 12\n  color 0.9 0.3 0.2\n"
                                 "  translate %.9g %.9g 0\n  velocity 0.4 -0.05 0\n  array 2 1 1 1.2 0 0\nend\n";
    char a[128], b[128], obj[512], what[128];
    snprintf(obj, sizeof obj, sphere, -2.0, 0.5);
    object_scene("vel_moving.scene", shutter, obj, a);
    snprintf(obj, sizeof obj, sphere, -2.0 + 0.4 * k, 0.5 - 0.05 * k);
    object_scene("vel_placed.scene", shutter, obj, b);
    snprintf(what, sizeof what, "velocity at time %g (shutter %s) against the spheres placed there", k, shutter);
    same_as_placed(a, k, b, what);
}

static void test_velocity(void)
{
    velocity_case(5, "0 0");
    velocity_case(2.5, "0 0");
    velocity_case(4, "0 1");  /* blurred alike: the placed ones move by the same velocity */
}

static void rotation_case(int k, const char *shutter)
{
    /* A long box turning 20 degrees per frame about its own vertical axis (at x = 0.6): the t = 1
     * transform is the t = 0 one turned about that axis; and the same written turned 20 k degrees
     * (with blur, turning on to 20 (k + 1) at close). */
    static const char box[] = "object b\n  box 2.4 0.6 0.8\n  color 0.3 0.8 0.4\n  rotate %d 0 1 0\n"
                              "  translate 0.6 0.4 0\n  motion rotate %d 0 1 0\n  motion translate 0.6 0.4 0\nend\n";
    char a[128], b[128], obj[512], what[128];
    snprintf(obj, sizeof obj, box, 0, 20);
    object_scene("rot_turning.scene", shutter, obj, a);
    snprintf(obj, sizeof obj, box, 20 * k, 20 * (k + 1));
    object_scene("rot_placed.scene", shutter, obj, b);
    snprintf(what, sizeof what, "motion rotate at time %d (shutter %s) against rotate %d", k, shutter, 20 * k);
    same_as_placed(a, k, b, what);
}

static void test_motion_rotate(void)
{
    rotation_case(3, "0 0");
    rotation_case(7, "0 0");
    rotation_case(2, "0 1");
}

/* ---- d, e: camera paths -------------------------------------------------------------------- */

static const char stage[] =
    "background 0 0 0\nambient 0.3 0.3 0.3\nlight 0.3 1 0.6  0.8 0.8 0.8\n"
    "camera c\n  fov 45\n  shutter %s\n%s"
    "end\n"
    "object floor\n  plane 10 10 4 4\n  color 0.4 0.4 0.45\nend\n"
    "object a\n  box 1 1 1\n  color 0.9 0.3 0.2\n  translate -1 0.5 0\nend\n"
    "object b\n  sphere 0.6 24 12\n  color 0.2 0.5 0.9\n  translate 1.2 0.6 -0.8\nend\n";

/* DIR/NAME: the stage seen by a camera with SHUTTER and the lines POSE (eye / target / path). */
static void camera_scene(const char *name, const char *shutter, const char *pose, char *path)
{
    char text[2048];
    snprintf(text, sizeof text, stage, shutter, pose);
    write_scene(name, text, path);
}

/* Keys at 2 and 10, their midpoint (time 6) exactly representable. */
static const char two_keys[] = "  path 2 -2 2 8  0 0.5 0\n  path 10 2 3 6  1 0.5 -1\n";

static void test_camera_path(void)
{
    char moving[128], mid[128], first[128], last[128];
    camera_scene("cam_path.scene", "0 0", two_keys, moving);
    camera_scene("cam_mid.scene", "0 0", "  eye 0 2.5 7\n  target 0.5 0.5 -0.5\n", mid);
    camera_scene("cam_first.scene", "0 0", "  eye -2 2 8\n  target 0 0.5 0\n", first);
    camera_scene("cam_last.scene", "0 0", "  eye 2 3 6\n  target 1 0.5 -1\n", last);
    uint8_t *at6 = render(moving, (scene_draw_opts){ .time = 6 }, 1);
    uint8_t *at0 = render(moving, (scene_draw_opts){ 0 }, 1);
    uint8_t *at40 = render(moving, (scene_draw_opts){ .time = 40 }, 1);
    uint8_t *ref_mid = render(mid, (scene_draw_opts){ 0 }, 1);
    uint8_t *ref_first = render(first, (scene_draw_opts){ 0 }, 1);
    uint8_t *ref_last = render(last, (scene_draw_opts){ 0 }, 1);
    check_same(at6, ref_mid, at0, "path at time 6 against the camera written at the keys' midpoint");
    check_identical(at0, ref_first, "path at time 0 (before its first key: held) against the first key");
    check_identical(at40, ref_last, "path at time 40 (after its last key: held) against the last key");
    if (at6 && at40)
        CHECK_MSG(differing(at6, at40, 2, NULL) >= CHANGED_PIXELS, "the path at 6 and 40 look alike");
    free(at6);
    free(at0);
    free(at40);
    free(ref_mid);
    free(ref_first);
    free(ref_last);

    /* scene_view_pose: the path at time 0. */
    char err[512];
    scene *s = NULL;
    scene_pose pose;
    if (CHECK_OK_B(scene_load(moving, &s, err, sizeof err)) && CHECK_OK_B(scene_view_pose(s, 0, &pose)))
        CHECK_MSG(pose.eye[0] == -2.0f && pose.eye[2] == 8.0f && pose.target[1] == 0.5f,
                  "scene_view_pose of a path camera: eye %g %g %g", pose.eye[0], pose.eye[1], pose.eye[2]);
    scene_free(s);
}

/* Counts the draws, and those with uniforms_t1 (drawn with motion). */
typedef struct motion_count { int draws, moving; } motion_count;

static mos_result count_motion(const scene_export_draw *d, void *user)
{
    motion_count *m = user;
    m->draws++;
    m->moving += d->uniforms_t1 != NULL;
    return MOS_OK;
}

static motion_count exported_motion(const char *path, double time)
{
    char err[512];
    scene *s = NULL;
    motion_count m = { 0, 0 };
    if (CHECK_OK_B(scene_load(path, &s, err, sizeof err)))
        CHECK_OK(scene_export_frame(s, &(scene_draw_opts){ .width = W, .height = H, .time = time }, count_motion, &m));
    scene_free(s);
    return m;
}

static void test_camera_blur(void)
{
    char open_path[128], sharp_path[128], still_path[128], fixed_path[128];
    camera_scene("cam_open.scene", "0 1", two_keys, open_path);
    camera_scene("cam_sharp.scene", "0 0", two_keys, sharp_path);
    /* Keys that do not move, and the same pose written as eye and target. */
    camera_scene("cam_still.scene", "0 1", "  path 0 1 2 7  0 0.5 0\n  path 10 1 2 7  0 0.5 0\n", still_path);
    camera_scene("cam_fixed.scene", "0 1", "  eye 1 2 7\n  target 0 0.5 0\n", fixed_path);
    uint8_t *blurred = render(open_path, (scene_draw_opts){ .time = 5 }, 4);
    uint8_t *sharp = render(sharp_path, (scene_draw_opts){ .time = 5 }, 4);
    if (blurred && sharp)
        CHECK_MSG(differing(blurred, sharp, 2, NULL) >= W * H / 100,
                  "a camera moving during the shutter does not blur (%d pixels differ)",
                  differing(blurred, sharp, 2, NULL));
    free(blurred);
    free(sharp);
    for (double t = 0; t <= 5; t += 5) {
        uint8_t *still = render(still_path, (scene_draw_opts){ .time = t }, 4);
        uint8_t *fixed = render(fixed_path, (scene_draw_opts){ .time = t }, 4);
        check_identical(still, fixed, "a path that does not move against eye and target");
        free(still);
        free(fixed);
    }
    /* Every object is drawn with motion while the camera moves, none otherwise; after the last
     * key the camera holds. */
    motion_count m = exported_motion(open_path, 5);
    CHECK_MSG(m.draws == 3 && m.moving == 3, "moving camera: %d of %d draws with motion", m.moving, m.draws);
    m = exported_motion(open_path, 10);
    CHECK_MSG(m.draws == 3 && m.moving == 0, "camera past its last key: %d of %d draws with motion", m.moving, m.draws);
    m = exported_motion(still_path, 5);
    CHECK_MSG(m.moving == 0, "still path: %d draws with motion", m.moving);
    m = exported_motion(sharp_path, 5);
    CHECK_MSG(m.moving == 0, "shutter 0 0: %d draws with motion", m.moving);
}

/* The lens focuses (focus 0) at |target - eye| in the middle of the shutter. */
static void test_camera_lens(void)
{
    char moving[128], fixed[128], err[512];
    camera_scene("lens_path.scene", "0 1", "  aperture 0.1\n  path 0 0 0 5  0 0 0\n  path 10 0 0 15  0 0 0\n", moving);
    camera_scene("lens_fixed.scene", "0 1", "  aperture 0.1\n  eye 0 0 10\n  target 0 0 0\n", fixed);
    scene *a = NULL, *b = NULL;
    if (CHECK_OK_B(scene_load(moving, &a, err, sizeof err)) && CHECK_OK_B(scene_load(fixed, &b, err, sizeof err))) {
        mos_blur_desc la = { 0 }, lb = { 0 }, l0 = { 0 };
        CHECK_OK(scene_lens(a, &(scene_draw_opts){ .width = W, .height = H, .time = 4.5 }, &la));  /* mid: 5 */
        CHECK_OK(scene_lens(b, &(scene_draw_opts){ .width = W, .height = H }, &lb));
        CHECK_OK(scene_lens(a, &(scene_draw_opts){ .width = W, .height = H }, &l0));
        CHECK_MSG(fabsf(la.focus_w - lb.focus_w) < 1e-4f && fabsf(la.lens_x - lb.lens_x) < 1e-6f,
                  "lens mid-shutter: focus_w %g, expected %g", la.focus_w, lb.focus_w);
        CHECK_MSG(fabsf(l0.focus_w - la.focus_w) > 1.0f, "lens at time 0 focuses as at 4.5 (%g)", l0.focus_w);
    }
    scene_free(a);
    scene_free(b);
}

/* ---- f: the path line's errors, hostile values ---------------------------------------------- */

/* Loading TEXT (as DIR/err.scene) fails with "PATH:WHERE: ..." containing WANT. */
static void check_error(const char *text, const char *where, const char *want)
{
    char path[128], err[1024], prefix[200];
    write_scene("err.scene", text, path);
    scene *s = NULL;
    mos_result r = scene_load(path, &s, err, sizeof err);
    snprintf(prefix, sizeof prefix, "%s:%s: ", path, where);
    CHECK_MSG(r == MOS_ERR_PARSE, "%s: loaded (%s), expected an error", want, check_res_name_(r));
    CHECK_MSG(!strncmp(err, prefix, strlen(prefix)) && strstr(err, want), "error '%s', expected '%s%s'", err, prefix,
              want);
    scene_free(s);
}

static void test_path_errors(void)
{
    check_error("camera c\n  path 5 0 1 5 0 0 0\n  path 3 0 1 5 0 0 0\nend\n", "3:8",
                "path time 3 is not after the previous key's (5): keys go in increasing time");
    check_error("camera c\n  path 5 0 1 5 0 0 0\n  path 5 0 1 6 0 0 0\nend\n", "3:8", "path time 5 is not after");
    check_error("camera c\n  path 0 0 1 x 0 0 0\nend\n", "2:14", "expected a number, got 'x'");
    check_error("camera c\n  path 0 1 2 3\nend\n", "2:3", "'path' needs a time");
    check_error("camera c\n  path\nend\n", "2:3", "'path' needs a time");
    check_error("camera c\n  path 0 0 1 5 0 0 0 9\nend\n", "2:22", "unexpected '9' after path");
    check_error("camera c\n  path -1 0 1 5 0 0 0\nend\n", "2:8", "path time must not be negative");
    check_error("camera c\n  path nan 0 1 5 0 0 0\nend\n", "2:8", "number 'nan' is out of range");
    check_error("camera c\n  path inf 0 1 5 0 0 0\nend\n", "2:8", "number 'inf' is out of range");
    check_error("camera c\n  path 0 1e39 1 5 0 0 0\nend\n", "2:10", "number '1e39' is out of range");
    check_error("camera c\n  path 0 1 1 1 1 1 1\nend\n", "2:16", "path key: eye and target coincide");
    check_error("camera c\n  path 0 0 1 5 0 0 0\n  path 4 0 5 0 0 0 0\nend\n", "4:1",
                "camera 'c' (line 1): path key at time 4: up is parallel to the view direction");
    check_error("camera c\n  pathh 0 0 1 5 0 0 0\nend\n", "2:3", "shutter, path or end)");
    check_error("camera c\n  path 0 0 1 5 0 0 0\n", "3:1", "end of file inside the 'camera' block");
    check_error("path 0 0 1 5 0 0 0\n", "1:1", "unknown keyword 'path'");

    /* 4096 keys are allowed (and interpolated), one more is not. */
    size_t cap = 64 * 4200;
    char *text = malloc(cap);
    if (!text)
        abort();
    int n = snprintf(text, cap, "camera c\n");
    for (int i = 0; i < 4096; i++)
        n += snprintf(text + n, cap - (size_t)n, "  path %d %d 1 9 0 0 0\n", i, i % 7);
    char path[128], err[512];
    snprintf(text + n, cap - (size_t)n, "end\nobject o\n  box 1 1 1\nend\n");
    write_scene("keys.scene", text, path);
    scene *s = NULL;
    if (CHECK_OK_B(scene_load(path, &s, err, sizeof err))) {
        uint8_t *img = render(path, (scene_draw_opts){ .time = 2049.5 }, 1);
        CHECK(img != NULL);
        free(img);
    } else {
        fprintf(stderr, "  %s\n", err);
    }
    scene_free(s);
    snprintf(text + n, cap - (size_t)n, "  path 5000 0 1 9 0 0 0\nend\n");
    check_error(text, "4098:3", "too many path keys in camera 'c' (at most 4096)");
    free(text);
}

/* Eye and target lines beside a path: the path wins, with one warning. */
static void test_path_warning(void)
{
    static const char *const texts[2] = {
        "camera c\n  eye 0 1 9\n  path 0 0 1 5 0 0 0\n  target 0 0 -1\nend\n",
        "camera c\n  path 0 0 1 5 0 0 0\n  target 0 0 -1\n  eye 0 1 9\nend\n",
    };
    static const char *const want[2] = {
        ":3:3: warning: camera 'c': eye and target (line 2) are ignored: the camera follows its path (line 3)",
        ":3:3: warning: camera 'c': eye and target (line 3) are ignored: the camera follows its path (line 2)",
    };
    for (int i = 0; i < 2; i++) {
        char path[128], err[512];
        write_scene("warn.scene", texts[i], path);
        scene *s = NULL;
        scene_pose pose;
        if (!CHECK_OK_B(scene_load(path, &s, err, sizeof err)))
            continue;
        CHECK_EQ_INT(scene_warning_count(s), 1);
        const char *w = scene_warning(s, 0);
        CHECK_MSG(w && strstr(w, want[i]), "warning '%s', expected '...%s'", w ? w : "(none)", want[i]);
        if (CHECK_OK_B(scene_view_pose(s, 0, &pose)))
            CHECK_MSG(pose.eye[2] == 5.0f && pose.target[2] == 0.0f, "the path does not win: eye z %g, target z %g",
                      pose.eye[2], pose.target[2]);
        scene_free(s);
    }
}

/* Huge and degenerate values draw (or cull) without a crash. */
static void test_hostile_time(void)
{
    char path[128];
    write_scene("hostile.scene",
                "camera c\n  shutter 0 1\n  path 0 1e18 1 5 -1e18 0 0\n  path 1e30 -1e18 1 5 1e18 0 1\nend\n"
                "object grow\n  sphere 1 8 4\n  motion scale 1e30\n  velocity 3e38 0 0\nend\n"
                "object shrink\n  box 1 1 1\n  scale 1e-30\n  motion scale 1e-30\nend\n"
                "object spin\n  torus 1 0.2 8 4\n  translate 3e38 0 0\n  motion rotate 90 1 1 0\n"
                "  motion translate -3e38 0 0\n  array 2 2 1 3e38 -3e38 0\nend\n",
                path);
    static const double times[] = { 0, 0.5, 1, 1.5, 7, 1e6 + 0.25, 1e15, 1e300, INFINITY, -1e300, NAN };
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        uint8_t *img = render(path, (scene_draw_opts){ .time = times[i] }, 4);
        CHECK_MSG(img != NULL, "hostile scene at time %g", times[i]);
        free(img);
    }
}

int main(void)
{
    if (!tu_tmpdir(dir, sizeof dir, "scene-time")) return 1;
    TEST_RUN(test_time_zero);
    TEST_RUN(test_time_exported);
    TEST_RUN(test_velocity);
    TEST_RUN(test_motion_rotate);
    TEST_RUN(test_camera_path);
    TEST_RUN(test_camera_blur);
    TEST_RUN(test_camera_lens);
    TEST_RUN(test_path_errors);
    TEST_RUN(test_path_warning);
    TEST_RUN(test_hostile_time);
    tu_rmtree(dir);
    return TEST_EXIT();
}
