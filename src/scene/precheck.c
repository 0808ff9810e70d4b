/* precheck.c — what assimp would trust in a mesh file, checked before it reads the file: the element
 * counts of a PLY header (assimp allocates for them before reading a byte of data), the vertex and face
 * counts of an OFF header, a GLB's chunk lengths, and the nesting of a glTF/GLB document (assimp and its
 * JSON parser recurse once per level: JSON nesting and the node hierarchy, precheck_gltf.c).  The format is told by the file's bytes, not its
 * name, as assimp falls back to them.  Fed by import.c with the file it opened. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <assimp/cimport.h>

#include "scene/scene_priv.h"

#define HEADER_MAX (1u << 20)            /* PLY / OFF header bytes read */
#define JSON_MAX ((uint64_t)1 << 30)     /* glTF JSON bytes read */

/* Reads up to WANT bytes at offset OFF into BUF; the count read. */
static size_t read_at(int fd, uint8_t *buf, size_t want, uint64_t off)
{
    size_t got = 0;
    while (got < want) {
        ssize_t n = pread(fd, buf + got, want - got, (off_t)(off + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    return got;
}

/* ---- PLY ---------------------------------------------------------------------------- */

/* The next whitespace-separated word of the header line at *C (advanced), or NULL at the line's end. */
static const char *word(const char **c, const char *end, size_t *len)
{
    while (*c < end && (**c == ' ' || **c == '\t' || **c == '\r'))
        (*c)++;
    if (*c >= end || **c == '\n')
        return NULL;
    const char *w = *c;
    while (*c < end && **c != ' ' && **c != '\t' && **c != '\r' && **c != '\n')
        (*c)++;
    *len = (size_t)(*c - w);
    return w;
}

static bool is_word(const char *w, size_t n, const char *s) { return w && n == strlen(s) && !memcmp(w, s, n); }

/* Bytes of PLY scalar type W, 0 if it is none. */
static unsigned ply_type_size(const char *w, size_t n)
{
    static const struct { const char *name; unsigned size; } types[] = {
        { "char", 1 }, { "uchar", 1 }, { "int8", 1 }, { "uint8", 1 }, { "short", 2 }, { "ushort", 2 },
        { "int16", 2 }, { "uint16", 2 }, { "int", 4 }, { "uint", 4 }, { "int32", 4 }, { "uint32", 4 },
        { "float", 4 }, { "float32", 4 }, { "double", 8 }, { "float64", 8 },
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (is_word(w, n, types[i].name))
            return types[i].size;
    return 0;
}

#define PLY_MAX_PROPS 256  /* per element */

typedef struct ply_prop {
    uint8_t size;        /* a scalar's bytes, or a list's items' */
    uint8_t count_size;  /* a list's count's bytes; 0 = a scalar */
    bool count_signed;
} ply_prop;

typedef struct ply_element {
    char name[32];
    uint64_t count;
    uint64_t min_bytes;  /* the least one instance takes in the file */
    ply_prop props[PLY_MAX_PROPS];
    int prop_count;
} ply_element;

static void element_noun(const ply_element *e, char *out, size_t size)
{
    if (!strcmp(e->name, "vertex"))
        snprintf(out, size, "vertices");
    else if (!strcmp(e->name, "face"))
        snprintf(out, size, "faces");
    else
        snprintf(out, size, "'%.31s' elements", e->name);
}

static void ply_list_error(const ply_element *e, uint64_t i, const ply_prop *pr, bool neg, uint64_t items,
                           uint64_t left, const char *path, char *err, size_t err_size)
{
    if (neg)
        snprintf(err, err_size, "'%s': PLY %.31s %llu lists a negative count of items", path, e->name,
                 (unsigned long long)i);
    else
        snprintf(err, err_size, "'%s': PLY %.31s %llu lists %llu items (%u bytes each) but only %llu bytes follow",
                 path, e->name, (unsigned long long)i, (unsigned long long)items, pr->size, (unsigned long long)left);
}

/* The data after the header, element by element: every list's declared length must fit the bytes
 * left (assimp reserves room for it first).  A file that ends early is left to assimp. */
static mos_result ply_walk(const uint8_t *d, const uint8_t *end, int format, const ply_element *el, int n_el,
                           const char *path, char *err, size_t err_size)
{
    for (int k = 0; k < n_el; k++) {
        const ply_element *e = &el[k];
        for (uint64_t i = 0; i < e->count; i++) {
            for (int q = 0; q < e->prop_count; q++) {
                const ply_prop *pr = &e->props[q];
                if (format) {  /* binary */
                    const size_t need = pr->count_size ? pr->count_size : pr->size;
                    if ((size_t)(end - d) < need)
                        return MOS_OK;
                    if (!pr->count_size) {
                        d += need;
                        continue;
                    }
                    uint64_t cnt = 0;
                    for (unsigned b = 0; b < pr->count_size; b++)
                        cnt |= (uint64_t)d[format == 1 ? b : pr->count_size - 1 - b] << (8 * b);
                    d += pr->count_size;
                    const bool neg = pr->count_signed && (cnt >> (8 * pr->count_size - 1)) & 1;
                    if (neg || cnt > (uint64_t)(end - d) / pr->size) {
                        ply_list_error(e, i, pr, neg, cnt, (uint64_t)(end - d), path, err, err_size);
                        return MOS_ERR_PARSE;
                    }
                    d += cnt * pr->size;
                    continue;
                }
                /* ascii: whitespace-separated numbers */
                uint64_t tokens = 1;
                for (uint64_t t = 0; t < tokens; t++) {
                    while (d < end && (*d == ' ' || *d == '\t' || *d == '\r' || *d == '\n'))
                        d++;
                    if (d == end)
                        return MOS_OK;
                    const uint8_t *tok = d;
                    while (d < end && !(*d == ' ' || *d == '\t' || *d == '\r' || *d == '\n'))
                        d++;
                    if (t == 0 && pr->count_size) {
                        uint64_t cnt = 0;
                        const bool neg = *tok == '-';
                        for (const uint8_t *c = tok + (neg || *tok == '+'); c < d && *c >= '0' && *c <= '9'; c++)
                            cnt = cnt > UINT64_MAX / 20 ? UINT64_MAX / 2 : cnt * 10 + (uint64_t)(*c - '0');
                        if ((neg && cnt) || cnt > (uint64_t)(end - d) / 2 + 1) {
                            ply_list_error(e, i, pr, neg, cnt, (uint64_t)(end - d), path, err, err_size);
                            return MOS_ERR_PARSE;
                        }
                        tokens += cnt;
                    }
                }
            }
        }
    }
    return MOS_OK;
}

#define PLY_MAX_ELEMENTS 64

/* What the header says: the data's format, the elements, where the data begins. */
typedef struct ply_header {
    int format;  /* 0 ascii, 1 binary little-endian, 2 binary big-endian; -1 before the format line */
    ply_element el[PLY_MAX_ELEMENTS];
    int n_el;
    size_t bytes;  /* the header's, up to and with the end_header line */
} ply_header;

static mos_result ply_malformed(const char *path, int line, char *err, size_t err_size)
{
    snprintf(err, err_size, "'%s': PLY header line %d is malformed", path, line);
    return MOS_ERR_PARSE;
}

/* The rest of header line LINE `element NAME COUNT` at *C: a new element. */
static mos_result ply_element_line(ply_header *ph, const char **c, const char *eol, int line, const char *path,
                                   char *err, size_t err_size)
{
    if (ph->n_el == PLY_MAX_ELEMENTS) {
        snprintf(err, err_size, "'%s': PLY header declares more than %d elements", path, ph->n_el);
        return MOS_ERR_PARSE;
    }
    ply_element *e = &ph->el[ph->n_el++];
    size_t n = 0;
    const char *w = word(c, eol, &n);
    snprintf(e->name, sizeof e->name, "%.*s", (int)(n < 31 ? n : 31), w ? w : "");
    const char *cnt = word(c, eol, &n);
    if (!w || !cnt)
        return ply_malformed(path, line, err, err_size);
    for (int i = 0; i < ph->n_el - 1; i++)
        if (!strcmp(ph->el[i].name, e->name)) {
            /* assimp builds one mesh from both and frees it wrongly (found by fuzz_mesh) */
            snprintf(err, err_size, "'%s': PLY header line %d declares element '%s' a second time", path, line,
                     e->name);
            return MOS_ERR_PARSE;
        }
    e->count = 0;
    for (size_t k = 0; k < n; k++) {
        if (cnt[k] < '0' || cnt[k] > '9' || e->count > UINT64_MAX / 20)
            return ply_malformed(path, line, err, err_size);
        e->count = e->count * 10 + (uint64_t)(cnt[k] - '0');
    }
    e->min_bytes = 0;
    e->prop_count = 0;
    return MOS_OK;
}

/* The rest of header line LINE `property TYPE NAME` or `property list COUNT_TYPE ITEM_TYPE NAME` at *C:
 * a property of the last element. */
static mos_result ply_property_line(ply_header *ph, const char **c, const char *eol, int line, const char *path,
                                    char *err, size_t err_size)
{
    if (!ph->n_el || ph->format < 0)
        return ply_malformed(path, line, err, err_size);
    ply_element *e = &ph->el[ph->n_el - 1];
    if (e->prop_count == PLY_MAX_PROPS) {
        snprintf(err, err_size, "'%s': PLY element '%s' has more than %d properties", path, e->name, PLY_MAX_PROPS);
        return MOS_ERR_PARSE;
    }
    ply_prop *pr = &e->props[e->prop_count++];
    size_t n = 0;
    const char *w = word(c, eol, &n);
    if (is_word(w, n, "list")) {
        w = word(c, eol, &n);  /* the count's type; the items may be none */
        const unsigned cs = ply_type_size(w, n);
        pr->count_signed = w && w[0] != 'u';
        w = word(c, eol, &n);  /* the items' type */
        const unsigned is = ply_type_size(w, n);
        if (!cs || !is)
            return ply_malformed(path, line, err, err_size);
        pr->count_size = (uint8_t)cs;
        pr->size = (uint8_t)is;
        e->min_bytes += ph->format ? cs : 2;
    } else {
        unsigned sz = ply_type_size(w, n);
        if (!sz)
            return ply_malformed(path, line, err, err_size);
        pr->size = (uint8_t)sz;
        pr->count_size = 0;
        e->min_bytes += ph->format ? sz : 2;  /* ascii: a digit and a separator */
    }
    return MOS_OK;
}

/* The header at the file's start H (HN bytes read) into PH. */
static mos_result ply_read_header(const uint8_t *h, size_t hn, ply_header *ph, const char *path, char *err,
                                  size_t err_size)
{
    const char *c = (const char *)h, *end = c + hn;
    ph->format = -1;
    ph->n_el = 0;
    bool done = false;
    int line = 0;
    while (c < end && !done) {
        line++;
        const char *eol = memchr(c, '\n', (size_t)(end - c));
        if (!eol)
            break;  /* the header does not end within what was read */
        size_t n;
        const char *w = word(&c, eol, &n);
        mos_result r = MOS_OK;
        if (line == 1) {
            if (!is_word(w, n, "ply"))
                return ply_malformed(path, line, err, err_size);
        } else if (!w || is_word(w, n, "comment") || is_word(w, n, "obj_info")) {
        } else if (is_word(w, n, "format")) {
            w = word(&c, eol, &n);
            ph->format = is_word(w, n, "ascii") ? 0 : is_word(w, n, "binary_little_endian") ? 1
                       : is_word(w, n, "binary_big_endian") ? 2 : -2;
            if (ph->format == -2) {
                snprintf(err, err_size, "'%s': PLY header line %d: unknown format '%.*s'", path, line,
                         (int)(n < 40 ? n : 40), w ? w : "");
                return MOS_ERR_PARSE;
            }
        } else if (is_word(w, n, "element")) {
            r = ply_element_line(ph, &c, eol, line, path, err, err_size);
        } else if (is_word(w, n, "property")) {
            r = ply_property_line(ph, &c, eol, line, path, err, err_size);
        } else if (is_word(w, n, "end_header")) {
            done = true;
        }  /* other lines: skipped, as assimp does (Blender wrote "Created by ..." lines) */
        if (r != MOS_OK)
            return r;
        c = eol + 1;
    }
    if (!done || ph->format < 0) {
        snprintf(err, err_size, "'%s': PLY header %s", path,
                 !done ? "has no end_header line within its first 1 MiB" : "has no format line");
        return MOS_ERR_PARSE;
    }
    ph->bytes = (size_t)(c - (const char *)h);
    return MOS_OK;
}

/* Each element's count against the bytes the file has for it and, for faces and vertices, against
 * MAX_TRIS and the per-mesh cap. */
static mos_result ply_check_counts(const ply_header *ph, uint64_t size, const char *path, uint64_t max_tris,
                                   char *err, size_t err_size)
{
    const uint64_t data = size - (uint64_t)ph->bytes + (ph->format ? 0 : 1);  /* ascii: no last separator */
    const uint64_t tri_cap = max_tris < SCENE_MAX_MESH_TRIANGLES ? max_tris : SCENE_MAX_MESH_TRIANGLES;
    /* The bytes the elements so far leave, with some slack: assimp reads a
     * file cut short by a few elements (its own test models hold one). */
    uint64_t left = data + data / 8 + 1024;
    char noun[64];
    for (int i = 0; i < ph->n_el; i++) {
        const ply_element *e = &ph->el[i];
        element_noun(e, noun, sizeof noun);
        const uint64_t per = e->min_bytes ? e->min_bytes : 1;
        if (e->count > left / per) {
            snprintf(err, err_size, "'%s': PLY declares %llu %s (at least %llu bytes each) but the file is only "
                     "%llu bytes", path, (unsigned long long)e->count, noun, (unsigned long long)per,
                     (unsigned long long)size);
            return MOS_ERR_PARSE;
        }
        left -= e->count * per;
        const bool face = !strcmp(e->name, "face") || !strcmp(e->name, "tristrips");
        const uint64_t cap = face ? tri_cap : 3 * tri_cap;
        if (e->count > cap) {
            snprintf(err, err_size, "'%s': PLY declares %llu %s; at most %llu are allowed (%s)", path,
                     (unsigned long long)e->count, noun, (unsigned long long)cap,
                     max_tris < SCENE_MAX_MESH_TRIANGLES ? "the scene's triangle budget left"
                                                         : "the triangle cap per mesh");
            return MOS_ERR_PARSE;
        }
    }
    return MOS_OK;
}

/* A PLY file (open as FD, SIZE bytes; H: its first HN bytes): the header, the counts it declares, then the
 * lists in the data. */
static mos_result ply_check(int fd, const uint8_t *h, size_t hn, uint64_t size, const char *path, uint64_t max_tris,
                            char *err, size_t err_size)
{
    ply_header ph;
    mos_result r = ply_read_header(h, hn, &ph, path, err, err_size);
    if (r == MOS_OK)
        r = ply_check_counts(&ph, size, path, max_tris, err, err_size);
    if (r != MOS_OK)
        return r;
    /* The data, mapped: lists declare their own lengths. */
    if (size <= ph.bytes || size > SIZE_MAX)
        return MOS_OK;
    void *map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED)
        return MOS_OK;  /* left to assimp (it reads the file its own way) */
    r = ply_walk((const uint8_t *)map + ph.bytes, (const uint8_t *)map + size, ph.format, ph.el, ph.n_el, path, err,
                 err_size);
    munmap(map, (size_t)size);
    return r;
}

/* ---- OFF: "[ST][C][N][4]OFF" then "vertices faces edges" ----------------------------------- */

/* The next line of [*p, end) holding more than blanks, as [*ls, *le); *line counts lines. */
static bool off_line(const char **p, const char *end, const char **ls, const char **le, uint64_t *line)
{
    while (*p < end) {
        const char *s = *p, *e = memchr(s, '\n', (size_t)(end - s));
        e = e ? e : end;
        *p = e < end ? e + 1 : end;
        (*line)++;
        for (const char *c = s; c < e; c++)
            if (*c != ' ' && *c != '\t' && *c != '\r') {
                *ls = c;
                *le = e;
                return true;
            }
    }
    return false;
}

/* The next token of [*c, end) as [*t, *c); false at the end. */
static bool off_token(const char **c, const char *end, const char **t)
{
    while (*c < end && (**c == ' ' || **c == '\t' || **c == '\r'))
        (*c)++;
    if (*c >= end)
        return false;
    *t = *c;
    while (*c < end && **c != ' ' && **c != '\t' && **c != '\r')
        (*c)++;
    return true;
}

/* The vertex and face lines after the counts: assimp's OFF importer leaves faces half made (and its
 * scene preprocessor then reads past them) when lines are missing or malformed, so only well-formed
 * files go on: NV lines of at least 3 numbers, then NF lines of a count N (1 to 9) and N indices
 * below NV (more numbers may follow: colours). */
static mos_result off_walk(const char *p, const char *end, uint64_t line, uint64_t nv, uint64_t nf, const char *path,
                           char *err, size_t err_size)
{
    const char *ls, *le, *t;
    for (uint64_t i = 0; i < nv; i++) {
        if (!off_line(&p, end, &ls, &le, &line)) {
            snprintf(err, err_size, "'%s': OFF declares %llu vertices but holds %llu", path, (unsigned long long)nv,
                     (unsigned long long)i);
            return MOS_ERR_PARSE;
        }
        int numbers = 0;
        for (const char *c = ls; off_token(&c, le, &t);) {
            char *e;
            char buf[64];
            snprintf(buf, sizeof buf, "%.*s", (int)(c - t < 63 ? c - t : 63), t);
            (void)strtod(buf, &e);
            if (e == buf || *e)
                break;
            numbers++;
        }
        if (numbers < 3) {
            snprintf(err, err_size, "'%s': OFF vertex %llu (line %llu) has %d coordinates, not 3", path,
                     (unsigned long long)i, (unsigned long long)line, numbers);
            return MOS_ERR_PARSE;
        }
    }
    for (uint64_t i = 0; i < nf; i++) {
        if (!off_line(&p, end, &ls, &le, &line)) {
            snprintf(err, err_size, "'%s': OFF declares %llu faces but holds %llu", path, (unsigned long long)nf,
                     (unsigned long long)i);
            return MOS_ERR_PARSE;
        }
        const char *c = ls;
        uint64_t want = 0;
        for (uint64_t k = 0;; k++) {
            if (k > want)
                break;
            uint64_t x = 0;
            bool digits = off_token(&c, le, &t);
            for (const char *d = t; digits && d < c; d++) {
                digits = *d >= '0' && *d <= '9';
                x = x > UINT64_MAX / 20 ? UINT64_MAX / 2 : x * 10 + (uint64_t)(*d - '0');
            }
            if (!digits) {
                snprintf(err, err_size, "'%s': OFF face %llu (line %llu) is not a count and that many vertex indices",
                         path, (unsigned long long)i, (unsigned long long)line);
                return MOS_ERR_PARSE;
            }
            if (k == 0) {
                if (x < 1 || x > 9) {
                    snprintf(err, err_size, "'%s': OFF face %llu (line %llu) has %llu vertex indices (1 to 9 are read)",
                             path, (unsigned long long)i, (unsigned long long)line, (unsigned long long)x);
                    return MOS_ERR_PARSE;
                }
                want = x;
            } else if (x >= nv) {
                snprintf(err, err_size, "'%s': OFF face %llu (line %llu) names vertex %llu of %llu", path,
                         (unsigned long long)i, (unsigned long long)line, (unsigned long long)x, (unsigned long long)nv);
                return MOS_ERR_PARSE;
            }
        }
    }
    return MOS_OK;
}

static mos_result off_check(int fd, const uint8_t *h, size_t hn, size_t kw_end, uint64_t size, const char *path,
                            uint64_t max_tris, char *err, size_t err_size)
{
    const char *c = (const char *)h + kw_end, *end = (const char *)h + hn;
    uint64_t v[2] = { 0, 0 };
    int got = 0;
    /* The counts: the first numbers after the keyword, past comments. */
    while (c < end && got < 2) {
        if (*c == '#') {
            while (c < end && *c != '\n')
                c++;
        } else if (*c >= '0' && *c <= '9') {
            uint64_t x = 0;
            while (c < end && *c >= '0' && *c <= '9') {
                x = x > UINT64_MAX / 20 ? UINT64_MAX / 2 : x * 10 + (uint64_t)(*c - '0');
                c++;
            }
            v[got++] = x;
        } else if (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n') {
            c++;
        } else {
            return MOS_OK;  /* not what assimp reads as counts: it refuses the file itself */
        }
    }
    const uint64_t tri_cap = max_tris < SCENE_MAX_MESH_TRIANGLES ? max_tris : SCENE_MAX_MESH_TRIANGLES;
    if (v[0] > 3 * tri_cap || v[1] > tri_cap) {
        snprintf(err, err_size, "'%s': OFF declares %llu vertices and %llu faces; at most %llu and %llu are allowed",
                 path, (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)(3 * tri_cap),
                 (unsigned long long)tri_cap);
        return MOS_ERR_PARSE;
    }
    /* ascii: a vertex is at least three numbers, a face its count and three indices, 2 bytes each */
    if (v[0] * 6 + v[1] * 8 > size) {
        snprintf(err, err_size, "'%s': OFF declares %llu vertices and %llu faces but the file is only %llu bytes",
                 path, (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)size);
        return MOS_ERR_PARSE;
    }
    if (got < 2)
        return MOS_OK;  /* assimp refuses it itself */
    if (memchr(h, 'n', kw_end)) {
        snprintf(err, err_size, "'%s': nOFF (a dimension line) is not read", path);
        return MOS_ERR_PARSE;
    }
    /* The rest of the counts line, then the data, mapped. */
    while (c < end && *c != '\n')
        c++;
    if (c < end)
        c++;
    uint64_t line = 1;
    for (const char *q = (const char *)h; q < c; q++)
        line += *q == '\n';
    const size_t off = (size_t)(c - (const char *)h);
    if (size <= off || size > SIZE_MAX)
        return off_walk(c, c, line - 1, v[0], v[1], path, err, err_size);
    void *map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
        snprintf(err, err_size, "cannot read '%s'", path);
        return MOS_ERR_IO;
    }
    mos_result r = off_walk((const char *)map + off, (const char *)map + size, line - 1, v[0], v[1], path, err,
                            err_size);
    munmap(map, (size_t)size);
    return r;
}

/* ---- which format, and its check ---------------------------------------------------------- */

static uint32_t le32(const uint8_t *p) { return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

enum mesh_kind { KIND_OTHER, KIND_PLY, KIND_JSON, KIND_OFF };

/* Which of the checked formats assimp will read the file as: by its extension when assimp knows
 * the extension (it then picks the importer by it alone), else by its bytes, as assimp's importers'
 * CanRead would claim it (the PLY importer claims a file with "ply" in its first 200 bytes). */
static enum mesh_kind mesh_kind(const char *path, const uint8_t *h, size_t got, size_t *kw_end)
{
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    char ext[16] = "";
    if (dot && (!slash || dot > slash) && strlen(dot) < sizeof ext) {
        for (size_t i = 0; dot[i]; i++)
            ext[i] = (char)(dot[i] >= 'A' && dot[i] <= 'Z' ? dot[i] - 'A' + 'a' : dot[i]);
    }
    /* OFF: a keyword ([ST][C][N][4][n]OFF) and whitespace */
    size_t k = 0;
    while (k < got && k < 8 && strchr("STCN4n", h[k]))
        k++;
    const bool off_kw = k + 3 <= got && !memcmp(h + k, "OFF", 3) && (k + 3 == got || strchr(" \t\r\n", h[k + 3]));
    *kw_end = off_kw ? k + 3 : 0;
    if (ext[0] && aiIsExtensionSupported(ext)) {
        if (!strcmp(ext, ".ply"))
            return KIND_PLY;
        if (!strcmp(ext, ".gltf") || !strcmp(ext, ".glb"))
            return KIND_JSON;
        if (!strcmp(ext, ".off"))
            return KIND_OFF;
        return KIND_OTHER;
    }
    size_t lead = 0;
    while (lead < got && strchr(" \t\r\n", h[lead]))
        lead++;
    if ((lead < got && h[lead] == '{') || (got >= 4 && !memcmp(h, "glTF", 4)))
        return KIND_JSON;
    if (off_kw)
        return KIND_OFF;
    for (size_t i = 0; i + 3 <= got && i < 200; i++)
        if ((h[i] | 0x20) == 'p' && (h[i + 1] | 0x20) == 'l' && (h[i + 2] | 0x20) == 'y')
            return KIND_PLY;
    return KIND_OTHER;
}

mos_result scene_mesh_precheck(int fd, uint64_t size, const char *path, uint64_t max_tris, char *err,
                               size_t err_size)
{
    const size_t hn = size < HEADER_MAX ? (size_t)size : HEADER_MAX;
    uint8_t *h = malloc(hn + 1);
    if (!h) {
        snprintf(err, err_size, "out of memory reading '%s'", path);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    const size_t got = read_at(fd, h, hn, 0);
    h[got] = 0;
    size_t kw_end;
    const enum mesh_kind kind = mesh_kind(path, h, got, &kw_end);
    mos_result r = MOS_OK;
    if (kind == KIND_PLY) {
        r = ply_check(fd, h, got, size, path, max_tris, err, err_size);
    } else if (kind == KIND_JSON && got >= 20 && !memcmp(h, "glTF", 4)) {
        /* Binary glTF: assimp allocates what its chunk lengths say before reading them.  Version 2:
         * the JSON chunk's length at 12, then the BIN chunk's 8-byte header after the JSON (padded to
         * 4) when the total length at 8 reaches it; version 1: the JSON's length at 12. */
        const uint64_t jn = le32(h + 12), total = le32(h + 8);
        const uint64_t bin_at = 20 + ((jn + 3) & ~(uint64_t)3);
        uint8_t bh[8];
        if (jn > size - 20) {
            snprintf(err, err_size, "'%s': binary glTF declares %llu bytes of JSON but the file is only %llu bytes",
                     path, (unsigned long long)jn, (unsigned long long)size);
            r = MOS_ERR_PARSE;
        } else if (le32(h + 4) >= 2 && total >= bin_at + 8 && read_at(fd, bh, 8, bin_at) == 8 &&
                   le32(bh) > size - (bin_at + 8 < size ? bin_at + 8 : size)) {
            snprintf(err, err_size, "'%s': binary glTF declares a %llu-byte BIN chunk but the file is only %llu bytes",
                     path, (unsigned long long)le32(bh), (unsigned long long)size);
            r = MOS_ERR_PARSE;
        } else {
            char *text = malloc((size_t)jn + 1);
            if (text) {
                size_t tn = read_at(fd, (uint8_t *)text, (size_t)jn, 20);
                text[tn] = 0;
                r = scene_gltf_precheck(text, tn, path, err, err_size);
                free(text);
            } else {
                snprintf(err, err_size, "out of memory reading '%s'", path);
                r = MOS_ERR_OUT_OF_MEMORY;
            }
        }
    } else if (kind == KIND_JSON) {
        /* JSON (glTF): the whole text */
        if (size > JSON_MAX) {
            snprintf(err, err_size, "'%s': a JSON mesh file of %llu bytes is over the %llu-byte limit", path,
                     (unsigned long long)size, (unsigned long long)JSON_MAX);
            r = MOS_ERR_BAD_SIZE;
        } else {
            char *text = got == size ? (char *)h : malloc((size_t)size + 1);
            size_t tn = got == size ? got : (text ? read_at(fd, (uint8_t *)text, (size_t)size, 0) : 0);
            if (text)
                text[tn] = 0;
            r = text ? scene_gltf_precheck(text, tn, path, err, err_size) : MOS_ERR_OUT_OF_MEMORY;
            if (!text)
                snprintf(err, err_size, "out of memory reading '%s'", path);
            if (text != (char *)h)
                free(text);
        }
    } else if (kind == KIND_OFF) {
        if (!kw_end) {
            snprintf(err, err_size, "'%s': an OFF file begins with its keyword ([ST][C][N][4]OFF)", path);
            r = MOS_ERR_PARSE;
        } else {
            r = off_check(fd, h, got, kw_end, size, path, max_tris, err, err_size);
        }
    }
    free(h);
    return r;
}
