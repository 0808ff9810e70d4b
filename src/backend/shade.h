/* shade.h — the shade stage's scratch and its per-ISA entries (shade_tmp.h).
 * Private to backend/. */
#ifndef MOSAIC_BACKEND_SHADE_H
#define MOSAIC_BACKEND_SHADE_H

#include "backend/stages.h"

/* Rows of SHADE_ROW floats: lane arrays of a varying or a colour channel
 * 64 bytes more than 4 KiB apart (at exactly 4 KiB, a store to one and a
 * load from the next at the same lane would look dependent). */
#define SHADE_ROW (BACKEND_SHADE_LANES + 16)
struct shade_scratch {
    _Alignas(64) float var[MOS_MAX_VARYINGS][SHADE_ROW];
    _Alignas(64) float frag_x[BACKEND_SHADE_LANES];
    _Alignas(64) float frag_y[BACKEND_SHADE_LANES];
    _Alignas(64) float out[4][SHADE_ROW];
    _Alignas(64) float dx[BACKEND_SHADE_LANES], dy[BACKEND_SHADE_LANES], w[BACKEND_SHADE_LANES];
    uint8_t live[BACKEND_SHADE_LANES];
    uint8_t discard[BACKEND_SHADE_LANES];
    void *user_scratch;       /* the frame's shaders' scratch (the most any asks for) */
    size_t user_scratch_cap;
    const backend_isa *hot;  /* this frame's build of the stage; hot->isa is told to the fragment shader */
};

void shade_quads_scalar(shade_scratch *, const raster_quad *, int, int, bool, shade_result *);
void shade_points_scalar(shade_scratch *, const frame_tri *const *, const float *, const float *, const float *, bool,
                         int, shade_result *);
#if defined(UTIL_X86)
void shade_quads_avx2(shade_scratch *, const raster_quad *, int, int, bool, shade_result *);
void shade_points_avx2(shade_scratch *, const frame_tri *const *, const float *, const float *, const float *, bool,
                         int, shade_result *);
void shade_quads_avx512(shade_scratch *, const raster_quad *, int, int, bool, shade_result *);
void shade_points_avx512(shade_scratch *, const frame_tri *const *, const float *, const float *, const float *, bool,
                         int, shade_result *);
#endif

#endif
