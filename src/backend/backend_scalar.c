/* backend_scalar.c — the back-end's per-ISA bodies in portable C: the shade
 * stage (shade_tmp.h) and the resolve's rows: the lookup
 * (recent_row_tmp.h), the bilinear lookup and mix (bilinear_row_tmp.h) and
 * the writes (resolve_row_tmp.h).  Fed by tile.c, decouple.c and resolve.c
 * through the ISA table. */
#define SHADE_QUADS_FN shade_quads_scalar
#define SHADE_POINTS_FN shade_points_scalar
#include "backend/shade_tmp.h"
#define RECENT_ROW_FN recent_row_scalar
#include "backend/recent_row_tmp.h"
#define BILINEAR_ROW_FN bilinear_row_scalar
#define MIX_ROW_FN mix_row_scalar
#include "backend/bilinear_row_tmp.h"
#define WRITE_ROW_FN write_row_scalar
#define SUM_ROWS_FN sum_rows_scalar
#include "backend/resolve_row_tmp.h"
