/* vm_scalar.c — the VM's body in portable C (SSE2 on x86-64): four lanes
 * per vector (vm_tmp.h over util/simd.h).  Fed by vm_run through the ISA
 * table's shader row. */
#define SIMD_LANES 4
#include "util/simd.h"
#define VM_RUN_FN vm_run_scalar
#include "shader/vm_tmp.h"
