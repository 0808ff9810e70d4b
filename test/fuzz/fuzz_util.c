/* fuzz_util.c — the fuzz targets' temporary folder and fixture files (fuzz_util.h).
 * Linked into every fuzz target and its replay binary; process-wide state is this harness's own. */
#include "fuzz_util.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

static char fuzz_dir_path[FUZZ_PATH_MAX];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

static void remove_dir(void)
{
    nftw(fuzz_dir_path, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_dir(void)
{
    if (!fuzz_dir_path[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(fuzz_dir_path, sizeof fuzz_dir_path, "%s/mosaic-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(fuzz_dir_path)) {
            perror(fuzz_dir_path);
            abort();
        }
        atexit(remove_dir);
    }
    return fuzz_dir_path;
}

void fuzz_write(const char *name, const void *data, size_t size, char out[FUZZ_PATH_MAX])
{
    if (snprintf(out, FUZZ_PATH_MAX, "%s/%s", fuzz_dir(), name) >= FUZZ_PATH_MAX) {
        fprintf(stderr, "fuzz_write: %s/%s: path too long\n", fuzz_dir(), name);
        abort();
    }
    FILE *f = fopen(out, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror(out);
        abort();
    }
}

int fuzz_verbose(void)
{
    static int verbose = -1;
    if (verbose < 0)
        verbose = getenv("MOSAIC_FUZZ_VERBOSE") != NULL;
    return verbose;
}

void fuzz_traps(const char *fifo)
{
    char path[FUZZ_PATH_MAX];
    if (snprintf(path, sizeof path, "%s/escape.png", fuzz_dir()) >= (int)sizeof path ||
        symlink("/etc/passwd", path) != 0)
        abort();
    if (snprintf(path, sizeof path, "%s/%s", fuzz_dir(), fifo) >= (int)sizeof path || mkfifo(path, 0600) != 0)
        abort();
}

void fuzz_once(void (*setup)(void))
{
    static int ready;
    if (!ready) {
        setup();
        ready = 1;
    }
}

/* Whether ERR reads "PATH:LINE:COL: message". */
static int well_formed(const char *err, const char *path)
{
    size_t n = strlen(path);
    if (strncmp(err, path, n) || err[n] != ':')
        return 0;
    const char *c = err + n + 1;
    for (int field = 0; field < 2; field++) {
        if (*c < '1' || *c > '9')
            return 0;
        while (*c >= '0' && *c <= '9')
            c++;
        if (*c++ != ':')
            return 0;
    }
    return *c == ' ' && c[1] != '\0';
}

void fuzz_check_error(const char *who, const char *err, const char *path)
{
    if (fuzz_verbose())
        fprintf(stderr, "%s: %s\n", who, err);
    if (!well_formed(err, path)) {
        fprintf(stderr, "%s: malformed error message: '%s'\n", who, err);
        abort();
    }
}

/* ---- little-endian writers -------------------------------------------------------------- */

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v & 0xffff), put16(p + 2, v >> 16); }
static void putf(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    put32(p, u);
}

/* ---- the map ------------------------------------------------------------------------------ */

static const char bsp_entities[] =
    "{\n\"classname\" \"worldspawn\"\n\"message\" \"fuzz seed\"\n}\n"
    "{\n\"classname\" \"info_player_intermission\"\n\"origin\" \"0 0 64\"\n\"target\" \"t1\"\n}\n"
    "// a comment, as Quake's parser allows\n"
    "{\n\"classname\" \"target_position\"\n\"targetname\" \"t1\"\n\"origin\" \"64 0 0\"\n}\n"
    "{\n\"classname\" \"info_player_deathmatch\"\n\"origin\" \"32 32 0\"\n\"angle\" \"90\"\n}\n"
    "{\n\"classname\" \"team_CTF_redspawn\"\n\"origin\" \"0 32 0\"\n\"angles\" \"10 45 0\"\n}\n";

uint8_t *fuzz_tiny_bsp(size_t *size)
{
    enum { HEADER = 8 + 17 * 8, TEX = 72, VERT = 44, FACE = 104, NTEX = 3, NVERT = 13, NMV = 6, NFACE = 4 };
    const size_t ent_len = sizeof bsp_entities;  /* with its NUL */
    const size_t off_ent = HEADER, off_tex = off_ent + ((ent_len + 3) & ~(size_t)3), off_vert = off_tex + NTEX * TEX,
                 off_mv = off_vert + NVERT * VERT, off_face = off_mv + NMV * 4, end = off_face + NFACE * FACE;
    uint8_t *d = calloc(1, end);
    if (!d)
        abort();
    memcpy(d, "IBSP", 4);
    put32(d + 4, 46);
    for (int i = 0; i < 17; i++)
        put32(d + 8 + i * 8, (uint32_t)end);  /* empty lumps at the end */
    const struct { int lump; size_t off, len; } lumps[] = {
        { 0, off_ent, ent_len }, { 1, off_tex, NTEX * TEX }, { 10, off_vert, NVERT * VERT },
        { 11, off_mv, NMV * 4 }, { 13, off_face, NFACE * FACE },
    };
    for (size_t i = 0; i < sizeof lumps / sizeof lumps[0]; i++) {
        put32(d + 8 + lumps[i].lump * 8, (uint32_t)lumps[i].off);
        put32(d + 12 + lumps[i].lump * 8, (uint32_t)lumps[i].len);
    }
    memcpy(d + off_ent, bsp_entities, ent_len);
    /* Textures: name[64], surface flags, contents. */
    static const char *const names[NTEX] = { "textures/base_floor/tile", "textures/skies/sky", "textures/base_trim/pipe" };
    static const uint32_t surf[NTEX] = { 0, 0x4 /* sky */, 0 }, contents[NTEX] = { 1, 1, 1 };
    for (int t = 0; t < NTEX; t++) {
        uint8_t *e = d + off_tex + (size_t)t * TEX;
        memcpy(e, names[t], strlen(names[t]));
        put32(e + 64, surf[t]);
        put32(e + 68, contents[t]);
    }
    /* Vertices: a 128-unit quad at z = 0, then a 3x3 patch grid bulging up. */
    for (int v = 0; v < NVERT; v++) {
        uint8_t *e = d + off_vert + (size_t)v * VERT;
        float x, y, z;
        if (v < 4)
            x = v == 1 || v == 2 ? 128.0f : 0.0f, y = v >= 2 ? 128.0f : 0.0f, z = 0.0f;
        else
            x = (float)((v - 4) % 3) * 32.0f, y = (float)((v - 4) / 3) * 32.0f, z = v == 8 ? 48.0f : 16.0f;
        putf(e, x), putf(e + 4, y), putf(e + 8, z);
        putf(e + 12, x / 64.0f), putf(e + 16, y / 64.0f);  /* texture st */
        putf(e + 36, 1.0f);                                 /* normal +z */
        put32(e + 40, 0xffffffffu);
    }
    static const uint32_t mv[NMV] = { 0, 1, 2, 0, 2, 3 };
    for (int i = 0; i < NMV; i++)
        put32(d + off_mv + (size_t)i * 4, mv[i]);
    /* Faces: texture, effect, type, vertex, n_vertices, meshvert, n_meshverts, ..., size[2] at 96. */
    static const int32_t faces[NFACE][9] = {
        { 0, -1, 1, 0, 4, 0, 6, 0, 0 },   /* polygon */
        { 2, -1, 2, 4, 9, 0, 0, 3, 3 },   /* 3x3 patch */
        { 1, -1, 1, 0, 4, 0, 6, 0, 0 },   /* sky: skipped */
        { 0, -1, 4, 0, 1, 0, 0, 0, 0 },   /* billboard: skipped */
    };
    for (int f = 0; f < NFACE; f++) {
        uint8_t *e = d + off_face + (size_t)f * FACE;
        for (int k = 0; k < 7; k++)
            put32(e + 4 * k, (uint32_t)faces[f][k]);
        put32(e + 28, 0xffffffffu);  /* no lightmap */
        putf(e + 92, 1.0f);          /* normal +z */
        put32(e + 96, (uint32_t)faces[f][7]);
        put32(e + 100, (uint32_t)faces[f][8]);
    }
    *size = end;
    return d;
}

/* ---- the archive --------------------------------------------------------------------------- */

uint8_t *fuzz_zip_stored(const char *name, const uint8_t *data, size_t size, size_t *out_size)
{
    const size_t nl = strlen(name), local = 30 + nl, central = 46 + nl, total = local + size + central + 22;
    const uint32_t crc = (uint32_t)crc32(0L, data, (uInt)size);
    uint8_t *z = calloc(1, total);
    if (!z)
        abort();
    /* Local file header, then the data. */
    put32(z, 0x04034b50u), put16(z + 4, 20), put16(z + 8, 0 /* stored */), put16(z + 12, 0x21 /* 1980-01-01 */);
    put32(z + 14, crc), put32(z + 18, (uint32_t)size), put32(z + 22, (uint32_t)size), put16(z + 26, (uint32_t)nl);
    memcpy(z + 30, name, nl);
    memcpy(z + local, data, size);
    /* Central directory entry. */
    uint8_t *c = z + local + size;
    put32(c, 0x02014b50u), put16(c + 4, 20), put16(c + 6, 20), put16(c + 14, 0x21);
    put32(c + 16, crc), put32(c + 20, (uint32_t)size), put32(c + 24, (uint32_t)size), put16(c + 28, (uint32_t)nl);
    memcpy(c + 46, name, nl);
    /* End of central directory. */
    uint8_t *e = c + central;
    put32(e, 0x06054b50u), put16(e + 8, 1), put16(e + 10, 1);
    put32(e + 12, (uint32_t)central), put32(e + 16, (uint32_t)(local + size));
    *out_size = total;
    return z;
}

/* ---- images and a mesh ---------------------------------------------------------------------- */

const uint8_t fuzz_png_4x4[100] =
    "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x04\x00\x00\x00\x04"
    "\x08\x06\x00\x00\x00\xa9\xf1\x9e\x7e\x00\x00\x00\x2b\x49\x44\x41\x54\x78\xda\x15\xc8\x31\x01\x00"
    "\x30\x0c\xc3\xb0\x40\x2c\x44\xc3\x29\x9c\x30\xd8\xdc\x43\x8f\x92\xec\x1b\xa1\x2a\x19\x43\xa8\x73"
    "\x81\x21\x54\x2e\x6a\x08\x55\x1f\x33\x07\x2b\x71\x86\x9f\x7e\xa2\x00\x00\x00\x00\x49\x45\x4e\x44"
    "\xae\x42\x60\x82";

/* 18-byte header (true-colour, 32 bits, 8 alpha bits, top-left origin), 4 BGRA pixels. */
const uint8_t fuzz_tga_2x2[34] = {
    0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 32, 0x28,
    0, 0, 255, 255, 0, 255, 0, 255, 255, 0, 0, 255, 255, 255, 255, 128,
};

const char fuzz_obj[] =
    "# two triangles, for the scene fuzzer's sandbox\n"
    "mtllib mesh.mtl\n"
    "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
    "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n"
    "vn 0 0 1\n"
    "usemtl red\n"
    "f 1/1/1 2/2/1 3/3/1\nf 1/1/1 3/3/1 4/4/1\n";

const char fuzz_mtl[] = "newmtl red\nKd 0.8 0.2 0.2\n";
