/* sample_avx2.c — texture sampling with AVX2: two quads per vector, texels
 * by gathers (sample_tmp.h, 8 lanes).  Fed by fragment shaders through
 * mos_sample_quads. */
#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC target("avx2,fma,bmi,bmi2,popcnt,lzcnt")
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "shader/texture.h"

#define SAMPLE_FN texture_sample_quads_avx2
#define SAMPLE_LANES 8
#include "shader/sample_tmp.h"
#endif
