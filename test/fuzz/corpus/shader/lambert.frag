// lambert.frag — ambient plus four directional lights on the renormalized
// world normal, times the base colour (the built-in `lambert`).
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

layout(location = 0) in vec3 v_normal;

layout(location = 0) out vec4 color;

void main()
{
    vec3 n = v_normal * inversesqrt(dot(v_normal, v_normal) + 1e-20);
    vec3 s = u.ambient.rgb;
    for (int j = 0; j < 4; j++)
        s += max(dot(n, u.light_dir[j].xyz), 0.0) * u.light_color[j].rgb;
    color = vec4(s * u.base_color.rgb, u.base_color.a);
    if (u.alpha_cutoff > 0.0 && !(color.a >= u.alpha_cutoff))
        discard;
}
