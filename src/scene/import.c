/* import.c — mesh files through assimp's C API (one part per material run, with the material's colour,
 * texture, alpha mode and sides; embedded textures decoded) and textures through image/read.c.
 * Fed by the scene parser with resolved paths; feeds scene meshes and images. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <assimp/GltfMaterial.h>
#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/material.h>
#include <assimp/scene.h>

#include "image/image.h"
#include "scene/scene_priv.h"

#define STRIDE SHADER_BUILTIN_STRIDE

/* ---- assimp's file access: every file it opens (the mesh and what the mesh names: OBJ materials,
 * glTF buffers and images) goes through scene_file_open (aiFileIO.UserData is the sandbox folder or
 * NULL): inside the sandbox if there is one, a regular file, never a FIFO; read only. */

static size_t sandbox_read(struct aiFile *f, char *buf, size_t size, size_t count)
{
    return fread(buf, size, count, (FILE *)f->UserData);
}

static size_t sandbox_write(struct aiFile *f, const char *buf, size_t size, size_t count)
{
    return 0;
}

static size_t sandbox_tell(struct aiFile *f)
{
    long pos = ftell((FILE *)f->UserData);
    return pos < 0 ? 0 : (size_t)pos;
}

static size_t sandbox_size(struct aiFile *f)
{
    struct stat st;
    return fstat(fileno((FILE *)f->UserData), &st) == 0 && st.st_size > 0 ? (size_t)st.st_size : 0;
}

static enum aiReturn sandbox_seek(struct aiFile *f, size_t offset, enum aiOrigin origin)
{
    int whence = origin == aiOrigin_SET ? SEEK_SET : origin == aiOrigin_CUR ? SEEK_CUR : SEEK_END;
    if (offset > LONG_MAX)
        return aiReturn_FAILURE;
    return fseek((FILE *)f->UserData, (long)offset, whence) == 0 ? aiReturn_SUCCESS : aiReturn_FAILURE;
}

static void sandbox_flush(struct aiFile *f) {}

static struct aiFile *sandbox_open(struct aiFileIO *io, const char *path, const char *mode)
{
    char msg[8];
    int fd;
    if (strpbrk(mode, "wa+") || scene_file_open(io->UserData, path, 0, &fd, NULL, NULL, msg, sizeof msg) != MOS_OK)
        return NULL;
    struct aiFile *f = malloc(sizeof *f);
    FILE *fp = f ? fdopen(fd, "rb") : NULL;
    if (!fp) {
        close(fd);
        free(f);
        return NULL;
    }
    *f = (struct aiFile){ sandbox_read, sandbox_write, sandbox_tell, sandbox_size, sandbox_seek, sandbox_flush,
                          (aiUserData)fp };
    return f;
}

static void sandbox_close(struct aiFileIO *io, struct aiFile *f)
{
    fclose((FILE *)f->UserData);
    free(f);
}

/* ---- assimp on a thread of its own with a large stack: its importers recurse over the file's structure
 * (node trees, nested blocks), so a deep file needs more than a caller's thread may have. */

#define IMPORT_STACK_BYTES ((size_t)256 << 20)

typedef struct import_job {
    const char *path;
    unsigned flags;  /* post-processing, after the import is checked */
    struct aiFileIO *io;
    const struct aiScene *scene;
    char msg[512];
} import_job;

/* What assimp's post-processing asserts (ai_assert aborts the process in Debian's build) or
 * assumes but its importers do not ensure: every face has indices, each below the mesh's vertex
 * count, of a primitive type the mesh declares (assimp's ValidateDataStructure passes an empty
 * face); every node names meshes that exist.  NULL, or what is wrong. */
static const char *bad_faces(const struct aiScene *sc, char *msg, size_t size)
{
    /* The nodes, iteratively (their tree may be deep), at most 2^24 of them. */
    const struct aiNode **stack = NULL;
    size_t sp = 0, cap = 0, visited = 0;
    const char *bad = NULL;
    if (sc->mRootNode) {
        if (!(stack = malloc((cap = 256) * sizeof *stack)))
            return snprintf(msg, size, "out of memory"), msg;
        stack[sp++] = sc->mRootNode;
    }
    while (sp && !bad) {
        const struct aiNode *nd = stack[--sp];
        if (++visited > (1u << 24)) {
            snprintf(msg, size, "more than %u nodes", 1u << 24);
            bad = msg;
            break;
        }
        for (unsigned k = 0; k < nd->mNumMeshes && !bad; k++)
            if (!nd->mMeshes || nd->mMeshes[k] >= sc->mNumMeshes) {
                snprintf(msg, size, "node '%.60s' names mesh %u of %u", nd->mName.data, nd->mMeshes ? nd->mMeshes[k] : 0,
                         sc->mNumMeshes);
                bad = msg;
            }
        for (unsigned k = 0; k < nd->mNumChildren && nd->mChildren && !bad; k++) {
            if (!nd->mChildren[k])
                continue;
            if (sp == cap) {
                const struct aiNode **g = realloc(stack, (cap *= 2) * sizeof *stack);
                if (!g) {
                    snprintf(msg, size, "out of memory");
                    bad = msg;
                    break;
                }
                stack = g;
            }
            stack[sp++] = nd->mChildren[k];
        }
    }
    free(stack);
    if (bad)
        return bad;
    for (unsigned i = 0; i < sc->mNumMeshes; i++) {
        const struct aiMesh *m = sc->mMeshes[i];
        if (!m || (m->mNumFaces && !m->mFaces)) {
            snprintf(msg, size, "mesh %u has no faces array", i);
            return msg;
        }
        for (unsigned f = 0; f < m->mNumFaces; f++) {
            const struct aiFace *face = &m->mFaces[f];
            const unsigned n = face->mNumIndices;
            const unsigned type = n == 1 ? aiPrimitiveType_POINT : n == 2 ? aiPrimitiveType_LINE
                                : n == 3 ? aiPrimitiveType_TRIANGLE : aiPrimitiveType_POLYGON;
            if (n == 0 || !face->mIndices) {
                snprintf(msg, size, "mesh %u face %u has no vertex indices", i, f);
                return msg;
            }
            if (!(m->mPrimitiveTypes & type)) {
                snprintf(msg, size, "mesh %u face %u has %u vertex indices, a primitive type the mesh does not "
                         "declare", i, f, n);
                return msg;
            }
            for (unsigned k = 0; k < n; k++)
                if (face->mIndices[k] >= m->mNumVertices) {
                    snprintf(msg, size, "mesh %u face %u names vertex %u of %u", i, f, face->mIndices[k],
                             m->mNumVertices);
                    return msg;
                }
        }
    }
    return NULL;
}

/* Imports without post-processing and checks what post-processing takes for granted, then imports
 * again with it.  Twice: aiApplyPostProcessing cannot be used on the first import (when a step
 * fails it releases the scene twice, a crash in assimp 5.2.5).  Not with assimp's
 * ValidateDataStructure: it reads a material's shininess into one float whatever the file made it
 * (a stack overflow on test_materials' hostile materials), and refuses files that import fine, e.g.
 * an STL holding an empty solid. */
static void *import_run(void *arg)
{
    import_job *j = arg;
    const struct aiScene *sc = aiImportFileEx(j->path, 0, j->io);
    if (!sc) {
        snprintf(j->msg, sizeof j->msg, "%s", aiGetErrorString());
        return NULL;
    }
    char why[160];
    const bool bad = bad_faces(sc, why, sizeof why) != NULL;
    aiReleaseImport(sc);
    if (bad) {
        snprintf(j->msg, sizeof j->msg, "%s", why);
        return NULL;
    }
    j->scene = aiImportFileEx(j->path, j->flags, j->io);
    if (!j->scene)
        snprintf(j->msg, sizeof j->msg, "%s", aiGetErrorString());
    return NULL;
}

static void import_on_big_stack(import_job *j)
{
    pthread_attr_t attr;
    pthread_t t;
    bool started = false;
    if (pthread_attr_init(&attr) == 0) {
        started = pthread_attr_setstacksize(&attr, IMPORT_STACK_BYTES) == 0 &&
                  pthread_create(&t, &attr, import_run, j) == 0;
        pthread_attr_destroy(&attr);
    }
    if (started)
        pthread_join(t, NULL);
    else
        import_run(j);  /* no room for the thread: on the caller's stack */
}

/* ---- materials ---------------------------------------------------------------- */

/* Appends "what" to the material's list of properties Mosaic does not render. */
static void note_ignored(scene_material *m, const char *what)
{
    size_t n = strlen(m->ignored);
    snprintf(m->ignored + n, sizeof m->ignored - n, "%s%s", n ? ", " : "", what);
}

/* A texture path as the file writes it, resolved against the mesh file's
 * folder (backslashes of Windows exports taken as separators); NULL when out
 * of memory. */
static char *texture_path(const char *mesh_path, const char *name)
{
    char rel[1024];
    snprintf(rel, sizeof rel, "%s", name);
    for (char *c = rel; *c; c++)
        if (*c == '\\')
            *c = '/';
    const char *r = rel;
    while (r[0] == '.' && r[1] == '/')
        r += 2;
    const char *slash = strrchr(mesh_path, '/');
    size_t dir = *r == '/' || !slash ? 0 : (size_t)(slash - mesh_path + 1);
    size_t len = dir + strlen(r) + 1;
    char *out = malloc(len);
    if (out)
        snprintf(out, len, "%.*s%s", (int)dir, mesh_path, r);
    return out;
}

/* What assimp's material MAT of the mesh file PATH says (base colour,
 * texture, alpha mode, sides).  false when out of memory. */
static bool read_material(const char *path, const struct aiMaterial *mat, scene_material *m)
{
    memset(m, 0, sizeof *m);
    m->embedded = -1;
    m->color[0] = m->color[1] = m->color[2] = m->color[3] = 1.0f;
    struct aiString name;
    if (aiGetMaterialString(mat, AI_MATKEY_NAME, &name) == AI_SUCCESS) {
        snprintf(m->name, sizeof m->name, "%.*s", (int)sizeof m->name - 1, name.data);
        m->named = strcmp(name.data, AI_DEFAULT_MATERIAL_NAME) != 0;
    }
    struct aiColor4D c;
    if (aiGetMaterialColor(mat, AI_MATKEY_BASE_COLOR, &c) == AI_SUCCESS ||
        aiGetMaterialColor(mat, AI_MATKEY_COLOR_DIFFUSE, &c) == AI_SUCCESS) {
        const float v[4] = { c.r, c.g, c.b, c.a };
        for (int k = 0; k < 4; k++)
            m->color[k] = v[k] >= 0.0f ? (v[k] <= 1.0f ? v[k] : 1.0f) : 0.0f;  /* NaN too */
    }
    /* One value each: assimp writes as many as the property holds unless
     * told the room (a file can make them arrays). */
    unsigned one = 1;
    float opacity;
    if (aiGetMaterialFloatArray(mat, AI_MATKEY_OPACITY, &opacity, &one) == AI_SUCCESS && opacity >= 0.0f &&
        opacity < 1.0f)
        m->color[3] *= opacity;
    int two = 0;
    one = 1;
    m->two_sided = aiGetMaterialIntegerArray(mat, AI_MATKEY_TWOSIDED, &two, &one) == AI_SUCCESS ? two != 0 : -1;
    /* Alpha: glTF says it; other formats: an opacity below 1 blends, an
     * opacity map cuts out at one half (from the base texture's alpha). */
    m->alpha_mode = m->color[3] < 1.0f ? SCENE_ALPHA_BLEND : SCENE_ALPHA_OPAQUE;
    m->alpha_cutoff = 0.5f;
    struct aiString mode;
    if (aiGetMaterialString(mat, AI_MATKEY_GLTF_ALPHAMODE, &mode) == AI_SUCCESS) {
        m->alpha_mode = !strcmp(mode.data, "MASK") ? SCENE_ALPHA_MASK
                      : !strcmp(mode.data, "BLEND") ? SCENE_ALPHA_BLEND : SCENE_ALPHA_OPAQUE;
        float cut;
        one = 1;
        if (aiGetMaterialFloatArray(mat, AI_MATKEY_GLTF_ALPHACUTOFF, &cut, &one) == AI_SUCCESS && cut >= 0.0f &&
            cut <= 1.0f)
            m->alpha_cutoff = cut;
    } else if (aiGetMaterialTextureCount(mat, aiTextureType_OPACITY) > 0) {
        m->alpha_mode = SCENE_ALPHA_MASK;
    }
    struct aiString tex;
    enum aiTextureMapMode map[3] = { aiTextureMapMode_Wrap, aiTextureMapMode_Wrap, aiTextureMapMode_Wrap };  /* u v w */
    if (aiGetMaterialTexture(mat, aiTextureType_BASE_COLOR, 0, &tex, NULL, NULL, NULL, NULL, map, NULL) == AI_SUCCESS ||
        aiGetMaterialTexture(mat, aiTextureType_DIFFUSE, 0, &tex, NULL, NULL, NULL, NULL, map, NULL) == AI_SUCCESS) {
        for (int k = 0; k < 2; k++)  /* glTF samplers' wrapS / wrapT; decal clamps */
            m->wrap[k] = map[k] == aiTextureMapMode_Mirror ? MOS_WRAP_MIRRORED_REPEAT
                       : map[k] == aiTextureMapMode_Clamp || map[k] == aiTextureMapMode_Decal ? MOS_WRAP_CLAMP_TO_EDGE
                                                                                            : MOS_WRAP_REPEAT;
        if (tex.data[0] == '*') {
            char *end;
            long i = strtol(tex.data + 1, &end, 10);
            m->embedded = *end == '\0' && i >= 0 && i < INT_MAX ? (int)i : -1;
            if (m->embedded < 0)
                note_ignored(m, "unreadable embedded texture name");
        } else if (tex.data[0] && !(m->texture = texture_path(path, tex.data))) {
            return false;
        }
    }
    static const struct { enum aiTextureType type; const char *what; } unused[] = {
        { aiTextureType_NORMALS, "normal map" }, { aiTextureType_HEIGHT, "height map" },
        { aiTextureType_SPECULAR, "specular map" }, { aiTextureType_EMISSIVE, "emissive map" },
        { aiTextureType_METALNESS, "metalness map" }, { aiTextureType_DIFFUSE_ROUGHNESS, "roughness map" },
        { aiTextureType_AMBIENT_OCCLUSION, "occlusion map" }, { aiTextureType_LIGHTMAP, "light map" },
    };
    for (size_t i = 0; i < sizeof unused / sizeof unused[0]; i++)
        if (aiGetMaterialTextureCount(mat, unused[i].type) > 0)
            note_ignored(m, unused[i].what);
    return true;
}

/* Decodes embedded texture T (compressed file bytes, or BGRA texels) as IMG. */
static mos_result read_embedded(const char *path, int index, const struct aiTexture *t, scene_image *img, char *err,
                                size_t err_size)
{
    memset(img, 0, sizeof *img);
    char name[1100];
    snprintf(name, sizeof name, "%s#%d", path, index);
    if (t->mHeight == 0) {
        img_rgba8 im;
        char hinted[1200];
        snprintf(hinted, sizeof hinted, "%s.%s", name, t->achFormatHint[0] ? t->achFormatHint : "bin");
        mos_result r = img_decode((const uint8_t *)t->pcData, t->mWidth, hinted, &im, err, err_size);
        if (r != MOS_OK)
            return r;
        img->width = im.width;
        img->height = im.height;
        img->rgba = im.pixels;
    } else {
        if (t->mWidth > IMG_MAX_SIDE || t->mHeight > IMG_MAX_SIDE ||
            (uint64_t)t->mWidth * t->mHeight > IMG_MAX_PIXELS) {
            snprintf(err, err_size, "%.400s: embedded texture of %ux%u pixels is too large", name, t->mWidth, t->mHeight);
            return MOS_ERR_BAD_SIZE;
        }
        size_t n = (size_t)t->mWidth * t->mHeight;
        img->rgba = malloc(n * 4);
        if (!img->rgba) {
            snprintf(err, err_size, "out of memory decoding %.400s", name);
            return MOS_ERR_OUT_OF_MEMORY;
        }
        for (size_t i = 0; i < n; i++) {
            img->rgba[4 * i + 0] = t->pcData[i].r;
            img->rgba[4 * i + 1] = t->pcData[i].g;
            img->rgba[4 * i + 2] = t->pcData[i].b;
            img->rgba[4 * i + 3] = t->pcData[i].a;
        }
        img->width = (int)t->mWidth;
        img->height = (int)t->mHeight;
    }
    img->path = strdup(name);
    if (!img->path) {
        free(img->rgba);
        img->rgba = NULL;
        snprintf(err, err_size, "out of memory decoding %.400s", name);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    return MOS_OK;
}

void scene_import_free(scene_import *im)
{
    for (int i = 0; i < im->part_count; i++) {
        if (im->parts)
            scene_mesh_free(&im->parts[i]);
        if (im->materials)
            free(im->materials[i].texture);
    }
    for (int i = 0; i < im->embedded_count; i++)
        scene_image_free(&im->embedded[i]);
    free(im->parts);
    free(im->materials);
    free(im->embedded);
    memset(im, 0, sizeof *im);
}

/* The triangles of assimp mesh AM appended to M (built-in vertex layout). */
static void append_mesh(scene_mesh *m, const struct aiMesh *am)
{
    const uint32_t base = m->vert_count;
    for (unsigned v = 0; v < am->mNumVertices; v++) {
        float *o = m->verts + (size_t)(base + v) * STRIDE;
        o[0] = am->mVertices[v].x;
        o[1] = am->mVertices[v].y;
        o[2] = am->mVertices[v].z;
        if (am->mNormals) {
            o[3] = am->mNormals[v].x;
            o[4] = am->mNormals[v].y;
            o[5] = am->mNormals[v].z;
        } else {
            o[3] = 0, o[4] = 1, o[5] = 0;
        }
        if (am->mTextureCoords[0]) {
            o[6] = am->mTextureCoords[0][v].x;
            o[7] = am->mTextureCoords[0][v].y;
        } else {
            o[6] = o[7] = 0;
        }
        /* NaN normals (degenerate faces) become harmless zeros. */
        for (int k = 0; k < STRIDE; k++)
            if (o[k] != o[k])
                o[k] = 0;
    }
    m->vert_count += am->mNumVertices;
    for (unsigned f = 0; f < am->mNumFaces; f++) {
        const struct aiFace *face = &am->mFaces[f];
        if (face->mNumIndices != 3)
            continue;
        for (int k = 0; k < 3; k++) {
            unsigned idx = face->mIndices[k];
            m->indices[m->index_count++] = base + (idx < am->mNumVertices ? idx : 0);
        }
    }
}

static bool has_triangles(const struct aiMesh *am) { return (am->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) != 0; }

static unsigned mesh_triangles(const struct aiMesh *am)
{
    unsigned t = 0;
    for (unsigned f = 0; f < am->mNumFaces; f++)
        t += am->mFaces[f].mNumIndices == 3;
    return t;
}

mos_result scene_import_mesh(const char *path, const char *sandbox, uint64_t max_tris, scene_import *im, char *err,
                             size_t err_size)
{
    memset(im, 0, sizeof *im);
    /* Opened here first: a missing file reads "No such file or directory" rather than an importer's
     * guess, and what assimp would trust in its header is checked before assimp reads it. */
    int fd;
    uint64_t size;
    mos_result pre = scene_file_open(sandbox, path, 0, &fd, &size, NULL, err, err_size);
    if (pre != MOS_OK)
        return pre;
    pre = scene_mesh_precheck(fd, size, path, max_tris, err, err_size);
    close(fd);
    if (pre != MOS_OK)
        return pre;
    /* After the import is validated and its faces checked (import_run). */
    const unsigned flags = aiProcess_Triangulate | aiProcess_GenSmoothNormals |
                           aiProcess_JoinIdenticalVertices | aiProcess_PreTransformVertices |
                           aiProcess_SortByPType;
    struct aiFileIO io = { sandbox_open, sandbox_close, (aiUserData)sandbox };
    import_job job = { .path = path, .flags = flags, .io = &io };
    import_on_big_stack(&job);
    const struct aiScene *sc = job.scene;
    if (!sc) {
        snprintf(err, err_size, "cannot import '%s': %s", path, job.msg);
        return MOS_ERR_PARSE;
    }
    /* Parts: runs of consecutive meshes of one material, in file order. */
    uint64_t verts = 0, tris = 0;
    int parts = 0;
    unsigned last_mat = 0;
    for (unsigned i = 0; i < sc->mNumMeshes; i++) {
        const struct aiMesh *am = sc->mMeshes[i];
        if (!has_triangles(am))
            continue;
        verts += am->mNumVertices;
        tris += mesh_triangles(am);
        parts += parts == 0 || am->mMaterialIndex != last_mat;
        last_mat = am->mMaterialIndex;
    }
    mos_result r = MOS_OK;
    if (tris == 0) {
        snprintf(err, err_size, "'%s' holds no triangles", path);
        r = MOS_ERR_PARSE;
    } else if (tris > SCENE_MAX_MESH_TRIANGLES || verts > UINT32_MAX / 2) {
        snprintf(err, err_size, "'%s' has %llu triangles; at most %u are allowed per mesh", path,
                 (unsigned long long)tris, SCENE_MAX_MESH_TRIANGLES);
        r = MOS_ERR_PARSE;
    }
    if (r == MOS_OK) {
        im->parts = calloc((size_t)parts, sizeof *im->parts);
        im->materials = calloc((size_t)parts, sizeof *im->materials);
        im->embedded = calloc(sc->mNumTextures + 1u, sizeof *im->embedded);
        r = im->parts && im->materials && im->embedded ? MOS_OK : MOS_ERR_OUT_OF_MEMORY;
    }
    for (unsigned i = 0, first = 0; r == MOS_OK && i < sc->mNumMeshes; i = first) {
        /* The run of meshes [first, end) sharing meshes[first]'s material. */
        while (first < sc->mNumMeshes && !has_triangles(sc->mMeshes[first]))
            first++;
        if (first == sc->mNumMeshes)
            break;
        const unsigned mat = sc->mMeshes[first]->mMaterialIndex;
        uint64_t rv = 0, rt = 0;
        unsigned end = first;
        for (; end < sc->mNumMeshes; end++) {
            const struct aiMesh *am = sc->mMeshes[end];
            if (!has_triangles(am))
                continue;
            if (am->mMaterialIndex != mat)
                break;
            rv += am->mNumVertices;
            rt += mesh_triangles(am);
        }
        scene_mesh *m = &im->parts[im->part_count];
        scene_material *mm = &im->materials[im->part_count];
        im->part_count++;
        m->verts = malloc((size_t)rv * STRIDE * sizeof(float));
        m->indices = malloc((size_t)rt * 3 * sizeof(uint32_t));
        if (!m->verts || !m->indices) {
            r = MOS_ERR_OUT_OF_MEMORY;
            break;
        }
        for (unsigned k = first; k < end; k++)
            if (has_triangles(sc->mMeshes[k]))
                append_mesh(m, sc->mMeshes[k]);
        if (mat < sc->mNumMaterials) {
            if (!read_material(path, sc->mMaterials[mat], mm))
                r = MOS_ERR_OUT_OF_MEMORY;
        } else {
            memset(mm, 0, sizeof *mm);
            mm->embedded = -1;
            mm->two_sided = -1;
            mm->color[0] = mm->color[1] = mm->color[2] = mm->color[3] = 1.0f;
        }
        first = end;
    }
    /* Embedded textures: one that does not decode is kept as its message
     * (rgba NULL), for the parser to warn about and draw magenta. */
    for (unsigned i = 0; r == MOS_OK && i < sc->mNumTextures; i++) {
        char msg[512];
        mos_result e = read_embedded(path, (int)i, sc->mTextures[i], &im->embedded[i], msg, sizeof msg);
        if (e == MOS_ERR_OUT_OF_MEMORY)
            r = e;
        else if (e != MOS_OK && !(im->embedded[i].path = strdup(msg)))
            r = MOS_ERR_OUT_OF_MEMORY;
        im->embedded_count += r == MOS_OK;
    }
    if (r == MOS_ERR_OUT_OF_MEMORY)
        snprintf(err, err_size, "out of memory importing '%s'", path);
    aiReleaseImport(sc);
    if (r != MOS_OK)
        scene_import_free(im);
    return r;
}

mos_result scene_import_image(int fd, uint64_t size, const char *path, scene_image *img, char *err, size_t err_size)
{
    memset(img, 0, sizeof *img);
    if (size > IMG_MAX_FILE_BYTES) {
        snprintf(err, err_size, "%s: %llu bytes; an image file is at most %zu", path, (unsigned long long)size,
                 IMG_MAX_FILE_BYTES);
        return MOS_ERR_BAD_SIZE;
    }
    uint8_t *data = malloc((size_t)size + 1);
    if (!data) {
        snprintf(err, err_size, "out of memory reading %s", path);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    size_t got = 0;
    while (got < size) {
        ssize_t n = pread(fd, data + got, (size_t)size - got, (off_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    img_rgba8 im;
    mos_result r = img_decode(data, got, path, &im, err, err_size);
    free(data);
    if (r != MOS_OK)
        return r;
    img->width = im.width;
    img->height = im.height;
    img->rgba = im.pixels;
    return MOS_OK;
}

void scene_image_free(scene_image *img)
{
    free(img->rgba);
    free(img->path);
    memset(img, 0, sizeof *img);
}
