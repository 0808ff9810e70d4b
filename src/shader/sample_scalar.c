/* sample_scalar.c — texture sampling in portable C (sample_tmp.h, 4 lanes).
 * Fed by fragment shaders through mos_sample_quads (the ISA table's shader
 * row). */
#define SIMD_LANES 4
#include "util/simd.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "shader/texture.h"

#define SAMPLE_FN texture_sample_quads_scalar
#include "shader/sample_tmp.h"
