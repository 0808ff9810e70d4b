/* wood_native.c — the native C twin of shaders/wood.frag (wood_native_tmp.h)
 * built once per instruction set, as the built-in shaders are: bench.mk
 * compiles this file three times, WOOD_ISA 0 (portable, with the entry that
 * picks a build by mos_fs_batch.isa), 1 (AVX2) and 2 (AVX-512). */
#include "util/cpu.h"
#include "wood_native.h"

#if WOOD_ISA == 1 && defined(UTIL_X86)
#define SIMD_LANES 8
#include "util/simd.h"  /* the ISA's target */
#define WOOD_FN wood_native_avx2
#include "wood_native_tmp.h"
#elif WOOD_ISA == 2 && defined(UTIL_X86)
#define SIMD_LANES 16
#include "util/simd.h"  /* the ISA's target */
#define WOOD_FN wood_native_avx512
#include "wood_native_tmp.h"
#elif WOOD_ISA == 0
#define WOOD_FN wood_native_scalar
#include "wood_native_tmp.h"

void wood_native_fs(const mos_fs_batch *b)
{
    switch (b->isa) {
#if defined(UTIL_X86)
    case MOS_ISA_AVX512: wood_native_avx512(b); return;
    case MOS_ISA_AVX2: wood_native_avx2(b); return;
#endif
    default: wood_native_scalar(b); return;
    }
}
#endif
