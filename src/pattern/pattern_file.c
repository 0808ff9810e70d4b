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

/* The file being read, and the tile as far as it has been read. */
typedef struct pfile {
    const char *path;
    char *err;
    size_t err_size;
    long workers;          /* from the workers line; -1 before it */
    long width;            /* entries per row, from the first row; -1 before it */
    long rows, rows_cap;   /* rows read, rows tile has room for (the first row: entries) */
    uint16_t *tile;        /* rows listed top first */
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

static mos_result pfile_oom(const pfile *p)
{
    snprintf(p->err, p->err_size, "out of memory reading %s", p->path);
    return MOS_ERR_OUT_OF_MEMORY;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* "workers N" at S (LINE is the whole line, for columns): N must be the context's CONTEXT_WORKERS. */
static mos_result workers_line(pfile *p, int context_workers, const char *line, const char *s, long lineno)
{
    char msg[160];
    if (strncmp(s, "workers", 7) != 0 || !is_blank(s[7])) {
        int tl = (int)strcspn(s, " \t\r\n");
        return pfile_fail(p, MOS_ERR_PARSE, lineno, (long)(s - line) + 1, "expected 'workers N' before the table", s,
                          tl);
    }
    const char *v = s + 7;
    while (is_blank(*v)) v++;
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    int tl = (int)strcspn(v, " \t\r\n");
    if (tl == 0 || end != v + tl || errno || n < 1 || n > MOS_MAX_WORKERS || *v == '+' || *v == '-') {
        snprintf(msg, sizeof msg, "expected a worker count 1..%d", MOS_MAX_WORKERS);
        return pfile_fail(p, MOS_ERR_PARSE, lineno, (long)(v - line) + 1, msg, v, tl);
    }
    const char *rest = end;
    while (*rest && (is_blank(*rest) || *rest == '\n')) rest++;
    if (*rest)
        return pfile_fail(p, MOS_ERR_PARSE, lineno, (long)(rest - line) + 1, "unexpected text after 'workers N'", rest,
                          (int)strcspn(rest, " \t\r\n"));
    if (n != context_workers) {
        snprintf(msg, sizeof msg, "table is for %ld workers, the context has %d", n, context_workers);
        return pfile_fail(p, MOS_ERR_PATTERN_WORKERS, lineno, (long)(v - line) + 1, msg, NULL, 0);
    }
    p->workers = n;
    return MOS_OK;
}

/* One row of the tile at S (LINE is the whole line, for columns), appended to p->tile. */
static mos_result tile_row(pfile *p, const char *line, const char *s, long lineno)
{
    char msg[160];
    if (p->rows >= PATTERN_FILE_MAX_TILE) {
        snprintf(msg, sizeof msg, "tile has more than %d rows", PATTERN_FILE_MAX_TILE);
        return pfile_fail(p, MOS_ERR_PARSE, lineno, 1, msg, NULL, 0);
    }
    long count = 0;
    for (const char *q = s; *q;) {
        while (*q && (is_blank(*q) || *q == '\n')) q++;
        if (!*q) break;
        int tl = (int)strcspn(q, " \t\r\n");
        char *end;
        errno = 0;
        long v = strtol(q, &end, 10);
        if (end != q + tl || errno || v < 0 || v >= p->workers || *q == '+' || *q == '-') {
            snprintf(msg, sizeof msg, "expected a worker index 0..%ld", p->workers - 1);
            return pfile_fail(p, MOS_ERR_PARSE, lineno, (long)(q - line) + 1, msg, q, tl);
        }
        if (p->width >= 0 && count >= p->width) {
            snprintf(msg, sizeof msg, "row has more entries than the first row (%ld)", p->width);
            return pfile_fail(p, MOS_ERR_PARSE, lineno, (long)(q - line) + 1, msg, NULL, 0);
        }
        if (count >= PATTERN_FILE_MAX_TILE) {
            snprintf(msg, sizeof msg, "row has more than %d entries", PATTERN_FILE_MAX_TILE);
            return pfile_fail(p, MOS_ERR_PARSE, lineno, (long)(q - line) + 1, msg, NULL, 0);
        }
        if (p->rows == 0 && count >= p->rows_cap) {  /* first row: grow the staging area */
            long nc = p->rows_cap ? p->rows_cap * 2 : 64;
            uint16_t *nt = realloc(p->tile, (size_t)nc * sizeof *p->tile);
            if (!nt) return pfile_oom(p);
            p->tile = nt, p->rows_cap = nc;
        }
        p->tile[(p->width < 0 ? 0 : p->rows * p->width) + count] = (uint16_t)v;
        count++;
        q += tl;
    }
    if (p->width < 0) {
        p->width = count;
        uint16_t *nt = realloc(p->tile, (size_t)p->width * 16 * sizeof *p->tile);  /* room for 16 rows */
        if (!nt) return pfile_oom(p);
        p->tile = nt, p->rows_cap = 16;
    } else if (count != p->width) {
        snprintf(msg, sizeof msg, "row has %ld entries, the first row has %ld", count, p->width);
        return pfile_fail(p, MOS_ERR_PARSE, lineno, (long)strcspn(line, "\r\n") + 1, msg, NULL, 0);
    }
    p->rows++;
    if (p->rows >= p->rows_cap) {  /* room for the next row */
        uint16_t *nt = realloc(p->tile, (size_t)p->width * (size_t)p->rows_cap * 2 * sizeof *p->tile);
        if (!nt) return pfile_oom(p);
        p->tile = nt, p->rows_cap *= 2;
    }
    return MOS_OK;
}

/* The lines of F: the workers line, then the rows of the tile; *LINES: how many were read. */
static mos_result read_lines(pfile *p, FILE *f, int context_workers, long *lines)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    mos_result r = MOS_OK;
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
        if ((size_t)len != strlen(line)) {
            r = pfile_fail(p, MOS_ERR_PARSE, lineno, (long)strlen(line) + 1, "NUL byte in a text file", NULL, 0);
            break;
        }
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        const char *s = line;
        while (*s && (is_blank(*s) || *s == '\n')) s++;
        if (!*s) continue;
        r = p->workers < 0 ? workers_line(p, context_workers, line, s, lineno) : tile_row(p, line, s, lineno);
        if (r != MOS_OK)
            break;
    }
    free(line);
    *lines = lineno;
    if (r == MOS_OK && (ferror(f) || !feof(f))) {
        snprintf(p->err, p->err_size, "%s:%ld:1: cannot read the line: %s", p->path, lineno + 1,
                 strerror(read_errno ? read_errno : EIO));
        r = read_errno == ENOMEM ? MOS_ERR_OUT_OF_MEMORY : MOS_ERR_IO;
    }
    return r;
}

/* T from the tile read (errors point past the file's LINES lines): every
 * worker owns some bin; bin (x, y) gets tile[x mod W][y mod H]. */
static mos_result fill_table(const pfile *p, pattern_table *t, long lines)
{
    if (p->workers < 0)
        return pfile_fail(p, MOS_ERR_PARSE, lines + 1, 1, "expected 'workers N' (the file is empty)", NULL, 0);
    if (p->rows == 0)
        return pfile_fail(p, MOS_ERR_PARSE, lines + 1, 1, "expected the rows of the tile after 'workers N'", NULL, 0);
    uint8_t seen[MOS_MAX_WORKERS] = { 0 };
    for (long i = 0; i < p->rows * p->width; i++) seen[p->tile[i]] = 1;
    for (long w = 0; w < p->workers; w++) {
        if (!seen[w]) {
            char msg[160];
            snprintf(msg, sizeof msg, "worker %ld owns no bin of the %ldx%ld tile", w, p->width, p->rows);
            return pfile_fail(p, MOS_ERR_PARSE, lines + 1, 1, msg, NULL, 0);
        }
    }
    for (int by = 0; by < t->bins_y; by++) {
        const uint16_t *row = p->tile + (p->rows - 1 - by % p->rows) * p->width;
        for (int bx = 0; bx < t->bins_x; bx++)
            t->owner[(size_t)by * (size_t)t->bins_x + (size_t)bx] = row[bx % p->width];
    }
    return MOS_OK;
}

mos_result pattern_file_load(pattern_table *t, const char *path, char *err, size_t err_size)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, err_size, "%s: cannot open bin pattern table: %s", path, strerror(errno));
        return MOS_ERR_IO;
    }
    pfile p = { .path = path, .err = err, .err_size = err_size, .workers = -1, .width = -1 };
    long lines = 0;
    mos_result r = read_lines(&p, f, t->workers, &lines);
    if (r == MOS_OK)
        r = fill_table(&p, t, lines);
    free(p.tile);
    fclose(f);
    return r;
}
