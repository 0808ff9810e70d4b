/* cli_shader.c — `mosaic shader`: compiles a GLSL shader (glslang -> SPIR-V
 * -> DAG), prints its resources (seed 003 Table 1) and its partition into
 * passes for a pipeline configuration (Table 2) under a cost model, with
 * the partitioner's run time (Table 4); optionally the IR and a Graphviz
 * drawing.  Fed by mosaic.c; uses glsl/ and shader/. */
#include "tools/cli.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "glsl/glsl.h"
#include "shader/shader.h"
#include "util/alloc.h"

static const char shader_usage[] =
    "usage: mosaic shader FILE.frag|FILE.vert [options]\n"
    "\n"
    "Compiles a GLSL 4.50 shader to Mosaic's DAG IR and splits it into passes\n"
    "that fit a pass's resources (Recursive Dominator Split, seed 003).\n"
    "\n"
    "  --pc PC1..PC8          a pipeline configuration of seed Table 2 (o/r/t/v):\n"
    "                         PC1 6/-/-/-  PC2 -/4/-/-  PC3 -/-/4/-  PC4 -/-/-/4\n"
    "                         PC5 6/4/4/4  PC6 24/8/8/8  PC7 128/12/16/12  PC8 unlimited\n"
    "  --limits O,R,T,V       per-pass operations, registers, texture units,\n"
    "                         interpolants (0 = unlimited)\n"
    "  --algo rds|rdsh|optimal   partitioner (default rds)\n"
    "  --view scalar|vector   partition the scalar DAG the VM runs (default), or\n"
    "                         the seed's 4-wide machine: each source instruction's\n"
    "                         nodes one node, ceil(n/4) operations (seed Tables 1, 3)\n"
    "  --cost CP,CT,CI        cost = CP*passes + CT*fetches + CI*instructions\n"
    "                         (default 15,5,1)\n"
    "  --time-limit S         give the optimal search S seconds (default 60)\n"
    "  --dump-ir              print the DAG, one node per line\n"
    "  --dot FILE             write the DAG as Graphviz dot, passes coloured\n"
    "  --spirv FILE           write the SPIR-V glslang made\n"
    "  -h, --help             show this help\n";

static const part_limits pipeline_configs[8] = {
    { 6, 0, 0, 0 }, { 0, 4, 0, 0 }, { 0, 0, 4, 0 }, { 0, 0, 0, 4 },
    { 6, 4, 4, 4 }, { 24, 8, 8, 8 }, { 128, 12, 16, 12 }, { 0, 0, 0, 0 },
};

static int parse_list(const char *s, double *v, int n)
{
    char *end;
    for (int i = 0; i < n; i++) {
        v[i] = strtod(s, &end);
        if (end == s || v[i] < 0 || v[i] > 1e9)
            return -1;
        s = end;
        if (i + 1 < n && *s++ != ',')
            return -1;
    }
    return *s ? -1 : 0;
}

static void print_limit(int v)
{
    if (v)
        printf("%d", v);
    else
        printf("-");
}

/* Seed Table 1: the shader's consumption as one pass, in VIEW. */
static void print_resources(const ir_dag *d, part_view view)
{
    const part_limits unlimited = { 0, 0, 0, 0 };
    const part_costs costs = { 15, 5, 1 };
    part_plan one;
    char err[256];
    if (part_partition_view(d, view, PART_RDSH, &unlimited, &costs, 0, &one, err, sizeof err) != MOS_OK) {
        printf("%s\n", err);
        return;
    }
    const part_usage use = one.pass[one.pass_count - 1].use;
    printf("%s view: nodes %d  multiply-referenced %d  outputs %d\n", view == PART_VECTOR ? "vector" : "scalar",
           view == PART_VECTOR ? one.node_count : d->count, one.mr_count, d->out_count);
    printf("as one pass: operations %d (non-texture %d, texture fetches %d)  registers %d  texture units %d  "
           "interpolants %d\n",
           use.ops, use.instrs, use.fetches, use.regs, use.texs, use.interps);
    part_plan_free(&one);
}

static int print_plan(const ir_dag *d, const part_plan *p, const part_limits *l, const part_costs *c,
                      const char *algo, double seconds)
{
    printf("limits o/r/t/v: ");
    print_limit(l->ops);
    printf("/");
    print_limit(l->regs);
    printf("/");
    print_limit(l->texs);
    printf("/");
    print_limit(l->interps);
    printf("  cost %gp + %gt + %gi\n", c->cp, c->ct, c->ci);
    printf("%s: %d passes, cost %g (t %d, i %d), %d scratch slots, %.3f s%s\n", algo, p->pass_count, p->cost,
           p->fetches, p->instrs, p->slot_count, seconds,
           strcmp(algo, "optimal") == 0 ? (p->complete ? " (proved optimal)" : " (search cut off: best found)") : "");
    printf("  pass  root   ops  regs  texs  interps  restores  slot\n");
    for (int i = 0; i < p->pass_count; i++) {
        const part_pass *s = &p->pass[i];
        printf("  %4d  %4d  %4d  %4d  %4d  %7d  %8d  %4d\n", i, s->root, s->use.ops, s->use.regs, s->use.texs,
               s->use.interps, s->restore_count, s->slot);
    }
    (void)d;
    return 0;
}

/* --dot FILE: the DAG D in Graphviz, each node coloured by its pass in PLAN.  CLI_EXIT_OK or CLI_EXIT_FAIL. */
static int write_dot(const char *dot, const ir_dag *d, const part_plan *plan)
{
    int status = CLI_EXIT_OK;
    int *pass_of = malloc((size_t)d->count * sizeof *pass_of);
    FILE *f = fopen(dot, "w");
    if (!pass_of || !f) {
        fprintf(stderr, "mosaic: %s: cannot write\n", dot);
        status = CLI_EXIT_FAIL;
    } else {
        int *of_node = calloc((size_t)(plan->node_of ? plan->node_count : d->count) + 1, sizeof *of_node);
        for (int i = 0; of_node && i < (plan->node_of ? plan->node_count : d->count); i++)
            of_node[i] = -1;
        for (int k = 0; of_node && k < plan->pass_count; k++)
            for (int i = 0; i < plan->pass[k].node_count; i++)
                of_node[plan->pass[k].nodes[i]] = k;
        /* the vector view colours each scalar node by its vector node's pass */
        for (int i = 0; i < d->count; i++)
            pass_of[i] = !of_node ? -1 : !plan->node_of ? of_node[i]
                         : plan->node_of[i] >= 0 ? of_node[plan->node_of[i]] : -1;
        free(of_node);
        if (ir_dot(d, f, pass_of) < 0)
            status = CLI_EXIT_FAIL;
    }
    if (f && fclose(f) != 0)
        status = CLI_EXIT_FAIL;
    free(pass_of);
    return status;
}

/* The options of `mosaic shader`. */
typedef struct shader_opts {
    const char *file, *dot, *spirv;
    part_limits limits;
    part_costs costs;
    part_algo algo;
    part_view view;
    double time_limit;
    int dump;
} shader_opts;

/* ARGV into O: CLI_EXIT_OK, CLI_EXIT_USAGE (printed) or -1 for --help (printed). */
static int shader_parse(int argc, char **argv, shader_opts *o)
{
    cli_args a = { .argc = argc, .argv = argv, .i = 1, .cmd = "shader" };
    const char *v;
    int r;
    for (; a.i < argc; a.i++) {
        if ((r = cli_help(&a)) != 0) {
            if (r < 0) return CLI_EXIT_USAGE;
            fputs(shader_usage, stdout);
            return -1;
        }
        if ((r = cli_flag(&a, "--dump-ir")) != 0) {
            if (r < 0) return CLI_EXIT_USAGE;
            o->dump = 1;
        } else if ((r = cli_option(&a, "--dot", &v)) != 0) {
            if (r < 0) return CLI_EXIT_USAGE;
            o->dot = v;
        } else if ((r = cli_option(&a, "--spirv", &v)) != 0) {
            if (r < 0) return CLI_EXIT_USAGE;
            o->spirv = v;
        } else if ((r = cli_option(&a, "--pc", &v)) != 0) {
            if (r < 0) return CLI_EXIT_USAGE;
            if (!((v[0] == 'P' || v[0] == 'p') && (v[1] == 'C' || v[1] == 'c') && v[2] >= '1' && v[2] <= '8' && !v[3]))
                return cli_usage_error("shader", "--pc: expected PC1..PC8, got '%s'", v);
            o->limits = pipeline_configs[v[2] - '1'];
        } else if ((r = cli_option(&a, "--limits", &v)) != 0) {
            double l[4];
            if (r < 0) return CLI_EXIT_USAGE;
            if (parse_list(v, l, 4) < 0)
                return cli_usage_error("shader", "--limits: expected O,R,T,V (0 = unlimited), got '%s'", v);
            o->limits = (part_limits){ (int)l[0], (int)l[1], (int)l[2], (int)l[3] };
        } else if ((r = cli_option(&a, "--cost", &v)) != 0) {
            double c[3];
            if (r < 0) return CLI_EXIT_USAGE;
            if (parse_list(v, c, 3) < 0)
                return cli_usage_error("shader", "--cost: expected CP,CT,CI, got '%s'", v);
            o->costs = (part_costs){ c[0], c[1], c[2] };
        } else if ((r = cli_option(&a, "--algo", &v)) != 0) {
            if (r < 0) return CLI_EXIT_USAGE;
            if (strcmp(v, "rds") == 0) o->algo = PART_RDS;
            else if (strcmp(v, "rdsh") == 0) o->algo = PART_RDSH;
            else if (strcmp(v, "optimal") == 0) o->algo = PART_OPTIMAL;
            else return cli_usage_error("shader", "--algo: expected rds, rdsh or optimal, got '%s'", v);
        } else if ((r = cli_option(&a, "--view", &v)) != 0) {
            if (r < 0) return CLI_EXIT_USAGE;
            if (strcmp(v, "scalar") == 0) o->view = PART_SCALAR;
            else if (strcmp(v, "vector") == 0) o->view = PART_VECTOR;
            else return cli_usage_error("shader", "--view: expected scalar or vector, got '%s'", v);
        } else if ((r = cli_option(&a, "--time-limit", &v)) != 0) {
            float t;
            if (r < 0 || cli_parse_float("shader", "--time-limit", v, 0.001, 86400, &t) != 0)
                return CLI_EXIT_USAGE;
            o->time_limit = t;
        } else if (cli_is_option(&a)) {
            return cli_usage_error("shader", "unknown option '%s'", argv[a.i]);
        } else if (!o->file) {
            o->file = argv[a.i];
        } else {
            return cli_usage_error("shader", "one shader file, got '%s' too", argv[a.i]);
        }
    }
    if (!o->file)
        return cli_usage_error("shader", "missing FILE.frag or FILE.vert");
    return CLI_EXIT_OK;
}

int cli_shader_main(int argc, char **argv)
{
    shader_opts o = { .costs = { 15, 5, 1 }, .algo = PART_RDS, .view = PART_SCALAR, .time_limit = 60 };
    int r = shader_parse(argc, argv, &o);
    if (r != CLI_EXIT_OK)
        return r < 0 ? CLI_EXIT_OK : r;
    const char *file = o.file, *dot = o.dot, *spirv = o.spirv;
    const part_algo algo = o.algo;
    const part_view view = o.view;
    char err[2048];
    uint32_t *words;
    size_t count;
    glsl_stage stage;
    if (glsl_compile_file(file, NULL, &words, &count, &stage, err, sizeof err) != MOS_OK) {
        fprintf(stderr, "%s\n", err);
        return CLI_EXIT_FAIL;
    }
    if (spirv) {
        FILE *f = fopen(spirv, "wb");
        const int ok = f && fwrite(words, sizeof *words, count, f) == count;
        if ((f && fclose(f) != 0) || !ok) {
            fprintf(stderr, "mosaic: %s: cannot write\n", spirv);
            util_free(NULL, words);
            return CLI_EXIT_FAIL;
        }
    }
    spv_shader sh;
    const mos_result rc = spv_translate(words, count, stage == GLSL_VERTEX ? IR_VERTEX : IR_FRAGMENT, file, &sh,
                                        err, sizeof err);
    util_free(NULL, words);
    if (rc != MOS_OK) {
        fprintf(stderr, "%s\n", err);
        return CLI_EXIT_FAIL;
    }
    const ir_dag *d = &sh.dag;
    printf("%s: %s shader\n", file, stage == GLSL_VERTEX ? "vertex" : "fragment");
    print_resources(d, view);
    if (o.dump)
        ir_print(d, stdout);
    part_plan plan;
    const clock_t t0 = clock();
    if (part_partition_view(d, view, algo, &o.limits, &o.costs, o.time_limit, &plan, err, sizeof err) != MOS_OK) {
        fprintf(stderr, "%s: %s\n", file, err);
        spv_shader_free(&sh);
        return CLI_EXIT_FAIL;
    }
    const double seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
    print_plan(d, &plan, &o.limits, &o.costs, algo == PART_RDS ? "rds" : algo == PART_RDSH ? "rdsh" : "optimal",
               seconds);
    int status = CLI_EXIT_OK;
    if (dot)
        status = write_dot(dot, d, &plan);
    part_plan_free(&plan);
    spv_shader_free(&sh);
    return status;
}
