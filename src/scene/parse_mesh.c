/* parse_mesh.c — the `end` of an object with a `mesh` file: imported (import.c) in parts, each part's
 * material applied where the scene did not choose, alike parts joined into one object.  Fed by
 * parse_object.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/parse_priv.h"

/* The scene image of part I's texture: the file (sandboxed like the scene's
 * own paths) or the embedded image; a warning and the magenta stand-in when
 * it cannot be read.  -1 when out of memory. */
static int material_texture(parser *p, int col, const scene_import *im, int i)
{
    const scene_material *m = &im->materials[i];
    char msg[768] = "";
    if (m->embedded >= 0) {
        const scene_image *e = m->embedded < im->embedded_count ? &im->embedded[m->embedded] : NULL;
        if (e && e->rgba) {
            int k = parse_find_image(p->s, e->path);
            if (k >= 0)
                return k;
            scene_image copy = { .width = e->width, .height = e->height, .path = strdup(e->path),
                                 .rgba = malloc((size_t)e->width * (size_t)e->height * 4) };
            if (!copy.path || !copy.rgba) {
                scene_image_free(&copy);
                return parse_oom(p, col);
            }
            memcpy(copy.rgba, e->rgba, (size_t)e->width * (size_t)e->height * 4);
            return parse_add_image(p, col, &copy);
        }
        snprintf(msg, sizeof msg, "%s", e ? e->path : "no such embedded texture");
    } else {
        mos_result r = MOS_OK;
        char *path = strdup(m->texture);
        if (!path)
            return parse_oom(p, col);
        int k = parse_load_image(p, col, path, msg, sizeof msg, &r);  /* held to the sandbox there */
        if (k != -1)
            return k < 0 ? -1 : k;
    }
    if (parse_warn(p, col, "material '%s': texture not loaded (%s); drawn magenta", m->name, msg))
        return -1;
    return parse_missing_image(p, col);
}

/* Part I of a mesh file as an object: the scene object's settings, then what
 * its material says where the scene did not (colour, texture, alpha, sides). */
static int part_object(parser *p, int col, const scene_import *im, int i, scene_object *out)
{
    const pending_object *po = &p->po;
    const scene_material *m = &im->materials[i];
    scene_object o = po->obj;
    bool first = true;  /* warnings once per material, not per part */
    for (int j = 0; j < i && first; j++)
        first = strcmp(im->materials[j].name, m->name) != 0;
    if (m->named) {
        if (!po->color_given)
            memcpy(o.color, m->color, sizeof o.color);
        if (!po->cull_given && m->two_sided >= 0)
            o.cull = m->two_sided ? MOS_CULL_NONE : MOS_CULL_BACK;
        if (!po->alpha_given && m->alpha_mode == SCENE_ALPHA_MASK)
            o.alpha_cutoff = m->alpha_cutoff;
        if (m->alpha_mode == SCENE_ALPHA_BLEND && !po->color_given && o.color[3] >= 1.0f && !po->blend_given)
            o.blend = MOS_BLEND_ALPHA;  /* blended by its texture's alpha */
        if (first && m->ignored[0] && parse_warn(p, col, "material '%s': not rendered: %s", m->name, m->ignored))
            return -1;
    }
    if (!po->texture_given && (m->texture || m->embedded >= 0)) {
        if (po->shader_given && !scene_shader_samples(p->s, o.shader)) {
            if (first && parse_warn(p, col, "material '%s': its texture is not drawn: shader %s does not sample textures", m->name,
                      scene_shader_name(p->s, o.shader)))
                return -1;
        } else if ((o.texture = material_texture(p, col, im, i)) < 0) {
            return -1;
        } else if (!po->shader_given) {
            o.shader = SCENE_SHADER_TEXTURED;
        }
    }
    if (o.shader == SCENE_SHADER_TEXTURED && o.texture < 0) {
        if (first && parse_warn(p, col, "object '%s': material '%s' has no texture to draw with shader textured; drawn with lambert",
                  o.name, m->name))
            return -1;
        o.shader = SCENE_SHADER_LAMBERT;
    }
    if (parse_apply_sampling(p, col, &o, po->texture_given ? NULL : m->wrap))
        return -1;
    *out = o;
    return 0;
}

/* Whether two parts look alike (then they are drawn as one). */
static bool same_look(const scene_object *a, const scene_object *b)
{
    return a->texture == b->texture && a->shader == b->shader && !memcmp(a->color, b->color, sizeof a->color) &&
           a->cull == b->cull && a->blend == b->blend && a->alpha_cutoff == b->alpha_cutoff;
}

/* Imports a mesh file and appends one object per look: parts whose
 * materials end up drawn alike are joined (in file order), so a file with
 * one material, or whose materials the scene overrides, is one draw. */
int parse_mesh_end(parser *p, int end_col)
{
    pending_object *po = &p->po;
    const scene_object *o = &po->obj;
    int save_line = p->line;
    char msg[768];
    scene_import im;
    mos_result r = scene_import_mesh(po->mesh_path, p->opts->sandbox_dir, p->opts->max_triangles - p->total_tris, &im,
                                     msg, sizeof msg);
    if (r != MOS_OK) {
        p->code = r;
        p->line = po->geom_line;
        parse_err(p, po->path_col, "%s", msg);
        p->line = save_line;
        return -1;
    }
    if (po->fit > 0.0f)
        scene_mesh_fit(im.parts, im.part_count, po->fit, po->fit_base);
    uint64_t tris = 0;
    int rc = 0;
    for (int i = 0; i < im.part_count; i++) {
        if (po->uv[0] != 1.0f || po->uv[1] != 1.0f)
            scene_mesh_uv_scale(&im.parts[i], po->uv[0], po->uv[1]);
        if (po->two_sided_line && !rc && scene_mesh_two_sided(&im.parts[i]))
            rc = parse_oom(p, end_col);
        tris += im.parts[i].index_count / 3;
    }
    tris *= (uint64_t)o->array_n[0] * (uint64_t)o->array_n[1] * (uint64_t)o->array_n[2];
    if (!rc) rc = parse_over_budget(p, end_col, o->name, tris);
    /* Each part's look, then the groups of alike parts (group[i]: the part
     * that leads part i's group). */
    scene_object *looks = rc ? NULL : calloc((size_t)im.part_count, sizeof *looks);
    int *group = rc ? NULL : calloc((size_t)im.part_count, sizeof *group);
    if (!rc && (!looks || !group))
        rc = parse_oom(p, end_col);
    p->line = po->geom_line;
    for (int i = 0; !rc && i < im.part_count; i++)
        rc = part_object(p, po->path_col, &im, i, &looks[i]);
    p->line = save_line;
    int groups = 0;
    for (int i = 0; !rc && i < im.part_count; i++) {
        group[i] = i;
        for (int j = 0; j < i; j++)
            if (group[j] == j && same_look(&looks[j], &looks[i])) {
                group[i] = j;
                break;
            }
        groups += group[i] == i;
        if (group[i] != i && scene_mesh_append(&im.parts[group[i]], &im.parts[i]))
            rc = parse_oom(p, end_col);
    }
    for (int i = 0; !rc && i < im.part_count; i++) {
        if (group[i] != i)
            continue;
        scene_object obj = looks[i];
        const char *mat = im.materials[i].name[0] ? im.materials[i].name : "part";
        if (groups > 1) {  /* OBJECT:MATERIAL, cut to the name limit */
            size_t nl = strlen(obj.name);
            if (nl + 1 < SCENE_NAME_MAX)
                snprintf(obj.name + nl, SCENE_NAME_MAX - nl, ":%.*s", (int)(SCENE_NAME_MAX - 2 - nl), mat);
        }
        parse_finish_object(po, &obj, &im.parts[i]);
        rc = parse_append_object(p, end_col, &obj, &im.parts[i]);
    }
    if (!rc)
        p->total_tris += tris;
    free(looks);
    free(group);
    scene_import_free(&im);
    free(po->mesh_path);
    po->mesh_path = NULL;
    if (!rc)
        p->block = BLOCK_TOP;
    return rc;
}
