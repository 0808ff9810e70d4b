/* fifo.h — the bounded single-producer, single-consumer queue that carries
 * work from the front-end to one worker.  A full FIFO blocks the producer
 * (the G80 stall of seed 002) and the blocked time is counted. */
#ifndef MOSAIC_SCHED_FIFO_H
#define MOSAIC_SCHED_FIFO_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "frame/frame.h"

typedef struct work_fifo {
    pthread_mutex_t lock;
    pthread_cond_t not_empty, not_full;
    frame_work_item *items;
    uint32_t capacity, head, count;
    int consumer_waiting, producer_waiting;
} work_fifo;

int fifo_init(work_fifo *f, frame_work_item *storage, uint32_t capacity);
void fifo_destroy(work_fifo *f);
/* Pushes items[0 .. count) in order under one lock, waking a sleeping
 * consumer once per run that fits rather than once per item; returns the
 * milliseconds spent blocked on a full FIFO. */
double fifo_push(work_fifo *f, const frame_work_item *items, uint32_t count);
/* Pushes one item only into an empty FIFO (a consumer that may be asleep;
 * one with items comes back to its loop soon anyway); true when it did. */
bool fifo_offer(work_fifo *f, const frame_work_item *it);
/* Nothing queued: the consumer has nothing of its own to do. */
bool fifo_empty(work_fifo *f);
/* Pops one item, sleeping while the FIFO is empty. */
void fifo_pop(work_fifo *f, frame_work_item *out);

#endif
