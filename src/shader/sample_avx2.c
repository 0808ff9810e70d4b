/* sample_avx2.c — texture sampling with AVX2: two quads per vector, texels
 * by gathers (sample_tmp.h over util/simd.h, 8 lanes).  Fed by fragment
 * shaders through mos_sample_quads (the ISA table's shader row). */
#include "util/cpu.h"
#if defined(UTIL_X86)
#define SIMD_LANES 8
#include "util/simd.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "shader/texture.h"

#define SAMPLE_FN texture_sample_quads_avx2
#include "shader/sample_tmp.h"
#endif
