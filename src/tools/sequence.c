/* sequence.c — the frame-number field of a sequence's output names, and the
 * frame writer that overlaps a PNG's deflate with the next frame's render.
 * Fed by render_opts.c, cli_render.c and mosaic-mpi; writes through image/. */
#include "tools/sequence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "image/image.h"

/* The field at P ("%d", "%5d", "%04d"): its length, or 0 when P is not one. */
static size_t field_length(const char *p)
{
    size_t n = 1;  /* the '%' */
    if (p[n] == '0') n++;
    size_t digits = 0;
    while (p[n] >= '0' && p[n] <= '9' && digits < 2) n++, digits++;
    return p[n] == 'd' && digits < 2 ? n + 1 : 0;
}

int seq_pattern_field(const char *pattern, char *err, size_t err_size)
{
    int fields = 0;
    for (const char *p = pattern; *p; p++) {
        if (*p != '%') continue;
        if (p[1] == '%') {
            p++;
            continue;
        }
        size_t n = field_length(p);
        if (!n) {
            snprintf(err, err_size, "'%s': a %% other than the frame number (%%d, %%04d) or %%%%", pattern);
            return -1;
        }
        if (++fields > 1) {
            snprintf(err, err_size, "'%s': more than one frame-number field", pattern);
            return -1;
        }
        p += n - 1;
    }
    return fields ? 0 : 1;
}

const char *seq_frame_path(const char *pattern, int frame, char *buf, size_t size)
{
    size_t o = 0;
    for (const char *p = pattern; *p; p++) {
        char piece[32];
        size_t len = 1, n;
        const char *from = p;
        if (*p == '%' && p[1] == '%') {
            p++;  /* one '%' */
        } else if (*p == '%' && (n = field_length(p)) != 0) {
            char spec[16];
            snprintf(spec, sizeof spec, "%.*s", (int)n, p);
            int w = snprintf(piece, sizeof piece, spec, frame);
            if (w < 0 || (size_t)w >= sizeof piece) return NULL;
            from = piece;
            len = (size_t)w;
            p += n - 1;
        }
        if (o + len >= size) return NULL;
        memcpy(buf + o, from, len);
        o += len;
    }
    buf[o] = '\0';
    return buf;
}

const char *seq_scene_base(const char *scene_path, int *len)
{
    const char *base = strrchr(scene_path, '/');
    base = base ? base + 1 : scene_path;
    const char *dot = strrchr(base, '.');
    *len = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
    return base;
}

const char *seq_default_pattern(const char *scene_path, char *buf, size_t size)
{
    int n;
    const char *base = seq_scene_base(scene_path, &n);
    /* A '%' of the scene's name must not become a field. */
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < size; i++) {
        if (base[i] == '%') buf[o++] = '%';
        buf[o++] = base[i];
    }
    snprintf(buf + o, size - o, "%s_%%04d.png", n ? "" : "frame");
    return buf;
}

bool seq_frame_done(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

static void *write_frame(void *arg)
{
    seq_writer *w = arg;
    w->failed = img_write_png(w->path, w->width, w->height, w->pixels, (size_t)w->width * 4, w->err,
                              sizeof w->err) != MOS_OK ||
                (w->json && img_write_file(w->stats, w->json, strlen(w->json), w->err, sizeof w->err) != 0);
    free(w->json);
    w->json = NULL;
    return NULL;
}

/* Starts a write, on a thread of its own when THREAD (and one can be made). */
static void write_begin(seq_writer *w, const char *path, const char *stats, const uint8_t *pixels, int width,
                        int height, char *json, bool thread)
{
    snprintf(w->path, sizeof w->path, "%s", path);
    snprintf(w->stats, sizeof w->stats, "%s", stats ? stats : "");
    w->pixels = pixels;
    w->width = width;
    w->height = height;
    w->json = stats ? json : (free(json), NULL);
    w->failed = 0;
    w->err[0] = '\0';
    w->busy = true;
    w->threaded = thread && pthread_create(&w->thread, NULL, write_frame, w) == 0;
    if (!w->threaded) write_frame(w);
}

int seq_write_finish(seq_writer *w)
{
    if (!w->busy) return 0;
    if (w->threaded) pthread_join(w->thread, NULL);
    w->busy = false;
    return w->failed ? -1 : 0;
}

/* The ring's buffers: one per writer and one rendering, or one alone. */
static unsigned ring_buffers(const seq_ring *r) { return r->buf[1] ? (unsigned)r->writers + 1 : 1; }

void seq_ring_init(seq_ring *r, uint8_t *first, int width, int height, int frames)
{
    memset(r, 0, sizeof *r);
    const size_t bytes = (size_t)width * (size_t)height * 4;
    r->buf[0] = first;
    int extra = 0;
    while (extra < SEQ_WRITERS_MAX && extra + 1 < frames && bytes * (size_t)(extra + 2) <= ((size_t)256 << 20) &&
           (r->buf[extra + 1] = malloc(bytes)) != NULL)
        extra++;
    r->writers = extra ? extra : 1;
}

uint8_t *seq_ring_pixels(const seq_ring *r) { return r->buf[r->next % ring_buffers(r)]; }

seq_writer *seq_ring_writer(seq_ring *r) { return &r->w[r->next % (unsigned)r->writers]; }

void seq_ring_start(seq_ring *r, const char *path, const char *stats, int width, int height, char *json)
{
    /* With one buffer the next frame renders into this one: written here, at once. */
    write_begin(seq_ring_writer(r), path, stats, seq_ring_pixels(r), width, height, json, ring_buffers(r) > 1);
    r->next++;
}

seq_writer *seq_ring_oldest(seq_ring *r)
{
    const unsigned n = (unsigned)r->writers, from = r->next > n ? r->next - n : 0;
    for (unsigned i = from; i < r->next; i++)
        if (r->w[i % n].busy) return &r->w[i % n];
    return NULL;
}

void seq_ring_free(seq_ring *r)
{
    for (int i = 1; i <= SEQ_WRITERS_MAX; i++) free(r->buf[i]);
    memset(r->buf, 0, sizeof r->buf);
}
