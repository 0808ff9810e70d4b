/* sequence.h — frames of scene time written one file each: the output name's
 * frame-number field, and which frames a run still has to render.
 * Fed by render_opts.c (checks at parse time), cli_render.c and mosaic-mpi (names per frame). */
#ifndef MOSAIC_TOOLS_SEQUENCE_H
#define MOSAIC_TOOLS_SEQUENCE_H

#include <stdbool.h>
#include <stddef.h>

/* The largest frame number of --sequence and --frame-index. */
#define SEQ_MAX_FRAME 9999999

/* Whether PATTERN holds a frame-number field: one printf-style %d with an
 * optional 0 flag and width up to 9 (%04d); "%%" is a percent sign.  0: it
 * does, 1: it has none, -1: another % (a message in ERR). */
int seq_pattern_field(const char *pattern, char *err, size_t err_size);

/* PATTERN with its field replaced by FRAME (PATTERN as it is when it has no
 * field; "%%" becomes "%" either way), in BUF; NULL when it does not fit. */
const char *seq_frame_path(const char *pattern, int frame, char *buf, size_t size);

/* SCENE's base name + "_%04d.png": the output of a sequence without -o. */
const char *seq_default_pattern(const char *scene_path, char *buf, size_t size);

/* Does PATH exist (a frame --resume leaves alone: files are written whole or not at all)? */
bool seq_frame_done(const char *path);

#endif
