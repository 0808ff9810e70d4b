/* test_patterns.c — each bin pattern's defining property (seed 000 section 4, seed 002), seeds,
 * file: tables and their errors, and that every pattern renders the default scene identically.
 * Fed by make test; links the library's internal pattern header and src/scene (TOOLS_A). */
#include <unistd.h>

#include "testutil.h"
#include "pattern/pattern.h"
#include "scene/scene.h"

#define SCENE_PATH "scenes/default.scene"

static char errbuf[512];

/* Builds NAME for N workers on a W x H grid; NULL owner (and a failed check) on error. */
static pattern_table build(const char *name, int n, int w, int h)
{
    pattern_table t;
    mos_result r = pattern_build(&t, name, n, w, h, NULL, errbuf, sizeof errbuf);
    CHECK_MSG(r == MOS_OK, "%s with %d workers: %s", name, n, errbuf);
    return t;
}
static int own(const pattern_table *t, int x, int y) { return t->owner[(size_t)y * (size_t)t->bins_x + (size_t)x]; }

static void test_registry(void)
{
    static const char *const want[] = { "diagonal", "zcurve", "hilbert", "prut", "hmd", "xshift", "yshift",
                                        "xshift-offset", "sudoku", "vdc", "g80" };
    const char *const *names = mos_pattern_names();
    int n = 0;
    while (names[n]) n++;
    CHECK_EQ_INT(n, (int)(sizeof want / sizeof want[0]));
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *d = mos_pattern_describe(want[i]);
        CHECK_MSG(d && *d, "%s has no description", want[i]);
    }
    CHECK(mos_pattern_describe("nope") == NULL);
    pattern_table t;
    CHECK_RES(pattern_build(&t, "nope", 4, 8, 8, NULL, errbuf, sizeof errbuf), MOS_ERR_UNKNOWN_PATTERN);
    CHECK_RES(pattern_build(&t, "diagonal:3", 4, 8, 8, NULL, errbuf, sizeof errbuf), MOS_ERR_UNKNOWN_PATTERN);
    CHECK_RES(pattern_build(&t, "prut:x", 4, 8, 8, NULL, errbuf, sizeof errbuf), MOS_ERR_UNKNOWN_PATTERN);
    CHECK_RES(pattern_build(&t, "prut:", 4, 8, 8, NULL, errbuf, sizeof errbuf), MOS_ERR_UNKNOWN_PATTERN);
    CHECK_RES(pattern_build(&t, "g80", 5, 8, 8, NULL, errbuf, sizeof errbuf), MOS_ERR_PATTERN_WORKERS);
}

/* MT19937 reference outputs (init_genrand(5489): 3499211612; init_by_array
 * {0x123, 0x234, 0x345, 0x456}'s first is 1067595299 — we only have 2-word keys,
 * so check the classic default and the 10000th output of seed 5489). */
static void test_mt19937(void)
{
    pattern_mt m;
    pattern_mt_seed(&m, 5489u);
    CHECK_EQ_INT(pattern_mt_next(&m), 3499211612u);
    pattern_mt_seed(&m, 5489u);
    uint32_t v = 0;
    for (int i = 0; i < 10000; i++) v = pattern_mt_next(&m);
    CHECK_EQ_INT(v, 4123659995u);  /* std::mt19937 10000th output (C++ standard) */
}

static void test_formulas(void)
{
    for (int n = 1; n <= 64; n++) {
        pattern_table t = build("diagonal", n, 37, 29);
        if (!t.owner) continue;
        for (int y = 0; y < 29; y++)
            for (int x = 0; x < 37; x++) CHECK_EQ_INT(own(&t, x, y), (x + y) % n);
        pattern_free(&t, NULL);
    }
    static const int g80_shift[6] = { 0, 2, 4, 1, 5, 3 };
    pattern_table t = build("g80", 6, 40, 30);
    if (t.owner) {
        for (int y = 0; y < 30; y++)
            for (int x = 0; x < 40; x++) CHECK_EQ_INT(own(&t, x, y), (x + g80_shift[y % 6]) % 6);
        pattern_free(&t, NULL);
    }
    /* zcurve / hilbert: Morton code and Hilbert distance mod N */
    CHECK_EQ_INT(pattern_morton(3, 5), 39);  /* x=011 y=101 -> 100111 */
    /* The curve from (0, 0) fills the 64x64 corner first, one neighbour step at a time. */
    int seen[64 * 64] = { 0 };
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 64; x++) {
            uint64_t d = pattern_hilbert(x, y);
            CHECK_MSG(d < 64 * 64, "hilbert(%u,%u) = %llu leaves the 64x64 corner", x, y, (unsigned long long)d);
            if (d < 64 * 64) seen[d]++;
        }
    for (int d = 0; d < 64 * 64; d++) CHECK_EQ_INT(seen[d], 1);
    /* consecutive distances are 4-neighbours */
    int pos[64 * 64][2];
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 64; x++) {
            uint64_t d = pattern_hilbert(x, y);
            if (d < 64 * 64) pos[d][0] = (int)x, pos[d][1] = (int)y;
        }
    for (int d = 1; d < 64 * 64; d++) {
        int dx = abs(pos[d][0] - pos[d - 1][0]), dy = abs(pos[d][1] - pos[d - 1][1]);
        CHECK_MSG(dx + dy == 1, "hilbert step %d is not to a neighbour", d);
    }
    CHECK_EQ_INT(pattern_hilbert(0, 0), 0);
    for (int n = 2; n <= 20; n++) {
        pattern_table z = build("zcurve", n, 33, 17), h = build("hilbert", n, 33, 17);
        for (int y = 0; y < 17 && z.owner && h.owner; y++)
            for (int x = 0; x < 33; x++) {
                CHECK_EQ_INT(own(&z, x, y), (int)(pattern_morton((uint32_t)x, (uint32_t)y) % (uint64_t)n));
                CHECK_EQ_INT(own(&h, x, y), (int)(pattern_hilbert((uint32_t)x, (uint32_t)y) % (uint64_t)n));
            }
        pattern_free(&z, NULL), pattern_free(&h, NULL);
    }
    /* vdc for N = 8 is the table in seed 000 (Figure 6j): shifts 0 4 2 6 1 5 3 7 */
    static const int vdc8[8] = { 0, 4, 2, 6, 1, 5, 3, 7 };
    t = build("vdc", 8, 8, 8);
    if (t.owner) {
        for (int y = 0; y < 8; y++) CHECK_EQ_INT(own(&t, 0, y), vdc8[y]);
        pattern_free(&t, NULL);
    }
    /* vdc for N = 6: 2^3 = 8, sequence 0 4 2 6 1 5 3 7, values >= 6 skipped */
    static const int vdc6[6] = { 0, 4, 2, 1, 5, 3 };
    t = build("vdc", 6, 6, 6);
    if (t.owner) {
        for (int y = 0; y < 6; y++) CHECK_EQ_INT(own(&t, 0, y), vdc6[y]);
        pattern_free(&t, NULL);
    }
    /* xshift: row shift floor(i N / k) mod N, k = floor(sqrt N) */
    for (int n = 1; n <= 64; n++) {
        int k = 1;
        while ((k + 1) * (k + 1) <= n) k++;
        pattern_table xs = build("xshift", n, 70, 70), ys = build("yshift", n, 70, 70);
        for (int y = 0; y < 70 && xs.owner && ys.owner; y++)
            for (int x = 0; x < 70; x++) {
                CHECK_EQ_INT(own(&xs, x, y), (x + (y * n / k) % n) % n);
                CHECK_EQ_INT(own(&ys, x, y), (y + (x * n / k) % n) % n);
            }
        pattern_free(&xs, NULL), pattern_free(&ys, NULL);
    }
    /* xshift-offset equals floor(i (N + 1) / k) mod N where those shifts are distinct */
    static const int xso_exact[] = { 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 16, 25 };
    for (size_t i = 0; i < sizeof xso_exact / sizeof xso_exact[0]; i++) {
        int n = xso_exact[i], k = 1;
        while ((k + 1) * (k + 1) <= n) k++;
        pattern_table xo = build("xshift-offset", n, n, n);
        for (int y = 0; y < n && xo.owner; y++) CHECK_EQ_INT(own(&xo, 0, y), (y * (n + 1) / k) % n);
        pattern_free(&xo, NULL);
    }
}

/* Every worker occurs equally often in each period tile px x py (anchored anywhere). */
static void check_equal_occurrence(const char *name, int n, int px, int py)
{
    const int w = 3 * px + 5, h = 3 * py + 3;
    pattern_table t = build(name, n, w, h);
    if (!t.owner) return;
    int count[MOS_MAX_WORKERS];
    const int anchors[3][2] = { { 0, 0 }, { px / 2 + 1, py / 3 + 1 }, { px + 3, py + 2 } };
    for (int a = 0; a < 3; a++) {
        memset(count, 0, sizeof count);
        for (int y = 0; y < py; y++)
            for (int x = 0; x < px; x++) count[own(&t, anchors[a][0] + x, anchors[a][1] + y)]++;
        for (int r = 0; r < n; r++)
            CHECK_MSG(count[r] * n == px * py, "%s N=%d: worker %d owns %d of the %dx%d tile", name, n, r, count[r],
                      px, py);
    }
    pattern_free(&t, NULL);
}

static void test_equal_occurrence(void)
{
    for (int n = 1; n <= (TEST_SANITIZED ? 24 : 64); n++) {
        int k = 1;
        while ((k + 1) * (k + 1) <= n) k++;
        check_equal_occurrence("diagonal", n, n, 1);
        check_equal_occurrence("xshift", n, n, k);
        check_equal_occurrence("yshift", n, k, n);
        check_equal_occurrence("xshift-offset", n, n, n);
        check_equal_occurrence("sudoku", n, n, n);
        check_equal_occurrence("vdc", n, n, n);
        check_equal_occurrence("hmd", n, n, n);
    }
    check_equal_occurrence("g80", 6, 6, 6);
    for (int e = 1; e <= 4; e++) {  /* power-of-two N: zcurve/hilbert over aligned 2^k squares */
        int n = 1 << (2 * e), side = 1 << e;
        pattern_table z = build("zcurve", n, 4 * side, 4 * side), h = build("hilbert", n, 4 * side, 4 * side);
        for (int by = 0; by < 4 && z.owner && h.owner; by++)
            for (int bx = 0; bx < 4; bx++) {
                int cz[256] = { 0 }, ch[256] = { 0 };
                for (int y = 0; y < side; y++)
                    for (int x = 0; x < side; x++)
                        cz[own(&z, bx * side + x, by * side + y)]++, ch[own(&h, bx * side + x, by * side + y)]++;
                for (int r = 0; r < n; r++) {
                    CHECK_EQ_INT(cz[r], 1);
                    CHECK_EQ_INT(ch[r], 1);
                }
            }
        pattern_free(&z, NULL), pattern_free(&h, NULL);
    }
}

/* Latin square: in every N x N window, each row and each column holds every worker once. */
static void check_latin(const char *name, int n)
{
    const int w = 2 * n + 3, h = 2 * n + 1;
    pattern_table t = build(name, n, w, h);
    if (!t.owner) return;
    int bad = 0;
    for (int y = 0; y < h && !bad; y++)  /* rows: any N consecutive bins */
        for (int x0 = 0; x0 + n <= w && !bad; x0++) {
            uint8_t seen[MOS_MAX_WORKERS] = { 0 };
            for (int x = x0; x < x0 + n; x++) bad |= seen[own(&t, x, y)]++;
        }
    for (int x = 0; x < w && !bad; x++)  /* columns: any N consecutive bins */
        for (int y0 = 0; y0 + n <= h && !bad; y0++) {
            uint8_t seen[MOS_MAX_WORKERS] = { 0 };
            for (int y = y0; y < y0 + n; y++) bad |= seen[own(&t, x, y)]++;
        }
    CHECK_MSG(!bad, "%s N=%d repeats a worker within N bins of a row or column", name, n);
    pattern_free(&t, NULL);
}

static void test_latin(void)
{
    for (int n = 1; n <= (TEST_SANITIZED ? 40 : 96); n++) {
        check_latin("sudoku", n);
        check_latin("vdc", n);
        check_latin("xshift-offset", n);  /* no vertical repetition within N rows */
    }
    check_latin("sudoku:12345", 40);
}

static int tables_equal(const pattern_table *a, const pattern_table *b)
{
    return a->owner && b->owner && a->bins_x == b->bins_x && a->bins_y == b->bins_y &&
           memcmp(a->owner, b->owner, (size_t)a->bins_x * (size_t)a->bins_y * sizeof *a->owner) == 0;
}

static void test_seeds(void)
{
    static const char *const seeded[] = { "prut", "hmd", "sudoku" };
    char a[64], b[64];
    for (int i = 0; i < 3; i++) {
        const int n = 20;
        pattern_table d0 = build(seeded[i], n, 60, 40);
        snprintf(a, sizeof a, "%s:%u", seeded[i], PATTERN_DEFAULT_SEED);
        pattern_table d1 = build(a, n, 60, 40);
        CHECK_MSG(tables_equal(&d0, &d1), "%s: the default seed is not %u", seeded[i], PATTERN_DEFAULT_SEED);
        snprintf(a, sizeof a, "%s:7", seeded[i]);
        snprintf(b, sizeof b, "%s:8", seeded[i]);
        pattern_table s7 = build(a, n, 60, 40), s7b = build(a, n, 60, 40), s8 = build(b, n, 60, 40);
        CHECK_MSG(tables_equal(&s7, &s7b), "%s is not reproducible from its seed", a);
        CHECK_MSG(!tables_equal(&s7, &s8), "%s and %s give the same table", a, b);
        pattern_free(&d0, NULL), pattern_free(&d1, NULL), pattern_free(&s7, NULL), pattern_free(&s7b, NULL),
            pattern_free(&s8, NULL);
    }
    /* prut is a uniform draw per bin: all workers show up, roughly equally */
    pattern_table p = build("prut", 8, 120, 68);
    if (p.owner) {
        int c[8] = { 0 };
        for (int i = 0; i < 120 * 68; i++) c[p.owner[i]]++;
        for (int r = 0; r < 8; r++) CHECK_MSG(c[r] > 850 && c[r] < 1190, "prut worker %d owns %d of 8160", r, c[r]);
        pattern_free(&p, NULL);
    }
}

/* ---- file: tables ---------------------------------------------------------------- */

static char tmpdir[64];

static const char *write_tmp(const char *name, const char *text)
{
    static char path[160];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    if (!f) return path;
    fputs(text, f);
    fclose(f);
    return path;
}

static void expect_file_error(const char *text, int workers, mos_result code, const char *where, const char *what)
{
    const char *path = write_tmp("bad.pattern", text);
    char name[200];
    snprintf(name, sizeof name, "file:%s", path);
    pattern_table t;
    mos_result r = pattern_build(&t, name, workers, 10, 10, NULL, errbuf, sizeof errbuf);
    CHECK_MSG(r == code, "'%s' gave %s, expected %s (%s)", text, mos_result_name(r), mos_result_name(code), errbuf);
    char loc[200];
    snprintf(loc, sizeof loc, "%s:%s: ", path, where);
    CHECK_MSG(strncmp(errbuf, loc, strlen(loc)) == 0, "'%s': message '%s' does not start with '%s'", text, errbuf, loc);
    CHECK_MSG(strstr(errbuf, what) != NULL, "'%s': message '%s' lacks '%s'", text, errbuf, what);
    if (r == MOS_OK) pattern_free(&t, NULL);
}

static void test_file(void)
{
    const char *path = write_tmp("ok.pattern", "# a 3-worker table\nworkers 3\n\n2 0   # top row\n0 1\n");
    char name[200];
    snprintf(name, sizeof name, "file:%s", path);
    pattern_table t = build(name, 3, 5, 4);
    if (t.owner) {
        /* bottom row (tile row listed last) is "0 1", the next "2 0" */
        static const int want[4][5] = { { 0, 1, 0, 1, 0 }, { 2, 0, 2, 0, 2 }, { 0, 1, 0, 1, 0 }, { 2, 0, 2, 0, 2 } };
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 5; x++) CHECK_EQ_INT(own(&t, x, y), want[y][x]);
        pattern_free(&t, NULL);
    }
    expect_file_error("", 3, MOS_ERR_PARSE, "1:1", "workers");
    expect_file_error("0 1 2\n", 3, MOS_ERR_PARSE, "1:1", "expected 'workers N'");
    expect_file_error("workers 4\n0 1 2 3\n", 3, MOS_ERR_PATTERN_WORKERS, "1:9", "for 4 workers");
    expect_file_error("workers x\n", 3, MOS_ERR_PARSE, "1:9", "worker count");
    expect_file_error("workers 3 3\n", 3, MOS_ERR_PARSE, "1:11", "unexpected text");
    expect_file_error("workers 3\n", 3, MOS_ERR_PARSE, "2:1", "rows of the tile");
    expect_file_error("workers 3\n0 1 2\n0 1 5\n", 3, MOS_ERR_PARSE, "3:5", "worker index 0..2, got '5'");
    expect_file_error("workers 3\n0 1 2\n0 1 -1\n", 3, MOS_ERR_PARSE, "3:5", "got '-1'");
    expect_file_error("workers 3\n0 1 2\n0 1x 2\n", 3, MOS_ERR_PARSE, "3:3", "got '1x'");
    expect_file_error("workers 3\n0 1 2\n0 1\n", 3, MOS_ERR_PARSE, "3:4", "row has 2 entries, the first row has 3");
    expect_file_error("workers 3\n0 1 2\n0 1 2 0\n", 3, MOS_ERR_PARSE, "3:7", "more entries");
    expect_file_error("workers 3\n0 1\n1 0\n", 3, MOS_ERR_PARSE, "4:1", "worker 2 owns no bin");
    pattern_table u;
    snprintf(name, sizeof name, "file:%s/missing.pattern", tmpdir);
    CHECK_RES(pattern_build(&u, name, 3, 4, 4, NULL, errbuf, sizeof errbuf), MOS_ERR_IO);
    CHECK_RES(pattern_build(&u, "file:", 3, 4, 4, NULL, errbuf, sizeof errbuf), MOS_ERR_UNKNOWN_PATTERN);
}

/* ---- every name renders the default scene bit-identically ------------------------- */

static uint8_t *render_scene(mos_context *ctx, scene_gpu *g, const char *pattern, int w, int h, const float clear[4])
{
    mos_pipeline_desc pd = { .threads = 6, .pattern = pattern };
    if (!CHECK_OK_B(mos_context_configure(ctx, &pd))) {
        fprintf(stderr, "  %s: %s\n", pattern, mos_last_error(ctx));
        return NULL;
    }
    mos_target rt;
    if (!CHECK_OK_B(mos_target_create(ctx, &(mos_target_desc){ .width = w, .height = h, .samples = 1 }, &rt)))
        return NULL;
    uint8_t *px = malloc((size_t)w * (size_t)h * 4);
    mos_frame_desc fd = { .target = rt };
    memcpy(fd.clear_rgba, clear, sizeof fd.clear_rgba);
    mos_frame_stats st;
    scene_draw_opts o = { .width = w, .height = h };
    if (px && CHECK_OK_B(mos_begin_frame(ctx, &fd)) && CHECK_OK_B(scene_draw(g, ctx, &o)) &&
        CHECK_OK_B(mos_end_frame(ctx, &st)) && CHECK_OK_B(mos_target_read_rgba8(ctx, rt, px, (size_t)w * 4))) {
        CHECK_EQ_INT(st.threads, 6);
    } else {
        free(px);
        px = NULL;
    }
    mos_target_destroy(ctx, rt);
    return px;
}

static void test_render_identical(void)
{
    const int w = 320, h = 180;
    scene *s = NULL;
    if (!CHECK_MSG(scene_load(SCENE_PATH, &s, errbuf, sizeof errbuf) == MOS_OK, "%s", errbuf)) return;
    mos_context *ctx = NULL;
    if (!CHECK_OK_B(mos_context_create(&(mos_context_desc){ .pipeline = { .threads = 6 } }, &ctx))) {
        scene_free(s);
        return;
    }
    scene_gpu *g = NULL;
    float clear[4];
    scene_clear_color(s, clear);
    if (CHECK_OK_B(scene_upload(s, ctx, &g))) {
        /* a file: table of 6 workers (12th name) */
        const char *fp = write_tmp("six.pattern", "workers 6\n5 4 3 2 1 0\n0 2 4 1 3 5\n");
        char fname[200];
        snprintf(fname, sizeof fname, "file:%s", fp);
        uint8_t *ref = render_scene(ctx, g, "diagonal", w, h, clear);
        long nonbg = 0;
        for (int i = 0; ref && i < w * h; i++)
            nonbg += memcmp(ref + 4 * i, ref, 4) != 0;
        CHECK_MSG(nonbg > w * h / 10, "the reference image is nearly empty (%ld pixels differ from the first)", nonbg);
        const char *const *names = mos_pattern_names();
        int count = 0;
        for (int i = 0; ref && names[i]; i++) {
            uint8_t *img = render_scene(ctx, g, names[i], w, h, clear);
            CHECK_MSG(img && memcmp(img, ref, (size_t)w * (size_t)h * 4) == 0, "pattern %s changes the image", names[i]);
            free(img);
            count++;
        }
        static const char *const extra[] = { "prut:99", "hmd:3", "sudoku:1" };
        for (int i = 0; ref && i < 3; i++) {
            uint8_t *img = render_scene(ctx, g, extra[i], w, h, clear);
            CHECK_MSG(img && memcmp(img, ref, (size_t)w * (size_t)h * 4) == 0, "pattern %s changes the image", extra[i]);
            free(img);
        }
        uint8_t *img = ref ? render_scene(ctx, g, fname, w, h, clear) : NULL;
        CHECK_MSG(img && memcmp(img, ref, (size_t)w * (size_t)h * 4) == 0, "pattern %s changes the image", fname);
        free(img);
        count++;
        CHECK_EQ_INT(count, 12);
        free(ref);
    }
    scene_gpu_free(g, ctx);
    mos_context_destroy(ctx);
    scene_free(s);
}

int main(void)
{
    if (!tu_tmpdir(tmpdir, sizeof tmpdir, "patterns")) return 1;
    TEST_RUN(test_registry);
    TEST_RUN(test_mt19937);
    TEST_RUN(test_formulas);
    TEST_RUN(test_equal_occurrence);
    TEST_RUN(test_latin);
    TEST_RUN(test_seeds);
    TEST_RUN(test_file);
    TEST_RUN(test_render_identical);
    tu_rmtree(tmpdir);
    return TEST_EXIT();
}
