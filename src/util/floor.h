/* floor.h — floor of a float as an int32, exact for any value within the
 * int32 range (beyond it, and for NaN, the conversion is undefined: callers
 * clamp or know their range).  Where the build's ISA has a rounding
 * instruction, floorf is that one instruction, which vector loops keep;
 * the baseline ISA has none (gcc rounds one lane at a time), so there the
 * truncation is corrected instead, which vectorizes.  Either way the same
 * bits.  The choice is the build's: a UTIL_CLONES_AVX2 function's AVX2
 * body gets the baseline's form too; a function built for AVX2 by its own
 * target attribute calls util_floor_i32_avx2 for the one instruction.
 * Used by the front-end's rank bounds and the shading grid of the
 * rasterizer and back-end. */
#ifndef MOSAIC_UTIL_FLOOR_H
#define MOSAIC_UTIL_FLOOR_H

#include <math.h>
#include <stdint.h>

#include "util/cpu.h"

static inline int32_t util_floor_i32(float v)
{
#if defined(__SSE4_1__)
    return (int32_t)floorf(v);
#else
    const int32_t i = (int32_t)v;  /* toward zero */
    return i - (v < (float)i);
#endif
}

#if defined(UTIL_X86)
/* util_floor_i32 for functions built with target("avx2"): floorf there is
 * one rounding instruction whatever the build's baseline. */
__attribute__((target("avx2"))) static inline int32_t util_floor_i32_avx2(float v) { return (int32_t)floorf(v); }
#endif

#endif
