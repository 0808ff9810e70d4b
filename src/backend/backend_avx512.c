/* backend_avx512.c — the back-end's per-ISA bodies in AVX-512: the shade stage
 * (shade_tmp.h).  Fed by tile.c and decouple.c through the ISA table. */
#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC target("avx512f,avx512dq,avx512bw,avx512vl,avx2,fma,bmi,bmi2,popcnt,lzcnt")
#define SHADE_QUADS_FN shade_quads_avx512
#define SHADE_POINTS_FN shade_points_avx512
#include "backend/shade_tmp.h"
#endif
