/* cli.h — private interface between the `mosaic` CLI's files (one subcommand or concern each).
 * Fed by mosaic.c (dispatch); feeds scene/, image/ and the public API. */
#ifndef MOSAIC_CLI_H
#define MOSAIC_CLI_H

#include <stdio.h>

#include "mosaic.h"

/* Exit statuses of every subcommand. */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_FAIL = 1,   /* library, scene or file error */
    CLI_EXIT_USAGE = 2,  /* bad arguments, unreadable/mismatched diff inputs */
};

/* Subcommands: ARGV[0] is the subcommand's name. */
int cli_render_main(int argc, char **argv);
int cli_diff_main(int argc, char **argv);
int cli_patterns_main(int argc, char **argv);
int cli_bench_main(int argc, char **argv);
int cli_shader_main(int argc, char **argv);

/* ---- cli_args.c: argument parsing ------------------------------------------
 * Errors print "mosaic: MESSAGE" and "Try 'mosaic CMD --help'." to stderr. */

/* Prints a usage error for subcommand CMD (NULL = top level; "mosaic-NAME" = that
 * program, e.g. mosaic-view); returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Walks the arguments of one subcommand. */
typedef struct cli_args {
    int argc;
    char **argv;
    int i;            /* argument under examination */
    const char *cmd;  /* subcommand, for messages */
    int only_positional;  /* seen "--" */
} cli_args;

/* Is argv[i] the flag NAME (no value)?  "--flag=x" is an error (-1). */
int cli_flag(cli_args *a, const char *name);
/* Is argv[i] -h or --help?  As cli_flag. */
int cli_help(cli_args *a);
/* Is argv[i] the first "--" (every later argument is positional)?  Then 1,
 * and the arguments after it are no longer options. */
int cli_end_of_options(cli_args *a);
/* Is argv[i] the option NAME with a value ("NAME VALUE" or "NAME=VALUE")?
 * Returns 1 and sets *VALUE (advancing past a separate value), 0 when it is
 * another argument, -1 (error printed) when the value is missing. */
int cli_option(cli_args *a, const char *name, const char **value);
/* Is argv[i] an option (starts with '-', not "-" alone, not after "--")? */
int cli_is_option(const cli_args *a);

/* Strict decimal integer in LO..HI (no sign tricks, spaces or suffixes);
 * prints "mosaic: OPT: expected ..., got 'S'" and returns -1 on error. */
int cli_parse_int(const char *cmd, const char *opt, const char *s, long lo, long hi, int *out);
/* auto | scalar | avx2 | avx512 -> mos_isa; non-zero (after a message) if unknown. */
/* A decimal number within lo..hi (0 on success; prints the usage error). */
int cli_parse_float(const char *cmd, const char *opt, const char *s, double lo, double hi, float *out);
int cli_parse_isa(const char *cmd, const char *s, mos_isa *out);
/* "WxH" with both sides in 1..MAX. */
int cli_parse_size(const char *cmd, const char *opt, const char *s, int max, int *w, int *h);

/* The sample counts libmosaic supports (mos_samples_supported over 1..64), ascending:
 * CLI_SPP_ALL every one, CLI_SPP_SHARP those with blur false, CLI_SPP_BLUR_ONLY the rest. */
typedef enum cli_spp_set { CLI_SPP_ALL, CLI_SPP_SHARP, CLI_SPP_BLUR_ONLY } cli_spp_set;
/* Into OUT[0 .. CAP): returns how many there are. */
int cli_samples(cli_spp_set set, int *out, int cap);
/* As text for messages, "1, 2, 4" with LAST (", " or " or ") before the last one; returns BUF. */
const char *cli_samples_text(cli_spp_set set, const char *last, char *buf, size_t size);

/* ---- cli_file.c ----------------------------------------------------------- */

/* Can a new file be created next to PATH (its directory exists and is
 * writable)?  0 or -1 with ERR set. */
int cli_check_writable(const char *path, char *err, size_t err_size);

/* ---- stats_json.c --------------------------------------------------------- */

/* Formats the --stats-json object for the last frame's stats ST, the
 * FRAMES per-frame times FRAME_MS (median, min, max come from them) and the
 * scene's warning count.  Returns a malloc'd NUL-terminated string (free
 * it) or NULL when out of memory. */
char *cli_stats_json(const mos_frame_stats *st, const double *frame_ms, int frames, int scene_warnings);
/* Median of N values (mean of the two middle ones when N is even); 0 when N = 0. */
double cli_median(const double *v, int n);

#endif
