/* sequence.h — frames of scene time written one file each: the output name's
 * frame-number field, which frames a run still has to render, and a writer
 * that writes one frame while the next renders.
 * Fed by render_opts.c (checks at parse time), cli_render.c and mosaic-mpi (names per frame). */
#ifndef MOSAIC_TOOLS_SEQUENCE_H
#define MOSAIC_TOOLS_SEQUENCE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest frame number of --sequence and --frame-index, and the room
 * for one output file name. */
#define SEQ_MAX_FRAME 9999999
#define SEQ_PATH_MAX 1024

/* Whether PATTERN holds a frame-number field: one printf-style %d with an
 * optional 0 flag and width up to 9 (%04d); "%%" is a percent sign.  0: it
 * does, 1: it has none, -1: another % (a message in ERR). */
int seq_pattern_field(const char *pattern, char *err, size_t err_size);

/* PATTERN with its field replaced by FRAME (PATTERN as it is when it has no
 * field; "%%" becomes "%" either way), in BUF; NULL when it does not fit. */
const char *seq_frame_path(const char *pattern, int frame, char *buf, size_t size);

/* SCENE_PATH's file name without its extension: a pointer into it, *LEN its length. */
const char *seq_scene_base(const char *scene_path, int *len);

/* SCENE's base name + "_%04d.png": the output of a sequence without -o. */
const char *seq_default_pattern(const char *scene_path, char *buf, size_t size);

/* Does PATH exist (a frame --resume leaves alone: files are written whole or not at all)? */
bool seq_frame_done(const char *path);

/* Writes a frame's PNG (and statistics JSON) on a thread of its own, so the
 * next frame renders meanwhile: deflating a 1080p PNG takes longer than
 * rendering it on many cores. */
typedef struct seq_writer {
    pthread_t thread;
    bool busy;         /* a write was started and not yet finished */
    bool threaded;     /* it runs on thread (else it ran in seq_write_start) */
    char path[SEQ_PATH_MAX], stats[SEQ_PATH_MAX];
    const uint8_t *pixels;  /* width x height RGBA8, rows top first: the caller's until finished */
    int width, height;
    char *json;        /* freed when written; NULL = no statistics */
    int failed;
    char err[1024];
    int frame;         /* the caller's: which frame this is, and what to say of it once written */
    char note[1400];
} seq_writer;

/* Waits for the write started last: 0, or -1 with the reason in w->err; 0
 * when none was started. */
int seq_write_finish(seq_writer *w);

/* Up to SEQ_WRITERS_MAX frames written at once, each from a buffer of its
 * own: on many cores one writer cannot keep up (a 1080p PNG deflates for
 * longer than 16 threads take to render it).  Frames take the writers in
 * turn, so they finish in frame order. */
#define SEQ_WRITERS_MAX 4
typedef struct seq_ring {
    int writers;                        /* 1 .. SEQ_WRITERS_MAX, as memory allows */
    seq_writer w[SEQ_WRITERS_MAX];
    uint8_t *buf[SEQ_WRITERS_MAX + 1];  /* buf[0] is the caller's */
    unsigned next;                      /* frames started */
} seq_ring;

/* A ring for FRAMES frames of WIDTH x HEIGHT RGBA8 whose first buffer is
 * the caller's FIRST: one writer per extra buffer it could allocate (fewer
 * than FRAMES, at most 256 MiB of them); with none, one writer that writes
 * at once, on the caller's thread. */
void seq_ring_init(seq_ring *r, uint8_t *first, int width, int height, int frames);
/* Where the next frame renders. */
uint8_t *seq_ring_pixels(const seq_ring *r);
/* The writer the next frame takes: seq_write_finish it (an older frame's)
 * before seq_ring_start. */
seq_writer *seq_ring_writer(seq_ring *r);
/* Starts writing the next frame (seq_ring_pixels) through seq_ring_writer. */
void seq_ring_start(seq_ring *r, const char *path, const char *stats, int width, int height, char *json);
/* The oldest write in flight, NULL when none: finishing them in turn drains
 * the ring in frame order. */
seq_writer *seq_ring_oldest(seq_ring *r);
/* Frees the ring's own buffers (all writes finished). */
void seq_ring_free(seq_ring *r);

#endif
