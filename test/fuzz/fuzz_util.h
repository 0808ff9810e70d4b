/* fuzz_util.h — what the fuzz targets share: one temporary folder per process (made on first use, removed
 * at exit) for the files the parsers read, and the small fixture files they name.  Fed by test/fuzz/fuzz_*.c. */
#ifndef MOSAIC_FUZZ_UTIL_H
#define MOSAIC_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

#define FUZZ_PATH_MAX 4096

/* The folder (mkdtemp under $TMPDIR, else /tmp); aborts when it cannot be made. */
const char *fuzz_dir(void);
/* Writes DATA[SIZE] to fuzz_dir()/NAME (replacing it) and its path into OUT;
 * aborts on failure (a harness problem, not a finding). */
void fuzz_write(const char *name, const void *data, size_t size, char out[FUZZ_PATH_MAX]);

/* Whether MOSAIC_FUZZ_VERBOSE is set: the targets then print each input's
 * outcome (the loader's error message or what loaded), for triage. */
int fuzz_verbose(void);

/* The two traps a sandbox must refuse, in fuzz_dir(): escape.png, a link to a file outside
 * (/etc/passwd), and FIFO, a FIFO that would block a reader forever.  Aborts when they cannot be made. */
void fuzz_traps(const char *fifo);

/* Calls SETUP the first time it is reached in this process (each target's fixtures, made once). */
void fuzz_once(void (*setup)(void));

/* A loader's refusal, as target WHO ("fuzz_scene"): prints "WHO: ERR" when verbose, and aborts
 * unless ERR reads "PATH:LINE:COL: message" (every error names where it is). */
void fuzz_check_error(const char *who, const char *err, const char *path);

/* A small valid Quake 3 map (IBSP 46): a textured quad, a 3x3 Bezier patch,
 * a sky face and a flare (both skipped), an intermission point aimed at a
 * target and two spawn points.  Malloc'ed, *SIZE bytes. */
uint8_t *fuzz_tiny_bsp(size_t *size);
/* A zip archive (.pk3) holding DATA[SIZE] as its one entry NAME, stored
 * (no compression).  Malloc'ed, *OUT_SIZE bytes. */
uint8_t *fuzz_zip_stored(const char *name, const uint8_t *data, size_t size, size_t *out_size);

/* Fixture files for the scene target, as named in test/fuzz/scene.dict. */
extern const uint8_t fuzz_png_4x4[100];  /* 4x4 RGBA PNG */
extern const uint8_t fuzz_tga_2x2[34];   /* 2x2 true-colour TGA */
extern const char fuzz_obj[];            /* two triangles, names mesh.mtl */
extern const char fuzz_mtl[];

#endif
