/* fifo.c — bounded SPSC work FIFO with sleeping on both ends (no spinning).
 * A producer that finds the FIFO full sleeps until the worker has drained
 * it to half (hysteresis): waking it for every freed slot would cost a
 * futex wake and a context switch per work item, on the worker's time.
 * Fed by the front-end (push) and drained by one worker (pop). */
#include "sched/fifo.h"

#include "util/clock.h"

/* A blocked producer resumes once the FIFO holds this many items or fewer. */
static uint32_t fifo_low_water(const work_fifo *f) { return f->capacity / 2; }

int fifo_init(work_fifo *f, frame_work_item *storage, uint32_t capacity)
{
    f->items = storage;
    f->capacity = capacity;
    f->head = f->count = 0;
    f->consumer_waiting = f->producer_waiting = 0;
    if (pthread_mutex_init(&f->lock, NULL)) return -1;
    if (pthread_cond_init(&f->not_empty, NULL)) {
        pthread_mutex_destroy(&f->lock);
        return -1;
    }
    if (pthread_cond_init(&f->not_full, NULL)) {
        pthread_cond_destroy(&f->not_empty);
        pthread_mutex_destroy(&f->lock);
        return -1;
    }
    return 0;
}

void fifo_destroy(work_fifo *f)
{
    pthread_cond_destroy(&f->not_full);
    pthread_cond_destroy(&f->not_empty);
    pthread_mutex_destroy(&f->lock);
}

double fifo_push(work_fifo *f, const frame_work_item *items, uint32_t count)
{
    double stalled_ms = 0;
    pthread_mutex_lock(&f->lock);
    while (count) {
        if (f->count == f->capacity) {
            double t0 = util_now_ms();
            while (f->count > fifo_low_water(f)) {
                f->producer_waiting = 1;
                pthread_cond_wait(&f->not_full, &f->lock);
            }
            f->producer_waiting = 0;
            stalled_ms += util_now_ms() - t0;
        }
        const uint32_t room = f->capacity - f->count, n = count < room ? count : room;
        for (uint32_t i = 0; i < n; i++) f->items[(f->head + f->count + i) % f->capacity] = items[i];
        f->count += n;
        items += n;
        count -= n;
        if (f->consumer_waiting) pthread_cond_signal(&f->not_empty);
    }
    pthread_mutex_unlock(&f->lock);
    return stalled_ms;
}

bool fifo_offer(work_fifo *f, const frame_work_item *it)
{
    pthread_mutex_lock(&f->lock);
    bool room = f->count == 0;
    if (room) {
        f->items[(f->head + f->count) % f->capacity] = *it;
        f->count++;
        if (f->consumer_waiting) pthread_cond_signal(&f->not_empty);
    }
    pthread_mutex_unlock(&f->lock);
    return room;
}

bool fifo_empty(work_fifo *f)
{
    pthread_mutex_lock(&f->lock);
    bool empty = f->count == 0;
    pthread_mutex_unlock(&f->lock);
    return empty;
}

void fifo_pop(work_fifo *f, frame_work_item *out)
{
    pthread_mutex_lock(&f->lock);
    while (f->count == 0) {
        f->consumer_waiting = 1;
        pthread_cond_wait(&f->not_empty, &f->lock);
    }
    f->consumer_waiting = 0;
    *out = f->items[f->head];
    f->head = (f->head + 1) % f->capacity;
    f->count--;
    if (f->producer_waiting && f->count <= fifo_low_water(f)) pthread_cond_signal(&f->not_full);
    pthread_mutex_unlock(&f->lock);
}
