/* blur.c — one `mosaic bench --blur MODE` configuration: Mosaic's motion and defocus blur at S spp against the
 * accumulation buffer (K = S pinhole sub-frames averaged, in llvmpipe and in Mosaic), by time and by PSNR and SSIM
 * against a ground truth of many sub-frames, and the K at which llvmpipe's accumulation reaches Mosaic's PSNR.
 * Fed by run.c per configuration; calls kit.c, child.c (--accum), the public API, scene/ and image/. */
#include "tools/bench/bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image/image.h"

/* PSNR in dB over R, G and B of two W x H RGBA8 images (+INFINITY when equal). */
static double psnr_rgb(const uint8_t *a, const uint8_t *b, int w, int h)
{
    img_rgba8 ia = { .width = w, .height = h, .pixels = (uint8_t *)a };
    img_rgba8 ib = { .width = w, .height = h, .pixels = (uint8_t *)b };
    img_diff_result d;
    return img_diff(&ia, &ib, 0, &d, NULL, 0) == MOS_OK ? d.psnr_db : NAN;
}

/* Mean SSIM over R, G and B of two W x H RGBA8 images (img_ssim; 1 when equal). */
static double ssim_rgb(const uint8_t *a, const uint8_t *b, int w, int h)
{
    img_rgba8 ia = { .width = w, .height = h, .pixels = (uint8_t *)a };
    img_rgba8 ib = { .width = w, .height = h, .pixels = (uint8_t *)b };
    double ssim;
    return img_ssim(&ia, &ib, &ssim, NULL, 0) == MOS_OK ? ssim : NAN;
}

/* FNV-1a of the file at PATH (the ground truth's cache key); 0 when unreadable. */
static uint32_t file_hash(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    uint32_t h = 2166136261u;
    unsigned char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < n; i++)
            h = (h ^ buf[i]) * 16777619u;
    fclose(f);
    return h;
}

/* The ground truth's sub-frames start here in the sequence: disjoint from every accumulation
 * the bench measures (K <= 65536, from sub-frame 0), so the truth shares no sample with them. */
#define TRUTH_FIRST 65536

/* Mosaic's accumulation buffer, as `mosaic render --mode accum --accum K` (FIRST 0): K MSAA frames
 * at mos_accum_pinhole(FIRST + k) into RT, their rounded mean into RGBA; *MS = the whole of it
 * (frames, sums and the mean). */
static mos_result mosaic_accum(mos_context *ctx, mos_target rt, const scene_gpu *gpu, const scene_draw_opts *dopts,
                               const mos_frame_desc *base, int first, int k_count, uint8_t *rgba, int width,
                               double *ms)
{
    mos_frame_desc fd = *base;
    fd.target = rt;
    fd.blur.mode = MOS_SAMPLING_MSAA;
    fd.blur.shading_rate = 0.0f;  /* pinhole MSAA sub-frames, whatever rate Mosaic's blur is given */
    fd.blur.bilinear = false;
    mos_result res = MOS_OK;
    const double t0 = bench_now_ms();
    for (int k = 0; k < k_count && res == MOS_OK; k++) {
        mos_accum_pinhole(first + k, fd.blur.pinhole);
        mos_accum_jitter(first + k, fd.blur.pixel_offset);
        if ((res = bench_mosaic_frame(ctx, &fd, gpu, dopts, NULL)) == MOS_OK)
            res = mos_target_accumulate(ctx, rt, k == 0);
    }
    if (res == MOS_OK)
        res = mos_target_read_accumulated(ctx, rt, rgba, (size_t)width * 4, NULL);
    *ms = bench_now_ms() - t0;
    return res;
}

/* The ground truth of R into TRUTH (width x height RGBA8): Mosaic's accumulation of
 * truth_k sub-frames from TRUTH_FIRST at truth_spp, read from the cache folder when it is
 * there, else rendered (a minute or more at 1080p) and written there.  0, or -1 with R->error. */
static int ground_truth(bench_run *br, bench_result *r, mos_context *ctx, const scene_gpu *gpu,
                        const scene_draw_opts *dopts, const mos_frame_desc *base, uint8_t *truth)
{
    const bench_opts *o = br->o;
    char path[4600], err[1024];
    /* "jit": sub-frames jittered over the pixel (mos_accum_jitter); older truths, sampled at the
     * pixel's centre, are not reused */
    snprintf(path, sizeof path, "%s/%s-%dx%d-v%d-accum%d@%d-jit-s%d-%08x.png", o->truth_dir, r->scene_name, r->width,
             r->height, r->view, o->truth_k, TRUTH_FIRST, o->truth_spp, (unsigned)file_hash(r->scene));
    r->truth_k = o->truth_k, r->truth_spp = o->truth_spp;
    img_rgba8 img = { 0 };
    if (access(path, R_OK) == 0) {
        if (img_read(path, &img, err, sizeof err) == MOS_OK && img.width == r->width && img.height == r->height) {
            memcpy(truth, img.pixels, (size_t)r->width * (size_t)r->height * 4);
            img_free(&img);
            r->truth_cached = 1;
            return 0;
        }
        img_free(&img);
        fprintf(stderr, "mosaic: bench: %s: unreadable or of another size; rendering it again\n", path);
    }
    fprintf(stderr, "mosaic: bench: ground truth: %d sub-frames (from %d) of %s at %dx%d, %d spp each "
            "(cached in %s)\n", o->truth_k, TRUTH_FIRST, r->scene_name, r->width, r->height, o->truth_spp, path);
    mos_target rt = { 0 };
    mos_result res = mos_target_create(ctx, &(mos_target_desc){ .width = r->width, .height = r->height,
                                                                 .samples = o->truth_spp }, &rt);
    if (res == MOS_OK)
        res = mosaic_accum(ctx, rt, gpu, dopts, base, TRUTH_FIRST, o->truth_k, truth, r->width, &r->truth_ms);
    if (rt.id)
        mos_target_destroy(ctx, rt);
    if (res != MOS_OK) {
        bench_fail(r, ctx, res);
        return -1;
    }
    fprintf(stderr, "mosaic: bench: ground truth took %.1f s\n", r->truth_ms * 1e-3);
    if (img_write_png(path, r->width, r->height, truth, (size_t)r->width * 4, err, sizeof err) != MOS_OK)
        fprintf(stderr, "mosaic: bench: ground truth not cached: %s\n", err);
    return 0;
}

/* Sends CMD ('frame', 'accum K', 'more N') to the llvmpipe child: *MS from its 'ms T'
 * answer; with RGBA, its image too.  0, or -1 with ERR. */
static int lp_accum_cmd(bench_child *c, bench_run *br, const char *cmd, int width, int height, double *ms,
                        uint8_t *rgba, char *err, size_t err_size)
{
    char reply[256], rcmd[4300];
    if (bench_child_cmd(c, cmd, reply, sizeof reply, err, err_size) != 0)
        return -1;
    if (strncmp(reply, "ms ", 3) != 0) {
        snprintf(err, err_size, "llvmpipe child: '%s' answered '%s'", cmd, reply);
        return -1;
    }
    *ms = strtod(reply + 3, NULL);
    if (!rgba)
        return 0;
    snprintf(rcmd, sizeof rcmd, "rgba %s", br->tmp_rgba);
    if (bench_child_cmd(c, rcmd, reply, sizeof reply, err, err_size) != 0)
        return -1;
    const int rc = bench_read_raw(br->tmp_rgba, rgba, (size_t)width * (size_t)height * 4);
    unlink(br->tmp_rgba);
    if (rc != 0)
        snprintf(err, err_size, "%.900s: could not read llvmpipe's image", br->tmp_rgba);
    return rc;
}

/* The smallest K whose llvmpipe accumulation (sub-frames 0..K-1) reaches R->m_psnr against
 * TRUTH: the sub-frames are added one at a time and each mean compared (the first K that
 * reaches it: PSNR is not monotonic in K, by a little); the SSIM of the last mean.  Uses and
 * fills br->equal. */
static int equal_psnr_search(bench_child *c, bench_run *br, bench_result *r, const uint8_t *truth, uint8_t *rgba,
                             char *err, size_t err_size)
{
    for (int i = 0; i < br->n_equal; i++) {
        const bench_equal *e = &br->equal[i];
        if (strcmp(e->scene, r->scene) == 0 && e->width == r->width && e->height == r->height &&
            e->view == r->view && e->spp == r->spp && e->threads == r->threads && e->target_psnr == r->m_psnr) {
            r->eq_k = e->eq_k, r->eq_psnr = e->eq_psnr, r->eq_ssim = e->eq_ssim, r->eq_searched = e->searched;
            return 0;
        }
    }
    double ms, p = -INFINITY;
    int k = 0;
    while (k < br->o->max_accum && !(p >= r->m_psnr)) {
        if (lp_accum_cmd(c, br, k == 0 ? "accum 1" : "more 1", r->width, r->height, &ms, rgba, err, err_size) != 0)
            return -1;
        k++;
        p = psnr_rgb(rgba, truth, r->width, r->height);
    }
    r->eq_searched = k;
    r->eq_k = p >= r->m_psnr ? k : 0;
    r->eq_psnr = p;
    r->eq_ssim = k > 0 ? ssim_rgb(rgba, truth, r->width, r->height) : NAN;
    if (br->n_equal < BENCH_MAX_EQUAL)
        br->equal[br->n_equal++] = (bench_equal){ .scene = r->scene, .width = r->width, .height = r->height,
                                                  .view = r->view, .spp = r->spp, .threads = r->threads,
                                                  .target_psnr = r->m_psnr, .eq_k = r->eq_k,
                                                  .searched = k, .eq_psnr = p, .eq_ssim = r->eq_ssim };
    return 0;
}

/* --keep-images: Mosaic's blur, llvmpipe's and Mosaic's accumulations and the ground truth as PNGs. */
static void keep_images(const bench_run *br, const bench_result *r, const uint8_t *ma_rgba, const uint8_t *truth)
{
    const uint8_t *imgs[4] = { br->m_rgba, br->l_rgba, ma_rgba, truth };
    static const char *const names[4] = { "mosaic", "llvmpipe-accum", "mosaic-accum", "truth" };
    for (int i = 0; i < 4; i++) {
        char path[4600], err[1024];
        snprintf(path, sizeof path, "%s/%s-%dx%d-t%d-s%d-%s-blur-%s.png", br->img_dir, r->scene_name, r->width,
                 r->height, r->threads, r->spp, r->mode, names[i]);
        if (img_write_png(path, r->width, r->height, imgs[i], (size_t)r->width * 4, err, sizeof err) != MOS_OK)
            fprintf(stderr, "mosaic: bench: %s\n", err);
    }
}

/* The timed frames, interleaved: Mosaic's blur, llvmpipe and Mosaic accum at the equal-PSNR K (the
 * same sub-frames: their images agree within accum_agree_psnr), Mosaic accum K = spp into MA_RGBA,
 * llvmpipe accum K = spp (last, so its image is the one read after).  Times per frame into MA_MS,
 * EQ_MS (llvmpipe at K) and MAQ_MS (Mosaic at K).  0; -1 with *RES (the library failed); -2 with
 * ERR (the child did). */
static int timed_frames(bench_run *br, bench_result *r, bench_child *child, mos_context *ctx, mos_target rt1,
                        const scene_gpu *gpu, const scene_draw_opts *dopts, const mos_frame_desc *fd, uint8_t *ma_rgba,
                        double *ma_ms, double *eq_ms, double *maq_ms, mos_result *res, char *err, size_t err_size)
{
    char eq_cmd[32];
    snprintf(eq_cmd, sizeof eq_cmd, "accum %d", r->eq_k);
    const int time_eq = r->eq_k > 0 && r->eq_k != r->spp;
    for (int f = 0; f < br->o->frames; f++) {
        double t0 = bench_now_ms();
        if ((*res = bench_mosaic_frame(ctx, fd, gpu, dopts, br->st)) != MOS_OK)
            return -1;
        bench_note_frame(br, f, bench_now_ms() - t0);
        if (time_eq && lp_accum_cmd(child, br, eq_cmd, r->width, r->height, &eq_ms[f], NULL, err, err_size))
            return -2;
        if (time_eq &&
            (*res = mosaic_accum(ctx, rt1, gpu, dopts, fd, 0, r->eq_k, ma_rgba, r->width, &maq_ms[f])) != MOS_OK)
            return -1;
        if ((*res = mosaic_accum(ctx, rt1, gpu, dopts, fd, 0, r->spp, ma_rgba, r->width, &ma_ms[f])) != MOS_OK)
            return -1;
        if (lp_accum_cmd(child, br, "frame", r->width, r->height, &br->l_ms[f], NULL, err, err_size))
            return -2;
        if (!time_eq) {
            maq_ms[f] = ma_ms[f];
            eq_ms[f] = br->l_ms[f];
        }
    }
    return 0;
}

void bench_blur_one(bench_run *br, bench_result *r)
{
    const bench_opts *o = br->o;
    mos_context *ctx = NULL;
    mos_target rt = { 0 }, rt1 = { 0 };
    scene_gpu *gpu = NULL;
    bench_child child = { .pid = -1 };
    int child_up = 0;
    char err[1024];
    const size_t bytes = (size_t)r->width * (size_t)r->height * 4;
    uint8_t *truth = malloc(bytes), *ma_rgba = malloc(bytes);
    double *ma_ms = calloc((size_t)o->frames, sizeof *ma_ms), *eq_ms = calloc((size_t)o->frames, sizeof *eq_ms);
    double *maq_ms = calloc((size_t)o->frames, sizeof *maq_ms);
    mos_result res = MOS_OK;
    r->blur = 1;
    if (!truth || !ma_rgba || !ma_ms || !eq_ms || !maq_ms) {
        snprintf(r->error, sizeof r->error, "out of memory");
        goto done;
    }

    /* The reference: K = spp sub-frames per 'frame', one sample each. */
    char accum[16];
    snprintf(accum, sizeof accum, "%d", r->spp);
    const char *const extra[] = { "--spp", "1", "--accum", accum, NULL };
    if (bench_start_llvmpipe(br, r, extra, &child) != 0)
        goto done;
    child_up = 1;
    if ((res = bench_context(br, r, r->spp, &ctx, &rt, &gpu)) != MOS_OK ||
        (res = mos_target_create(ctx, &(mos_target_desc){ .width = r->width, .height = r->height, .samples = 1 },
                                 &rt1)) != MOS_OK)
        goto fail;
    mos_frame_desc fd = { .target = rt, .blur = { .mode = o->blur } };
    scene_clear_color(br->sc, fd.clear_rgba);
    const scene_draw_opts dopts = { .width = r->width, .height = r->height, .fma = r->fma, .view = r->view };
    scene_frame_lens(gpu, &dopts, &fd.blur);
    if (ground_truth(br, r, ctx, gpu, &dopts, &fd, truth) != 0)
        goto done;
    fd.blur.shading_rate = o->shading_rate;  /* Mosaic's blur only (the accumulations are pinhole MSAA) */
    fd.blur.bilinear = o->bilinear;

    /* Warm-up; Mosaic's image (the same every frame) sets the PSNR to reach. */
    double ms;
    for (int f = 0; f < (o->warmup > 0 ? o->warmup : 1); f++) {
        if ((res = bench_mosaic_frame(ctx, &fd, gpu, &dopts, br->st)) != MOS_OK)
            goto fail;
        if (f < o->warmup && lp_accum_cmd(&child, br, "frame", r->width, r->height, &ms, NULL, err, sizeof err))
            goto child_failed;
    }
    if ((res = mos_target_read_rgba8(ctx, rt, br->m_rgba, (size_t)r->width * 4)) != MOS_OK)
        goto fail;
    r->m_psnr = psnr_rgb(br->m_rgba, truth, r->width, r->height);
    r->m_ssim = ssim_rgb(br->m_rgba, truth, r->width, r->height);
    if (equal_psnr_search(&child, br, r, truth, br->l_rgba, err, sizeof err) != 0)
        goto child_failed;

    switch (timed_frames(br, r, &child, ctx, rt1, gpu, &dopts, &fd, ma_rgba, ma_ms, eq_ms, maq_ms, &res, err,
                         sizeof err)) {
    case -1: goto fail;
    case -2: goto child_failed;
    default: break;
    }
    bench_note_mosaic(br, r);
    if ((res = mos_target_read_rgba8(ctx, rt, br->m_rgba, (size_t)r->width * 4)) != MOS_OK)
        goto fail;
    const double m_psnr = psnr_rgb(br->m_rgba, truth, r->width, r->height);
    if (m_psnr != r->m_psnr && !r->error[0])
        snprintf(r->error, sizeof r->error, "Mosaic's image changed between frames (PSNR %.4f, then %.4f dB)",
                 r->m_psnr, m_psnr);
    r->ma_ok = 1;
    bench_summarize(ma_ms, o->frames, &r->ma_median, &r->ma_min, &r->ma_max);
    r->ma_psnr = psnr_rgb(ma_rgba, truth, r->width, r->height);
    r->ma_ssim = ssim_rgb(ma_rgba, truth, r->width, r->height);
    char rcmd[4300], reply[256];
    snprintf(rcmd, sizeof rcmd, "rgba %s", br->tmp_rgba);
    if (bench_child_cmd(&child, rcmd, reply, sizeof reply, err, sizeof err) != 0 ||
        bench_read_raw(br->tmp_rgba, br->l_rgba, bytes) != 0) {
        unlink(br->tmp_rgba);
        goto child_failed;
    }
    unlink(br->tmp_rgba);
    r->lp_ok = 1;
    bench_summarize(br->l_ms, o->frames, &r->l_median, &r->l_min, &r->l_max);
    r->l_psnr = psnr_rgb(br->l_rgba, truth, r->width, r->height);
    r->l_ssim = ssim_rgb(br->l_rgba, truth, r->width, r->height);
    r->accum_agree_psnr = psnr_rgb(br->l_rgba, ma_rgba, r->width, r->height);
    if (r->eq_k > 0) {
        bench_summarize(eq_ms, o->frames, &r->eq_median, &r->eq_min, &r->eq_max);
        bench_summarize(maq_ms, o->frames, &r->maq_median, &r->maq_min, &r->maq_max);
    }
    if (o->keep_images)
        keep_images(br, r, ma_rgba, truth);
    goto done;
child_failed:
    if (!r->error[0])
        snprintf(r->error, sizeof r->error, "%s", err);
    goto done;
fail:
    bench_fail(r, ctx, res);
done:
    if (child_up)
        bench_child_stop(&child);
    if (ctx && rt1.id)
        mos_target_destroy(ctx, rt1);
    render_context_free(ctx, rt, gpu);
    free(truth);
    free(ma_rgba);
    free(ma_ms);
    free(eq_ms);
    free(maq_ms);
}
