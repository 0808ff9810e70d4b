/* select.c — picks the raster_triangle variant for the CPU (or the one a
 * context asks for).  Fed by the api at context creation. */
#include <string.h>

#include "raster/raster.h"

int raster_triangle_scalar(const fe_tri *, const raster_view *, int, int, int, int, raster_quad *, raster_counts *);
#if defined(__x86_64__) && defined(__GNUC__)
int raster_triangle_avx2(const fe_tri *, const raster_view *, int, int, int, int, raster_quad *, raster_counts *);
int raster_triangle_avx512(const fe_tri *, const raster_view *, int, int, int, int, raster_quad *, raster_counts *);
#endif

mos_isa raster_isa_available(mos_isa want)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                  __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
    bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2");
    if (want == MOS_ISA_AUTO) return avx512 ? MOS_ISA_AVX512 : avx2 ? MOS_ISA_AVX2 : MOS_ISA_SCALAR;
    if (want == MOS_ISA_AVX512) return avx512 ? want : MOS_ISA_AUTO;
    if (want == MOS_ISA_AVX2) return avx2 ? want : MOS_ISA_AUTO;
    return MOS_ISA_SCALAR;
#else
    return want == MOS_ISA_AUTO || want == MOS_ISA_SCALAR ? MOS_ISA_SCALAR : MOS_ISA_AUTO;
#endif
}

raster_fn raster_select(mos_isa isa)
{
    switch (isa) {
#if defined(__x86_64__) && defined(__GNUC__)
    case MOS_ISA_AVX512: return raster_triangle_avx512;
    case MOS_ISA_AVX2: return raster_triangle_avx2;
#endif
    default: return raster_triangle_scalar;
    }
}
