#version 450
// Reads byte 496 of its uniform block: within Mosaic's 1024-byte limit, past
// the block a scene's draws give (shader_builtin_uniforms).
layout(std140, binding = 0) uniform U { vec4 a[40]; } u;
layout(location = 0) out vec4 color;
void main() { color = u.a[30]; }
