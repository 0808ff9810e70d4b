/* backend_avx2.c — the back-end's per-ISA bodies in AVX2: the shade stage
 * (shade_tmp.h).  Fed by tile.c and decouple.c through the ISA table. */
#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC target("avx2,fma,bmi,bmi2,popcnt,lzcnt")
#define SHADE_QUADS_FN shade_quads_avx2
#define SHADE_POINTS_FN shade_points_avx2
#include "backend/shade_tmp.h"
#endif
