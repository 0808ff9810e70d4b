/* generators.c — one function per bin pattern (seed 000 section 4, seed 002); each fills owner[]
 * for a bin grid with (0, 0) the lower-left bin.  Fed by pattern_build (pattern.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern/pattern.h"
#include "util/alloc.h"

#define OWNER(t, bx, by) ((t)->owner[(size_t)(by) * (size_t)(t)->bins_x + (size_t)(bx)])

/* ---- MT19937 ------------------------------------------------------------------ */

void pattern_mt_seed(pattern_mt *m, uint32_t seed)
{
    m->mt[0] = seed;
    for (int i = 1; i < 624; i++)
        m->mt[i] = 1812433253u * (m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) + (uint32_t)i;
    m->mti = 624;
}

void pattern_mt_seed64(pattern_mt *m, uint64_t seed)
{
    const uint32_t key[2] = { (uint32_t)seed, (uint32_t)(seed >> 32) };
    pattern_mt_seed(m, 19650218u);
    int i = 1, j = 0;
    for (int k = 624; k; k--) {
        m->mt[i] = (m->mt[i] ^ ((m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++, j++;
        if (i >= 624) m->mt[0] = m->mt[623], i = 1;
        if (j >= 2) j = 0;
    }
    for (int k = 623; k; k--) {
        m->mt[i] = (m->mt[i] ^ ((m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= 624) m->mt[0] = m->mt[623], i = 1;
    }
    m->mt[0] = 0x80000000u;
    m->mti = 624;
}

uint32_t pattern_mt_next(pattern_mt *m)
{
    if (m->mti >= 624) {
        for (int k = 0; k < 624; k++) {
            uint32_t y = (m->mt[k] & 0x80000000u) | (m->mt[(k + 1) % 624] & 0x7fffffffu);
            m->mt[k] = m->mt[(k + 397) % 624] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        }
        m->mti = 0;
    }
    uint32_t y = m->mt[m->mti++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

/* Rejection sampling: no modulo bias. */
uint32_t pattern_mt_below(pattern_mt *m, uint32_t n)
{
    const uint32_t limit = UINT32_MAX - UINT32_MAX % n;  /* accept v < limit */
    uint32_t v;
    do v = pattern_mt_next(m);
    while (v >= limit);
    return v % n;
}

/* ---- space-filling curves ---------------------------------------------------- */

static uint64_t spread_bits(uint32_t v)
{
    uint64_t x = v;
    x = (x | x << 16) & 0x0000ffff0000ffffull;
    x = (x | x << 8) & 0x00ff00ff00ff00ffull;
    x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
    x = (x | x << 2) & 0x3333333333333333ull;
    x = (x | x << 1) & 0x5555555555555555ull;
    return x;
}

uint64_t pattern_morton(uint32_t x, uint32_t y) { return spread_bits(x) | spread_bits(y) << 1; }

/* The classic xy -> d walk (quadrant by quadrant, rotating as it descends) on
 * a 2^16 curve starting at (0, 0). */
uint64_t pattern_hilbert(uint32_t x, uint32_t y)
{
    const uint32_t n = 1u << 16;
    uint64_t d = 0;
    for (uint32_t s = n >> 1; s > 0; s >>= 1) {
        uint32_t rx = (x & s) ? 1 : 0, ry = (y & s) ? 1 : 0;
        d += (uint64_t)s * s * ((3 * rx) ^ ry);
        if (ry == 0) {  /* rotate the quadrant */
            if (rx == 1) x = n - 1 - x, y = n - 1 - y;
            uint32_t tmp = x;
            x = y, y = tmp;
        }
    }
    return d;
}

/* ---- patterns -------------------------------------------------------------------- */

/* Seed 000, Figure 6a: rasterizers lined up in index order, the first index
 * of each row offset by one slot, wrapping around. */
mos_result pattern_diagonal(pattern_table *t, uint64_t seed, char *err, size_t err_size)
{
    int n = t->workers;
    for (int by = 0; by < t->bins_y; by++)
        for (int bx = 0; bx < t->bins_x; bx++)
            OWNER(t, bx, by) = (uint16_t)((bx + by) % n);
    return MOS_OK;
}

/* Seed 002: Tile(i, j) = (i + N[j mod 6]) mod 6, N = {0, 2, 4, 1, 5, 3}. */
mos_result pattern_g80(pattern_table *t, uint64_t seed, char *err, size_t err_size)
{
    static const int row_shift[6] = { 0, 2, 4, 1, 5, 3 };
    if (t->workers != 6) {
        snprintf(err, err_size, "pattern 'g80' is the 6-processor G80 table and needs exactly 6 workers (got %d)",
                 t->workers);
        return MOS_ERR_PATTERN_WORKERS;
    }
    for (int by = 0; by < t->bins_y; by++)
        for (int bx = 0; bx < t->bins_x; bx++)
            OWNER(t, bx, by) = (uint16_t)((bx + row_shift[by % 6]) % 6);
    return MOS_OK;
}

/* Seed 000 4.1: Morton code of the bin mod N. */
mos_result pattern_zcurve(pattern_table *t, uint64_t seed, char *err, size_t err_size)
{
    for (int by = 0; by < t->bins_y; by++)
        for (int bx = 0; bx < t->bins_x; bx++)
            OWNER(t, bx, by) = (uint16_t)(pattern_morton((uint32_t)bx, (uint32_t)by) % (uint64_t)t->workers);
    return MOS_OK;
}

/* Seed 000 4.1: Hilbert distance of the bin mod N. */
mos_result pattern_hilbert_curve(pattern_table *t, uint64_t seed, char *err, size_t err_size)
{
    for (int by = 0; by < t->bins_y; by++)
        for (int bx = 0; bx < t->bins_x; bx++)
            OWNER(t, bx, by) = (uint16_t)(pattern_hilbert((uint32_t)bx, (uint32_t)by) % (uint64_t)t->workers);
    return MOS_OK;
}

/* Seed 000 4.2 PRUT: bins left to right, bottom to top, each a uniform draw
 * in [0, N) from MT19937. */
mos_result pattern_prut(pattern_table *t, uint64_t seed, char *err, size_t err_size)
{
    pattern_mt m;
    pattern_mt_seed64(&m, seed);
    for (int by = 0; by < t->bins_y; by++)
        for (int bx = 0; bx < t->bins_x; bx++)
            OWNER(t, bx, by) = (uint16_t)pattern_mt_below(&m, (uint32_t)t->workers);
    return MOS_OK;
}

/* Fills the grid by repeating an n x n tile (tile[ty * n + tx], ty = 0 the bottom row). */
static void repeat_tile(pattern_table *t, const uint16_t *tile, int n)
{
    for (int by = 0; by < t->bins_y; by++)
        for (int bx = 0; bx < t->bins_x; bx++)
            OWNER(t, bx, by) = tile[(by % n) * n + bx % n];
}

/* Fills the grid from one shift per row of an n-row tile: owner = (x + shift[y mod n]) mod N. */
static void row_shifts(pattern_table *t, const int *shift, int n)
{
    for (int by = 0; by < t->bins_y; by++)
        for (int bx = 0; bx < t->bins_x; bx++)
            OWNER(t, bx, by) = (uint16_t)((bx + shift[by % n]) % t->workers);
}

/* Seed 000 4.2 HMD: in an N x N tile, N passes over the rasterizers; each
 * places one bin: of up to 50 random vacant bins, the one farthest (minimum
 * distance, on the torus the repeating tile forms) from the bins already
 * given to that rasterizer.  The first bin of a rasterizer is the first draw. */
mos_result pattern_hmd(pattern_table *t, uint64_t seed, char *err, size_t err_size)
{
    const int n = t->workers, cells = n * n;
    uint16_t *tile = util_calloc(t->alloc, (size_t)cells, sizeof *tile);
    int *vacant = util_calloc(t->alloc, (size_t)cells, sizeof *vacant);  /* swap-remove list of cells */
    int *placed = util_calloc(t->alloc, (size_t)cells, sizeof *placed);  /* placed[r * n + pass] = cell */
    if (!tile || !vacant || !placed) {
        util_free(t->alloc, tile), util_free(t->alloc, vacant), util_free(t->alloc, placed);
        snprintf(err, err_size, "out of memory for the %dx%d hmd tile", n, n);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    pattern_mt m;
    pattern_mt_seed64(&m, seed);
    for (int i = 0; i < cells; i++) vacant[i] = i;
    int nvacant = cells;
    for (int pass = 0; pass < n; pass++) {
        for (int r = 0; r < n; r++) {
            int best_slot = -1;
            long best_d = -1;
            for (int dart = 0; dart < 50; dart++) {
                int slot = (int)pattern_mt_below(&m, (uint32_t)nvacant);
                int c = vacant[slot], cx = c % n, cy = c / n;
                long dmin = (long)n * n * 2;
                for (int p = 0; p < pass; p++) {
                    int q = placed[r * n + p];
                    int dx = abs(q % n - cx), dy = abs(q / n - cy);
                    if (n - dx < dx) dx = n - dx;
                    if (n - dy < dy) dy = n - dy;
                    long d = (long)dx * dx + (long)dy * dy;
                    if (d < dmin) dmin = d;
                }
                if (dmin > best_d) best_d = dmin, best_slot = slot;
                if (pass == 0) break;  /* nothing to be far from yet */
            }
            int c = vacant[best_slot];
            vacant[best_slot] = vacant[--nvacant];
            tile[c] = (uint16_t)r;
            placed[r * n + pass] = c;
        }
    }
    repeat_tile(t, tile, n);
    util_free(t->alloc, tile), util_free(t->alloc, vacant), util_free(t->alloc, placed);
    return MOS_OK;
}

static int isqrt_int(int n)
{
    int k = (int)sqrt((double)n);
    while (k * k > n) k--;
    while ((k + 1) * (k + 1) <= n) k++;
    return k;
}

/* Seed 000 4.3 X-shift: row i shifted by floor(i N / k) mod N, k = floor(sqrt N): N x k tiles. */
mos_result pattern_xshift(pattern_table *t, uint64_t seed, char *err, size_t err_size)
{
    const int n = t->workers, k = isqrt_int(n);
    for (int by = 0; by < t->bins_y; by++) {
        int shift = (by % k) * n / k % n;
        for (int bx = 0; bx < t->bins_x; bx++)
            OWNER(t, bx, by) = (uint16_t)((bx + shift) % n);
    }
    return MOS_OK;
}

/* Seed 000 4.3 Y-shift: X-shift rotated, column j shifted up by floor(j N / k) mod N. */
mos_result pattern_yshift(pattern_table *t, uint64_t seed, char *err, size_t err_size)
{
    const int n = t->workers, k = isqrt_int(n);
    for (int by = 0; by < t->bins_y; by++)
        for (int bx = 0; bx < t->bins_x; bx++)
            OWNER(t, bx, by) = (uint16_t)((by + (bx % k) * n / k) % n);
    return MOS_OK;
}

/* Seed 000 4.3 X-shift+offset: in an N x N tile, row i shifted by
 * floor(i (N + 1) / k) mod N.  That formula gives N distinct shifts (no
 * vertical repetition within N rows) only for some N (all N <= 9, and e.g. 11,
 * 12, 14-16, but not 10 or 13); where a shift repeats one already used in the
 * tile, the next unused shift (counting up, mod N) is taken instead, so the
 * tile is a Latin square for every N and equals the formula where it works. */
mos_result pattern_xshift_offset(pattern_table *t, uint64_t seed, char *err, size_t err_size)
{
    const int n = t->workers, k = isqrt_int(n);
    int *shift = util_calloc(t->alloc, (size_t)n, sizeof *shift);
    uint8_t *used = util_calloc(t->alloc, (size_t)n, 1);
    if (!shift || !used) {
        util_free(t->alloc, shift), util_free(t->alloc, used);
        snprintf(err, err_size, "out of memory for the xshift-offset tile");
        return MOS_ERR_OUT_OF_MEMORY;
    }
    for (int i = 0; i < n; i++) {
        int s = (int)((int64_t)i * (n + 1) / k % n);
        while (used[s]) s = (s + 1) % n;
        used[s] = 1;
        shift[i] = s;
    }
    row_shifts(t, shift, n);
    util_free(t->alloc, shift), util_free(t->alloc, used);
    return MOS_OK;
}

/* Seed 000 4.4 Sudoku: an N x N tile whose rows take distinct random shifts
 * (a Fisher-Yates permutation of 0..N-1 from MT19937). */
mos_result pattern_sudoku(pattern_table *t, uint64_t seed, char *err, size_t err_size)
{
    const int n = t->workers;
    int *shift = util_calloc(t->alloc, (size_t)n, sizeof *shift);
    if (!shift) {
        snprintf(err, err_size, "out of memory for the sudoku tile");
        return MOS_ERR_OUT_OF_MEMORY;
    }
    pattern_mt m;
    pattern_mt_seed64(&m, seed);
    for (int i = 0; i < n; i++) shift[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)pattern_mt_below(&m, (uint32_t)i + 1);
        int tmp = shift[i];
        shift[i] = shift[j], shift[j] = tmp;
    }
    row_shifts(t, shift, n);
    util_free(t->alloc, shift);
    return MOS_OK;
}

/* Seed 000 4.4 Van der Corput: row i of the N x N tile is shifted by the
 * i-th element of the base-2 Van der Corput sequence scaled by
 * 2^ceil(log2 N) (the bit reversal of i), skipping values >= N. */
mos_result pattern_vdc(pattern_table *t, uint64_t seed, char *err, size_t err_size)
{
    const int n = t->workers;
    int bits = 0;
    while ((1 << bits) < n) bits++;
    int *shift = util_calloc(t->alloc, (size_t)n, sizeof *shift);
    if (!shift) {
        snprintf(err, err_size, "out of memory for the vdc tile");
        return MOS_ERR_OUT_OF_MEMORY;
    }
    int rows = 0;
    for (int i = 0; rows < n; i++) {
        int rev = 0;
        for (int b = 0; b < bits; b++)
            if (i & (1 << b)) rev |= 1 << (bits - 1 - b);
        if (rev < n) shift[rows++] = rev;
    }
    row_shifts(t, shift, n);
    util_free(t->alloc, shift);
    return MOS_OK;
}
