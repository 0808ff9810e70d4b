/* vm_avx2.c — the VM's body in AVX2: eight lanes per instruction (vm_tmp.h).
 * Fed by vm.c's vm_run through vm_io.isa. */
#include "util/cpu.h"
#if defined(UTIL_X86)
#pragma GCC target("avx2,fma,bmi,bmi2,popcnt,lzcnt")
#define VM_RUN_FN vm_run_avx2
#define VM_VEC_BYTES 32
#include "shader/vm_tmp.h"
#endif
