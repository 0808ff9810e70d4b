/* parse_object.c — an `object` block: its geometry (a primitive, a mesh file or a map), where it is
 * (transforms, motion, fit, arrays) and its `end`, which builds a primitive and appends the object.
 * Fed by parse.c with the block's statements; its look is parse_material.c's, a mesh file's end
 * parse_mesh.c's and a map's parse_bsp.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/parse_priv.h"

/* `object [NAME]`: an object block begins, with the defaults. */
int parse_object_begin(parser *p, const token *t, int n)
{
    scene *s = p->s;
    if (parse_nargs(p, t, n, 0, 1, "an optional name"))
        return -1;
    pending_object *po = &p->po;
    memset(po, 0, sizeof *po);
    scene_object *o = &po->obj;
    if (n == 2 && parse_name(p, &t[1], o->name))
        return -1;
    if (n == 1)
        snprintf(o->name, sizeof o->name, "object%d", s->object_count);
    o->texture = o->lightmap = -1;
    o->shader = SCENE_SHADER_LAMBERT;
    o->color[0] = o->color[1] = o->color[2] = 0.8f;
    o->color[3] = 1.0f;
    scene_mat4_identity(o->xform);
    scene_mat4_identity(o->xform1);
    o->array_n[0] = o->array_n[1] = o->array_n[2] = 1;
    po->uv[0] = po->uv[1] = 1.0f;
    po->patch_level = SCENE_BSP_PATCH_LEVEL;
    po->views_max = -1;
    po->bsp_textures = true;
    p->block = BLOCK_OBJECT;
    p->block_line = p->line;
    return 0;
}

/* ---- geometry ------------------------------------------------------------------ */

/* The optional pair of segment counts at t[at], t[at + 1] (`pair` names
 * them), at least lo0 and lo1: both or neither. */
static int segment_pair(parser *p, const token *t, int n, int at, int lo0, int lo1, const char *pair, int *seg)
{
    if (n == at + 1)
        return parse_err(p, t[at].col, "give both %s", pair);
    if (n == at + 2 && (parse_int(p, &t[at], lo0, SCENE_MAX_SEGMENTS, &seg[0]) ||
                        parse_int(p, &t[at + 1], lo1, SCENE_MAX_SEGMENTS, &seg[1])))
        return -1;
    return 0;
}

static int geom_stmt(parser *p, const token *t, int n, enum geom_kind kind)
{
    pending_object *po = &p->po;
    if (po->geom != GEOM_NONE)
        return parse_err(p, t[0].col, "object '%s' already has geometry (line %d)", po->obj.name, po->geom_line);
    po->geom = kind;
    po->geom_line = p->line;
    po->geom_col = t[0].col;
    uint64_t tris = 0;
    switch (kind) {
    case GEOM_PLANE:
        po->gi[0] = po->gi[1] = 1;
        if (parse_nargs(p, t, n, 2, 4, "width depth [segments_x segments_z]") ||
            parse_positive(p, &t[1], &po->gf[0]) || parse_positive(p, &t[2], &po->gf[1]) ||
            segment_pair(p, t, n, 3, 1, 1, "segments_x and segments_z", po->gi))
            return -1;
        tris = scene_prim_plane_tris(po->gi[0], po->gi[1]);
        break;
    case GEOM_SPHERE:
        po->gi[0] = 32, po->gi[1] = 16;
        if (parse_nargs(p, t, n, 1, 3, "radius [segments_lon segments_lat]") || parse_positive(p, &t[1], &po->gf[0]) ||
            segment_pair(p, t, n, 2, 3, 2, "segments_lon and segments_lat", po->gi))
            return -1;
        tris = scene_prim_sphere_tris(po->gi[0], po->gi[1]);
        break;
    case GEOM_BOX:
        po->gi[0] = 1;
        if (parse_nargs(p, t, n, 3, 4, "size_x size_y size_z [segments]") ||
            parse_positive(p, &t[1], &po->gf[0]) || parse_positive(p, &t[2], &po->gf[1]) ||
            parse_positive(p, &t[3], &po->gf[2]))
            return -1;
        if (n == 5 && parse_int(p, &t[4], 1, SCENE_MAX_SEGMENTS, &po->gi[0]))
            return -1;
        tris = scene_prim_box_tris(po->gi[0]);
        break;
    case GEOM_TORUS:
        po->gi[0] = 48, po->gi[1] = 24;
        if (parse_nargs(p, t, n, 2, 4, "major_radius minor_radius [segments_major segments_minor]") ||
            parse_positive(p, &t[1], &po->gf[0]) || parse_positive(p, &t[2], &po->gf[1]) ||
            segment_pair(p, t, n, 3, 3, 3, "segments_major and segments_minor", po->gi))
            return -1;
        tris = scene_prim_torus_tris(po->gi[0], po->gi[1]);
        break;
    case GEOM_MESH:
        if (parse_nargs(p, t, n, 1, 1, "a file path"))
            return -1;
        po->path_col = t[1].col;
        if (parse_path(p, &t[1], &po->mesh_path))
            return -1;
        break;
    case GEOM_BSP:
        if (parse_nargs(p, t, n, 1, 2, "a .pk3 path and the map in it (maps/NAME.bsp), or a .bsp path"))
            return -1;
        po->path_col = t[1].col;
        if (parse_path(p, &t[1], &po->mesh_path))
            return -1;
        if (n == 3) {
            po->entry_col = t[2].col;
            if (!(po->bsp_entry = strdup(t[2].s)))
                return parse_oom(p, t[2].col);
        }
        break;
    case GEOM_NONE:
        break;
    }
    if (tris > SCENE_MAX_PRIM_TRIANGLES)
        return parse_err(p, t[0].col, "%s has %llu triangles; at most %u are allowed per primitive",
                         t[0].s, (unsigned long long)tris, SCENE_MAX_PRIM_TRIANGLES);
    /* Before building it: the instances given so far (object_end counts them all). */
    const int *an = po->obj.array_n;
    return parse_over_budget(p, t[0].col, po->obj.name, tris * (uint64_t)an[0] * (uint64_t)an[1] * (uint64_t)an[2]);
}

/* An object's geometry: a primitive, a mesh or a map, and a map's options.
 * KW_NOT_MINE when t[0] is another keyword. */
static int object_geometry(parser *p, const token *t, int n)
{
    pending_object *po = &p->po;
    const char *kw = t[0].s;
    if (!strcmp(kw, "plane"))
        return geom_stmt(p, t, n, GEOM_PLANE);
    if (!strcmp(kw, "sphere"))
        return geom_stmt(p, t, n, GEOM_SPHERE);
    if (!strcmp(kw, "box"))
        return geom_stmt(p, t, n, GEOM_BOX);
    if (!strcmp(kw, "torus"))
        return geom_stmt(p, t, n, GEOM_TORUS);
    if (!strcmp(kw, "mesh"))
        return geom_stmt(p, t, n, GEOM_MESH);
    if (!strcmp(kw, "bsp"))
        return geom_stmt(p, t, n, GEOM_BSP);
    if (!strcmp(kw, "two_sided")) {  /* as asset pipelines model a two-sided card */
        if (parse_nargs(p, t, n, 0, 0, "no arguments")) return -1;
        po->two_sided_line = p->line;
        return 0;
    }
    if (!strcmp(kw, "patch_level")) {
        if (parse_nargs(p, t, n, 1, 1, "quads per Bezier patch side") ||
            parse_int(p, &t[1], 1, SCENE_BSP_MAX_PATCH_LEVEL, &po->patch_level))
            return -1;
        po->patch_line = p->line;
        return 0;
    }
    if (!strcmp(kw, "textures")) {
        const int m = parse_one_word(p, t, n, "on or off", "textures value", parse_on_off);
        if (m < 0)
            return -1;
        po->bsp_textures = m == 0;
        po->textures_line = p->line;
        return 0;
    }
    if (!strcmp(kw, "views")) {
        po->views_max = SCENE_BSP_SPAWN_VIEWS;
        if (parse_nargs(p, t, n, 0, 1, "an optional number of spawn-point views") ||
            (n == 2 && parse_int(p, &t[1], 0, SCENE_BSP_MAX_SPAWNS, &po->views_max)))
            return -1;
        po->views_line = p->line;
        po->views_col = t[0].col;
        return 0;
    }
    return KW_NOT_MINE;
}

/* ---- placement ----------------------------------------------------------------- */

/* translate / rotate / scale as a matrix T; the caller composes M = T * M. */
static int transform_stmt(parser *p, const token *t, int n, float out[16])
{
    float a[4] = { 0, 0, 0, 0 };
    if (strcmp(t[0].s, "translate") == 0) {
        if (parse_nargs(p, t, n, 3, 3, "x y z") || parse_nums(p, t + 1, 3, a))
            return -1;
        scene_mat4_translate(out, a[0], a[1], a[2]);
    } else if (strcmp(t[0].s, "rotate") == 0) {
        if (parse_nargs(p, t, n, 4, 4, "degrees and an axis x y z") || parse_nums(p, t + 1, 4, a))
            return -1;
        if (a[1] == 0.0f && a[2] == 0.0f && a[3] == 0.0f)
            return parse_err(p, t[2].col, "rotation axis is zero");
        scene_mat4_rotate(out, a[0], a[1], a[2], a[3]);
    } else {  /* scale */
        if (parse_nargs(p, t, n, 1, 3, "one factor or x y z"))
            return -1;
        if (n == 3)
            return parse_err(p, t[0].col, "'scale' takes one factor or three");
        if (parse_nums(p, t + 1, n - 1, a))
            return -1;
        if (n == 2)
            a[1] = a[2] = a[0];
        for (int i = 0; i < 3; i++)
            if (a[i] == 0.0f)
                return parse_err(p, t[n == 2 ? 1 : 1 + i].col, "scale factor is zero");
        scene_mat4_scale(out, a[0], a[1], a[2]);
    }
    return 0;
}

static void compose(float m[16], const float t[16])
{
    float r[16];
    scene_mat4_mul(r, t, m);
    memcpy(m, r, sizeof r);
}

static bool is_transform(const char *kw)
{
    return !strcmp(kw, "translate") || !strcmp(kw, "rotate") || !strcmp(kw, "scale");
}

/* Where an object is: its transforms, its motion over the shutter, its fit
 * and its array of instances.  KW_NOT_MINE when t[0] is another keyword. */
static int object_placement(parser *p, const token *t, int n)
{
    pending_object *po = &p->po;
    scene_object *o = &po->obj;
    const char *kw = t[0].s;
    if (is_transform(kw)) {
        float m[16];
        if (transform_stmt(p, t, n, m))
            return -1;
        compose(o->xform, m);
        return 0;
    }
    if (!strcmp(kw, "motion")) {
        float m[16];
        if (n < 2 || !is_transform(t[1].s))
            return parse_err(p, n < 2 ? t[0].col : t[1].col, "'motion' needs translate, rotate or scale");
        if (transform_stmt(p, t + 1, n - 1, m))
            return -1;
        compose(o->xform1, m);
        o->has_motion = true;
        return 0;
    }
    if (!strcmp(kw, "velocity"))
        return parse_nargs(p, t, n, 3, 3, "x y z (world units per frame)") || parse_nums(p, t + 1, 3, o->velocity) ? -1 : 0;
    if (!strcmp(kw, "fit")) {
        if (parse_nargs(p, t, n, 1, 2, "a size [center|base]") || parse_positive(p, &t[1], &po->fit))
            return -1;
        po->fit_base = false;
        if (n == 3) {
            if (!strcmp(t[2].s, "base"))
                po->fit_base = true;
            else if (strcmp(t[2].s, "center") && strcmp(t[2].s, "centre"))
                return parse_err(p, t[2].col, "unknown fit anchor '%s' (expected center or base)", t[2].s);
        }
        return 0;
    }
    if (!strcmp(kw, "array")) {
        float d[3];
        if (parse_nargs(p, t, n, 6, 6, "counts nx ny nz and steps dx dy dz") ||
            parse_int(p, &t[1], 1, SCENE_MAX_INSTANCES, &o->array_n[0]) ||
            parse_int(p, &t[2], 1, SCENE_MAX_INSTANCES, &o->array_n[1]) ||
            parse_int(p, &t[3], 1, SCENE_MAX_INSTANCES, &o->array_n[2]) || parse_nums(p, t + 4, 3, d))
            return -1;
        if ((uint64_t)o->array_n[0] * (uint64_t)o->array_n[1] * (uint64_t)o->array_n[2] > SCENE_MAX_INSTANCES)
            return parse_err(p, t[1].col, "array has more than %d instances", SCENE_MAX_INSTANCES);
        memcpy(o->array_d, d, sizeof d);
        return 0;
    }
    return KW_NOT_MINE;
}

/* ---- end ----------------------------------------------------------------------- */

/* 0 when TRIS more triangles per frame (object NAME) fit the scene's budget. */
int parse_over_budget(parser *p, int col, const char *name, uint64_t tris)
{
    uint64_t max = p->opts->max_triangles;  /* total_tris <= max */
    if (tris <= max - p->total_tris)
        return 0;
    return parse_err(p, col, "object '%s' brings the scene to %llu triangles per frame; at most %llu are allowed",
                     name, (unsigned long long)(p->total_tris + tris), (unsigned long long)max);
}

/* What every object gets once its look is known: blending from its colour
 * unless the scene chose (alpha below 1 blends "over"), no depth writes when
 * blended unless the scene chose, and its mesh's centre (blended objects are
 * drawn far to near by it). */
void parse_finish_object(const pending_object *po, scene_object *o, const scene_mesh *m)
{
    if (!po->blend_given && o->blend == MOS_BLEND_OPAQUE && o->color[3] < 1.0f)  /* a material or map may have chosen */
        o->blend = MOS_BLEND_ALPHA;
    if (!po->depth_write_given)
        o->depth_write = o->blend == MOS_BLEND_OPAQUE;
    scene_mesh_center(m, o->center);
    if (!o->has_motion)
        memcpy(o->xform1, o->xform, sizeof o->xform);
}

/* Appends O with mesh M (taken) to the scene; -1 when out of memory (M freed). */
int parse_append_object(parser *p, int col, scene_object *o, scene_mesh *m)
{
    scene *s = p->s;
    void *gm = parse_grow(s->meshes, s->mesh_count, sizeof *s->meshes);
    if (gm)
        s->meshes = gm;
    void *go = gm ? parse_grow(s->objects, s->object_count, sizeof *s->objects) : NULL;
    if (!go) {
        scene_mesh_free(m);
        return parse_oom(p, col);
    }
    s->objects = go;
    o->mesh = s->mesh_count;
    s->meshes[s->mesh_count++] = *m;
    memset(m, 0, sizeof *m);
    s->objects[s->object_count++] = *o;
    return 0;
}

/* Builds the geometry, checks the object and appends it. */
static int object_end(parser *p, const token *t, int n)
{
    pending_object *po = &p->po;
    scene_object *o = &po->obj;
    if (parse_nargs(p, t, n, 0, 0, "nothing"))
        return -1;
    if (po->geom == GEOM_NONE)
        return parse_err(p, t[0].col, "object '%s' (line %d) has no geometry (plane, sphere, box, torus, mesh or bsp)",
                         o->name, p->block_line);
    if (po->texture_given && !po->shader_given)
        o->shader = SCENE_SHADER_TEXTURED;  /* a texture line textures the object */
    if (po->texture_given && !scene_shader_samples(p->s, o->shader)) {
        int save = p->line;
        p->line = po->texture_line;
        int w = parse_warn(p, po->texture_col, "object '%s': the texture is not drawn: shader %s does not sample textures",
                           o->name, scene_shader_name(p->s, o->shader));
        p->line = save;
        if (w)
            return -1;
    }
    if (o->shader == SCENE_SHADER_TEXTURED && o->texture < 0 && po->geom != GEOM_MESH)
        return parse_err(p, t[0].col, "object '%s' (line %d) uses shader textured but has no 'texture'",
                         o->name, p->block_line);
    if (!po->cull_given)
        o->cull = po->geom == GEOM_SPHERE || po->geom == GEOM_BOX || po->geom == GEOM_TORUS || po->geom == GEOM_BSP
                      ? MOS_CULL_BACK : MOS_CULL_NONE;
    if (po->geom != GEOM_BSP && (po->patch_line || po->views_line || po->textures_line)) {
        const int line = po->patch_line ? po->patch_line : po->views_line ? po->views_line : po->textures_line;
        return parse_err(p, t[0].col, "object '%s': '%s' (line %d) applies to bsp maps only", o->name,
                         po->patch_line ? "patch_level" : po->views_line ? "views" : "textures", line);
    }
    if (po->geom != GEOM_MESH && po->two_sided_line)
        return parse_err(p, t[0].col, "object '%s': 'two_sided' (line %d) applies to mesh objects only", o->name,
                         po->two_sided_line);
    if (po->geom == GEOM_BSP)
        return parse_bsp_end(p, t[0].col);
    if (po->geom == GEOM_MESH)
        return parse_mesh_end(p, t[0].col);

    scene_mesh m;
    int rc = 0;
    int save_line = p->line;
    switch (po->geom) {
    case GEOM_PLANE: rc = scene_prim_plane(&m, po->gf[0], po->gf[1], po->gi[0], po->gi[1]); break;
    case GEOM_SPHERE: rc = scene_prim_sphere(&m, po->gf[0], po->gi[0], po->gi[1]); break;
    case GEOM_BOX: rc = scene_prim_box(&m, po->gf[0], po->gf[1], po->gf[2], po->gi[0]); break;
    case GEOM_TORUS: rc = scene_prim_torus(&m, po->gf[0], po->gf[1], po->gi[0], po->gi[1]); break;
    case GEOM_MESH:
    case GEOM_BSP:
    case GEOM_NONE: break;
    }
    if (rc) {
        p->line = po->geom_line;
        parse_oom(p, po->geom_col);
        p->line = save_line;
        return -1;
    }
    if (po->fit > 0.0f)
        scene_mesh_fit(&m, 1, po->fit, po->fit_base);
    if (po->uv[0] != 1.0f || po->uv[1] != 1.0f)
        scene_mesh_uv_scale(&m, po->uv[0], po->uv[1]);

    uint64_t inst = (uint64_t)o->array_n[0] * (uint64_t)o->array_n[1] * (uint64_t)o->array_n[2];
    uint64_t tris = (uint64_t)(m.index_count / 3) * inst;
    if (parse_over_budget(p, t[0].col, o->name, tris)) {
        scene_mesh_free(&m);
        return -1;
    }
    if (parse_apply_sampling(p, t[0].col, o, NULL)) {
        scene_mesh_free(&m);
        return -1;
    }
    parse_finish_object(po, o, &m);
    if (parse_append_object(p, t[0].col, o, &m))
        return -1;
    p->total_tris += tris;
    free(po->mesh_path);
    po->mesh_path = NULL;
    p->block = BLOCK_TOP;
    return 0;
}

/* One statement of an object block. */
int parse_object_stmt(parser *p, const token *t, int n)
{
    int r;
    if (!strcmp(t[0].s, "end"))
        return object_end(p, t, n);
    if ((r = object_geometry(p, t, n)) != KW_NOT_MINE || (r = object_placement(p, t, n)) != KW_NOT_MINE ||
        (r = parse_object_material(p, t, n)) != KW_NOT_MINE)
        return r;
    const char *kw = t[0].s;
    return parse_err(p, t[0].col,
                     "unknown object keyword '%.40s' (expected plane, sphere, box, torus, mesh, bsp, two_sided, fit, uv_scale, shader, "
                     "color, texture, wrap, mip, blend, depth_write, alpha_cutoff, translate, rotate, scale, cull, array, motion, "
                     "velocity, patch_level, views, textures or end)", kw);
}
