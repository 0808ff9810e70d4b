/* cli_patterns.c — `mosaic patterns --list`: the registered bin -> worker patterns.
 * Fed by mosaic.c; reads the registry through mos_pattern_names / mos_pattern_describe. */
#include "tools/cli.h"

#include <string.h>

static const char patterns_usage[] =
    "usage: mosaic patterns [--list]\n"
    "\n"
    "Lists the registered bin -> worker patterns, one per line: NAME  DESCRIPTION.\n"
    "Any of them (or file:PATH, a table in a text file) can be passed to\n"
    "'mosaic render --pattern'.\n"
    "\n"
    "  --list       list the patterns (the default)\n"
    "  -h, --help   show this help\n";

int cli_patterns_main(int argc, char **argv)
{
    cli_args a = { .argc = argc, .argv = argv, .cmd = "patterns" };
    int r;
    for (a.i = 1; a.i < argc; a.i++) {
        if ((r = cli_flag(&a, "--help")) != 0 || (r = cli_flag(&a, "-h")) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
            fputs(patterns_usage, stdout);
            return CLI_EXIT_OK;
        } else if ((r = cli_flag(&a, "--list")) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
        } else if (cli_is_option(&a)) {
            return cli_usage_error(a.cmd, "unknown option '%s'", argv[a.i]);
        } else {
            return cli_usage_error(a.cmd, "unexpected argument '%s'", argv[a.i]);
        }
    }
    const char *const *names = mos_pattern_names();
    if (!names || !*names) {
        fputs("mosaic: patterns: no patterns are registered\n", stderr);
        return CLI_EXIT_FAIL;
    }
    int width = 0;
    for (const char *const *n = names; *n; n++)
        width = (int)strlen(*n) > width ? (int)strlen(*n) : width;
    for (const char *const *n = names; *n; n++) {
        const char *d = mos_pattern_describe(*n);
        printf("%-*s  %s\n", width, *n, d ? d : "");
    }
    return CLI_EXIT_OK;
}
