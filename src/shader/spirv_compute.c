/* spirv_compute.c — the instructions that compute a value: arithmetic, comparisons, conversions, composites,
 * matrix products.  Fed by spirv_blocks.c; hands OpExtInst to spirv_glsl450.c, sampling to spirv_image.c. */
#include "shader/spirv_priv.h"

#include <spirv/unified1/spirv.h>
#include <string.h>

/* Applies OP component-wise over operands ins[3..3+arity) (scalars broadcast). */
static int componentwise(spv_ctx *c, const uint32_t *ins, ir_op op, int arity, int swap)
{
    int n[3] = { 1, 1, 1 }, width = 1;
    const int *v[3];
    for (int i = 0; i < arity; i++) {
        v[i] = spv_value(c, ins[3 + i], &n[i]);
        if (!v[i])
            return -1;
        if (n[i] > width)
            width = n[i];
    }
    int comp[16];
    if (width > 16)
        return spv_fail(c, "operation on a value with more than 16 components");
    for (int k = 0; k < width; k++) {
        int a[3] = { -1, -1, -1 };
        for (int i = 0; i < arity; i++)
            a[i] = v[i][n[i] == 1 ? 0 : k];
        comp[k] = swap ? ir_add(c->dag, op, a[1], a[0], -1) : ir_add(c->dag, op, a[0], a[1], a[2]);
    }
    return spv_set_value(c, ins[2], ins[1], comp, width);
}

int spv_dot(spv_ctx *c, const int *a, const int *b, int n)
{
    int s = spv_op2(c, IR_MUL, a[0], b[0]);
    for (int i = 1; i < n; i++)
        s = spv_op2(c, IR_ADD, s, spv_op2(c, IR_MUL, a[i], b[i]));
    return s;
}

static int matrix_op(spv_ctx *c, SpvOp op, const uint32_t *ins)
{
    int na, nb;
    const int *a = spv_value(c, ins[3], &na), *b = spv_value(c, ins[4], &nb);
    if (!a || !b)
        return -1;
    const id_info *ta = spv_get(c, (uint32_t)spv_get(c, ins[3])->type);
    const id_info *tb = spv_get(c, (uint32_t)spv_get(c, ins[4])->type);
    int comp[16];
    int n = 0;
    switch (op) {
    case SpvOpMatrixTimesVector: {  /* rows = na / nb */
        const int rows = na / nb;
        for (int r = 0; r < rows; r++) {
            int s = spv_op2(c, IR_MUL, a[r], b[0]);
            for (int k = 1; k < nb; k++)
                s = spv_op2(c, IR_ADD, s, spv_op2(c, IR_MUL, a[k * rows + r], b[k]));
            comp[n++] = s;
        }
        break;
    }
    case SpvOpVectorTimesMatrix: {  /* result[col] = dot(v, m[col]) */
        const int cols = tb->count;
        for (int k = 0; k < cols; k++)
            comp[n++] = spv_dot(c, a, b + k * na, na);
        break;
    }
    case SpvOpMatrixTimesMatrix: {
        const int rows = na / ta->count, inner = ta->count, cols = tb->count;
        if (rows * cols > 16)
            return spv_fail(c, "matrix too large");
        for (int j = 0; j < cols; j++)
            for (int r = 0; r < rows; r++) {
                int s = spv_op2(c, IR_MUL, a[r], b[j * inner]);
                for (int k = 1; k < inner; k++)
                    s = spv_op2(c, IR_ADD, s, spv_op2(c, IR_MUL, a[k * rows + r], b[j * inner + k]));
                comp[n++] = s;
            }
        break;
    }
    default: return spv_fail(c, "internal error: matrix op");
    }
    return spv_set_value(c, ins[2], ins[1], comp, n);
}

static int composite(spv_ctx *c, SpvOp op, const uint32_t *ins, int len)
{
    int comp[256], n = 0;
    switch (op) {
    case SpvOpCompositeConstruct:
        for (int i = 3; i < len; i++) {
            int m;
            const int *v = spv_value(c, ins[i], &m);
            if (!v)
                return -1;
            if (n + m > 256)
                return spv_fail(c, "composite too large");
            memcpy(comp + n, v, (size_t)m * sizeof *v);
            n += m;
        }
        break;
    case SpvOpCompositeExtract: case SpvOpCompositeInsert: {
        const int ins_op = op == SpvOpCompositeInsert;
        const uint32_t src = ins[ins_op ? 4 : 3];
        int m;
        const int *v = spv_value(c, src, &m);
        if (!v)
            return -1;
        uint32_t t = (uint32_t)spv_get(c, src)->type;
        int off = 0;
        for (int i = ins_op ? 5 : 4; i < len; i++) {
            const id_info *ti = spv_get(c, t);
            const uint32_t k = ins[i];
            if ((int)k >= ti->count)
                return spv_fail(c, "malformed SPIR-V: composite index out of range");
            if (ti->tkind == T_STRUCT) {
                for (uint32_t j = 0; j < k; j++)
                    off += spv_type_flat(c, (uint32_t)c->pool[ti->members + (int)j]);
                t = (uint32_t)c->pool[ti->members + (int)k];
            } else {
                off += spv_type_flat(c, (uint32_t)ti->elem) * (int)k;
                t = (uint32_t)ti->elem;
            }
        }
        const int w = spv_type_flat(c, t);
        if (!ins_op) {
            if (off + w > m || w > 256)
                return spv_fail(c, "malformed SPIR-V: extract out of range");
            memcpy(comp, v + off, (size_t)w * sizeof *v);
            n = w;
        } else {
            int o;
            const int *obj = spv_value(c, ins[3], &o);
            if (!obj || m > 256 || off + o > m)
                return spv_fail(c, "malformed SPIR-V: insert out of range");
            memcpy(comp, v, (size_t)m * sizeof *v);
            memcpy(comp + off, obj, (size_t)o * sizeof *obj);
            n = m;
        }
        break;
    }
    case SpvOpVectorShuffle: {
        int na, nb;
        const int *a = spv_value(c, ins[3], &na), *b = spv_value(c, ins[4], &nb);
        if (!a || !b)
            return -1;
        /* A component index past both vectors (or past 2^31, where a signed
         * comparison would take it for negative) is malformed. */
        for (int i = 5; i < len && n < 16; i++) {
            const uint32_t k = ins[i];
            if (k == 0xffffffffu)
                comp[n++] = c->zero;
            else if (k < (uint32_t)na)
                comp[n++] = a[k];
            else if (k - (uint32_t)na < (uint32_t)nb)
                comp[n++] = b[k - (uint32_t)na];
            else
                return spv_fail(c, "malformed SPIR-V: OpVectorShuffle component index out of range");
        }
        break;
    }
    case SpvOpTranspose: {
        int m;
        const int *v = spv_value(c, ins[3], &m);
        if (!v)
            return -1;
        const int cols = spv_get(c, (uint32_t)spv_get(c, ins[3])->type)->count, rows = m / (cols ? cols : 1);
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++)
                comp[n++] = v[j * rows + i];
        break;
    }
    default: return spv_fail(c, "internal error: composite");
    }
    return spv_set_value(c, ins[2], ins[1], comp, n);
}

/* One instruction that computes a value.  1 if OP is not one of these. */
int spv_compute(spv_ctx *c, SpvOp op, const uint32_t *ins, int len)
{
    switch (op) {
    case SpvOpFAdd: case SpvOpIAdd: return componentwise(c, ins, IR_ADD, 2, 0);
    case SpvOpFSub: case SpvOpISub: return componentwise(c, ins, IR_SUB, 2, 0);
    case SpvOpFMul: case SpvOpIMul: case SpvOpVectorTimesScalar: case SpvOpMatrixTimesScalar:
        return componentwise(c, ins, IR_MUL, 2, 0);
    case SpvOpFDiv: return componentwise(c, ins, IR_DIV, 2, 0);
    case SpvOpSDiv: case SpvOpUDiv: return componentwise(c, ins, IR_IDIV, 2, 0);
    case SpvOpFMod: case SpvOpSMod: return componentwise(c, ins, IR_MOD, 2, 0);
    case SpvOpFRem: case SpvOpSRem: case SpvOpUMod: return componentwise(c, ins, IR_IMOD, 2, 0);
    case SpvOpFNegate: case SpvOpSNegate: return componentwise(c, ins, IR_NEG, 1, 0);
    case SpvOpFOrdLessThan: case SpvOpFUnordLessThan: case SpvOpSLessThan: case SpvOpULessThan:
        return componentwise(c, ins, IR_LT, 2, 0);
    case SpvOpFOrdLessThanEqual: case SpvOpFUnordLessThanEqual: case SpvOpSLessThanEqual: case SpvOpULessThanEqual:
        return componentwise(c, ins, IR_LE, 2, 0);
    case SpvOpFOrdGreaterThan: case SpvOpFUnordGreaterThan: case SpvOpSGreaterThan: case SpvOpUGreaterThan:
        return componentwise(c, ins, IR_LT, 2, 1);
    case SpvOpFOrdGreaterThanEqual: case SpvOpFUnordGreaterThanEqual: case SpvOpSGreaterThanEqual:
    case SpvOpUGreaterThanEqual:
        return componentwise(c, ins, IR_LE, 2, 1);
    case SpvOpFOrdEqual: case SpvOpFUnordEqual: case SpvOpIEqual: case SpvOpLogicalEqual:
        return componentwise(c, ins, IR_EQ, 2, 0);
    case SpvOpFOrdNotEqual: case SpvOpFUnordNotEqual: case SpvOpINotEqual: case SpvOpLogicalNotEqual:
        return componentwise(c, ins, IR_NE, 2, 0);
    case SpvOpLogicalAnd: return componentwise(c, ins, IR_AND, 2, 0);
    case SpvOpLogicalOr: return componentwise(c, ins, IR_OR, 2, 0);
    case SpvOpLogicalNot: return componentwise(c, ins, IR_NOT, 1, 0);
    case SpvOpSelect: return componentwise(c, ins, IR_SELECT, 3, 0);
    case SpvOpDPdx: case SpvOpDPdxFine: case SpvOpDPdxCoarse: return componentwise(c, ins, IR_DDX, 1, 0);
    case SpvOpDPdy: case SpvOpDPdyFine: case SpvOpDPdyCoarse: return componentwise(c, ins, IR_DDY, 1, 0);
    case SpvOpFwidth: case SpvOpFwidthFine: case SpvOpFwidthCoarse: {
        int n;
        const int *v = spv_value(c, ins[3], &n);
        if (!v || n > 16)
            return -1;
        int comp[16];
        for (int i = 0; i < n; i++)
            comp[i] = spv_op2(c, IR_ADD, ir_add(c->dag, IR_ABS, ir_add(c->dag, IR_DDX, v[i], -1, -1), -1, -1),
                          ir_add(c->dag, IR_ABS, ir_add(c->dag, IR_DDY, v[i], -1, -1), -1, -1));
        return spv_set_value(c, ins[2], ins[1], comp, n);
    }
    case SpvOpConvertFToS: case SpvOpConvertFToU: return componentwise(c, ins, IR_TRUNC, 1, 0);
    case SpvOpConvertSToF: case SpvOpConvertUToF: case SpvOpCopyObject: case SpvOpBitcast: case SpvOpSConvert:
    case SpvOpUConvert: case SpvOpFConvert: {
        const id_info *to = spv_get(c, ins[1]);
        const id_info *from = spv_get(c, (uint32_t)spv_get(c, ins[3])->type);
        if (op == SpvOpBitcast && to->tkind != from->tkind)
            return spv_fail(c, "bit casts between ints and floats are not supported");
        int n;
        const int *v = spv_value(c, ins[3], &n);
        return v ? spv_set_value(c, ins[2], ins[1], v, n) : -1;
    }
    case SpvOpDot: {
        int na, nb;
        const int *a = spv_value(c, ins[3], &na), *b = spv_value(c, ins[4], &nb);
        if (!a || !b || na != nb)
            return spv_fail(c, "malformed SPIR-V: dot of different sizes");
        const int d = spv_dot(c, a, b, na);
        return spv_set_value(c, ins[2], ins[1], &d, 1);
    }
    case SpvOpAny: case SpvOpAll: {
        int n;
        const int *v = spv_value(c, ins[3], &n);
        if (!v)
            return -1;
        int r = v[0];
        for (int i = 1; i < n; i++)
            r = spv_op2(c, op == SpvOpAny ? IR_OR : IR_AND, r, v[i]);
        return spv_set_value(c, ins[2], ins[1], &r, 1);
    }
    case SpvOpMatrixTimesVector: case SpvOpVectorTimesMatrix: case SpvOpMatrixTimesMatrix:
        return matrix_op(c, op, ins);
    case SpvOpCompositeConstruct: case SpvOpCompositeExtract: case SpvOpCompositeInsert: case SpvOpVectorShuffle:
    case SpvOpTranspose:
        return composite(c, op, ins, len);
    case SpvOpExtInst: return spv_ext_inst(c, ins, len);
    case SpvOpImageSampleImplicitLod: return spv_sample(c, ins, len);
    case SpvOpSampledImage: return spv_fail(c, "separate samplers are not supported (use sampler2D)");
    case SpvOpUndef: {
        const int n = spv_type_flat(c, ins[1]);
        int comp[256];
        if (n > 256)
            return spv_fail(c, "undefined value too large");
        for (int i = 0; i < n; i++)
            comp[i] = c->zero;
        return spv_set_value(c, ins[2], ins[1], comp, n);
    }
    case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic: case SpvOpBitwiseAnd:
    case SpvOpBitwiseOr: case SpvOpBitwiseXor: case SpvOpNot:
        return spv_fail(c, "bit operations are not supported (integers are carried as floats)");
    case SpvOpIsNan: case SpvOpIsInf: return spv_fail(c, "isnan/isinf are not supported");
    case SpvOpImageSampleExplicitLod: return spv_fail(c, "textureLod/textureGrad are not supported (use texture)");
    case SpvOpImageFetch: return spv_fail(c, "texelFetch is not supported (SPIR-V OpImageFetch; use texture)");
    case SpvOpOuterProduct: return spv_fail(c, "outerProduct is not supported");
    default: return 1;
    }
}
