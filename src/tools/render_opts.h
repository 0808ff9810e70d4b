/* render_opts.h — the options of `mosaic render`, shared by the CLI and the viewer (mosaic-view).
 * Fed by cli_render.c and view/ with argv; feeds scene_draw_opts, the pipeline and blur descs. */
#ifndef MOSAIC_RENDER_OPTS_H
#define MOSAIC_RENDER_OPTS_H

#include "tools/cli.h"
#include "tools/sequence.h"
#include "scene/scene.h"

typedef struct render_opts {
    const char *scene_path;
    const char *out_path;
    const char *stats_path;
    int width, height, spp, view, fma, frames;
    bool blur_area;  /* --blur-area: the frames inspect it (MOS_INSPECT_BLUR_AREA) */
    mos_pipeline_desc pipeline;
    mos_isa isa;
    mos_blur_desc blur;
    int accum;  /* > 0: --mode accum with this many sub-frames */
    const char *glsl_builtins;  /* --glsl-builtins DIR: scene_load_opts.glsl_builtins */
    scene_draw_opts draw;  /* blur overrides */
    /* --sequence FIRST:LAST (--frame-index I is I:I): frames of scene time,
     * frame k covering [k, k + 1), each written to out_path (and stats_path)
     * with k in its frame-number field (sequence.h); --resume renders only
     * the frames whose file is missing. */
    bool sequence, resume;
    int first, last;
} render_opts;

/* How a program other than `mosaic render` uses render_parse. */
typedef struct render_parse_cfg {
    const char *cmd;  /* for messages ("Try 'mosaic CMD --help'"); a name starting with
                       * "mosaic-" is a program of its own ("Try 'mosaic-view --help'") */
    bool scene_optional;  /* no SCENE is not an error (parsing a single option) */
    bool sequences;       /* the program renders sequences (--sequence, --frame-index, --resume) */
    /* The caller's own options, tried before "unknown option": 1 = taken
     * (a->i advanced past a value), 0 = not one of them, -1 = error (printed). */
    int (*extra)(cli_args *a, void *user);
    void *user;
} render_parse_cfg;

/* The "Image:", "Blur and sampling:" and "Pipeline:" parts of the help text,
 * and the "Sequences:" part for the programs that render them. */
extern const char render_opts_usage[];
extern const char render_sequence_usage[];

/* Parses ARGV[1 .. ARGC) into O (fields not named keep their values).
 * CFG NULL is `mosaic render`.  Returns CLI_EXIT_OK, CLI_EXIT_USAGE (message
 * printed) or -1 for --help (nothing printed: the caller prints its usage). */
int render_parse(int argc, char **argv, render_opts *o, const render_parse_cfg *cfg);

/* Frees what a render made in CTX (NULL: nothing): the scene's GPU copy GPU (may be NULL), the target RT
 * (id 0: none), then the context.  For the CLI's render, bench and the viewer. */
void render_context_free(mos_context *ctx, mos_target rt, scene_gpu *gpu);

/* The scene's draw options for O: its blur overrides (O->draw) with O's size, --fma and --view.
 * For the CLI's render and mosaic-mpi. */
scene_draw_opts render_draw_opts(const render_opts *o);

/* SCENE's base name with its extension replaced by .png ("out.png" when nothing is left), in BUF:
 * the output of `mosaic render` and mosaic-mpi without -o.  Returns BUF. */
const char *render_default_output(const char *scene_path, char *buf, size_t size);

/* Frame K's output files from O's names (in a sequence, K in their frame-number field, sequence.h; else
 * the names as given): the PNG in OUT and the statistics in STATS ("" without --stats-json); false when a
 * name does not fit. */
bool render_frame_paths(const render_opts *o, int k, char out[SEQ_PATH_MAX], char stats[SEQ_PATH_MAX]);
/* Before a long render: the files of the first frame can be created.  0, or -1 with the reason in ERR. */
int render_check_outputs(const render_opts *o, char *err, size_t err_size);

/* Is NAME a registered pattern (or a file: table, which the library checks)? */
int render_pattern_known(const char *name);

#endif
