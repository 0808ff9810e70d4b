/* wood_native_tmp.h — shaders/wood.frag written by hand in C: the native
 * shader the shader VM is measured against (bench/shader_vm.c), as a
 * programmer would write it for Mosaic's fragment interface (mos_fs_batch):
 * loops of CHUNK lanes over SoA arrays that gcc vectorizes, the texture
 * fetched with mos_sample_quads, the same libm calls as the VM.  Each
 * statement is the GLSL's, in its order of operations (mix as
 * x * (1 - a) + y * a, normalize as v * inversesqrt(dot(v, v)), mod as
 * x - y * floor(x / y)), so both compute the same values; the bench checks
 * how close.  Included once per ISA by wood_native.c, which defines
 * WOOD_FN and sets the target.
 *
 * Varyings as shaders/pobj.vert packs them: 0-2 the world normal, 3-4 the
 * uv (unread), 5-7 the object-space position, 8-10 the vector to the eye. */
#include <math.h>
#include <string.h>

#include "shader/builtin.h"

#define CHUNK 64

static inline float w_floor(float x) { return floorf(x); }
static inline float w_mod(float x, float y) { return x - y * w_floor(x / y); }
static inline float w_mix(float x, float y, float a) { return x * (1.0f - a) + y * a; }
static inline float w_max(float x, float y) { return x < y ? y : x; }  /* GLSL's max and min */
static inline float w_min(float x, float y) { return y < x ? y : x; }
static inline float w_permute(float x) { return w_mod((x * 34.0f + 1.0f) * x, 289.0f); }

/* vnoise of wood.frag over CHUNK lanes of p. */
static void vnoise(const float *restrict px, const float *restrict py, const float *restrict pz,
                   float *restrict out)
{
    const float S = 1.0f / 289.0f;
    for (int l = 0; l < CHUNK; l++) {
        const float ix = w_mod(w_floor(px[l]), 289.0f), iy = w_mod(w_floor(py[l]), 289.0f),
                    iz = w_mod(w_floor(pz[l]), 289.0f);
        const float jx = w_mod(ix + 1.0f, 289.0f), jy = w_mod(iy + 1.0f, 289.0f), jz = w_mod(iz + 1.0f, 289.0f);
        const float fx = px[l] - w_floor(px[l]), fy = py[l] - w_floor(py[l]), fz = pz[l] - w_floor(pz[l]);
        const float wx = fx * fx * (3.0f - 2.0f * fx), wy = fy * fy * (3.0f - 2.0f * fy),
                    wz = fz * fz * (3.0f - 2.0f * fz);
        const float x0 = w_permute(ix), x1 = w_permute(jx);
        const float y00 = w_permute(x0 + iy), y10 = w_permute(x1 + iy), y01 = w_permute(x0 + jy),
                    y11 = w_permute(x1 + jy);
        const float n000 = w_permute(y00 + iz) * S, n100 = w_permute(y10 + iz) * S;
        const float n010 = w_permute(y01 + iz) * S, n110 = w_permute(y11 + iz) * S;
        const float n001 = w_permute(y00 + jz) * S, n101 = w_permute(y10 + jz) * S;
        const float n011 = w_permute(y01 + jz) * S, n111 = w_permute(y11 + jz) * S;
        out[l] = w_mix(w_mix(w_mix(n000, n100, wx), w_mix(n010, n110, wx), wy),
                       w_mix(w_mix(n001, n101, wx), w_mix(n011, n111, wx), wy), wz);
    }
}

static void wood_chunk(const mos_fs_batch *b, const float *const in[11], float *const out[4], int quads)
{
    const shader_builtin_uniforms *u = b->uniforms;
    const float *restrict nx = in[0], *restrict ny = in[1], *restrict nz = in[2];
    const float *restrict Px = in[5], *restrict Py = in[6], *restrict Pz = in[7];
    const float *restrict vx = in[8], *restrict vy = in[9], *restrict vz = in[10];
    float *restrict r = out[0], *restrict g = out[1], *restrict bl = out[2], *restrict al = out[3];
    float qx[CHUNK], qy[CHUNK], qz[CHUNK], noise[CHUNK], turb[CHUNK], rings[CHUNK];
    /* turb = fbm(P * vec3(0.6, 2.5, 2.5)), three octaves */
    for (int l = 0; l < CHUNK; l++) {
        qx[l] = Px[l] * 0.6f;
        qy[l] = Py[l] * 2.5f;
        qz[l] = Pz[l] * 2.5f;
        turb[l] = 0.0f;
    }
    float a = 0.5f;
    for (int o = 0; o < 3; o++) {
        vnoise(qx, qy, qz, noise);
        for (int l = 0; l < CHUNK; l++) {
            turb[l] = turb[l] + a * (noise[l] - 0.5f);
            qx[l] = qx[l] * 2.03f + 17.0f;
            qy[l] = qy[l] * 2.03f + 5.0f;
            qz[l] = qz[l] * 2.03f + 11.0f;
        }
        a = a * 0.5f;
    }
    /* rings around the axis, then three fetches of unit 0 */
    float tu[CHUNK], tv[CHUNK], smp[4][CHUNK];
    float *const so[4] = { smp[0], smp[1], smp[2], smp[3] };
    const mos_sampler *tex = b->textures ? b->textures[0] : NULL;
    for (int l = 0; l < CHUNK; l++) {
        const float dy = Py[l] - -0.35f, dz = Pz[l] - -0.9f;
        rings[l] = sqrtf(dy * dy + dz * dz) * 8.0f + 1.2f * turb[l];
        tu[l] = Px[l] * 0.35f + 0.2f * turb[l];
        tv[l] = rings[l] * 0.5f;
    }
    memset(smp, 0, sizeof smp);
    if (tex)
        mos_sample_quads(tex, quads, tu, tv, so);
    float streak[CHUNK], phase[CHUNK], ar[CHUNK], ag[CHUNK], ab[CHUNK];
    for (int l = 0; l < CHUNK; l++) {
        streak[l] = smp[3][l];
        phase[l] = rings[l] + 0.15f * (streak[l] - 0.5f);
        tu[l] = phase[l];
        tv[l] = 0.2f + 0.6f * streak[l];
    }
    memset(smp, 0, sizeof smp);
    if (tex)
        mos_sample_quads(tex, quads, tu, tv, so);
    for (int l = 0; l < CHUNK; l++) {
        ar[l] = smp[0][l];
        ag[l] = smp[1][l];
        ab[l] = smp[2][l];
        tu[l] = Px[l] * 1.3f + streak[l];
        tv[l] = phase[l] * 3.0f;
    }
    memset(smp, 0, sizeof smp);
    if (tex)
        mos_sample_quads(tex, quads, tu, tv, so);
    /* pores, lights, varnish (powf in a loop of its own, so the others vectorize) */
    const float l0x = u->light_dir[0][0], l0y = u->light_dir[0][1], l0z = u->light_dir[0][2];
    float ldx[SHADER_BUILTIN_MAX_LIGHTS], ldy[SHADER_BUILTIN_MAX_LIGHTS], ldz[SHADER_BUILTIN_MAX_LIGHTS];
    float lcr[SHADER_BUILTIN_MAX_LIGHTS], lcg[SHADER_BUILTIN_MAX_LIGHTS], lcb[SHADER_BUILTIN_MAX_LIGHTS];
    for (int j = 0; j < SHADER_BUILTIN_MAX_LIGHTS; j++) {
        ldx[j] = u->light_dir[j][0];
        ldy[j] = u->light_dir[j][1];
        ldz[j] = u->light_dir[j][2];
        lcr[j] = u->light_color[j][0];
        lcg[j] = u->light_color[j][1];
        lcb[j] = u->light_color[j][2];
    }
    const float br = u->base_color[0], bg = u->base_color[1], bb = u->base_color[2];
    const float amb_r = u->ambient[0], amb_g = u->ambient[1], amb_b = u->ambient[2];
    float sr[CHUNK], sg[CHUNK], sb[CHUNK], nh[CHUNK];
    for (int l = 0; l < CHUNK; l++) {
        float t = (smp[3][l] - 0.55f) / (0.8f - 0.55f);
        t = w_min(w_max(t, 0.0f), 1.0f);
        const float ss = t * t * (3.0f - 2.0f * t);
        const float k = w_mix(1.0f, 0.78f, ss * (1.0f - ar[l]));
        ar[l] = ar[l] * k * br;
        ag[l] = ag[l] * k * bg;
        ab[l] = ab[l] * k * bb;
        const float inv_n = 1.0f / sqrtf(nx[l] * nx[l] + ny[l] * ny[l] + nz[l] * nz[l]);
        const float Nx = nx[l] * inv_n, Ny = ny[l] * inv_n, Nz = nz[l] * inv_n;
        float cr = amb_r, cg = amb_g, cb = amb_b;
        for (int j = 0; j < SHADER_BUILTIN_MAX_LIGHTS; j++) {
            const float d = w_max(Nx * ldx[j] + Ny * ldy[j] + Nz * ldz[j], 0.0f);
            cr = cr + d * lcr[j];
            cg = cg + d * lcg[j];
            cb = cb + d * lcb[j];
        }
        sr[l] = cr;
        sg[l] = cg;
        sb[l] = cb;
        const float inv_v = 1.0f / sqrtf(vx[l] * vx[l] + vy[l] * vy[l] + vz[l] * vz[l]);
        const float hx = l0x + vx[l] * inv_v, hy = l0y + vy[l] * inv_v, hz = l0z + vz[l] * inv_v;
        const float inv_h = 1.0f / sqrtf(hx * hx + hy * hy + hz * hz);
        nh[l] = w_max(Nx * (hx * inv_h) + Ny * (hy * inv_h) + Nz * (hz * inv_h), 0.0f);
    }
    for (int l = 0; l < CHUNK; l++)
        nh[l] = powf(nh[l], 40.0f);
    const float alpha = u->base_color[3];
    for (int l = 0; l < CHUNK; l++) {
        const float spec = 0.25f * nh[l];
        r[l] = sr[l] * ar[l] + spec * lcr[0];
        g[l] = sg[l] * ag[l] + spec * lcg[0];
        bl[l] = sb[l] * ab[l] + spec * lcb[0];
        al[l] = alpha;
    }
}

void WOOD_FN(const mos_fs_batch *b)
{
    static const float zeros[CHUNK];
    const int lanes = 4 * b->quad_count;
    for (int o = 0; o < lanes; o += CHUNK) {
        const int n = lanes - o < CHUNK ? lanes - o : CHUNK;
        const float *in[11];
        float pad_in[11][CHUNK], pad_out[4][CHUNK];
        float *out[4];
        for (int i = 0; i < 11; i++) {
            const float *src = i < b->varying_count ? b->varyings[i] + o : NULL;
            if (n == CHUNK) {
                in[i] = src ? src : zeros;
            } else {
                memset(pad_in[i], 0, sizeof pad_in[i]);
                if (src)
                    memcpy(pad_in[i], src, (size_t)n * sizeof(float));
                in[i] = pad_in[i];
            }
        }
        for (int c = 0; c < 4; c++)
            out[c] = n == CHUNK ? b->out[c] + o : pad_out[c];
        wood_chunk(b, in, out, n / 4);
        if (n < CHUNK)
            for (int c = 0; c < 4; c++)
                memcpy(b->out[c] + o, pad_out[c], (size_t)n * sizeof(float));
    }
}

#undef CHUNK
