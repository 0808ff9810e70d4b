/* cli_args.c — strict parsing of the CLI's options and numbers, and usage error messages.
 * Fed by the subcommands (cli_render.c, cli_diff.c, cli_patterns.c, bench/) and the viewer. */
#include "tools/cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const int own_program = cmd && strncmp(cmd, "mosaic-", 7) == 0;  /* mosaic-view */
    fprintf(stderr, "%s: ", own_program ? cmd : "mosaic");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    if (own_program)
        fprintf(stderr, "Try '%s --help'.\n", cmd);
    else if (cmd)
        fprintf(stderr, "Try 'mosaic %s --help'.\n", cmd);
    else
        fputs("Try 'mosaic --help'.\n", stderr);
    return CLI_EXIT_USAGE;
}

int cli_is_option(const cli_args *a)
{
    const char *s = a->argv[a->i];
    return !a->only_positional && s[0] == '-' && s[1] != '\0';
}

int cli_help(cli_args *a)
{
    int r = cli_flag(a, "--help");
    return r ? r : cli_flag(a, "-h");
}

int cli_end_of_options(cli_args *a)
{
    if (a->only_positional || strcmp(a->argv[a->i], "--") != 0)
        return 0;
    a->only_positional = 1;
    return 1;
}

int cli_flag(cli_args *a, const char *name)
{
    if (a->only_positional)
        return 0;
    const char *s = a->argv[a->i];
    size_t n = strlen(name);
    if (strncmp(s, name, n) != 0)
        return 0;
    if (s[n] == '\0')
        return 1;
    if (s[n] == '=') {
        cli_usage_error(a->cmd, "%s: takes no value, got '%s'", name, s + n + 1);
        return -1;
    }
    return 0;
}

int cli_option(cli_args *a, const char *name, const char **value)
{
    if (a->only_positional)
        return 0;
    const char *s = a->argv[a->i];
    size_t n = strlen(name);
    if (strncmp(s, name, n) != 0)
        return 0;
    if (s[n] == '=' && name[1] == '-') {  /* "--name=value" (long options only) */
        *value = s + n + 1;
        return 1;
    }
    if (s[n] != '\0')
        return 0;
    if (a->i + 1 >= a->argc) {
        cli_usage_error(a->cmd, "%s: missing value", name);
        return -1;
    }
    *value = a->argv[++a->i];
    return 1;
}

/* Decimal digits only, optionally one leading '-' when LO < 0. */
static int cli_strict_long(const char *s, long lo, long *out)
{
    if (!s || !*s || isspace((unsigned char)s[0]) || s[0] == '+')
        return -1;
    if (s[0] == '-' && lo >= 0)
        return -1;
    errno = 0;
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (errno == ERANGE || end == s || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

int cli_parse_int(const char *cmd, const char *opt, const char *s, long lo, long hi, int *out)
{
    long v;
    if (cli_strict_long(s, lo, &v) != 0 || v < lo || v > hi) {
        cli_usage_error(cmd, "%s: expected an integer in %ld..%ld, got '%s'", opt, lo, hi, s);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int cli_parse_float(const char *cmd, const char *opt, const char *s, double lo, double hi, float *out)
{
    char *end = NULL;
    errno = 0;
    double v = s && *s ? strtod(s, &end) : 0.0;
    if (!s || !*s || errno == ERANGE || *end != '\0' || !(v >= lo && v <= hi)) {
        cli_usage_error(cmd, "%s: expected a number in %g..%g, got '%s'", opt, lo, hi, s ? s : "");
        return -1;
    }
    *out = (float)v;
    return 0;
}

int cli_parse_size(const char *cmd, const char *opt, const char *s, int max, int *w, int *h)
{
    const char *x = strpbrk(s, "xX");
    char left[32];
    long lw = 0, lh = 0;
    size_t n = x ? (size_t)(x - s) : 0;
    if (!x || n == 0 || n >= sizeof left) {
        cli_usage_error(cmd, "%s: expected WxH, got '%s'", opt, s);
        return -1;
    }
    memcpy(left, s, n);
    left[n] = '\0';
    if (cli_strict_long(left, 1, &lw) != 0 || cli_strict_long(x + 1, 1, &lh) != 0) {
        cli_usage_error(cmd, "%s: expected WxH, got '%s'", opt, s);
        return -1;
    }
    if (lw < 1 || lw > max || lh < 1 || lh > max) {
        cli_usage_error(cmd, "%s: width and height must be in 1..%d, got '%s'", opt, max, s);
        return -1;
    }
    *w = (int)lw;
    *h = (int)lh;
    return 0;
}

int cli_parse_isa(const char *cmd, const char *s, mos_isa *out)
{
    static const struct { const char *name; mos_isa isa; } names[] = {
        {"auto", MOS_ISA_AUTO}, {"scalar", MOS_ISA_SCALAR}, {"avx2", MOS_ISA_AVX2}, {"avx512", MOS_ISA_AVX512}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(s, names[i].name) == 0) {
            *out = names[i].isa;
            return 0;
        }
    }
    cli_usage_error(cmd, "--isa: expected auto, scalar, avx2 or avx512, got '%s'", s);
    return 1;
}

int cli_samples(cli_spp_set set, int *out, int cap)
{
    int n = 0;
    for (int spp = 1; spp <= 64; spp++) {
        const bool any = mos_samples_supported(spp, true), sharp = mos_samples_supported(spp, false);
        if (set == CLI_SPP_ALL ? any : set == CLI_SPP_SHARP ? sharp : any && !sharp) {
            if (n < cap)
                out[n] = spp;
            n++;
        }
    }
    return n;
}

const char *cli_samples_text(cli_spp_set set, const char *last, char *buf, size_t size)
{
    int spp[64];
    const int n = cli_samples(set, spp, 64);
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len < size; i++) {
        snprintf(buf + len, size - len, "%s%d", i == 0 ? "" : i == n - 1 ? last : ", ", spp[i]);
        len += strlen(buf + len);
    }
    return buf;
}
