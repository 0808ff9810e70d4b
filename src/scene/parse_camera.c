/* parse_camera.c — a `camera` block: eye, target and up, or a path of keys over scene time; the lens and
 * the shutter.  Fed by parse.c with the block's statements; the camera joins the scene at `end`. */
#include <stdio.h>
#include <string.h>

#include "scene/parse_priv.h"

/* `camera [NAME]`: a camera block begins, with the defaults. */
int parse_camera_begin(parser *p, const token *t, int n)
{
    scene *s = p->s;
    if (parse_nargs(p, t, n, 0, 1, "an optional name"))
        return -1;
    scene_camera *c = &p->cam;
    *c = (scene_camera){
        .eye = { 0, 0, 5 }, .up = { 0, 1, 0 }, .fov_y_deg = 60, .near_z = 0.1f,
        .far_z = 1000, .shutter = { 0, 1 },
    };
    if (n == 2) {
        if (parse_name(p, &t[1], c->name))
            return -1;
        for (int i = 0; i < s->camera_count; i++)
            if (!strcmp(s->cameras[i].name, c->name))
                return parse_err(p, t[1].col, "a camera named '%s' already exists", c->name);
    } else {
        snprintf(c->name, sizeof c->name, "view%d", s->camera_count);
    }
    p->cam_pose_at = p->cam_path_at = (text_pos){ 0, 0 };
    p->block = BLOCK_CAMERA;
    p->block_line = p->line;
    return 0;
}

/* Squared distance from EYE to TARGET (0 when they coincide), the direction in D. */
static float view_dir(const float eye[3], const float target[3], float d[3])
{
    float len2 = 0;
    for (int i = 0; i < 3; i++)
        d[i] = target[i] - eye[i], len2 += d[i] * d[i];
    return len2;
}

/* What is wrong with a view from EYE to TARGET with UP, or NULL. */
static const char *pose_problem(const float eye[3], const float target[3], const float up[3])
{
    float d[3], cr[3];
    const float len2 = view_dir(eye, target, d);
    if (!(len2 > 0.0f))
        return "eye and target coincide";
    cr[0] = d[1] * up[2] - d[2] * up[1];
    cr[1] = d[2] * up[0] - d[0] * up[2];
    cr[2] = d[0] * up[1] - d[1] * up[0];
    if (!(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2] > 1e-12f * len2))
        return "up is parallel to the view direction";
    return NULL;
}

/* A camera with a path ignores its eye and target lines: one warning, told
 * at `end` but placed where the block first had both (the later of its first
 * eye or target statement and its first path statement). */
static int path_overrides(parser *p)
{
    const text_pos pose = p->cam_pose_at, path = p->cam_path_at;
    if (!pose.line || !path.line)
        return 0;
    const text_pos second = pose.line > path.line ? pose : path;
    const int line = p->line;
    p->line = second.line;
    const int rc = parse_warn(p, second.col,
                              "camera '%s': eye and target (line %d) are ignored: the camera follows its path (line %d)",
                              p->cam.name, pose.line, path.line);
    p->line = line;
    return rc;
}

/* `path TIME EX EY EZ TX TY TZ`: the eye and target at scene time TIME (frames), after the keys before it. */
static int path_stmt(parser *p, const token *t, int n)
{
    scene_camera *c = &p->cam;
    float a[7];
    if (parse_nargs(p, t, n, 7, 7, "a time (frames, >= 0), an eye x y z and a target x y z") || parse_nums(p, t + 1, 7, a))
        return -1;
    if (a[0] < 0.0f)
        return parse_err(p, t[1].col, "path time must not be negative");
    if (c->path_count > 0 && !(a[0] > c->path[c->path_count - 1].time))
        return parse_err(p, t[1].col, "path time %s is not after the previous key's (%g): keys go in increasing time",
                         t[1].s, c->path[c->path_count - 1].time);
    if (c->path_count == SCENE_MAX_PATH_KEYS)
        return parse_err(p, t[0].col, "too many path keys in camera '%s' (at most %d)", c->name, SCENE_MAX_PATH_KEYS);
    float d[3];
    if (!(view_dir(a + 1, a + 4, d) > 0.0f))  /* up is checked at `end`, once it is known */
        return parse_err(p, t[5].col, "path key: eye and target coincide");
    void *g = parse_grow(c->path, c->path_count, sizeof *c->path);
    if (!g)
        return parse_oom(p, t[0].col);
    c->path = g;
    scene_camera_key *k = &c->path[c->path_count++];
    k->time = a[0];
    memcpy(k->eye, a + 1, sizeof k->eye);
    memcpy(k->target, a + 4, sizeof k->target);
    if (!p->cam_path_at.line)
        p->cam_path_at = (text_pos){ p->line, t[0].col };
    return 0;
}

/* `end` of a camera block: the view checked (each path key's too) and added;
 * eye and target lines beside a path warned about. */
static int camera_end(parser *p, const token *t, int n)
{
    scene_camera *c = &p->cam;
    if (parse_nargs(p, t, n, 0, 0, "nothing"))
        return -1;
    if (c->path_count > 0) {  /* the pose at time 0 (the first key, held before it) */
        memcpy(c->eye, c->path[0].eye, sizeof c->eye);
        memcpy(c->target, c->path[0].target, sizeof c->target);
    }
    const char *why = c->path_count ? NULL : pose_problem(c->eye, c->target, c->up);
    char key[64] = "";
    for (int i = 0; i < c->path_count && !why; i++)
        if ((why = pose_problem(c->path[i].eye, c->path[i].target, c->up)) != NULL)
            snprintf(key, sizeof key, "path key at time %g: ", c->path[i].time);
    if (why)
        return parse_err(p, t[0].col, "camera '%s' (line %d): %s%s", c->name, p->block_line, key, why);
    if (!(c->far_z > c->near_z))
        return parse_err(p, t[0].col, "camera '%s' (line %d): far must be greater than near", c->name, p->block_line);
    if (path_overrides(p))
        return -1;
    scene *s = p->s;
    void *g = parse_grow(s->cameras, s->camera_count, sizeof *s->cameras);
    if (!g)
        return parse_oom(p, t[0].col);
    s->cameras = g;
    s->cameras[s->camera_count++] = *c;
    c->path = NULL;  /* the scene's now */
    c->path_count = 0;
    p->block = BLOCK_TOP;
    return 0;
}

int parse_camera_stmt(parser *p, const token *t, int n)
{
    scene_camera *c = &p->cam;
    const char *kw = t[0].s;
    if (!strcmp(kw, "eye") || !strcmp(kw, "target") || !strcmp(kw, "up")) {
        float *dst = kw[0] == 'e' ? c->eye : kw[0] == 't' ? c->target : c->up;
        if (parse_nargs(p, t, n, 3, 3, "x y z") || parse_nums(p, t + 1, 3, dst))
            return -1;
        if (kw[0] != 'u' && !p->cam_pose_at.line)
            p->cam_pose_at = (text_pos){ p->line, t[0].col };
        return 0;
    }
    if (!strcmp(kw, "path"))
        return path_stmt(p, t, n);
    if (!strcmp(kw, "fov")) {
        if (parse_nargs(p, t, n, 1, 1, "the vertical field of view in degrees") || parse_num(p, &t[1], &c->fov_y_deg))
            return -1;
        if (!(c->fov_y_deg > 0.0f && c->fov_y_deg < 180.0f))
            return parse_err(p, t[1].col, "fov must be between 0 and 180 degrees");
        return 0;
    }
    if (!strcmp(kw, "near"))
        return parse_nargs(p, t, n, 1, 1, "a distance") || parse_positive(p, &t[1], &c->near_z) ? -1 : 0;
    if (!strcmp(kw, "far"))
        return parse_nargs(p, t, n, 1, 1, "a distance") || parse_positive(p, &t[1], &c->far_z) ? -1 : 0;
    if (!strcmp(kw, "aperture") || !strcmp(kw, "focus")) {
        float *dst = kw[0] == 'a' ? &c->aperture : &c->focus_dist;
        if (parse_nargs(p, t, n, 1, 1, "a distance") || parse_num(p, &t[1], dst))
            return -1;
        if (*dst < 0.0f)
            return parse_err(p, t[1].col, "'%s' must not be negative", kw);
        return 0;
    }
    if (!strcmp(kw, "shutter")) {
        if (parse_nargs(p, t, n, 2, 2, "open and close times in 0..1") || parse_unit_range(p, t + 1, 2, c->shutter))
            return -1;
        if (c->shutter[1] < c->shutter[0])
            return parse_err(p, t[2].col, "shutter closes before it opens");
        return 0;
    }
    if (!strcmp(kw, "end"))
        return camera_end(p, t, n);
    return parse_err(p, t[0].col,
                     "unknown camera keyword '%.40s' (expected eye, target, up, fov, near, far, aperture, focus, shutter, "
                     "path or end)", kw);
}
