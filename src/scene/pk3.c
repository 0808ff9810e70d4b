/* pk3.c — the .pk3 archives (zip, through minizip) of a Quake 3 / OpenArena game folder, searched as
 * the game searches them: an entry is taken from the last archive in name order that holds it (pak4
 * overrides pak1), names compared without case.  Fed by parse_bsp.c with a bsp map's folder; reads the
 * images its materials name and lists the shader scripts (q3shader.c). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unzip.h>

#include "scene/scene_priv.h"

#define PK3_MAX 64  /* archives per folder */

struct scene_pk3_set {
    unzFile archives[PK3_MAX];
    int count;
};

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool is_pk3(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && !strcasecmp(name + n - 4, ".pk3");
}

mos_result scene_pk3_open(const char *folder, const char *sandbox, scene_pk3_set **out)
{
    *out = NULL;
    scene_pk3_set *s = calloc(1, sizeof *s);
    char **names = NULL;
    size_t n = 0, cap = 0;
    bool oom = !s;
    DIR *d = oom ? NULL : opendir(folder[0] ? folder : ".");
    if (d) {
        for (struct dirent *e; !oom && (e = readdir(d));) {
            if (!is_pk3(e->d_name))
                continue;
            if (n == cap) {
                char **g = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof *names);
                if (!g) {
                    oom = true;
                    break;
                }
                names = g;
            }
            if (!(names[n] = strdup(e->d_name)))
                oom = true;
            else
                n++;
        }
        closedir(d);
    }
    if (n)
        qsort(names, n, sizeof *names, by_name);
    /* The last PK3_MAX in name order: those that win. */
    for (size_t i = n > PK3_MAX ? n - PK3_MAX : 0; !oom && i < n; i++) {
        char path[4096], msg[8];
        snprintf(path, sizeof path, "%s%s%s", folder, folder[0] ? "/" : "", names[i]);
        if (scene_sandbox_check(sandbox, path, msg, sizeof msg) != MOS_OK)  /* in it, a regular file */
            continue;
        unzFile uf = unzOpen64(path);
        if (uf)
            s->archives[s->count++] = uf;
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    if (oom) {
        scene_pk3_close(s);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    *out = s;
    return MOS_OK;
}

void scene_pk3_close(scene_pk3_set *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->count; i++)
        unzClose(s->archives[i]);
    free(s);
}

int scene_pk3_count(const scene_pk3_set *s) { return s ? s->count : 0; }

mos_result scene_zip_inflate(void *archive, size_t want, uint8_t **data, const char **why)
{
    unzFile uf = archive;
    *data = NULL;
    if (unzOpenCurrentFile(uf) != UNZ_OK) {
        *why = "cannot open the archive entry (unsupported compression or corrupt)";
        return MOS_ERR_PARSE;
    }
    size_t got = 0;
    uint8_t *buf = malloc(want ? want : 1);
    int n = 1;
    while (buf && got < want && (n = unzReadCurrentFile(uf, buf + got, (unsigned)(want - got))) > 0)
        got += (size_t)n;
    const int close_rc = unzCloseCurrentFile(uf);
    if (!buf) {
        *why = "out of memory";
        return MOS_ERR_OUT_OF_MEMORY;
    }
    if (n < 0 || got != want || close_rc != UNZ_OK) {
        free(buf);
        *why = close_rc == UNZ_CRCERROR ? "corrupt archive entry (CRC mismatch)"
                                        : "corrupt archive entry (decompression failed)";
        return MOS_ERR_PARSE;
    }
    *data = buf;
    return MOS_OK;
}

mos_result scene_pk3_read(scene_pk3_set *s, const char *name, size_t max_bytes, uint8_t **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    for (int i = s ? s->count - 1 : -1; i >= 0; i--) {
        unzFile uf = s->archives[i];
        unz_file_info64 info;
        if (unzLocateFile(uf, name, 2 /* case-insensitive */) != UNZ_OK ||
            unzGetCurrentFileInfo64(uf, &info, NULL, 0, NULL, 0, NULL, 0) != UNZ_OK)
            continue;
        if (info.uncompressed_size > max_bytes)
            return MOS_ERR_BAD_SIZE;
        const char *why;
        mos_result r = scene_zip_inflate(uf, (size_t)info.uncompressed_size, data, &why);
        if (r == MOS_OK)
            *size = (size_t)info.uncompressed_size;
        return r;
    }
    return MOS_ERR_IO;
}

static int by_name_nocase(const void *a, const void *b) { return strcasecmp(*(char *const *)a, *(char *const *)b); }

int scene_pk3_list(scene_pk3_set *s, const char *prefix, const char *suffix, int max, char ***names)
{
    char **out = NULL;
    int n = 0, cap = 0;
    const size_t pl = strlen(prefix), sl = strlen(suffix);
    for (int i = 0; s && i < s->count; i++) {
        unzFile uf = s->archives[i];
        for (int r = unzGoToFirstFile(uf); r == UNZ_OK && n < max; r = unzGoToNextFile(uf)) {
            char name[256];
            if (unzGetCurrentFileInfo64(uf, NULL, name, sizeof name - 1, NULL, 0, NULL, 0) != UNZ_OK)
                break;
            name[sizeof name - 1] = '\0';  /* minizip leaves a name that fills the buffer unterminated */
            const size_t l = strlen(name);
            if (l < pl + sl || strncasecmp(name, prefix, pl) || strcasecmp(name + l - sl, suffix))
                continue;
            bool seen = false;
            for (int k = 0; k < n && !seen; k++)
                seen = !strcasecmp(out[k], name);
            if (seen)
                continue;
            if (n == cap) {
                char **g = realloc(out, (size_t)(cap = cap ? 2 * cap : 64) * sizeof *out);
                if (!g)
                    goto oom;
                out = g;
            }
            if (!(out[n] = strdup(name)))
                goto oom;
            n++;
        }
    }
    if (n)
        qsort(out, (size_t)n, sizeof *out, by_name_nocase);
    *names = out;
    return n;
oom:
    for (int k = 0; k < n; k++)
        free(out[k]);
    free(out);
    *names = NULL;
    return -1;
}
