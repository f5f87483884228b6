#!/usr/bin/env python3
"""The expected pixels of AsepriteHSLBlendTests, worked outside the package.

Hue, saturation, color and luminosity from the formulas of the PDF 1.7 specification (section
11.3.5.3) and the W3C's Compositing and Blending Level 1 (Lum, ClipColor, SetLum, Sat, SetSat),
written here from the specifications, in IEEE doubles as Aseprite's C++ works them, each channel
taken back to 8 bits by truncation (Aseprite's `int(255.0 * c)`). Prints each pair's result and
how far its channels are from an integer: the tests use pairs at least 0.1 away (where the
truncation is not decided by the last bit), and one gray pair that shows the truncation itself.

    python3 Tests/PreloadAnimationTests/Fixtures/hsl_reference.py
"""


def lum(c):
    return 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2]


def clip_color(c):
    l, n, x = lum(c), min(c), max(c)
    if n < 0:
        c = [l + (v - l) * l / (l - n) for v in c]
    if x > 1:
        c = [l + (v - l) * (1 - l) / (x - l) for v in c]
    return c


def set_lum(c, l):
    d = l - lum(c)
    return clip_color([v + d for v in c])


def sat(c):
    return max(c) - min(c)


def set_sat(c, s):
    low, mid, high = sorted(range(3), key=lambda i: c[i])
    out = [0.0, 0.0, 0.0]
    if c[high] > c[low]:
        out[mid] = (c[mid] - c[low]) * s / (c[high] - c[low])
        out[high] = s
    return out


def blend(mode, backdrop, source):
    b = [v / 255 for v in backdrop]
    s = [v / 255 for v in source]
    if mode == "hue":
        r = set_lum(set_sat(s, sat(b)), lum(b))
    elif mode == "saturation":
        r = set_lum(set_sat(b, sat(s)), lum(b))
    elif mode == "color":
        r = set_lum(s, lum(b))
    else:
        r = set_lum(b, lum(s))
    return [v * 255 for v in r]


PAIRS = [
    ("hue", (200, 60, 40), (40, 90, 200)),
    ("hue", (90, 160, 60), (220, 40, 120)),
    ("saturation", (90, 160, 60), (220, 40, 120)),
    ("color", (90, 160, 60), (220, 40, 120)),
    ("color", (200, 60, 40), (40, 90, 200)),
    ("luminosity", (90, 160, 60), (220, 40, 120)),
    ("luminosity", (120, 120, 120), (200, 50, 50)),
    ("hue", (100, 100, 100), (200, 200, 200)),
    ("saturation", (100, 100, 100), (200, 200, 200)),
    ("luminosity", (100, 100, 100), (200, 200, 200)),
]

if __name__ == "__main__":
    for mode, backdrop, source in PAIRS:
        exact = blend(mode, backdrop, source)
        margin = min(min(v - int(v), int(v) + 1 - v) for v in exact)
        print(f"{mode:10} {backdrop} under {source}: {[round(v, 4) for v in exact]} -> {[int(v) for v in exact]}, margin {margin:.4f}")
