// fma200.frag — lambert.frag plus the FMA cost knob fixed at 200: the GLSL
// twin of `mosaic render --fma 200` on the built-in lambert
// (src/shader/builtin_fs_tmp.h, kernel_fma), in its order of operations:
// x = (r + g) + b; 200 times x = x * fma_k + fma_c; then x * fma_zero added
// to r, g and b.  With fma_k = 1, fma_c = 0, fma_zero = 0 (the scene's
// values) the image is lambert's.  Alpha is untouched; the alpha test
// follows, as in the native shader.
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

const int FMA = 200;

void main()
{
    vec3 n = v_normal * inversesqrt(dot(v_normal, v_normal) + 1e-20);
    vec3 s = u.ambient.rgb;
    for (int j = 0; j < 4; j++)
        s += max(dot(n, u.light_dir[j].xyz), 0.0) * u.light_color[j].rgb;
    color = vec4(s * u.base_color.rgb, u.base_color.a);

    float x = color.r + color.g + color.b;
    for (int i = 0; i < FMA; i++)
        x = x * u.fma_k + u.fma_c;
    color.rgb += x * u.fma_zero;

    if (u.alpha_cutoff > 0.0 && !(color.a >= u.alpha_cutoff))
        discard;
}
