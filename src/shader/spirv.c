/* spirv.c — SPIR-V into the DAG (see spirv.h): the driver that reads the module, runs main and
 * collects the outputs.  Fed by glsl/glsl.c or an embedder's SPIR-V; the phases are in spirv_*.c (spirv_priv.h). */
#include "shader/spirv.h"

#include "shader/spirv_priv.h"

#include <spirv/unified1/spirv.h>
#include <string.h>

#include "util/alloc.h"

/* The outputs after main has run. */
static int collect_outputs(spv_ctx *c, int *outs, int *n_out)
{
    spv_shader *sh = c->sh;
    int n = 0;
    if (c->dag->stage == IR_FRAGMENT) {
        int found = 0;
        for (uint32_t id = 1; id < c->bound; id++) {
            const id_info *x = &c->id[id];
            if (x->kind != K_POINTER || !x->is_var || x->ptarget != P_SLOTS || x->storage != SpvStorageClassOutput ||
                c->id[id].builtin >= 0)
                continue;
            if (x->location != 0)
                return spv_fail(c, "only one fragment output (location 0) is supported");
            const int w = spv_type_flat(c, (uint32_t)spv_get(c, (uint32_t)x->type)->elem);
            if (w > 4)
                return spv_fail(c, "the fragment output has more than 4 components");
            for (int k = 0; k < 4; k++)
                outs[k] = k < w ? c->slots[x->pbase + k] : ir_const(c->dag, k == 3 ? 1.0f : 0.0f);
            found = 1;
        }
        if (!found)
            return spv_fail(c, "the fragment shader writes no colour (out vec4 at location 0)");
        n = 4;
        const ir_node *d = &c->dag->node[c->discard];
        if (!(d->op == IR_CONST && d->v.imm == 0.0f)) {
            outs[n++] = c->discard;
            sh->discards = 1;
        }
        sh->out_count = 0;
        sh->varying_floats = 0;
    } else {
        int have_pos = 0;
        for (uint32_t id = 1; id < c->bound; id++) {
            const id_info *x = &c->id[id];
            if (x->kind != K_POINTER || !x->is_var || x->ptarget != P_SLOTS || x->storage != SpvStorageClassOutput)
                continue;
            const uint32_t t = (uint32_t)spv_get(c, (uint32_t)x->type)->elem;
            const id_info *ti = spv_get(c, t);
            if (x->builtin == SpvBuiltInPosition) {
                if (ti->flat != 4)
                    return spv_fail(c, "gl_Position is not a vec4");
                for (int k = 0; k < 4; k++)
                    outs[k] = c->slots[x->pbase + k];
                have_pos = 1;
            } else if (ti->tkind == T_STRUCT) {  /* gl_PerVertex */
                int off = 0;
                for (int m = 0; m < ti->count; m++) {
                    int s;
                    if (spv_member_slot(c, t, (uint32_t)m, &s) < 0)
                        return -1;
                    if (c->member_builtin[s] == SpvBuiltInPosition) {
                        if (spv_type_flat(c, (uint32_t)c->pool[ti->members + m]) != 4)
                            return spv_fail(c, "gl_Position is not a vec4");
                        for (int k = 0; k < 4; k++)
                            outs[k] = c->slots[x->pbase + off + k];
                        have_pos = 1;
                    }
                    off += spv_type_flat(c, (uint32_t)c->pool[ti->members + m]);
                }
            }
        }
        if (!have_pos)
            return spv_fail(c, "the vertex shader does not write gl_Position");
        n = 4;
        for (int i = 0; i < sh->out_count; i++)
            for (uint32_t id = 1; id < c->bound; id++) {
                const id_info *x = &c->id[id];
                if (x->kind == K_POINTER && x->is_var && x->ptarget == P_SLOTS && x->storage == SpvStorageClassOutput &&
                    x->builtin < 0 && x->location == sh->out[i].location &&
                    spv_get(c, (uint32_t)spv_get(c, (uint32_t)x->type)->elem)->tkind != T_STRUCT) {
                    if (n + sh->out[i].floats > 4 + 64)
                        return spv_fail(c, "too many varyings");
                    for (int k = 0; k < sh->out[i].floats; k++)
                        outs[n++] = c->slots[x->pbase + k];
                }
            }
    }
    *n_out = n;
    return 0;
}

mos_result spv_translate(const uint32_t *words, size_t count, ir_stage stage, const char *file, spv_shader *out,
                         char *err, size_t err_size)
{
    return spv_translate_alloc(words, count, stage, file, NULL, out, err, err_size);
}

mos_result spv_translate_alloc(const uint32_t *words, size_t count, ir_stage stage, const char *file,
                               const mos_allocator *a, spv_shader *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    ir_init(&out->dag, stage);
    out->dag.alloc = a;
    if (count > (SIZE_MAX / sizeof *words) - 16) {
        snprintf(err, err_size, "%s: out of memory", file ? file : "shader");
        return MOS_ERR_OUT_OF_MEMORY;
    }
    /* Operands are read where an instruction says they are; a malformed one
     * may say past its end, so the words are read from a copy with zeros
     * after them (garbage in, an error or garbage out, never a stray read). */
    uint32_t *padded = util_calloc(a, count + 16, sizeof *padded);
    if (!padded) {
        snprintf(err, err_size, "%s: out of memory", file ? file : "shader");
        return MOS_ERR_OUT_OF_MEMORY;
    }
    if (count)
        memcpy(padded, words, count * sizeof *words);
    spv_ctx c = { .w = padded, .nw = count, .dag = &out->dag, .sh = out, .file = file ? file : "shader",
                  .err = err, .err_size = err_size, .ret_val = -1, .a = a };
    if (err_size)
        err[0] = 0;
    c.zero = ir_const(c.dag, 0.0f);
    c.discard = c.zero;
    uint32_t entry = 0;
    int outs[4 + 64 + 1], n_out = 0;
    mos_result rc = MOS_ERR_SHADER;
    if (c.zero < 0 || spv_read_module(&c, &entry) < 0 || spv_pack_interface(&c) < 0)
        goto done;
    const id_info *fn = spv_get(&c, entry);
    if (fn->kind != K_FUNCTION) {
        spv_fail(&c, "malformed SPIR-V: entry point is not a function");
        goto done;
    }
    size_t p = fn->pos + (c.w[fn->pos] >> 16);
    if (p >= c.nw || (c.w[p] & 0xffff) != SpvOpLabel) {
        spv_fail(&c, "malformed SPIR-V: main has parameters or no body");
        goto done;
    }
    int pred = -1;
    const int r = spv_run_blocks(&c, c.w[p + 1], 0, &pred);
    if (r < 0)
        goto done;
    if (r == 2)
        c.discard = ir_const(c.dag, 1.0f);
    if (collect_outputs(&c, outs, &n_out) < 0)
        goto done;
    if (ir_finish(c.dag, outs, n_out) < 0) {
        spv_oom(&c);
        goto done;
    }
    rc = MOS_OK;
done:
    util_free(a, padded);
    util_free(a, c.id);
    util_free(a, c.vals);
    util_free(a, c.pool);
    util_free(a, c.slots);
    util_free(a, c.member_off);
    util_free(a, c.member_mstride);
    util_free(a, c.member_builtin);
    util_free(a, c.loop_merge);
    util_free(a, c.loop_cont);
    if (rc != MOS_OK) {
        if (c.oom || c.dag->failed) {  /* whatever message a failed allocation led to first */
            snprintf(err, err_size, "%s: out of memory", c.file);
            rc = MOS_ERR_OUT_OF_MEMORY;
        } else if (err_size && !err[0]) {
            snprintf(err, err_size, "%s: translation failed", c.file);
        }
        spv_shader_free(out);
    }
    return rc;
}

void spv_shader_free(spv_shader *s)
{
    ir_free(&s->dag);
}
