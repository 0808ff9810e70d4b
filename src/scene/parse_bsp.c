/* parse_bsp.c — the `end` of an object with a `bsp` map: one object per material, textured from the
 * game folder's archives (else tinted by name), and the map's views as cameras.  Fed by parse_object.c;
 * asks bsp.c for the map and pk3.c for the images. */
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

/* Loads the map and appends one object per material (named OBJECT:TEXTURE),
 * textured with the image the game's archives hold for it (else tinted by
 * its name), then its views. */
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
    /* The images: from every archive of the map's game folder. */
    scene_pk3_set *pk3 = NULL;
    char *folder = NULL;
    if (!rc && po->bsp_textures && !po->texture_given) {
        folder = game_folder(po->mesh_path, po->bsp_entry != NULL);
        if (!folder || scene_pk3_open(folder, p->opts->sandbox_dir, &pk3) != MOS_OK)
            rc = parse_oom(p, end_col);
    }
    int untextured = 0;
    char missing[160] = "";
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
        bool alpha = false;
        const int tex = pk3 ? bsp_texture(p, end_col, pk3, folder, mat->name, &alpha) : -1;
        if (tex == -2) {
            rc = -1;
            break;
        }
        if (tex >= 0) {
            obj.texture = tex;
            if (!po->shader_given)
                obj.shader = SCENE_SHADER_TEXTURED;
            /* The alpha of a map texture means something only on surfaces
             * its shader made translucent (surfaceparm trans, in the
             * material's contents; elsewhere it feeds effects Mosaic does not
             * draw): liquids blend, the others (fences, grates, foliage) are
             * cut out as the game's alphaFunc GE128 does. */
            const bool trans = alpha && (mat->contents & SCENE_BSP_CONTENTS_TRANSLUCENT);
            if (trans && (mat->contents & SCENE_BSP_CONTENTS_LIQUID) && !po->blend_given)
                obj.blend = MOS_BLEND_ALPHA;
            else if (trans && !po->alpha_given)
                obj.alpha_cutoff = 0.5f;
            if (trans && !po->cull_given)
                obj.cull = MOS_CULL_NONE;  /* such shaders draw both sides (cull disable) */
        } else {
            float tint[3];
            material_tint(mat->name, tint);
            for (int k = 0; k < 3; k++)
                obj.color[k] *= tint[k];
            if (pk3) {
                size_t ml = strlen(missing);
                if (untextured < 4)
                    snprintf(missing + ml, sizeof missing - ml, "%s%.30s", untextured ? ", " : "", tex_name(mat->name));
                untextured++;
            }
        }
        if (parse_apply_sampling(p, end_col, &obj, NULL)) {
            rc = -1;
            break;
        }
        parse_finish_object(po, &obj, &mat->mesh);
        rc = parse_append_object(p, end_col, &obj, &mat->mesh);  /* the scene owns the mesh now */
    }
    if (!rc && untextured) {
        int save = p->line;
        p->line = po->geom_line;
        rc = parse_warn(p, po->path_col, "%d of %d materials have no image in the archives of '%s' (%d read; Debian's "
                        "openarena-081-textures holds OpenArena's) and are drawn tinted: %s%s", untextured,
                        map.material_count, folder[0] ? folder : ".", scene_pk3_count(pk3), missing,
                        untextured > 4 ? ", ..." : "");
        p->line = save;
    }
    scene_pk3_close(pk3);
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
