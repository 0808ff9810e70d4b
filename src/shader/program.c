/* program.c — building a compiled shader pair and running it behind the
 * native shader interface: the vertex entry turns the batch's interleaved
 * attributes into lane arrays and back; the fragment entry hands the
 * batch's lane arrays to the VM as they are, 64 lanes at a time.
 * Fed by api/resources.c (mos_shader_create_spirv) and src/tools. */
#include "shader/program.h"

#include <string.h>

#include "shader/shader_isa.h"
#include "util/alloc.h"

/* The fragment shader reads its inputs where the vertex shader wrote the same
 * locations: INPUT k of the fragment DAG is renumbered to the vertex stage's
 * packing. */
static int link_varyings(shader_program *p, const char *vs_name, const char *fs_name, char *err, size_t err_size)
{
    spv_shader *vs = &p->vs, *fs = &p->fs;
    int fs_base = 0, map[256];
    for (int i = 0; i < 256; i++)
        map[i] = -1;
    for (int i = 0; i < fs->in_count; i++) {
        int vs_base = 0, found = 0;
        for (int j = 0; j < vs->out_count; j++) {
            if (vs->out[j].location == fs->in[i].location) {
                if (vs->out[j].floats != fs->in[i].floats) {
                    snprintf(err, err_size, "%s: location %d: %s writes %d floats, the fragment shader reads %d", fs_name,
                             fs->in[i].location, vs_name, vs->out[j].floats, fs->in[i].floats);
                    return -1;
                }
                for (int k = 0; k < fs->in[i].floats && fs_base + k < 256; k++)
                    map[fs_base + k] = vs_base + k;
                found = 1;
            }
            vs_base += vs->out[j].floats;
        }
        if (!found) {
            snprintf(err, err_size, "%s: location %d: the fragment shader reads a varying %s does not write", fs_name,
                     fs->in[i].location, vs_name);
            return -1;
        }
        fs_base += fs->in[i].floats;
    }
    ir_dag *d = &fs->dag;
    d->input_count = 0;
    for (int n = 0; n < d->count; n++)
        if (d->node[n].op == IR_INPUT) {
            const int k = d->node[n].v.index;
            d->node[n].v.index = k >= 0 && k < 256 ? map[k] : -1;
            if (d->node[n].v.index < 0) {
                snprintf(err, err_size, "internal error: unmapped varying");
                return -1;
            }
            if (d->node[n].v.index + 1 > d->input_count)
                d->input_count = d->node[n].v.index + 1;
        }
    if (vs->varying_floats > MOS_MAX_VARYINGS) {
        snprintf(err, err_size, "%s: the vertex shader writes %d varying floats; at most %d", vs_name,
                 vs->varying_floats, MOS_MAX_VARYINGS);
        return -1;
    }
    /* The pair passes on only the varyings up to the last one the fragment
     * shader reads: setup and interpolation never see the rest. */
    p->varying_count = d->input_count < vs->varying_floats ? d->input_count : vs->varying_floats;
    return 0;
}

static size_t align64(size_t n) { return (n + 63) / 64 * 64; }

mos_result program_build(const uint32_t *vs, size_t vs_words, const uint32_t *fs, size_t fs_words,
                         const char *vs_name, const char *fs_name, const program_options *opt, shader_program **out,
                         char *err, size_t err_size)
{
    *out = NULL;
    const program_options none = { .costs = { 15, 5, 1 } };
    if (!opt)
        opt = &none;
    const mos_allocator *a = opt->allocator;
    shader_program *p = util_calloc(a, 1, sizeof *p);
    if (!p) {
        snprintf(err, err_size, "out of memory");
        return MOS_ERR_OUT_OF_MEMORY;
    }
    p->alloc = a;
    mos_result rc = MOS_ERR_INVALID_ARGUMENT;
    p->lanes = opt->lanes > 0 ? opt->lanes : PROGRAM_LANES;
    if (p->lanes % 16 || p->lanes > 1 << 16) {
        snprintf(err, err_size, "batch lanes %d is not a multiple of 16 up to 65536", p->lanes);
        goto fail;
    }
    if ((rc = spv_translate_alloc(vs, vs_words, IR_VERTEX, vs_name, a, &p->vs, err, err_size)) != MOS_OK ||
        (rc = spv_translate_alloc(fs, fs_words, IR_FRAGMENT, fs_name, a, &p->fs, err, err_size)) != MOS_OK)
        goto fail;
    rc = MOS_ERR_SHADER;  /* what the checks of the pair below report */
    if (p->vs.dag.input_count > PROGRAM_MAX_INPUTS) {
        snprintf(err, err_size, "%s: the vertex shader reads %d input floats; Mosaic's limit is %d", vs_name,
                 p->vs.dag.input_count, PROGRAM_MAX_INPUTS);
        goto fail;
    }
    if (p->fs.input_floats > MOS_MAX_VARYINGS) {
        snprintf(err, err_size, "%s: the fragment shader reads %d varying floats; Mosaic's limit is %d (MOS_MAX_VARYINGS)",
                 fs_name, p->fs.input_floats, MOS_MAX_VARYINGS);
        goto fail;
    }
    if (link_varyings(p, vs_name, fs_name, err, err_size) < 0)
        goto fail;
    {
        const spv_shader *u = p->fs.uniform_bytes >= p->vs.uniform_bytes ? &p->fs : &p->vs;
        const char *name = u == &p->fs ? fs_name : vs_name;
        p->uniform_bytes = u->uniform_bytes;
        if (u->uniform_line > 0)
            snprintf(p->uniform_where, sizeof p->uniform_where, "%s:%d", name, u->uniform_line);
        else
            snprintf(p->uniform_where, sizeof p->uniform_where, "%s", name);
    }
    if (p->vs.texture_units) {
        snprintf(err, err_size, "%s: textures are read in the fragment shader only", vs_name);
        goto fail;
    }
    const part_limits *l = &opt->limits;
    const int partitioned = l->ops || l->regs || l->texs || l->interps;
    if (partitioned && (rc = part_partition(&p->fs.dag, opt->algo, l, &opt->costs, opt->time_limit_s, &p->plan, err,
                                            err_size)) != MOS_OK)
        goto fail;
    char sub[256];
    if ((rc = vm_build(&p->vs.dag, NULL, p->lanes, &p->vs_vm, sub, sizeof sub)) != MOS_OK) {
        snprintf(err, err_size, "%s: %s", vs_name, sub);
        goto fail;
    }
    if ((rc = vm_build(&p->fs.dag, partitioned ? &p->plan : NULL, p->lanes, &p->fs_vm, sub, sizeof sub)) != MOS_OK) {
        snprintf(err, err_size, "%s: %s", fs_name, sub);
        goto fail;
    }
    const size_t lane_bytes = (size_t)p->lanes * sizeof(float);
    /* vertex: attribute arrays, clip + varying arrays, the VM's */
    p->vs_scratch = align64((size_t)p->vs.dag.input_count * lane_bytes) +
                    align64((size_t)p->vs.dag.out_count * lane_bytes) + vm_scratch_bytes(p->vs_vm);
    /* fragment: the discard array, zero inputs for varyings the batch lacks, the VM's */
    p->fs_scratch = align64(lane_bytes) + align64(lane_bytes) + vm_scratch_bytes(p->fs_vm);
    *out = p;
    return MOS_OK;
fail:
    program_free(p);
    return rc;
}

mos_result program_check_uniforms(const shader_program *p, size_t given, const char *what, char *err,
                                  size_t err_size)
{
    if ((size_t)p->uniform_bytes <= given)
        return MOS_OK;
    snprintf(err, err_size, "%s: the shader reads %d bytes of its uniform block; %s gives %zu", p->uniform_where,
             p->uniform_bytes, what, given);
    return MOS_ERR_INVALID_ARGUMENT;
}

void program_free(shader_program *p)
{
    if (!p)
        return;
    spv_shader_free(&p->vs);
    spv_shader_free(&p->fs);
    part_plan_free(&p->plan);
    vm_free(p->vs_vm);
    vm_free(p->fs_vm);
    util_free(p->alloc, p);
}

void program_desc(shader_program *p, mos_shader_desc *desc)
{
    memset(desc, 0, sizeof *desc);
    desc->vertex = program_vs;
    desc->fragment = program_fs;
    desc->varying_count = p->varying_count;
    desc->user = p;
    desc->scratch_bytes = p->vs_scratch > p->fs_scratch ? p->vs_scratch : p->fs_scratch;
    /* the back-end gathers a VM batch of quads per call when it can */
    desc->batch_quads = p->lanes / 4 < MOS_MAX_BATCH_QUADS ? p->lanes / 4 : MOS_MAX_BATCH_QUADS;
    desc->never_discards = !p->fs.discards;
}

void program_vs(const mos_vs_batch *b)
{
    const shader_program *p = b->user;
    const int lanes = p->lanes, nin = p->vs.dag.input_count, nout = p->vs.dag.out_count;
    float *attr = b->scratch;
    float *res = attr + align64((size_t)nin * (size_t)lanes * sizeof(float)) / sizeof(float);
    void *vm_scratch = res + align64((size_t)nout * (size_t)lanes * sizeof(float)) / sizeof(float);
    const float *in[256];
    float *outp[4 + MOS_MAX_VARYINGS];
    for (int k = 0; k < nin && k < 256; k++)
        in[k] = attr + (size_t)k * (size_t)lanes;
    for (int k = 0; k < nout && k < 4 + MOS_MAX_VARYINGS; k++)
        outp[k] = res + (size_t)k * (size_t)lanes;
    const int vc = b->varying_count;
    for (int o = 0; o < b->count; o += lanes) {
        const int n = b->count - o < lanes ? b->count - o : lanes;
        for (int k = 0; k < nin; k++) {
            float *dst = attr + (size_t)k * (size_t)lanes;
            if (k >= b->stride) {
                memset(dst, 0, (size_t)n * sizeof(float));
                continue;
            }
            const float *src = b->attribs + (size_t)o * (size_t)b->stride + (size_t)k;
            for (int l = 0; l < n; l++)
                dst[l] = src[(size_t)l * (size_t)b->stride];
        }
        const vm_io io = { .lanes = n, .in = in, .uniforms = b->uniforms, .out = outp, .scratch = vm_scratch,
                           .hot = shader_isa_select(b->isa) };
        vm_run(p->vs_vm, &io);
        for (int l = 0; l < n; l++) {
            float *clip = b->clip + (size_t)(o + l) * 4;
            for (int c = 0; c < 4; c++)
                clip[c] = outp[c][l];
            float *vary = b->varyings + (size_t)(o + l) * (size_t)vc;
            for (int k = 0; k < vc; k++)
                vary[k] = 4 + k < nout ? outp[4 + k][l] : 0.0f;
        }
    }
}

void program_fs(const mos_fs_batch *b)
{
    const shader_program *p = b->user;
    const int lanes = p->lanes, nin = p->fs.dag.input_count;
    float *discard = b->scratch;
    float *zeros = discard + lanes;
    void *vm_scratch = zeros + lanes;
    const int total = 4 * b->quad_count;
    if (nin > b->varying_count)  /* inputs the batch lacks read as 0 */
        memset(zeros, 0, (size_t)(total < lanes ? total : lanes) * sizeof(float));
    for (int o = 0; o < total; o += lanes) {
        const int n = total - o < lanes ? total - o : lanes;
        const float *in[MOS_MAX_VARYINGS];
        for (int k = 0; k < nin && k < MOS_MAX_VARYINGS; k++)
            in[k] = k < b->varying_count ? b->varyings[k] + o : zeros;
        float *outp[5] = { b->out[0] + o, b->out[1] + o, b->out[2] + o, b->out[3] + o, discard };
        const vm_io io = { .lanes = n, .in = in, .frag_x = b->frag_x + o, .frag_y = b->frag_y + o,
                           .uniforms = b->uniforms, .textures = b->textures, .lane_px = b->lane_px, .cells = b->cells,
                           .out = outp, .scratch = vm_scratch, .hot = shader_isa_select(b->isa) };
        vm_run(p->fs_vm, &io);
        if (p->fs.discards)
            for (int l = 0; l < n; l++)
                b->discard[o + l] |= (uint8_t)(discard[l] != 0.0f);
    }
}
