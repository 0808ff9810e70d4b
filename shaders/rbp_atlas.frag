// rbp_atlas.frag — shaders/rbp.frag for scenes that bind one texture per
// object (Mosaic scenes bind unit 0 only today): the five textures of the
// RenderMan bowling pin come from one atlas at unit 0
// (scenes/textures/pin_atlas.png: 3 x 2 cells, bottom row pinbase, bruns,
// circle, top row coated, marks).  Each lookup is rbp.frag's, then moved
// into its cell: pinbase and the three labels clamped to the cell's edge
// texels (GL_CLAMP_TO_EDGE; the labels' edges are transparent), marks
// repeated (fract) as its coordinates leave 0..1.  Otherwise identical to
// rbp.frag; rbp.frag is the one whose DAG compares with the seed's Table 1.
//
// RTSL -> GLSL:
//  - invert(translate(t) * scale(s)) is scale(1/s) * translate(-t): the
//    constant mat4s below, computed by hand (column-major: the fourth column
//    is (-t.x/s.x, -t.y/s.y, 0, 1)).
//  - texture(tex, float4 coord) samples at coord.xy (the coordinates' w is
//    always 1 here).
//  - select(c, a, b) is c ? a : b.
//  - `a over b` is premultiplied compositing: a + (1 - a.a) * b.
//  - lightmodel_diffuse(a, d) = a * Ca + d * sum_lights(clamp(N.L, 0, 1) * Cl);
//    lightmodel_specular(s, e, sh) =
//        s * sum_lights((N.L > 0) * pow(clamp(N.H, 0, 1), sh) * Cl) + e,
//    H = normalize(L + E), after the RTSL's lightmodel library: Ca is the
//    scene's ambient, the lights its four directional lights (light_dir,
//    light_color; the paper's five were one point light and four textured
//    lights), E the normalized view vector, all with alpha 1.
//  - The surface's float4 goes out with alpha 1 (the pin is opaque).
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

layout(binding = 0) uniform sampler2D atlas;

// Texel centres of a 128-texel cell: clamp-to-edge inside the atlas.
const float EDGE = 0.5 / 128.0;

vec4 cell(vec2 st, vec2 at)
{
    return texture(atlas, (at + clamp(st, EDGE, 1.0 - EDGE)) * vec2(1.0 / 3.0, 0.5));
}

layout(location = 0) in vec3 v_normal;  // world normal
layout(location = 1) in vec2 v_uv;      // uv
layout(location = 2) in vec3 v_pobj;    // Pobj
layout(location = 3) in vec3 v_view;    // surface to eye, world

layout(location = 0) out vec4 color;

const vec4 Zero = vec4(0.0);

// invert(translate(0, -7.5, 0) * scale(0.667, 15, 1))
const mat4 t_base = mat4(1.0 / 0.667, 0.0, 0.0, 0.0,
                         0.0, 1.0 / 15.0, 0.0, 0.0,
                         0.0, 0.0, 1.0, 0.0,
                         0.0, 0.5, 0.0, 1.0);
// invert(translate(-2.6, -2.8, 0) * scale(5.2, 5.2, 1))
const mat4 t_bruns = mat4(1.0 / 5.2, 0.0, 0.0, 0.0,
                          0.0, 1.0 / 5.2, 0.0, 0.0,
                          0.0, 0.0, 1.0, 0.0,
                          0.5, 2.8 / 5.2, 0.0, 1.0);
// invert(translate(-0.8, -1.15, 0) * scale(1.4, 1.4, 1))
const mat4 t_circle = mat4(1.0 / 1.4, 0.0, 0.0, 0.0,
                           0.0, 1.0 / 1.4, 0.0, 0.0,
                           0.0, 0.0, 1.0, 0.0,
                           0.8 / 1.4, 1.15 / 1.4, 0.0, 1.0);
// invert(translate(2.6, -2.8, 0) * scale(-5.2, 5.2, 1))
const mat4 t_coated = mat4(-1.0 / 5.2, 0.0, 0.0, 0.0,
                           0.0, 1.0 / 5.2, 0.0, 0.0,
                           0.0, 0.0, 1.0, 0.0,
                           0.5, 2.8 / 5.2, 0.0, 1.0);
// invert(translate(2.0, 7.5, 0) * scale(4, -15, 1))
const mat4 t_marks = mat4(0.25, 0.0, 0.0, 0.0,
                          0.0, -1.0 / 15.0, 0.0, 0.0,
                          0.0, 0.0, 1.0, 0.0,
                          -0.5, 0.5, 0.0, 1.0);

vec4 over(vec4 a, vec4 b) { return a + (1.0 - a.a) * b; }

vec4 lightmodel_diffuse(vec4 a, vec4 d, vec3 N)
{
    vec4 sum = vec4(0.0);
    for (int j = 0; j < 4; j++)
        sum += clamp(dot(N, u.light_dir[j].xyz), 0.0, 1.0) * vec4(u.light_color[j].rgb, 1.0);
    return a * vec4(u.ambient.rgb, 1.0) + d * sum;
}

vec4 lightmodel_specular(vec4 s, vec4 e, float sh, vec3 N, vec3 E)
{
    vec4 sum = vec4(0.0);
    for (int j = 0; j < 4; j++) {
        vec3 L = u.light_dir[j].xyz;
        vec3 H = normalize(L + E);
        float spec = dot(N, L) > 0.0 ? pow(clamp(dot(N, H), 0.0, 1.0), sh) : 0.0;
        sum += spec * vec4(u.light_color[j].rgb, 1.0);
    }
    return s * sum + e;
}

void main()
{
    vec3 N = normalize(v_normal);
    vec3 E = normalize(v_view);
    vec3 Pobj = v_pobj;
    vec4 uv = vec4(v_uv, 0.0, 1.0);

    vec4 uv_wrap = vec4(uv[0], 10.0 * Pobj[1], 0.0, 1.0);
    vec4 uv_label = vec4(10.0 * Pobj[0], 10.0 * Pobj[1], 0.0, 1.0);
    float front = Pobj[2] >= 0.0 ? 1.0 : 0.0;
    float back = Pobj[2] <= 0.0 ? 1.0 : 0.0;
    vec4 Base = cell((t_base * uv_wrap).xy, vec2(0.0, 0.0));
    vec4 Bruns = front * cell((t_bruns * uv_label).xy, vec2(1.0, 0.0));
    vec4 Circle = front * cell((t_circle * uv_label).xy, vec2(2.0, 0.0));
    vec4 Coated = back * cell((t_coated * uv_label).xy, vec2(0.0, 1.0));
    vec4 Marks = cell(fract((t_marks * uv_wrap).xy), vec2(1.0, 1.0));
    vec4 Cd = lightmodel_diffuse(vec4(0.4, 0.4, 0.4, 1.0), vec4(0.5, 0.5, 0.5, 1.0), N);
    vec4 Cs = lightmodel_specular(vec4(0.35, 0.35, 0.35, 1.0), Zero, 20.0, N, E);
    vec4 c = over(Circle, over(Bruns, over(Coated, Base))) * (Marks * Cd) + Cs;
    color = vec4(c.rgb, 1.0);
}
