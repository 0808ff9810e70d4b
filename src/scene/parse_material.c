/* parse_material.c — how an object looks: shader (built-in or a GLSL pair), colour, texture and its
 * sampling, blending, depth writes, alpha test, culling, uv scale.  Fed by parse_object.c with an
 * object block's statements. */
#include <stdlib.h>
#include <string.h>

#include "scene/parse_priv.h"

/* `texture FILE`: the object's image, read now (once per file in the scene). */
static int texture_stmt(parser *p, const token *t, int n)
{
    if (parse_nargs(p, t, n, 1, 1, "a file path"))
        return -1;
    if (p->po.texture_given)
        return parse_err(p, t[0].col, "object '%s' already has a texture", p->po.obj.name);
    char *path;
    if (parse_path(p, &t[1], &path))
        return -1;
    char msg[512];
    mos_result r = MOS_OK;
    int i = parse_load_image(p, t[1].col, path, msg, sizeof msg, &r);
    if (i == -1) {
        p->code = r;
        return parse_err(p, t[1].col, "%s", msg);
    }
    if (i < 0)
        return -1;
    p->po.obj.texture = i;
    p->po.texture_given = true;
    p->po.texture_line = p->line;
    p->po.texture_col = t[0].col;
    return 0;
}

/* `shader FILE.frag [FILE.vert]`: a GLSL pair (the vertex shader defaults to
 * builtin.vert beside the fragment shader), compiled now. */
static int glsl_shader(parser *p, const token *t, int n, scene_object *o)
{
    char *frag = NULL, *vert = NULL;
    if (parse_path(p, &t[1], &frag))
        return -1;
    if (n > 2) {
        if (parse_path(p, &t[2], &vert)) {
            free(frag);
            return -1;
        }
    } else {
        const char *slash = strrchr(frag, '/');
        const size_t dl = slash ? (size_t)(slash - frag + 1) : 0;
        vert = malloc(dl + sizeof "builtin.vert");
        if (!vert) {
            free(frag);
            return parse_oom(p, t[1].col);
        }
        memcpy(vert, frag, dl);
        memcpy(vert + dl, "builtin.vert", sizeof "builtin.vert");
    }
    char msg[1024];
    int k;
    const mos_result rc = scene_glsl_add(p->s, frag, vert, p->opts->sandbox_dir, &k, msg, sizeof msg);
    free(frag);
    free(vert);
    if (rc != MOS_OK) {
        p->code = rc;
        return parse_err(p, t[1].col, "%s", msg);
    }
    o->shader = SCENE_SHADER_COUNT + k;
    return 0;
}

/* How an object looks: shader, colour, texture and its sampling, blending,
 * depth, alpha test, culling.  KW_NOT_MINE when t[0] is another keyword. */
int parse_object_material(parser *p, const token *t, int n)
{
    pending_object *po = &p->po;
    scene_object *o = &po->obj;
    const char *kw = t[0].s;
    if (!strcmp(kw, "texture"))
        return texture_stmt(p, t, n);
    if (!strcmp(kw, "shader")) {
        static const char *const names[SCENE_SHADER_COUNT + 1] = { "flat", "lambert", "textured", NULL };
        if (parse_nargs(p, t, n, 1, 2, "flat, lambert, textured, or FILE.frag [FILE.vert]"))
            return -1;
        const size_t len = strlen(t[1].s);
        if (len > 5 && !strcmp(t[1].s + len - 5, ".frag")) {
            if (glsl_shader(p, t, n, o))
                return -1;
        } else if (n > 2) {
            return parse_err(p, t[2].col, "a vertex shader goes with a GLSL fragment shader (FILE.frag FILE.vert)");
        } else if ((o->shader = parse_choose(p, &t[1], "shader", names)) < 0) {
            return -1;
        }
        po->shader_given = true;
        return 0;
    }
    if (!strcmp(kw, "color") || !strcmp(kw, "colour")) {
        if (parse_nargs(p, t, n, 3, 4, "r g b [a]") || parse_unit_range(p, t + 1, n - 1, o->color))
            return -1;
        if (n == 4)
            o->color[3] = 1.0f;
        po->color_given = true;
        return 0;
    }
    if (!strcmp(kw, "blend")) {
        static const char *const modes[] = { "opaque", "alpha", "add", "premultiplied", NULL };  /* mos_blend order */
        const int m = parse_one_word(p, t, n, "opaque, alpha, add or premultiplied", "blend mode", modes);
        if (m < 0)
            return -1;
        o->blend = (mos_blend)m;
        po->blend_given = true;
        return 0;
    }
    if (!strcmp(kw, "wrap")) {
        static const char *const modes[] = { "repeat", "clamp", "mirror", NULL };  /* mos_wrap order */
        if (parse_nargs(p, t, n, 1, 2, "repeat, clamp or mirror [for v]"))
            return -1;
        for (int k = 1; k < n; k++)
            if ((po->wrap[k - 1] = parse_choose(p, &t[k], "wrap mode", modes)) < 0)
                return -1;
        if (n == 2)
            po->wrap[1] = po->wrap[0];
        po->wrap_given = true;
        return 0;
    }
    if (!strcmp(kw, "mip")) {
        static const char *const filters[] = { "nearest", "linear", NULL };
        const int m = parse_one_word(p, t, n, "nearest or linear", "mip filter", filters);
        if (m < 0)
            return -1;
        po->mip_linear = m == 1;
        return 0;
    }
    if (!strcmp(kw, "depth_write")) {
        const int m = parse_one_word(p, t, n, "on or off", "depth_write value", parse_on_off);
        if (m < 0)
            return -1;
        o->depth_write = m == 0;
        po->depth_write_given = true;
        return 0;
    }
    if (!strcmp(kw, "alpha_cutoff")) {
        if (parse_nargs(p, t, n, 1, 1, "a cut-off in 0..1 (0 = no alpha test)") ||
            parse_unit_range(p, t + 1, 1, &o->alpha_cutoff))
            return -1;
        po->alpha_given = true;
        return 0;
    }
    if (!strcmp(kw, "cull")) {
        static const char *const modes[] = { "none", "back", NULL };
        const int m = parse_one_word(p, t, n, "none or back", "cull mode", modes);
        if (m < 0)
            return -1;
        o->cull = m ? MOS_CULL_BACK : MOS_CULL_NONE;
        po->cull_given = true;
        return 0;
    }
    if (!strcmp(kw, "uv_scale")) {
        if (parse_nargs(p, t, n, 1, 2, "su [sv]") || parse_nums(p, t + 1, n - 1, po->uv))
            return -1;
        if (n == 2)
            po->uv[1] = po->uv[0];
        return 0;
    }
    return KW_NOT_MINE;
}
