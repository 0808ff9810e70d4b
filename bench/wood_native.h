/* wood_native.h — shaders/wood.frag as a native C fragment shader
 * (wood_native_tmp.h), for the shader VM benchmark. */
#ifndef MOSAIC_BENCH_WOOD_NATIVE_H
#define MOSAIC_BENCH_WOOD_NATIVE_H

#include "mosaic.h"
#include "util/cpu.h"

void wood_native_fs(const mos_fs_batch *b);
void wood_native_scalar(const mos_fs_batch *b);
#if defined(UTIL_X86)
void wood_native_avx2(const mos_fs_batch *b);
void wood_native_avx512(const mos_fs_batch *b);
#endif

#endif
