#!/usr/bin/env python3
"""Large RGBA textures for measuring memory while loading: a level whose decoded size exceeds
what a budget allows. Deterministic; each image is gradients, shapes and light noise (compressed
by Pillow to a realistic size, not incompressible noise).

usage: make_large_textures.py OUT_DIR [--count 24] [--side 4096]
"""
import argparse, os
import numpy as np
from PIL import Image, ImageDraw

parser = argparse.ArgumentParser()
parser.add_argument("out")
parser.add_argument("--count", type=int, default=24)
parser.add_argument("--side", type=int, default=4096)
args = parser.parse_args()
os.makedirs(args.out, exist_ok=True)
side = args.side
y, x = np.mgrid[0:side, 0:side].astype(np.float32) / side
for index in range(args.count):
    rng = np.random.default_rng(index)
    phase = index / max(args.count, 1)
    rgba = np.empty((side, side, 4), dtype=np.uint8)
    rgba[..., 0] = (255 * (x * (1 - phase) + y * phase)).astype(np.uint8)
    rgba[..., 1] = (255 * (0.5 + 0.5 * np.sin(6.28 * (x + y + phase)))).astype(np.uint8)
    rgba[..., 2] = (255 * y * x).astype(np.uint8)
    rgba[..., 3] = 255
    noise = rng.integers(-4, 5, size=(side, side, 3), dtype=np.int16)
    rgba[..., :3] = np.clip(rgba[..., :3].astype(np.int16) + noise, 0, 255).astype(np.uint8)
    image = Image.fromarray(rgba, "RGBA")
    draw = ImageDraw.Draw(image)
    for _ in range(40):
        x0, y0 = (int(v) for v in rng.integers(0, side - side // 8, size=2))
        size = int(rng.integers(side // 64, side // 8))
        colour = tuple(int(v) for v in rng.integers(0, 256, size=3)) + (int(rng.integers(128, 256)),)
        draw.ellipse([x0, y0, x0 + size, y0 + size], fill=colour)
    image.save(os.path.join(args.out, f"texture-{index:02d}.png"), compress_level=6)
    print(f"texture-{index:02d}.png", flush=True)
