#!/usr/bin/env python3
"""Writes a game-like corpus for pack-bench: the kinds of files games put in data packs, with
realistic compressibility (deterministic, seed 11).

usage: make_pack_corpus.py OUT_DIR [--scale N]   (needs numpy; about 90 MB at scale 1)

  levels/    JSON tile maps and scripts          compress ~10-30x
  textures/  raw RGBA8 textures (gradients, detail, noise)   ~2-4x
  meshes/    float32 vertex buffers              ~1.2-2x
  audio/     16-bit PCM                          ~1.1-1.3x
  sprites/   small PNGs                          stored (already deflated)
  movies/    incompressible bytes                stored
"""
import argparse, io, json, os, zlib
import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("out")
parser.add_argument("--scale", type=int, default=1)
args = parser.parse_args()
rng = np.random.default_rng(11)


def write(rel, data):
    path = os.path.join(args.out, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def png(rgba):
    h, w, _ = rgba.shape
    raw = b"".join(b"\x00" + rgba[y].tobytes() for y in range(h))
    chunk = lambda kind, data: len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")
    header = w.to_bytes(4, "big") + h.to_bytes(4, "big") + bytes([8, 6, 0, 0, 0])
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")


for i in range(60 * args.scale):
    w, h = 64 + (i * 37) % 200, 48 + (i * 53) % 150
    tiles = (rng.integers(0, 6, size=(h, w)) * (rng.random((h, w)) < 0.3)).tolist()
    level = {"id": i, "size": [w, h], "tiles": tiles,
             "entities": [{"kind": ["slime", "bat", "coin", "door"][k % 4], "x": int(x), "y": int(y)}
                          for k, (x, y) in enumerate(rng.integers(0, 200, size=(40, 2)))]}
    write(f"levels/level{i:03}.json", json.dumps(level, indent=1).encode())
for i in range(24 * args.scale):
    size = [256, 512, 1024][i % 3]
    y, x = np.mgrid[0:size, 0:size]
    base = np.stack([(x * 255 // size), (y * 255 // size), ((x ^ y) & 0xFF), np.full_like(x, 255)], axis=-1)
    detail = rng.integers(0, 24, size=(size, size, 4)) * (rng.random((size, size, 1)) < 0.5)
    write(f"textures/tex{i:03}.rgba", np.clip(base + detail, 0, 255).astype(np.uint8).tobytes())
for i in range(16 * args.scale):
    count = 20000 + i * 3000
    t = np.linspace(0, 40, count, dtype=np.float32)
    vertices = np.stack([np.sin(t) * 10, np.cos(t * 0.5) * 10, t, np.zeros_like(t), np.ones_like(t), np.zeros_like(t)], axis=-1)
    write(f"meshes/mesh{i:03}.bin", vertices.astype(np.float32).tobytes())
for i in range(8 * args.scale):
    n = 44100 * (2 + i % 3)
    t = np.arange(n) / 44100
    wave = 8000 * np.sin(2 * np.pi * (220 + 40 * i) * t) + 3000 * np.sin(2 * np.pi * 3.1 * t) + rng.normal(0, 900, n)
    write(f"audio/clip{i:02}.pcm", np.clip(wave, -32768, 32767).astype("<i2").tobytes())
for i in range(80 * args.scale):
    s = 16 + (i * 7) % 48
    write(f"sprites/sprite{i:03}.png", png(rng.integers(0, 256, size=(s, s, 4), dtype=np.uint8) // 32 * 32))
for i in range(3 * args.scale):
    write(f"movies/intro{i}.bin", rng.bytes(2_000_000))
