#!/usr/bin/env python3
"""Deterministic photo-like JPEG corpus for the JPEG decode benchmark, encoded by Pillow (with
libjpeg-turbo, quality 85).

usage: make_jpeg_corpus.py OUT_DIR [--count N] [--width W] [--height H]
Writes N (default 200) W x H (default 1920 x 1080) RGB photos: smooth gradients, a few soft
waves and blobs, and light per-pixel noise (sigma 5), as a photo of a scene has. Chroma
subsampling is mixed: half 4:2:0 (Pillow's default), a quarter 4:2:2, a quarter 4:4:4; all
baseline. Compare with a bare C loop:
  find OUT_DIR -name '*.jpg' | sort | Benchmarks/Scripts/jpeg_loop 2
"""
import os, sys

import numpy as np
from PIL import Image

SUBSAMPLING = [2, 1, 2, 0]  # 4:2:0, 4:2:2, 4:2:0, 4:4:4 in turn


def photo(rng, width, height):
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    image = np.zeros((height, width, 3), np.float32)
    for channel in range(3):
        angle = rng.uniform(0, 2 * np.pi)
        ramp = (np.cos(angle) * x / width + np.sin(angle) * y / height) * rng.uniform(60, 160)
        waves = sum(
            rng.uniform(10, 40) * np.sin(x / rng.uniform(40, 400) + rng.uniform(0, 6)) * np.cos(y / rng.uniform(40, 400))
            for _ in range(3))
        image[..., channel] = rng.uniform(40, 120) + ramp + waves
    for _ in range(rng.integers(6, 14)):  # soft blobs: objects in the scene
        cx, cy, radius = rng.uniform(0, width), rng.uniform(0, height), rng.uniform(40, 300)
        weight = np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * radius * radius))
        image += weight[..., None] * rng.uniform(-80, 80, 3)
    image += rng.normal(0, 5, image.shape)
    return Image.fromarray(np.clip(image, 0, 255).astype(np.uint8), "RGB")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    options = dict(zip(sys.argv[2::2], sys.argv[3::2]))
    count = int(options.get("--count", 200))
    width, height = int(options.get("--width", 1920)), int(options.get("--height", 1080))
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(20251125)
    total = 0
    for index in range(count):
        path = os.path.join(out, f"photo-{index:04d}.jpg")
        photo(rng, width, height).save(path, "JPEG", quality=85, subsampling=SUBSAMPLING[index % len(SUBSAMPLING)])
        total += os.path.getsize(path)
    print(f"{count} JPEGs of {width}x{height} in {out}: {total / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
