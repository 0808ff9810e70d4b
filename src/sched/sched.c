/* sched.c — thread lifecycle, the worker loop and the frame barrier.
 * Fed by the api; each worker pops its FIFO and runs the back-end on the
 * bins it owns, nothing else. */
#include "sched/sched.h"

#include <string.h>

#include "pattern/pattern.h"
#include "util/clock.h"
#include "util/fpenv.h"

static void worker_frame_end(worker *w, const frame_state *f)
{
    /* Resolve every bin this worker owns (cleared or drawn) that the frame
     * renders (all, or those of frame_state.bin_mask: the others keep their
     * pixels); those resolved after their last work are skipped there. */
    double t0 = util_now_ms();
    const pattern_table *pt = f->pattern;
    const uint8_t *mask = f->bin_mask;
    uint32_t bins = (uint32_t)pt->bins_x * (uint32_t)pt->bins_y;
    for (uint32_t b = 0; b < bins; b++)
        if (pt->owner[b] == w->id && (!mask || mask[b])) backend_resolve_bin(f, b);
    w->busy_ms += util_now_ms() - t0;

    sched *s = w->sched;
    pthread_mutex_lock(&s->lock);
    if (--s->workers_left == 0) pthread_cond_broadcast(&s->frame_done);
    pthread_mutex_unlock(&s->lock);
}

/* Chunks of the front-end's open job, if there is one, while this worker
 * has nothing of its own queued (it helps only when starved, so a worker
 * that bounds the frame is not slowed by the front-end's work). */
static void help_frontend(worker *w, const frame_state *f)
{
    frame_job *j = atomic_load_explicit(&f->job, memory_order_acquire);
    if (!j || !fifo_empty(&w->fifo)) return;
    double t0 = util_now_ms();
    do {
        if (!frame_job_step(j, 1 + w->id, backend_shader_scratch(w->scratch))) break;
        w->stats.frontend_chunks++;
    } while (fifo_empty(&w->fifo));
    w->busy_ms += util_now_ms() - t0;
}

static void *worker_main(void *arg)
{
    util_fp_default();
    worker *w = arg;
    const frame_state *frame = NULL;  /* between FRAME_BEGIN and FRAME_END */
    for (;;) {
        frame_work_item it;
        if (frame) help_frontend(w, frame);
        fifo_pop(&w->fifo, &it);
        switch (it.kind) {
        case FRAME_WORK_FRAME_BEGIN:
            frame = it.frame;
            memset(&w->stats, 0, sizeof w->stats);
            w->busy_ms = 0;
            w->first_work_ms = 0;
            break;
        case FRAME_WORK_BIN: {
            double t0 = util_now_ms();
            if (w->first_work_ms == 0) w->first_work_ms = t0;
            if (!atomic_load_explicit(&frame->abandoned, memory_order_relaxed))
                backend_run_bin(w->scratch, frame, it.bin, it.tris, it.count, it.last, &w->stats);
            w->busy_ms += util_now_ms() - t0;
            break;
        }
        case FRAME_WORK_HELP: break;  /* woken for the front-end's job: helped at the top of the loop */
        case FRAME_WORK_FRAME_END:
            worker_frame_end(w, frame);
            frame = NULL;  /* the api may rebuild it now */
            break;
        default: return NULL;
        }
    }
}

/* The front-end's way to the workers (frame_dispatch.push). */
static double push_to_worker(void *queues, int worker_id, const frame_work_item *items, uint32_t count)
{
    sched *s = queues;
    return fifo_push(&s->workers[worker_id].fifo, items, count);
}

static bool offer_to_worker(void *queues, int worker_id, const frame_work_item *it)
{
    sched *s = queues;
    return fifo_offer(&s->workers[worker_id].fifo, it);
}

static void *frontend_main(void *arg)
{
    util_fp_default();
    sched *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!s->pending && !s->quit) pthread_cond_wait(&s->frame_ready, &s->lock);
        if (s->quit) break;
        frame_state *f = s->pending;
        s->pending = NULL;
        pthread_mutex_unlock(&s->lock);
        const frame_dispatch dispatch = {.push = push_to_worker, .offer = offer_to_worker, .queues = s, .workers = s->worker_count};
        frontend_run_frame(s->fe, f, &dispatch);
        pthread_mutex_lock(&s->lock);
        /* Only now is the frame free of the front-end: the workers may have
         * finished before its last statistics were written. */
        s->frontend_busy = false;
        pthread_cond_broadcast(&s->frame_done);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

mos_result sched_start(sched *s, int workers, int fifo_depth, const mos_allocator *a)
{
    memset(s, 0, sizeof *s);
    s->allocator = a;
    if (pthread_mutex_init(&s->lock, NULL)) return MOS_ERR_THREAD;
    pthread_cond_init(&s->frame_ready, NULL);
    pthread_cond_init(&s->frame_done, NULL);
    s->fe = frontend_create(a);
    s->workers = util_calloc(a, (size_t)workers, sizeof(worker));
    if (s->workers) s->workers_allocated = workers;
    if (!s->fe || !s->workers) {
        sched_stop(s);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    for (int i = 0; i < workers; i++) {
        worker *w = &s->workers[i];
        w->id = i;
        w->sched = s;
        w->fifo_storage = util_calloc(a, (size_t)fifo_depth, sizeof(frame_work_item));
        w->scratch = backend_scratch_create(a);
        if (!w->fifo_storage || !w->scratch) {
            sched_stop(s);
            return MOS_ERR_OUT_OF_MEMORY;
        }
        if (fifo_init(&w->fifo, w->fifo_storage, (uint32_t)fifo_depth)) {
            sched_stop(s);
            return MOS_ERR_THREAD;
        }
        w->fifo_ready = true;
        s->worker_count = i + 1;
        if (pthread_create(&w->thread, NULL, worker_main, w)) {
            sched_stop(s);
            return MOS_ERR_THREAD;
        }
        w->started = true;
    }
    if (pthread_create(&s->frontend_thread, NULL, frontend_main, s)) {
        sched_stop(s);
        return MOS_ERR_THREAD;
    }
    s->frontend_started = true;
    return MOS_OK;
}

void sched_stop(sched *s)
{
    if (s->frontend_started) {
        pthread_mutex_lock(&s->lock);
        s->quit = true;
        pthread_cond_signal(&s->frame_ready);
        pthread_mutex_unlock(&s->lock);
        pthread_join(s->frontend_thread, NULL);
    }
    const mos_allocator *a = s->allocator;
    for (int i = 0; i < s->workers_allocated; i++) {
        worker *w = &s->workers[i];
        if (w->started) {
            frame_work_item quit = {.kind = FRAME_WORK_QUIT};
            fifo_push(&w->fifo, &quit, 1);
            pthread_join(w->thread, NULL);
        }
        if (w->fifo_ready) fifo_destroy(&w->fifo);
        util_free(a, w->fifo_storage);
        backend_scratch_destroy(w->scratch, a);
    }
    util_free(a, s->workers);
    frontend_destroy(s->fe);
    pthread_cond_destroy(&s->frame_done);
    pthread_cond_destroy(&s->frame_ready);
    pthread_mutex_destroy(&s->lock);
    memset(s, 0, sizeof *s);
}

void sched_run_frame(sched *s, frame_state *f)
{
    pthread_mutex_lock(&s->lock);
    s->workers_left = s->worker_count;
    s->pending = f;
    s->frontend_busy = true;
    pthread_cond_signal(&s->frame_ready);
    while (s->workers_left > 0 || s->frontend_busy) pthread_cond_wait(&s->frame_done, &s->lock);
    pthread_mutex_unlock(&s->lock);
}
