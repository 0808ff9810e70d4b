/* cpu.h — whether this build can have the x86-64 per-ISA bodies (AVX2,
 * AVX-512: gcc's target pragmas and intrinsics; clang, which the fuzz
 * build uses, lacks `#pragma GCC target` and gets the portable bodies).  One condition for every
 * file that compiles, declares or picks them; without it only the portable
 * bodies exist. */
#ifndef MOSAIC_UTIL_CPU_H
#define MOSAIC_UTIL_CPU_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define UTIL_X86 1
#endif

/* A function gcc builds twice, for AVX2 and for any x86-64, the loader
 * picking one for the CPU (an ifunc): for loops outside the per-ISA
 * tables that vectorize 8 wide (the same bits either way: the build
 * contracts no multiply-adds).  Not under ThreadSanitizer, whose runtime
 * is not up yet when the loader runs the resolvers (the TSan build
 * crashed at start). */
#if defined(UTIL_X86) && !defined(__SANITIZE_THREAD__)
#define UTIL_CLONES_AVX2 __attribute__((target_clones("avx2", "default")))
#else
#define UTIL_CLONES_AVX2
#endif

#endif
