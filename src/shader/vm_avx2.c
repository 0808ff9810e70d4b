/* vm_avx2.c — the VM's body in AVX2: eight lanes per instruction (vm_tmp.h
 * over util/simd.h).  Fed by vm_run through the ISA table's shader row. */
#include "util/cpu.h"
#if defined(UTIL_X86)
#define SIMD_LANES 8
#include "util/simd.h"
#define VM_RUN_FN vm_run_avx2
#include "shader/vm_tmp.h"
#endif
