/* stats_json.c — the --stats-json object: one flat JSON object with stable key names.
 * Fed by cli_render.c with the last frame's mos_frame_stats and every frame's time. */
#include "tools/cli.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The keys (grep ORDER STATS_KEYS: bench/frametime.sh reads them by name):
 * every field of mos_frame_stats in its order (MOS_FRAME_STATS in mosaic.h),
 * then frames frame_ms_min frame_ms_max load_cv load_max_over_mean. */

typedef struct cli_json {
    FILE *f;
    int fields;  /* written so far, for commas */
} cli_json;

static void json_key(cli_json *j, const char *key)
{
    fprintf(j->f, "%s\n  \"%s\": ", j->fields++ ? "," : "", key);
}

/* JSON has no NaN/Inf: they become null.  9 significant digits keep
 * nanoseconds of a second-long frame. */
static void json_double_value(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.9g", v);
    else
        fputs("null", f);
}

static void json_double(cli_json *j, const char *key, double v)
{
    json_key(j, key);
    json_double_value(j->f, v);
}

static void json_int(cli_json *j, const char *key, long long v)
{
    json_key(j, key);
    fprintf(j->f, "%lld", v);
}

static void json_u64(cli_json *j, const char *key, uint64_t v)
{
    json_key(j, key);
    fprintf(j->f, "%" PRIu64, v);
}

/* Length of the valid UTF-8 sequence at S (0 if invalid). */
static int utf8_len(const unsigned char *s)
{
    int n;
    uint32_t cp;
    if (s[0] < 0x80)
        return 1;
    if ((s[0] & 0xE0) == 0xC0) n = 2, cp = s[0] & 0x1F;
    else if ((s[0] & 0xF0) == 0xE0) n = 3, cp = s[0] & 0x0F;
    else if ((s[0] & 0xF8) == 0xF0) n = 4, cp = s[0] & 0x07;
    else return 0;
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    static const uint32_t min_cp[5] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (cp < min_cp[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

static void json_string(cli_json *j, const char *key, const char *s)
{
    json_key(j, key);
    fputc('"', j->f);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = utf8_len(p);
        if (n == 0) {  /* invalid byte: U+FFFD keeps the file valid UTF-8 */
            fputs("\\ufffd", j->f);
            p++;
        } else if (*p == '"' || *p == '\\') {
            fprintf(j->f, "\\%c", *p++);
        } else if (*p == '\n') {
            fputs("\\n", j->f), p++;
        } else if (*p == '\t') {
            fputs("\\t", j->f), p++;
        } else if (*p < 0x20 || *p == 0x7F) {
            fprintf(j->f, "\\u%04x", *p++);
        } else {
            fwrite(p, 1, (size_t)n, j->f);
            p += n;
        }
    }
    fputc('"', j->f);
}

/* A scalar field of any of the statistics' types. */
#define json_scalar(j, key, v)                                                                 \
    _Generic((v), double: json_double, int: json_int_value, uint64_t: json_u64)(j, key, v)

static void json_int_value(cli_json *j, const char *key, int v) { json_int(j, key, v); }

/* An array field: the pattern name (a string, terminated by the caller), or
 * per-worker values for the first `workers`. */
static void json_array_char(cli_json *j, const char *key, const char *v, int workers)
{
    (void)workers;
    json_string(j, key, v);
}

static void json_array_double(cli_json *j, const char *key, const double *v, int workers)
{
    json_key(j, key);
    fputc('[', j->f);
    for (int w = 0; w < workers; w++) {
        if (w)
            fputs(", ", j->f);
        json_double_value(j->f, v[w]);
    }
    fputc(']', j->f);
}

static void json_array_u64(cli_json *j, const char *key, const uint64_t *v, int workers)
{
    json_key(j, key);
    fputc('[', j->f);
    for (int w = 0; w < workers; w++)
        fprintf(j->f, "%s%" PRIu64, w ? ", " : "", v[w]);
    fputc(']', j->f);
}

#define json_array(j, key, v, workers) \
    _Generic((v), char *: json_array_char, double *: json_array_double, uint64_t *: json_array_u64)(j, key, v, workers)

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double cli_median(const double *v, int n)
{
    if (n <= 0)
        return 0.0;
    double *s = malloc((size_t)n * sizeof *s);
    if (!s)
        return v[n - 1];
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    double m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
    return m;
}

char *cli_stats_json(const mos_frame_stats *st, const double *frame_ms, int frames, int scene_warnings)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    double lo = frames > 0 ? frame_ms[0] : 0.0, hi = lo;
    for (int i = 1; i < frames; i++) {
        lo = frame_ms[i] < lo ? frame_ms[i] : lo;
        hi = frame_ms[i] > hi ? frame_ms[i] : hi;
    }
    int workers = st->threads < 0 ? 0 : st->threads > MOS_MAX_WORKERS ? MOS_MAX_WORKERS : st->threads;

    cli_json j = { .f = f, .fields = 0 };
    fputc('{', f);
    /* Every field of mos_frame_stats, in its order (MOS_FRAME_STATS); the
     * arrays hold the configured workers only, frame_ms is the median of
     * every frame rendered. */
    mos_frame_stats s = *st;
    s.frame_ms = cli_median(frame_ms, frames);
    s.pattern[sizeof s.pattern - 1] = '\0';  /* never trust a fixed array to be terminated (names < 256) */
#define STAT_SCALAR(type, name) json_scalar(&j, #name, s.name);
#define STAT_ARRAY(type, name, count) json_array(&j, #name, s.name, workers);
    MOS_FRAME_STATS(STAT_SCALAR, STAT_ARRAY)
#undef STAT_SCALAR
#undef STAT_ARRAY
    /* Then what the CLI adds: the frame count and range, the scene's
     * warnings (scene_warning_count), and how evenly the
     * pattern spread the fragments: cv = sigma / mu of worker_fragments
     * (population sigma) and the busiest worker / mean; null when no
     * fragment was covered. */
    json_int(&j, "frames", frames);
    json_int(&j, "scene_warnings", scene_warnings);
    json_double(&j, "frame_ms_min", lo);
    json_double(&j, "frame_ms_max", hi);
    double sum = 0, mx = 0, var = 0;
    for (int w = 0; w < workers; w++) {
        sum += (double)st->worker_fragments[w];
        mx = (double)st->worker_fragments[w] > mx ? (double)st->worker_fragments[w] : mx;
    }
    const double mean = workers > 0 ? sum / workers : 0;
    for (int w = 0; w < workers; w++)
        var += ((double)st->worker_fragments[w] - mean) * ((double)st->worker_fragments[w] - mean);
    json_double(&j, "load_cv", mean > 0 ? sqrt(var / workers) / mean : NAN);
    json_double(&j, "load_max_over_mean", mean > 0 ? mx / mean : NAN);
    fputs("\n}\n", f);
    if (ferror(f)) {
        fclose(f);
        free(buf);
        return NULL;
    }
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
