/* fuzz_pattern.c — libFuzzer target: bin pattern tables (pattern_build "file:PATH", src/pattern/pattern_file.c).
 * Run by `make fuzz` and test/test_fuzz.sh (replay_main.c without clang).
 *
 * Input: three bytes choose the context (workers 1 + b0, a bin grid of 1 + b1 % 64 by 1 + b2 % 64);
 * the rest is the file.  Seeds in test/fuzz/corpus/pattern/ carry matching prefixes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "pattern/pattern.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    int workers = 1 + data[0], bins_x = 1 + data[1] % 64, bins_y = 1 + data[2] % 64;
    char path[FUZZ_PATH_MAX], name[FUZZ_PATH_MAX + 8], err[1024];
    fuzz_write("fuzz.pattern", data + 3, size - 3, path);
    snprintf(name, sizeof name, "file:%s", path);
    pattern_table t;
    mos_result r = pattern_build(&t, name, workers, bins_x, bins_y, NULL, err, sizeof err);
    if (fuzz_verbose())
        fprintf(stderr, "fuzz_pattern: %d workers, %dx%d bins: %s\n", workers, bins_x, bins_y, r == MOS_OK ? "ok" : err);
    /* pattern_build's own check for owners out of range: the file loader let one through. */
    if (r == MOS_ERR_INVALID_ARGUMENT) {
        fprintf(stderr, "fuzz_pattern: %s\n", err);
        abort();
    }
    /* Errors about the file's text name it: "PATH:line:col: message". */
    if (r == MOS_ERR_PARSE && (strncmp(err, path, strlen(path)) || err[strlen(path)] != ':')) {
        fprintf(stderr, "fuzz_pattern: malformed error message: '%s'\n", err);
        abort();
    }
    if (r == MOS_OK)
        pattern_free(&t, NULL);
    return 0;
}
