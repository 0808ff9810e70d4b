/* mosaic.c — entry point of the `mosaic` CLI: top-level help and subcommand dispatch.
 * Fed by the shell; feeds cli_render.c, cli_diff.c, cli_patterns.c, bench/main.c and cli_shader.c. */
#include "tools/cli.h"

#include <string.h>

static const char mosaic_usage[] =
    "usage: mosaic COMMAND [options]\n"
    "\n"
    "Mosaic, a multithreaded sort-middle software rasterizer.\n"
    "\n"
    "Commands:\n"
    "  render SCENE [options]   render a scene file to a PNG (and stats JSON)\n"
    "  diff A.png B.png         compare two images (PSNR, max difference)\n"
    "  patterns --list          list the bin -> worker patterns\n"
    "  bench [options]          frame benchmarks, A/B against llvmpipe (--vs llvmpipe)\n"
    "  help [COMMAND]           show help for mosaic or a command\n"
    "\n"
    "  -h, --help               show this help\n"
    "  --version                print the library version\n"
    "\n"
    "Run 'mosaic COMMAND --help' for a command's options.\n";

typedef struct cli_command {
    const char *name;
    int (*main)(int argc, char **argv);
} cli_command;

static const cli_command cli_commands[] = {
    { "render", cli_render_main },
    { "diff", cli_diff_main },
    { "patterns", cli_patterns_main },
    { "bench", cli_bench_main },
    { "shader", cli_shader_main },
};

static const cli_command *cli_find(const char *name)
{
    for (size_t i = 0; i < sizeof cli_commands / sizeof cli_commands[0]; i++)
        if (strcmp(cli_commands[i].name, name) == 0)
            return &cli_commands[i];
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error(NULL, "missing command (render, diff, patterns, bench, shader)");
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
        fputs(mosaic_usage, stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("mosaic %d.%d\n", MOS_VERSION_MAJOR, MOS_VERSION_MINOR);
        return CLI_EXIT_OK;
    }
    if (strcmp(cmd, "help") == 0) {
        if (argc < 3) {
            fputs(mosaic_usage, stdout);
            return CLI_EXIT_OK;
        }
        const cli_command *c = cli_find(argv[2]);
        if (!c)
            return cli_usage_error(NULL, "help: unknown command '%s'", argv[2]);
        char *help_argv[] = { argv[2], "--help", NULL };
        return c->main(2, help_argv);
    }
    const cli_command *c = cli_find(cmd);
    if (!c) {
        if (cmd[0] == '-')
            return cli_usage_error(NULL, "unknown option '%s'", cmd);
        return cli_usage_error(NULL, "unknown command '%s'", cmd);
    }
    return c->main(argc - 1, argv + 1);
}
