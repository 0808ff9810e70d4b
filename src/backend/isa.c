/* isa.c — the hot loops for one instruction set, resolved once per
 * context: which ISA the CPU has, and the table of per-ISA functions (each
 * compiled from one *_tmp.h body by one small file per ISA, in the manner
 * of Masked Occlusion Culling, over util/simd.h's vocabulary): the raster
 * stage's and the back-end's, and the shader stage's row
 * (shader/shader_isa.c).  Fed by the api at context creation; read by the
 * workers through frame_state.hot, by the context's textures and, through
 * the ISA their batches carry, by the shaders. */
#include "backend/recent_quads.h"
#include "backend/shade.h"

mos_isa backend_isa_available(mos_isa want)
{
#if defined(UTIL_X86)
    __builtin_cpu_init();
    bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                  __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
                  __builtin_cpu_supports("avx512cd");
    bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2");
    if (want == MOS_ISA_AUTO) return avx512 ? MOS_ISA_AVX512 : avx2 ? MOS_ISA_AVX2 : MOS_ISA_SCALAR;
    if (want == MOS_ISA_AVX512) return avx512 ? want : MOS_ISA_AUTO;
    if (want == MOS_ISA_AVX2) return avx2 ? want : MOS_ISA_AUTO;
    return MOS_ISA_SCALAR;
#else
    return want == MOS_ISA_AUTO || want == MOS_ISA_SCALAR ? MOS_ISA_SCALAR : MOS_ISA_AUTO;
#endif
}

/* The table of one ISA: each stage's build of its hot bodies for it. */
#define ISA_TABLE(name, ISA)                                                                      \
    static const backend_isa isa_##name = {                                                       \
        .isa = ISA,                                                                               \
        .raster = raster_triangle_##name,                                                         \
        .stoch_walk = raster_stochastic_##name,                                                   \
        .shade_quads = shade_quads_##name,                                                        \
        .shade_points = shade_points_##name,                                                      \
        .recent_row = recent_row_##name,                                                          \
        .bilinear_row = bilinear_row_##name,                                                      \
        .mix_row = mix_row_##name,                                                                \
        .write_row = write_row_##name,                                                            \
        .sum_rows = sum_rows_##name,                                                              \
        .shader = &shader_isa_##name,                                                             \
    };
ISA_TABLE(scalar, MOS_ISA_SCALAR)
#if defined(UTIL_X86)
ISA_TABLE(avx2, MOS_ISA_AVX2)
ISA_TABLE(avx512, MOS_ISA_AVX512)
#endif
#undef ISA_TABLE

const backend_isa *backend_isa_select(mos_isa isa)
{
    switch (isa) {
#if defined(UTIL_X86)
    case MOS_ISA_AVX512: return &isa_avx512;
    case MOS_ISA_AVX2: return &isa_avx2;
#endif
    default: return &isa_scalar;
    }
}
