/* stoch_block.c — stoch_block in every ISA the CPU may have: the portable
 * build, AVX2 (8 lanes per instruction) and AVX-512 (16).  Contraction is
 * off in the whole build, so all three compute the same bits.
 * Fed by backend/decouple.c through stoch_block_select(). */
#include "raster/stoch.h"
#include "raster/stoch_lane.h"

#define STOCH_BLOCK_FN stoch_block_scalar
#include "raster/stoch_block_tmp.h"

#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC push_options
#pragma GCC target("avx2,fma,bmi,bmi2,popcnt,lzcnt")
#define STOCH_BLOCK_FN stoch_block_avx2
#include "raster/stoch_block_tmp.h"
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512bw,avx512vl,avx2,fma,bmi,bmi2,popcnt,lzcnt")
#define STOCH_BLOCK_FN stoch_block_avx512
#include "raster/stoch_block_tmp.h"
#pragma GCC pop_options
#endif

stoch_block_fn stoch_block_select(mos_isa isa)
{
    switch (isa) {
#if defined(__x86_64__) && defined(__GNUC__)
    case MOS_ISA_AVX512: return stoch_block_avx512;
    case MOS_ISA_AVX2: return stoch_block_avx2;
#endif
    default: return stoch_block_scalar;
    }
}
