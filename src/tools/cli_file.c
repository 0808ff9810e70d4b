/* cli_file.c — early checks that the CLI's output files can be created, before a long render.
 * Fed by cli_render.c; the files themselves are written through image/ (img_file). */
#include "tools/cli.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directory part of PATH ("." when it has none) into DIR. */
static int cli_dir_of(const char *path, char *dir, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return snprintf(dir, size, ".") < (int)size ? 0 : -1;
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    if (n >= size)
        return -1;
    memcpy(dir, path, n);
    dir[n] = '\0';
    return 0;
}

int cli_check_writable(const char *path, char *err, size_t err_size)
{
    char dir[PATH_MAX];
    struct stat st;
    if (!*path || path[strlen(path) - 1] == '/') {
        snprintf(err, err_size, "%s: not a file name", path);
        return -1;
    }
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, err_size, "%s: is a directory", path);
            return -1;
        }
        if (!S_ISREG(st.st_mode)) {  /* /dev/null and friends: written in place */
            if (access(path, W_OK) == 0)
                return 0;
            snprintf(err, err_size, "%s: cannot write: %s", path, strerror(errno));
            return -1;
        }
    }
    if (cli_dir_of(path, dir, sizeof dir) != 0) {
        snprintf(err, err_size, "%s: path too long", path);
        return -1;
    }
    if (stat(dir, &st) != 0) {
        snprintf(err, err_size, "%s: cannot write: directory '%s': %s", path, dir,
                 strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, err_size, "%s: cannot write: '%s' is not a directory", path, dir);
        return -1;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        snprintf(err, err_size, "%s: cannot write: directory '%s': %s", path, dir,
                 strerror(errno));
        return -1;
    }
    return 0;
}
