/* generators.c — one function per bin pattern; each fills owner[] for a
 * bin grid with (0, 0) the lower-left bin.  Fed by pattern_build. */
#include <stdio.h>

#include "pattern/pattern.h"

/* Seed 000, Figure 6a: rasterizers lined up in index order, the first index
 * of each row offset by one slot, wrapping around. */
mos_result pattern_diagonal(pattern_table *t, uint64_t seed, char *err, size_t err_size)
{
    int n = t->workers;
    for (int by = 0; by < t->bins_y; by++)
        for (int bx = 0; bx < t->bins_x; bx++)
            t->owner[by * t->bins_x + bx] = (uint16_t)((bx + by) % n);
    return MOS_OK;
}

/* Seed 002: Tile(i, j) = (i + N[j mod 6]) mod 6, N = {0, 2, 4, 1, 5, 3}. */
mos_result pattern_g80(pattern_table *t, uint64_t seed, char *err, size_t err_size)
{
    static const int row_shift[6] = {0, 2, 4, 1, 5, 3};
    if (t->workers != 6) {
        snprintf(err, err_size, "pattern 'g80' is the 6-processor G80 table and needs exactly 6 workers (got %d)",
                 t->workers);
        return MOS_ERR_PATTERN_WORKERS;
    }
    for (int by = 0; by < t->bins_y; by++)
        for (int bx = 0; bx < t->bins_x; bx++)
            t->owner[by * t->bins_x + bx] = (uint16_t)((bx + row_shift[by % 6]) % 6);
    return MOS_OK;
}
