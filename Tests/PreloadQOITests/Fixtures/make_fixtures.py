#!/usr/bin/env python3
"""Writes the QOI test fixtures: files from two encoders nobody here wrote, and the pixels
Pillow decodes from each.

usage: python3 make_fixtures.py        (writes next to itself; needs Pillow >= 9.5 and a C
                                        compiler with the reference qoi.h, Debian's libqoi-dev)

  pillow-*.qoi      written by Pillow's QOI encoder
  reference-*.qoi   written by the reference encoder (qoi.h's qoi_encode, through a tiny C
                    program compiled here)
  NAME.rgba         Pillow's decode of NAME.qoi as RGBA8 (alpha 255 for RGB files), rows top first

Every fixture is also decoded with the reference qoi_decode, which must agree with Pillow, and its
ops are counted: together the files hold every op (INDEX, DIFF, LUMA, RUN, RGB, RGBA), runs that
cross rows and runs of the longest length (62). The census goes to fixtures.json.
"""
import json, os, random, subprocess, sys, tempfile
from PIL import Image, ImageDraw

HERE = os.path.dirname(os.path.abspath(__file__))

ENCODER_C = r"""
#define QOI_IMPLEMENTATION
#include <qoi.h>
#include <stdio.h>
#include <stdlib.h>
/* usage: qoi-encode WIDTH HEIGHT CHANNELS < raw pixels > file.qoi */
int main(int argc, char **argv) {
    qoi_desc d = { (unsigned)atoi(argv[1]), (unsigned)atoi(argv[2]), (unsigned char)atoi(argv[3]), QOI_SRGB };
    size_t n = (size_t)d.width * d.height * d.channels;
    unsigned char *px = malloc(n);
    if (fread(px, 1, n, stdin) != n) return 1;
    int len; void *out = qoi_encode(px, &d, &len);
    if (!out) return 1;
    fwrite(out, 1, len, stdout);
    return 0;
}
"""

DECODER_C = r"""
#define QOI_IMPLEMENTATION
#include <qoi.h>
#include <stdio.h>
#include <stdlib.h>
/* usage: qoi-decode FILE > raw RGBA pixels (the reference decoder, 4 channels asked for) */
int main(int argc, char **argv) {
    qoi_desc d; void *px = qoi_read(argv[1], &d, 4);
    if (!px) return 1;
    fwrite(px, 1, (size_t)d.width * d.height * 4, stdout);
    return 0;
}
"""


def compile_tool(directory, name, source):
    path = os.path.join(directory, name)
    with open(path + ".c", "w") as file:
        file.write(source)
    subprocess.run(["cc", "-O2", "-o", path, path + ".c"], check=True)
    return path


def sprite(rng, w, h):
    """A game sprite: transparent background, outlined shapes, shading, light noise, a soft shadow."""
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    for _ in range(rng.randint(3, 6)):
        c = tuple(rng.randint(0, 255) for _ in range(3)) + (255,)
        x0, y0 = rng.randint(0, w // 2), rng.randint(0, h // 2)
        x1, y1 = rng.randint(x0 + 4, w - 1), rng.randint(y0 + 4, h - 1)
        (d.ellipse if rng.random() < 0.5 else d.rectangle)([x0, y0, x1, y1], fill=c, outline=(16, 16, 24, 255))
    px = im.load()
    for y in range(h):
        for x in range(w):
            r, g, b, a = px[x, y]
            if a:
                k = 0.7 + 0.3 * y / h
                n = rng.randint(-5, 5) if rng.random() < 0.4 else 0
                px[x, y] = tuple(max(0, min(255, int(v * k) + n)) for v in (r, g, b)) + (a,)
            elif y > h * 3 // 4:  # a soft shadow under the sprite: alpha ramps, colour fixed
                px[x, y] = (0, 0, 0, min(255, (y - h * 3 // 4) * 24 + x % 7))
    return im


def tile(rng, w, h):
    """An RGB ground tile: bricks with mortar lines, per-brick tint, grain."""
    im = Image.new("RGB", (w, h), (90, 84, 80))
    px = im.load()
    for y in range(h):
        for x in range(w):
            row = y // 8
            bx = (x + (4 if row % 2 else 0)) // 12
            if y % 8 == 7 or (x + (4 if row % 2 else 0)) % 12 == 11:
                continue
            base = 150 + (bx * 37 + row * 53) % 40
            grain = rng.randint(-3, 3)
            px[x, y] = (base + grain, base // 2 + grain, base // 3)
    return im


def every_op(rng, w, h):
    """Rows that call for each op: flat (RUN), slow ramps (DIFF), steeper ramps (LUMA), jumps
    (RGB), alpha steps (RGBA) and a few colours repeated in turn (INDEX)."""
    im = Image.new("RGBA", (w, h))
    px = im.load()
    palette = [tuple(rng.randint(0, 255) for _ in range(3)) + (255,) for _ in range(5)]
    for y in range(h):
        kind = y % 6
        for x in range(w):
            if kind == 0:
                px[x, y] = (0, 0, 0, 255) if x < w // 2 else (200, 30, 60, 255)
            elif kind == 1:
                px[x, y] = ((x + y) % 256, (x + 2 * y) % 256, (255 - x) % 256, 255)
            elif kind == 2:
                px[x, y] = ((x * 11) % 256, (x * 9) % 256, (x * 13 + 5) % 256, 255)
            elif kind == 3:
                px[x, y] = tuple(rng.randint(0, 255) for _ in range(3)) + (255,)
            elif kind == 4:
                px[x, y] = (120, 40 + x % 3, 200, (x * 29) % 256)
            else:
                px[x, y] = palette[(x * 7 + y) % len(palette)]
    return im


def runs(w, h):
    """Long flat stretches: runs of the longest length (62), runs across rows, a last run."""
    im = Image.new("RGBA", (w, h), (30, 120, 200, 255))
    px = im.load()
    for x in range(0, w, 50):
        px[x, 1] = (255, 255, 255, 128)
    return im


def census(data, pixel_count):
    """How many of each op the file holds (walking the ops as a decoder does)."""
    counts = dict(index=0, diff=0, luma=0, run=0, rgb=0, rgba=0, longest_run=0)
    p, done = 14, 0
    while done < pixel_count:
        b = data[p]
        if b == 0xFE:
            counts["rgb"] += 1; p += 4; done += 1
        elif b == 0xFF:
            counts["rgba"] += 1; p += 5; done += 1
        elif b >> 6 == 0:
            counts["index"] += 1; p += 1; done += 1
        elif b >> 6 == 1:
            counts["diff"] += 1; p += 1; done += 1
        elif b >> 6 == 2:
            counts["luma"] += 1; p += 2; done += 1
        else:
            counts["run"] += 1; p += 1; done += (b & 0x3F) + 1
            counts["longest_run"] = max(counts["longest_run"], (b & 0x3F) + 1)
    assert data[p:] == bytes([0, 0, 0, 0, 0, 0, 0, 1]), "end marker"
    return counts


def main():
    rng = random.Random(20261125)
    images = {
        "pillow-sprite": ("pillow", sprite(rng, 48, 48)),
        "pillow-tile": ("pillow", tile(rng, 32, 32)),
        "pillow-every-op": ("pillow", every_op(rng, 64, 12)),
        "pillow-runs": ("pillow", runs(200, 3)),
        "pillow-pixel": ("pillow", Image.new("RGB", (1, 1), (7, 8, 9))),
        "reference-sprite": ("reference", sprite(rng, 40, 56)),
        "reference-tile": ("reference", tile(rng, 24, 40)),
        "reference-every-op": ("reference", every_op(rng, 50, 12)),
        "reference-column": ("reference", every_op(rng, 1, 37)),
    }
    manifest = {}
    with tempfile.TemporaryDirectory() as tools:
        encode = compile_tool(tools, "qoi-encode", ENCODER_C)
        decode = compile_tool(tools, "qoi-decode", DECODER_C)
        for name, (encoder, image) in images.items():
            if name in ("reference-tile",):
                image = image.convert("RGB")
            path = os.path.join(HERE, name + ".qoi")
            if encoder == "pillow":
                image.save(path)
            else:
                channels = 3 if image.mode == "RGB" else 4
                raw = image.tobytes()
                out = subprocess.run([encode, str(image.width), str(image.height), str(channels)], input=raw,
                                     stdout=subprocess.PIPE, check=True).stdout
                with open(path, "wb") as file:
                    file.write(out)
            with Image.open(path) as decoded:
                assert decoded.format == "QOI"
                pixels = decoded.convert("RGBA").tobytes()
            assert pixels == image.convert("RGBA").tobytes(), f"{name}: Pillow does not read back what was written"
            reference = subprocess.run([decode, path], stdout=subprocess.PIPE, check=True).stdout
            assert reference == pixels, f"{name}: the reference decoder and Pillow disagree"
            with open(os.path.join(HERE, name + ".rgba"), "wb") as file:
                file.write(pixels)
            data = open(path, "rb").read()
            manifest[name] = dict(encoder=encoder, width=image.width, height=image.height, channels=data[12],
                                  bytes=len(data), ops=census(data, image.width * image.height))
    total = {op: sum(entry["ops"][op] for entry in manifest.values()) for op in ("index", "diff", "luma", "run", "rgb", "rgba")}
    assert all(total.values()), f"an op no fixture holds: {total}"
    assert max(entry["ops"]["longest_run"] for entry in manifest.values()) == 62
    for encoder in ("pillow", "reference"):
        assert {entry["channels"] for entry in manifest.values() if entry["encoder"] == encoder} == {3, 4}
    with open(os.path.join(HERE, "fixtures.json"), "w") as file:
        json.dump(manifest, file, indent=1, sort_keys=True)
        file.write("\n")
    print(json.dumps(total), file=sys.stderr)


main()
