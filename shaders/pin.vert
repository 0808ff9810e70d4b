// pin.vert — pobj.vert's outputs on a bowling pin turned from a UV sphere:
// `sphere 1 SLON SLAT` with `shader shaders/rbp.frag shaders/pin.vert`
// becomes a 10-pin 1.5 units tall (15 inches at 0.1 unit per inch, the
// scale the RenderMan bowling pin's texture transforms assume: Pobj.y in
// -0.75 .. 0.75, the label on the front, Pobj.z >= 0).  The sphere's
// latitude (v: 0 at the top) is the height and its longitude the angle; the
// radius follows the USBC pin's profile (Catmull-Rom through the table
// below, a quarter ellipse over the head), the normal is the lathe's
// (d, -dr/dh), dr/dh by central difference.  The sphere's seam (u = 0) is
// turned to the back (-z), so u = 0.5 faces +z.
//
// Outputs: 0 world normal, 1 texture coordinates (the sphere's), 2 Pobj,
// 3 world-space vector from the surface to the eye (see pobj.vert).
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

// Height above the base and radius, inches (USBC 10-pin, approximately).
const int N = 14;
const float H[N] = float[](0.0, 0.75, 2.25, 3.375, 4.5, 5.875, 7.25, 8.625, 9.375, 10.0, 10.875, 11.75, 12.5, 13.5);
const float R[N] = float[](1.015, 1.416, 1.955, 2.255, 2.383, 2.25, 1.9, 1.3, 1.0, 0.898, 0.935, 1.1, 1.225, 1.273);

float profile(float h)
{
    float r = 0.0;
    for (int i = 0; i < N - 1; i++) {
        int a = max(i - 1, 0), b = min(i + 2, N - 1);
        float dh = H[i + 1] - H[i];
        float m0 = (R[i + 1] - R[a]) / (H[i + 1] - H[a]) * dh;
        float m1 = (R[b] - R[i]) / (H[b] - H[i]) * dh;
        float t = (h - H[i]) / dh;
        float t2 = t * t, t3 = t2 * t;
        float y = (2.0 * t3 - 3.0 * t2 + 1.0) * R[i] + (t3 - 2.0 * t2 + t) * m0 + (-2.0 * t3 + 3.0 * t2) * R[i + 1] +
                  (t3 - t2) * m1;
        r += (h >= H[i] && h < H[i + 1]) ? y : 0.0;
    }
    float c = (h - H[N - 1]) / (15.0 - H[N - 1]);   // the head's cap
    r += h >= H[N - 1] ? R[N - 1] * sqrt(max(1.0 - c * c, 0.0)) : 0.0;
    return r;
}

vec4 mrow(int i) { return vec4(u.mvp[0][i], u.mvp[1][i], u.mvp[2][i], u.mvp[3][i]); }

void main()
{
    float h = 15.0 * (1.0 - texcoord.y);                       // inches above the base
    vec2 d = position.xz / max(length(position.xz), 1e-20);    // 0 at the poles
    d = vec2(d.y, -d.x);                                       // seam to -z (a rotation: winding kept)
    float r = profile(h);
    float e = 0.02;
    float dr = (profile(min(h + e, 15.0)) - profile(max(h - e, 0.0))) / (min(h + e, 15.0) - max(h - e, 0.0));
    vec3 p = vec3(0.1 * r * d.x, 0.1 * h - 0.75, 0.1 * r * d.y);
    vec3 n = vec3(d.x, -dr, d.y);

    gl_Position = u.mvp * vec4(p, 1.0);
    v_normal = u.normal_matrix * n;
    v_uv = texcoord;
    v_pobj = p;

    vec4 r0 = mrow(0), r1 = mrow(1), r3 = mrow(3);
    vec3 c13 = cross(r1.xyz, r3.xyz), c30 = cross(r3.xyz, r0.xyz), c01 = cross(r0.xyz, r1.xyz);
    float det = dot(r0.xyz, c13);
    vec3 eye = -(r0.w * c13 + r1.w * c30 + r3.w * c01) / det;
    v_view = mat3(u.model) * (eye - p);
}
