/* fuzz_pk3.c — libFuzzer target: the input as a .pk3 (zip) archive, its entry maps/fuzz.bsp read through
 * scene_bsp_load and minizip.  Run by `make fuzz` and test/test_fuzz.sh (replay_main.c without clang). */
#include "fuzz_bsp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("fuzz.pk3", data, size, path);
    fuzz_bsp_check(path, "maps/fuzz.bsp");
    return 0;
}
