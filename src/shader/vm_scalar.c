/* vm_scalar.c — the VM's body in portable C (SSE2 on x86-64) (vm_tmp.h).
 * Fed by vm.c's vm_run through vm_io.isa. */
#define VM_RUN_FN vm_run_scalar
#define VM_VEC_BYTES 16
#include "shader/vm_tmp.h"
