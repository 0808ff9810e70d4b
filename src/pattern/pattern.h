/* pattern.h — the static bin -> worker table (seeds 000 and 002).
 * Fed by the api at configure time; read by the fine binner and workers. */
#ifndef MOSAIC_PATTERN_H
#define MOSAIC_PATTERN_H

#include <stdint.h>
#include "mosaic.h"

/* A bin grid bins_x * bins_y, bin (0, 0) lower-left; owner[by * bins_x + bx]
 * is the worker (logical rasterizer) that owns the bin. */
typedef struct pattern_table {
    int bins_x, bins_y, workers;
    uint16_t *owner;
} pattern_table;

/* A generator fills t->owner for t->bins_x/bins_y/workers.  It returns
 * MOS_OK, or an error code with a message in err (e.g. g80 needs 6). */
typedef mos_result (*pattern_fn)(pattern_table *t, uint64_t seed, char *err, size_t err_size);

typedef struct pattern_def {
    const char *name;
    const char *describe;
    pattern_fn generate;
} pattern_def;

/* Looks up a registered pattern by name (NULL if unknown). */
const pattern_def *pattern_find(const char *name);

/* Builds the table for (name, workers, grid); allocates t->owner. */
mos_result pattern_build(pattern_table *t, const char *name, int workers, int bins_x, int bins_y,
                         const mos_allocator *a, char *err, size_t err_size);
void pattern_free(pattern_table *t, const mos_allocator *a);

#endif
