/* shader_isa.c — the shader stage's rows of the per-ISA table
 * (shader_isa.h), one per instruction set this build has.  Fed by the
 * per-ISA files' bodies; read through backend/isa.c's table and by the
 * shaders' batches (shader_isa_select). */
#include "shader/shader_isa.h"

#include "shader/builtin_fs.h"
#include "shader/vm_code.h"

#define SHADER_ISA_ROW(name, ISA)                                                                 \
    const shader_isa shader_isa_##name = {                                                        \
        .isa = ISA,                                                                               \
        .sample = texture_sample_quads_##name,                                                    \
        .vm_run = vm_run_##name,                                                                  \
        .builtin_fs = builtin_fs_##name,                                                          \
    };
SHADER_ISA_ROW(scalar, MOS_ISA_SCALAR)
#if defined(UTIL_X86)
SHADER_ISA_ROW(avx2, MOS_ISA_AVX2)
SHADER_ISA_ROW(avx512, MOS_ISA_AVX512)
#endif
#undef SHADER_ISA_ROW

const shader_isa *shader_isa_select(mos_isa isa)
{
    switch (isa) {
#if defined(UTIL_X86)
    case MOS_ISA_AVX512: return &shader_isa_avx512;
    case MOS_ISA_AVX2: return &shader_isa_avx2;
#endif
    default: return &shader_isa_scalar;
    }
}
