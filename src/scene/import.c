/* import.c — mesh files through assimp's C API (flattened to one array) and textures through image/read.c.
 * Fed by the scene parser with resolved paths; feeds scene meshes and images. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "image/image.h"
#include "scene/scene_priv.h"

#define STRIDE SHADER_BUILTIN_STRIDE

/* fopen first, so a missing file reads "No such file or directory" rather
 * than an importer's guess. */
static int check_readable(const char *path, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "cannot open '%s': %s", path, strerror(errno));
        return MOS_ERR_PARSE;
    }
    fclose(f);
    return MOS_OK;
}

/* ---- assimp's file access in a sandbox: every file it opens (the mesh and
 * what the mesh names: OBJ materials, glTF buffers) must pass
 * scene_sandbox_check (aiFileIO.UserData is the sandbox folder); read only. */

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
    if (strpbrk(mode, "wa+") || scene_sandbox_check(io->UserData, path, msg, sizeof msg) != MOS_OK)
        return NULL;
    struct aiFile *f = malloc(sizeof *f);
    FILE *fp = f ? fopen(path, "rb") : NULL;
    if (!fp) {
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

mos_result scene_import_mesh(const char *path, const char *sandbox, scene_mesh *m, char *err, size_t err_size)
{
    memset(m, 0, sizeof *m);
    if (check_readable(path, err, err_size))
        return MOS_ERR_IO;
    const unsigned flags = aiProcess_Triangulate | aiProcess_GenSmoothNormals |
                           aiProcess_JoinIdenticalVertices | aiProcess_PreTransformVertices |
                           aiProcess_SortByPType;
    struct aiFileIO io = { sandbox_open, sandbox_close, (aiUserData)sandbox };
    const struct aiScene *sc = sandbox ? aiImportFileEx(path, flags, &io) : aiImportFile(path, flags);
    if (!sc) {
        snprintf(err, err_size, "cannot import '%s': %s", path, aiGetErrorString());
        return MOS_ERR_PARSE;
    }
    uint64_t verts = 0, tris = 0;
    for (unsigned i = 0; i < sc->mNumMeshes; i++) {
        const struct aiMesh *am = sc->mMeshes[i];
        if (!(am->mPrimitiveTypes & aiPrimitiveType_TRIANGLE))
            continue;
        verts += am->mNumVertices;
        for (unsigned f = 0; f < am->mNumFaces; f++)
            tris += am->mFaces[f].mNumIndices == 3;
    }
    if (tris == 0) {
        snprintf(err, err_size, "'%s' holds no triangles", path);
        aiReleaseImport(sc);
        return MOS_ERR_PARSE;
    }
    if (tris > SCENE_MAX_MESH_TRIANGLES || verts > UINT32_MAX / 2) {
        snprintf(err, err_size, "'%s' has %llu triangles; at most %u are allowed per mesh", path,
                 (unsigned long long)tris, SCENE_MAX_MESH_TRIANGLES);
        aiReleaseImport(sc);
        return MOS_ERR_PARSE;
    }
    m->verts = malloc((size_t)verts * STRIDE * sizeof(float));
    m->indices = malloc((size_t)tris * 3 * sizeof(uint32_t));
    if (!m->verts || !m->indices) {
        scene_mesh_free(m);
        aiReleaseImport(sc);
        snprintf(err, err_size, "out of memory importing '%s'", path);
        return MOS_ERR_OUT_OF_MEMORY;
    }
    for (unsigned i = 0; i < sc->mNumMeshes; i++) {
        const struct aiMesh *am = sc->mMeshes[i];
        if (!(am->mPrimitiveTypes & aiPrimitiveType_TRIANGLE))
            continue;
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
    aiReleaseImport(sc);
    return MOS_OK;
}

mos_result scene_import_image(const char *path, scene_image *img, char *err, size_t err_size)
{
    memset(img, 0, sizeof *img);
    img_rgba8 im;
    mos_result r = img_read(path, &im, err, err_size);
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
