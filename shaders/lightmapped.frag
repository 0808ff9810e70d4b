// lightmapped.frag — a Quake 3 map surface (the built-in `lightmapped`): the
// base colour times texture unit 0 times the lightmap at unit 1, doubled and
// saturated as the game's overbright display does; no scene lights.
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

layout(binding = 0) uniform sampler2D tex;
layout(binding = 1) uniform sampler2D lightmap;

layout(location = 0) in vec2 v_uv;
layout(location = 1) in vec2 v_lm;

layout(location = 0) out vec4 color;

void main()
{
    vec4 t = u.base_color * texture(tex, v_uv);
    vec3 l = texture(lightmap, v_lm).rgb;
    color = vec4(min(t.rgb * l * 2.0, vec3(1.0)), t.a);
    if (u.alpha_cutoff > 0.0 && !(color.a >= u.alpha_cutoff))
        discard;
}
