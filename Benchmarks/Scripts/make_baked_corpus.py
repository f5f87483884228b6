#!/usr/bin/env python3
"""Writes a baked pack (`.bake`, version 2, docs/bake-format.md) of COUNT tiny RGBA8 textures
straight from memory, without PNGs or the bake pipeline: 1,000,000 16x16 entries take seconds,
where baking a million PNG files through `preload bake` would take many minutes.

Each entry is `sprites/NNNN/sprite_NNNNNNN.png` (1,000 to a folder, as a baked folder of PNGs
names them), SIZE x SIZE RGBA8 pixels that differ per entry, its CRC-32 recorded; its source path
is `/tmp/scale-corpus/` + the name, as a bake of that folder records it, and the source size and
checksum are zero (no source file exists, as for a pack whose sources are gone). Loading the
pack (`preload PACK --quiet`) gives COUNT textures; the issue 50 scale benchmark measures it.

    python3 Benchmarks/Scripts/make_baked_corpus.py /tmp/scale-100k.bake --count 100000
"""
import argparse
import json
import struct
import zlib

MAGIC = b"\x89PBAKE\r\n"
HEADER_SIZE = 64
ALIGNMENT = 64


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pack")
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--size", type=int, default=16, help="width and height of each texture")
    arguments = parser.parse_args()
    count, size = arguments.count, arguments.size
    length = size * size * 4
    if length >= 65536:
        raise SystemExit("entries of 64 KiB or more are page-aligned: this generator writes tiny ones only")
    stride = (length + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT
    padding = b"\0" * (stride - length)
    base = bytearray(length)
    for pixel in range(size * size):
        base[pixel * 4 : pixel * 4 + 4] = bytes((pixel * 7 % 256, pixel * 13 % 256, pixel * 29 % 256, 255))
    records = bytearray()
    strings = bytearray()
    with open(arguments.pack, "wb") as out:
        out.write(b"\0" * HEADER_SIZE)
        offset = HEADER_SIZE
        for position in range(count):
            pixels = bytearray(base)
            pixels[0:4] = struct.pack("<I", position)  # every entry's bytes differ
            out.write(pixels)
            out.write(padding)
            name = f"sprites/{position // 1000:04d}/sprite_{position:07d}.png".encode()
            name_start = len(strings)
            strings += name
            source = b"/tmp/scale-corpus/" + name
            source_start = len(strings)
            strings += source
            # dataOffset, dataLength, sourceSize, dataChecksum, sourceChecksum, name start+length,
            # source path start+length, width, height, dependency start, count, kind, bits
            records += struct.pack(
                "<QQQIIIIIIIIIHBB", offset, length, 0, zlib.crc32(pixels), 0, name_start, len(name), source_start, len(source),
                size, size, 0, 0, 1, 0)
            offset += stride
        metadata = json.dumps({"kinds": ["texture"]}, sort_keys=True, separators=(",", ":")).encode()
        metadata_start = len(strings)
        strings += metadata
        index_offset = (offset + 7) // 8 * 8
        out.write(b"\0" * (index_offset - offset))
        index = bytes(records) + bytes(strings)
        out.write(index)
        file_length = index_offset + len(index)
        header = MAGIC + struct.pack(
            "<IIQQQIIIII", 2, 0, file_length, index_offset, len(index), count, zlib.crc32(index), 0, metadata_start, len(metadata))
        header += struct.pack("<I", zlib.crc32(header))
        assert len(header) == HEADER_SIZE
        out.seek(0)
        out.write(header)
    print(f"{arguments.pack}: {count} {size}x{size} RGBA8 entries, {length * count} bytes of pixels, {file_length} bytes")


if __name__ == "__main__":
    main()
