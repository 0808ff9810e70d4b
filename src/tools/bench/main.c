/* main.c — `mosaic bench`: the driver over the room's steps (options, run, outputs).
 * Fed by mosaic.c (and bench/bench.mk's `make bench`); calls options.c, run.c and out.c. */
#include "tools/bench/bench.h"
#include "tools/cli.h"

#include <signal.h>
#include <stdlib.h>

int cli_bench_main(int argc, char **argv)
{
    bench_opts o = { .width = 1920, .height = 1080, .frames = 5, .warmup = 1, .check_pct = -1.0, .truth_k = 1024,
                     .truth_spp = 1 };
    bench_run br = { .o = &o };
    int rc = bench_parse(argc, argv, &o);
    if (rc == 0) {
        /* A reference child that dies must not kill us through its closed stdin. */
        signal(SIGPIPE, SIG_IGN);
        rc = bench_settle(&o);
    }
    if (rc == 0)
        rc = bench_prepare(&o, &br);
    if (rc == 0) {
        const int failed = bench_run_all(&br);
        const int not_written = bench_write_outputs(&br, argc, argv);
        rc = failed || not_written ? CLI_EXIT_FAIL : CLI_EXIT_OK;
    }
    bench_release(&br);
    for (int i = 0; i < o.n_owned; i++)
        free(o.owned[i]);
    return rc < 0 ? CLI_EXIT_OK : rc;
}
