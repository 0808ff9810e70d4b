/* lp.h — the llvmpipe reference renderer's parts: a GL renderer for one scene and configuration.
 * Fed by lp_main.c (command line, serve loop); lp_gl.c draws through OSMesa. */
#ifndef MOSAIC_BENCH_LP_H
#define MOSAIC_BENCH_LP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scene/scene.h"

typedef struct lp_opts {
    int width, height, spp, fma, view;
    /* > 0: lp_frame renders this many sub-frames, sub-frame k at Mosaic's pinhole
     * mos_accum_pinhole(k) (motion and lens of the scene, as Mosaic's --mode accum),
     * and averages them; 0: one frame at the pinhole (0, 0, 0). */
    int accum;
} lp_opts;

typedef struct lp_renderer lp_renderer;

/* Creates the GL context, framebuffers and shaders and uploads S's draws for O.
 * 0, or -1 with a message in ERR. */
int lp_create(const scene *s, const lp_opts *o, lp_renderer **out, char *err, size_t err_size);
void lp_destroy(lp_renderer *r);
/* GL_RENDERER ("llvmpipe (LLVM 15.0.6, 256 bits)"). */
const char *lp_renderer_string(const lp_renderer *r);
/* Clears, draws the frame, resolves, glFinish; with accum, lp_accum(r, accum, true). */
void lp_frame(lp_renderer *r);
/* Accumulation (lp_opts.accum > 0 only): adds N sub-frames, the next ones of the
 * sequence (RESTART: empties the sum first, from sub-frame 0), and makes the
 * rounded mean of all sub-frames in the sum the frame's image (lp_read_rgba8). */
void lp_accum(lp_renderer *r, int n, bool restart);
/* Sub-frames in the sum. */
int lp_accum_frames(const lp_renderer *r);
/* The last frame's resolved image (with accum, the mean), rows top first (call before lp_read_ids). */
void lp_read_rgba8(lp_renderer *r, uint8_t *rgba);
/* Renders an ID pass at 1 spp: per pixel (draw index << 20) + primitive + 1,
 * 0 = background; rows top first.  Overwrites the resolved image. */
void lp_read_ids(lp_renderer *r, uint32_t *ids);

#endif
