/* replay_main.c — a main() for a fuzz target without libFuzzer: LLVMFuzzerTestOneInput once per file named
 * on the command line (and per file of a named folder, in name order), so gcc with ASan+UBSan can replay
 * test/fuzz/regress/ where clang is absent.  Built by test/fuzz/fuzz.mk; run by test/test_fuzz.sh. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define REPLAY_MAX_BYTES ((size_t)64 << 20)  /* libFuzzer's inputs are far smaller */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Runs the target on the file at PATH; 0, or -1 when it cannot be read. */
static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    uint8_t *data = NULL;
    size_t size = 0, cap = 0, got;
    do {
        if (size == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *g = cap <= REPLAY_MAX_BYTES ? realloc(data, cap) : NULL;
            if (!g) {
                fprintf(stderr, "replay: %s: larger than %zu MiB or out of memory\n", path, REPLAY_MAX_BYTES >> 20);
                free(data);
                fclose(f);
                return -1;
            }
            data = g;
        }
        size += got = fread(data + size, 1, cap - size, f);
    } while (got > 0);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "replay: %s: read error\n", path);
        free(data);
        return -1;
    }
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, size);
    /* A copy of exactly SIZE bytes, as libFuzzer passes: ASan sees reads past the end. */
    uint8_t *exact = malloc(size ? size : 1);
    if (!exact) {
        free(data);
        return -1;
    }
    memcpy(exact, data, size);
    free(data);
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
    return 0;
}

static int skip_dot(const struct dirent *e) { return e->d_name[0] != '.'; }

int main(int argc, char **argv)
{
    int count = 0, failed = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
            failed = 1;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            failed |= replay_file(argv[i]) != 0;
            count++;
            continue;
        }
        struct dirent **names;
        int n = scandir(argv[i], &names, skip_dot, alphasort);
        if (n < 0) {
            fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
            failed = 1;
            continue;
        }
        for (int k = 0; k < n; k++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], names[k]->d_name);
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                failed |= replay_file(path) != 0;
                count++;
            }
            free(names[k]);
        }
        free(names);
    }
    printf("replayed %d input%s\n", count, count == 1 ? "" : "s");
    return failed ? 2 : 0;
}
