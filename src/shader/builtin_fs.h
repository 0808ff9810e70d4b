/* builtin_fs.h — the built-in fragment stages' kernels, one build per ISA
 * (builtin_fs_tmp.h).  Private to shader/: builtin.c picks one by the
 * batch's mos_fs_batch.isa. */
#ifndef MOSAIC_SHADER_BUILTIN_FS_H
#define MOSAIC_SHADER_BUILTIN_FS_H

#include "shader/builtin.h"
#include "util/cpu.h"

typedef enum builtin_fs_kind { FS_FLAT, FS_LAMBERT, FS_TEXTURED, FS_LIGHTMAPPED } builtin_fs_kind;

void builtin_fs_scalar(builtin_fs_kind kind, const mos_fs_batch *b);
#if defined(UTIL_X86)
void builtin_fs_avx2(builtin_fs_kind kind, const mos_fs_batch *b);
void builtin_fs_avx512(builtin_fs_kind kind, const mos_fs_batch *b);
#endif

#endif
