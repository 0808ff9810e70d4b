/* cli_diff.c — `mosaic diff A B`: PSNR, largest channel difference, differing pixels and SSIM.
 * Fed by mosaic.c; reads both images through image/. */
#include "tools/cli.h"

#include <string.h>

#include "image/image.h"

static const char diff_usage[] =
    "usage: mosaic diff A.png B.png [--ignore-alpha]\n"
    "\n"
    "Compares two images of the same size and prints one line:\n"
    "  psnr_db=P max_abs=M differing_pixels=N ssim=S\n"
    "P is the PSNR in dB over R, G, B and A ('inf' when identical), M the largest\n"
    "absolute channel difference (0..255), N the number of pixels that differ, S the\n"
    "mean SSIM over R, G and B, each on its own (11x11 Gaussian window, sigma 1.5;\n"
    "1 when identical; images under 11 pixels a side are one window).\n"
    "\n"
    "  --ignore-alpha   compare R, G, B only\n"
    "  -h, --help       show this help\n"
    "\n"
    "Exit status: 0 when compared (whatever the result), 2 for bad arguments,\n"
    "unreadable files or images of different sizes.\n";

int cli_diff_main(int argc, char **argv)
{
    cli_args a = { .argc = argc, .argv = argv, .cmd = "diff" };
    const char *paths[2] = { NULL, NULL };
    int npaths = 0, with_alpha = 1, r;
    for (a.i = 1; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        if (cli_end_of_options(&a)) {
            continue;
        } else if ((r = cli_help(&a)) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
            fputs(diff_usage, stdout);
            return CLI_EXIT_OK;
        } else if ((r = cli_flag(&a, "--ignore-alpha")) != 0) {
            if (r < 0)
                return CLI_EXIT_USAGE;
            with_alpha = 0;
        } else if (cli_is_option(&a)) {
            return cli_usage_error(a.cmd, "unknown option '%s'", arg);
        } else if (npaths < 2) {
            paths[npaths++] = arg;
        } else {
            return cli_usage_error(a.cmd, "unexpected argument '%s' (diff takes two images)", arg);
        }
    }
    if (npaths < 2)
        return cli_usage_error(a.cmd, "expected two images, got %d", npaths);

    img_rgba8 img[2] = { { 0 }, { 0 } };
    char err[1024];
    int rc = CLI_EXIT_USAGE;
    for (int k = 0; k < 2; k++) {
        mos_result res = img_read(paths[k], &img[k], err, sizeof err);
        if (res != MOS_OK) {
            fprintf(stderr, "mosaic: diff: %s\n", err);
            rc = res == MOS_ERR_OUT_OF_MEMORY ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
            goto done;
        }
    }
    if (img[0].width != img[1].width || img[0].height != img[1].height) {
        fprintf(stderr, "mosaic: diff: image sizes differ: %s is %dx%d, %s is %dx%d\n", paths[0],
                img[0].width, img[0].height, paths[1], img[1].width, img[1].height);
        goto done;
    }
    img_diff_result d;
    if (img_diff(&img[0], &img[1], with_alpha, &d, err, sizeof err) != MOS_OK) {
        fprintf(stderr, "mosaic: diff: %s\n", err);
        goto done;
    }
    double ssim;
    mos_result res = img_ssim(&img[0], &img[1], &ssim, err, sizeof err);
    if (res != MOS_OK) {
        fprintf(stderr, "mosaic: diff: %s\n", err);
        rc = res == MOS_ERR_OUT_OF_MEMORY ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
        goto done;
    }
    char psnr[32];
    img_format_psnr(d.psnr_db, psnr, sizeof psnr);
    printf("psnr_db=%s max_abs=%d differing_pixels=%llu ssim=%.6f\n", psnr, d.max_abs,
           (unsigned long long)d.differing_pixels, ssim);
    rc = CLI_EXIT_OK;
done:
    img_free(&img[0]);
    img_free(&img[1]);
    return rc;
}
