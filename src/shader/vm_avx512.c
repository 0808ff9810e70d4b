/* vm_avx512.c — the VM's body in AVX-512: sixteen lanes per instruction
 * (vm_tmp.h).  Fed by vm.c's vm_run through vm_io.isa. */
#include "util/cpu.h"
#if defined(UTIL_X86)
#pragma GCC target("avx512f,avx512dq,avx512bw,avx512vl,avx2,fma,bmi,bmi2,popcnt,lzcnt")
#define VM_RUN_FN vm_run_avx512
#define VM_VEC_BYTES 64
#include "shader/vm_tmp.h"
#endif
