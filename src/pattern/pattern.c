/* pattern.c — the registry of bin patterns and the table builder (NAME, NAME:SEED, file:PATH).
 * Fed by the api (context configure, frame) and tools; adding a pattern = one generator
 * function in generators.c plus one line in PATTERNS below. */
#include "pattern/pattern.h"

#include <stdio.h>
#include <string.h>

#include "util/alloc.h"

/* One line per pattern: name, description, generator (generators.c), seeded (takes ":SEED"). */
#define PATTERNS(X)                                                                                     \
    X("diagonal", "rasterizers in index order along each row, each row offset by one (NVIDIA-style)",   \
      pattern_diagonal, 0)                                                                              \
    X("zcurve", "Morton (Z-curve) code of the bin mod N", pattern_zcurve, 0)                            \
    X("hilbert", "Hilbert-curve distance of the bin mod N", pattern_hilbert_curve, 0)                   \
    X("prut", "pseudo-random uniform: MT19937 draw per bin, row by row (seeded, NAME:SEED)",           \
      pattern_prut, 1)                                                                                  \
    X("hmd", "hierarchical maximized distance: NxN tile, 50 darts per placement (seeded, NAME:SEED)",  \
      pattern_hmd, 1)                                                                                   \
    X("xshift", "row i shifted by floor(i*N/k) mod N, k = floor(sqrt N): Nxk tiles", pattern_xshift, 0) \
    X("yshift", "column j shifted by floor(j*N/k) mod N, k = floor(sqrt N): kxN tiles", pattern_yshift, 0) \
    X("xshift-offset", "row i shifted by floor(i*(N+1)/k) mod N: NxN Latin-square tile",              \
      pattern_xshift_offset, 0)                                                                         \
    X("sudoku", "NxN tile, random distinct row shifts (seeded, NAME:SEED)", pattern_sudoku, 1)         \
    X("vdc", "NxN tile, row shifts from the base-2 Van der Corput sequence, values >= N skipped",      \
      pattern_vdc, 0)                                                                                   \
    X("g80", "G80 tile table: (x + {0,2,4,1,5,3}[y mod 6]) mod 6, exactly 6 workers", pattern_g80, 0)

#define PATTERN_DECLARE(name, describe, fn, seeded) mos_result fn(pattern_table *, uint64_t, char *, size_t);
PATTERNS(PATTERN_DECLARE)
#define PATTERN_DEF(name, describe, fn, seeded) { name, describe, fn, seeded },
static const pattern_def pattern_registry[] = { PATTERNS(PATTERN_DEF) };
#define PATTERN_NAME(name, describe, fn, seeded) name,
static const char *const pattern_name_list[] = { PATTERNS(PATTERN_NAME) NULL };
#define PATTERN_COUNT (sizeof pattern_registry / sizeof pattern_registry[0])

const pattern_def *pattern_find(const char *name)
{
    if (!name) return NULL;
    size_t len = strcspn(name, ":");
    for (size_t i = 0; i < PATTERN_COUNT; i++)
        if (strlen(pattern_registry[i].name) == len && strncmp(pattern_registry[i].name, name, len) == 0)
            return &pattern_registry[i];
    return NULL;
}

const char *const *mos_pattern_names(void) { return pattern_name_list; }

const char *mos_pattern_describe(const char *name)
{
    const pattern_def *p = pattern_find(name);
    return p ? p->describe : NULL;
}

/* Strict decimal uint64 ("" and overflow rejected). */
static int parse_seed(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    if (!*s) return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10) return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

mos_result pattern_build(pattern_table *t, const char *name, int workers, int bins_x, int bins_y,
                         const mos_allocator *a, char *err, size_t err_size)
{
    memset(t, 0, sizeof *t);
    const int is_file = name && strncmp(name, "file:", 5) == 0;
    const pattern_def *p = is_file ? NULL : pattern_find(name);
    uint64_t seed = PATTERN_DEFAULT_SEED;
    if (!is_file) {
        if (!p) {
            snprintf(err, err_size, "unknown bin pattern '%s'", name ? name : "(null)");
            return MOS_ERR_UNKNOWN_PATTERN;
        }
        const char *colon = strchr(name, ':');
        if (colon && !p->seeded) {
            snprintf(err, err_size, "bin pattern '%s' is not randomized and takes no ':SEED' (in '%s')", p->name,
                     name);
            return MOS_ERR_UNKNOWN_PATTERN;
        }
        if (colon && parse_seed(colon + 1, &seed) != 0) {
            snprintf(err, err_size, "bin pattern '%s': seed '%s' is not a decimal number 0..18446744073709551615",
                     name, colon + 1);
            return MOS_ERR_UNKNOWN_PATTERN;
        }
    } else if (!name[5]) {
        snprintf(err, err_size, "bin pattern 'file:' needs a path (file:PATH)");
        return MOS_ERR_UNKNOWN_PATTERN;
    }
    if (workers < 1 || workers > MOS_MAX_WORKERS || bins_x < 1 || bins_y < 1) {
        snprintf(err, err_size, "bin pattern '%s': bad shape (%d workers, %dx%d bins)", name, workers, bins_x, bins_y);
        return MOS_ERR_BAD_SIZE;
    }
    t->bins_x = bins_x;
    t->bins_y = bins_y;
    t->workers = workers;
    t->alloc = a;
    t->owner = util_calloc(a, (size_t)bins_x * (size_t)bins_y, sizeof *t->owner);
    if (!t->owner) {
        snprintf(err, err_size, "out of memory for a %dx%d pattern table", bins_x, bins_y);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    mos_result r = is_file ? pattern_file_load(t, name + 5, err, err_size) : p->generate(t, seed, err, err_size);
    if (r != MOS_OK) {
        pattern_free(t, a);
        return r;
    }
    for (size_t i = 0; i < (size_t)bins_x * (size_t)bins_y; i++) {
        if (t->owner[i] >= workers) {  /* a generator bug must not reach the workers */
            snprintf(err, err_size, "pattern '%s' produced worker %d of %d", name, t->owner[i], workers);
            pattern_free(t, a);
            return MOS_ERR_INVALID_ARGUMENT;
        }
    }
    return MOS_OK;
}

void pattern_free(pattern_table *t, const mos_allocator *a)
{
    util_free(a, t->owner);
    t->owner = NULL;
}

mos_result pattern_build_packed(pattern_table *t, const char *name, int workers, int bins_x, int bins_y,
                                const uint8_t *mask, const pattern_table *full, const mos_allocator *a, char *err,
                                size_t err_size)
{
    int pw = 0, ph = 0;  /* the packed grid */
    for (int y = 0; y < bins_y; y++) {
        int c = 0;
        for (int x = 0; x < bins_x; x++) c += mask[(size_t)y * (size_t)bins_x + (size_t)x] != 0;
        pw = c > pw ? c : pw;
        ph += c > 0;
    }
    memset(t, 0, sizeof *t);
    if (!pw) {
        snprintf(err, err_size, "bin pattern '%s': the mask holds no bin", name);
        return MOS_ERR_BAD_SIZE;
    }
    pattern_table packed;
    mos_result r = pattern_build(&packed, name, workers, pw, ph, a, err, err_size);
    if (r != MOS_OK) return r;
    *t = (pattern_table){.bins_x = bins_x, .bins_y = bins_y, .workers = workers, .alloc = a,
                         .owner = util_calloc(a, (size_t)bins_x * (size_t)bins_y, sizeof *t->owner)};
    if (!t->owner) {
        pattern_free(&packed, a);
        snprintf(err, err_size, "out of memory for a %dx%d pattern table", bins_x, bins_y);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    for (int y = 0, py = 0; y < bins_y; y++) {
        int px = 0;
        for (int x = 0; x < bins_x; x++) {
            const size_t b = (size_t)y * (size_t)bins_x + (size_t)x;
            t->owner[b] = mask[b] ? packed.owner[(size_t)py * (size_t)pw + (size_t)px++] : full ? full->owner[b] : 0;
        }
        py += px > 0;
    }
    pattern_free(&packed, a);
    return MOS_OK;
}
