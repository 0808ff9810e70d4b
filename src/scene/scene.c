/* scene.c — scene_load / scene_free and the read-only queries on a loaded scene.
 * Fed by the CLI and tools with a path; runs parse.c and fills defaults (lights, a framing camera). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glsl/glsl.h"
#include "scene/scene_priv.h"

/* World-space bounds of every instance of every object (at t = 0). */
static int scene_bounds(const scene *s, float lo[3], float hi[3])
{
    int any = 0;
    for (int oi = 0; oi < s->object_count; oi++) {
        const scene_object *o = &s->objects[oi];
        const scene_mesh *m = &s->meshes[o->mesh];
        float ml[3] = { 0 }, mh[3] = { 0 };
        for (uint32_t i = 0; i < m->vert_count; i++) {
            float w[3];
            const float *v = m->verts + (size_t)i * scene_mesh_stride(m);
            for (int r = 0; r < 3; r++)
                w[r] = o->xform[r] * v[0] + o->xform[4 + r] * v[1] + o->xform[8 + r] * v[2] + o->xform[12 + r];
            for (int r = 0; r < 3; r++) {
                ml[r] = i == 0 || w[r] < ml[r] ? w[r] : ml[r];
                mh[r] = i == 0 || w[r] > mh[r] ? w[r] : mh[r];
            }
        }
        if (m->vert_count == 0)
            continue;
        for (int r = 0; r < 3; r++) {
            float span = (float)(o->array_n[r] - 1) * o->array_d[r];
            float a = ml[r] + (span < 0 ? span : 0), b = mh[r] + (span > 0 ? span : 0);
            lo[r] = !any || a < lo[r] ? a : lo[r];
            hi[r] = !any || b > hi[r] ? b : hi[r];
        }
        any = 1;
    }
    return any;
}

static int add_default_camera(scene *s)
{
    float lo[3] = { -1, -1, -1 }, hi[3] = { 1, 1, 1 };
    scene_bounds(s, lo, hi);
    float c[3], r2 = 0;
    for (int i = 0; i < 3; i++) {
        c[i] = 0.5f * (lo[i] + hi[i]);
        r2 += 0.25f * (hi[i] - lo[i]) * (hi[i] - lo[i]);
    }
    float r = sqrtf(r2) > 1e-6f ? sqrtf(r2) : 1.0f;
    scene_camera cam = {
        .name = "default", .up = { 0, 1, 0 }, .fov_y_deg = 45, .shutter = { 0, 1 },
    };
    /* Bounding sphere in view: distance r / sin(fov / 2), from the front and a little above. */
    float d = r / sinf(22.5f * 3.14159265f / 180.0f);
    float dir[3] = { 0, 0.35f, 1 }, dl = sqrtf(1 + 0.35f * 0.35f);
    for (int i = 0; i < 3; i++) {
        cam.target[i] = c[i];
        cam.eye[i] = c[i] + dir[i] / dl * d;
    }
    cam.near_z = d - r > d * 0.01f ? (d - r) * 0.5f : d * 0.01f;
    cam.far_z = (d + r) * 1.5f;
    s->cameras = malloc(sizeof *s->cameras);
    if (!s->cameras)
        return -1;
    s->cameras[0] = cam;
    s->camera_count = 1;
    return 0;
}

mos_result scene_load(const char *path, scene **out, char *err, size_t err_size)
{
    return scene_load_ex(path, NULL, out, err, err_size);
}

/* The GLSL versions of the built-ins in DIR draw instead of the native ones
 * (NAME.frag with builtin.vert; lightmapped.frag with lightmapped.vert, where
 * DIR has them: a folder of the three others keeps the native lightmapped). */
static mos_result load_glsl_builtins(scene *s, const char *dir, char *err, size_t err_size)
{
    char vert[4096], frag[4096];
    for (int i = 0; i < SCENE_SHADER_COUNT; i++) {
        const char *name = scene_builtin_names[i];
        snprintf(vert, sizeof vert, "%s/%s.vert", dir, i == SCENE_SHADER_LIGHTMAPPED ? name : "builtin");
        snprintf(frag, sizeof frag, "%s/%s.frag", dir, name);
        if (i == SCENE_SHADER_LIGHTMAPPED && access(frag, F_OK) != 0)
            continue;
        const mos_result rc = scene_glsl_add(s, frag, vert, NULL, &s->builtin_glsl[i], err, err_size);
        if (rc != MOS_OK)
            return rc;
    }
    return MOS_OK;
}

mos_result scene_load_ex(const char *path, const scene_load_opts *opts, scene **out, char *err, size_t err_size)
{
    *out = NULL;
    if (err_size)
        err[0] = '\0';
    /* What the parser gets: the sandbox folder canonical, the budget set. */
    scene_load_opts lim = {
        .max_triangles = opts && opts->max_triangles && opts->max_triangles < SCENE_MAX_TRIANGLES
                             ? opts->max_triangles : SCENE_MAX_TRIANGLES,
        .max_texture_bytes = opts && opts->max_texture_bytes ? opts->max_texture_bytes : SCENE_MAX_TEXTURE_BYTES,
    };
    char *sandbox = NULL;
    if (opts && opts->sandbox_dir && !(lim.sandbox_dir = sandbox = realpath(opts->sandbox_dir, NULL))) {
        snprintf(err, err_size, "%s:1:1: sandbox folder '%s': %s", path, opts->sandbox_dir, strerror(errno));
        return MOS_ERR_IO;
    }
    /* Through the scene's door: a regular file (a FIFO is refused, not waited on). */
    int fd;
    char msg[512];
    mos_result opened = scene_file_open(NULL, path, 0, &fd, NULL, NULL, msg, sizeof msg);
    FILE *f = opened == MOS_OK ? fdopen(fd, "r") : NULL;
    if (!f) {
        if (opened == MOS_OK) {
            snprintf(msg, sizeof msg, "%s", strerror(errno));
            close(fd);
        }
        const char *why = strstr(msg, "': ");  /* "cannot open 'PATH': reason": the reason */
        snprintf(err, err_size, "%s:1:1: cannot open scene file: %s", path,
                 why && opened == MOS_ERR_IO ? why + 3 : msg);
        free(sandbox);
        return opened == MOS_OK ? MOS_ERR_IO : opened;
    }
    scene *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        fclose(f);
        free(s);
        free(sandbox);
        snprintf(err, err_size, "%s:1:1: out of memory", path);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    for (int i = 0; i < SCENE_SHADER_COUNT; i++)
        s->builtin_glsl[i] = -1;
    s->background[0] = 0.08f, s->background[1] = 0.09f, s->background[2] = 0.11f, s->background[3] = 1.0f;
    s->ambient[0] = s->ambient[1] = s->ambient[2] = 0.15f;
    glsl_hold();  /* glslang's tables once for all the scene's shaders */
    mos_result rc = scene_parse(s, path, f, &lim, err, err_size);
    fclose(f);
    free(sandbox);
    if (rc == MOS_OK && opts && opts->glsl_builtins)
        rc = load_glsl_builtins(s, opts->glsl_builtins, err, err_size);
    glsl_release();
    if (rc != MOS_OK) {
        scene_free(s);
        return rc;
    }
    if (s->light_count == 0) {
        /* No light line: one white key light from the upper front right. */
        const float d[3] = { 0.4f, 1.0f, 0.6f };
        float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (int i = 0; i < 3; i++) {
            s->lights[0].dir[i] = d[i] / len;
            s->lights[0].color[i] = 0.85f;
        }
        s->light_count = 1;
    }
    if (s->camera_count == 0 && add_default_camera(s)) {
        scene_free(s);
        snprintf(err, err_size, "%s:1:1: out of memory", path);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    *out = s;
    return MOS_OK;
}

void scene_free(scene *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->mesh_count; i++)
        scene_mesh_free(&s->meshes[i]);
    for (int i = 0; i < s->image_count; i++)
        scene_image_free(&s->images[i]);
    for (int i = 0; i < s->warning_count; i++)
        free(s->warnings[i]);
    for (int i = 0; i < s->camera_count; i++)
        free(s->cameras[i].path);
    scene_glsl_free(s);
    free(s->warnings);
    free(s->meshes);
    free(s->images);
    free(s->objects);
    free(s->cameras);
    free(s->path);
    free(s);
}

int scene_warning_count(const scene *s) { return s ? s->warning_count : 0; }

const char *scene_warning(const scene *s, int i) { return s && i >= 0 && i < s->warning_count ? s->warnings[i] : NULL; }

uint64_t scene_triangle_count(const scene *s)
{
    uint64_t n = 0;
    for (int i = 0; i < s->object_count; i++) {
        const scene_object *o = &s->objects[i];
        n += (uint64_t)(s->meshes[o->mesh].index_count / 3) * (uint64_t)o->array_n[0] *
             (uint64_t)o->array_n[1] * (uint64_t)o->array_n[2];
    }
    return n;
}

int scene_view_count(const scene *s) { return s->camera_count; }

const char *scene_view_name(const scene *s, int view)
{
    return view >= 0 && view < s->camera_count ? s->cameras[view].name : NULL;
}

mos_result scene_check_view(const scene *s, const char *path, int view, char *err, size_t err_size)
{
    if (view >= 0 && view < s->camera_count)
        return MOS_OK;
    int n = snprintf(err, err_size, "view %d does not exist: %s has %d view%s, 0..%d (", view, path,
                     s->camera_count, s->camera_count == 1 ? "" : "s", s->camera_count - 1);
    for (int i = 0; i < s->camera_count && n >= 0 && (size_t)n < err_size; i++)
        n += snprintf(err + n, err_size - (size_t)n, "%s%d %s", i ? ", " : "", i, s->cameras[i].name);
    if (n >= 0 && (size_t)n < err_size)
        snprintf(err + n, err_size - (size_t)n, ")");
    return MOS_ERR_INVALID_ARGUMENT;
}

int scene_find_view(const scene *s, const char *name)
{
    for (int i = 0; i < s->camera_count; i++)
        if (!strcmp(s->cameras[i].name, name))
            return i;
    return -1;
}

mos_result scene_view_pose(const scene *s, int view, scene_pose *out)
{
    if (!s || !out || view < 0 || view >= s->camera_count)
        return MOS_ERR_INVALID_ARGUMENT;
    const scene_camera *c = &s->cameras[view];
    scene_camera_pose_at(c, 0.0, out->eye, out->target);  /* a path's pose at scene time 0 */
    memcpy(out->up, c->up, sizeof out->up);
    out->fov_y_deg = c->fov_y_deg;
    out->near_z = c->near_z;
    out->far_z = c->far_z;
    return MOS_OK;
}

int scene_object_count(const scene *s) { return s->object_count; }
int scene_mesh_count(const scene *s) { return s->mesh_count; }

void scene_clear_color(const scene *s, float rgba[4])
{
    memcpy(rgba, s->background, 4 * sizeof(float));
}
