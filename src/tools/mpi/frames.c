/* frames.c — mosaic-mpi's sequences: frames of scene time dealt to the ranks
 * in turn (frame k to rank (k - first) mod N), each rendered whole and
 * written by its rank; every rank reports each of its frames to rank 0,
 * which prints them as they come.
 * Fed by main.c (a set-up job); drives job_render, image/ (PNG) and MPI
 * point-to-point messages. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/mpi/job.h"
#include "tools/sequence.h"

#define TAG_FRAME 17

/* What a rank says of one frame of its share. */
typedef struct frame_report {
    int frame, rank;
    int code;     /* EXIT_OK (written or skipped) or EXIT_FAIL */
    int skipped;  /* --resume found the file */
    double frame_ms;
    char path[SEQ_PATH_MAX], msg[MSG_BYTES];
} frame_report;

/* Renders frame K into j->image, with its statistics JSON in *JSON and their
 * file in STATS when --stats-json asks, or skips it (--resume).  Frames are
 * independent: one that fails (its file, its memory) is reported, and the
 * rank goes on with the next. */
static frame_report one_frame(job *j, int k, char **json, char stats[SEQ_PATH_MAX])
{
    const render_opts *o = &j->o;
    frame_report rep = {.frame = k, .rank = j->rank};
    *json = NULL;
    j->status = (rank_status){0};
    if (!render_frame_paths(o, k, rep.path, stats)) {
        job_fail(&j->status, EXIT_FAIL, "the output file name is too long");
    } else if (o->resume && seq_frame_done(rep.path)) {
        rep.skipped = 1;
        return rep;
    } else {
        job_render(j, k, false);
    }
    if (j->status.code == EXIT_OK && *stats &&
        !(*json = cli_stats_json(&j->st, j->frame_ms, o->frames, scene_warning_count(j->sc))))
        job_fail(&j->status, EXIT_FAIL, "out of memory formatting statistics");
    rep.code = j->status.code;
    rep.frame_ms = cli_median(j->frame_ms, o->frames);
    if (rep.code != EXIT_OK) snprintf(rep.msg, sizeof rep.msg, "frame %d: %.480s", k, j->status.msg);
    return rep;
}

/* Rank 0's count of what it has been told. */
typedef struct tally {
    int told, written, skipped, failed, total;
} tally;

/* Rank 0: one report printed and counted. */
static void print_report(const job *j, const frame_report *rep, tally *t)
{
    const render_opts *o = &j->o;
    t->told++;
    if (rep->skipped) {
        t->skipped++;
    } else if (rep->code != EXIT_OK) {
        t->failed++;
        fprintf(stderr, "mosaic-mpi: rank %d: %s\n", rep->rank, rep->msg);
    } else {
        t->written++;
        printf("wrote %s (%dx%d, %d spp) frame_ms=%.3f rank=%d frame=%d (%d/%d)\n", rep->path, o->width, o->height,
               o->spp, rep->frame_ms, rep->rank, rep->frame, t->told, t->total);
        fflush(stdout);
    }
}

/* Rank 0: the reports that have arrived (all that remain when WAIT). */
static void drain(const job *j, tally *t, int own_left, bool wait)
{
    for (;;) {
        if (t->told + own_left == t->total) return;  /* only rank 0's own reports remain */
        int ready = 1;
        if (!wait) MPI_Iprobe(MPI_ANY_SOURCE, TAG_FRAME, MPI_COMM_WORLD, &ready, MPI_STATUS_IGNORE);
        if (!ready) return;
        frame_report rep;
        MPI_Recv(&rep, (int)sizeof rep, MPI_BYTE, MPI_ANY_SOURCE, TAG_FRAME, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        print_report(j, &rep, t);
    }
}

/* Sends one report to rank 0, or on rank 0 prints it and what has arrived
 * (UNREPORTED: this rank's frames not reported yet). */
static void report(const job *j, const frame_report *rep, tally *t, int unreported)
{
    if (j->rank != 0) {
        MPI_Send(rep, (int)sizeof *rep, MPI_BYTE, 0, TAG_FRAME, MPI_COMM_WORLD);
        return;
    }
    print_report(j, rep, t);
    drain(j, t, unreported, false);
}

/* Write W has ended; its frame (PENDING, W's report) is reported. */
static void end_write(const job *j, seq_writer *w, frame_report *pending, tally *t, int *unreported)
{
    if (!w->busy) return;
    if (seq_write_finish(w) != 0) {
        pending->code = EXIT_FAIL;
        snprintf(pending->msg, sizeof pending->msg, "frame %d: %.480s", pending->frame, w->err);
    }
    report(j, pending, t, --*unreported);
}

int job_sequence(job *j)
{
    const render_opts *o = &j->o;
    tally t = {.total = o->last - o->first + 1};
    int unreported = 0;  /* frames of this rank's share not yet reported */
    for (int k = o->first + j->rank; k <= o->last; k += j->ranks) unreported++;
    /* PNGs are written by up to SEQ_WRITERS_MAX threads while the next frames
     * render (sequence.h); pending[i] is the report of writer i's frame. */
    uint8_t *own = j->image;
    seq_ring ring;
    frame_report pending[SEQ_WRITERS_MAX];
    seq_ring_init(&ring, own, o->width, o->height, unreported);
    for (int k = o->first + j->rank; k <= o->last; k += j->ranks) {
        char *json, stats[SEQ_PATH_MAX];
        seq_writer *w = seq_ring_writer(&ring);
        frame_report *p = &pending[w - ring.w];
        j->image = seq_ring_pixels(&ring);
        frame_report rep = one_frame(j, k, &json, stats);
        end_write(j, w, p, &t, &unreported);
        if (rep.skipped || rep.code != EXIT_OK) {
            free(json);
            report(j, &rep, &t, --unreported);
            continue;
        }
        *p = rep;
        seq_ring_start(&ring, rep.path, *stats ? stats : NULL, o->width, o->height, json);
    }
    for (seq_writer *w; (w = seq_ring_oldest(&ring)) != NULL;) end_write(j, w, &pending[w - ring.w], &t, &unreported);
    j->image = own;
    seq_ring_free(&ring);
    if (j->rank != 0) return EXIT_OK;  /* rank 0 speaks for the job */
    drain(j, &t, 0, true);
    if (t.skipped) printf("resume: %d of %d frames were already written\n", t.skipped, t.total);
    if (!t.failed) return EXIT_OK;
    fprintf(stderr, "mosaic-mpi: %d of %d frames failed; the others are written (--resume renders the rest)\n",
            t.failed, t.total);
    return EXIT_FAIL;
}
