/* spirv_image.c — texture() on a sampler2D, and the message for an instruction Mosaic does not run (image
 * queries and fetches named by their GLSL, atomics, barriers).  Fed by spirv_compute.c and spirv_blocks.c. */
#include "shader/spirv_priv.h"

#include <spirv/unified1/spirv.h>

int spv_sample(spv_ctx *c, const uint32_t *ins, int len)
{
    if (len > 5 && ins[5])
        return spv_fail(c, "texture() with a bias or other image operands is not supported");
    int unit, n;
    if (spv_const_int(c, ins[3], &unit) < 0)
        return spv_fail(c, "malformed SPIR-V: sampled image is not a sampler2D uniform");
    const int *uv = spv_value(c, ins[4], &n);
    if (!uv)
        return -1;
    if (n != 2)
        return spv_fail(c, "only 2D texture coordinates are supported");
    int comp[4];
    for (int k = 0; k < 4; k++)
        comp[k] = ir_tex(c->dag, unit, k, uv[0], uv[1]);
    return spv_set_value(c, ins[2], ins[1], comp, 4);
}

/* An instruction's SPIR-V name and the GLSL that makes it, for the image
 * and query instructions glslang writes for GLSL Mosaic does not support;
 * NULL when it is not one of those. */
static const char *image_op_name(SpvOp op, const char **glsl)
{
    switch (op) {
    case SpvOpImageSampleDrefImplicitLod: *glsl = "texture() on a shadow sampler (sampler2DShadow)"; return "OpImageSampleDrefImplicitLod";
    case SpvOpImageSampleDrefExplicitLod: *glsl = "textureLod/textureGrad on a shadow sampler (sampler2DShadow)"; return "OpImageSampleDrefExplicitLod";
    case SpvOpImageSampleProjImplicitLod: *glsl = "textureProj"; return "OpImageSampleProjImplicitLod";
    case SpvOpImageSampleProjExplicitLod: *glsl = "textureProjLod/textureProjGrad"; return "OpImageSampleProjExplicitLod";
    case SpvOpImageSampleProjDrefImplicitLod: *glsl = "textureProj on a shadow sampler"; return "OpImageSampleProjDrefImplicitLod";
    case SpvOpImageSampleProjDrefExplicitLod: *glsl = "textureProjLod on a shadow sampler"; return "OpImageSampleProjDrefExplicitLod";
    case SpvOpImageFetch: *glsl = "texelFetch"; return "OpImageFetch";
    case SpvOpImageGather: *glsl = "textureGather"; return "OpImageGather";
    case SpvOpImageDrefGather: *glsl = "textureGather on a shadow sampler"; return "OpImageDrefGather";
    case SpvOpImageRead: *glsl = "imageLoad"; return "OpImageRead";
    case SpvOpImageWrite: *glsl = "imageStore"; return "OpImageWrite";
    case SpvOpImageQuerySizeLod: *glsl = "textureSize"; return "OpImageQuerySizeLod";
    case SpvOpImageQuerySize: *glsl = "textureSize/imageSize"; return "OpImageQuerySize";
    case SpvOpImageQueryLod: *glsl = "textureQueryLod"; return "OpImageQueryLod";
    case SpvOpImageQueryLevels: *glsl = "textureQueryLevels"; return "OpImageQueryLevels";
    case SpvOpImageQuerySamples: *glsl = "textureSamples"; return "OpImageQuerySamples";
    case SpvOpImage: *glsl = "the image of a sampler (texelFetch, textureSize, ...)"; return "OpImage";
    case SpvOpImageQueryFormat: case SpvOpImageQueryOrder: *glsl = "an image format query"; return "OpImageQueryFormat/Order";
    default: return NULL;
    }
}

/* The message for instruction INS (opcode OP) that spv_compute() does not
 * run; NEXT: the word after it.  An OpImage is named by the instruction
 * that reads its result (texelFetch and textureSize take the image out of
 * the sampler first). */
int spv_unsupported(spv_ctx *c, SpvOp op, const uint32_t *ins, size_t next)
{
    const char *glsl = NULL, *name = image_op_name(op, &glsl);
    if (op == SpvOpImage && (ins[0] >> 16) >= 3) {
        const uint32_t id = ins[2];
        for (size_t q = next; q < c->nw && (c->w[q] >> 16) > 0; q += c->w[q] >> 16) {
            const SpvOp qop = (SpvOp)(c->w[q] & 0xffff);
            if (qop == SpvOpFunctionEnd || q + (c->w[q] >> 16) > c->nw)
                break;
            const char *g2 = NULL, *n2 = image_op_name(qop, &g2);
            if (n2 && qop != SpvOpImage && (c->w[q] >> 16) > 3 && c->w[q + 3] == id) {
                glsl = g2;
                name = n2;
                break;
            }
        }
    }
    if (name)
        return spv_fail(c, "%s is not supported (SPIR-V %s); Mosaic samples sampler2D with texture() only", glsl, name);
    switch (op) {
    case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicExchange: case SpvOpAtomicCompareExchange:
    case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement: case SpvOpAtomicIAdd: case SpvOpAtomicISub:
    case SpvOpAtomicSMin: case SpvOpAtomicUMin: case SpvOpAtomicSMax: case SpvOpAtomicUMax: case SpvOpAtomicAnd:
    case SpvOpAtomicOr: case SpvOpAtomicXor:
        return spv_fail(c, "atomic operations are not supported (SPIR-V opcode %d)", (int)op);
    case SpvOpControlBarrier: case SpvOpMemoryBarrier:
        return spv_fail(c, "barriers are not supported (SPIR-V OpControlBarrier/OpMemoryBarrier)");
    case SpvOpEmitVertex: case SpvOpEndPrimitive:
        return spv_fail(c, "geometry shader instructions are not supported (SPIR-V OpEmitVertex/OpEndPrimitive)");
    default:
        return spv_fail(c, "unsupported SPIR-V instruction (opcode %d)", (int)op);
    }
}
