/* one.c — one sharp configuration of `mosaic bench`: Mosaic and llvmpipe frame by frame (A/B), then the
 * agreement of their images.  Fed by run.c per configuration; calls kit.c, child.c, agree.c and image/. */
#include "tools/bench/bench.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image/image.h"

static mos_result note_motion(const scene_export_draw *d, void *user)
{
    *(bool *)user |= d->uniforms_t1 != NULL;
    return MOS_OK;
}

/* Why a sharp A/B cannot hold for scene S with OPTS: llvmpipe renders a
 * sharp frame, so a scene that moves or has a lens would be compared with
 * another image.  0, or -1 with the reason in why. */
static int blur_refusal(const scene *s, const scene_draw_opts *opts, char *why, size_t why_size)
{
    bool moves = false;
    mos_blur_desc lens = { 0 };
    scene_export_frame(s, opts, note_motion, &moves);
    scene_lens(s, opts, &lens);
    const bool lensed = lens.lens_x != 0.0f || lens.lens_y != 0.0f;
    if (!moves && !lensed)
        return 0;
    snprintf(why, why_size,
             "the scene has %s; --vs llvmpipe compares sharp frames, so compare it with --blur decoupled or "
             "--blur supersample (llvmpipe's accumulation of the same %s)",
             moves && lensed ? "motion and a lens" : moves ? "motion" : "a lens",
             moves && lensed ? "motion and lens" : moves ? "motion" : "lens");
    return -1;
}

/* --keep-images: Mosaic's and llvmpipe's images and their differences as PNGs in br->img_dir. */
static void keep_images(const bench_run *br, const bench_result *r, int have_ids)
{
    char path[4400], err[1024];
    snprintf(path, sizeof path, "%s/%s-%dx%d-t%d-s%d-%s-mosaic.png", br->img_dir, r->scene_name, r->width,
             r->height, r->threads, r->spp, r->mode);
    img_write_png(path, r->width, r->height, br->m_rgba, (size_t)r->width * 4, err, sizeof err);
    snprintf(path, sizeof path, "%s/%s-%dx%d-t%d-s%d-%s-llvmpipe.png", br->img_dir, r->scene_name,
             r->width, r->height, r->threads, r->spp, r->mode);
    img_write_png(path, r->width, r->height, br->l_rgba, (size_t)r->width * 4, err, sizeof err);
    snprintf(path, sizeof path, "%s/%s-%dx%d-t%d-s%d-%s-diff.png", br->img_dir, r->scene_name,
             r->width, r->height, r->threads, r->spp, r->mode);
    bench_write_diff_png(path, br->m_rgba, br->l_rgba, have_ids ? br->ids : NULL, r->width,
                         r->height, BENCH_TOL, err, sizeof err);
}

/* Agreement of the last frames: Mosaic's image (from CTX's RT), llvmpipe's image and its ID render
 * (from the CHILD, through br's temporary files) into R. */
static void agreement(bench_run *br, bench_result *r, bench_child *child, mos_context *ctx, mos_target rt)
{
    const size_t pixels = (size_t)r->width * (size_t)r->height;
    char cmd[4300], reply[256], err[1024];
    int have_ids = 0;
    mos_result res;
    snprintf(cmd, sizeof cmd, "rgba %s", br->tmp_rgba);
    if ((res = mos_target_read_rgba8(ctx, rt, br->m_rgba, (size_t)r->width * 4)) == MOS_OK &&
        bench_child_cmd(child, cmd, reply, sizeof reply, err, sizeof err) == 0 &&
        bench_read_raw(br->tmp_rgba, br->l_rgba, pixels * 4) == 0) {
        snprintf(cmd, sizeof cmd, "ids %s", br->tmp_ids);
        have_ids = bench_child_cmd(child, cmd, reply, sizeof reply, err, sizeof err) == 0 &&
                   bench_read_raw(br->tmp_ids, br->ids, pixels * 4) == 0;
        bench_agreement ag;
        bench_agree(br->m_rgba, br->l_rgba, have_ids ? br->ids : NULL, r->width, r->height, BENCH_TOL, &ag);
        r->agree_ok = 1;
        r->agree_pct = ag.pixels ? 100.0 * (double)ag.agree / (double)ag.pixels : 0.0;
        r->diff_pixels = ag.diff;
        r->diff_off_edge = ag.diff_off_edge;
        r->max_abs = ag.max_abs;
        if (br->o->keep_images)
            keep_images(br, r, have_ids);
    } else if (!r->error[0]) {
        snprintf(r->error, sizeof r->error, "agreement: %s", res != MOS_OK ? mos_result_name(res) : err);
    }
    unlink(br->tmp_rgba);
    unlink(br->tmp_ids);
}

/* Runs one configuration R (filled in) A/B; fills its measurements.  The
 * frame is the one `mosaic render` makes with the same options (its motion
 * and lens included). */
void bench_one(bench_run *br, bench_result *r)
{
    const bench_opts *o = br->o;
    mos_context *ctx = NULL;
    mos_target rt = { 0 };
    scene_gpu *gpu = NULL;
    bench_child child = { .pid = -1 };
    int child_up = 0;
    char err[1024], reply[256];

    const scene_draw_opts dopts = { .width = r->width, .height = r->height, .fma = r->fma, .view = r->view };
    if (o->vs_llvmpipe && blur_refusal(br->sc, &dopts, r->error, sizeof r->error) != 0)
        return;
    /* Start the reference first: it loads the scene while we do. */
    if (o->vs_llvmpipe) {
        char spp[16];
        snprintf(spp, sizeof spp, "%d", r->spp);
        const char *const extra[] = { "--spp", spp, NULL };
        child_up = bench_start_llvmpipe(br, r, extra, &child) == 0;
    }

    mos_result res = bench_context(br, r, r->spp, &ctx, &rt, &gpu);
    if (res != MOS_OK)
        goto fail;
    mos_frame_desc fd = { .target = rt };
    scene_clear_color(br->sc, fd.clear_rgba);
    scene_frame_lens(gpu, &dopts, &fd.blur);  /* the view was checked by the caller */

    /* Warm-up, then A/B/A/B: one Mosaic frame, one llvmpipe frame. */
    for (int f = -o->warmup; f < o->frames; f++) {
        double t0 = bench_now_ms();
        if ((res = bench_mosaic_frame(ctx, &fd, gpu, &dopts, br->st)) != MOS_OK)
            goto fail;
        if (f >= 0)
            bench_note_frame(br, f, bench_now_ms() - t0);
        if (child_up) {
            if (bench_child_cmd(&child, "frame", reply, sizeof reply, err, sizeof err) != 0 ||
                strncmp(reply, "ms ", 3) != 0) {
                snprintf(r->error, sizeof r->error, "%s", err);
                bench_child_stop(&child);
                child_up = 0;
            } else if (f >= 0) {
                br->l_ms[f] = strtod(reply + 3, NULL);
            }
        }
    }
    bench_note_mosaic(br, r);
    if (child_up) {
        r->lp_ok = 1;
        bench_summarize(br->l_ms, o->frames, &r->l_median, &r->l_min, &r->l_max);
        agreement(br, r, &child, ctx, rt);
    }
    goto done;
fail:
    bench_fail(r, ctx, res);
done:
    if (child_up)
        bench_child_stop(&child);
    render_context_free(ctx, rt, gpu);
}
