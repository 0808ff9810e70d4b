/* pattern.c — the registry of bin patterns and the table builder.
 * Fed by the api (context configure); adding a pattern = one generator
 * function in generators.c plus one line in PATTERNS below. */
#include "pattern/pattern.h"

#include <stdio.h>
#include <string.h>

#include "util/alloc.h"

/* One line per pattern: name, description, generator (generators.c). */
#define PATTERNS(X)                                                                             \
    X("diagonal", "rasterizers in index order along each row, each row offset by one (NVIDIA-style)", \
      pattern_diagonal)                                                                         \
    X("g80", "G80 tile table: (x + {0,2,4,1,5,3}[y mod 6]) mod 6, exactly 6 workers", pattern_g80)

#define PATTERN_DECLARE(name, describe, fn) mos_result fn(pattern_table *, uint64_t, char *, size_t);
PATTERNS(PATTERN_DECLARE)
#define PATTERN_DEF(name, describe, fn) {name, describe, fn},
static const pattern_def pattern_registry[] = {PATTERNS(PATTERN_DEF)};
#define PATTERN_NAME(name, describe, fn) name,
static const char *const pattern_name_list[] = {PATTERNS(PATTERN_NAME) NULL};
#define PATTERN_COUNT (sizeof pattern_registry / sizeof pattern_registry[0])

const pattern_def *pattern_find(const char *name)
{
    if (!name) return NULL;
    for (size_t i = 0; i < PATTERN_COUNT; i++)
        if (strcmp(pattern_registry[i].name, name) == 0) return &pattern_registry[i];
    return NULL;
}

const char *const *mos_pattern_names(void) { return pattern_name_list; }

const char *mos_pattern_describe(const char *name)
{
    const pattern_def *p = pattern_find(name);
    return p ? p->describe : NULL;
}

mos_result pattern_build(pattern_table *t, const char *name, int workers, int bins_x, int bins_y,
                         const mos_allocator *a, char *err, size_t err_size)
{
    memset(t, 0, sizeof *t);
    const pattern_def *p = pattern_find(name);
    if (!p) {
        snprintf(err, err_size, "unknown bin pattern '%s'", name ? name : "(null)");
        return MOS_ERR_UNKNOWN_PATTERN;
    }
    t->bins_x = bins_x;
    t->bins_y = bins_y;
    t->workers = workers;
    t->owner = util_calloc(a, (size_t)bins_x * (size_t)bins_y, sizeof *t->owner);
    if (!t->owner) {
        snprintf(err, err_size, "out of memory for a %dx%d pattern table", bins_x, bins_y);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    mos_result r = p->generate(t, 0x6d6f73616963ull, err, err_size);
    if (r != MOS_OK) {
        pattern_free(t, a);
        return r;
    }
    for (int i = 0; i < bins_x * bins_y; i++) {
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
