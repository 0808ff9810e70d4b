/* sandbox.c — the one door through which the scene loader opens files (scene_file_open / scene_file_read):
 * with scene_load_opts.sandbox_dir, only relative paths without '..' that resolve (symbolic links followed)
 * to regular files inside the folder; always, only regular files (opened without blocking, so a FIFO
 * cannot hang a load) under a size cap.  Fed by the parser (its paths: parse_values.c, textures:
 * parse_image.c), shaders.c (GLSL files), import.c (assimp's opens, the header pre-checks), bsp.c and pk3.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scene/scene_priv.h"

bool scene_sandbox_relative(const char *path)
{
    if (!path[0] || path[0] == '/')
        return false;
    for (const char *c = path; *c;) {
        size_t n = strcspn(c, "/");
        if (n == 2 && c[0] == '.' && c[1] == '.')
            return false;
        c += n;
        c += *c == '/';
    }
    return true;
}

mos_result scene_file_open(const char *sandbox, const char *path, uint64_t max_bytes, int *fd_out, uint64_t *size,
                           scene_file_id *id, char *err, size_t err_size)
{
    *fd_out = -1;
    char *real = NULL;
    const char *open_path = path;
    int extra = 0;
    if (sandbox) {
        /* The resolved path must lie inside the folder; it is the one opened,
         * and it holds no symbolic link to follow. */
        if (!(real = realpath(path, NULL))) {
            snprintf(err, err_size, "cannot open '%s': %s", path, strerror(errno));
            return MOS_ERR_IO;
        }
        size_t n = strlen(sandbox);
        if (strncmp(real, sandbox, n) != 0 || !(real[n] == '/' || (n && sandbox[n - 1] == '/'))) {
            snprintf(err, err_size, "path '%s' is outside the scene's sandbox", path);
            free(real);
            return MOS_ERR_PARSE;
        }
        open_path = real;
        extra = O_NOFOLLOW;
    }
    /* O_NONBLOCK: opening a FIFO or a device must not wait; fstat then says what it is. */
    int fd = open(open_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | extra);
    if (fd < 0) {
        snprintf(err, err_size, "cannot open '%s': %s", path, strerror(errno));
        free(real);
        return MOS_ERR_IO;
    }
    free(real);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, err_size, "cannot open '%s': %s", path, strerror(errno));
        close(fd);
        return MOS_ERR_IO;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, err_size, "path '%s' is not a regular file (%s)", path,
                 sandbox ? "the scene's sandbox reads only those" : "a scene reads only those");
        close(fd);
        return MOS_ERR_PARSE;
    }
    if (max_bytes && (uint64_t)st.st_size > max_bytes) {
        snprintf(err, err_size, "'%s' is %llu bytes; at most %llu are read", path, (unsigned long long)st.st_size,
                 (unsigned long long)max_bytes);
        close(fd);
        return MOS_ERR_BAD_SIZE;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    if (size)
        *size = (uint64_t)st.st_size;
    if (id)
        *id = (scene_file_id){ (uint64_t)st.st_dev, (uint64_t)st.st_ino };
    *fd_out = fd;
    return MOS_OK;
}

mos_result scene_file_read(const char *sandbox, const char *path, uint64_t max_bytes, uint8_t **data, size_t *size,
                           scene_file_id *id, char *err, size_t err_size)
{
    *data = NULL;
    *size = 0;
    int fd;
    uint64_t want;
    mos_result r = scene_file_open(sandbox, path, max_bytes, &fd, &want, id, err, err_size);
    if (r != MOS_OK)
        return r;
    if (want > SIZE_MAX - 1) {
        close(fd);
        snprintf(err, err_size, "'%s' is too large to read", path);
        return MOS_ERR_BAD_SIZE;
    }
    uint8_t *buf = malloc((size_t)want + 1);  /* + 1: a NUL after the bytes, for text parsers */
    if (!buf) {
        close(fd);
        snprintf(err, err_size, "out of memory reading '%s'", path);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    size_t got = 0;
    while (got < (size_t)want) {  /* a file that shrinks meanwhile is read to its end */
        ssize_t n = read(fd, buf + got, (size_t)want - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            snprintf(err, err_size, "cannot read '%s': %s", path, strerror(errno));
            free(buf);
            close(fd);
            return MOS_ERR_IO;
        }
        if (n == 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    buf[got] = 0;
    *data = buf;
    *size = got;
    return MOS_OK;
}

mos_result scene_sandbox_check(const char *sandbox, const char *path, char *err, size_t err_size)
{
    int fd;
    mos_result r = scene_file_open(sandbox, path, 0, &fd, NULL, NULL, err, err_size);
    if (r == MOS_OK)
        close(fd);
    return r;
}
