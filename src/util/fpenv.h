/* fpenv.h — the floating-point environment of the threads Mosaic starts. */
#ifndef MOSAIC_UTIL_FPENV_H
#define MOSAIC_UTIL_FPENV_H

#include <fenv.h>

/* A new thread inherits its creator's floating-point environment (on
 * x86-64 the MXCSR: rounding, denormals-are-zero, flush-to-zero).  Each
 * thread Mosaic starts sets the default first (round to nearest, subnormals
 * kept), so that an embedder's settings do not change the image: every
 * path's bits assume round to nearest, and the stochastic walk's tie
 * thresholds (stoch_edge_tie) need subnormals. */
static inline void util_fp_default(void) { (void)fesetenv(FE_DFL_ENV); }

#endif
