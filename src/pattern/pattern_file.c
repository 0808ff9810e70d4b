/* pattern_file.c — custom bin -> worker tables read from a text file (pattern name "file:PATH").
 * Fed by pattern_build; errors are "PATH:line:col: message".
 *
 * FORMAT (one tile that repeats over the screen):
 *
 *     # a 4-worker table; '#' starts a comment, blank lines are ignored
 *     workers 4
 *     0 1 2 3
 *     2 3 0 1
 *
 * - The first non-comment line is "workers N": the worker count the table is
 *   for; it must equal the context's thread count.
 * - Then one line per bin row of the tile, TOP row first (the file looks like
 *   the screen): the last row listed is bin row 0, the bottom one.  Each entry
 *   is a worker index 0..N-1, separated by spaces or tabs; every row has the
 *   same number of entries (the tile width).  Tile at most 4096 x 4096.
 * - Every worker must own at least one bin of the tile.
 * - Bin (x, y) of the screen gets tile[x mod W][y mod H], (0, 0) lower-left. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern/pattern.h"
#include "util/alloc.h"

#define PATTERN_FILE_MAX_TILE 4096

typedef struct pfile {
    const char *path;
    char *err;
    size_t err_size;
} pfile;

static mos_result pfile_fail(const pfile *p, mos_result r, long line, long col, const char *msg, const char *tok,
                             int toklen)
{
    if (tok)
        snprintf(p->err, p->err_size, "%s:%ld:%ld: %s, got '%.*s'", p->path, line, col, msg, toklen, tok);
    else
        snprintf(p->err, p->err_size, "%s:%ld:%ld: %s", p->path, line, col, msg);
    return r;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

mos_result pattern_file_load(pattern_table *t, const char *path, char *err, size_t err_size)
{
    pfile p = { path, err, err_size };
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, err_size, "%s: cannot open bin pattern table: %s", path, strerror(errno));
        return MOS_ERR_IO;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0, workers = -1, width = -1, rows = 0, rows_cap = 0, last_line = 0;
    uint16_t *tile = NULL;  /* rows listed top first */
    mos_result r = MOS_OK;
    char msg[160];
    int read_errno = 0;
    for (;;) {
        /* getline fails without setting the stream's error flag when it
         * cannot allocate the line: only end of file ends the file. */
        errno = 0;
        if ((len = getline(&line, &cap, f)) < 0) {
            read_errno = errno;
            break;
        }
        lineno++;
        last_line = lineno;
        if ((size_t)len != strlen(line)) {
            r = pfile_fail(&p, MOS_ERR_PARSE, lineno, (long)strlen(line) + 1, "NUL byte in a text file", NULL, 0);
            goto done;
        }
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *s = line;
        while (*s && (is_blank(*s) || *s == '\n')) s++;
        if (!*s) continue;
        if (workers < 0) {
            if (strncmp(s, "workers", 7) != 0 || !is_blank(s[7])) {
                int tl = (int)strcspn(s, " \t\r\n");
                r = pfile_fail(&p, MOS_ERR_PARSE, lineno, (long)(s - line) + 1,
                               "expected 'workers N' before the table", s, tl);
                goto done;
            }
            char *v = s + 7;
            while (is_blank(*v)) v++;
            char *end;
            errno = 0;
            long n = strtol(v, &end, 10);
            int tl = (int)strcspn(v, " \t\r\n");
            if (tl == 0 || end != v + tl || errno || n < 1 || n > MOS_MAX_WORKERS || *v == '+' || *v == '-') {
                snprintf(msg, sizeof msg, "expected a worker count 1..%d", MOS_MAX_WORKERS);
                r = pfile_fail(&p, MOS_ERR_PARSE, lineno, (long)(v - line) + 1, msg, v, tl);
                goto done;
            }
            char *rest = end;
            while (*rest && (is_blank(*rest) || *rest == '\n')) rest++;
            if (*rest) {
                r = pfile_fail(&p, MOS_ERR_PARSE, lineno, (long)(rest - line) + 1, "unexpected text after 'workers N'",
                               rest, (int)strcspn(rest, " \t\r\n"));
                goto done;
            }
            if (n != t->workers) {
                snprintf(msg, sizeof msg, "table is for %ld workers, the context has %d", n, t->workers);
                r = pfile_fail(&p, MOS_ERR_PATTERN_WORKERS, lineno, (long)(v - line) + 1, msg, NULL, 0);
                goto done;
            }
            workers = n;
            continue;
        }
        /* a row of the tile */
        if (rows >= PATTERN_FILE_MAX_TILE) {
            snprintf(msg, sizeof msg, "tile has more than %d rows", PATTERN_FILE_MAX_TILE);
            r = pfile_fail(&p, MOS_ERR_PARSE, lineno, 1, msg, NULL, 0);
            goto done;
        }
        long count = 0;
        for (char *q = s; *q;) {
            while (*q && (is_blank(*q) || *q == '\n')) q++;
            if (!*q) break;
            int tl = (int)strcspn(q, " \t\r\n");
            char *end;
            errno = 0;
            long v = strtol(q, &end, 10);
            if (end != q + tl || errno || v < 0 || v >= workers || *q == '+' || *q == '-') {
                snprintf(msg, sizeof msg, "expected a worker index 0..%ld", workers - 1);
                r = pfile_fail(&p, MOS_ERR_PARSE, lineno, (long)(q - line) + 1, msg, q, tl);
                goto done;
            }
            if (width >= 0 && count >= width) {
                snprintf(msg, sizeof msg, "row has more entries than the first row (%ld)", width);
                r = pfile_fail(&p, MOS_ERR_PARSE, lineno, (long)(q - line) + 1, msg, NULL, 0);
                goto done;
            }
            if (count >= PATTERN_FILE_MAX_TILE) {
                snprintf(msg, sizeof msg, "row has more than %d entries", PATTERN_FILE_MAX_TILE);
                r = pfile_fail(&p, MOS_ERR_PARSE, lineno, (long)(q - line) + 1, msg, NULL, 0);
                goto done;
            }
            if (rows == 0 && count >= rows_cap) {  /* first row: grow the staging area */
                long nc = rows_cap ? rows_cap * 2 : 64;
                uint16_t *nt = realloc(tile, (size_t)nc * sizeof *tile);
                if (!nt) { r = MOS_ERR_OUT_OF_MEMORY; snprintf(err, err_size, "out of memory reading %s", path); goto done; }
                tile = nt, rows_cap = nc;
            }
            tile[(width < 0 ? 0 : rows * width) + count] = (uint16_t)v;
            count++;
            q += tl;
        }
        if (width < 0) {
            width = count;
            uint16_t *nt = realloc(tile, (size_t)width * 16 * sizeof *tile);  /* room for 16 rows */
            if (!nt) { r = MOS_ERR_OUT_OF_MEMORY; snprintf(err, err_size, "out of memory reading %s", path); goto done; }
            tile = nt, rows_cap = 16;
        } else if (count != width) {
            snprintf(msg, sizeof msg, "row has %ld entries, the first row has %ld", count, width);
            r = pfile_fail(&p, MOS_ERR_PARSE, lineno, (long)strcspn(line, "\r\n") + 1, msg, NULL, 0);
            goto done;
        }
        rows++;
        if (rows >= rows_cap) {  /* room for the next row */
            uint16_t *nt = realloc(tile, (size_t)width * (size_t)rows_cap * 2 * sizeof *tile);
            if (!nt) { r = MOS_ERR_OUT_OF_MEMORY; snprintf(err, err_size, "out of memory reading %s", path); goto done; }
            tile = nt, rows_cap *= 2;
        }
    }
    if (ferror(f) || !feof(f)) {
        snprintf(err, err_size, "%s:%ld:1: cannot read the line: %s", path, lineno + 1,
                 strerror(read_errno ? read_errno : EIO));
        r = read_errno == ENOMEM ? MOS_ERR_OUT_OF_MEMORY : MOS_ERR_IO;
        goto done;
    }
    if (workers < 0) {
        r = pfile_fail(&p, MOS_ERR_PARSE, last_line + 1, 1, "expected 'workers N' (the file is empty)", NULL, 0);
        goto done;
    }
    if (rows == 0) {
        r = pfile_fail(&p, MOS_ERR_PARSE, last_line + 1, 1, "expected the rows of the tile after 'workers N'", NULL, 0);
        goto done;
    }
    {
        /* every worker owns some bin */
        uint8_t seen[MOS_MAX_WORKERS] = { 0 };
        for (long i = 0; i < rows * width; i++) seen[tile[i]] = 1;
        for (long w = 0; w < workers; w++) {
            if (!seen[w]) {
                snprintf(msg, sizeof msg, "worker %ld owns no bin of the %ldx%ld tile", w, width, rows);
                r = pfile_fail(&p, MOS_ERR_PARSE, last_line + 1, 1, msg, NULL, 0);
                goto done;
            }
        }
    }
    for (int by = 0; by < t->bins_y; by++) {
        const uint16_t *row = tile + (rows - 1 - by % rows) * width;
        for (int bx = 0; bx < t->bins_x; bx++)
            t->owner[(size_t)by * (size_t)t->bins_x + (size_t)bx] = row[bx % width];
    }
done:
    free(tile);
    free(line);
    fclose(f);
    return r;
}
