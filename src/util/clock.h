/* clock.h — monotonic milliseconds, and the calling thread's CPU time, for
 * the frame statistics.  Fed by the front-end, the workers and the api. */
#ifndef MOSAIC_UTIL_CLOCK_H
#define MOSAIC_UTIL_CLOCK_H

#include <time.h>

static inline double util_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* CPU time the calling thread has run: unlike a wall-clock interval, it
 * leaves out the time the thread waited for a core others held. */
static inline double util_thread_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

#endif
