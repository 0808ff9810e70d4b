/* backend_avx2.c — the back-end's per-ISA bodies in AVX2: the shade
 * stage (shade_tmp.h) and the resolve's rows: the lookup
 * (recent_row_tmp.h), the bilinear lookup and mix (bilinear_row_tmp.h) and
 * the writes (resolve_row_tmp.h).  Fed by tile.c, decouple.c and resolve.c
 * through the ISA table. */
#include "util/cpu.h"
#if defined(UTIL_X86)
#define SIMD_LANES 8
#include "util/simd.h"  /* the ISA's target */
#define SHADE_QUADS_FN shade_quads_avx2
#define SHADE_POINTS_FN shade_points_avx2
#include "backend/shade_tmp.h"
#define RECENT_ROW_FN recent_row_avx2
#include "backend/recent_row_tmp.h"
#define BILINEAR_ROW_FN bilinear_row_avx2
#define MIX_ROW_FN mix_row_avx2
#include "backend/bilinear_row_tmp.h"
#define WRITE_ROW_FN write_row_avx2
#define SUM_ROWS_FN sum_rows_avx2
#include "backend/resolve_row_tmp.h"
#endif
