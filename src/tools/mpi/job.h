/* job.h — what one rank of mosaic-mpi holds, and the steps main.c and
 * frames.c share: the status a rank reports, one render of the scene.
 * Fed by main.c (options, set-up); feeds frames.c (sequences over ranks). */
#ifndef MOSAIC_TOOLS_MPI_JOB_H
#define MOSAIC_TOOLS_MPI_JOB_H

#include <stdbool.h>

#include "scene/scene.h"
#include "tools/mpi/rank_tiles.h"
#include "tools/render_opts.h"

#define MSG_BYTES 512
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* What one rank did: its status and, on failure, why. */
typedef struct rank_status {
    int code;   /* EXIT_OK, EXIT_FAIL or EXIT_USAGE */
    int shown;  /* rank 0 has printed msg already (its option parser did) */
    char msg[MSG_BYTES];
} rank_status;

/* Sets ST's code and message, unless it holds a failure already (the first
 * reason is the one). */
void job_fail(rank_status *st, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The options of this program beyond `mosaic render`'s (render_parse_cfg.extra). */
typedef struct mpi_opts {
    int rank_tile;
    const char *rank_pattern;
} mpi_opts;

/* Everything one rank holds. */
typedef struct job {
    int rank, ranks;
    render_opts o;
    mpi_opts m;
    scene *sc;
    scene_gpu *gpu;
    mos_context *ctx;
    mos_target rt;
    rank_tiles tiles;
    uint8_t *mask, *image, *packed;
    size_t packed_bytes;
    mos_frame_stats st;
    double *frame_ms;
    double render_ms, wait_ms;
    rank_status status;
    char parse_msg[MSG_BYTES];
    char default_out[512];
} job;

/* The frames of scene time TIME (each --accum sub-frames or one; --frames
 * repeats it) into j->image: over this rank's tiles, then packed, when
 * TILES; else the whole image.  A failure goes to j->status. */
void job_render(job *j, double time, bool tiles);

/* A sequence (--sequence, --frame-index): whole frames dealt to the ranks in
 * turn, each rank writing its own; rank 0 prints a line per finished frame.
 * Returns this rank's exit status (rank 0's says whether any frame failed). */
int job_sequence(job *j);

#endif
