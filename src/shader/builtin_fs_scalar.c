/* builtin_fs_scalar.c — the built-in fragment stages in portable C (SSE2 on x86-64)
 * (builtin_fs_tmp.h).  Fed by builtin.c through mos_fs_batch.isa. */
#define BUILTIN_FS_FN builtin_fs_scalar
#include "shader/builtin_fs_tmp.h"
