// lightmapped.vert — the vertex stage of the built-in `lightmapped` (Quake 3
// map surfaces) in GLSL: clip position, texture coordinates (location 2) and
// the lightmap's (location 3, floats 8 and 9 of a map vertex) on to the
// fragment stage.  The uniform block is Mosaic's built-in one.
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
layout(location = 3) in vec2 lightmap_uv;

layout(location = 0) out vec2 v_uv;
layout(location = 1) out vec2 v_lm;

void main()
{
    gl_Position = u.mvp * vec4(position, 1.0);
    v_uv = texcoord;
    v_lm = lightmap_uv;
}
