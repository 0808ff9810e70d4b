/* sample_avx512.c — texture sampling with AVX-512: four quads per vector,
 * texels by gathers (sample_tmp.h, 16 lanes).  Fed by fragment shaders
 * through mos_sample_quads. */
#include "util/cpu.h"
#if defined(UTIL_X86)
#pragma GCC target("avx512f,avx512dq,avx512bw,avx512vl,avx2,fma,bmi,bmi2,popcnt,lzcnt")
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "shader/texture.h"

#define SAMPLE_FN texture_sample_quads_avx512
#define SAMPLE_LANES 16
#include "shader/sample_tmp.h"
#endif
