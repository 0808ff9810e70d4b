/* fuzz_bsp.c — libFuzzer target: the input as a bare Quake 3 map (IBSP 46) through scene_bsp_load (src/scene/bsp.c).
 * Run by `make fuzz` and test/test_fuzz.sh (replay_main.c without clang); the .pk3 path is fuzz_pk3.c. */
#include "fuzz_bsp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("fuzz.bsp", data, size, path);
    fuzz_bsp_check(path, NULL);
    return 0;
}
