/* macros.h — how many tokens a GLSL source's macros expand to, bounded
 * before glslang's preprocessor runs (private to src/glsl).  Fed by glsl.c. */
#ifndef MOSAIC_GLSL_MACROS_H
#define MOSAIC_GLSL_MACROS_H

#include <stddef.h>

#include "mosaic.h"

/* The most tokens a source may expand to (glslang keeps every expanded token:
 * about 16 bytes and 0.7 us each), and the most macros it may define. */
#define GLSL_MAX_EXPANDED_TOKENS ((unsigned long long)1 << 21)
#define GLSL_MAX_MACROS 65536

/* MOS_OK when SRC (NUL-terminated) expands to at most
 * GLSL_MAX_EXPANDED_TOKENS tokens, else MOS_ERR_SHADER with "FILE:LINE: ..."
 * in err, or MOS_ERR_OUT_OF_MEMORY.  An upper bound: both arms of #if count,
 * a redefined macro counts at its largest.  Its memory comes from ALLOC
 * (NULL: malloc), all of it freed before it returns. */
mos_result glsl_check_macros(const char *src, const char *file, const mos_allocator *alloc, char *err,
                             size_t err_size);

#endif
