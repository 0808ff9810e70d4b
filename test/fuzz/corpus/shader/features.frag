#version 450
layout(std140, binding = 0) uniform U { vec4 c; mat3 m; float k; int n; vec4 arr[3]; } u;
layout(binding = 0) uniform sampler2D t0;
layout(location = 0) in vec4 a;
layout(location = 1) in vec4 b;
layout(location = 0) out vec4 o;
float h(float x) { return fract(sin(x * 12.9898) * 43758.5453); }
void f(in float x, out float y, inout float z) { y = x * 3.0; z += y; }
void main() {
  vec3 n = normalize(u.m * a.xyz + vec3(0.0, 0.0, 2.0));
  float s = 0.0;
  for (int i = 0; i < 6; i++) { if (i == 4) break; s += h(a.x + float(i)) * u.arr[i % 3].x; }
  float y, z = b.x;
  f(s, y, z);
  vec4 c0 = texture(t0, b.xy * 2.0 + vec2(dFdx(a.x), dFdy(a.y)));
  if (a.w > 0.5 && b.w < 0.2) { z += 1.0; } else { y = mix(y, z, 0.25); }
  if (c0.a < u.k) discard;
  o = vec4(n * y, z) * u.c + c0 * gl_FragCoord.x * 0.001;
}
