/* backend_scalar.c — the back-end's per-ISA bodies in portable C: the shade stage
 * (shade_tmp.h).  Fed by tile.c and decouple.c through the ISA table. */
#define SHADE_QUADS_FN shade_quads_scalar
#define SHADE_POINTS_FN shade_points_scalar
#include "backend/shade_tmp.h"
