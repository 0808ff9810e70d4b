/* shader_isa.h — the shader stage's row of the per-ISA table: its hot loops
 * for one instruction set, the texture sampler (sample_tmp.h), the VM's
 * body (vm_tmp.h) and the built-in fragment stages' kernels
 * (builtin_fs_tmp.h), each compiled once per ISA by one small file
 * (sample_avx2.c, vm_avx2.c, builtin_fs_avx2.c, ...).  The context's table
 * (backend/isa.c, resolved once per context) points at the row of its ISA
 * (backend_isa.shader), and its textures sample through it; a shader batch
 * carries that ISA as mos_fs_batch.isa / mos_vs_batch.isa (the contract
 * every native shader shares), and the built-in and compiled shaders find
 * the same row from it with shader_isa_select.  The type lives in shader/,
 * not beside backend_isa, because the shader stage runs the rows and may
 * not include the back-end, which includes it (test/check_includes.sh).
 * Fed by shader_isa.c; read by backend/isa.c, builtin.c and program.c. */
#ifndef MOSAIC_SHADER_SHADER_ISA_H
#define MOSAIC_SHADER_SHADER_ISA_H

#include "mosaic.h"
#include "shader/builtin.h"
#include "shader/texture.h"
#include "shader/vm.h"
#include "util/cpu.h"

typedef struct shader_isa {
    mos_isa isa;
    texture_sample_fn sample;  /* mos_sampler.sample of the context's textures */
    void (*vm_run)(const vm_program *p, const vm_io *io);
    void (*builtin_fs)(builtin_fs_kind kind, const mos_fs_batch *b);
} shader_isa;

extern const shader_isa shader_isa_scalar;
#if defined(UTIL_X86)
extern const shader_isa shader_isa_avx2, shader_isa_avx512;
#endif
/* The row of ISA (never AUTO; the portable one for an ISA this build lacks). */
const shader_isa *shader_isa_select(mos_isa isa);

#endif
