/* pattern.h — the static bin -> worker table (seeds 000 and 002): registry, builder, generators.
 * Fed by the api at configure/frame time and by tools (the analyzer); read by the fine binner and workers. */
#ifndef MOSAIC_PATTERN_H
#define MOSAIC_PATTERN_H

#include <stddef.h>
#include <stdint.h>
#include "mosaic.h"

/* A bin grid bins_x * bins_y, bin (0, 0) lower-left; owner[by * bins_x + bx]
 * is the worker (logical rasterizer) that owns the bin. */
typedef struct pattern_table {
    int bins_x, bins_y, workers;
    uint16_t *owner;
    const mos_allocator *alloc;  /* for a generator's scratch memory (NULL = malloc) */
} pattern_table;

/* A generator fills t->owner for t->bins_x/bins_y/workers.  SEED drives the
 * randomized ones (the others ignore it).  It returns MOS_OK, or an error
 * code with a message in err (e.g. g80 needs 6). */
typedef mos_result (*pattern_fn)(pattern_table *t, uint64_t seed, char *err, size_t err_size);

typedef struct pattern_def {
    const char *name;
    const char *describe;
    pattern_fn generate;
    int seeded;  /* 1: randomized, takes "NAME:SEED" */
} pattern_def;

/* The seed of a randomized pattern named without ":SEED" (MT19937's own default). */
#define PATTERN_DEFAULT_SEED 5489u

/* Looks up a registered pattern by name, without any ":SEED" (NULL if unknown). */
const pattern_def *pattern_find(const char *name);

/* Builds the table for (name, workers, grid); allocates t->owner.  NAME is
 *   NAME         a registered pattern (mos_pattern_names)
 *   NAME:SEED    a randomized one (prut, hmd, sudoku) with a decimal seed 0..2^64-1
 *   file:PATH    a tile read from a text file (format: pattern_file.c)
 * Errors: MOS_ERR_UNKNOWN_PATTERN, MOS_ERR_PATTERN_WORKERS, MOS_ERR_IO,
 * MOS_ERR_PARSE ("PATH:line:col: message"), MOS_ERR_OUT_OF_MEMORY. */
mos_result pattern_build(pattern_table *t, const char *name, int workers, int bins_x, int bins_y,
                         const mos_allocator *a, char *err, size_t err_size);
void pattern_free(pattern_table *t, const mos_allocator *a);
/* NAME dealt over the bins of a bins_x * bins_y grid where MASK is non-zero,
 * packed together: each bin row's masked bins side by side, rows without
 * any left out, NAME built for that packed grid.  Over the whole grid a
 * pattern aliases with the tiles a mask spreads over the screen (two
 * mosaic-mpi ranks' checkerboard of 128-pixel tiles has the diagonal
 * pattern's period for 16 workers: half of a rank's workers got no bin).
 * t covers the whole grid; bins outside the mask take FULL's owner (NULL:
 * worker 0).  Errors as pattern_build; MOS_ERR_BAD_SIZE for an empty mask. */
mos_result pattern_build_packed(pattern_table *t, const char *name, int workers, int bins_x, int bins_y,
                                const uint8_t *mask, const pattern_table *full, const mos_allocator *a, char *err,
                                size_t err_size);

/* ---- pattern_file.c: file:PATH tables */
mos_result pattern_file_load(pattern_table *t, const char *path, char *err, size_t err_size);

/* ---- generators.c: MT19937 (Matsumoto & Nishimura), for the randomized patterns and tests */
typedef struct pattern_mt {
    uint32_t mt[624];
    int mti;
} pattern_mt;
void pattern_mt_seed(pattern_mt *m, uint32_t seed);            /* init_genrand */
void pattern_mt_seed64(pattern_mt *m, uint64_t seed);          /* init_by_array({lo, hi}) */
uint32_t pattern_mt_next(pattern_mt *m);                       /* genrand_int32 */
uint32_t pattern_mt_below(pattern_mt *m, uint32_t n);          /* uniform in [0, n), n >= 1 */

/* Morton code and Hilbert distance of bin (x, y) (x, y < 65536) on the
 * fixed 65536 x 65536 curve, so a bin's value does not depend on the grid size. */
uint64_t pattern_morton(uint32_t x, uint32_t y);
uint64_t pattern_hilbert(uint32_t x, uint32_t y);

#endif
