/* fifo.c — bounded SPSC work FIFO with sleeping on both ends (no spinning).
 * Fed by the front-end (push) and drained by one worker (pop). */
#include "sched/fifo.h"

#include "util/clock.h"

int fifo_init(work_fifo *f, work_item *storage, uint32_t capacity)
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

double fifo_push(work_fifo *f, const work_item *it)
{
    double stalled_ms = 0;
    pthread_mutex_lock(&f->lock);
    if (f->count == f->capacity) {
        double t0 = util_now_ms();
        while (f->count == f->capacity) {
            f->producer_waiting = 1;
            pthread_cond_wait(&f->not_full, &f->lock);
        }
        f->producer_waiting = 0;
        stalled_ms = util_now_ms() - t0;
    }
    f->items[(f->head + f->count) % f->capacity] = *it;
    f->count++;
    if (f->consumer_waiting) pthread_cond_signal(&f->not_empty);
    pthread_mutex_unlock(&f->lock);
    return stalled_ms;
}

void fifo_pop(work_fifo *f, work_item *out)
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
    if (f->producer_waiting) pthread_cond_signal(&f->not_full);
    pthread_mutex_unlock(&f->lock);
}
