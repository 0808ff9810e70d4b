/* fuzz_q3shader.c — libFuzzer target: the input as a Quake 3 shader script through scene_q3_parse
 * (src/scene/q3shader.c), then every shader it kept looked up by name and turned into a map material's
 * look (bsp_look.c).  Run by `make fuzz` and test/test_fuzz.sh (replay_main.c without clang). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "scene/scene_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    scene_q3_scripts *s = scene_q3_scripts_new();
    if (!s)
        return 0;
    /* A copy the size of the input: a read past its end is a finding. */
    char *text = malloc(size ? size : 1);
    if (text) {
        memcpy(text, data, size);
        if (scene_q3_parse(s, "scripts/fuzz.shader", text, size) == MOS_OK) {
            const char *err = scene_q3_scripts_error(s);
            if (fuzz_verbose())
                fprintf(stderr, "fuzz_q3shader: %d shaders, %d faults%s%s\n", scene_q3_scripts_count(s),
                        scene_q3_scripts_faults(s), err ? ": " : "", err ? err : "");
            if (err)
                fuzz_check_error("fuzz_q3shader", err, "scripts/fuzz.shader");
            static const char *const names[] = { "textures/a/b", "sky", "" };
            for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
                const char *name = names[i];
                const scene_q3_shader *sh = scene_q3_find(s, name);
                scene_bsp_look look;
                scene_bsp_look_of(name, sh, &look);
                scene_bsp_tally t = { .count = 0 };
                scene_bsp_tally_shader(&t, sh, &look);
                char out[600];
                scene_bsp_tally_text(&t, out, sizeof out);
            }
        }
        free(text);
    }
    scene_q3_scripts_free(s);
    return 0;
}
