/* sample_avx512.c — texture sampling with AVX-512: four quads per vector,
 * texels by gathers (sample_tmp.h over util/simd.h, 16 lanes).  Fed by
 * fragment shaders through mos_sample_quads (the ISA table's shader row). */
#include "util/cpu.h"
#if defined(UTIL_X86)
#define SIMD_LANES 16
#include "util/simd.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "shader/texture.h"

#define SAMPLE_FN texture_sample_quads_avx512
#include "shader/sample_tmp.h"
#endif
