/* backend_avx512.c — the back-end's per-ISA bodies in AVX-512: the shade stage
 * (shade_tmp.h).  Fed by tile.c and decouple.c through the ISA table. */
#include "util/cpu.h"
#if defined(UTIL_X86)
#define SIMD_LANES 16
#include "util/simd.h"  /* the ISA's target */
#define SHADE_QUADS_FN shade_quads_avx512
#define SHADE_POINTS_FN shade_points_avx512
#include "backend/shade_tmp.h"
#endif
