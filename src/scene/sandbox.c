/* sandbox.c — the files a scene loaded with scene_load_opts.sandbox_dir may read: relative paths without
 * '..' that resolve to regular files inside the folder.  Fed by parse.c (its paths) and import.c (assimp's opens). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

mos_result scene_sandbox_check(const char *sandbox, const char *path, char *err, size_t err_size)
{
    char *real = realpath(path, NULL);
    if (!real) {
        snprintf(err, err_size, "cannot open '%s': %s", path, strerror(errno));
        return MOS_ERR_IO;
    }
    size_t n = strlen(sandbox);
    bool inside = !strncmp(real, sandbox, n) && (real[n] == '/' || (n && sandbox[n - 1] == '/'));
    struct stat st;
    mos_result r = MOS_OK;
    if (!inside) {
        snprintf(err, err_size, "path '%s' is outside the scene's sandbox", path);
        r = MOS_ERR_PARSE;
    } else if (stat(real, &st) != 0) {
        snprintf(err, err_size, "cannot open '%s': %s", path, strerror(errno));
        r = MOS_ERR_IO;
    } else if (!S_ISREG(st.st_mode)) {
        snprintf(err, err_size, "path '%s' is not a regular file (the scene's sandbox reads only those)", path);
        r = MOS_ERR_PARSE;
    }
    free(real);
    return r;
}
