/* out.c — `mosaic bench` results: each configuration's lines on stdout, then CSV, JSON, the markdown ratio
 * table, gnuplot PNG plots.  Fed by run.c (per configuration) and main.c (the finished run); writes through image/. */
#include "tools/bench/bench.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "image/image.h"

/* A memstream that out_commit will write to PATH (NULL + message if it fails). */
static FILE *out_open(char **bufp, size_t *lenp, const char *path, char *err, size_t err_size)
{
    *bufp = NULL;
    *lenp = 0;
    FILE *f = open_memstream(bufp, lenp);
    if (!f)
        snprintf(err, err_size, "%s: out of memory", path);
    return f;
}

/* Finishes a memstream and writes it to PATH. */
static int out_commit(FILE *f, char **bufp, const char *path, char *err, size_t err_size)
{
    int closed = fclose(f);  /* sets *bufp */
    char *buf = *bufp;
    *bufp = NULL;
    if (closed != 0 || !buf) {
        free(buf);
        snprintf(err, err_size, "%s: out of memory", path);
        return -1;
    }
    int rc = img_write_file(path, buf, strlen(buf), err, err_size);
    free(buf);
    return rc;
}

static double ratio_of(const bench_result *r)
{
    return r->ok && r->lp_ok && r->l_median > 0 ? r->m_median / r->l_median : NAN;
}

/* CSV field: the names here never hold commas or quotes except scene paths; quote those. */
static void csv_str(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
}

int bench_write_csv(const char *path, const bench_result *r, int n, int with_llvmpipe, char *err,
                    size_t err_size)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = out_open(&buf, &len, path, err, err_size);
    if (!f)
        return -1;
    fputs(BENCH_CSV_HEADER "\n", f);
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 1 + (with_llvmpipe != 0); k++) {
            const bench_result *b = &r[i];
            if (k == 0 ? !b->ok : !b->lp_ok)
                continue;
            csv_str(f, b->scene_name);
            fprintf(f, ",%s,%d,%d,%d,%d,%s,", k ? "llvmpipe" : "mosaic", b->width, b->height, b->threads,
                    b->spp, b->mode);
            csv_str(f, k ? "-" : b->pattern_used);
            fprintf(f, ",%d,%.3f,%.3f,%.3f\n", k ? 0 : b->bin, k ? b->l_median : b->m_median,
                    k ? b->l_min : b->m_min, k ? b->l_max : b->m_max);
        }
    }
    return out_commit(f, &buf, path, err, err_size);
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.6g", v);
    else
        fputs("null", f);
}

int bench_write_json(const char *path, const bench_result *r, int n, const char *renderer,
                     const char *machine, char *err, size_t err_size)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = out_open(&buf, &len, path, err, err_size);
    if (!f)
        return -1;
    fputs("{\n  \"machine\": ", f);
    json_str(f, machine);
    fputs(",\n  \"llvmpipe_renderer\": ", f);
    json_str(f, renderer ? renderer : "");
    fputs(",\n  \"configurations\": [", f);
    for (int i = 0; i < n; i++) {
        const bench_result *b = &r[i];
        fprintf(f, "%s\n    {\"scene\": ", i ? "," : "");
        json_str(f, b->scene_name);
        fputs(", \"scene_path\": ", f);
        json_str(f, b->scene);
        fprintf(f, ", \"width\": %d, \"height\": %d, \"threads\": %d, \"spp\": %d, \"fma\": %d, "
                   "\"mode\": \"%s\", \"bin\": %d, \"pattern\": ",
                b->width, b->height, b->threads, b->spp, b->fma, b->mode, b->bin);
        json_str(f, b->pattern_used);
        fputs(",\n     \"mosaic\": ", f);
        if (b->ok) {
            fputs("{\"median_ms\": ", f), json_num(f, b->m_median);
            fputs(", \"min_ms\": ", f), json_num(f, b->m_min);
            fputs(", \"max_ms\": ", f), json_num(f, b->m_max);
            fputs(", \"end_frame_ms\": ", f), json_num(f, b->stats_frame_ms);
            fputs(", \"frontend_ms\": ", f), json_num(f, b->frontend_ms);
            fputs(", \"frontend_stall_ms\": ", f), json_num(f, b->frontend_stall_ms);
            fputs(", \"worker_busy_ms_mean\": ", f), json_num(f, b->worker_busy_ms);
            fputs(", \"first_work_ms\": ", f), json_num(f, b->first_work_ms);
            fprintf(f, ", \"triangles_in\": %" PRIu64 ", \"triangles_binned\": %" PRIu64
                       ", \"covered_pixels\": %" PRIu64 ", \"visibility_samples\": %" PRIu64
                       ", \"shade_invocations\": %" PRIu64,
                    b->triangles_in, b->triangles_binned, b->covered_pixels, b->visibility_samples,
                    b->shade_invocations);
            fputs(", \"triangles_per_s\": ", f);
            json_num(f, b->m_median > 0 ? (double)b->triangles_in / (b->m_median * 1e-3) : NAN);
            fputs(", \"samples_per_s\": ", f);
            json_num(f, b->m_median > 0 ? (double)b->visibility_samples / (b->m_median * 1e-3) : NAN);
            fputc('}', f);
        } else {
            fputs("null", f);
        }
        fputs(",\n     \"llvmpipe\": ", f);
        if (b->lp_ok) {
            fputs("{\"median_ms\": ", f), json_num(f, b->l_median);
            fputs(", \"min_ms\": ", f), json_num(f, b->l_min);
            fputs(", \"max_ms\": ", f), json_num(f, b->l_max);
            fputc('}', f);
        } else {
            fputs("null", f);
        }
        fputs(", \"ratio\": ", f);
        json_num(f, ratio_of(b));
        if (b->blur) {  /* llvmpipe above is its accumulation of spp sub-frames */
            fputs(",\n     \"blur\": {\"mosaic_psnr\": ", f), json_num(f, b->m_psnr);
            fputs(", \"mosaic_ssim\": ", f), json_num(f, b->m_ssim);
            fprintf(f, ", \"llvmpipe_accum\": %d, \"llvmpipe_psnr\": ", b->spp), json_num(f, b->l_psnr);
            fputs(", \"llvmpipe_ssim\": ", f), json_num(f, b->lp_ok ? b->l_ssim : NAN);
            fputs(", \"mosaic_accum_ms\": ", f), json_num(f, b->ma_ok ? b->ma_median : NAN);
            fputs(", \"mosaic_accum_psnr\": ", f), json_num(f, b->ma_ok ? b->ma_psnr : NAN);
            fputs(", \"mosaic_accum_ssim\": ", f), json_num(f, b->ma_ok ? b->ma_ssim : NAN);
            fputs(", \"accum_agree_psnr\": ", f), json_num(f, b->lp_ok ? b->accum_agree_psnr : NAN);
            fprintf(f, ", \"equal_k\": %d, \"equal_k_searched\": %d, \"equal_k_psnr\": ", b->eq_k, b->eq_searched);
            json_num(f, b->eq_psnr);
            fputs(", \"equal_k_ssim\": ", f), json_num(f, b->eq_ssim);
            fputs(", \"equal_k_llvmpipe_ms\": ", f), json_num(f, b->eq_k ? b->eq_median : NAN);
            fputs(", \"equal_ratio\": ", f);
            json_num(f, b->eq_k && b->ok ? b->m_median / b->eq_median : NAN);
            fputs(", \"equal_k_mosaic_accum_ms\": ", f), json_num(f, b->eq_k ? b->maq_median : NAN);
            fputs(", \"equal_mosaic_ratio\": ", f);
            json_num(f, b->eq_k && b->ok ? b->m_median / b->maq_median : NAN);
            fprintf(f, ", \"truth_subframes\": %d, \"truth_spp\": %d, \"truth_cached\": %s}", b->truth_k,
                    b->truth_spp, b->truth_cached ? "true" : "false");
        }
        fputs(",\n     \"agreement\": ", f);
        if (b->agree_ok) {
            fputs("{\"within_2_pct\": ", f), json_num(f, b->agree_pct);
            fprintf(f, ", \"differing_pixels\": %" PRIu64 ", \"off_edge_pixels\": %" PRIu64
                       ", \"max_abs\": %d, \"edges_only\": %s}",
                    b->diff_pixels, b->diff_off_edge, b->max_abs, b->diff_off_edge ? "false" : "true");
        } else {
            fputs("null", f);
        }
        fputs(", \"error\": ", f);
        json_str(f, b->error);
        fputc('}', f);
    }
    fputs("\n  ]\n}\n", f);
    return out_commit(f, &buf, path, err, err_size);
}

int bench_write_markdown(const char *path, const bench_result *r, int n, const char *renderer,
                         const char *machine, const char *command, char *err, size_t err_size)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = out_open(&buf, &len, path, err, err_size);
    if (!f)
        return -1;
    fprintf(f, "Command: `%s`  \nMachine: %s  \nReference: %s\n\n", command, machine,
            renderer && *renderer ? renderer : "(none)");
    fputs("| scene | size | threads | spp | shader | mosaic ms | llvmpipe ms | ratio | agree % | edges only |\n"
          "|---|---|---:|---:|---|---:|---:|---:|---:|---|\n", f);
    for (int i = 0; i < n; i++) {
        const bench_result *b = &r[i];
        fprintf(f, "| %s | %dx%d | %d | %d | %s | ", b->scene_name, b->width, b->height, b->threads, b->spp,
                b->mode);
        if (b->ok)
            fprintf(f, "%.1f | ", b->m_median);
        else
            fputs("failed | ", f);
        if (b->lp_ok)
            fprintf(f, "%.1f | %.2f | ", b->l_median, ratio_of(b));
        else
            fputs("- | - | ", f);
        if (b->agree_ok)
            fprintf(f, "%.2f | %s |\n", b->agree_pct, b->diff_off_edge ? "no" : "yes");
        else
            fputs("- | - |\n", f);
    }
    fputs("\nWhere Mosaic's time goes (median frame; worker busy is the mean over workers):\n\n"
          "| scene | threads | spp | shader | frame ms | front-end ms | front-end stalled ms | first work ms | "
          "worker busy ms | shading rate |\n|---|---:|---:|---|---:|---:|---:|---:|---:|---:|\n", f);
    for (int i = 0; i < n; i++) {
        const bench_result *b = &r[i];
        if (!b->ok)
            continue;
        fprintf(f, "| %s | %d | %d | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f |\n", b->scene_name,
                b->threads, b->spp, b->mode, b->m_median, b->frontend_ms, b->frontend_stall_ms, b->first_work_ms,
                b->worker_busy_ms,
                b->covered_pixels ? (double)b->shade_invocations / (double)b->covered_pixels : 0.0);
    }
    return out_commit(f, &buf, path, err, err_size);
}

/* "%.2f" of V, "-" when it is not a number. */
static void md_num(FILE *f, const char *fmt, double v, const char *sep)
{
    if (isfinite(v))
        fprintf(f, fmt, v);
    else
        fputs(isinf(v) ? "inf" : "-", f);
    fputs(sep, f);
}

int bench_write_blur(const char *md_path, const char *csv_path, const bench_result *r, int n,
                     const char *mosaic_mode, const char *renderer, const char *machine, const char *command,
                     char *err, size_t err_size)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = out_open(&buf, &len, md_path, err, err_size);
    if (!f)
        return -1;
    int truth_k = 0, truth_spp = 0;
    for (int i = 0; i < n && !truth_k; i++)
        truth_k = r[i].truth_k, truth_spp = r[i].truth_spp;
    fprintf(f, "Command: `%s`  \nMachine: %s  \nReference: %s  \n", command, machine,
            renderer && *renderer ? renderer : "(none)");
    fprintf(f, "Ground truth: Mosaic's accumulation of %d pinhole sub-frames (mos_accum_pinhole(65536 + k) and "
               "mos_accum_jitter(65536 + k): none of the measured ones), %d spp each; every accumulation's "
               "sub-frames are jittered over the pixel; PSNR in dB over R, G, B; SSIM the mean SSIM over R, G, B "
               "(Wang et al. 2004: 11x11 Gaussian window, sigma 1.5; 1 = equal).  \n"
               "Mosaic %s at S spp (median frame) against the accumulation buffer of K = S pinhole sub-frames, one "
               "sample each (median of the whole accumulation), in llvmpipe and in Mosaic; ratio = Mosaic %s / "
               "llvmpipe (lower is better).  Equal PSNR: the fewest llvmpipe sub-frames (added one at a time) whose "
               "mean reaches Mosaic's PSNR; Mosaic's accumulation of the same K sub-frames is timed too.\n\n",
            truth_k, truth_spp, mosaic_mode, mosaic_mode);
    fprintf(f, "| scene | size | threads | S | shader | mosaic %s ms | PSNR | SSIM | llvmpipe accum S ms | PSNR | "
               "SSIM | ratio | mosaic accum S ms | PSNR | SSIM | llvmpipe vs mosaic accum PSNR | equal-PSNR K | PSNR | "
               "SSIM | llvmpipe accum K ms | ratio at equal PSNR | mosaic accum K ms | ratio to it |\n"
               "|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
               "---:|---:|\n", mosaic_mode);
    for (int i = 0; i < n; i++) {
        const bench_result *b = &r[i];
        fprintf(f, "| %s | %dx%d | %d | %d | %s | ", b->scene_name, b->width, b->height, b->threads, b->spp, b->mode);
        if (!b->ok || !b->lp_ok) {
            fprintf(f, "failed: %s |||||||||||||||||\n", b->error);
            continue;
        }
        md_num(f, "%.1f", b->m_median, " | ");
        md_num(f, "%.2f", b->m_psnr, " | ");
        md_num(f, "%.4f", b->m_ssim, " | ");
        md_num(f, "%.1f", b->l_median, " | ");
        md_num(f, "%.2f", b->l_psnr, " | ");
        md_num(f, "%.4f", b->l_ssim, " | ");
        md_num(f, "%.2f", b->m_median / b->l_median, " | ");
        md_num(f, "%.1f", b->ma_ok ? b->ma_median : NAN, " | ");
        md_num(f, "%.2f", b->ma_ok ? b->ma_psnr : NAN, " | ");
        md_num(f, "%.4f", b->ma_ok ? b->ma_ssim : NAN, " | ");
        md_num(f, "%.2f", b->accum_agree_psnr, " | ");
        if (b->eq_k)
            fprintf(f, "%d | ", b->eq_k);
        else
            fprintf(f, "> %d | ", b->eq_searched);
        md_num(f, "%.2f", b->eq_psnr, " | ");
        md_num(f, "%.4f", b->eq_ssim, " | ");
        md_num(f, "%.1f", b->eq_k ? b->eq_median : NAN, " | ");
        md_num(f, "%.2f", b->eq_k ? b->m_median / b->eq_median : NAN, " | ");
        md_num(f, "%.1f", b->eq_k ? b->maq_median : NAN, " | ");
        md_num(f, "%.2f", b->eq_k ? b->m_median / b->maq_median : NAN, " |\n");
    }
    if (out_commit(f, &buf, md_path, err, err_size) != 0)
        return -1;
    if (!(f = out_open(&buf, &len, csv_path, err, err_size)))
        return -1;
    fputs(BENCH_BLUR_CSV_HEADER "\n", f);
    for (int i = 0; i < n; i++) {
        const bench_result *b = &r[i];
        if (!b->ok || !b->lp_ok)
            continue;
        csv_str(f, b->scene_name);
        fprintf(f, ",%d,%d,%d,%d,%s,%s,%.3f,%.4f,%d,%.3f,%.4f,%.4f,%.3f,%.4f,%.4f,%d,%.4f,", b->width, b->height,
                b->threads, b->spp, b->mode, mosaic_mode, b->m_median, b->m_psnr, b->spp, b->l_median, b->l_psnr,
                b->m_median / b->l_median, b->ma_median, b->ma_psnr, b->accum_agree_psnr, b->eq_k, b->eq_psnr);
        if (b->eq_k)
            fprintf(f, "%.3f,%.4f", b->eq_median, b->m_median / b->eq_median);
        else
            fputs(",", f);
        fprintf(f, ",%d,%d,%.6f,%.6f,%.6f,%.6f,", b->truth_k, b->truth_spp, b->m_ssim, b->l_ssim, b->ma_ssim,
                b->eq_ssim);
        if (b->eq_k)
            fprintf(f, "%.3f,%.4f\n", b->maq_median, b->m_median / b->maq_median);
        else
            fputs(",\n", f);
    }
    return out_commit(f, &buf, csv_path, err, err_size);
}

static const char bench_gp[] =
    "set terminal pngcairo size 1400,700 noenhanced\n"
    "set datafile separator '\\t'\n"
    "set style data histograms\n"
    "set style histogram clustered gap 1\n"
    "set style fill solid 0.8 border -1\n"
    "set boxwidth 0.9\n"
    "set xtics rotate by -60 font ',8'\n"
    "set grid ytics\n"
    "set key top left\n";

int bench_plot(const char *dir, const bench_result *r, int n, int with_llvmpipe, char *err,
               size_t err_size)
{
    char dat[4096], gp[4096];
    snprintf(dat, sizeof dat, "%s/plot.dat", dir);
    snprintf(gp, sizeof gp, "%s/plots.gp", dir);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = out_open(&buf, &len, dat, err, err_size);
    if (!f)
        return -1;
    fputs("label\tmosaic_ms\tllvmpipe_ms\tratio\tfrontend_ms\tstall_ms\tworker_busy_ms\n", f);
    for (int i = 0; i < n; i++) {
        const bench_result *b = &r[i];
        if (!b->ok)
            continue;
        double ratio = ratio_of(b);
        fprintf(f, "%s t%d s%d %s\t%.3f\t%.3f\t%.4f\t%.3f\t%.3f\t%.3f\n", b->scene_name, b->threads, b->spp,
                b->mode, b->m_median, b->lp_ok ? b->l_median : 0.0, isfinite(ratio) ? ratio : 0.0,
                b->frontend_ms, b->frontend_stall_ms, b->worker_busy_ms);
    }
    if (out_commit(f, &buf, dat, err, err_size) != 0)
        return -1;
    if (!(f = out_open(&buf, &len, gp, err, err_size)))
        return -1;
    fputs(bench_gp, f);
    fprintf(f, "set output '%s/frame_ms.png'\nset title 'Median frame time (ms), lower is better'\n"
               "set logscale y\nplot '%s' using 2:xtic(1) title 'mosaic'%s\nunset logscale y\n",
            dir, dat, with_llvmpipe ? ", '' using 3 title 'llvmpipe'" : "");
    if (with_llvmpipe)
        fprintf(f, "set output '%s/ratio.png'\nset title 'mosaic / llvmpipe frame time (lower is better; "
                   "goal <= 1)'\nset yrange [0:*]\nplot '%s' using 4:xtic(1) title 'ratio', 1 with lines "
                   "lw 2 lc rgb 'red' title '1.0'\nset autoscale y\n",
                dir, dat);
    fprintf(f, "set output '%s/stages.png'\nset title 'Mosaic per-stage time (ms, median frame)'\n"
               "set style histogram clustered\nplot '%s' using 5:xtic(1) title 'front-end busy', "
               "'' using 6 title 'front-end stalled', '' using 7 title 'worker busy (mean)'\n",
            dir, dat);
    if (out_commit(f, &buf, gp, err, err_size) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, err_size, "fork failed");
        return -1;
    }
    if (pid == 0) {
        execlp("gnuplot", "gnuplot", gp, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        snprintf(err, err_size, "gnuplot %s failed (exit %d)%s", gp, WIFEXITED(st) ? WEXITSTATUS(st) : -1,
                 WIFEXITED(st) && WEXITSTATUS(st) == 127 ? ": gnuplot not installed (apt-get install gnuplot-nox)"
                                                        : "");
        return -1;
    }
    return 0;
}

void bench_machine(char *buf, size_t size)
{
    char model[256] = "unknown CPU";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "model name", 10) == 0) {
                char *c = strchr(line, ':');
                if (c) {
                    c += 1 + (c[1] == ' ');
                    c[strcspn(c, "\n")] = '\0';
                    snprintf(model, sizeof model, "%s", c);
                }
                break;
            }
        fclose(f);
    }
    snprintf(buf, size, "%s, %ld online cores", model, sysconf(_SC_NPROCESSORS_ONLN));
}

/* The lines of configuration R on stdout: "bench ...", "blur ..." or "ratio ...", "error ...", and with
 * --check its verdict.  1 when --check failed, else 0. */
int bench_report(const bench_opts *o, const bench_result *r)
{
    if (r->ok) {
        const double sec = r->m_median * 1e-3;
        printf("bench scene=%s size=%dx%d threads=%d spp=%d mode=%s pattern=%s bin=%d median_ms=%.3f "
               "min_ms=%.3f max_ms=%.3f tris_per_s=%.4g samples_per_s=%.4g frontend_ms=%.3f "
               "frontend_stall_ms=%.3f first_work_ms=%.3f worker_busy_ms=%.3f\n",
               r->scene_name, r->width, r->height, r->threads, r->spp, r->mode,
               r->pattern_used[0] ? r->pattern_used : "-", r->bin, r->m_median, r->m_min, r->m_max,
               sec > 0 ? (double)r->triangles_in / sec : 0.0,
               sec > 0 ? (double)r->visibility_samples / sec : 0.0, r->frontend_ms, r->frontend_stall_ms,
               r->first_work_ms, r->worker_busy_ms);
    }
    if (r->blur && r->ok && r->lp_ok) {
        printf("blur scene=%s size=%dx%d threads=%d spp=%d mode=%s mosaic=%s mosaic_ms=%.3f mosaic_psnr=%.3f "
               "mosaic_ssim=%.4f llvmpipe_accum=%d llvmpipe_ms=%.3f llvmpipe_psnr=%.3f llvmpipe_ssim=%.4f ratio=%.3f "
               "mosaic_accum_ms=%.3f mosaic_accum_psnr=%.3f mosaic_accum_ssim=%.4f accum_agree_psnr=%.3f equal_k=%d "
               "equal_k_psnr=%.3f equal_k_ssim=%.4f equal_k_llvmpipe_ms=%.3f equal_ratio=%.3f "
               "equal_k_mosaic_accum_ms=%.3f equal_mosaic_ratio=%.3f truth=%dx%dspp%s\n",
               r->scene_name, r->width, r->height, r->threads, r->spp, r->mode,
               o->blur == MOS_SAMPLING_DECOUPLED ? "decoupled" : "supersample", r->m_median, r->m_psnr, r->m_ssim,
               r->spp, r->l_median, r->l_psnr, r->l_ssim, r->m_median / r->l_median, r->ma_median, r->ma_psnr,
               r->ma_ssim, r->accum_agree_psnr, r->eq_k, r->eq_psnr, r->eq_ssim, r->eq_k ? r->eq_median : NAN,
               r->eq_k ? r->m_median / r->eq_median : NAN, r->eq_k ? r->maq_median : NAN,
               r->eq_k ? r->m_median / r->maq_median : NAN, r->truth_k, r->truth_spp, r->truth_cached ? ",cached" : "");
    } else if (r->ok && r->lp_ok) {
        printf("ratio scene=%s size=%dx%d threads=%d spp=%d mode=%s mosaic_ms=%.3f llvmpipe_ms=%.3f "
               "ratio=%.3f",
               r->scene_name, r->width, r->height, r->threads, r->spp, r->mode, r->m_median, r->l_median,
               r->m_median / r->l_median);
        if (r->agree_ok)
            printf(" agree=%.3f%% differing=%llu off_edge=%llu max_abs=%d edges_only=%s", r->agree_pct,
                   (unsigned long long)r->diff_pixels, (unsigned long long)r->diff_off_edge, r->max_abs,
                   r->diff_off_edge ? "no" : "yes");
        putchar('\n');
    }
    if (r->error[0])
        printf("error scene=%s threads=%d spp=%d mode=%s: %s\n", r->scene_name, r->threads, r->spp, r->mode,
               r->error);
    if (o->check_pct >= 0) {
        int pass = r->agree_ok && r->agree_pct >= o->check_pct && r->diff_off_edge == 0;
        printf("%s agreement scene=%s size=%dx%d spp=%d mode=%s within_2=%.3f%% (need %.2f%%) "
               "off_edge=%llu\n",
               pass ? "PASS" : "FAIL", r->scene_name, r->width, r->height, r->spp, r->mode,
               r->agree_ok ? r->agree_pct : 0.0, o->check_pct, (unsigned long long)r->diff_off_edge);
        return !pass;
    }
    return 0;
}

/* bench.csv, bench.json, ratios.md, the plots (and with --blur blur.md, blur.csv) of the finished run BR;
 * ARGV is the command line for the reports.  1 when one could not be written, else 0. */
int bench_write_outputs(const bench_run *br, int argc, char **argv)
{
    const bench_opts *o = br->o;
    char err[1024];
    int failed = 0;
    char command[2048] = "mosaic bench";
    for (int i = 1; i < argc; i++) {
        size_t l = strlen(command);
        snprintf(command + l, sizeof command - l, " %s", argv[i]);
    }
    const char *renderer = o->vs_llvmpipe ? br->renderer : NULL;
    char blur_mode[64];
    snprintf(blur_mode, sizeof blur_mode, "%s", o->blur == MOS_SAMPLING_DECOUPLED ? "decoupled" : "supersample");
    if (o->shading_rate > 0 || o->bilinear)
        snprintf(blur_mode, sizeof blur_mode, "decoupled (shading rate %g%s)",
                 (double)(o->shading_rate > 0 ? o->shading_rate : 1.0f), o->bilinear ? ", bilinear" : "");
    if (o->blur && bench_write_blur(br->blur_md, br->blur_csv, br->res, br->total, blur_mode, br->renderer,
                                    br->machine, command, err, sizeof err)) {
        fprintf(stderr, "mosaic: %s\n", err);
        failed = 1;
    } else if (o->blur) {
        printf("wrote %s %s\n", br->blur_md, br->blur_csv);
    }
    if (bench_write_csv(o->csv, br->res, br->total, o->vs_llvmpipe, err, sizeof err) ||
        bench_write_json(o->json, br->res, br->total, renderer, br->machine, err, sizeof err) ||
        bench_write_markdown(br->md_path, br->res, br->total, renderer, br->machine, command, err, sizeof err)) {
        fprintf(stderr, "mosaic: %s\n", err);
        failed = 1;
    } else {
        printf("wrote %s %s %s\n", o->csv, o->json, br->md_path);
    }
    if (!o->no_plots) {
        if (bench_plot(o->out_dir, br->res, br->total, o->vs_llvmpipe, err, sizeof err) != 0) {
            fprintf(stderr, "mosaic: plots: %s\n", err);
            failed = 1;
        } else {
            printf("wrote %s/frame_ms.png%s %s/stages.png\n", o->out_dir,
                   o->vs_llvmpipe ? " ratio.png" : "", o->out_dir);
        }
    }
    if (o->vs_llvmpipe)
        printf("# reference: %s\n", br->renderer[0] ? br->renderer : "(did not start)");
    return failed;
}
