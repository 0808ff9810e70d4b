/* bsp.c — Quake 3 / OpenArena maps (IBSP version 46), read from a .pk3 (a zip, through minizip) or a bare .bsp.
 * Fed by the scene parser with a path, an optional archive entry, a patch level and a spawn-view cap; returns
 * one mesh per drawable material (built-in vertex layout plus lightmap u, v; y-up world, counter-clockwise
 * seen from the front), the map's light in one image (bsp_lightmap.c) and its designer views (intermission
 * point, spawn points) taken from its entities lump.
 *
 * Every offset, length, count and index in the file is checked against its bounds before use; a malformed
 * file gives an error message, never a crash.  Quake's world is z-up: (x, y, z) becomes (x, z, -y), a
 * rotation, so handedness and winding are kept. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <unzip.h>

#include "scene/scene_priv.h"

#define STRIDE SCENE_LIT_STRIDE  /* the built-in layout, then the lightmap's u, v */

/* Lumps of an IBSP v46 file, in header order; only these are read. */
enum { LUMP_ENTITIES = 0, LUMP_TEXTURES = 1, LUMP_VERTICES = 10, LUMP_MESHVERTS = 11, LUMP_FACES = 13,
       LUMP_LIGHTMAPS = 14, LUMP_COUNT = 17 };
#define HEADER_SIZE (8 + LUMP_COUNT * 8)
#define TEXTURE_SIZE 72   /* name[64], surface flags, content flags */
#define VERTEX_SIZE 44    /* pos[3], st[2], lightmap st[2], normal[3], rgba8 */
#define FACE_SIZE 104     /* texture, effect, type, vertex, n_vertices, meshvert, n_meshverts, lightmap..., normal[3], size[2] */

/* Face types. */
enum { FACE_POLYGON = 1, FACE_PATCH = 2, FACE_MESH = 3, FACE_BILLBOARD = 4, FACE_FOLIAGE = 5 };

/* Not drawn: surfaces flagged sky, nodraw, hint or skip; fog-volume faces; and
 * effects: translucent, unlit (no lightmap) and with nothing to stand or swim
 * in (light beams, flares, smoke, flames), which the game blends additively
 * and which would be opaque slabs here.  Alpha-tested fences and decals stay. */
#define SURF_SKIP_MASK (0x4u | 0x80u | 0x100u | 0x200u)  /* SURF_SKY | SURF_NODRAW | SURF_HINT | SURF_SKIP */
#define SURF_NOLIGHTMAP 0x400u
#define SURF_SKY 0x4u
#define CONTENTS_FOG 0x40u
#define CONTENTS_TRANSLUCENT SCENE_BSP_CONTENTS_TRANSLUCENT
#define CONTENTS_BODY (0x1u | SCENE_BSP_CONTENTS_LIQUID)  /* SOLID | LAVA | SLIME | WATER */

#define MAX_PATCH_SIDE 65        /* control points per patch grid side (q3map: 32 on patch meshes) */
#define MAX_COORD 1.0e6f         /* |coordinate| in map units (Quake's world is +-65536) */
#define VIEW_HEIGHT 26.0f        /* Quake 3's DEFAULT_VIEWHEIGHT above a player's origin */

typedef struct bsp_ctx {
    const char *name;  /* "'entry' in 'pk3'" or "'path'", for messages */
    char *err;
    size_t err_size;
    int *err_arg;
} bsp_ctx;

static mos_result fail(bsp_ctx *c, mos_result code, const char *fmt, ...)
{
    int n = snprintf(c->err, c->err_size, "%s: ", c->name);
    if (n >= 0 && (size_t)n < c->err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err + n, c->err_size - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* ---- reading the file -------------------------------------------------------- */

static mos_result read_plain(bsp_ctx *c, const char *path, uint8_t **data, size_t *size)
{
    int fd;  /* through the scene's door: a regular file, never waiting on a FIFO */
    mos_result r = scene_file_open(NULL, path, 0, &fd, NULL, NULL, c->err, c->err_size);
    if (r != MOS_OK)
        return r;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        snprintf(c->err, c->err_size, "cannot open '%s': %s", path, strerror(errno));
        return MOS_ERR_IO;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            if (cap >= SCENE_BSP_MAX_BYTES) {
                free(buf);
                fclose(f);
                return fail(c, MOS_ERR_PARSE, "larger than %u MiB", SCENE_BSP_MAX_BYTES >> 20);
            }
            cap = cap ? cap * 2 : 1u << 20;
            uint8_t *g = realloc(buf, cap);
            if (!g) {
                free(buf);
                fclose(f);
                return fail(c, MOS_ERR_OUT_OF_MEMORY, "out of memory");
            }
            buf = g;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return fail(c, MOS_ERR_IO, "read error");
    }
    *data = buf;
    *size = len;
    return MOS_OK;
}

/* Up to 6 names of the archive's .bsp entries, and how many there are. */
static void list_maps(unzFile uf, char *out, size_t out_size)
{
    int count = 0;
    size_t n = 0;
    out[0] = '\0';
    for (int r = unzGoToFirstFile(uf); r == UNZ_OK; r = unzGoToNextFile(uf)) {
        char fname[256];
        unz_file_info64 info;
        if (unzGetCurrentFileInfo64(uf, &info, fname, sizeof fname - 1, NULL, 0, NULL, 0) != UNZ_OK)
            break;
        fname[sizeof fname - 1] = '\0';  /* minizip leaves a name that fills the buffer unterminated */
        size_t fl = strlen(fname);
        if (fl < 4 || strcasecmp(fname + fl - 4, ".bsp"))
            continue;
        for (size_t k = 0; k < fl; k++)  /* names in messages stay printable */
            if ((unsigned char)fname[k] < 0x20 || (unsigned char)fname[k] >= 0x7f)
                fname[k] = '?';
        if (count++ < 6 && n < out_size) {
            int w = snprintf(out + n, out_size - n, "%s%s", n ? ", " : "", fname);
            n += w > 0 ? (size_t)w : 0;
        }
    }
    if (count > 6 && n < out_size)
        snprintf(out + n, out_size - n, ", ... (%d maps)", count);
    else if (count == 0)
        snprintf(out, out_size, "none");
}

static mos_result read_pk3(bsp_ctx *c, const char *pk3, const char *entry, uint8_t **data, size_t *size)
{
    mos_result opened = scene_sandbox_check(NULL, pk3, c->err, c->err_size);  /* a regular file, no FIFO */
    if (opened != MOS_OK) {
        *c->err_arg = SCENE_BSP_ARG_PATH;
        return opened;
    }
    unzFile uf = unzOpen64(pk3);
    if (!uf) {
        *c->err_arg = SCENE_BSP_ARG_PATH;
        snprintf(c->err, c->err_size, "'%s' is not a zip archive (.pk3)", pk3);
        return MOS_ERR_PARSE;
    }
    mos_result r = MOS_OK;
    unz_file_info64 info;
    if (unzLocateFile(uf, entry, 2 /* case-insensitive, as Quake 3 looks names up */) != UNZ_OK) {
        char maps[512];
        list_maps(uf, maps, sizeof maps);
        snprintf(c->err, c->err_size, "no entry '%s' in '%s' (its maps: %s)", entry, pk3, maps);
        r = MOS_ERR_PARSE;
    } else if (unzGetCurrentFileInfo64(uf, &info, NULL, 0, NULL, 0, NULL, 0) != UNZ_OK) {
        r = fail(c, MOS_ERR_PARSE, "corrupt archive directory");
    } else if (info.uncompressed_size > SCENE_BSP_MAX_BYTES) {
        r = fail(c, MOS_ERR_PARSE, "%llu bytes; at most %u MiB are allowed",
                 (unsigned long long)info.uncompressed_size, SCENE_BSP_MAX_BYTES >> 20);
    } else {
        const char *why;
        if ((r = scene_zip_inflate(uf, (size_t)info.uncompressed_size, data, &why)) != MOS_OK)
            r = fail(c, r, "%s", why);
        else
            *size = (size_t)info.uncompressed_size;
    }
    unzClose(uf);
    return r;
}

/* ---- little-endian fields -------------------------------------------------------- */

static int32_t le32(const uint8_t *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

static float lef(const uint8_t *p)
{
    uint32_t u = (uint32_t)le32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* ---- lumps ------------------------------------------------------------------------ */

typedef struct lump {
    const uint8_t *p;
    uint32_t count;  /* elements of its size */
} lump;

static mos_result get_lump(bsp_ctx *c, const uint8_t *data, size_t size, int index, const char *what,
                           uint32_t elem, lump *out)
{
    int32_t off = le32(data + 8 + index * 8), len = le32(data + 12 + index * 8);
    if (off < 0 || len < 0 || (uint64_t)off + (uint64_t)len > size)
        return fail(c, MOS_ERR_PARSE, "truncated or corrupt: lump %d (%s) at offset %d, %d bytes, lies outside "
                    "the %zu-byte file", index, what, off, len, size);
    if ((uint32_t)len % elem)
        return fail(c, MOS_ERR_PARSE, "corrupt: lump %d (%s) is %d bytes, not a multiple of %u",
                    index, what, len, elem);
    out->p = data + off;
    out->count = (uint32_t)len / elem;
    return MOS_OK;
}

typedef struct bsp_face {
    int32_t texture, type, vertex, n_vertices, meshvert, n_meshverts, lightmap, w, h;
} bsp_face;

static bsp_face face_at(const lump *faces, uint32_t i)
{
    const uint8_t *f = faces->p + (size_t)i * FACE_SIZE;
    return (bsp_face){ le32(f), le32(f + 8), le32(f + 12), le32(f + 16), le32(f + 20), le32(f + 24),
                       le32(f + 28), le32(f + 96), le32(f + 100) };
}

static bool range_ok(int32_t first, int32_t count, uint32_t total)
{
    return first >= 0 && count >= 0 && (uint64_t)first + (uint64_t)count <= total;
}

/* Checks face I against the lumps and returns the vertices and triangles it
 * adds (0, 0 for faces that are not drawn). */
static mos_result face_size(bsp_ctx *c, const bsp_face *f, uint32_t i, const lump *tex, const lump *verts,
                            const lump *mv, int level, uint64_t *nv, uint64_t *nt)
{
    *nv = *nt = 0;
    if (f->texture < 0 || (uint32_t)f->texture >= tex->count)
        return fail(c, MOS_ERR_PARSE, "corrupt: face %u uses texture %d of %u", i, f->texture, tex->count);
    const uint8_t *t = tex->p + (size_t)f->texture * TEXTURE_SIZE;
    uint32_t surface = (uint32_t)le32(t + 64), contents = (uint32_t)le32(t + 68);
    if ((surface & SURF_SKIP_MASK) || (contents & CONTENTS_FOG) ||
        ((contents & CONTENTS_TRANSLUCENT) && !(contents & CONTENTS_BODY) && (surface & SURF_NOLIGHTMAP)))
        return MOS_OK;
    switch (f->type) {
    case FACE_POLYGON:
    case FACE_MESH:
        if (!range_ok(f->vertex, f->n_vertices, verts->count))
            return fail(c, MOS_ERR_PARSE, "corrupt: face %u's vertices %d+%d lie outside the %u vertices",
                        i, f->vertex, f->n_vertices, verts->count);
        if (!range_ok(f->meshvert, f->n_meshverts, mv->count) || f->n_meshverts % 3)
            return fail(c, MOS_ERR_PARSE, "corrupt: face %u's mesh indices %d+%d (a multiple of 3) do not fit "
                        "the %u mesh indices", i, f->meshvert, f->n_meshverts, mv->count);
        for (int32_t k = 0; k < f->n_meshverts; k++) {
            int32_t idx = le32(mv->p + ((size_t)f->meshvert + (size_t)k) * 4);
            if (idx < 0 || idx >= f->n_vertices)
                return fail(c, MOS_ERR_PARSE, "corrupt: face %u's mesh index %d is outside its %d vertices",
                            i, idx, f->n_vertices);
        }
        *nv = (uint64_t)f->n_vertices;
        *nt = (uint64_t)f->n_meshverts / 3;
        return MOS_OK;
    case FACE_PATCH:
        if (f->w < 3 || f->h < 3 || f->w > MAX_PATCH_SIDE || f->h > MAX_PATCH_SIDE || !(f->w & 1) || !(f->h & 1))
            return fail(c, MOS_ERR_PARSE, "corrupt: face %u is a %dx%d patch (sides must be odd, 3..%d)",
                        i, f->w, f->h, MAX_PATCH_SIDE);
        if (f->n_vertices != f->w * f->h || !range_ok(f->vertex, f->n_vertices, verts->count))
            return fail(c, MOS_ERR_PARSE, "corrupt: face %u's %dx%d patch has control points %d+%d of %u",
                        i, f->w, f->h, f->vertex, f->n_vertices, verts->count);
        {
            uint64_t patches = (uint64_t)((f->w - 1) / 2) * (uint64_t)((f->h - 1) / 2);
            *nv = patches * (uint64_t)(level + 1) * (uint64_t)(level + 1);
            *nt = patches * 2u * (uint64_t)level * (uint64_t)level;
        }
        return MOS_OK;
    case FACE_BILLBOARD:
    case FACE_FOLIAGE:
        return MOS_OK;  /* sprites (flares), not geometry */
    default:
        return fail(c, MOS_ERR_PARSE, "corrupt: face %u has unknown type %d", i, f->type);
    }
}

/* Vertex I in the built-in layout, converted to y-up. */
static mos_result load_vertex(bsp_ctx *c, const lump *verts, uint32_t i, float out[STRIDE])
{
    const uint8_t *v = verts->p + (size_t)i * VERTEX_SIZE;
    float p[3], n[3];
    for (int k = 0; k < 3; k++) {
        p[k] = lef(v + 4 * k);
        n[k] = lef(v + 28 + 4 * k);
        if (!(fabsf(p[k]) <= MAX_COORD))
            return fail(c, MOS_ERR_PARSE, "corrupt: vertex %u has coordinate %g (at most %g)", i, p[k], MAX_COORD);
        if (!isfinite(n[k]))
            n[k] = 0.0f;
    }
    float s = lef(v + 12), t = lef(v + 16);
    out[0] = p[0], out[1] = p[2], out[2] = -p[1];
    out[3] = n[0], out[4] = n[2], out[5] = -n[1];
    out[6] = isfinite(s) ? s : 0.0f;
    out[7] = isfinite(t) ? 1.0f - t : 0.0f;  /* st has t down the image; v = 0 is its bottom row */
    out[8] = out[9] = 0.0f;                  /* the light: light_face */
    return MOS_OK;
}

/* Whether face F has a lightmap of the atlas (else it is lit by its vertices' colours). */
static bool has_lightmap(const bsp_face *f, const scene_bsp_atlas *light)
{
    return f->lightmap >= 0 && f->lightmap < light->maps;
}

/* The light of face F's N vertices at OUT (vertex K from file vertex FIRST + K): its lightmap
 * coordinates moved into the atlas, or one block of its vertices' mean colour. */
static void light_face(scene_bsp_atlas *light, const bsp_face *f, const lump *verts, uint32_t first, uint32_t n,
                       float *out)
{
    if (!light->rgba)
        return;
    float uv[2];
    if (!has_lightmap(f, light)) {
        uint32_t sum[3] = { 0, 0, 0 };
        for (uint32_t k = 0; k < n; k++)
            for (int c = 0; c < 3; c++)
                sum[c] += verts->p[(size_t)(first + k) * VERTEX_SIZE + 40 + (size_t)c];
        const uint8_t mean[3] = { (uint8_t)(sum[0] / n), (uint8_t)(sum[1] / n), (uint8_t)(sum[2] / n) };
        scene_bsp_atlas_block(light, mean, uv);
    }
    for (uint32_t k = 0; k < n; k++) {
        float *o = out + (size_t)k * STRIDE;
        if (has_lightmap(f, light)) {
            const uint8_t *v = verts->p + (size_t)(first + k) * VERTEX_SIZE;
            scene_bsp_atlas_uv(light, f->lightmap, lef(v + 20), lef(v + 24), uv);
        }
        o[8] = uv[0], o[9] = uv[1];
    }
}

/* Triangles [FIRST, mesh end) are turned around when their geometric normals
 * mostly point away from the vertex normals: the file's winding convention
 * does not matter, front faces end up counter-clockwise. */
static void orient(scene_mesh *m, uint32_t first_index)
{
    double sum = 0;
    for (uint32_t i = first_index; i < m->index_count; i += 3) {
        const float *a = m->verts + (size_t)m->indices[i] * STRIDE, *b = m->verts + (size_t)m->indices[i + 1] * STRIDE,
                    *d = m->verts + (size_t)m->indices[i + 2] * STRIDE;
        double e1[3], e2[3], g[3];
        for (int k = 0; k < 3; k++)
            e1[k] = (double)b[k] - a[k], e2[k] = (double)d[k] - a[k];
        g[0] = e1[1] * e2[2] - e1[2] * e2[1];
        g[1] = e1[2] * e2[0] - e1[0] * e2[2];
        g[2] = e1[0] * e2[1] - e1[1] * e2[0];
        for (int k = 0; k < 3; k++)
            sum += g[k] * ((double)a[3 + k] + b[3 + k] + d[3 + k]);
    }
    if (sum < 0)
        for (uint32_t i = first_index; i < m->index_count; i += 3) {
            uint32_t x = m->indices[i + 1];
            m->indices[i + 1] = m->indices[i + 2];
            m->indices[i + 2] = x;
        }
}

static mos_result add_polygon(bsp_ctx *c, scene_mesh *m, const bsp_face *f, const lump *verts, const lump *mv,
                              scene_bsp_atlas *light)
{
    const uint32_t base = m->vert_count, first = m->index_count;
    for (int32_t k = 0; k < f->n_vertices; k++) {
        mos_result r = load_vertex(c, verts, (uint32_t)(f->vertex + k), m->verts + (size_t)(base + (uint32_t)k) * STRIDE);
        if (r != MOS_OK)
            return r;
    }
    light_face(light, f, verts, (uint32_t)f->vertex, (uint32_t)f->n_vertices, m->verts + (size_t)base * STRIDE);
    m->vert_count += (uint32_t)f->n_vertices;
    for (int32_t k = 0; k < f->n_meshverts; k++)
        m->indices[m->index_count++] = base + (uint32_t)le32(mv->p + ((size_t)f->meshvert + (size_t)k) * 4);
    orient(m, first);
    return MOS_OK;
}

/* Biquadratic Bezier patches: every 3x3 window (step 2) of the w x h control
 * grid is one patch, tessellated into LEVEL x LEVEL quads.  Neighbouring
 * patches evaluate their shared edge from the same control points with the
 * same operations, so the edge vertices are bit-identical (no cracks). */
static mos_result add_patch(bsp_ctx *c, scene_mesh *m, const bsp_face *f, const lump *verts, int level,
                            scene_bsp_atlas *light)
{
    float *ctrl = malloc((size_t)f->n_vertices * STRIDE * sizeof(float));
    if (!ctrl)
        return fail(c, MOS_ERR_OUT_OF_MEMORY, "out of memory");
    for (int32_t k = 0; k < f->n_vertices; k++) {
        mos_result r = load_vertex(c, verts, (uint32_t)(f->vertex + k), ctrl + (size_t)k * STRIDE);
        if (r != MOS_OK) {
            free(ctrl);
            return r;
        }
    }
    light_face(light, f, verts, (uint32_t)f->vertex, (uint32_t)f->n_vertices, ctrl);  /* interpolated below */
    const uint32_t first = m->index_count, row = (uint32_t)level + 1;
    for (int py = 0; py + 2 < f->h; py += 2)
        for (int px = 0; px + 2 < f->w; px += 2) {
            const uint32_t base = m->vert_count;
            for (int j = 0; j <= level; j++) {
                float v = (float)j / (float)level, bv[3] = { (1 - v) * (1 - v), 2 * v * (1 - v), v * v };
                for (int i = 0; i <= level; i++) {
                    float u = (float)i / (float)level, bu[3] = { (1 - u) * (1 - u), 2 * u * (1 - u), u * u };
                    float *o = m->verts + (size_t)m->vert_count++ * STRIDE;
                    for (int k = 0; k < STRIDE; k++) {
                        float acc = 0;
                        for (int b = 0; b < 3; b++) {
                            const float *cr = ctrl + ((size_t)(py + b) * (size_t)f->w + (size_t)px) * STRIDE + k;
                            acc += bv[b] * (bu[0] * cr[0] + bu[1] * cr[STRIDE] + bu[2] * cr[2 * STRIDE]);
                        }
                        o[k] = acc;
                    }
                    float len = sqrtf(o[3] * o[3] + o[4] * o[4] + o[5] * o[5]);
                    if (len > 1e-12f)
                        o[3] /= len, o[4] /= len, o[5] /= len;
                    else
                        o[3] = 0, o[4] = 1, o[5] = 0;
                }
            }
            for (int j = 0; j < level; j++)
                for (int i = 0; i < level; i++) {
                    uint32_t a = base + (uint32_t)j * row + (uint32_t)i;
                    uint32_t *ix = m->indices + m->index_count;
                    ix[0] = a, ix[1] = a + 1, ix[2] = a + row;
                    ix[3] = a + 1, ix[4] = a + row + 1, ix[5] = a + row;
                    m->index_count += 6;
                }
        }
    free(ctrl);
    orient(m, first);
    return MOS_OK;
}

/* ---- entities: intermission point and spawn points --------------------------------- */

typedef struct bsp_entity {
    const char *classname, *origin, *angle, *angles, *mangle, *target, *targetname;
} bsp_entity;

/* S (NULL: "none") cut to 40 characters, anything unprintable as '?': for
 * messages, since the entities text is whatever the file holds. */
static const char *printable(const char *s, char out[44])
{
    if (!s)
        return "none";
    size_t i = 0;
    for (; s[i] && i < 40; i++)
        out[i] = (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f ? s[i] : '?';
    strcpy(out + i, s[i] ? "..." : "");
    return out;
}

/* The next token of the entities text at *P: a quoted string (quotes removed,
 * terminated in place), '{', '}' or a bare word; NULL at the end.  // comments
 * are skipped, as Quake's parser does. */
static const char *next_token(char **p, char *end)
{
    char *s = *p;
    for (;;) {
        while (s < end && (unsigned char)*s <= ' ')
            s++;
        if (s + 1 < end && s[0] == '/' && s[1] == '/') {
            while (s < end && *s != '\n')
                s++;
            continue;
        }
        break;
    }
    if (s >= end)
        return NULL;
    char *tok = s;
    if (*s == '"') {
        tok = ++s;
        while (s < end && *s != '"')
            s++;
        if (s >= end)
            return NULL;  /* unterminated string */
    } else if (*s == '{' || *s == '}') {
        s++;
        *p = s;
        return tok[0] == '{' ? "{" : "}";
    } else {
        while (s < end && (unsigned char)*s > ' ')
            s++;
    }
    if (s < end)
        *s++ = '\0';
    *p = s;
    return tok;
}

/* Parses TEXT (LEN bytes, NUL-terminated at LEN) in place into entities. */
static mos_result parse_entities(bsp_ctx *c, char *text, size_t len, bsp_entity **out, int *count)
{
    char *p = text, *end = text + len;
    const char *tok;
    bsp_entity *ents = NULL;
    int n = 0, cap = 0;
    *out = NULL;
    *count = 0;
    while ((tok = next_token(&p, end)) != NULL) {
        if (strcmp(tok, "{")) {
            char pt[44];
            free(ents);
            return fail(c, MOS_ERR_PARSE, "corrupt entities lump: expected '{' before entity %d, got '%s'",
                        n, printable(tok, pt));
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            bsp_entity *g = cap <= (1 << 20) ? realloc(ents, (size_t)cap * sizeof *g) : NULL;
            if (!g) {
                free(ents);
                return fail(c, MOS_ERR_OUT_OF_MEMORY, "out of memory (entities)");
            }
            ents = g;
        }
        bsp_entity *e = &ents[n++];
        memset(e, 0, sizeof *e);
        for (;;) {
            const char *key = next_token(&p, end);
            if (key && !strcmp(key, "}"))
                break;
            const char *val = key ? next_token(&p, end) : NULL;
            if (!key || !val || !strcmp(val, "{") || !strcmp(val, "}")) {
                free(ents);
                return fail(c, MOS_ERR_PARSE, "corrupt entities lump: entity %d is not closed by '}' "
                            "or has a key without a value", n - 1);
            }
            const char **slot = !strcmp(key, "classname") ? &e->classname : !strcmp(key, "origin") ? &e->origin
                              : !strcmp(key, "angle") ? &e->angle : !strcmp(key, "angles") ? &e->angles
                              : !strcmp(key, "mangle") ? &e->mangle
                              : !strcmp(key, "target") ? &e->target : !strcmp(key, "targetname") ? &e->targetname
                              : NULL;
            if (slot)
                *slot = val;
        }
    }
    *out = ents;
    *count = n;
    return MOS_OK;
}

/* COUNT numbers separated by blanks, each finite and at most MAX_COORD. */
static bool parse_floats(const char *s, int count, float *out)
{
    for (int i = 0; i < count; i++) {
        char *end;
        errno = 0;
        double v = strtod(s, &end);
        if (end == s || errno == ERANGE || !(fabs(v) <= MAX_COORD))
            return false;
        out[i] = (float)v;
        s = end;
    }
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == '\0';
}

static mos_result entity_origin(bsp_ctx *c, const bsp_entity *e, int index, float o[3])
{
    char pc[44], pv[44];
    if (!e->origin || !parse_floats(e->origin, 3, o))
        return fail(c, MOS_ERR_PARSE, "entity %d (classname %s): 'origin' is '%s', not three numbers", index,
                    printable(e->classname, pc), printable(e->origin, pv));
    return MOS_OK;
}

/* Quake's view angles (pitch down, yaw counter-clockwise from +x): "angles"
 * (or Quake 1's "mangle") win over "angle" (yaw only). */
static mos_result entity_forward(bsp_ctx *c, const bsp_entity *e, int index, float fwd[3])
{
    float a[3] = { 0, 0, 0 };
    const char *three = e->angles ? e->angles : e->mangle, *key = e->angles ? "angles" : e->mangle ? "mangle" : "angle";
    char pc[44], pv[44];
    if (three ? !parse_floats(three, 3, a) : e->angle ? !parse_floats(e->angle, 1, &a[1]) : false)
        return fail(c, MOS_ERR_PARSE, "entity %d (classname %s): '%s' is '%s', not %s", index,
                    printable(e->classname, pc), key, printable(three ? three : e->angle, pv),
                    three ? "three numbers" : "a number");
    const float d = 3.14159265358979f / 180.0f;
    float cp = cosf(a[0] * d), sp = sinf(a[0] * d), cy = cosf(a[1] * d), sy = sinf(a[1] * d);
    fwd[0] = cp * cy, fwd[1] = cp * sy, fwd[2] = -sp;
    return MOS_OK;
}

/* Spawn points as Quake 3-engine games name them: info_player_deathmatch and
 * info_player_start (Quake 3, OpenArena), every other info_player_* class but
 * the intermission (team1/team2, race, coop, duel variants), the CTF
 * team_CTF_{red,blue}{player,spawn}, and Urban Terror's info_ut_spawn. */
#define SPAWN_CLASSES "info_player_deathmatch, info_player_start, info_player_* (team1, team2, race, coop, ...), " \
                      "team_CTF_*player, team_CTF_*spawn, info_ut_spawn"

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

static bool is_spawn(const char *cls)
{
    if (!cls)
        return false;
    if (!strncmp(cls, "info_player_", 12))
        return strcmp(cls, "info_player_intermission") != 0;
    if (!strncmp(cls, "team_CTF_", 9))
        return ends_with(cls, "player") || ends_with(cls, "spawn");
    return !strcmp(cls, "info_ut_spawn");
}

/* The error for a map without a view: the classes looked for and the
 * distinct classes the entities lump holds (as many as the message has room
 * for; each is compared with those listed, never with every entity). */
static mos_result no_views(bsp_ctx *c, const bsp_entity *ents, int count, bool spawns)
{
    char present[512] = "";
    const char *listed[64];
    int n_listed = 0;
    size_t n = 0;
    bool more = false;
    for (int i = 0; i < count; i++) {
        const char *cls = ents[i].classname;
        bool seen = !cls;
        for (int k = 0; k < n_listed && !seen; k++)
            seen = !strcmp(listed[k], cls);
        if (seen)
            continue;
        int w = n_listed < 64 ? snprintf(present + n, sizeof present - n, "%s%s", n_listed ? ", " : "", cls) : -1;
        if (w < 0 || (size_t)w >= sizeof present - n) {
            present[n] = '\0';  /* no room: the list ends here */
            more = true;
            break;
        }
        n += (size_t)w;
        listed[n_listed++] = cls;
    }
    return fail(c, MOS_ERR_PARSE, "no view in the entities: looked for info_player_intermission, info_intermission%s; "
                "the map has %s%s", spawns ? " and spawn points (" SPAWN_CLASSES ")" : " ('views 0' reads no spawn points)",
                n_listed ? present : "no entity with a classname", more ? ", ..." : "");
}

/* Appends a view from EYE looking along FWD (Quake coordinates). */
static void add_view(scene_bsp_map *map, const char *name, const float eye[3], const float fwd[3])
{
    scene_bsp_view *v = &map->views[map->view_count++];
    snprintf(v->name, sizeof v->name, "%s", name);
    const float tq[3] = { eye[0] + 64 * fwd[0], eye[1] + 64 * fwd[1], eye[2] + 64 * fwd[2] };
    v->eye[0] = eye[0], v->eye[1] = eye[2], v->eye[2] = -eye[1];
    v->target[0] = tq[0], v->target[1] = tq[2], v->target[2] = -tq[1];
}

/* The first intermission point (Quake 1's info_intermission in converted
 * maps too), at its origin, aimed at its target entity or else along its
 * angles; none is fine. */
static mos_result intermission_view(bsp_ctx *c, const bsp_entity *ents, int count, scene_bsp_map *map)
{
    for (int i = 0; i < count; i++) {
        const bsp_entity *e = &ents[i];
        if (!e->classname || (strcmp(e->classname, "info_player_intermission") &&
                              strcmp(e->classname, "info_intermission")))
            continue;
        float eye[3], fwd[3], to[3];
        mos_result r;
        if ((r = entity_origin(c, e, i, eye)) != MOS_OK || (r = entity_forward(c, e, i, fwd)) != MOS_OK)
            return r;
        for (int k = 0; e->target && k < count; k++) {
            if (!ents[k].targetname || strcmp(ents[k].targetname, e->target) || !ents[k].origin)
                continue;
            if ((r = entity_origin(c, &ents[k], k, to)) != MOS_OK)
                return r;
            float d[3] = { to[0] - eye[0], to[1] - eye[1], to[2] - eye[2] };
            float l = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            if (l > 1e-3f)
                fwd[0] = d[0] / l, fwd[1] = d[1] / l, fwd[2] = d[2] / l;
            break;
        }
        add_view(map, "intermission", eye, fwd);
        break;
    }
    return MOS_OK;
}

/* The intermission view, then the first MAX_SPAWNS spawn points in file
 * order, eye VIEW_HEIGHT above the origin, looking along their angle(s). */
static mos_result find_views(bsp_ctx *c, const lump *ent, int max_spawns, scene_bsp_map *map)
{
    char *text = malloc((size_t)ent->count + 1);  /* one byte per element */
    map->views = malloc((size_t)(max_spawns + 1) * sizeof *map->views);
    if (!text || !map->views) {
        free(text);
        return fail(c, MOS_ERR_OUT_OF_MEMORY, "out of memory");
    }
    memcpy(text, ent->p, ent->count);
    text[ent->count] = '\0';
    bsp_entity *ents;
    int count;
    mos_result r = parse_entities(c, text, strlen(text) /* the lump ends at its NUL */, &ents, &count);
    if (r == MOS_OK)
        r = intermission_view(c, ents, count, map);
    for (int i = 0, spawns = 0; r == MOS_OK && i < count && spawns < max_spawns; i++) {
        const bsp_entity *e = &ents[i];
        float eye[3], fwd[3];
        if (!is_spawn(e->classname))
            continue;
        if ((r = entity_origin(c, e, i, eye)) != MOS_OK || (r = entity_forward(c, e, i, fwd)) != MOS_OK)
            break;
        eye[2] += VIEW_HEIGHT;
        char name[32];
        snprintf(name, sizeof name, "spawn%d", spawns++);
        add_view(map, name, eye, fwd);
    }
    if (r == MOS_OK && map->view_count == 0)
        r = no_views(c, ents, count, max_spawns > 0);
    free(ents);  /* NULL when parse_entities failed */
    free(text);
    return r;
}

/* ---- the map ----------------------------------------------------------------------- */

void scene_bsp_free(scene_bsp_map *map)
{
    for (int i = 0; i < map->material_count; i++)
        scene_mesh_free(&map->materials[i].mesh);
    free(map->materials);
    free(map->views);
    scene_bsp_atlas_free(&map->light);
    memset(map, 0, sizeof *map);
}

static mos_result build(bsp_ctx *c, const uint8_t *data, size_t size, int level, int max_spawns, scene_bsp_map *map)
{
    if (size < HEADER_SIZE)
        return fail(c, MOS_ERR_PARSE, "truncated: %zu bytes, shorter than the %d-byte BSP header", size, HEADER_SIZE);
    if (memcmp(data, "IBSP", 4)) {
        char magic[5];
        for (int i = 0; i < 4; i++)
            magic[i] = data[i] >= 0x20 && data[i] < 0x7f ? (char)data[i] : '?';
        magic[4] = '\0';
        return fail(c, MOS_ERR_PARSE, "not a Quake 3 BSP (magic '%s', expected 'IBSP')", magic);
    }
    if (le32(data + 4) != 46)
        return fail(c, MOS_ERR_PARSE, "IBSP version %d; only version 46 (Quake 3, OpenArena) is supported",
                    le32(data + 4));
    lump ent, tex, verts, mv, faces, lightmaps;
    mos_result r;
    if ((r = get_lump(c, data, size, LUMP_ENTITIES, "entities", 1, &ent)) != MOS_OK ||
        (r = get_lump(c, data, size, LUMP_LIGHTMAPS, "lightmaps", 1, &lightmaps)) != MOS_OK ||
        (r = get_lump(c, data, size, LUMP_TEXTURES, "textures", TEXTURE_SIZE, &tex)) != MOS_OK ||
        (r = get_lump(c, data, size, LUMP_VERTICES, "vertices", VERTEX_SIZE, &verts)) != MOS_OK ||
        (r = get_lump(c, data, size, LUMP_MESHVERTS, "mesh indices", 4, &mv)) != MOS_OK ||
        (r = get_lump(c, data, size, LUMP_FACES, "faces", FACE_SIZE, &faces)) != MOS_OK)
        return r;

    /* Pass 1: check every face, count vertices and triangles per texture. */
    uint64_t *counts = calloc((size_t)tex.count * 2 + 1, sizeof *counts);
    if (!counts)
        return fail(c, MOS_ERR_OUT_OF_MEMORY, "out of memory");
    uint64_t total = 0;
    const scene_bsp_atlas lump_light = { .maps = (int)(lightmaps.count / (128 * 128 * 3)) };
    uint32_t vertex_lit = 0;
    for (uint32_t i = 0; i < faces.count; i++) {
        bsp_face f = face_at(&faces, i);
        uint64_t nv, nt;
        if ((r = face_size(c, &f, i, &tex, &verts, &mv, level, &nv, &nt)) != MOS_OK)
            break;
        if (nt) {
            vertex_lit += !has_lightmap(&f, &lump_light);
            counts[2 * f.texture] += nv;
            counts[2 * f.texture + 1] += nt;
            total += nt;
            map->faces_drawn++;
        } else {
            map->faces_skipped++;
            const uint8_t *t = tex.p + (size_t)f.texture * TEXTURE_SIZE;  /* checked by face_size */
            if (!map->sky[0] && ((uint32_t)le32(t + 64) & SURF_SKY))
                for (int k = 0; k < 63 && t[k]; k++)
                    map->sky[k] = t[k] >= 0x20 && t[k] < 0x7f ? (char)t[k] : '?';
        }
        if (total > SCENE_MAX_MESH_TRIANGLES || counts[2 * f.texture] > UINT32_MAX / 2) {
            r = fail(c, MOS_ERR_PARSE, "more than %u triangles (the limit per map) at patch level %d",
                     SCENE_MAX_MESH_TRIANGLES, level);
            break;
        }
    }
    if (r == MOS_OK && total == 0)
        r = fail(c, MOS_ERR_PARSE, "no drawable faces (%u faces, %u textures)", faces.count, tex.count);
    const char *why;
    mos_result lr = r == MOS_OK ? scene_bsp_atlas_init(&map->light, lightmaps.p, lightmaps.count, vertex_lit, &why)
                                : MOS_OK;
    if (lr != MOS_OK)
        r = fail(c, lr, "%s", why);

    /* Pass 2: one mesh per used texture, in texture-lump order; faces in file order. */
    int *slot = r == MOS_OK ? malloc((size_t)tex.count * sizeof *slot) : NULL;
    if (r == MOS_OK && !slot)
        r = fail(c, MOS_ERR_OUT_OF_MEMORY, "out of memory");
    int used = 0;
    for (uint32_t t = 0; r == MOS_OK && t < tex.count; t++)
        used += counts[2 * t + 1] > 0;
    if (r == MOS_OK && !(map->materials = calloc((size_t)used, sizeof *map->materials)))
        r = fail(c, MOS_ERR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t t = 0; r == MOS_OK && t < tex.count; t++) {
        slot[t] = -1;
        if (!counts[2 * t + 1])
            continue;
        scene_bsp_material *mat = &map->materials[map->material_count];
        const uint8_t *e = tex.p + (size_t)t * TEXTURE_SIZE;
        for (int k = 0; k < 63 && e[k]; k++)
            mat->name[k] = e[k] >= 0x20 && e[k] < 0x7f && e[k] != '"' ? (char)e[k] : '?';
        mat->surface_flags = (uint32_t)le32(e + 64);
        mat->contents = (uint32_t)le32(e + 68);
        mat->mesh.stride = STRIDE;
        mat->mesh.verts = malloc((size_t)counts[2 * t] * STRIDE * sizeof(float));
        mat->mesh.indices = malloc((size_t)counts[2 * t + 1] * 3 * sizeof(uint32_t));
        slot[t] = map->material_count++;
        if (!mat->mesh.verts || !mat->mesh.indices)
            r = fail(c, MOS_ERR_OUT_OF_MEMORY, "out of memory (%llu triangles)", (unsigned long long)total);
    }
    for (uint32_t i = 0; r == MOS_OK && i < faces.count; i++) {
        bsp_face f = face_at(&faces, i);
        uint64_t nv, nt;
        face_size(c, &f, i, &tex, &verts, &mv, level, &nv, &nt);  /* checked in pass 1 */
        if (!nt)
            continue;
        scene_mesh *m = &map->materials[slot[f.texture]].mesh;
        r = f.type == FACE_PATCH ? add_patch(c, m, &f, &verts, level, &map->light)
                                 : add_polygon(c, m, &f, &verts, &mv, &map->light);
    }
    free(slot);
    free(counts);
    if (r == MOS_OK && max_spawns >= 0)
        r = find_views(c, &ent, max_spawns, map);
    return r;
}

mos_result scene_bsp_load(const char *path, const char *entry, int patch_level, int max_spawns,
                          scene_bsp_map *map, int *err_arg, char *err, size_t err_size)
{
    memset(map, 0, sizeof *map);
    *err_arg = entry ? SCENE_BSP_ARG_ENTRY : SCENE_BSP_ARG_PATH;
    char name[600];
    if (entry)
        snprintf(name, sizeof name, "'%s' in '%s'", entry, path);
    else
        snprintf(name, sizeof name, "'%s'", path);
    bsp_ctx c = { name, err, err_size, err_arg };
    if (patch_level < 1 || patch_level > SCENE_BSP_MAX_PATCH_LEVEL || max_spawns > SCENE_BSP_MAX_SPAWNS)
        return fail(&c, MOS_ERR_INVALID_ARGUMENT, "bad patch level or spawn count");

    uint8_t *data = NULL;
    size_t size = 0;
    mos_result r = entry ? read_pk3(&c, path, entry, &data, &size) : read_plain(&c, path, &data, &size);
    if (r != MOS_OK)
        return r;
    if (!entry && size >= 4 && !memcmp(data, "PK\3\4", 4)) {
        free(data);
        return fail(&c, MOS_ERR_PARSE, "is a zip archive (.pk3); name the map inside it, e.g. maps/NAME.bsp");
    }
    r = build(&c, data, size, patch_level, max_spawns, map);
    free(data);
    if (r != MOS_OK)
        scene_bsp_free(map);
    return r;
}
