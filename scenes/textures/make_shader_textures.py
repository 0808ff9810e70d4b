#!/usr/bin/env python3
"""make_shader_textures.py — writes the textures of scenes/shaders.scene
(procedural, standard library only; run from anywhere):

  pin_base.png pin_bruns.png pin_circle.png pin_coated.png pin_marks.png
      the five textures of the RenderMan bowling pin (shaders/rbp.frag,
      bindings 0..4), 128 x 128 each; label colours premultiplied by alpha
      (the `over` of rbp.frag composes premultiplied colours)
  pin_atlas.png
      the same five in one 384 x 256 image for shaders/rbp_atlas.frag (the
      scene binds one texture per object): cells of 128 x 128, bottom row
      (v 0..0.5) pinbase, bruns, circle; top row coated, marks, (white)
  pin_bump.png
      shaders/bmbp.frag: rgb the pin's paint (ivory, red neck stripes), alpha
      a height field (dents and scuffs); laid out for the texture coordinates
      of shaders/pin.vert (the sphere's: u around, v = 0 at the top)
  wood.png
      shaders/wood.frag: rgb a periodic ring colour ramp along u (earlywood
      light to latewood dark), varied along v; alpha tileable value noise

Texture v runs up (Mosaic stores rows bottom first, as GL does), so the
images are built bottom row first and flipped when written."""
import math
import os
import random
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def write_png(name, w, h, px):
    """px[y][x] = (r, g, b, a) floats 0..1, y = 0 the bottom row."""
    raw = bytearray()
    for y in range(h - 1, -1, -1):
        raw.append(0)
        for x in range(w):
            for c in px[y][x]:
                raw.append(max(0, min(255, int(round(c * 255)))))

    def chunk(t, d):
        c = struct.pack(">I", len(d)) + t + d
        return c + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)
    print(name, w, "x", h, len(data), "bytes")


def blank(w, h, c=(0, 0, 0, 0)):
    return [[c for _ in range(w)] for _ in range(h)]


# 5 x 7 glyphs, top row first.
FONT = {
    "A": ["01110", "10001", "10001", "11111", "10001", "10001", "10001"],
    "B": ["11110", "10001", "10001", "11110", "10001", "10001", "11110"],
    "C": ["01110", "10001", "10000", "10000", "10000", "10001", "01110"],
    "D": ["11110", "10001", "10001", "10001", "10001", "10001", "11110"],
    "E": ["11111", "10000", "10000", "11110", "10000", "10000", "11111"],
    "N": ["10001", "11001", "10101", "10011", "10001", "10001", "10001"],
    "O": ["01110", "10001", "10001", "10001", "10001", "10001", "01110"],
    "R": ["11110", "10001", "10001", "11110", "10100", "10010", "10001"],
    "S": ["01111", "10000", "10000", "01110", "00001", "00001", "11110"],
    "T": ["11111", "00100", "00100", "00100", "00100", "00100", "00100"],
    "U": ["10001", "10001", "10001", "10001", "10001", "10001", "01110"],
}


def text_mask(s, w, h, x0, y0, cell):
    """Coverage (0..1) of string s, glyph pixels cell x cell, lower-left at
    (x0, y0), 2x2 supersampled."""
    m = [[0.0] * w for _ in range(h)]
    for y in range(h):
        for x in range(w):
            acc = 0
            for sy in (0.25, 0.75):
                for sx in (0.25, 0.75):
                    gx = (x + sx - x0) / cell
                    gy = (y + sy - y0) / cell
                    k = int(math.floor(gx)) // 6
                    cx = int(math.floor(gx)) % 6
                    row = 6 - int(math.floor(gy))
                    if gx < 0 or k >= len(s) or cx >= 5 or not 0 <= row < 7:
                        continue
                    acc += FONT[s[k]][row][cx] == "1"
            m[y][x] = acc / 4
    return m


IVORY = (0.95, 0.93, 0.87)
RED = (0.78, 0.06, 0.05)
N = 128


def stripes(v):
    """Red neck stripes: height v = h / 15 in, two bands at 9.2-9.6 and
    10.3-10.7 in; anti-aliased coverage."""
    def band(a, b):
        return max(0.0, min(1.0, (v - a / 15) * N + 0.5)) * max(0.0, min(1.0, (b / 15 - v) * N + 0.5))
    return max(band(9.2, 9.6), band(10.3, 10.7))


def pinbase():
    px = blank(N, N)
    for y in range(N):
        s = stripes((y + 0.5) / N)
        c = tuple(IVORY[i] * (1 - s) + RED[i] * s for i in range(3))
        for x in range(N):
            px[y][x] = c + (1.0,)
    return px


def label(text, color, y0, cell, frame):
    """A premultiplied label: text centred, optional thin rules above and below."""
    px = blank(N, N)
    width = len(text) * 6 * cell - cell
    m = text_mask(text, N, N, (N - width) / 2, y0, cell)
    for y in range(N):
        for x in range(N):
            a = m[y][x]
            if frame and 12 <= x < N - 12 and (y0 - 6 <= y < y0 - 4 or y0 + 7 * cell + 4 <= y < y0 + 7 * cell + 6):
                a = 1.0
            px[y][x] = tuple(c * a for c in color) + (a,)
    return px


def circle():
    px = blank(N, N)
    for y in range(N):
        for x in range(N):
            acc = [0.0, 0.0, 0.0, 0.0]
            for sy in (0.25, 0.75):
                for sx in (0.25, 0.75):
                    dx, dy = (x + sx) / N - 0.5, (y + sy) / N - 0.5
                    r = math.hypot(dx, dy)
                    if r > 0.44:
                        continue
                    # red disc, ivory ring, red crown-ish star in the middle
                    ang = math.atan2(dy, dx)
                    star = 0.2 + 0.07 * math.cos(5 * ang)
                    c = RED if (r > 0.38 or r < star) else IVORY
                    for i in range(3):
                        acc[i] += c[i]
                    acc[3] += 1
            px[y][x] = tuple(a / 4 for a in acc)
    return px


def value_noise(w, h, period, seed):
    """Tileable value noise (smooth-interpolated lattice, `period` cells)."""
    rnd = random.Random(seed)
    lat = [[rnd.random() for _ in range(period)] for _ in range(period)]
    out = [[0.0] * w for _ in range(h)]
    for y in range(h):
        for x in range(w):
            fx, fy = x / w * period, y / h * period
            ix, iy = int(fx), int(fy)
            tx, ty = fx - ix, fy - iy
            tx, ty = tx * tx * (3 - 2 * tx), ty * ty * (3 - 2 * ty)
            a = lat[iy % period][ix % period]
            b = lat[iy % period][(ix + 1) % period]
            c = lat[(iy + 1) % period][ix % period]
            d = lat[(iy + 1) % period][(ix + 1) % period]
            out[y][x] = (a * (1 - tx) + b * tx) * (1 - ty) + (c * (1 - tx) + d * tx) * ty
    return out


def fbm(w, h, seed, octaves=((4, 0.5), (8, 0.25), (16, 0.15), (32, 0.1))):
    acc = [[0.0] * w for _ in range(h)]
    for k, (p, amp) in enumerate(octaves):
        n = value_noise(w, h, p, seed + k)
        for y in range(h):
            for x in range(w):
                acc[y][x] += amp * n[y][x]
    return acc


def scuffs(w, h, seed, count, dark, vertical=0.3, lengths=(2, 14)):
    """1 = clean; short dark streaks (a share `vertical` of them near
    vertical, the rest near horizontal)."""
    rnd = random.Random(seed)
    m = [[1.0] * w for _ in range(h)]
    for _ in range(count):
        x, y = rnd.random() * w, rnd.random() * h
        ang = rnd.uniform(-0.6, 0.6) + (math.pi / 2 if rnd.random() < vertical else 0)
        length = rnd.uniform(*lengths)
        d = rnd.uniform(*dark)
        steps = int(length * 2) + 1
        for s in range(steps):
            px_, py_ = int(x + math.cos(ang) * s / 2) % w, int(y + math.sin(ang) * s / 2) % h
            m[py_][px_] = min(m[py_][px_], d)
    return m


def marks():
    # rbp.frag stretches marks 4x around the pin (u 0..1 is a quarter of
    # the texture's width): streaks mostly vertical, short and light.
    n = fbm(N, N, 7)
    sc = scuffs(N, N, 11, 70, (0.7, 0.9), vertical=0.85, lengths=(2, 8))
    px = blank(N, N)
    for y in range(N):
        for x in range(N):
            g = sc[y][x] * (0.93 + 0.07 * n[y][x])
            px[y][x] = (g, g, g * 0.98, 1.0)
    return px


def main():
    base = pinbase()
    # Label rows: texel y 0..127 is pin height 4.7 .. 9.9 inches; the circle
    # (its own transform) covers 6.35 .. 7.75 inches, above the lettering.
    bruns = label("BRUNS", RED, 12, 3, True)
    circ = circle()
    coated = label("COATED", (0.1, 0.1, 0.12), 12, 2, True)
    mk = marks()
    for name, px in (("pin_base.png", base), ("pin_bruns.png", bruns), ("pin_circle.png", circ),
                     ("pin_coated.png", coated), ("pin_marks.png", mk)):
        write_png(name, N, N, px)

    atlas = blank(3 * N, 2 * N, (1.0, 1.0, 1.0, 1.0))
    for (cx, cy), px in (((0, 0), base), ((1, 0), bruns), ((2, 0), circ), ((0, 1), coated), ((1, 1), mk)):
        for y in range(N):
            atlas[cy * N + y][cx * N:(cx + 1) * N] = px[y]
    write_png("pin_atlas.png", 3 * N, 2 * N, atlas)

    # pin_bump: paint and a height field (alpha: 1 = undented)
    W, H = 256, 256
    dents = scuffs(W, H, 5, 220, (0.2, 0.6))
    hn = fbm(W, H, 21)
    bump = blank(W, H)
    for y in range(H):
        s = stripes(1 - (y + 0.5) / H)  # for pin.vert's sphere uv: v = 0 at the top
        c = tuple(IVORY[i] * (1 - s) + RED[i] * s for i in range(3))
        for x in range(W):
            a = 0.75 * dents[y][x] + 0.25 * hn[y][x]
            bump[y][x] = c + (a,)
    write_png("pin_bump.png", W, H, bump)

    # wood: u = ring phase (periodic), v = variation; alpha = tileable noise
    W, H = 256, 64
    nz = fbm(W, H, 33, ((4, 0.45), (8, 0.3), (16, 0.15), (32, 0.1)))
    light, dark = (0.86, 0.62, 0.36), (0.50, 0.28, 0.12)
    wood = blank(W, H)
    for y in range(H):
        var = 0.92 + 0.08 * math.sin(2 * math.pi * y / H)
        for x in range(W):
            t = (x + 0.5) / W
            # earlywood slowly darkening, a sharp latewood band, back to light
            late = math.exp(-((t - 0.8) / 0.09) ** 2) + math.exp(-((t + 0.2) / 0.09) ** 2)
            k = min(1.0, 0.25 * t + 0.9 * late)
            c = tuple((light[i] * (1 - k) + dark[i] * k) * var for i in range(3))
            wood[y][x] = c + (nz[y][x],)
    write_png("wood.png", W, H, wood)


if __name__ == "__main__":
    main()
