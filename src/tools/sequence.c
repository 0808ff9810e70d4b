/* sequence.c — the frame-number field of a sequence's output names.
 * Fed by render_opts.c, cli_render.c and mosaic-mpi. */
#include "tools/sequence.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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

const char *seq_default_pattern(const char *scene_path, char *buf, size_t size)
{
    const char *base = strrchr(scene_path, '/');
    base = base ? base + 1 : scene_path;
    const char *dot = strrchr(base, '.');
    int n = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
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
