/* scene_priv.h — the scene module's private data: parsed cameras, lights, objects, meshes, images.
 * Fed by parse*.c (the file), prim.c and import.c (geometry, textures); read by draw.c. Not for other stages. */
#ifndef MOSAIC_SCENE_PRIV_H
#define MOSAIC_SCENE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scene/scene.h"
#include "shader/shader.h"

#define SCENE_NAME_MAX 64
#define SCENE_MAX_LIGHTS SHADER_BUILTIN_MAX_LIGHTS
#define SCENE_MAX_SEGMENTS 4096                 /* per tessellation axis */
#define SCENE_MAX_PRIM_TRIANGLES (8u << 20)     /* one procedural primitive */
#define SCENE_MAX_MESH_TRIANGLES (32u << 20)    /* one imported mesh */
#define SCENE_MAX_INSTANCES 65536               /* one object's array */
#define SCENE_MAX_TRIANGLES ((uint64_t)1 << 28) /* submitted per frame, whole scene */

typedef struct scene_file_id { uint64_t dev, ino; } scene_file_id;  /* a file's identity (st_dev, st_ino) */

/* Geometry in the built-in vertex layout (SHADER_BUILTIN_STRIDE floats per vertex), optionally followed
 * by more floats per vertex (a map's lightmap coordinates: SCENE_LIT_STRIDE). */
typedef struct scene_mesh {
    float *verts;
    uint32_t *indices;
    uint32_t vert_count;
    uint32_t index_count;  /* 3 per triangle */
    uint32_t stride;       /* floats per vertex; 0 = SHADER_BUILTIN_STRIDE */
} scene_mesh;

/* The built-in layout plus the lightmap's u, v: what the lightmapped shader reads. */
#define SCENE_LIT_STRIDE (SHADER_BUILTIN_STRIDE + 2)

static inline uint32_t scene_mesh_stride(const scene_mesh *m) { return m->stride ? m->stride : SHADER_BUILTIN_STRIDE; }

typedef struct scene_image {
    char *path;  /* resolved path (the key of embedded and map images, with the sampling below) */
    scene_file_id id;  /* read from a file: its identity (the key), else 0 0 */
    int width, height;
    uint8_t *rgba;  /* img_read (malloc), rows top first */
    int wrap[2];     /* mos_wrap of u, v (an image sampled two ways is two images) */
    bool mip_linear; /* MOS_MIP_LINEAR */
} scene_image;

/* One key of a camera path: the eye and target at scene time TIME (frames). */
typedef struct scene_camera_key {
    double time;
    float eye[3], target[3];
} scene_camera_key;

#define SCENE_MAX_PATH_KEYS 4096        /* one camera's path */
#define SCENE_MAX_TIME 9007199254740992.0 /* 2^53 frames: later scene times are taken as this */

typedef struct scene_camera {
    char name[SCENE_NAME_MAX];
    float eye[3], target[3], up[3];  /* with a path: its pose at time 0 */
    float fov_y_deg, near_z, far_z;
    /* Lens and shutter (scene_frame_lens, scene_walk). */
    float aperture;       /* lens radius in world units; 0 = pinhole */
    float focus_dist;     /* world units along the view direction; 0 = |target - eye| */
    float shutter[2];     /* open, close in [0, 1]; default 0 1 */
    /* Keyframed eye and target (`path` lines), in increasing time; NULL = still.
     * Owned by the camera (malloc'd): scene_free and scene_gpu_free free it. */
    scene_camera_key *path;
    int path_count;
} scene_camera;

typedef struct scene_light {
    float dir[3];  /* unit, world space, towards the light */
    float color[3];
} scene_light;

/* The built-in shaders (lightmapped: a map's texture times its lightmap, texture unit 1, at the
 * mesh's lightmap coordinates; not a scene-file name). */
enum scene_shader { SCENE_SHADER_FLAT, SCENE_SHADER_LAMBERT, SCENE_SHADER_TEXTURED, SCENE_SHADER_LIGHTMAPPED,
                    SCENE_SHADER_COUNT };
extern const char *const scene_builtin_names[SCENE_SHADER_COUNT];  /* "flat", ..., "lightmapped" (shaders.c) */

typedef struct scene_object {
    char name[SCENE_NAME_MAX];
    int mesh;       /* index into scene.meshes */
    int texture;    /* index into scene.images, -1 = none */
    int lightmap;   /* the lightmapped shader's texture unit 1: index into scene.images, -1 = none */
    int shader;     /* enum scene_shader */
    float color[4];
    float xform[16];     /* object -> world at t = 0 (column-major) */
    mos_cull cull;
    mos_blend blend;     /* MOS_BLEND_OPAQUE: drawn first, in file order; others after, far to near */
    bool depth_write;    /* false for blended objects unless the scene says */
    float alpha_cutoff;  /* alpha test: discard below it (0 = none) */
    float center[3];     /* object-space centre of its mesh (sorting blended objects) */
    int array_n[3];      /* instances along x, y, z (>= 1 each) */
    float array_d[3];    /* world-space step between instances */
    /* Linear motion over the shutter (scene_walk gives uniforms at open and close). */
    bool has_motion;     /* a `motion` line was given */
    float xform1[16];    /* object -> world at t = 1 (= xform without motion lines) */
    float velocity[3];   /* world units per frame, added on top: p(t) += v * t */
    /* Later frames (scene time > 1) continue the change over one frame,
     * xform1 * inverse(xform), and the velocity: scene_walk. */
} scene_object;

/* A GLSL shader pair the scene names (shaders.c). */
typedef struct scene_glsl {
    char *frag_path, *vert_path;
    uint32_t *vs, *fs;             /* SPIR-V */
    size_t vs_words, fs_words;
    unsigned texture_units;        /* units the fragment shader samples (bit b: unit b) */
} scene_glsl;

struct scene {
    char *path;
    scene_glsl *glsl;    /* objects' shader SCENE_SHADER_COUNT + k is glsl[k] */
    int glsl_count;
    int builtin_glsl[SCENE_SHADER_COUNT];  /* >= 0: built-in i is drawn by glsl[i] (scene_load_opts.glsl_builtins) */
    float background[4];
    float ambient[3];
    scene_light lights[SCENE_MAX_LIGHTS];
    int light_count;
    scene_camera *cameras;
    int camera_count;
    scene_object *objects;
    int object_count;
    scene_mesh *meshes;
    int mesh_count;
    scene_image *images;
    int image_count;
    char **warnings;     /* "file:line:col: warning: ..." for what the scene asks but is not drawn */
    int warning_count;
};

/* ---- shaders.c: GLSL shaders -------------------------------------------------
 * scene_glsl_add reads FRAG and VERT through scene_file_read (held to SANDBOX, or NULL), compiles
 * them (deduplicated) and sets *INDEX to the pair's index in s->glsl: MOS_OK, or with
 * "file:line: message" in err (and *INDEX -1) MOS_ERR_OUT_OF_MEMORY or MOS_ERR_SHADER (anything
 * else).  The SPIR-V words are freed with util_free(NULL, ...). */
mos_result scene_glsl_add(scene *s, const char *frag, const char *vert, const char *sandbox, int *index, char *err,
                          size_t err_size);
void scene_glsl_free(scene *s);
int scene_glsl_of(const scene *s, int shader);            /* glsl index drawing SHADER, or -1 (native) */
const char *scene_shader_name(const scene *s, int shader);  /* "lambert" or the .frag path */
bool scene_shader_samples(const scene *s, int shader);      /* does SHADER sample texture unit 0? */

/* ---- prim.c: procedural primitives (return 0, or non-zero when out of memory) */
int scene_prim_plane(scene_mesh *m, float size_x, float size_z, int seg_x, int seg_z);
int scene_prim_sphere(scene_mesh *m, float radius, int seg_lon, int seg_lat);
int scene_prim_box(scene_mesh *m, float sx, float sy, float sz, int seg);
int scene_prim_torus(scene_mesh *m, float r_major, float r_minor, int seg_major, int seg_minor);
/* Triangle counts of the above before building (for the caps). */
uint64_t scene_prim_plane_tris(int seg_x, int seg_z);
uint64_t scene_prim_sphere_tris(int seg_lon, int seg_lat);
uint64_t scene_prim_box_tris(int seg);
uint64_t scene_prim_torus_tris(int seg_major, int seg_minor);
void scene_mesh_free(scene_mesh *m);
/* Scales (uniformly) and moves the COUNT meshes together so they fit a cube of
 * edge SIZE: centred at the origin, or (base) centred in x/z with the lowest
 * point at y = 0. */
void scene_mesh_fit(scene_mesh *meshes, int count, float size, bool base);
/* Appends SRC's vertices and triangles to DST; non-zero when out of memory (or the layouts differ). */
int scene_mesh_append(scene_mesh *dst, const scene_mesh *src);
/* Every triangle (a, b, c) gets a twin (c, b, a) over copies of its
 * vertices with the normal turned round: the same three corners, from
 * another corner and wound the other way, as asset pipelines model a
 * two-sided leaf or card (0, or -1 when out of memory). */
int scene_mesh_two_sided(scene_mesh *m);
/* The centre of M's bounding box (0 for an empty mesh). */
void scene_mesh_center(const scene_mesh *m, float c[3]);
void scene_mesh_uv_scale(scene_mesh *m, float su, float sv);

/* ---- import.c: assimp meshes with their materials, and textures; on failure MOS_ERR_IO
 * (unreadable), MOS_ERR_PARSE (not a mesh / image, or too big) or MOS_ERR_OUT_OF_MEMORY, and a
 * message in err.  SANDBOX (a canonical folder, or NULL): every file assimp opens must pass
 * scene_sandbox_check. */
enum scene_alpha_mode { SCENE_ALPHA_OPAQUE, SCENE_ALPHA_MASK, SCENE_ALPHA_BLEND };
/* What a mesh file says about the look of one of its parts (assimp's material). */
typedef struct scene_material {
    char name[SCENE_NAME_MAX];
    bool named;             /* false: the file names no material (assimp's default) */
    float color[4];         /* base / diffuse colour; alpha = opacity */
    char *texture;          /* the base-colour texture: a resolved file path, or NULL */
    int embedded;           /* ... or an embedded texture (scene_import.embedded), -1 = none */
    int alpha_mode;         /* enum scene_alpha_mode */
    float alpha_cutoff;     /* SCENE_ALPHA_MASK: discard below it */
    int two_sided;          /* 1: both sides, 0: front only, -1: the file does not say */
    int wrap[2];            /* the base texture's mos_wrap along u and v */
    char ignored[96];       /* properties not rendered (e.g. "normal map, specular map"), "" = none */
} scene_material;
/* A mesh file in parts of one material each, in the file's mesh order (parts of one material are
 * joined), and its embedded textures decoded. */
typedef struct scene_import {
    scene_mesh *parts;
    scene_material *materials;  /* materials[i] belongs to parts[i] */
    int part_count;
    scene_image *embedded;      /* path = "MESHFILE#N"; rgba NULL: it did not decode, path says why */
    int embedded_count;
} scene_import;
/* MAX_TRIS: the triangles the scene's budget has left (the file's declared counts are held to it and to
 * SCENE_MAX_MESH_TRIANGLES before assimp reads it: scene_mesh_precheck). */
mos_result scene_import_mesh(const char *path, const char *sandbox, uint64_t max_tris, scene_import *im, char *err,
                             size_t err_size);
void scene_import_free(scene_import *im);
/* The image file open as FD (SIZE bytes, from scene_file_open) named PATH, decoded. */
mos_result scene_import_image(int fd, uint64_t size, const char *path, scene_image *img, char *err, size_t err_size);

/* ---- precheck.c: what assimp would trust in the mesh file open as FD (SIZE bytes), checked first: a PLY
 * header's element counts against the file's size and MAX_TRIS (and the per-mesh cap), an OFF header's
 * counts, a glTF/GLB document's JSON nesting and node hierarchy depth.  The format from the bytes.
 * MOS_OK, or MOS_ERR_PARSE / MOS_ERR_BAD_SIZE / MOS_ERR_OUT_OF_MEMORY with "'PATH': ..." in err. */
#define SCENE_MAX_JSON_DEPTH 1000  /* nesting of a glTF's JSON */
#define SCENE_MAX_NODE_DEPTH 1000  /* levels of a glTF node hierarchy */
mos_result scene_mesh_precheck(int fd, uint64_t size, const char *path, uint64_t max_tris, char *err,
                               size_t err_size);
/* precheck_gltf.c: the glTF JSON TEXT (N bytes, a NUL after them) held to the two depths above. */
mos_result scene_gltf_precheck(const char *text, size_t n, const char *path, char *err, size_t err_size);
void scene_image_free(scene_image *img);  /* pixels and path */

/* ---- bsp.c: Quake 3 / OpenArena maps (IBSP version 46) from a .pk3 archive entry or a bare .bsp */
#define SCENE_BSP_MAX_BYTES (256u << 20)  /* uncompressed map file */
#define SCENE_BSP_PATCH_LEVEL 8           /* default quads per Bezier patch side */
#define SCENE_BSP_MAX_PATCH_LEVEL 64
#define SCENE_BSP_SPAWN_VIEWS 6           /* default spawn-point views per map */
#define SCENE_BSP_MAX_SPAWNS 64
/* The views' lens, in map units (Quake 3's fov 90 is horizontal at 4:3: 73.74 degrees vertical). */
#define SCENE_BSP_FOV_Y 73.74f
#define SCENE_BSP_NEAR 4.0f
#define SCENE_BSP_FAR 16384.0f

/* Content flags of a material the map compiler wrote from its shader's surfaceparms. */
#define SCENE_BSP_CONTENTS_TRANSLUCENT 0x20000000u     /* surfaceparm trans */
#define SCENE_BSP_CONTENTS_LIQUID (0x8u | 0x10u | 0x20u)  /* lava, slime, water */

typedef struct scene_bsp_material {
    char name[64];  /* the map's texture (shader) name, e.g. textures/base_wall/concrete */
    uint32_t surface_flags, contents;
    scene_mesh mesh;  /* its faces, y-up, counter-clockwise seen from the front; SCENE_LIT_STRIDE */
} scene_bsp_material;

/* The map's lightmaps in one image (bsp_lightmap.c): 128 x 128 tiles, lightmap i at tile i (COLS tiles
 * a row), then 4 x 4 blocks of the vertex-lit faces' colours; colours shifted as the game does. */
typedef struct scene_bsp_atlas {
    uint8_t *rgba;            /* width x height RGBA8, rows top first; NULL: the map has no light */
    int width, height, cols;
    int maps;                 /* lightmaps in the file */
    uint32_t blocks, block_cap;  /* vertex-lit blocks used, room for */
} scene_bsp_atlas;
/* The atlas of the lightmaps LUMP (BYTES long) with room for VERTEX_LIT blocks: MOS_OK (no lightmap and no
 * block: rgba NULL), MOS_ERR_PARSE or MOS_ERR_OUT_OF_MEMORY with *why. */
mos_result scene_bsp_atlas_init(scene_bsp_atlas *a, const uint8_t *lump, size_t bytes, uint32_t vertex_lit,
                                const char **why);
void scene_bsp_atlas_free(scene_bsp_atlas *a);
/* Where lightmap coordinates S, T of lightmap LIGHTMAP (< maps) lie in the atlas (u, v; v = 0 at the bottom). */
void scene_bsp_atlas_uv(const scene_bsp_atlas *a, int lightmap, float s, float t, float uv[2]);
/* The next block, filled with the vertex colour RGB (as the game draws rgbGen vertex), and its centre's u, v. */
void scene_bsp_atlas_block(scene_bsp_atlas *a, const uint8_t rgb[3], float uv[2]);

typedef struct scene_bsp_view {
    char name[SCENE_NAME_MAX];  /* intermission, spawn0, spawn1, ... */
    float eye[3], target[3];    /* y-up map units; up is +y */
} scene_bsp_view;

typedef struct scene_bsp_map {
    scene_bsp_material *materials;  /* drawable textures with triangles, in texture-lump order */
    int material_count;
    scene_bsp_view *views;
    int view_count;
    uint32_t faces_drawn, faces_skipped;  /* skipped: sky, nodraw, hint, skip, fog, effects, billboards */
    scene_bsp_atlas light;  /* the faces' light; every material's mesh has its u, v (SCENE_LIT_STRIDE) */
    char sky[64];           /* the first sky material a face uses (not drawn; its script's farbox is), "" = none */
} scene_bsp_map;

enum scene_bsp_arg { SCENE_BSP_ARG_PATH, SCENE_BSP_ARG_ENTRY };  /* what an error is about */

/* Reads the map ENTRY of the .pk3 PATH (ENTRY NULL: PATH is a .bsp file),
 * tessellating patches PATCH_LEVEL x PATCH_LEVEL; MAX_SPAWNS >= 0 also reads
 * the views (intermission, then up to MAX_SPAWNS spawn points in file order).
 * On failure MOS_ERR_IO, MOS_ERR_PARSE or MOS_ERR_OUT_OF_MEMORY, a message in
 * err and in *err_arg the argument it is about; MAP is then empty. */
mos_result scene_bsp_load(const char *path, const char *entry, int patch_level, int max_spawns,
                          scene_bsp_map *map, int *err_arg, char *err, size_t err_size);
void scene_bsp_free(scene_bsp_map *map);

/* ---- pk3.c: the .pk3 archives of a Quake 3 / OpenArena game folder (the images a map's materials
 * name), searched as the game does: the last archive in name order holding an entry wins. */
typedef struct scene_pk3_set scene_pk3_set;
/* Opens every .pk3 in FOLDER ("" = the current one) that SANDBOX (or NULL) allows; an unreadable
 * folder or archive is skipped.  MOS_ERR_OUT_OF_MEMORY or MOS_OK. */
mos_result scene_pk3_open(const char *folder, const char *sandbox, scene_pk3_set **out);
void scene_pk3_close(scene_pk3_set *s);
int scene_pk3_count(const scene_pk3_set *s);
/* Inflates the current entry (WANT bytes uncompressed) of an open minizip archive into *data
 * (malloc'd): MOS_OK, MOS_ERR_OUT_OF_MEMORY, or MOS_ERR_PARSE; *why says what went wrong. */
mos_result scene_zip_inflate(void *archive, size_t want, uint8_t **data, const char **why);
/* The bytes of entry NAME (case-insensitive; malloc'd): MOS_ERR_IO when no archive holds it,
 * MOS_ERR_BAD_SIZE over MAX_BYTES, MOS_ERR_PARSE when it does not inflate, MOS_ERR_OUT_OF_MEMORY. */
mos_result scene_pk3_read(scene_pk3_set *s, const char *name, size_t max_bytes, uint8_t **data, size_t *size);

/* Lists the distinct entries (names compared without case) under PREFIX ending in SUFFIX of every
 * archive, at most MAX, sorted by name (strcasecmp): *names (malloc'd, each malloc'd), their count, or -1
 * when out of memory. */
int scene_pk3_list(scene_pk3_set *s, const char *prefix, const char *suffix, int max, char ***names);

/* ---- q3shader.c: Quake 3 shader scripts, what Mosaic draws of them */
enum scene_q3_blend { SCENE_Q3_OPAQUE, SCENE_Q3_ADD, SCENE_Q3_FILTER, SCENE_Q3_BLEND, SCENE_Q3_OTHER };
enum scene_q3_alpha { SCENE_Q3_ALPHA_NONE, SCENE_Q3_GT0, SCENE_Q3_LT128, SCENE_Q3_GE128 };
#define SCENE_Q3_NODRAW 1u  /* surfaceparm nodraw */
#define SCENE_Q3_SKY 2u     /* surfaceparm sky */
#define SCENE_Q3_TRANS 4u   /* surfaceparm trans */
#define SCENE_Q3_MAX_NOTES 8
typedef struct scene_q3_shader {
    char name[64];
    char image[64];          /* the first image stage's (map, clampMap, animMap's first frame); "" = none */
    bool clamp;              /* ... from clampMap */
    uint8_t blend, alpha;    /* ... its blendFunc (enum scene_q3_blend), alphaFunc (enum scene_q3_alpha) */
    float tc_scale[2];       /* ... its tcMod scale (product of them), 1 1 = none */
    bool lightmap;           /* a stage maps $lightmap */
    bool lightmap_first;     /* ... before the image stage (the image multiplies the light) */
    bool two_sided;          /* cull none / twosided / disable */
    unsigned surface;        /* SCENE_Q3_NODRAW | SKY | TRANS */
    char sky[64];            /* skyParms' farbox: images SKY_rt, _bk, _lf, _ft, _up, _dn; "" = none */
    char unsupported[SCENE_Q3_MAX_NOTES][64];  /* keywords that change the game's picture, not drawn */
    int unsupported_count;
    int file;                /* index of its script in load order */
} scene_q3_shader;
typedef struct scene_q3_scripts scene_q3_scripts;
/* Every scripts/NAME.shader of the archives, in name order: MOS_OK or MOS_ERR_OUT_OF_MEMORY; a malformed
 * script stops at its fault and the set keeps the first fault's "scripts/F.shader:LINE:COL: message". */
mos_result scene_q3_scripts_load(scene_pk3_set *pk3, scene_q3_scripts **out);
scene_q3_scripts *scene_q3_scripts_new(void);  /* empty (NULL when out of memory) */
/* Adds the shaders of the script FILE (TEXT, LEN bytes, no NUL needed): MOS_OK or MOS_ERR_OUT_OF_MEMORY. */
mos_result scene_q3_parse(scene_q3_scripts *s, const char *file, const char *text, size_t len);
void scene_q3_scripts_free(scene_q3_scripts *s);
/* The shader NAME (without case) as the game picks it: the last script in name order; NULL = none. */
const scene_q3_shader *scene_q3_find(const scene_q3_scripts *s, const char *name);
int scene_q3_scripts_files(const scene_q3_scripts *s);
int scene_q3_scripts_count(const scene_q3_scripts *s);
const char *scene_q3_scripts_error(const scene_q3_scripts *s);  /* the first fault, NULL = none */
int scene_q3_scripts_faults(const scene_q3_scripts *s);  /* malformed shaders and sections */

/* ---- bsp_sky.c: the sky box of skyParms' farbox */
extern const char *const scene_bsp_sky_suffix[6];  /* the faces' images: FARBOX_rt, _bk, _lf, _ft, _up, _dn */
/* The box around MAP's meshes (map space): its CENTRE and HALF size, every corner closer than FAR to any
 * point of the map where it can. */
void scene_bsp_sky_box(const scene_bsp_map *map, float far, float centre[3], float *half);
/* Face FACE (0..5, in scene_bsp_sky_suffix order) as a quad in M (SCENE_LIT_STRIDE, the image upright seen
 * from inside); 0, or -1 when out of memory. */
int scene_bsp_sky_face(int face, const float centre[3], float half, scene_mesh *m);

/* ---- bsp_look.c: a map material as Mosaic draws it (from its shader script, or the game's default) */
typedef struct scene_bsp_look {
    char image[64];        /* the image to read (its extension replaced as the game does) */
    bool scripted;         /* a shader script defines the material */
    bool skip;             /* not drawn: nodraw, sky (drawn as the sky box), or a blend Mosaic lacks */
    bool lit;              /* times the lightmap (else the image as it is) */
    bool clamp;            /* clampMap: clamp to edge */
    bool two_sided;
    mos_blend blend;
    float alpha_cutoff;    /* 0 = none */
    float tc_scale[2];
    const char *note;      /* what of the first stage is not drawn as the game does, NULL = nothing */
} scene_bsp_look;
/* The look of map material MATERIAL defined by SH (NULL: no script defines it). */
void scene_bsp_look_of(const char *material, const scene_q3_shader *sh, scene_bsp_look *look);
/* What a map's scripts ask that is not drawn: distinct notes with their counts. */
#define SCENE_BSP_TALLY_MAX 12
typedef struct scene_bsp_tally {
    char what[SCENE_BSP_TALLY_MAX][64];
    int n[SCENE_BSP_TALLY_MAX];
    int count, more, materials;  /* notes, notes past the table, materials with any */
} scene_bsp_tally;
void scene_bsp_tally_add(scene_bsp_tally *t, const char *what);
/* Adds SH's unsupported keywords and LOOK's note, counting the material once. */
void scene_bsp_tally_shader(scene_bsp_tally *t, const scene_q3_shader *sh, const scene_bsp_look *look);
/* "deformVertexes (3), tcMod scroll (2), ..." into OUT. */
void scene_bsp_tally_text(const scene_bsp_tally *t, char *out, size_t size);
/* The package that holds the images and scripts of the game folder FOLDER (its last component names the
 * game: baseoa is OpenArena), as a phrase for a warning; NULL when no package is known. */
const char *scene_bsp_package_hint(const char *folder);

/* ---- sandbox.c: the one door through which the scene loader opens files.  With SANDBOX (a canonical
 * folder, as realpath gives it) the path must resolve (symbolic links followed) inside it; always it must
 * be a regular file (opened with O_NONBLOCK, then fstat'd: a FIFO or device is refused without waiting)
 * of at most MAX_BYTES bytes (0 = no cap).  Errors: MOS_ERR_IO ("cannot open 'PATH': reason"),
 * MOS_ERR_PARSE ("path 'PATH' is outside the scene's sandbox", "path 'PATH' is not a regular file ..."),
 * MOS_ERR_BAD_SIZE (over the cap), MOS_ERR_OUT_OF_MEMORY; the message in err. */
/* Whether PATH, as written in a scene file, may name a file in the sandbox:
 * non-empty, relative, no '..' component. */
bool scene_sandbox_relative(const char *path);
/* Opens PATH for reading: *fd (close it), its size and identity (SIZE, ID may be NULL). */
mos_result scene_file_open(const char *sandbox, const char *path, uint64_t max_bytes, int *fd, uint64_t *size,
                           scene_file_id *id, char *err, size_t err_size);
/* The whole file (malloc'd, a NUL after its *size bytes); ID may be NULL. */
mos_result scene_file_read(const char *sandbox, const char *path, uint64_t max_bytes, uint8_t **data, size_t *size,
                           scene_file_id *id, char *err, size_t err_size);
/* MOS_OK when PATH opens as above (then closed again). */
mos_result scene_sandbox_check(const char *sandbox, const char *path, char *err, size_t err_size);

/* ---- parse.c (its pieces: parse_priv.h): fills S from F (named PATH in messages) under OPTS (never
 * NULL: sandbox_dir is canonical or NULL, max_triangles is set); on failure MOS_ERR_PARSE, MOS_ERR_IO or
 * MOS_ERR_OUT_OF_MEMORY with "file:line:col: message" in err */
mos_result scene_parse(scene *s, const char *path, FILE *f, const scene_load_opts *opts, char *err,
                       size_t err_size);

/* ---- xform.c: matrices */
void scene_mat4_identity(float m[16]);
void scene_mat4_mul(float out[16], const float a[16], const float b[16]);  /* out = a * b */
void scene_mat4_translate(float m[16], float x, float y, float z);
void scene_mat4_scale(float m[16], float x, float y, float z);
void scene_mat4_rotate(float m[16], float deg, float x, float y, float z);  /* axis need not be unit */
/* gluLookAt / gluPerspective (clip z in [-w, w]). */
void scene_look_at(float m[16], const float eye[3], const float target[3], const float up[3]);
void scene_perspective(float m[16], float fov_y_deg, float aspect, float n, float f);
/* Inverse transpose of mat3(M) as 3 padded columns (up to a positive scale);
 * returns det(mat3(M)): negative when M mirrors. */
float scene_normal_matrix(float out[12], const float m[16]);
/* The eye and target of camera C at scene time TAU (frames): its path's keys
 * interpolated linearly, held before the first key and after the last;
 * without a path its eye and target. */
void scene_camera_pose_at(const scene_camera *c, double tau, float eye[3], float target[3]);

/* ---- export.c: the one walk over a frame's draws (scene_draw and scene_export_frame use it) */
typedef struct scene_walk_src {
    const scene_object *objects;
    int object_count;
    const scene_camera *cameras;
    int camera_count;
    const scene_light *lights;
    int light_count;
    const float *ambient;  /* rgb */
} scene_walk_src;

/* One instance of one object, with the uniforms and state mos_draw gets. */
typedef struct scene_walk_draw {
    const scene_object *object;
    int object_index, instance;
    const shader_builtin_uniforms *uniforms;     /* at shutter open */
    const shader_builtin_uniforms *uniforms_t1;  /* at shutter close; NULL = no motion */
    bool depth_test, depth_write;  /* depth test is less-than */
    mos_cull cull;
    mos_blend blend;
} scene_walk_draw;

/* The lens of view opts->view of CAMERAS (aperture, focus, field of view,
 * aspect; opts' overrides and pose first; a path's pose at the middle of the
 * shutter interval) as mos_blur_desc lens_x / lens_y / focus_w:
 * scene_frame_lens and scene_lens. */
mos_result scene_camera_lens(const scene_camera *cameras, int camera_count, const scene_draw_opts *opts,
                             mos_blur_desc *b);

/* Calls FN for every draw of one frame, in submission order; stops at the
 * first result other than MOS_OK and returns it.  MOS_ERR_INVALID_ARGUMENT
 * for a bad view.  The frame sees scene times opts->time + open and + close
 * (the shutter): objects and a camera path that differ between the two are
 * drawn with motion (uniforms at open, uniforms_t1 at close). */
mos_result scene_walk(const scene_walk_src *src, const scene_draw_opts *opts,
                      mos_result (*fn)(const scene_walk_draw *d, void *user), void *user);

#endif
