// bmbp.frag — a bump-mapped Phong bowling pin, after the BMBP shader of
// seed 003 (Chan et al. 2002, Table 1: the RenderMan pin with a bump map
// and one light).  With shaders/pin.vert (or pobj.vert): location 3 is the
// world-space vector from the surface to the eye.
//
// Texture unit 0: rgb the paint, alpha a height field
// (scenes/textures/pin_bump.png).  The height is that alpha (dents, scuffs)
// plus a procedural pattern of shallow dimples over the pin; the normal is
// bent by the height's screen-space derivatives with the surface gradient of
// Mikkelsen ("Bump mapping unparametrized surfaces on the GPU", 2010):
// dP/dx, dP/dy from the derivatives of the view vector (P = eye - view, the
// eye constant), no tangent frame needed.  One light (the scene's first,
// directional), Phong: ambient + (N.L) diffuse + (R.V)^n specular.
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

layout(binding = 0) uniform sampler2D paint_height;

layout(location = 0) in vec3 v_normal;  // world normal
layout(location = 1) in vec2 v_uv;
layout(location = 3) in vec3 v_view;    // surface to eye, world

layout(location = 0) out vec4 color;

const float BUMP = 0.004;      // world units of height per unit of height field
const float DIMPLES = 0.06;    // procedural dimples' share of the height
const float KS = 0.6, SHININESS = 48.0;

void main()
{
    vec4 t = texture(paint_height, v_uv);
    vec2 g = fract(v_uv * vec2(64.0, 96.0)) - 0.5;
    float dimple = 1.0 - smoothstep(0.0, 0.1, dot(g, g));
    float h = BUMP * (t.a - DIMPLES * dimple);

    vec3 N = normalize(v_normal);
    vec3 dpdx = -dFdx(v_view), dpdy = -dFdy(v_view);
    vec3 r1 = cross(dpdy, N), r2 = cross(N, dpdx);
    float det = dot(dpdx, r1);
    vec3 grad = sign(det) * (dFdx(h) * r1 + dFdy(h) * r2);
    vec3 Nb = normalize(abs(det) * N - grad);

    vec3 V = normalize(v_view);
    vec3 L = u.light_dir[0].xyz;
    float diff = max(dot(Nb, L), 0.0);
    vec3 R = reflect(-L, Nb);
    float spec = diff > 0.0 ? pow(max(dot(R, V), 0.0), SHININESS) : 0.0;
    vec3 paint = u.base_color.rgb * t.rgb;
    vec3 c = u.ambient.rgb * paint + u.light_color[0].rgb * (diff * paint + KS * spec);
    color = vec4(c, u.base_color.a);
}
