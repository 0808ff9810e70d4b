/* lp_main.c — `mosaic-llvmpipe`: renders a Mosaic scene with Mesa's llvmpipe (OSMesa) for benchmarks and tests.
 * Fed by the shell or by `mosaic bench` (--serve: commands on stdin); drives lp_gl.c and the scene module. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "image/image.h"
#include "lp.h"
#include "tools/bench/bench.h"

static const char lp_usage[] =
    "usage: mosaic-llvmpipe SCENE [options]\n"
    "\n"
    "Draws a Mosaic scene with Mesa's llvmpipe (OSMesa, GL 4.5 core) exactly as\n"
    "Mosaic would: same draws, matrices, shaders, sample count and depth test.\n"
    "Objects with GLSL shaders run the same .vert/.frag files through Mesa's GLSL\n"
    "compiler; the native built-ins run GLSL twins of src/shader/builtin.c.\n"
    "Threads: LP_NUM_THREADS (llvmpipe's own variable).\n"
    "\n"
    "  --size WxH      image size (default 1920x1080)\n"
    "  --spp S         MSAA samples per pixel (default 1)\n"
    "  --fma N         extra dependent multiply-adds per fragment (default 0; the twins\n"
    "                  of the native built-ins; a GLSL file does what its code says)\n"
    "  --view I        camera index (default 0)\n"
    "  --accum K       a frame is K sub-frames averaged (1..65536): sub-frame k sees the\n"
    "                  scene's motion and lens at Mosaic's pinhole mos_accum_pinhole(k)\n"
    "                  (u, v, t), as 'mosaic render --mode accum --accum K' does, with\n"
    "                  --spp MSAA samples each; the mean is rounded to 8 bits as\n"
    "                  mos_target_read_accumulated rounds it.  Without it a frame is\n"
    "                  the pinhole (0, 0, 0): no lens, positions at shutter open\n"
    "  --glsl-builtins DIR  draw the built-in shaders with the GLSL files in DIR\n"
    "                  (builtin.vert, flat/lambert/textured.frag), as mosaic render's\n"
    "                  option of that name\n"
    "  --frames F      timed frames (default 5); --warmup W untimed first (default 1)\n"
    "  -o FILE.png     write the last frame\n"
    "  --ids FILE.png  write an ID render (draw << 20 | primitive + 1, RGBA little-endian)\n"
    "  --agree REF.png compare the last frame with REF (say Mosaic's render of the same\n"
    "                  scene and options) as mosaic bench does, and print 'agree\n"
    "                  within_2=P% differing=N off_edge=N max_abs=M': P = pixels within\n"
    "                  2/255 on every channel, off_edge = differing pixels whose 3x3\n"
    "                  neighbourhood holds one ID (not on a triangle edge)\n"
    "  --serve         after setup print 'ready RENDERER', then answer stdin lines:\n"
    "                  'frame' -> 'ms T'; with --accum also 'accum N' (N sub-frames\n"
    "                  from the first) and 'more N' (N more) -> 'ms T frames K';\n"
    "                  'rgba PATH' / 'ids PATH' -> raw rows top\n"
    "                  first, 'ok'; 'png PATH' -> 'ok'; 'quit'.  Errors: 'error MSG'.\n"
    "Exit status: 0 ok, 1 scene/GL/file error, 2 bad arguments.\n";

static double lp_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int lp_int(const char *opt, const char *s, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || !*s || *end || errno || v < lo || v > hi) {
        fprintf(stderr, "mosaic-llvmpipe: %s: expected an integer in %ld..%ld, got '%s'\n", opt, lo, hi,
                s ? s : "");
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Writes N bytes to PATH; 0 or -1 with ERR. */
static int lp_write_raw(const char *path, const void *data, size_t n, char *err, size_t err_size)
{
    return img_write_file(path, data, n, err, err_size);
}

/* 'error MSG' on one protocol line: a compile log's lines joined. */
static void lp_serve_error(const char *msg)
{
    fputs("error ", stdout);
    for (const char *c = msg; *c; c++)
        putchar(*c == '\n' ? ' ' : *c);
    putchar('\n');
}

static int lp_serve(lp_renderer *r, const lp_opts *o)
{
    const size_t n = (size_t)o->width * (size_t)o->height;
    uint8_t *rgba = malloc(n * 4);
    if (!rgba) {
        printf("error out of memory\n");
        return 1;
    }
    printf("ready %s\n", lp_renderer_string(r));
    fflush(stdout);
    char line[4200], err[1024];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        int count = 0;
        char extra;
        if (strcmp(line, "frame") == 0) {
            double t0 = lp_now_ms();
            lp_frame(r);
            printf("ms %.6f\n", lp_now_ms() - t0);
        } else if ((strncmp(line, "accum ", 6) == 0 || strncmp(line, "more ", 5) == 0) &&
                   sscanf(line + (line[0] == 'a' ? 6 : 5), "%d%c", &count, &extra) == 1) {
            if (!o->accum || count < 1 || count > 65536 || (line[0] == 'm' && lp_accum_frames(r) > 65536 - count)) {
                printf("error %s: %s\n", line, !o->accum ? "needs --accum" : "expected 1..65536 sub-frames in all");
            } else {
                double t0 = lp_now_ms();
                lp_accum(r, count, line[0] == 'a');
                printf("ms %.6f frames %d\n", lp_now_ms() - t0, lp_accum_frames(r));
            }
        } else if (strncmp(line, "rgba ", 5) == 0 || strncmp(line, "png ", 4) == 0) {
            lp_read_rgba8(r, rgba);
            int png = line[0] == 'p';
            const char *path = line + (png ? 4 : 5);
            int bad = png ? img_write_png(path, o->width, o->height, rgba, (size_t)o->width * 4, err,
                                          sizeof err) != MOS_OK
                          : lp_write_raw(path, rgba, n * 4, err, sizeof err) != 0;
            if (bad)
                printf("error %s\n", err);
            else
                printf("ok\n");
        } else if (strncmp(line, "ids ", 4) == 0) {
            lp_read_ids(r, (uint32_t *)rgba);
            if (lp_write_raw(line + 4, rgba, n * 4, err, sizeof err) != 0)
                printf("error %s\n", err);
            else
                printf("ok\n");
        } else if (strcmp(line, "quit") == 0) {
            break;
        } else {
            printf("error unknown command '%s'\n", line);
        }
        fflush(stdout);
    }
    free(rgba);
    return 0;
}

int main(int argc, char **argv)
{
    lp_opts o = { .width = 1920, .height = 1080, .spp = 1 };
    int frames = 5, warmup = 1, serve = 0;
    const char *scene_path = NULL, *out_png = NULL, *ids_png = NULL, *agree_png = NULL, *glsl_builtins = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(lp_usage, stdout);
            return 0;
        } else if (strcmp(a, "--serve") == 0) {
            serve = 1;
        } else if (strcmp(a, "--size") == 0) {
            if (!v || sscanf(v, "%dx%d", &o.width, &o.height) != 2 || o.width < 1 || o.height < 1 ||
                o.width > 16384 || o.height > 16384) {
                fprintf(stderr, "mosaic-llvmpipe: --size: expected WxH, got '%s'\n", v ? v : "");
                return 2;
            }
            i++;
        } else if (strcmp(a, "--spp") == 0) {
            if (lp_int(a, v, 1, 64, &o.spp))
                return 2;
            i++;
        } else if (strcmp(a, "--fma") == 0) {
            if (lp_int(a, v, 0, 1 << 16, &o.fma))
                return 2;
            i++;
        } else if (strcmp(a, "--view") == 0) {
            if (lp_int(a, v, 0, 1 << 20, &o.view))
                return 2;
            i++;
        } else if (strcmp(a, "--accum") == 0) {
            if (lp_int(a, v, 1, 65536, &o.accum))
                return 2;
            i++;
        } else if (strcmp(a, "--frames") == 0) {
            if (lp_int(a, v, 1, 100000, &frames))
                return 2;
            i++;
        } else if (strcmp(a, "--warmup") == 0) {
            if (lp_int(a, v, 0, 100000, &warmup))
                return 2;
            i++;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--ids") == 0 || strcmp(a, "--agree") == 0 ||
                   strcmp(a, "--glsl-builtins") == 0) {
            if (!v || !*v) {
                fprintf(stderr, "mosaic-llvmpipe: %s: expected a %s name\n", a, a[2] == 'g' ? "folder" : "file");
                return 2;
            }
            if (a[1] == 'o')
                out_png = v;
            else if (a[2] == 'i')
                ids_png = v;
            else if (a[2] == 'a')
                agree_png = v;
            else
                glsl_builtins = v;
            i++;
        } else if (a[0] == '-') {
            fprintf(stderr, "mosaic-llvmpipe: unknown option '%s'\n", a);
            return 2;
        } else if (!scene_path) {
            scene_path = a;
        } else {
            fprintf(stderr, "mosaic-llvmpipe: unexpected argument '%s'\n", a);
            return 2;
        }
    }
    if (!scene_path) {
        fprintf(stderr, "mosaic-llvmpipe: missing SCENE\nTry 'mosaic-llvmpipe --help'.\n");
        return 2;
    }

    char err[1024] = "";
    scene *s = NULL;
    mos_result res = scene_load_ex(scene_path, &(scene_load_opts){ .glsl_builtins = glsl_builtins }, &s, err,
                                   sizeof err);
    if (res != MOS_OK) {
        fprintf(stderr, "mosaic-llvmpipe: %s\n", *err ? err : mos_result_message(res));
        if (serve)
            lp_serve_error(*err ? err : mos_result_message(res));
        return 1;
    }
    lp_renderer *r = NULL;
    if (lp_create(s, &o, &r, err, sizeof err)) {
        fprintf(stderr, "mosaic-llvmpipe: %s\n", err);
        if (serve)
            lp_serve_error(err);
        scene_free(s);
        return 1;
    }
    scene_free(s);  /* GL has its own copies */
    int rc = 0;
    if (!strstr(lp_renderer_string(r), "llvmpipe"))
        fprintf(stderr, "mosaic-llvmpipe: warning: GL_RENDERER is '%s', not llvmpipe\n",
                lp_renderer_string(r));
    if (serve) {
        rc = lp_serve(r, &o);
        lp_destroy(r);
        return rc;
    }

    const char *lpt = getenv("LP_NUM_THREADS");
    printf("renderer: %s (LP_NUM_THREADS=%s)\n", lp_renderer_string(r), lpt ? lpt : "unset");
    for (int f = 0; f < warmup; f++)
        lp_frame(r);
    double *ms = calloc((size_t)frames, sizeof *ms);
    uint8_t *rgba = malloc((size_t)o.width * (size_t)o.height * 4);
    uint32_t *ids = malloc((size_t)o.width * (size_t)o.height * 4);
    img_rgba8 ref = { 0 };
    if (!ms || !rgba || !ids) {
        fprintf(stderr, "mosaic-llvmpipe: out of memory\n");
        rc = 1;
        goto done;
    }
    for (int f = 0; f < frames; f++) {
        double t0 = lp_now_ms();
        lp_frame(r);
        ms[f] = lp_now_ms() - t0;
    }
    qsort(ms, (size_t)frames, sizeof *ms, cmp_double);
    printf("llvmpipe %dx%d spp=%d accum=%d fma=%d frames=%d median_ms=%.3f min_ms=%.3f max_ms=%.3f\n", o.width,
           o.height, o.spp, o.accum, o.fma, frames,
           frames % 2 ? ms[frames / 2] : 0.5 * (ms[frames / 2 - 1] + ms[frames / 2]), ms[0], ms[frames - 1]);
    if (agree_png) {
        if (img_read(agree_png, &ref, err, sizeof err) != MOS_OK) {
            fprintf(stderr, "mosaic-llvmpipe: --agree: %s\n", err);
            rc = 1;
            goto done;
        }
        if (ref.width != o.width || ref.height != o.height) {
            fprintf(stderr, "mosaic-llvmpipe: --agree: %s is %dx%d, the frame %dx%d\n", agree_png, ref.width,
                    ref.height, o.width, o.height);
            rc = 1;
            goto done;
        }
    }
    lp_read_rgba8(r, rgba);  /* before the ID pass, which overwrites the image */
    if (out_png) {
        if (img_write_png(out_png, o.width, o.height, rgba, (size_t)o.width * 4, err, sizeof err) != MOS_OK) {
            fprintf(stderr, "mosaic-llvmpipe: %s\n", err);
            rc = 1;
        } else {
            printf("wrote %s\n", out_png);
        }
    }
    if (ids_png || agree_png)
        lp_read_ids(r, ids);
    if (ids_png) {
        if (img_write_png(ids_png, o.width, o.height, (const uint8_t *)ids, (size_t)o.width * 4, err, sizeof err) !=
            MOS_OK) {
            fprintf(stderr, "mosaic-llvmpipe: %s\n", err);
            rc = 1;
        } else {
            printf("wrote %s\n", ids_png);
        }
    }
    if (agree_png) {
        bench_agreement ag;  /* mosaic bench's rule (src/tools/bench/agree.c) */
        bench_agree(ref.pixels, rgba, ids, o.width, o.height, 2, &ag);
        printf("agree ref=%s within_2=%.3f%% differing=%llu off_edge=%llu max_abs=%d\n", agree_png,
               ag.pixels ? 100.0 * (double)ag.agree / (double)ag.pixels : 0.0, (unsigned long long)ag.diff,
               (unsigned long long)ag.diff_off_edge, ag.max_abs);
    }
done:
    img_free(&ref);
    free(ms);
    free(ids);
    free(rgba);
    lp_destroy(r);
    return rc;
}
