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

#endif
