/* sched.h — the threads of a context: one front-end thread and N worker
 * threads (logical rasterizers), each fed by its own bounded FIFO, and the
 * frame barrier.  Fed by the api (sched_run_frame); runs frontend and backend. */
#ifndef MOSAIC_SCHED_H
#define MOSAIC_SCHED_H

#include <pthread.h>
#include <stdbool.h>

#include "backend/backend.h"
#include "frontend/frontend.h"
#include "sched/fifo.h"

typedef struct worker {
    int id;
    struct sched *sched;
    pthread_t thread;
    bool started, fifo_ready;
    work_fifo fifo;
    frame_work_item *fifo_storage;
    backend_scratch *scratch;
    /* per-frame results, read by the api after the frame barrier */
    frame_worker_stats stats;
    double busy_ms;
    double first_work_ms;  /* absolute clock, 0 = no work this frame */
} worker;

typedef struct sched {
    const mos_allocator *allocator;
    int worker_count;       /* workers running */
    int workers_allocated;
    worker *workers;
    frontend *fe;
    pthread_t frontend_thread;
    bool frontend_started;
    pthread_mutex_t lock;
    pthread_cond_t frame_ready;  /* api -> front-end */
    pthread_cond_t frame_done;   /* workers -> api */
    frame_state *pending;         /* frame handed to the front-end */
    bool frontend_busy;          /* the front-end still uses the frame */
    int workers_left;            /* workers still running the frame */
    bool quit;
} sched;

/* Starts the threads.  On failure nothing is left running. */
mos_result sched_start(sched *s, int workers, int fifo_depth, const mos_allocator *a);
void sched_stop(sched *s);
/* Runs frame f to completion (front-end, workers, resolve). */
void sched_run_frame(sched *s, frame_state *f);

#endif
