/* parse_priv.h — what the pieces of the scene file parser share: the tokens of a line, the parser's state
 * (the camera or object block being read) and the functions one piece calls in another.  Included by
 * parse*.c only; scene_priv.h (scene_parse) is the interface.
 *
 * parse.c reads the file line by line, splits each line into tokens and runs its statement: top-level
 * ones itself, a camera block's in parse_camera.c, an object block's in parse_object.c (geometry,
 * placement, its `end`) and parse_material.c (its look).  An object's `end` builds a primitive there,
 * or reads a mesh file (parse_mesh.c) or a map (parse_bsp.c); the images they need are the scene's
 * (parse_image.c).  The statements' arguments are read by parse_values.c. */
#ifndef MOSAIC_SCENE_PARSE_PRIV_H
#define MOSAIC_SCENE_PARSE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scene/scene_priv.h"

#define MAX_TOKENS 32

typedef struct token {
    const char *s;  /* NUL-terminated (quotes removed) */
    int col;        /* 1-based column of the token's first character */
} token;

/* Where a statement was: its line and the column of its keyword. */
typedef struct text_pos {
    int line, col;
} text_pos;

enum geom_kind { GEOM_NONE, GEOM_PLANE, GEOM_SPHERE, GEOM_BOX, GEOM_TORUS, GEOM_MESH, GEOM_BSP };

/* The object block being read; turned into a scene_object at `end`. */
typedef struct pending_object {
    scene_object obj;
    bool cull_given;
    enum geom_kind geom;
    int geom_line, geom_col, path_col;
    float gf[4];   /* sizes / radii */
    int gi[2];     /* segments */
    char *mesh_path;
    float fit;     /* 0 = none */
    bool fit_base;
    float uv[2];
    int two_sided_line;  /* `two_sided` (mesh objects): each triangle drawn twice, back to back; 0 = no */
    bool texture_given, color_given, shader_given, blend_given, depth_write_given, alpha_given;
    int wrap[2];          /* wrap line: mos_wrap of u, v */
    bool wrap_given, mip_linear;
    int texture_line, texture_col;
    /* bsp maps: the archive entry (NULL for a bare .bsp), patch level, spawn views (-1 = no views) */
    char *bsp_entry;
    int entry_col;
    int patch_level, patch_line;
    int views_max, views_line, views_col;
    bool bsp_textures;  /* the materials' images from the game folder's archives (default on) */
    int textures_line;
} pending_object;

typedef struct parser {
    const char *file;
    char *dir;     /* the scene file's folder, "" for the current one */
    const scene_load_opts *opts;  /* sandbox and triangle budget */
    int line;
    char *err;
    size_t err_size;
    scene *s;
    enum { BLOCK_TOP, BLOCK_CAMERA, BLOCK_OBJECT } block;
    int block_line;
    scene_camera cam;  /* the camera block being read (its path is the parser's until `end`) */
    text_pos cam_pose_at, cam_path_at;  /* its first eye/target and path statements (line 0 = none) */
    pending_object po;
    uint64_t total_tris;
    uint64_t texture_bytes;  /* the scene's images with their mip levels, as uploaded */
    mos_result code;  /* what the first error was (MOS_ERR_PARSE unless an import said otherwise) */
} parser;

/* What an object keyword group's parser says of a keyword that is not its own. */
#define KW_NOT_MINE 1

/* ---- messages and the scene's arrays (parse.c) ---------------------------------------------------
 * parse_err sets "file:line:col: message" (the parser's line) and returns -1; parse_warn records
 * "file:line:col: warning: ..." (0, or -1 when out of memory); parse_oom is parse_err's "out of memory"
 * with MOS_ERR_OUT_OF_MEMORY.  parse_grow makes room in ARR for element COUNT (NULL when out of
 * memory; ARR is then still valid). */
int parse_err(parser *p, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int parse_warn(parser *p, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int parse_oom(parser *p, int col);
void *parse_grow(void *arr, int count, size_t elem);

/* ---- arguments (parse_values.c): 0, or -1 with the error set ------------------------------------- */
int parse_nargs(parser *p, const token *t, int n, int min, int max, const char *what);
int parse_num(parser *p, const token *t, float *out);
int parse_nums(parser *p, const token *t, int count, float *out);
int parse_int(parser *p, const token *t, int lo, int hi, int *out);
int parse_positive(parser *p, const token *t, float *out);
int parse_unit_range(parser *p, const token *t, int count, float *out);
int parse_choose(parser *p, const token *t, const char *what, const char *const *words);
/* A keyword's one value, one of words (parse_nargs with hint, then
 * parse_choose of t[1]): its index, or -1 (reported). */
int parse_one_word(parser *p, const token *t, int n, const char *hint, const char *what, const char *const *words);
int parse_name(parser *p, const token *t, char *out);
int parse_path(parser *p, const token *t, char **out);
extern const char *const parse_on_off[3];  /* the values of an on/off keyword, in parse_choose's order */

/* ---- blocks: `camera` (parse_camera.c) and `object` (parse_object.c, parse_material.c) ------------ */
int parse_camera_begin(parser *p, const token *t, int n);
int parse_camera_stmt(parser *p, const token *t, int n);
int parse_object_begin(parser *p, const token *t, int n);
int parse_object_stmt(parser *p, const token *t, int n);
int parse_object_material(parser *p, const token *t, int n);  /* KW_NOT_MINE: not a look keyword */
/* What the ends of objects share: the triangle budget, the last touches, the append. */
int parse_over_budget(parser *p, int col, const char *name, uint64_t tris);
void parse_finish_object(const pending_object *po, scene_object *o, const scene_mesh *m);
int parse_append_object(parser *p, int col, scene_object *o, scene_mesh *m);
/* The `end` of an object with a mesh file (parse_mesh.c) or a map (parse_bsp.c). */
int parse_mesh_end(parser *p, int end_col);
int parse_bsp_end(parser *p, int end_col);

/* ---- the scene's images (parse_image.c) ----------------------------------------------------------- */
int parse_find_image(const scene *s, const char *key);
int parse_add_image(parser *p, int col, scene_image *img);
int parse_apply_sampling(parser *p, int col, scene_object *o, const int *mat_wrap);
int parse_missing_image(parser *p, int col);
int parse_load_image(parser *p, int col, char *path, char *msg, size_t msg_size, mos_result *code);

#endif
