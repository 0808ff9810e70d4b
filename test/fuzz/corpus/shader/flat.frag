// flat.frag — the base colour, with the alpha test (the built-in `flat`).
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

layout(location = 0) out vec4 color;

void main()
{
    color = u.base_color;
    if (u.alpha_cutoff > 0.0 && !(color.a >= u.alpha_cutoff))
        discard;
}
