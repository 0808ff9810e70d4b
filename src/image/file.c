/* file.c — all-or-nothing output files: a temporary file next to the target, renamed over it.
 * Fed by png.c (PNG output) and the CLI (stats JSON) through image.h. */
#include "image/image.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int img_file_fail(char *err, size_t err_size, const char *fmt, ...)
{
    if (err && err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int img_file_begin(img_file *f, const char *path, char *err, size_t err_size)
{
    memset(f, 0, sizeof *f);
    f->fd = -1;
    if (!path || !*path || path[strlen(path) - 1] == '/')
        return img_file_fail(err, err_size, "%s: not a file name", path ? path : "(null)");
    f->path = path;

    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return img_file_fail(err, err_size, "%s: is a directory", path);
        if (!S_ISREG(st.st_mode)) {
            /* /dev/null, /dev/stdout, a FIFO: write straight in, never
             * rename over a special file. */
            f->fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
            if (f->fd < 0)
                return img_file_fail(err, err_size, "%s: cannot open: %s", path, strerror(errno));
            f->direct = 1;
            return 0;
        }
    }

    /* A symlink keeps pointing where it did: replace what it names. */
    const char *target = path;
    struct stat lst;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        char *real = realpath(path, NULL);
        if (real && strlen(real) < sizeof f->target) {
            memcpy(f->target, real, strlen(real) + 1);
            target = f->target;
        }
        free(real);
    }
    if (target != f->target) {
        if (strlen(path) >= sizeof f->target)
            return img_file_fail(err, err_size, "%s: path too long", path);
        memcpy(f->target, path, strlen(path) + 1);
    }

    const char *slash = strrchr(f->target, '/');
    int dir_len = slash ? (int)(slash - f->target + 1) : 0;
    const char *base = slash ? slash + 1 : f->target;
    for (int attempt = 0; attempt < 100; attempt++) {
        int n = snprintf(f->temp, sizeof f->temp, "%.*s.%s.tmp-%ld-%d", dir_len, f->target, base,
                         (long)getpid(), attempt);
        if (n < 0 || (size_t)n >= sizeof f->temp)
            return img_file_fail(err, err_size, "%s: path too long", path);
        /* O_EXCL makes the name ours; 0666 lets the umask decide, as for
         * any new file. */
        f->fd = open(f->temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (f->fd >= 0)
            return 0;
        if (errno != EEXIST)
            break;
    }
    return img_file_fail(err, err_size, "%s: cannot create file: %s", path, strerror(errno));
}

void img_file_write(img_file *f, const void *data, size_t size)
{
    const uint8_t *p = data;
    while (size && !f->error && f->fd >= 0) {
        ssize_t n = write(f->fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            f->error = n < 0 ? errno : EIO;
        } else {
            p += n;
            size -= (size_t)n;
        }
    }
}

void img_file_abort(img_file *f)
{
    if (f->fd >= 0)
        close(f->fd);
    if (f->fd >= 0 && !f->direct)
        unlink(f->temp);
    f->fd = -1;
}

int img_file_commit(img_file *f, char *err, size_t err_size)
{
    if (f->fd < 0)
        return img_file_fail(err, err_size, "%s: not open", f->path ? f->path : "(null)");
    int e = f->error;
    if (close(f->fd) != 0 && !e)
        e = errno;
    f->fd = -1;
    if (!e && !f->direct && rename(f->temp, f->target) != 0)
        e = errno;
    if (e) {
        if (!f->direct)
            unlink(f->temp);
        return img_file_fail(err, err_size, "%s: write failed: %s", f->path, strerror(e));
    }
    return 0;
}

int img_write_file(const char *path, const void *data, size_t size, char *err, size_t err_size)
{
    img_file f;
    if (img_file_begin(&f, path, err, err_size) != 0)
        return -1;
    img_file_write(&f, data, size);
    return img_file_commit(&f, err, err_size);
}
