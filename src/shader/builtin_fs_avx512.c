/* builtin_fs_avx512.c — the built-in fragment stages in AVX-512: sixteen lanes per instruction
 * (builtin_fs_tmp.h).  Fed by builtin.c through mos_fs_batch.isa. */
#include "util/cpu.h"
#if defined(UTIL_X86)
#define SIMD_LANES 16
#include "util/simd.h"  /* the ISA's target */
#define BUILTIN_FS_FN builtin_fs_avx512
#include "shader/builtin_fs_tmp.h"
#endif
