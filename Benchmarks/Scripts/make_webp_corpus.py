#!/usr/bin/env python3
"""Deterministic sprite-like WebP corpus for the WebP decode benchmark, encoded by Pillow.

usage: make_webp_corpus.py OUT_DIR [--count N] [--size S]
Writes N (default 2,000) S x S (default 256) sprites in sub-folders of 500 files: shapes with
outlines on a transparent background, a shading gradient and light noise, as hand-drawn art has.
The mix: 45% lossless (`lossless=True`, method 4), 45% lossy with alpha (quality 80, alpha
lossless), 10% lossy opaque tiles (quality 85). Compare with a bare C loop:
  find OUT_DIR -name '*.webp' | sort | Benchmarks/Scripts/webp_loop 2
"""
import os, random, sys
from PIL import Image, ImageChops, ImageDraw


def sprite(rng, size, opaque):
    background = tuple(rng.randint(0, 255) for _ in range(3)) + (255,) if opaque else (0, 0, 0, 0)
    image = Image.new("RGBA", (size, size), background)
    draw = ImageDraw.Draw(image)
    for _ in range(rng.randint(3, 8)):
        colour = tuple(rng.randint(0, 255) for _ in range(3)) + (rng.randint(160, 255),)
        x0, y0 = rng.randint(0, size // 2), rng.randint(0, size // 2)
        x1, y1 = rng.randint(x0 + 8, size), rng.randint(y0 + 8, size)
        shape = rng.choice((draw.ellipse, draw.rectangle, draw.rounded_rectangle))
        if shape is draw.rounded_rectangle:
            shape([x0, y0, x1, y1], radius=rng.randint(2, 12), fill=colour, outline=(20, 20, 20, 255), width=2)
        else:
            shape([x0, y0, x1, y1], fill=colour, outline=(0, 0, 0, 255), width=2)
    # Shading: darker towards the top; then light noise on the colour channels only.
    shade = Image.linear_gradient("L").resize((size, size)).point(lambda v: 190 + v // 4)
    red, green, blue, alpha = image.split()
    noise = Image.effect_noise((size, size), 6).point(lambda v: v - 128 + 64)
    channels = [ImageChops.add(ImageChops.multiply(channel, shade), noise, offset=-64) for channel in (red, green, blue)]
    return Image.merge("RGBA", channels + [alpha])


def main():
    out = sys.argv[1]
    count = int(sys.argv[sys.argv.index("--count") + 1]) if "--count" in sys.argv else 2000
    size = int(sys.argv[sys.argv.index("--size") + 1]) if "--size" in sys.argv else 256
    rng = random.Random(256)
    for index in range(count):
        folder = os.path.join(out, f"{index // 500:02d}")
        os.makedirs(folder, exist_ok=True)
        kind = index % 20
        path = os.path.join(folder, f"sprite_{index:05d}.webp")
        if kind < 9:
            sprite(rng, size, opaque=False).save(path, lossless=True, method=4)
        elif kind < 18:
            sprite(rng, size, opaque=False).save(path, quality=80, method=4)
        else:
            sprite(rng, size, opaque=True).convert("RGB").save(path, quality=85, method=4)


main()
