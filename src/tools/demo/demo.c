/* demo.c — mosaic-demo: libmosaic embedded the way a demo uses it.  An SDL2
 * window, a frame loop that follows the window's size, and an animated scene
 * drawn through include/mosaic.h alone (linked against the installed-style
 * static library, build/dist/libmosaic.a):
 *   - a floor and a turning cube in GLSL (shaders/builtin.vert and
 *     shaders/lambert.frag, compiled to SPIR-V at build time by
 *     `mosaic shader --spirv`, embedded as demo_spv.h),
 *   - a sliding block in a native C shader, motion-blurred: its draw carries
 *     its uniforms at shutter close (mos_draw_desc.uniforms_t1).
 * The uniform block is the std140 one of shaders/builtin.vert, and the
 * geometry and matrices are computed as `mosaic render` computes those of a
 * scene file, so test/demo.scene renders the very same frame (test_demo.sh).
 *
 *   mosaic-demo [--size WxH] [--spp S] [--threads N] [--frames N --dt S]
 *               [--resize-at F WxH] [--screenshot OUT.png]
 * Without --frames it runs until the window closes (Esc, q), animated by the
 * clock; with it, frame f shows time f * dt and the last frame is written. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>
#include <png.h>

#include "mosaic.h"
#include "demo_spv.h"  /* demo_vert_spv[], demo_frag_spv[] (generated) */

#define DEG2RAD 0.017453292519943295f
#define EXPOSURE 0.125f  /* seconds the shutter stays open: the blur's length */

/* shaders/builtin.vert's uniform block (std140). */
typedef struct uniforms {
    float mvp[16], model[16], normal_matrix[12];  /* column-major; mat3 as 3 padded columns */
    float base_color[4], light_dir[4][4], light_color[4][4], ambient[4];
    int fma;
    float fma_k, fma_c, fma_zero, alpha_cutoff;
} uniforms;

/* ---- matrices: column-major, m[col * 4 + row] ------------------------------ */
static void mat_identity(float m[16])
{
    memset(m, 0, 16 * sizeof(float));
    m[0] = m[5] = m[10] = m[15] = 1.0f;
}

static void mat_mul(float out[16], const float a[16], const float b[16])
{
    float r[16];
    for (int c = 0; c < 4; c++)
        for (int w = 0; w < 4; w++)
            r[c * 4 + w] = a[w] * b[c * 4] + a[4 + w] * b[c * 4 + 1] + a[8 + w] * b[c * 4 + 2] +
                           a[12 + w] * b[c * 4 + 3];
    memcpy(out, r, sizeof r);
}

/* m = translate(x, y, z) * rotate(deg about y), composed as a scene file's
 * `rotate DEG 0 1 0` then `translate X Y Z` lines are (each one left of the
 * ones before; a line of 0 is left out, as the scene leaves it out). */
static void place(float m[16], float deg, float x, float y, float z)
{
    float r[16], t[16];
    mat_identity(m);
    if (deg != 0.0f) {
        const float c = cosf(deg * DEG2RAD), s = sinf(deg * DEG2RAD), k = 1.0f - c;
        mat_identity(r);
        r[0] = 0.0f * k + c, r[8] = 0.0f * k + s, r[2] = 0.0f * k - s, r[10] = 0.0f * k + c;
        r[5] = 1.0f * k + c;
        r[4] = r[1] = r[6] = r[9] = 0.0f;
        mat_mul(m, r, m);
    }
    if (x != 0.0f || y != 0.0f || z != 0.0f) {
        mat_identity(t);
        t[12] = x, t[13] = y, t[14] = z;
        mat_mul(m, t, m);
    }
}

/* The transform at shutter time t of an object placed at M moving by V per
 * shutter interval (how `mosaic render` blends a scene object's). */
static void at_time(float out[16], const float m[16], const float v[3], float t)
{
    for (int k = 0; k < 16; k++) out[k] = m[k] + t * (m[k] - m[k]);
    for (int k = 0; k < 3; k++) out[12 + k] += t * v[k];
}

static void normalize3(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0f)
        v[0] /= l, v[1] /= l, v[2] /= l;
}

/* gluLookAt(eye, target, up = +y) then gluPerspective. */
static void camera(float vp[16], const float eye[3], const float target[3], float fov, float aspect,
                   float n, float f)
{
    float fw[3] = { target[0] - eye[0], target[1] - eye[1], target[2] - eye[2] }, s[3], u[3], v[16], p[16];
    const float up[3] = { 0, 1, 0 };
    normalize3(fw);
    s[0] = fw[1] * up[2] - fw[2] * up[1], s[1] = fw[2] * up[0] - fw[0] * up[2], s[2] = fw[0] * up[1] - fw[1] * up[0];
    normalize3(s);
    u[0] = s[1] * fw[2] - s[2] * fw[1], u[1] = s[2] * fw[0] - s[0] * fw[2], u[2] = s[0] * fw[1] - s[1] * fw[0];
    mat_identity(v);
    for (int i = 0; i < 3; i++)
        v[i * 4 + 0] = s[i], v[i * 4 + 1] = u[i], v[i * 4 + 2] = -fw[i];
    v[12] = -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]);
    v[13] = -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
    v[14] = fw[0] * eye[0] + fw[1] * eye[1] + fw[2] * eye[2];
    const float t = 1.0f / tanf(0.5f * fov * DEG2RAD);
    memset(p, 0, sizeof p);
    p[0] = t / aspect, p[5] = t, p[10] = (f + n) / (n - f), p[11] = -1.0f, p[14] = 2.0f * f * n / (n - f);
    mat_mul(vp, p, v);
}

/* The inverse transpose of mat3(m) up to a positive factor (the shader renormalizes). */
static void normal_matrix(float out[12], const float m[16])
{
    const float a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6], i = m[10];
    const float A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
    const float D = -(b * i - c * h), E = a * i - c * g, F = -(a * h - b * g);
    const float G = b * f - c * e, H = -(a * f - c * d), I = a * e - b * d;
    const float k = a * A + b * B + c * C < 0.0f ? -1.0f : 1.0f;
    memset(out, 0, 12 * sizeof(float));
    out[0] = A * k, out[1] = B * k, out[2] = C * k;
    out[4] = D * k, out[5] = E * k, out[6] = F * k;
    out[8] = G * k, out[9] = H * k, out[10] = I * k;
}

/* ---- geometry: 8 floats per vertex (position, normal, uv) ------------------ */
typedef struct mesh { float v[24 * 8]; uint32_t idx[36]; int nv, ni; mos_buffer vb, ib; } mesh;

static void put(mesh *m, const float p[3], const float n[3], float u, float v)
{
    float *o = m->v + 8 * m->nv++;
    o[0] = p[0], o[1] = p[1], o[2] = p[2], o[3] = n[0], o[4] = n[1], o[5] = n[2], o[6] = u, o[7] = v;
}

static void quad(mesh *m, uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e, uint32_t f)
{
    uint32_t *o = m->idx + m->ni;
    o[0] = a, o[1] = b, o[2] = c, o[3] = d, o[4] = e, o[5] = f;
    m->ni += 6;
}

/* A box of edge SIZE centred at the origin: per face (normal, U, V), corners
 * counter-clockwise seen from outside. */
static void make_box(mesh *m, float size)
{
    static const float faces[6][3][3] = {
        { { 1, 0, 0 }, { 0, 0, -1 }, { 0, 1, 0 } }, { { -1, 0, 0 }, { 0, 0, 1 }, { 0, 1, 0 } },
        { { 0, 0, 1 }, { 1, 0, 0 }, { 0, 1, 0 } },  { { 0, 0, -1 }, { -1, 0, 0 }, { 0, 1, 0 } },
        { { 0, 1, 0 }, { 1, 0, 0 }, { 0, 0, -1 } }, { { 0, -1, 0 }, { 1, 0, 0 }, { 0, 0, 1 } },
    };
    for (int f = 0; f < 6; f++) {
        const float *n = faces[f][0], *U = faces[f][1], *V = faces[f][2];
        const uint32_t base = (uint32_t)m->nv;
        for (int j = 0; j <= 1; j++)
            for (int i = 0; i <= 1; i++) {
                float p[3];
                for (int k = 0; k < 3; k++)
                    p[k] = (n[k] + (2.0f * (float)i - 1.0f) * U[k] + (2.0f * (float)j - 1.0f) * V[k]) * 0.5f * size;
                put(m, p, n, (float)i * size, (float)j * size);
            }
        quad(m, base, base + 1, base + 2, base + 1, base + 3, base + 2);
    }
}

/* A square floor of edge SIZE in the XZ plane, normal +y. */
static void make_floor(mesh *m, float size)
{
    static const float up[3] = { 0, 1, 0 };
    for (int j = 0; j <= 1; j++)
        for (int i = 0; i <= 1; i++)
            put(m, (const float[3]){ ((float)i - 0.5f) * size, 0.0f, ((float)j - 0.5f) * size }, up,
                (float)i, (float)j);
    quad(m, 0, 2, 1, 1, 2, 3);
}

/* ---- the native C shader: the base colour, unlit ---------------------------- */
static void flat_vs(const mos_vs_batch *b)
{
    const float *m = ((const uniforms *)b->uniforms)->mvp;
    for (int i = 0; i < b->count; i++) {
        const float *a = b->attribs + (size_t)i * (size_t)b->stride;
        for (int r = 0; r < 4; r++)
            b->clip[4 * i + r] = m[r] * a[0] + m[4 + r] * a[1] + m[8 + r] * a[2] + m[12 + r];
    }
}

static void flat_fs(const mos_fs_batch *b)
{
    const float *c = ((const uniforms *)b->uniforms)->base_color;
    for (int l = 0; l < 4 * b->quad_count; l++)
        for (int k = 0; k < 4; k++)
            b->out[k][l] = c[k];
}

/* ---- the scene --------------------------------------------------------------- */
typedef struct demo {
    mos_context *ctx;
    mos_target rt;
    int w, h, spp;
    mos_shader lit, flat;
    mesh cube, block, ground;
    uniforms u;  /* lights and ambient; the rest per draw */
} demo;

static mos_result draw(demo *d, mos_shader sh, const mesh *m, mos_cull cull, const float rgba[4],
                       const float vp[16], const float model[16], const float *model1)
{
    uniforms u0 = d->u, u1;
    memcpy(u0.base_color, rgba, sizeof u0.base_color);
    memcpy(u0.model, model, sizeof u0.model);
    normal_matrix(u0.normal_matrix, model);
    mat_mul(u0.mvp, vp, model);
    if (model1) {
        u1 = u0;
        memcpy(u1.model, model1, sizeof u1.model);
        mat_mul(u1.mvp, vp, model1);
    }
    return mos_draw(d->ctx, &(mos_draw_desc){
        .shader = sh, .vertices = m->vb, .vertex_stride = 8, .vertex_count = m->nv, .indices = m->ib,
        .index_count = m->ni,
        .uniforms = &u0, .uniform_size = sizeof u0, .uniforms_t1 = model1 ? &u1 : NULL,
        .depth_test = true, .depth_write = true, .cull = cull });
}

/* One frame at time T seconds (test/demo.scene is T = 1). */
static mos_result render(demo *d, float t)
{
    static const float eye[3] = { 0.0f, 2.2f, 6.0f }, target[3] = { 0.0f, 0.5f, 0.0f };
    float vp[16], model[16], model0[16], model1[16];
    camera(vp, eye, target, 45.0f, (float)d->w / (float)d->h, 0.1f, 100.0f);
    mos_result r = mos_begin_frame(d->ctx, &(mos_frame_desc){ .target = d->rt,
                                   .clear_rgba = { 0.2f, 0.22f, 0.26f, 1.0f } });  /* blur: all defaults */
    if (r != MOS_OK)
        return r;
    static const float still[3] = { 0, 0, 0 };
    place(model, 0.0f, 0.0f, 0.0f, 0.0f);
    at_time(model0, model, still, 0.0f);
    r = draw(d, d->lit, &d->ground, MOS_CULL_NONE, (const float[4]){ 0.55f, 0.6f, 0.65f, 1 }, vp, model0, NULL);
    place(model, fmodf(40.0f * t, 360.0f), 0.0f, 0.6f, -0.5f);  /* the cube turns 40 degrees a second */
    at_time(model0, model, still, 0.0f);
    if (r == MOS_OK)
        r = draw(d, d->lit, &d->cube, MOS_CULL_BACK, (const float[4]){ 0.35f, 0.75f, 0.4f, 1 }, vp, model0, NULL);
    /* The block slides at 4 units a second from x = -3 to 3 and starts over;
     * the shutter is open for EXPOSURE, so it moves 4 * EXPOSURE meanwhile. */
    place(model, 0.0f, -3.0f + fmodf(4.0f * t, 6.0f), 0.25f, 1.2f);
    const float velocity[3] = { 4.0f * EXPOSURE, 0.0f, 0.0f };
    at_time(model0, model, velocity, 0.0f);  /* shutter open */
    at_time(model1, model, velocity, 1.0f);  /* shutter close */
    if (r == MOS_OK)
        r = draw(d, d->flat, &d->block, MOS_CULL_BACK, (const float[4]){ 0.95f, 0.45f, 0.15f, 1 }, vp, model0,
                 model1);
    mos_result e = mos_end_frame(d->ctx, NULL);
    return r != MOS_OK ? r : e;
}

static mos_result setup(demo *d, int threads)
{
    mos_result r = mos_context_create(&(mos_context_desc){ .pipeline = { .threads = threads } }, &d->ctx);
    if (r != MOS_OK)
        return r;
    make_box(&d->cube, 1.0f);
    make_box(&d->block, 0.5f);
    make_floor(&d->ground, 10.0f);
    static const float lights[2][6] = { { 0.5f, 1.0f, 0.7f, 0.9f, 0.88f, 0.82f },
                                        { -0.7f, 0.4f, -0.2f, 0.25f, 0.28f, 0.35f } };
    memset(&d->u, 0, sizeof d->u);
    d->u.fma_k = 1.0f;
    for (int j = 0; j < 2; j++) {
        const float *l = lights[j], len = sqrtf(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
        for (int k = 0; k < 3; k++)
            d->u.light_dir[j][k] = l[k] / len, d->u.light_color[j][k] = l[3 + k];
    }
    d->u.ambient[0] = 0.18f, d->u.ambient[1] = 0.18f, d->u.ambient[2] = 0.2f;
    mesh *meshes[3] = { &d->cube, &d->block, &d->ground };
    for (int i = 0; i < 3; i++) {
        mesh *m = meshes[i];
        r = mos_buffer_create(d->ctx, &(mos_buffer_desc){ m->v, (size_t)m->nv * 8 * sizeof(float) }, &m->vb);
        if (r == MOS_OK)
            r = mos_buffer_create(d->ctx, &(mos_buffer_desc){ m->idx, (size_t)m->ni * sizeof(uint32_t) }, &m->ib);
        if (r != MOS_OK)
            return r;
    }
    r = mos_shader_create(d->ctx, &(mos_shader_desc){ .vertex = flat_vs, .fragment = flat_fs, .label = "flat" },
                          &d->flat);
    if (r == MOS_OK)
        r = mos_shader_create_spirv(d->ctx, &(mos_spirv_desc){
            .vertex = demo_vert_spv, .vertex_words = sizeof demo_vert_spv / sizeof demo_vert_spv[0],
            .fragment = demo_frag_spv, .fragment_words = sizeof demo_frag_spv / sizeof demo_frag_spv[0],
            .vertex_name = "builtin.vert", .fragment_name = "lambert.frag" }, &d->lit);
    return r;
}

static mos_result resize(demo *d, int w, int h)
{
    if (d->rt.id)
        mos_target_destroy(d->ctx, d->rt);
    d->rt.id = 0;
    d->w = w, d->h = h;
    return mos_target_create(d->ctx, &(mos_target_desc){ .width = w, .height = h, .samples = d->spp }, &d->rt);
}

static int size_arg(const char *s, int *w, int *h)
{
    return sscanf(s, "%dx%d", w, h) == 2 && *w > 0 && *h > 0 && *w <= 16384 && *h <= 16384 ? 0 : -1;
}

int main(int argc, char **argv)
{
    int w = 960, h = 540, frames = 0, threads = 0, resize_at = -1, rw = 0, rh = 0;
    float dt = 1.0f / 60.0f;
    const char *shot = NULL;
    demo d = { .spp = 8 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = !v;
        if (!strcmp(a, "--size") && v) bad = size_arg(v, &w, &h);
        else if (!strcmp(a, "--frames") && v) bad = (frames = atoi(v)) <= 0;
        else if (!strcmp(a, "--dt") && v) bad = !((dt = strtof(v, NULL)) > 0.0f);
        else if (!strcmp(a, "--spp") && v) d.spp = atoi(v);
        else if (!strcmp(a, "--threads") && v) threads = atoi(v);
        else if (!strcmp(a, "--screenshot") && v) shot = v;
        else if (!strcmp(a, "--resize-at") && v && i + 2 < argc) {
            bad = (resize_at = atoi(v)) < 0 || size_arg(argv[i + 2], &rw, &rh);
            i++;
        }
        else bad = 1;
        if (bad) {
            fprintf(stderr, "usage: mosaic-demo [--size WxH] [--spp S] [--threads N] [--frames N [--dt S]]\n"
                            "                   [--resize-at FRAME WxH] [--screenshot OUT.png]\n");
            return 2;
        }
        i++;
    }
    /* The library run is the one this program was compiled for (the soname
     * makes sure of it for libmosaic.so; this is how to check it). */
    if (mos_version() >> 8 != MOS_VERSION >> 8)
        fprintf(stderr, "mosaic-demo: built for libmosaic %#x, running %#x\n", MOS_VERSION, (unsigned)mos_version());

    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "mosaic-demo: %s\n", SDL_GetError());
        return 1;
    }
    SDL_Window *win = SDL_CreateWindow("mosaic-demo", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, w, h,
                                       SDL_WINDOW_RESIZABLE);
    SDL_Renderer *ren = win ? SDL_CreateRenderer(win, -1, 0) : NULL;
    SDL_Texture *tex = NULL;
    uint8_t *pixels = NULL;
    int rc = 1;
    mos_result r = MOS_ERR_INVALID_ARGUMENT;
    if (!ren) {
        fprintf(stderr, "mosaic-demo: %s\n", SDL_GetError());
        goto done;
    }
    if ((r = setup(&d, threads)) != MOS_OK)
        goto fail;
    const Uint64 start = SDL_GetTicks64();
    double ms_sum = 0;
    for (int f = 0, quit = 0; !quit && (!frames || f < frames); f++) {
        SDL_Event ev;
        while (SDL_PollEvent(&ev))
            if (ev.type == SDL_QUIT ||
                (ev.type == SDL_KEYDOWN && (ev.key.keysym.sym == SDLK_ESCAPE || ev.key.keysym.sym == SDLK_q)))
                quit = 1;
        if (f == resize_at)
            SDL_SetWindowSize(win, rw, rh);
        int cw, ch;  /* follow the window: a new target and texture when its size changed */
        SDL_GetWindowSize(win, &cw, &ch);
        if (!d.rt.id || cw != d.w || ch != d.h) {
            if ((r = resize(&d, cw, ch)) != MOS_OK)
                goto fail;
            if (tex)
                SDL_DestroyTexture(tex);
            free(pixels);
            tex = SDL_CreateTexture(ren, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STREAMING, cw, ch);
            pixels = malloc((size_t)cw * (size_t)ch * 4);
            if (!tex || !pixels) {
                fprintf(stderr, "mosaic-demo: no %dx%d frame: %s\n", cw, ch, tex ? "out of memory" : SDL_GetError());
                goto done;
            }
        }
        const float t = frames ? (float)f * dt : (float)(SDL_GetTicks64() - start) / 1000.0f;
        const Uint64 t0 = SDL_GetPerformanceCounter();
        if ((r = render(&d, t)) != MOS_OK || (r = mos_target_read_rgba8(d.ctx, d.rt, pixels, (size_t)d.w * 4)) != MOS_OK)
            goto fail;
        ms_sum += (double)(SDL_GetPerformanceCounter() - t0) * 1000.0 / (double)SDL_GetPerformanceFrequency();
        if ((f + 1) % 30 == 0) {
            char title[96];
            snprintf(title, sizeof title, "mosaic-demo  %dx%d  %d spp  %.1f ms/frame", d.w, d.h, d.spp, ms_sum / 30);
            SDL_SetWindowTitle(win, title);
            ms_sum = 0;
        }
        SDL_UpdateTexture(tex, NULL, pixels, d.w * 4);
        SDL_RenderClear(ren);
        SDL_RenderCopy(ren, tex, NULL, NULL);
        SDL_RenderPresent(ren);
    }
    rc = 0;
    if (shot) {
        png_image img = { .version = PNG_IMAGE_VERSION, .width = (png_uint_32)d.w, .height = (png_uint_32)d.h,
                          .format = PNG_FORMAT_RGBA };
        if (!png_image_write_to_file(&img, shot, 0, pixels, d.w * 4, NULL)) {
            fprintf(stderr, "mosaic-demo: %s: %s\n", shot, img.message);
            rc = 1;
        } else {
            printf("wrote %s (%dx%d, %d spp)\n", shot, d.w, d.h, d.spp);
        }
    }
    goto done;
fail:
    fprintf(stderr, "mosaic-demo: %s: %s\n", mos_result_name(r), d.ctx ? mos_last_error(d.ctx) : "");
done:
    if (d.ctx)
        mos_context_destroy(d.ctx);  /* frees every target, buffer and shader */
    free(pixels);
    if (tex)
        SDL_DestroyTexture(tex);
    if (ren)
        SDL_DestroyRenderer(ren);
    if (win)
        SDL_DestroyWindow(win);
    SDL_Quit();
    return rc;
}
