/* vm_tmp.h — the VM's body, included once per ISA by vm_scalar.c, vm_avx2.c
 * and vm_avx512.c, which define VM_RUN_FN (the entry's name) and have
 * included util/simd.h for their SIMD_LANES (its vector types, the width
 * of the ISA's vectors, are the chains' registers).  Each
 * operation is a loop over the batch's lanes (rounded up to 16) with
 * restrict pointers, which gcc vectorizes, but a chain of operations on one
 * value (VM_CHAIN), which GCC's vector types keep in registers; contraction
 * is off, and the transcendental functions call the same libm on every
 * ISA, so every build computes the same bits.  Fed by vm.c's vm_run. */
#include <math.h>
#include <string.h>

#include "shader/texture.h"
#include "shader/vm_code.h"

#if !defined(VM_RUN_FN) || !defined(SIMD_LANES)
#error "define VM_RUN_FN and include util/simd.h before vm_tmp.h"
#endif

#define VM_ALIGN(p) ((float *)__builtin_assume_aligned((p), 64))
/* The lanes of a batch, n a multiple of 16: blocks of 16 whose inner loop
 * has a constant trip count (no remainder code, one or two vectors). */
#define VM_LANES(l) for (int l##0_ = 0; l##0_ < n; l##0_ += 16) for (int l = l##0_; l < l##0_ + 16; l++)

/* One lane of each arithmetic op, as ir_eval defines it; vectorizable forms. */
#define F_ADD(a, b) ((a) + (b))
#define F_SUB(a, b) ((a) - (b))
#define F_MUL(a, b) ((a) * (b))
#define F_DIV(a, b) ((a) / (b))
#define F_MIN(a, b) ((b) < (a) ? (b) : (a))
#define F_MAX(a, b) ((a) < (b) ? (b) : (a))
#define F_LT(a, b) ((a) < (b) ? 1.0f : 0.0f)
#define F_LE(a, b) ((a) <= (b) ? 1.0f : 0.0f)
#define F_EQ(a, b) ((a) == (b) ? 1.0f : 0.0f)
#define F_NE(a, b) ((a) != (b) ? 1.0f : 0.0f)
/* & and |, not && and ||: both operands read unconditionally (a short
 * circuit becomes masked loads, which gcc 12 gets wrong in 16-lane blocks). */
#define F_AND(a, b) ((((a) != 0.0f) & ((b) != 0.0f)) ? 1.0f : 0.0f)
#define F_OR(a, b) ((((a) != 0.0f) | ((b) != 0.0f)) ? 1.0f : 0.0f)
#define F_STEP(a, b) ((b) < (a) ? 0.0f : 1.0f)
#define F_MOD(a, b) ((a) - (b) * floorf((a) / (b)))

#define BIN_LOOPS(F)                                                                  \
    do {                                                                              \
        float *restrict d_ = VM_ALIGN(t[x->dst]);                                     \
        if (x->mode == VM_VV) {                                                       \
            const float *restrict a_ = VM_ALIGN(t[x->a]), *restrict b_ = VM_ALIGN(t[x->b]); \
            VM_LANES(l)                                                               \
                d_[l] = F(a_[l], b_[l]);                                              \
        } else if (x->mode == VM_VS) {                                                \
            const float *restrict a_ = VM_ALIGN(t[x->a]);                             \
            const float s_ = sc[x->b];                                                \
            VM_LANES(l)                                                               \
                d_[l] = F(a_[l], s_);                                                 \
        } else {                                                                      \
            const float *restrict b_ = VM_ALIGN(t[x->b]);                             \
            const float s_ = sc[x->a];                                                \
            VM_LANES(l)                                                               \
                d_[l] = F(s_, b_[l]);                                                 \
        }                                                                             \
    } while (0)

/* a * b then c, each rounded (contraction is off), over the four operand modes. */
#define MAD_LOOPS(F)                                                                  \
    do {                                                                              \
        float *restrict d_ = VM_ALIGN(t[x->dst]);                                     \
        const float *restrict a_ = VM_ALIGN(t[x->a]);                                 \
        switch (x->mode) {                                                            \
        case 0: {                                                                     \
            const float *restrict b_ = VM_ALIGN(t[x->b]), *restrict c_ = VM_ALIGN(t[x->c]); \
            VM_LANES(l) d_[l] = F(a_[l] * b_[l], c_[l]);                              \
            break;                                                                    \
        }                                                                             \
        case 1: {                                                                     \
            const float s_ = sc[x->b];                                                \
            const float *restrict c_ = VM_ALIGN(t[x->c]);                             \
            VM_LANES(l) d_[l] = F(a_[l] * s_, c_[l]);                                 \
            break;                                                                    \
        }                                                                             \
        case 2: {                                                                     \
            const float *restrict b_ = VM_ALIGN(t[x->b]);                             \
            const float k_ = sc[x->c];                                                \
            VM_LANES(l) d_[l] = F(a_[l] * b_[l], k_);                                 \
            break;                                                                    \
        }                                                                             \
        default: {                                                                    \
            const float s_ = sc[x->b], k_ = sc[x->c];                                 \
            VM_LANES(l) d_[l] = F(a_[l] * s_, k_);                                    \
            break;                                                                    \
        }                                                                             \
        }                                                                             \
    } while (0)
#define F_RSUB(p, c) ((c) - (p))

#define UN_LOOP(EXPR)                                                                 \
    do {                                                                              \
        float *restrict d_ = VM_ALIGN(t[x->dst]);                                     \
        const float *restrict a_ = VM_ALIGN(t[x->a]);                                 \
        VM_LANES(l) {                                                                 \
            const float v = a_[l];                                                    \
            d_[l] = (EXPR);                                                           \
        }                                                                             \
    } while (0)

/* ---- VM_CHAIN: the value in vector registers through every link ---------------
 * Twelve vectors of lanes are loaded once into twelve named variables (which
 * gcc keeps in registers, as it would not an array), each link applied to
 * all of them (independent vectors, so one link's latency overlaps the
 * others'), and stored once; the operations are those of the
 * per-instruction bodies, so the bits are too.  A batch's last lanes that
 * fill no block of twelve go through a zero-padded copy. */
#define VM_CHAIN_LANES (12 * SIMD_LANES) /* lanes per block */

#define ON12(F) F(v0) F(v1) F(v2) F(v3) F(v4) F(v5) F(v6) F(v7) F(v8) F(v9) F(v10) F(v11)
#define C_MAD(v) v = v * S + Q;
#define C_MSUB(v) v = v * S - Q;
#define C_NMSUB(v) v = Q - v * S;
#define C_ADD_VS(v) v = v + S;
#define C_ADD_SV(v) v = S + v;
#define C_SUB_VS(v) v = v - S;
#define C_SUB_SV(v) v = S - v;
#define C_MUL_VS(v) v = v * S;
#define C_MUL_SV(v) v = S * v;
#define C_DIV_VS(v) v = v / S;
#define C_DIV_SV(v) v = S / v;
#define C_MIN_VS(v) v = simd_vselect(S < v, S, v);  /* min(a, b) = b < a ? b : a */
#define C_MIN_SV(v) v = simd_vselect(v < S, v, S);
#define C_MAX_VS(v) v = simd_vselect(v < S, S, v);  /* max(a, b) = a < b ? b : a */
#define C_MAX_SV(v) v = simd_vselect(S < v, v, S);
#define C_NEG(v) v = -v;
#define C_ABS(v) v = (simd_vf)((simd_vi)v & 0x7fffffff);
#define C_LOAD(v) memcpy(&v, src, sizeof v), src += SIMD_LANES;
#define C_STORE(v) memcpy(dst, &v, sizeof v), dst += SIMD_LANES;

static void chain_block(const vm_link *links, int nl, const float *sc, const float *src, float *dst)
{
    simd_vf v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11;
    ON12(C_LOAD)
    for (int k = 0; k < nl; k++) {
        const vm_link *L = &links[k];
        /* s * 1 is s exactly (-0 and NaNs included): a broadcast */
        const simd_vf ones = (simd_vf){ 0 } + 1.0f, S = sc[L->s1] * ones, Q = sc[L->s2] * ones;
        const int sv = L->mode == VM_SV;
        switch (L->op) {
        case VM_MAD: ON12(C_MAD) break;
        case VM_MSUB: ON12(C_MSUB) break;
        case VM_NMSUB: ON12(C_NMSUB) break;
        case IR_ADD: if (sv) { ON12(C_ADD_SV) } else { ON12(C_ADD_VS) } break;
        case IR_SUB: if (sv) { ON12(C_SUB_SV) } else { ON12(C_SUB_VS) } break;
        case IR_MUL: if (sv) { ON12(C_MUL_SV) } else { ON12(C_MUL_VS) } break;
        case IR_DIV: if (sv) { ON12(C_DIV_SV) } else { ON12(C_DIV_VS) } break;
        case IR_MIN: if (sv) { ON12(C_MIN_SV) } else { ON12(C_MIN_VS) } break;
        case IR_MAX: if (sv) { ON12(C_MAX_SV) } else { ON12(C_MAX_VS) } break;
        case IR_NEG: ON12(C_NEG) break;
        case IR_ABS: ON12(C_ABS) break;
        default: break;
        }
    }
    ON12(C_STORE)
}

static void run_chain(const vm_link *links, int nl, const float *sc, const float *src, float *dst, int n)
{
    int l = 0;
    for (; l + VM_CHAIN_LANES <= n; l += VM_CHAIN_LANES)
        chain_block(links, nl, sc, src + l, dst + l);
    if (l < n) {
        _Alignas(64) float pad[VM_CHAIN_LANES];
        memset(pad, 0, sizeof pad);
        memcpy(pad, src + l, (size_t)(n - l) * sizeof(float));
        chain_block(links, nl, sc, pad, pad);
        memcpy(dst + l, pad, (size_t)(n - l) * sizeof(float));
    }
}

static void scalar_bank(const vm_program *p, const void *uniforms, float *sc)
{
    const unsigned char *u = uniforms;
    for (int i = 0; i < p->sins_count; i++) {
        const vm_sins *s = &p->sins[i];
        switch (s->op) {
        case IR_CONST: sc[i] = s->imm; break;
        case IR_UNIFORM: {
            uint32_t bits = 0;
            if (u)
                memcpy(&bits, u + s->index, 4);
            if (s->aux == IR_U_FLOAT)
                memcpy(&sc[i], &bits, 4);
            else
                sc[i] = s->aux == IR_U_INT ? (float)(int32_t)bits : (float)bits;
            break;
        }
        default: sc[i] = ir_eval((ir_op)s->op, sc[s->a], sc[s->b], sc[s->c]); break;
        }
    }
}

void VM_RUN_FN(const vm_program *p, const vm_io *io)
{
    const int cap = p->stride;
    const int n = (io->lanes + 15) & ~15;
    char *mem = io->scratch;
    float *regs = (float *)mem;
    float *slots = regs + (size_t)p->nreg * (size_t)cap;
    float *pads = slots + (size_t)p->nslot * (size_t)cap;
    mem = (char *)(pads + (size_t)(p->ninput + 2) * (size_t)cap);
    float *sc = (float *)mem;
    mem += ((size_t)p->nscalar * sizeof(float) + 63) / 64 * 64;
    float **t = (float **)mem;

    scalar_bank(p, io->uniforms, sc);
    for (int r = 0; r < p->nreg; r++)
        t[r] = regs + (size_t)r * (size_t)cap;
    for (int s = 0; s < p->nslot; s++)
        t[VM_SLOT(p, s)] = slots + (size_t)s * (size_t)cap;
    /* Inputs are read in place when the batch is whole vectors, else padded. */
    for (int k = 0; k < p->ninput + 2; k++) {
        const float *src = k < p->ninput ? io->in[k] : k == p->ninput ? io->frag_x : io->frag_y;
        float *pad = pads + (size_t)k * (size_t)cap;
        if (src && n == io->lanes && ((uintptr_t)src & 63) == 0) {
            t[VM_INPUT(p, k)] = (float *)(uintptr_t)src;
            continue;
        }
        if (src)
            memcpy(pad, src, (size_t)io->lanes * sizeof(float));
        memset(pad + (src ? io->lanes : 0), 0, (size_t)(n - (src ? io->lanes : 0)) * sizeof(float));
        t[VM_INPUT(p, k)] = pad;
    }

    for (int i = 0; i < p->ins_count; i++) {
        const vm_ins *x = &p->ins[i];
        switch (x->op) {
        case IR_ADD: BIN_LOOPS(F_ADD); break;
        case IR_SUB: BIN_LOOPS(F_SUB); break;
        case IR_MUL: BIN_LOOPS(F_MUL); break;
        case IR_DIV: BIN_LOOPS(F_DIV); break;
        case IR_MIN: BIN_LOOPS(F_MIN); break;
        case IR_MAX: BIN_LOOPS(F_MAX); break;
        case IR_LT: BIN_LOOPS(F_LT); break;
        case IR_LE: BIN_LOOPS(F_LE); break;
        case IR_EQ: BIN_LOOPS(F_EQ); break;
        case IR_NE: BIN_LOOPS(F_NE); break;
        case IR_AND: BIN_LOOPS(F_AND); break;
        case IR_OR: BIN_LOOPS(F_OR); break;
        case IR_STEP: BIN_LOOPS(F_STEP); break;
        case IR_MOD: BIN_LOOPS(F_MOD); break;
        case IR_POW: BIN_LOOPS(powf); break;
        case IR_ATAN2: BIN_LOOPS(atan2f); break;
        case IR_IDIV: case IR_IMOD: {
            float *d_ = t[x->dst];
            VM_LANES(l) {
                const float a = x->mode == VM_SV ? sc[x->a] : t[x->a][l];
                const float b = x->mode == VM_VS ? sc[x->b] : t[x->b][l];
                d_[l] = ir_eval((ir_op)x->op, a, b, 0.0f);
            }
            break;
        }
        case VM_MAD: MAD_LOOPS(F_ADD); break;
        case VM_MSUB: MAD_LOOPS(F_SUB); break;
        case VM_NMSUB: MAD_LOOPS(F_RSUB); break;
        case IR_NEG: UN_LOOP(-v); break;
        case IR_ABS: UN_LOOP(fabsf(v)); break;
        case IR_SIGN: UN_LOOP(v > 0.0f ? 1.0f : v < 0.0f ? -1.0f : 0.0f); break;
        case IR_FLOOR: UN_LOOP(floorf(v)); break;
        case IR_CEIL: UN_LOOP(ceilf(v)); break;
        case IR_TRUNC: UN_LOOP(truncf(v)); break;
        case IR_ROUND: UN_LOOP(nearbyintf(v)); break;
        case IR_FRACT: UN_LOOP(v - floorf(v)); break;
        case IR_SQRT: UN_LOOP(sqrtf(v)); break;
        case IR_RSQRT: UN_LOOP(1.0f / sqrtf(v)); break;
        case IR_NOT: UN_LOOP(v == 0.0f ? 1.0f : 0.0f); break;
        case IR_EXP: UN_LOOP(expf(v)); break;
        case IR_EXP2: UN_LOOP(exp2f(v)); break;
        case IR_LOG: UN_LOOP(logf(v)); break;
        case IR_LOG2: UN_LOOP(log2f(v)); break;
        case IR_SIN: UN_LOOP(sinf(v)); break;
        case IR_COS: UN_LOOP(cosf(v)); break;
        case IR_TAN: UN_LOOP(tanf(v)); break;
        case IR_ASIN: UN_LOOP(asinf(v)); break;
        case IR_ACOS: UN_LOOP(acosf(v)); break;
        case IR_ATAN: UN_LOOP(atanf(v)); break;
        case IR_DDX: case IR_DDY: {
            /* Fine derivatives of each 2x2 quad (lanes 0 1 / 2 3): along x,
             * right - left per row; along y, bottom - top per column.  */
            float *d_ = t[x->dst];
            const float *a_ = t[x->a];
            const int dx = x->op == IR_DDX;
            for (int q = 0; q < n; q += 4) {
                const float v0 = a_[q], v1 = a_[q + 1], v2 = a_[q + 2], v3 = a_[q + 3];
                if (dx) {
                    d_[q] = d_[q + 1] = v1 - v0;
                    d_[q + 2] = d_[q + 3] = v3 - v2;
                } else {
                    d_[q] = d_[q + 2] = v2 - v0;
                    d_[q + 1] = d_[q + 3] = v3 - v1;
                }
            }
            break;
        }
        case IR_SELECT: {
            float *restrict d_ = VM_ALIGN(t[x->dst]);
            const float *restrict c_ = VM_ALIGN(t[x->a]), *restrict a_ = VM_ALIGN(t[x->b]),
                                  *restrict b_ = VM_ALIGN(t[x->c]);
            /* Both operands loaded unconditionally: a blend, not masked
             * loads (gcc 12 gave the second vector of a 16-lane block the
             * first one's load mask). */
            VM_LANES(l) {
                const float av = a_[l], bv = b_[l];
                d_[l] = c_[l] != 0.0f ? av : bv;
            }
            break;
        }
        case VM_SPLAT: {
            float *restrict d_ = VM_ALIGN(t[x->dst]);
            const float s_ = sc[x->a];
            VM_LANES(l)
                d_[l] = s_;
            break;
        }
        case VM_COPY: memcpy(t[x->dst], t[x->a], (size_t)n * sizeof(float)); break;
        case VM_CHAIN: run_chain(p->links + x->b, x->c, sc, t[x->a], t[x->dst], n); break;
        case VM_TEX: {
            const mos_sampler *s = io->textures ? io->textures[x->aux] : NULL;
            float *const o[4] = { t[x->d[0]], t[x->d[1]], t[x->d[2]], t[x->d[3]] };
            if (s) {
                texture_sample(s, io->lane_px, io->cells, n / 4, t[x->a], t[x->b], o);
            } else {
                for (int c = 0; c < 4; c++)
                    memset(o[c], 0, (size_t)n * sizeof(float));
            }
            break;
        }
        case VM_OUT: {
            float *d_ = io->out[x->aux];
            if (x->mode == VM_SV) {
                const float s_ = sc[x->a];
                for (int l = 0; l < io->lanes; l++)
                    d_[l] = s_;
            } else {
                memcpy(d_, t[x->a], (size_t)io->lanes * sizeof(float));
            }
            break;
        }
        default: break;
        }
    }
}
