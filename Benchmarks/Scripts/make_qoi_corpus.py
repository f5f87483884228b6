#!/usr/bin/env python3
"""Deterministic game-like QOI corpus, encoded by Pillow's QOI encoder (Pillow >= 11.3 writes
QOI; an encoder nobody here wrote).

usage: make_qoi_corpus.py OUT_DIR [--scale N]
Layout written (about 500 files, 40 MB decoded at scale 1):
  sprites/  400 RGBA sprites, 16 to 128 pixels a side: transparent background, outlined shapes,
            shading, light noise
  tiles/    80 RGB ground tiles, 32 or 64 pixels a side: bricks, tints, grain
  pages/    6 RGBA 1024x1024 atlas pages packed from the sprites (transparent gaps)
  backgrounds/ 4 RGB 1280x720 backgrounds: vertical gradient, discs, blur
Check a file with the reference decoder: Benchmarks/Scripts/qoi_loop.c decodes the whole folder.
"""
import os, random, sys
from PIL import Image, ImageDraw, ImageFilter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_game_corpus import background, sprite  # drawn as the PNG corpus draws them


def tile(rng, size):
    im = Image.new("RGB", (size, size), (90, 84, 80))
    px = im.load()
    tint = [rng.randint(-20, 20) for _ in range(3)]
    for y in range(size):
        for x in range(size):
            row = y // 8
            shift = 4 if row % 2 else 0
            if y % 8 == 7 or (x + shift) % 12 == 11:
                continue
            base = 150 + ((x + shift) // 12 * 37 + row * 53) % 40
            grain = rng.randint(-3, 3)
            px[x, y] = (base + grain + tint[0], base // 2 + grain + tint[1], base // 3 + tint[2])
    return im


def main():
    out = sys.argv[1]
    scale = int(sys.argv[sys.argv.index("--scale") + 1]) if "--scale" in sys.argv else 1
    rng = random.Random(20261125)
    for sub in ("sprites", "tiles", "pages", "backgrounds"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    sprites = []
    for i in range(400 * scale):
        s = rng.choice([16, 32, 32, 48, 64, 64, 96, 128])
        im = sprite(rng, s, s)
        sprites.append(im)
        im.save(os.path.join(out, "sprites", f"sprite_{i:04d}.qoi"))
    for i in range(80 * scale):
        tile(rng, rng.choice([32, 64])).save(os.path.join(out, "tiles", f"tile_{i:03d}.qoi"))
    for p in range(6 * scale):
        page = Image.new("RGBA", (1024, 1024), (0, 0, 0, 0))
        x = y = rowh = 0
        while True:
            im = rng.choice(sprites)
            if x + im.width > 1024:
                x, y, rowh = 0, y + rowh + 2, 0
            if y + im.height > 1024:
                break
            page.paste(im, (x, y)); x += im.width + 2; rowh = max(rowh, im.height)
        page.save(os.path.join(out, "pages", f"page_{p}.qoi"))
    for i in range(4 * scale):
        background(rng, 1280, 720, discs=40, largest=150).save(os.path.join(out, "backgrounds", f"bg_{i}.qoi"))


if __name__ == "__main__":
    main()
