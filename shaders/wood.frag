// wood.frag — procedural wood, after the Wood shader of seed 003 (Chan et
// al. 2002, Table 1: "computationally intensive and requires many dependent
// texture lookups"; their noise came from textures, ours is computed).
// With shaders/pobj.vert: location 2 is the object-space position, location
// 3 the world-space vector from the surface to the eye.
//
// Rings are the distance to the tree's axis (object x, offset from the
// centre) perturbed by fractal value noise: 3 octaves of 3D lattice noise
// hashed with a permutation polynomial.  Texture
// unit 0 (scenes/textures/wood.png) is read three times at coordinates
// computed from the noise: its alpha (tileable noise) as grain streaks along
// the axis, its rgb as the ring colour ramp (u = ring phase, repeating, so
// the coordinate stays continuous across rings), its alpha again at a high
// frequency for pores.  Lit by the scene's four lights (Lambert) plus a
// varnish highlight from the first.
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

layout(binding = 0) uniform sampler2D wood;

layout(location = 0) in vec3 v_normal;  // world normal
layout(location = 2) in vec3 v_pobj;    // object-space position
layout(location = 3) in vec3 v_view;    // surface to eye, world

layout(location = 0) out vec4 color;

const int OCTAVES = 3;
const float RING_FREQ = 8.0;               // rings per object unit of radius
const vec2 AXIS = vec2(-0.35, -0.9);       // the axis' (y, z), below and behind the plank

// Lattice hash: Gustavson's permutation polynomial (x * 34 + 1) * x mod 289
// (webgl-noise), applied per axis.  Every value is an integer below 2^24, so
// each step is exact in float and every renderer computes the same bits;
// a fract(sin(k) * 43758.5453) hash is not (it amplifies the last-ulp
// differences between sin implementations, e.g. Mosaic's and llvmpipe's).
float permute(float x) { return mod((x * 34.0 + 1.0) * x, 289.0); }

// 3D value noise in 0..1: trilinear (smoothstep-weighted) over the hashes of
// the 8 lattice corners around p.
float vnoise(vec3 p)
{
    vec3 i = mod(floor(p), 289.0), j = mod(i + 1.0, 289.0), f = fract(p);
    vec3 w = f * f * (3.0 - 2.0 * f);
    float x0 = permute(i.x), x1 = permute(j.x);
    float y00 = permute(x0 + i.y), y10 = permute(x1 + i.y), y01 = permute(x0 + j.y), y11 = permute(x1 + j.y);
    const float S = 1.0 / 289.0;
    float n000 = permute(y00 + i.z) * S, n100 = permute(y10 + i.z) * S;
    float n010 = permute(y01 + i.z) * S, n110 = permute(y11 + i.z) * S;
    float n001 = permute(y00 + j.z) * S, n101 = permute(y10 + j.z) * S;
    float n011 = permute(y01 + j.z) * S, n111 = permute(y11 + j.z) * S;
    return mix(mix(mix(n000, n100, w.x), mix(n010, n110, w.x), w.y),
               mix(mix(n001, n101, w.x), mix(n011, n111, w.x), w.y), w.z);
}

// Fractal sum, centred on 0: about -0.5 .. 0.5.
float fbm(vec3 p)
{
    float s = 0.0, a = 0.5;
    for (int o = 0; o < OCTAVES; o++) {
        s += a * (vnoise(p) - 0.5);
        p = p * 2.03 + vec3(17.0, 5.0, 11.0);
        a *= 0.5;
    }
    return s;
}

void main()
{
    vec3 P = v_pobj;
    // Noise stretched along the axis (x): wood varies slowly along the grain.
    float turb = fbm(P * vec3(0.6, 2.5, 2.5));
    float r = length(P.yz - AXIS);
    float rings = r * RING_FREQ + 1.2 * turb;

    // Grain streaks: noise read along the axis, displaced by the rings.
    float streak = texture(wood, vec2(P.x * 0.35 + 0.2 * turb, rings * 0.5)).a;
    float phase = rings + 0.15 * (streak - 0.5);
    vec3 albedo = texture(wood, vec2(phase, 0.2 + 0.6 * streak)).rgb;
    // Pores: fine streaks, denser in the latewood (dark) part of a ring.
    float pore = texture(wood, vec2(P.x * 1.3 + streak, phase * 3.0)).a;
    albedo *= mix(1.0, 0.78, smoothstep(0.55, 0.8, pore) * (1.0 - albedo.r));
    albedo *= u.base_color.rgb;

    vec3 N = normalize(v_normal);
    vec3 s = u.ambient.rgb;
    for (int j = 0; j < 4; j++)
        s += max(dot(N, u.light_dir[j].xyz), 0.0) * u.light_color[j].rgb;
    vec3 V = normalize(v_view);
    vec3 H = normalize(u.light_dir[0].xyz + V);
    float spec = 0.25 * pow(max(dot(N, H), 0.0), 40.0);
    color = vec4(s * albedo + spec * u.light_color[0].rgb, u.base_color.a);
}
