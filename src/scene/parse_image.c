/* parse_image.c — the scene's images: read once per file (through the sandbox), held to the texture
 * budget, copied per sampling (wrap, mip filter), and the magenta stand-in for one that cannot be read.
 * Fed by the texture statement (parse_material.c), mesh materials (parse_mesh.c) and maps (parse_bsp.c). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image/image.h"
#include "scene/parse_priv.h"

/* The image of the scene whose key (resolved path) is KEY, sampled with
 * WRAP and MIP_LINEAR, or -1. */
static int find_sampled(const scene *s, const char *key, const int wrap[2], bool mip_linear)
{
    for (int i = 0; i < s->image_count; i++) {
        const scene_image *im = &s->images[i];
        if (!strcmp(im->path, key) && im->wrap[0] == wrap[0] && im->wrap[1] == wrap[1] && im->mip_linear == mip_linear)
            return i;
    }
    return -1;
}

/* The image of key KEY with the default sampling (repeat, nearest level), or -1. */
int parse_find_image(const scene *s, const char *key) { return find_sampled(s, key, (const int[2]){ 0, 0 }, false); }

/* The image read from the file ID with the default sampling, or -1. */
static int find_file_image(const scene *s, scene_file_id id)
{
    for (int i = 0; i < s->image_count; i++) {
        const scene_image *im = &s->images[i];
        if (im->id.dev == id.dev && im->id.ino == id.ino && (id.dev || id.ino) && !im->wrap[0] && !im->wrap[1] &&
            !im->mip_linear)
            return i;
    }
    return -1;
}

/* Bytes of a W x H RGBA8 texture with all its mip levels. */
static uint64_t texture_bytes(int w, int h)
{
    uint64_t b = 0;
    for (uint64_t x = (uint64_t)(w > 0 ? w : 1), y = (uint64_t)(h > 0 ? h : 1);; x = x > 1 ? x / 2 : 1, y = y > 1 ? y / 2 : 1) {
        b += x * y * 4;
        if (x == 1 && y == 1)
            break;
    }
    return b;
}

/* Adds IMG (its path the key) to the scene's images, taking it, within the
 * scene's texture budget; the index, or -1 when out of memory or over the
 * budget (IMG freed, the error set). */
int parse_add_image(parser *p, int col, scene_image *img)
{
    scene *s = p->s;
    const uint64_t bytes = texture_bytes(img->width, img->height), max = p->opts->max_texture_bytes;
    if (bytes > max - p->texture_bytes) {
        const double mb = 1024.0 * 1024.0;
        parse_err(p, col, "textures would take %.1f MB, over the %.1f MB budget (image '%s', %dx%d with its mip levels: "
                  "%.1f MB)", (double)(p->texture_bytes + bytes) / mb, (double)max / mb, img->path ? img->path : "?",
                  img->width, img->height, (double)bytes / mb);
        scene_image_free(img);
        return -1;
    }
    void *g = parse_grow(s->images, s->image_count, sizeof *s->images);
    if (!g) {
        scene_image_free(img);
        return parse_oom(p, col);
    }
    s->images = g;
    s->images[s->image_count] = *img;
    p->texture_bytes += bytes;
    return s->image_count++;
}

/* Image IDX sampled with WRAP and MIP_LINEAR: itself, or a copy that is
 * (the sampling belongs to the texture); -1 when out of memory. */
static int sampled_image(parser *p, int col, int idx, const int wrap[2], bool mip_linear)
{
    const scene_image *im = &p->s->images[idx];
    if (im->wrap[0] == wrap[0] && im->wrap[1] == wrap[1] && im->mip_linear == mip_linear)
        return idx;
    int k = find_sampled(p->s, im->path, wrap, mip_linear);
    if (k >= 0)
        return k;
    const size_t bytes = (size_t)im->width * (size_t)im->height * 4;
    scene_image copy = { .width = im->width, .height = im->height, .path = strdup(im->path), .rgba = malloc(bytes),
                         .wrap = { wrap[0], wrap[1] }, .mip_linear = mip_linear };
    if (!copy.path || !copy.rgba) {
        scene_image_free(&copy);
        return parse_oom(p, col);
    }
    memcpy(copy.rgba, im->rgba, bytes);
    return parse_add_image(p, col, &copy);
}

/* The object's texture sampled as the scene says (wrap, mip lines), else
 * with MAT_WRAP (a material's, or NULL: repeat).  0, or -1 when out of
 * memory. */
int parse_apply_sampling(parser *p, int col, scene_object *o, const int *mat_wrap)
{
    const pending_object *po = &p->po;
    if (o->texture < 0)
        return 0;
    const int *wrap = po->wrap_given ? po->wrap : mat_wrap ? mat_wrap : (const int[2]){ 0, 0 };
    const int k = sampled_image(p, col, o->texture, wrap, po->mip_linear);
    if (k < 0)
        return -1;
    o->texture = k;
    return 0;
}

/* The magenta stand-in for a texture that cannot be read (one per scene). */
int parse_missing_image(parser *p, int col)
{
    static const char key[] = "<missing texture>";
    int i = parse_find_image(p->s, key);
    if (i >= 0)
        return i;
    scene_image img = { .width = 2, .height = 2, .rgba = malloc(16), .path = strdup(key) };
    if (!img.rgba || !img.path) {
        scene_image_free(&img);
        return parse_oom(p, col);
    }
    for (int k = 0; k < 4; k++)
        memcpy(img.rgba + 4 * k, (const uint8_t[4]){ 255, 0, 255, 255 }, 4);
    return parse_add_image(p, col, &img);
}

/* The image at resolved PATH (taken), read through the scene's door (its
 * sandbox) and loaded once per scene: files are told apart by identity
 * (device and inode), not by how the path is spelled.  -1 with the message
 * in MSG when it cannot be read, -2 when out of memory or over the texture
 * budget (the error set). */
int parse_load_image(parser *p, int col, char *path, char *msg, size_t msg_size, mos_result *code)
{
    int fd;
    uint64_t size;
    scene_file_id id;
    *code = scene_file_open(p->opts->sandbox_dir, path, IMG_MAX_FILE_BYTES, &fd, &size, &id, msg, msg_size);
    if (*code != MOS_OK) {
        free(path);
        return -1;
    }
    int i = find_file_image(p->s, id);
    if (i >= 0) {
        close(fd);
        free(path);
        return i;
    }
    scene_image img;
    *code = scene_import_image(fd, size, path, &img, msg, msg_size);
    close(fd);
    if (*code != MOS_OK) {
        free(path);
        return *code == MOS_ERR_OUT_OF_MEMORY ? (parse_oom(p, col), -2) : -1;
    }
    img.path = path;
    img.id = id;
    i = parse_add_image(p, col, &img);
    return i >= 0 ? i : -2;
}
