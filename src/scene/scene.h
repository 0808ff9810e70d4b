/* scene.h — scene files: parse, import meshes/textures, upload, draw.
 * Fed by the CLI and tools; feeds the public API (mos_*) with draws. */
#ifndef MOSAIC_SCENE_H
#define MOSAIC_SCENE_H

#include <stdbool.h>
#include <stdint.h>

#include "mosaic.h"
#include "shader/shader.h"

typedef struct scene scene;          /* parsed file + imported meshes/textures */
typedef struct scene_gpu scene_gpu;  /* the scene's buffers/textures/shaders in a context */

/* Parses PATH and imports everything it names.  On failure returns non-zero
 * MOS_ERR_IO / MOS_ERR_PARSE and writes "file:line:col: message" into err. */
mos_result scene_load(const char *path, scene **out, char *err, size_t err_size);
void scene_free(scene *s);

/* Limits for scene files from untrusted sources (the fuzzers, a renderer of
 * uploaded scenes); all zero = scene_load. */
typedef struct scene_load_opts {
    /* Non-NULL: the files the scene may read.  Every path it names (mesh, bsp,
     * texture) must be relative, without a '..' component, and resolve
     * (symbolic links followed) to a regular file inside this folder, else
     * "file:line:col: path 'P' is outside the scene's sandbox" (MOS_ERR_PARSE);
     * the files a mesh names in turn (OBJ materials, glTF buffers) are held to
     * the same folder.  Not a defence against another process changing the
     * folder while the scene loads. */
    const char *sandbox_dir;
    /* Non-zero: at most this many triangles per frame, instances counted,
     * checked before a procedural primitive is built (else the format's own
     * limit, 2^28).  Meshes and maps count once imported: their import is
     * bounded only by their own caps (32 M triangles each) and file size. */
    uint64_t max_triangles;
    /* Non-NULL: the built-in shaders are drawn by their GLSL versions in this
     * folder (builtin.vert with flat.frag, lambert.frag, textured.frag),
     * compiled when the scene loads, instead of the native C ones. */
    const char *glsl_builtins;
    /* Non-zero: at most this many bytes of textures, each image counted once
     * per sampling with all its mip levels, as uploaded (else
     * SCENE_MAX_TEXTURE_BYTES): over it the image's line reads
     * "file:line:col: textures would take N MB, over the M MB budget". */
    uint64_t max_texture_bytes;
} scene_load_opts;

#define SCENE_MAX_TEXTURE_BYTES ((uint64_t)2 << 30)  /* default texture budget: 2 GiB */

/* scene_load under OPTS (NULL = none). */
mos_result scene_load_ex(const char *path, const scene_load_opts *opts, scene **out, char *err, size_t err_size);

/* What a loaded scene asks for but does not draw as asked (a texture its
 * shader does not sample, a material property Mosaic does not render, a
 * texture file that could not be read and is drawn magenta): lines
 * "file:line:col: warning: ...", in file order, for the tools to print. */
int scene_warning_count(const scene *s);
const char *scene_warning(const scene *s, int i);  /* NULL if out of range */

/* Triangles the scene submits per frame (after import, before culling). */
uint64_t scene_triangle_count(const scene *s);

/* A camera pose (the viewer's free camera): the eye, target, up, field of
 * view and clip planes of a view, world units. */
typedef struct scene_pose {
    float eye[3], target[3], up[3];
    float fov_y_deg, near_z, far_z;
} scene_pose;

/* Per-frame knobs the CLI passes down. */
typedef struct scene_draw_opts {
    int width, height;  /* for the aspect ratio */
    int fma;            /* extra dependent multiply-adds per fragment */
    int view;           /* camera index when a scene has several (0 = first) */
    /* Non-NULL: this pose instead of the view's (the view still gives
     * aperture, focus and shutter; focus 0 is then |target - eye| of the pose). */
    const scene_pose *pose;
    /* Analysis knobs (the pattern analyzer, src/tools/patterns_*.c); all zero =
     * the normal frame. */
    uint64_t tri_begin, tri_end;  /* draw only triangles [begin, end) in API order
                                   * (scene_triangle_count numbering); end 0 = to the end */
    /* Scene time at the start of the frame's shutter interval, in frames:
     * frame k of a sequence covers [k, k + 1) (the shutter's open and close
     * within it); 0 = the scene as written (negative and NaN are taken as 0).
     * Objects' motion continues and cameras follow their paths: scenes/README.md,
     * "Scene time". */
    double time;
    /* Blur: the camera's aperture, focus and shutter unless set here. */
    bool set_aperture, set_focus, set_shutter;
    float aperture, focus;  /* world units; focus 0 = |target - eye| */
    float shutter[2];       /* open, close within [0, 1] */
    bool count_mode;    /* count fragments: every draw uses a shader that outputs
                         * (1/255, 0, 0, 0) with MOS_BLEND_ADD and no depth test or
                         * write (culling kept), so red = covered samples per pixel,
                         * saturating at 255 (clear to 0) */
} scene_draw_opts;

/* Creates buffers, textures and shaders for S in CTX.  The result keeps its
 * own copy of what drawing needs, so S may be freed afterwards. */
mos_result scene_upload(const scene *s, mos_context *ctx, scene_gpu **out);
/* Issues the draws of one frame (between mos_begin_frame and mos_end_frame). */
mos_result scene_draw(const scene_gpu *g, mos_context *ctx, const scene_draw_opts *opts);
/* The lens of the view in OPTS (aperture, focus, field of view, aspect) as
 * mos_blur_desc lens_x / lens_y / focus_w; other fields are left alone. */
mos_result scene_frame_lens(const scene_gpu *g, const scene_draw_opts *opts, mos_blur_desc *b);
/* Destroys what scene_upload created. */
void scene_gpu_free(scene_gpu *g, mos_context *ctx);
/* Named views (camera blocks, in file order; a file without one gets a single
 * view named "default" that frames the whole scene). */
int scene_view_count(const scene *s);
const char *scene_view_name(const scene *s, int view);  /* NULL if out of range */
/* MOS_OK, or MOS_ERR_INVALID_ARGUMENT with a message naming the valid
 * views of the scene loaded from PATH. */
mos_result scene_check_view(const scene *s, const char *path, int view, char *err, size_t err_size);
int scene_find_view(const scene *s, const char *name);  /* index, or -1 */
/* The pose of view VIEW at scene time 0 (a camera path's first key);
 * MOS_ERR_INVALID_ARGUMENT when out of range. */
mos_result scene_view_pose(const scene *s, int view, scene_pose *out);
/* Objects and meshes after import (for tools that print statistics). */
int scene_object_count(const scene *s);
int scene_mesh_count(const scene *s);

/* Background colour of the scene (RGBA 0..1) for mos_frame_desc.clear_rgba. */
void scene_clear_color(const scene *s, float rgba[4]);

/* ---- export.c: a frame's draws as plain data, for renderers other than
 * libmosaic (the llvmpipe reference in bench/).  The same walk feeds
 * scene_draw, so both see the same triangles, matrices and state. */
typedef struct scene_export_draw {
    int object, instance;     /* object index (file order), instance in its array */
    const char *name;         /* object name */
    const char *shader;       /* built-in: "flat", "lambert", "textured" or "lightmapped"; GLSL: the .frag path */
    const char *vertex_shader; /* GLSL: the .vert path; NULL for a native built-in */
    int mesh;                 /* mesh index: draws with one mesh share the arrays below */
    const float *verts;       /* vert_count * vertex_stride floats: pos, normal, uv (then lightmap uv) */
    int vertex_stride;        /* SHADER_BUILTIN_STRIDE, or + 2 with the lightmap's u, v (lightmapped) */
    uint32_t vert_count;
    const uint32_t *indices;  /* index_count, 3 per triangle */
    uint32_t index_count;
    int texture;              /* image index, -1 = none (then tex_rgba is NULL) */
    int tex_width, tex_height;
    const uint8_t *tex_rgba;  /* RGBA8, rows top first (v = 0 is the bottom row) */
    mos_wrap tex_wrap[2];     /* u, v */
    mos_mip_filter tex_mip;
    /* The "lightmapped" built-in's second texture (unit 1): its image index, -1 = none (then lm_rgba is
     * NULL), sampled like the first (clamp or repeat as its image says) at the lightmap coordinates. */
    int lightmap;
    int lm_width, lm_height;
    const uint8_t *lm_rgba;
    mos_wrap lm_wrap[2];
    mos_mip_filter lm_mip;
    const shader_builtin_uniforms *uniforms;  /* exactly what mos_draw gets */
    const shader_builtin_uniforms *uniforms_t1; /* at shutter close (mos_draw's uniforms_t1); NULL = still */
    bool depth_test, depth_write;             /* the test is less-than */
    mos_cull cull;
    mos_blend blend;
} scene_export_draw;

/* Calls FN for every draw of one frame of S with OPTS, in submission order;
 * stops at (and returns) the first result other than MOS_OK.  The pointers
 * in D are valid during the call (verts, indices and tex_rgba while S lives). */
mos_result scene_export_frame(const scene *s, const scene_draw_opts *opts,
                              mos_result (*fn)(const scene_export_draw *d, void *user), void *user);
/* scene_frame_lens for renderers other than libmosaic: the same lens from S. */
mos_result scene_lens(const scene *s, const scene_draw_opts *opts, mos_blur_desc *b);

#endif
