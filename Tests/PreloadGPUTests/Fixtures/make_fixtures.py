#!/usr/bin/env python3
"""Makes the ASTC fixtures of PreloadGPUTests with Arm's astcenc command (Debian's `astcenc`,
4.2.0; `.ci/system-packages install gpu`):

  astc-source.png        a 13x10 RGBA picture (gradients, a hard edge, alpha from 0 to 255),
                         written here without Pillow
  astc-cli-4x4.astc      `astcenc -cl astc-source.png astc-cli-4x4.astc 4x4 -medium`
  astc-cli-4x4-dl.png    `astcenc -dl astc-cli-4x4.astc astc-cli-4x4-dl.png`: astcenc's own decode

Run from anywhere: python3 Tests/PreloadGPUTests/Fixtures/make_fixtures.py
"""
import os
import struct
import subprocess
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
WIDTH, HEIGHT = 13, 10


def png(width, height, rgba):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + bytes(rgba[y * width * 4:(y + 1) * width * 4]) for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def source():
    pixels = []
    for y in range(HEIGHT):
        for x in range(WIDTH):
            red = x * 255 // (WIDTH - 1)
            green = y * 255 // (HEIGHT - 1)
            blue = 220 if x > y else 30
            alpha = (x + y) * 255 // (WIDTH + HEIGHT - 2)
            pixels += [red, green, blue, alpha]
    return pixels


def main():
    with open(os.path.join(HERE, "astc-source.png"), "wb") as file:
        file.write(png(WIDTH, HEIGHT, source()))
    run = lambda *arguments: subprocess.run(["astcenc", *arguments], cwd=HERE, check=True, stdout=subprocess.DEVNULL)
    run("-cl", "astc-source.png", "astc-cli-4x4.astc", "4x4", "-medium")
    run("-dl", "astc-cli-4x4.astc", "astc-cli-4x4-dl.png")


if __name__ == "__main__":
    main()
