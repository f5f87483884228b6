#!/usr/bin/env python3
"""Makes the ASTC fixtures of PreloadGPUTests with Arm's astcenc command (Debian's `astcenc`,
4.2.0; `.ci/system-packages install gpu`):

  astc-source.png        a 45x31 RGBA picture written here without Pillow: blurred discs on a
                         gradient, as the game-like corpus's backgrounds, alpha from 0 to 255;
                         45x31 leaves edge blocks part outside. Blocks like these are the ones
                         whose medium encoding astcenc 4.2 changes when another quality
                         compressed first in the process (3 of its 96 after -fast)
  astc-cli-4x4.astc      `astcenc -cl astc-source.png astc-cli-4x4.astc 4x4 -medium`
  astc-cli-4x4-dl.png    `astcenc -dl astc-cli-4x4.astc astc-cli-4x4-dl.png`: astcenc's own decode

Run from anywhere: python3 Tests/PreloadGPUTests/Fixtures/make_fixtures.py
"""
import math
import os
import random
import struct
import subprocess
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
WIDTH, HEIGHT = 45, 31


def png(width, height, rgba):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + bytes(rgba[y * width * 4:(y + 1) * width * 4]) for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def source():
    rng = random.Random(2)
    top = [rng.randint(0, 255) for _ in range(3)]
    bottom = [rng.randint(0, 255) for _ in range(3)]
    image = [[[top[c] * (1 - y / HEIGHT) + bottom[c] * y / HEIGHT for c in range(3)] for x in range(WIDTH)] for y in range(HEIGHT)]
    for _ in range(12):
        color = [rng.randint(0, 255) for _ in range(3)]
        cx, cy, r = rng.randint(0, WIDTH), rng.randint(0, HEIGHT), rng.randint(4, WIDTH // 2)
        for y in range(HEIGHT):
            for x in range(WIDTH):
                if (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
                    image[y][x] = list(color)
    # A Gaussian blur (sigma 2), rows then columns, edges repeated.
    kernel = [math.exp(-(k * k) / 8.0) for k in range(-6, 7)]
    total = sum(kernel)

    def blur(get, length):
        return [sum(kernel[k + 6] * get(min(max(i + k, 0), length - 1)) for k in range(-6, 7)) / total for i in range(length)]

    for y in range(HEIGHT):
        for c in range(3):
            row = blur(lambda i: image[y][i][c], WIDTH)
            for x in range(WIDTH):
                image[y][x][c] = row[x]
    for x in range(WIDTH):
        for c in range(3):
            column = blur(lambda i: image[i][x][c], HEIGHT)
            for y in range(HEIGHT):
                image[y][x][c] = column[y]
    pixels = []
    for y in range(HEIGHT):
        for x in range(WIDTH):
            alpha = min(255, (x + y) * 400 // (WIDTH + HEIGHT - 2))
            pixels += [int(image[y][x][c] + 0.5) for c in range(3)] + [alpha]
    return pixels


def main():
    with open(os.path.join(HERE, "astc-source.png"), "wb") as file:
        file.write(png(WIDTH, HEIGHT, source()))
    run = lambda *arguments: subprocess.run(["astcenc", *arguments], cwd=HERE, check=True, stdout=subprocess.DEVNULL)
    run("-cl", "astc-source.png", "astc-cli-4x4.astc", "4x4", "-medium")
    run("-dl", "astc-cli-4x4.astc", "astc-cli-4x4-dl.png")


if __name__ == "__main__":
    main()
