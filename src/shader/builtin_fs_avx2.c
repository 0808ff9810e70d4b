/* builtin_fs_avx2.c — the built-in fragment stages in AVX2: eight lanes per instruction
 * (builtin_fs_tmp.h).  Fed by builtin.c through mos_fs_batch.isa. */
#include "util/cpu.h"
#if defined(UTIL_X86)
#define SIMD_LANES 8
#include "util/simd.h"  /* the ISA's target */
#define BUILTIN_FS_FN builtin_fs_avx2
#include "shader/builtin_fs_tmp.h"
#endif
