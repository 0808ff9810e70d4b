/* backend_avx512.c — the back-end's per-ISA bodies in AVX-512: the shade stage
 * (shade_tmp.h).  Fed by tile.c and decouple.c through the ISA table. */
#include "util/cpu.h"
#if defined(UTIL_X86)
#pragma GCC target("avx512f,avx512dq,avx512bw,avx512vl,avx2,fma,bmi,bmi2,popcnt,lzcnt")
#define SHADE_QUADS_FN shade_quads_avx512
#define SHADE_POINTS_FN shade_points_avx512
#include "backend/shade_tmp.h"
#endif
