/* check.h — the test helper: CHECK macros that print file:line and the failing
 * expression, count failures, and run named test cases.  Fed by the test programs. */
#ifndef MOSAIC_TEST_CHECK_H
#define MOSAIC_TEST_CHECK_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mosaic.h"

/* Sanitizer builds run reduced sizes (ASan/UBSan and TSan are 3-15x slower). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TEST_SANITIZED 1
#else
#define TEST_SANITIZED 0
#endif
#if defined(__SANITIZE_THREAD__)
#define TEST_TSAN 1
#else
#define TEST_TSAN 0
#endif

/* One test binary is one translation unit: the counters live here. */
typedef struct check_state {
    int failures;       /* all failed checks in this binary */
    int printed;        /* failure lines printed (capped) */
} check_state;
static check_state check_g;

#define CHECK_PRINT_CAP 200

static inline void check_fail_(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline void check_fail_(const char *file, int line, const char *fmt, ...)
{
    check_g.failures++;
    if (check_g.printed++ >= CHECK_PRINT_CAP) {
        if (check_g.printed == CHECK_PRINT_CAP + 1)
            fprintf(stderr, "(further failure messages suppressed)\n");
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s:%d: CHECK failed: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
}

/* CHECK(cond): evaluates to cond (0/1). */
#define CHECK(cond) \
    ((cond) ? 1 : (check_fail_(__FILE__, __LINE__, "%s", #cond), 0))
/* CHECK_MSG(cond, fmt, ...): the expression plus a formatted note. */
#define CHECK_MSG(cond, ...) \
    ((cond) ? 1 : (check_fail_msg_(__FILE__, __LINE__, #cond, __VA_ARGS__), 0))

static inline void check_fail_msg_(const char *file, int line, const char *expr,
                                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static inline void check_fail_msg_(const char *file, int line, const char *expr,
                                   const char *fmt, ...)
{
    char note[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note, sizeof note, fmt, ap);
    va_end(ap);
    check_fail_(file, line, "%s (%s)", expr, note);
}

/* FAIL_MSG(fmt, ...): an unconditional failure with a formatted message. */
#define FAIL_MSG(...) check_fail_(__FILE__, __LINE__, __VA_ARGS__)

#define CHECK_EQ_INT(a, b) do {                                                  \
    long long check_a_ = (long long)(a), check_b_ = (long long)(b);              \
    if (check_a_ != check_b_)                                                    \
        check_fail_(__FILE__, __LINE__, "%s == %s (%lld != %lld)", #a, #b,       \
                    check_a_, check_b_);                                         \
} while (0)

/* CHECK_RES(call, expected): a mos_result compared by name. */
#define CHECK_RES(call, expected) do {                                           \
    mos_result check_r_ = (call), check_e_ = (expected);                         \
    if (check_r_ != check_e_)                                                    \
        check_fail_(__FILE__, __LINE__, "%s returned %s, expected %s", #call,    \
                    check_res_name_(check_r_), check_res_name_(check_e_));       \
} while (0)
/* Checks the exact result code and that mos_last_error explains it. */
#define CHECK_ERR(ctx, call, code) do {                                          \
    CHECK_RES(call, code);                                                       \
    const char *check_msg_ = mos_last_error(ctx);                                \
    CHECK_MSG(check_msg_ && check_msg_[0], "mos_last_error empty after %s", #call); \
} while (0)
#define CHECK_OK(call) CHECK_RES(call, MOS_OK)
/* CHECK_OK_B(call): like CHECK_OK, and evaluates to 1 when the call succeeded. */
#define CHECK_OK_B(call) check_ok_b_(__FILE__, __LINE__, #call, (call))
static inline const char *check_res_name_(mos_result r);
static inline int check_ok_b_(const char *file, int line, const char *expr, mos_result r)
{
    if (r == MOS_OK) return 1;
    check_fail_(file, line, "%s returned %s, expected MOS_OK", expr, check_res_name_(r));
    return 0;
}

static inline const char *check_res_name_(mos_result r)
{
    const char *n = ((unsigned)r < (unsigned)MOS_RESULT_COUNT) ? mos_result_name(r) : NULL;
    return n ? n : "(unknown code)";
}

/* TEST_RUN(fn): runs one case and prints "PASS name" or "FAIL name"; the runner
 * script collects these lines. */
#define TEST_RUN(fn) test_run_(#fn, fn)
static inline double test_now_ms_(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
static inline void test_run_(const char *name, void (*fn)(void))
{
    int before = check_g.failures;
    double t0 = test_now_ms_();
    fn();
    double ms = test_now_ms_() - t0;
    printf("%s %s (%.0f ms)\n", check_g.failures == before ? "PASS" : "FAIL", name, ms);
    fflush(stdout);
}
/* Exit status of a test binary. */
#define TEST_EXIT() (check_g.failures ? 1 : 0)

/* Small deterministic PRNG (xorshift64*), one state per user. */
typedef struct test_rng { uint64_t s; } test_rng;
static inline uint32_t rng_u32(test_rng *r)
{
    r->s ^= r->s >> 12; r->s ^= r->s << 25; r->s ^= r->s >> 27;
    return (uint32_t)((r->s * 0x2545F4914F6CDD1Dull) >> 32);
}
static inline double rng_unit(test_rng *r) { return rng_u32(r) / 4294967296.0; }
static inline int rng_range(test_rng *r, int lo, int hi) /* inclusive */
{
    return lo + (int)(rng_u32(r) % (uint32_t)(hi - lo + 1));
}

#endif
