/* scene.h — scene files: parse, import meshes/textures, upload, draw.
 * Fed by the CLI and tools; feeds the public API (mos_*) with draws. */
#ifndef MOSAIC_SCENE_H
#define MOSAIC_SCENE_H

#include "mosaic.h"

typedef struct scene scene;          /* parsed file + imported meshes/textures */
typedef struct scene_gpu scene_gpu;  /* the scene's buffers/textures/shaders in a context */

/* Parses PATH and imports everything it names.  On failure returns non-zero
 * MOS_ERR_IO / MOS_ERR_PARSE and writes "file:line:col: message" into err. */
mos_result scene_load(const char *path, scene **out, char *err, size_t err_size);
void scene_free(scene *s);

/* Triangles the scene submits per frame (after import, before culling). */
uint64_t scene_triangle_count(const scene *s);

/* Per-frame knobs the CLI passes down. */
typedef struct scene_draw_opts {
    int width, height;  /* for the aspect ratio */
    int fma;            /* extra dependent multiply-adds per fragment */
    int view;           /* camera index when a scene has several (0 = first) */
} scene_draw_opts;

/* Creates buffers, textures and shaders for S in CTX.  The result keeps its
 * own copy of what drawing needs, so S may be freed afterwards. */
mos_result scene_upload(const scene *s, mos_context *ctx, scene_gpu **out);
/* Issues the draws of one frame (between mos_begin_frame and mos_end_frame). */
mos_result scene_draw(const scene_gpu *g, mos_context *ctx, const scene_draw_opts *opts);
/* Destroys what scene_upload created. */
void scene_gpu_free(scene_gpu *g, mos_context *ctx);
/* Named views (camera blocks, in file order; a file without one gets a single
 * view named "default" that frames the whole scene). */
int scene_view_count(const scene *s);
const char *scene_view_name(const scene *s, int view);  /* NULL if out of range */
int scene_find_view(const scene *s, const char *name);  /* index, or -1 */
/* Objects and meshes after import (for tools that print statistics). */
int scene_object_count(const scene *s);
int scene_mesh_count(const scene *s);

/* Background colour of the scene (RGBA 0..1) for mos_frame_desc.clear_rgba. */
void scene_clear_color(const scene *s, float rgba[4]);

#endif
