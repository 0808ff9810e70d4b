/* spirv_glsl450.c — the GLSL.std.450 extended instructions (OpExtInst), each a formula over DAG nodes.
 * Fed by spirv_compute.c (spv_compute); operands are the values spirv_module.c keeps by id. */
#include "shader/spirv_priv.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

static const char *const glsl450_names[] = {
    "Bad", "round", "roundEven", "trunc", "abs", "abs", "sign", "sign", "floor", "ceil", "fract", "radians",
    "degrees", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
    "atan", "pow", "exp", "log", "exp2", "log2", "sqrt", "inversesqrt", "determinant", "inverse", "modf", "modf",
    "min", "min", "min", "max", "max", "max", "clamp", "clamp", "clamp", "mix", "mix", "step", "smoothstep", "fma",
    "frexp", "frexp", "ldexp", "packSnorm4x8", "packUnorm4x8", "packSnorm2x16", "packUnorm2x16", "packHalf2x16",
    "packDouble2x32", "unpackSnorm2x16", "unpackUnorm2x16", "unpackHalf2x16", "unpackSnorm4x8", "unpackUnorm4x8",
    "unpackDouble2x32", "length", "distance", "cross", "normalize", "faceforward", "reflect", "refract",
    "findLSB", "findMSB", "findMSB", "interpolateAtCentroid", "interpolateAtSample", "interpolateAtOffset", "min",
    "max", "clamp",
};

/* A formula for some GLSL.std.450 instructions: E applied to operands V (N components each; W, the
 * first's, at most 16) into COMP, *OUT_N components (W unless the formula says otherwise).  Returns 0,
 * -1 on error, or 1 when E is not one it builds. */
typedef int ext_formula(spv_ctx *c, uint32_t e, const int *const v[3], const int n[3], int w, int *comp, int *out_n);

/* The functions that are one DAG operation per component. */
static int ext_table(spv_ctx *c, uint32_t e, const int *const v[3], const int n[3], int w, int *comp, int *out_n)
{
    ir_op un = IR_OP_COUNT, bin = IR_OP_COUNT;
    switch (e) {
    case GLSLstd450Round: case GLSLstd450RoundEven: un = IR_ROUND; break;
    case GLSLstd450Trunc: un = IR_TRUNC; break;
    case GLSLstd450FAbs: case GLSLstd450SAbs: un = IR_ABS; break;
    case GLSLstd450FSign: case GLSLstd450SSign: un = IR_SIGN; break;
    case GLSLstd450Floor: un = IR_FLOOR; break;
    case GLSLstd450Ceil: un = IR_CEIL; break;
    case GLSLstd450Fract: un = IR_FRACT; break;
    case GLSLstd450Sin: un = IR_SIN; break;
    case GLSLstd450Cos: un = IR_COS; break;
    case GLSLstd450Tan: un = IR_TAN; break;
    case GLSLstd450Asin: un = IR_ASIN; break;
    case GLSLstd450Acos: un = IR_ACOS; break;
    case GLSLstd450Atan: un = IR_ATAN; break;
    case GLSLstd450Exp: un = IR_EXP; break;
    case GLSLstd450Log: un = IR_LOG; break;
    case GLSLstd450Exp2: un = IR_EXP2; break;
    case GLSLstd450Log2: un = IR_LOG2; break;
    case GLSLstd450Sqrt: un = IR_SQRT; break;
    case GLSLstd450InverseSqrt: un = IR_RSQRT; break;
    case GLSLstd450Atan2: bin = IR_ATAN2; break;
    case GLSLstd450Pow: bin = IR_POW; break;
    case GLSLstd450FMin: case GLSLstd450UMin: case GLSLstd450SMin: case GLSLstd450NMin: bin = IR_MIN; break;
    case GLSLstd450FMax: case GLSLstd450UMax: case GLSLstd450SMax: case GLSLstd450NMax: bin = IR_MAX; break;
    case GLSLstd450Step: bin = IR_STEP; break;
    default: break;
    }
    if (un != IR_OP_COUNT || bin != IR_OP_COUNT) {
        const int ww = bin != IR_OP_COUNT && n[1] > w ? n[1] : w;
        for (int k = 0; k < ww; k++)
            comp[k] = un != IR_OP_COUNT ? ir_add(c->dag, un, v[0][k], -1, -1)
                                        : spv_op2(c, bin, v[0][n[0] == 1 ? 0 : k], v[1][n[1] == 1 ? 0 : k]);
        *out_n = ww;
        return 0;
    }
    return 1;
}

/* The formulas applied component by component: radians, degrees, clamp, mix, smoothstep, fma,
 * ldexp, the hyperbolic functions and their inverses (from exp and log). */
static int ext_elementwise(spv_ctx *c, uint32_t e, const int *const v[3], const int n[3], int w, int *comp, int *out_n)
{
    switch (e) {
    case GLSLstd450Radians: case GLSLstd450Degrees: {
        const int k = ir_const(c->dag, e == GLSLstd450Radians ? 0.017453292519943295f : 57.29577951308232f);
        for (int i = 0; i < w; i++)
            comp[i] = spv_op2(c, IR_MUL, v[0][i], k);
        break;
    }
    case GLSLstd450FClamp: case GLSLstd450UClamp: case GLSLstd450SClamp: case GLSLstd450NClamp:
        for (int i = 0; i < w; i++)
            comp[i] = spv_op2(c, IR_MIN, spv_op2(c, IR_MAX, v[0][i], v[1][n[1] == 1 ? 0 : i]), v[2][n[2] == 1 ? 0 : i]);
        break;
    case GLSLstd450FMix:  /* x * (1 - a) + y * a */
        for (int i = 0; i < w; i++) {
            const int a = v[2][n[2] == 1 ? 0 : i];
            comp[i] = spv_op2(c, IR_ADD, spv_op2(c, IR_MUL, v[0][i], spv_op2(c, IR_SUB, ir_const(c->dag, 1.0f), a)),
                          spv_op2(c, IR_MUL, v[1][i], a));
        }
        break;
    case GLSLstd450SmoothStep:  /* t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 t) */
        *out_n = n[2];
        for (int i = 0; i < n[2]; i++) {
            const int e0 = v[0][n[0] == 1 ? 0 : i], e1 = v[1][n[1] == 1 ? 0 : i];
            int t = ir_add(c->dag, IR_DIV, spv_op2(c, IR_SUB, v[2][i], e0), spv_op2(c, IR_SUB, e1, e0), -1);
            t = spv_op2(c, IR_MIN, spv_op2(c, IR_MAX, t, c->zero), ir_const(c->dag, 1.0f));
            comp[i] = spv_op2(c, IR_MUL, spv_op2(c, IR_MUL, t, t),
                          spv_op2(c, IR_SUB, ir_const(c->dag, 3.0f), spv_op2(c, IR_MUL, ir_const(c->dag, 2.0f), t)));
        }
        break;
    case GLSLstd450Fma:
        for (int i = 0; i < w; i++)
            comp[i] = spv_op2(c, IR_ADD, spv_op2(c, IR_MUL, v[0][i], v[1][i]), v[2][i]);
        break;
    case GLSLstd450Ldexp:
        for (int i = 0; i < w; i++)
            comp[i] = spv_op2(c, IR_MUL, v[0][i], ir_add(c->dag, IR_EXP2, v[1][n[1] == 1 ? 0 : i], -1, -1));
        break;
    case GLSLstd450Sinh: case GLSLstd450Cosh: case GLSLstd450Tanh:
        for (int i = 0; i < w; i++) {
            const int x = v[0][i], half = ir_const(c->dag, 0.5f), one = ir_const(c->dag, 1.0f);
            if (e == GLSLstd450Tanh) {  /* 1 - 2 / (e^2x + 1): +-1 at the ends, not inf / inf */
                const int e2 = ir_add(c->dag, IR_EXP, spv_op2(c, IR_MUL, ir_const(c->dag, 2.0f), x), -1, -1);
                comp[i] = spv_op2(c, IR_SUB, one, spv_op2(c, IR_DIV, ir_const(c->dag, 2.0f), spv_op2(c, IR_ADD, e2, one)));
            } else {
                const int ep = ir_add(c->dag, IR_EXP, x, -1, -1);
                const int en = ir_add(c->dag, IR_EXP, ir_add(c->dag, IR_NEG, x, -1, -1), -1, -1);
                comp[i] = spv_op2(c, IR_MUL, spv_op2(c, e == GLSLstd450Sinh ? IR_SUB : IR_ADD, ep, en), half);
            }
        }
        break;
    case GLSLstd450Asinh: case GLSLstd450Acosh:  /* log(x + sqrt(x x +- 1)) */
        for (int i = 0; i < w; i++) {
            const int x = v[0][i];
            const int r = ir_add(c->dag, IR_SQRT, spv_op2(c, e == GLSLstd450Asinh ? IR_ADD : IR_SUB, spv_op2(c, IR_MUL, x, x),
                                                      ir_const(c->dag, 1.0f)), -1, -1);
            comp[i] = ir_add(c->dag, IR_LOG, spv_op2(c, IR_ADD, x, r), -1, -1);
        }
        break;
    case GLSLstd450Atanh:  /* log((1 + x) / (1 - x)) / 2 */
        for (int i = 0; i < w; i++) {
            const int one = ir_const(c->dag, 1.0f);
            const int q = spv_op2(c, IR_DIV, spv_op2(c, IR_ADD, one, v[0][i]), spv_op2(c, IR_SUB, one, v[0][i]));
            comp[i] = spv_op2(c, IR_MUL, ir_add(c->dag, IR_LOG, q, -1, -1), ir_const(c->dag, 0.5f));
        }
        break;
    default:
        return 1;
    }
    return 0;
}

static int normalize(spv_ctx *c, const int *v, int n, int *out)
{
    const int inv = ir_add(c->dag, IR_RSQRT, spv_dot(c, v, v, n), -1, -1);
    for (int i = 0; i < n; i++)
        out[i] = spv_op2(c, IR_MUL, v[i], inv);
    return 0;
}

/* The determinant of the K x K submatrix of column-major N x N matrix M
 * with rows ROWS and columns COLS (Laplace expansion along the first
 * column; CSE shares the minors). */
static int minor_det(spv_ctx *c, const int *m, int n, const int *rows, const int *cols, int k)
{
    if (k == 1)
        return m[cols[0] * n + rows[0]];
    int sum = -1;
    for (int i = 0; i < k; i++) {
        int sub_rows[4], r = 0;
        for (int j = 0; j < k; j++)
            if (j != i)
                sub_rows[r++] = rows[j];
        const int term = spv_op2(c, IR_MUL, m[cols[0] * n + rows[i]], minor_det(c, m, n, sub_rows, cols + 1, k - 1));
        sum = sum < 0 ? term : spv_op2(c, i % 2 ? IR_SUB : IR_ADD, sum, term);
    }
    return sum;
}

/* Cofactor (row r, column q) of an N x N matrix. */
static int cofactor(spv_ctx *c, const int *m, int n, int r, int q)
{
    int rows[4], cols[4], nr = 0, nc = 0;
    for (int i = 0; i < n; i++) {
        if (i != r)
            rows[nr++] = i;
        if (i != q)
            cols[nc++] = i;
    }
    const int d = minor_det(c, m, n, rows, cols, n - 1);
    return (r + q) % 2 ? ir_add(c->dag, IR_NEG, d, -1, -1) : d;
}

/* The formulas over whole vectors and matrices: length, distance, cross, normalize, faceforward,
 * reflect, refract, determinant and inverse (the adjugate over the determinant). */
static int ext_geometry(spv_ctx *c, uint32_t e, const int *const v[3], const int n[3], int w, int *comp, int *out_n)
{
    switch (e) {
    case GLSLstd450Length:
        *out_n = 1;
        comp[0] = ir_add(c->dag, IR_SQRT, spv_dot(c, v[0], v[0], w), -1, -1);
        break;
    case GLSLstd450Distance: {
        int d[16];
        for (int i = 0; i < w; i++)
            d[i] = spv_op2(c, IR_SUB, v[0][i], v[1][i]);
        *out_n = 1;
        comp[0] = ir_add(c->dag, IR_SQRT, spv_dot(c, d, d, w), -1, -1);
        break;
    }
    case GLSLstd450Cross:
        if (w != 3)
            return spv_fail(c, "cross of non-3-vectors");
        for (int i = 0; i < 3; i++) {
            const int j = (i + 1) % 3, k = (i + 2) % 3;
            comp[i] = spv_op2(c, IR_SUB, spv_op2(c, IR_MUL, v[0][j], v[1][k]), spv_op2(c, IR_MUL, v[0][k], v[1][j]));
        }
        break;
    case GLSLstd450Normalize: normalize(c, v[0], w, comp); break;
    case GLSLstd450FaceForward: {  /* dot(Nref, I) < 0 ? N : -N */
        const int s = spv_op2(c, IR_LT, spv_dot(c, v[2], v[1], w), c->zero);
        for (int i = 0; i < w; i++)
            comp[i] = ir_add(c->dag, IR_SELECT, s, v[0][i], ir_add(c->dag, IR_NEG, v[0][i], -1, -1));
        break;
    }
    case GLSLstd450Reflect: {  /* I - 2 dot(N, I) N */
        const int d2 = spv_op2(c, IR_MUL, ir_const(c->dag, 2.0f), spv_dot(c, v[1], v[0], w));
        for (int i = 0; i < w; i++)
            comp[i] = spv_op2(c, IR_SUB, v[0][i], spv_op2(c, IR_MUL, d2, v[1][i]));
        break;
    }
    case GLSLstd450Refract: {  /* k = 1 - eta^2 (1 - dot(N, I)^2); k < 0 ? 0 : eta I - (eta dot(N, I) + sqrt(k)) N */
        const int eta = v[2][0], d = spv_dot(c, v[1], v[0], w), one = ir_const(c->dag, 1.0f);
        const int k = spv_op2(c, IR_SUB, one, spv_op2(c, IR_MUL, spv_op2(c, IR_MUL, eta, eta), spv_op2(c, IR_SUB, one, spv_op2(c, IR_MUL, d, d))));
        const int neg = spv_op2(c, IR_LT, k, c->zero);
        const int f = spv_op2(c, IR_ADD, spv_op2(c, IR_MUL, eta, d), ir_add(c->dag, IR_SQRT, k, -1, -1));
        for (int i = 0; i < w; i++)
            comp[i] = ir_add(c->dag, IR_SELECT, neg, c->zero,
                             spv_op2(c, IR_SUB, spv_op2(c, IR_MUL, eta, v[0][i]), spv_op2(c, IR_MUL, f, v[1][i])));
        break;
    }
    case GLSLstd450Determinant: case GLSLstd450MatrixInverse: {
        const int dim = n[0] == 4 ? 2 : n[0] == 9 ? 3 : n[0] == 16 ? 4 : 0;
        if (!dim)
            return spv_fail(c, "%s of a matrix that is not square", glsl450_names[e]);
        const int idx[4] = { 0, 1, 2, 3 };
        const int det = minor_det(c, v[0], dim, idx, idx, dim);
        if (e == GLSLstd450Determinant) {
            *out_n = 1;
            comp[0] = det;
        } else {  /* adjugate / determinant */
            *out_n = n[0];
            for (int q = 0; q < dim; q++)
                for (int r = 0; r < dim; r++)
                    comp[q * dim + r] = spv_op2(c, IR_DIV, cofactor(c, v[0], dim, q, r), det);
        }
        break;
    }
    default:
        return 1;
    }
    return 0;
}

/* GLSL.std.450 instructions. */
int spv_ext_inst(spv_ctx *c, const uint32_t *ins, int len)
{
    if (ins[3] != (uint32_t)c->glsl_ext)
        return spv_fail(c, "unsupported extended instruction set");
    const uint32_t e = ins[4];
    const uint32_t *args = ins + 5;
    if (e == GLSLstd450Modf || e == GLSLstd450ModfStruct || e == GLSLstd450Frexp || e == GLSLstd450FrexpStruct ||
        e == GLSLstd450IMix || (e >= GLSLstd450PackSnorm4x8 && e <= GLSLstd450UnpackDouble2x32) ||
        (e >= GLSLstd450FindILsb && e <= GLSLstd450InterpolateAtOffset))
        return spv_fail(c, "%s (GLSL.std.450 %u) is not supported", glsl450_names[e], e);
    const int nargs = len - 5;
    int n[3] = { 0, 0, 0 };
    const int *v[3] = { NULL, NULL, NULL };
    for (int i = 0; i < nargs && i < 3; i++)
        if (!(v[i] = spv_value(c, args[i], &n[i])))
            return -1;
    int comp[16];
    const int w = n[0] > 16 ? 16 : n[0];
    int out_n = w;
    static ext_formula *const formula[] = { ext_table, ext_elementwise, ext_geometry };
    int r = 1;
    for (size_t i = 0; r == 1 && i < sizeof formula / sizeof formula[0]; i++)
        r = formula[i](c, e, v, n, w, comp, &out_n);
    if (r < 0)
        return -1;
    if (r == 1)
        return spv_fail(c, "%s (GLSL.std.450 %u) is not supported", e < sizeof glsl450_names / sizeof glsl450_names[0]
                                                                        ? glsl450_names[e] : "instruction", e);
    return spv_set_value(c, ins[2], ins[1], comp, out_n);
}
