// pobj.vert — builtin.vert plus what the bowling-pin and wood shaders need:
// the object-space position (RenderMan's Pobj) at location 2 and the
// world-space vector from the surface to the eye at location 3.  Locations 0
// and 1 are builtin.vert's (world normal, texture coordinates); 11 varying
// floats in all.
//
// The eye is not in the uniform block, so it is recovered from mvp: a
// perspective camera's eye is the one point whose clip x, y and w are all 0,
// i.e. the object-space e with row_i(mvp) . (e, 1) = 0 for rows 0, 1, 3 —
// three planes, solved with Cramer's rule in cross-product form (GLSL's
// inverse() is not available in Mosaic).
#version 450

layout(std140, binding = 0) uniform Builtin {
    mat4 mvp;
    mat4 model;
    mat3 normal_matrix;
    vec4 base_color;
    vec4 light_dir[4];
    vec4 light_color[4];
    vec4 ambient;
    int fma;
    float fma_k, fma_c, fma_zero;
    float alpha_cutoff;
} u;

layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 texcoord;

layout(location = 0) out vec3 v_normal;
layout(location = 1) out vec2 v_uv;
layout(location = 2) out vec3 v_pobj;
layout(location = 3) out vec3 v_view;

vec4 mrow(int i) { return vec4(u.mvp[0][i], u.mvp[1][i], u.mvp[2][i], u.mvp[3][i]); }

void main()
{
    gl_Position = u.mvp * vec4(position, 1.0);
    v_normal = u.normal_matrix * normal;
    v_uv = texcoord;
    v_pobj = position;

    vec4 r0 = mrow(0), r1 = mrow(1), r3 = mrow(3);
    vec3 c13 = cross(r1.xyz, r3.xyz), c30 = cross(r3.xyz, r0.xyz), c01 = cross(r0.xyz, r1.xyz);
    float det = dot(r0.xyz, c13);
    vec3 eye = -(r0.w * c13 + r1.w * c30 + r3.w * c01) / det;   // object space
    v_view = mat3(u.model) * (eye - position);                 // world space
}
