/* bsp_look.c — how one material of a Quake 3 map is drawn, from its shader script: the image to read, the
 * blending, alpha test, sides and texture scale of its first image stage, whether the lightmap multiplies
 * it, or that it is not drawn; the tally of what the scripts ask that Mosaic does not draw, for one
 * warning per map; and which package holds a game folder's data, for the warning on missing images.  Fed by parse.c with the map's materials and q3shader.c's shaders. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "scene/scene_priv.h"

void scene_bsp_look_of(const char *material, const scene_q3_shader *sh, scene_bsp_look *look)
{
    memset(look, 0, sizeof *look);
    look->lit = true;
    look->tc_scale[0] = look->tc_scale[1] = 1.0f;
    look->scripted = sh != NULL;
    snprintf(look->image, sizeof look->image, "%s", sh && sh->image[0] ? sh->image : material);
    if (!sh)
        return;  /* the game's default shader: the image named like the material, times the lightmap */
    look->skip = (sh->surface & (SCENE_Q3_NODRAW | SCENE_Q3_SKY)) != 0;
    look->lit = sh->lightmap;
    look->clamp = sh->clamp;
    look->two_sided = sh->two_sided;
    look->tc_scale[0] = sh->tc_scale[0], look->tc_scale[1] = sh->tc_scale[1];
    look->blend = MOS_BLEND_OPAQUE;
    if (!sh->lightmap_first) {  /* the image is the first stage: its blendFunc meets the frame */
        switch (sh->blend) {
        case SCENE_Q3_ADD: look->blend = MOS_BLEND_ADD; break;
        case SCENE_Q3_BLEND: look->blend = MOS_BLEND_ALPHA; break;
        case SCENE_Q3_FILTER:  /* darkens what is behind: no such blend in Mosaic */
            look->skip = true;
            look->note = "blendFunc filter on the first stage (not drawn)";
            break;
        case SCENE_Q3_OTHER: look->note = "blendFunc (other factors; drawn opaque)"; break;
        default: break;
        }
    }
    if (sh->alpha == SCENE_Q3_GE128)
        look->alpha_cutoff = 0.5f;
    else if (sh->alpha == SCENE_Q3_GT0)
        look->alpha_cutoff = 0.5f / 255.0f;  /* alpha 0 is cut */
    else if (sh->alpha == SCENE_Q3_LT128 && !look->note)
        look->note = "alphaFunc LT128";
}

void scene_bsp_tally_add(scene_bsp_tally *t, const char *what)
{
    for (int i = 0; i < t->count; i++)
        if (!strcmp(t->what[i], what)) {
            t->n[i]++;
            return;
        }
    if (t->count < SCENE_BSP_TALLY_MAX) {
        snprintf(t->what[t->count], sizeof t->what[0], "%s", what);
        t->n[t->count++] = 1;
    } else {
        t->more++;
    }
}

void scene_bsp_tally_shader(scene_bsp_tally *t, const scene_q3_shader *sh, const scene_bsp_look *look)
{
    bool any = look->note != NULL;
    if (look->note)
        scene_bsp_tally_add(t, look->note);
    for (int i = 0; sh && i < sh->unsupported_count; i++, any = true)
        scene_bsp_tally_add(t, sh->unsupported[i]);
    t->materials += any;
}

void scene_bsp_tally_text(const scene_bsp_tally *t, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < t->count && n < size; i++) {
        int w = snprintf(out + n, size - n, "%s%s (%d)", i ? ", " : "", t->what[i], t->n[i]);
        n += w > 0 ? (size_t)w : 0;
    }
    if (t->more && n < size)
        snprintf(out + n, size - n, ", and %d more", t->more);
}

const char *scene_bsp_package_hint(const char *folder)
{
    const char *slash = strrchr(folder, '/'), *base = slash ? slash + 1 : folder;
    if (!strcasecmp(base, "baseoa"))  /* OpenArena's game folder */
        return "Debian's openarena-081-textures and openarena-data hold OpenArena's images and shader scripts";
    return NULL;  /* another game: its data comes with the game */
}
