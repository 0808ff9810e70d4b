/* parse_bsp.c — the `end` of an object with a `bsp` map: one object per material, drawn as its shader
 * script says with its image from the game folder's archives (else tinted by name) and the map's
 * lightmaps, the sky box, and the map's views as cameras.  Fed by parse_object.c; asks bsp.c for the map,
 * pk3.c for the images, q3shader.c and bsp_look.c for the scripts, bsp_sky.c for the sky. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "image/image.h"
#include "scene/parse_priv.h"

/* A map material's name without the textures/ folder every one has. */
static const char *tex_name(const char *name) { return strncmp(name, "textures/", 9) ? name : name + 9; }

/* A pastel tint from the material name (FNV-1a hash -> hue), so a map's
 * surfaces are told apart without their textures. */
static void material_tint(const char *name, float rgb[3])
{
    uint32_t h = 2166136261u;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        h = (h ^ *c) * 16777619u;
    float hue = (float)(h % 360u) / 60.0f, sat = 0.30f, val = 0.80f + 0.20f * (float)((h >> 16) % 256u) / 255.0f;
    float f = hue - floorf(hue), q = val * (1 - sat * f), t = val * (1 - sat * (1 - f)), lo = val * (1 - sat);
    const float tab[6][3] = { { val, t, lo }, { q, val, lo }, { lo, val, t }, { lo, q, val }, { t, lo, val }, { val, lo, q } };
    memcpy(rgb, tab[(int)hue % 6], 3 * sizeof(float));
}

static void xform_point(const float m[16], const float v[3], float w, float out[3])
{
    for (int r = 0; r < 3; r++)
        out[r] = m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2] + m[12 + r] * w;
}

/* The map's views as cameras, through the object's transform. */
static int bsp_views(parser *p, const scene_bsp_map *map)
{
    pending_object *po = &p->po;
    const scene_object *o = &po->obj;
    scene *s = p->s;
    p->line = po->views_line;  /* scene_bsp_load fails on a map without views */
    const float *m = o->xform;
    float det = m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) +
                m[8] * (m[1] * m[6] - m[5] * m[2]);
    float scale = cbrtf(fabsf(det)), up[3] = { 0, 1, 0 };
    for (int i = 0; i < map->view_count; i++) {
        const scene_bsp_view *v = &map->views[i];
        if (scene_find_view(s, v->name) >= 0)
            return parse_err(p, po->views_col, "a camera named '%s' already exists (one map's views per scene)", v->name);
        scene_camera c = { .fov_y_deg = SCENE_BSP_FOV_Y, .near_z = SCENE_BSP_NEAR * scale,
                           .far_z = SCENE_BSP_FAR * scale, .shutter = { 0, 1 } };
        snprintf(c.name, sizeof c.name, "%s", v->name);
        xform_point(m, v->eye, 1, c.eye);
        xform_point(m, v->target, 1, c.target);
        xform_point(m, up, 0, c.up);
        void *g = parse_grow(s->cameras, s->camera_count, sizeof *s->cameras);
        if (!g)
            return parse_oom(p, po->views_col);
        s->cameras = g;
        s->cameras[s->camera_count++] = c;
    }
    return 0;
}

/* The game folder of a map: the folder of its .pk3, or of the maps/ folder
 * holding a bare .bsp (baseoa/maps/x.bsp -> baseoa); malloc'd, NULL when
 * out of memory. */
static char *game_folder(const char *path, bool in_pk3)
{
    char *f = strdup(path);
    if (!f)
        return NULL;
    char *slash = strrchr(f, '/');
    if (!slash) {
        f[0] = '\0';
        return f;
    }
    *slash = '\0';
    if (!in_pk3) {
        char *up = strrchr(f, '/');
        const char *last = up ? up + 1 : f;
        if (!strcasecmp(last, "maps")) {
            if (up)
                *up = '\0';
            else
                f[0] = '\0';
        }
    }
    return f;
}

/* The image of map material NAME from the game's archives: its name without
 * an extension plus .tga, else .jpg (then .jpeg, .png), the first the
 * archives hold, as Quake 3 looks them up.  The scene image index, -1 when
 * no archive holds a readable one, -2 when out of memory.  *alpha: the
 * image has transparent texels. */
static int bsp_texture(parser *p, int col, scene_pk3_set *pk3, const char *folder, const char *name, bool *alpha)
{
    char stem[80], key[4200];
    snprintf(stem, sizeof stem, "%s", name);
    char *dot = strrchr(stem, '.');
    if (dot && !strchr(dot, '/'))
        *dot = '\0';
    snprintf(key, sizeof key, "%s:%s", folder, stem);
    int idx = parse_find_image(p->s, key);
    if (idx < 0) {
        static const char *const ext[] = { ".tga", ".jpg", ".jpeg", ".png" };
        uint8_t *data = NULL;
        size_t size = 0;
        char entry[100];
        mos_result r = MOS_ERR_IO;
        for (size_t e = 0; e < sizeof ext / sizeof ext[0] && r == MOS_ERR_IO; e++) {
            snprintf(entry, sizeof entry, "%s%s", stem, ext[e]);
            r = scene_pk3_read(pk3, entry, IMG_MAX_FILE_BYTES, &data, &size);
        }
        if (r == MOS_ERR_OUT_OF_MEMORY)
            return parse_oom(p, col), -2;
        if (r != MOS_OK)
            return -1;
        img_rgba8 im;
        char msg[256];
        r = img_decode(data, size, entry, &im, msg, sizeof msg);
        free(data);
        if (r == MOS_ERR_OUT_OF_MEMORY)
            return parse_oom(p, col), -2;
        if (r != MOS_OK)
            return -1;
        scene_image img = { .width = im.width, .height = im.height, .rgba = im.pixels, .path = strdup(key) };
        if (!img.path) {
            scene_image_free(&img);
            return parse_oom(p, col), -2;
        }
        if ((idx = parse_add_image(p, col, &img)) < 0)
            return -2;
    }
    const scene_image *im = &p->s->images[idx];
    *alpha = false;
    for (size_t i = 0; i < (size_t)im->width * (size_t)im->height && !*alpha; i++)
        *alpha = im->rgba[4 * i + 3] < 255;
    return idx;
}

/* The map's lightmaps as a scene image (taking MAP's atlas): its index, -1 when the map has no light, -2
 * when out of memory or over the texture budget. */
static int bsp_light_image(parser *p, int col, scene_bsp_map *map)
{
    if (!map->light.rgba)
        return -1;
    char key[4200];
    snprintf(key, sizeof key, "%s:%s#lightmaps", p->po.mesh_path, p->po.bsp_entry ? p->po.bsp_entry : "");
    scene_image img = { .width = map->light.width, .height = map->light.height, .rgba = map->light.rgba,
                        .wrap = { MOS_WRAP_CLAMP_TO_EDGE, MOS_WRAP_CLAMP_TO_EDGE }, .path = strdup(key) };
    map->light.rgba = NULL;
    if (!img.path) {
        scene_image_free(&img);
        return parse_oom(p, col), -2;
    }
    const int idx = parse_add_image(p, col, &img);
    return idx >= 0 ? idx : -2;
}

/* What the materials of one map share while they become objects. */
typedef struct bsp_build {
    scene_pk3_set *pk3;          /* the game folder's archives, NULL with textures off */
    const char *folder;
    scene_q3_scripts *scripts;   /* their shader scripts, NULL with textures off */
    int light;                   /* the lightmaps' image, -1 = none */
    int untextured, skipped;
    char missing[160];           /* the first untextured materials */
    scene_bsp_tally tally;       /* what the scripts ask that is not drawn */
} bsp_build;

/* Gives OBJ (the object's copy for material MAT) its look: the image its script's first stage names (else
 * the one named like it) with that stage's blending, alpha test, sides and scale, times the map's light;
 * an image with transparent texels and no script is cut out or blended as the map's contents say.
 * 1: not drawn (nodraw, sky, a blend Mosaic lacks); -1: error. */
static int bsp_material(parser *p, int col, bsp_build *b, scene_bsp_material *mat, scene_object *obj)
{
    const pending_object *po = &p->po;
    const scene_q3_shader *sh = scene_q3_find(b->scripts, mat->name);
    scene_bsp_look look;
    scene_bsp_look_of(mat->name, sh, &look);
    scene_bsp_tally_shader(&b->tally, sh, &look);
    if (look.skip)
        return 1;
    if (look.tc_scale[0] != 1.0f || look.tc_scale[1] != 1.0f)
        scene_mesh_uv_scale(&mat->mesh, look.tc_scale[0], look.tc_scale[1]);
    bool alpha = false;
    const int tex = b->pk3 ? bsp_texture(p, col, b->pk3, b->folder, look.image, &alpha) : -1;
    if (tex == -2)
        return -1;
    if (tex >= 0) {
        obj->texture = tex;
        if (!po->shader_given)
            obj->shader = SCENE_SHADER_TEXTURED;
    } else {
        float tint[3];
        material_tint(mat->name, tint);
        for (int k = 0; k < 3; k++)
            obj->color[k] *= tint[k];
        if (b->pk3) {
            size_t ml = strlen(b->missing);
            if (b->untextured < 4)
                snprintf(b->missing + ml, sizeof b->missing - ml, "%s%.30s", b->untextured ? ", " : "",
                         tex_name(mat->name));
            b->untextured++;
        }
    }
    /* Without a script the alpha of a map texture means something only on surfaces the compiler made
     * translucent (surfaceparm trans, in the contents): liquids blend, the others (fences, grates) are cut
     * out as the game's alphaFunc GE128 does, drawn from both sides. */
    const bool trans = !look.scripted && alpha && (mat->contents & SCENE_BSP_CONTENTS_TRANSLUCENT);
    const mos_blend blend = trans && (mat->contents & SCENE_BSP_CONTENTS_LIQUID) ? MOS_BLEND_ALPHA : look.blend;
    const float cutoff = trans && blend == MOS_BLEND_OPAQUE ? 0.5f : look.alpha_cutoff;
    if (!po->blend_given)
        obj->blend = blend;
    if (!po->alpha_given)
        obj->alpha_cutoff = cutoff;
    if ((trans || look.two_sided) && !po->cull_given)
        obj->cull = MOS_CULL_NONE;
    if (b->light >= 0 || (look.scripted && !po->shader_given)) {  /* the map's light, not the scene's */
        obj->shader = SCENE_SHADER_LIGHTMAPPED;
        obj->lightmap = look.lit ? b->light : -1;
    }
    const int clamp[2] = { MOS_WRAP_CLAMP_TO_EDGE, MOS_WRAP_CLAMP_TO_EDGE };
    return parse_apply_sampling(p, col, obj, look.clamp ? clamp : NULL) ? -1 : 0;
}

/* The sky box of the map's sky material: its script's skyParms farbox images, else (no such images) its
 * first image stage (the game's cloud layer) on every face; six objects OBJECT:sky_rt, ..., fullbright,
 * drawn first and writing no depth, so that everything stands in front; *TRIS gets their triangles.
 * 0, or -1 on error. */
static int bsp_sky(parser *p, int col, bsp_build *b, const scene_bsp_map *map, uint64_t *tris)
{
    pending_object *po = &p->po;
    const scene_q3_shader *sh = map->sky[0] ? scene_q3_find(b->scripts, map->sky) : NULL;
    if (map->sky[0] && !sh)
        scene_bsp_tally_add(&b->tally, "a sky material without a shader script (no sky box)");
    if (!sh || (!sh->sky[0] && !sh->image[0]) || po->shader_given)
        return 0;
    float centre[3], half;
    scene_bsp_sky_box(map, SCENE_BSP_FAR, centre, &half);
    bool clouds = false;
    for (int face = 0; face < 6; face++) {
        char image[80];
        bool alpha;
        snprintf(image, sizeof image, "%s_%s", sh->sky, scene_bsp_sky_suffix[face]);
        int tex = clouds || !sh->sky[0] ? -1 : bsp_texture(p, col, b->pk3, b->folder, image, &alpha);
        if (tex == -1 && sh->image[0]) {
            clouds = true;
            tex = bsp_texture(p, col, b->pk3, b->folder, sh->image, &alpha);
        }
        if (tex == -2)
            return -1;
        if (tex < 0)
            return 0;
        scene_object obj = po->obj;
        snprintf(obj.name + strnlen(obj.name, SCENE_NAME_MAX - 8), 8, ":sky_%s", scene_bsp_sky_suffix[face]);
        obj.texture = tex;
        obj.shader = SCENE_SHADER_LIGHTMAPPED;  /* without a lightmap: the image as it is */
        obj.cull = MOS_CULL_NONE;
        const int clamp[2] = { MOS_WRAP_CLAMP_TO_EDGE, MOS_WRAP_CLAMP_TO_EDGE };
        scene_mesh m;
        if (parse_apply_sampling(p, col, &obj, clouds ? NULL : clamp))
            return -1;
        if (scene_bsp_sky_face(face, centre, half, &m))
            return parse_oom(p, col);
        if (clouds)
            scene_mesh_uv_scale(&m, sh->tc_scale[0], sh->tc_scale[1]);
        parse_finish_object(po, &obj, &m);
        obj.depth_write = false;
        *tris += m.index_count / 3;
        if (parse_append_object(p, col, &obj, &m))
            return -1;
    }
    if (clouds)
        scene_bsp_tally_add(&b->tally, sh->sky[0] ? "sky: no farbox images, the cloud layer on a box"
                                                  : "sky: the cloud layer on a box");
    return 0;
}

/* The warnings of a map's materials: those without an image, what the scripts ask that is not drawn. */
static int bsp_warnings(parser *p, const bsp_build *b, int materials)
{
    const pending_object *po = &p->po;
    int save = p->line, rc = 0;
    p->line = po->geom_line;
    const char *hint = b->untextured ? scene_bsp_package_hint(b->folder[0] ? b->folder : ".") : NULL;
    if (b->untextured)
        rc = parse_warn(p, po->path_col, "%d of %d materials have no image and are drawn tinted: %s%s; looked for "
                   "their shader scripts (scripts/NAME.shader) and images (.tga, .jpg, .jpeg, .png) in the %d .pk3 "
                   "archives of '%s'%s%s%s", b->untextured, materials, b->missing, b->untextured > 4 ? ", ..." : "",
                   scene_pk3_count(b->pk3), b->folder[0] ? b->folder : ".", hint ? " (" : "", hint ? hint : "",
                   hint ? ")" : "");
    if (!rc && b->tally.materials) {
        char what[600];
        scene_bsp_tally_text(&b->tally, what, sizeof what);
        rc = parse_warn(p, po->path_col, "%d of %d materials' shader scripts ask for what Mosaic does not draw: %s",
                   b->tally.materials, materials, what);
    }
    if (!rc && scene_q3_scripts_error(b->scripts))
        rc = parse_warn(p, po->path_col, "%d malformed shader%s in the scripts of '%s' not read (the first: %s)",
                   scene_q3_scripts_faults(b->scripts), scene_q3_scripts_faults(b->scripts) == 1 ? "" : "s",
                   b->folder[0] ? b->folder : ".", scene_q3_scripts_error(b->scripts));
    p->line = save;
    return rc;
}

/* Loads the map and appends one object per drawn material (named OBJECT:TEXTURE), with the look its
 * shader script gives it (bsp_material) and the map's lightmaps, then its views. */
int parse_bsp_end(parser *p, int end_col)
{
    pending_object *po = &p->po;
    int save_line = p->line;
    if (po->fit > 0.0f)
        return parse_err(p, end_col, "object '%s': 'fit' does not apply to a bsp map (use scale and translate)",
                    po->obj.name);
    scene_bsp_map map;
    int arg;
    char msg[1024];
    mos_result r = scene_bsp_load(po->mesh_path, po->bsp_entry, po->patch_level, po->views_max, &map, &arg,
                                  msg, sizeof msg);
    if (r != MOS_OK) {
        p->code = r;
        p->line = po->geom_line;
        parse_err(p, arg == SCENE_BSP_ARG_ENTRY ? po->entry_col : po->path_col, "%s", msg);
        p->line = save_line;
        return -1;
    }
    const scene_object *o = &po->obj;
    uint64_t inst = (uint64_t)o->array_n[0] * (uint64_t)o->array_n[1] * (uint64_t)o->array_n[2], tris = 0;
    for (int i = 0; i < map.material_count; i++)
        tris += (uint64_t)(map.materials[i].mesh.index_count / 3) * inst;
    int rc = parse_over_budget(p, end_col, o->name, tris);
    /* The images and shader scripts: from every archive of the map's game folder. */
    bsp_build b = { .light = -1 };
    char *folder = NULL;
    if (!rc && po->bsp_textures && !po->texture_given) {
        b.folder = folder = game_folder(po->mesh_path, po->bsp_entry != NULL);
        if (!folder || scene_pk3_open(folder, p->opts->sandbox_dir, &b.pk3) != MOS_OK ||
            scene_q3_scripts_load(b.pk3, &b.scripts) != MOS_OK)
            rc = parse_oom(p, end_col);
    }
    b.light = rc || po->shader_given ? -1 : bsp_light_image(p, end_col, &map);  /* lightmaps */
    rc = b.light == -2 ? -1 : rc;
    if (!rc && b.pk3)
        rc = bsp_sky(p, end_col, &b, &map, &tris);
    for (int i = 0; !rc && i < map.material_count; i++) {
        scene_bsp_material *mat = &map.materials[i];
        if (po->uv[0] != 1.0f || po->uv[1] != 1.0f)
            scene_mesh_uv_scale(&mat->mesh, po->uv[0], po->uv[1]);
        scene_object obj = *o;
        const char *tname = tex_name(mat->name);
        size_t nl = strlen(obj.name), tl = strlen(tname);
        if (nl + 1 < SCENE_NAME_MAX) {  /* OBJECT:TEXTURE, cut to the name limit */
            obj.name[nl] = ':';
            tl = tl < SCENE_NAME_MAX - 2 - nl ? tl : SCENE_NAME_MAX - 2 - nl;
            memcpy(obj.name + nl + 1, tname, tl);
            obj.name[nl + 1 + tl] = '\0';
        }
        const int m = bsp_material(p, end_col, &b, mat, &obj);
        if (m == 1) {  /* not drawn: its triangles leave the budget */
            tris -= (uint64_t)(mat->mesh.index_count / 3) * inst;
            b.skipped++;
            continue;
        }
        if (m < 0) {
            rc = -1;
            break;
        }
        parse_finish_object(po, &obj, &mat->mesh);
        rc = parse_append_object(p, end_col, &obj, &mat->mesh);  /* the scene owns the mesh now */
    }
    if (!rc)
        rc = bsp_warnings(p, &b, map.material_count);
    scene_q3_scripts_free(b.scripts);
    scene_pk3_close(b.pk3);
    free(folder);
    if (!rc)
        p->total_tris += tris;
    if (!rc && po->views_max >= 0)
        rc = bsp_views(p, &map);
    p->line = save_line;
    scene_bsp_free(&map);
    free(po->mesh_path);
    free(po->bsp_entry);
    po->mesh_path = po->bsp_entry = NULL;
    if (!rc)
        p->block = BLOCK_TOP;
    return rc;
}
