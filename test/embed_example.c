/* embed_example.c — the smallest complete libmosaic program: one triangle.
 * Built against include/mosaic.h and libmosaic.a only; the README shows it. */
#include <stdio.h>
#include <stdlib.h>
#include "mosaic.h"

enum { W = 64, H = 48 };

/* Vertex stage: x, y, r, g, b per vertex -> clip position and 3 varyings. */
static void vs(const mos_vs_batch *b)
{
    for (int i = 0; i < b->count; i++) {
        const float *in = b->attribs + i * b->stride;
        float *pos = b->clip + 4 * i, *col = b->varyings + i * b->varying_count;
        pos[0] = in[0], pos[1] = in[1], pos[2] = 0.0f, pos[3] = 1.0f;
        col[0] = in[2], col[1] = in[3], col[2] = in[4];
    }
}

/* Fragment stage: the interpolated colour, opaque. */
static void fs(const mos_fs_batch *b)
{
    for (int l = 0; l < 4 * b->quad_count; l++) {
        for (int c = 0; c < 3; c++) b->out[c][l] = b->varyings[c][l];
        b->out[3][l] = 1.0f;
    }
}

int main(void)
{
    static const float verts[] = {
        -0.8f, -0.8f, 1, 0, 0,   /* x, y, r, g, b */
         0.8f, -0.8f, 0, 1, 0,
         0.0f,  0.8f, 0, 0, 1,
    };
    mos_context *ctx;
    if (mos_context_create(&(mos_context_desc){ .pipeline = { .threads = 2 } }, &ctx) != MOS_OK)
        return 1;
    mos_target rt;
    mos_buffer vb;
    mos_shader sh;
    mos_result r = mos_target_create(ctx, &(mos_target_desc){ .width = W, .height = H, .samples = 4 }, &rt);
    if (r == MOS_OK)
        r = mos_buffer_create(ctx, &(mos_buffer_desc){ .data = verts, .size = sizeof verts }, &vb);
    if (r == MOS_OK)
        r = mos_shader_create(ctx, &(mos_shader_desc){ .vertex = vs, .fragment = fs, .varying_count = 3 }, &sh);
    if (r == MOS_OK)
        r = mos_begin_frame(ctx, &(mos_frame_desc){ .target = rt, .clear_rgba = { 0, 0, 0, 1 } });
    if (r == MOS_OK)
        r = mos_draw(ctx, &(mos_draw_desc){ .shader = sh, .vertices = vb, .vertex_stride = 5,
                                             .vertex_count = 3 });
    if (r == MOS_OK)
        r = mos_end_frame(ctx, NULL);
    static uint8_t rgba[W * H * 4];
    if (r == MOS_OK)
        r = mos_target_read_rgba8(ctx, rt, rgba, W * 4);
    if (r != MOS_OK) {
        fprintf(stderr, "mosaic: %s\n", mos_last_error(ctx));
        mos_context_destroy(ctx);
        return 1;
    }
    /* Rows come top first: the centre pixel is inside, the top-left corner is not. */
    const uint8_t *mid = rgba + ((H / 2) * W + W / 2) * 4, *corner = rgba;
    int ok = mid[3] == 255 && mid[0] + mid[1] + mid[2] > 0 && corner[0] + corner[1] + corner[2] == 0;
    printf("centre pixel rgba = %d %d %d %d: %s\n", mid[0], mid[1], mid[2], mid[3], ok ? "ok" : "WRONG");
    mos_context_destroy(ctx);
    return ok ? 0 : 1;
}
