#!/usr/bin/env python3
"""Writes N small RGBA PNGs (default 20,000 of 16x16) for the per-operation overhead benchmark.

usage: make_tiny_corpus.py OUT_DIR [--count N] [--size S]
Only the standard library (zlib, struct): deterministic content, one IDAT, no ancillary chunks,
in sub-folders of 1,000 files.
"""
import os, random, struct, sys, zlib

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

def png(size, rng):
    r, g, b = rng.randrange(256), rng.randrange(256), rng.randrange(256)
    rows = bytearray()
    for y in range(size):
        rows.append(0)
        for x in range(size):
            inside = (x - size / 2) ** 2 + (y - size / 2) ** 2 < (size / 2.2) ** 2
            rows += bytes(((r + x * 3) % 256, (g + y * 5) % 256, b, 255 if inside else 0))
    ihdr = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(bytes(rows), 6)) + chunk(b"IEND", b"")

out = sys.argv[1]
count = int(sys.argv[sys.argv.index("--count") + 1]) if "--count" in sys.argv else 20000
size = int(sys.argv[sys.argv.index("--size") + 1]) if "--size" in sys.argv else 16
rng = random.Random(16)
for i in range(count):
    folder = os.path.join(out, f"{i // 1000:03d}")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"tiny_{i:05d}.png"), "wb") as f:
        f.write(png(size, rng))
