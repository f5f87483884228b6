#!/usr/bin/env python3
"""Makes the block decoder's fixtures: blocks of BC1, BC3, BC4, BC5 and BC7, and the RGBA8
pixels Pillow's DDS plugin (an independent decoder) gives for them.

    pip install pillow
    python3 Tests/PreloadGPUTests/Fixtures/make_block_fixtures.py

For each format NAME it writes NAME.blocks (the blocks, one row of 4x4 blocks) and NAME.rgba
(Pillow's pixels for that row, 4 pixels high, RGBA8 row after row). The tests read both and
never run Python. Blocks are random bits from a fixed seed, with the fields that choose a
layout set so that every case is covered:

- BC7: every mode; every partition of modes 0, 1, 2, 3 and 7; every rotation and index
  selection of modes 4 and 5; one reserved block (first byte 0, transparent black).
- BC1: colour blocks with the first colour above, equal to and below the second (four
  colours; three colours and transparent black).
- BC3, BC4, BC5: ramps with the first value above, equal to and below the second (8 values;
  6 values with 0 and 255).

Pillow gives BC4 as one channel and BC5 as red and green: the script writes them as the
decoder does, (r, 0, 0, 255) and (r, g, 0, 255).
"""

import io
import os
import random
import struct

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
DXGI = {"bc1": 71, "bc3": 77, "bc4": 80, "bc5": 83, "bc7": 98}


def dds(dxgi_format, width, height, data):
    """A DDS file with a DX10 header holding one mip level of `data`."""
    flags = 0x1 | 0x2 | 0x4 | 0x1000 | 0x80000  # caps, height, width, pixel format, linear size
    pixel_format = struct.pack("<II4sIIIII", 32, 0x4, b"DX10", 0, 0, 0, 0, 0)
    header = struct.pack("<IIIIIII", 124, flags, height, width, len(data), 0, 1)
    header += b"\0" * 44 + pixel_format + struct.pack("<IIIII", 0x1000, 0, 0, 0, 0)
    dx10 = struct.pack("<IIIII", dxgi_format, 3, 0, 1, 0)
    return b"DDS " + header + dx10 + data


def bc7_block(rng, mode, partition=0, rotation=0, index_selection=0):
    """Random bits with `mode`'s prefix and the given partition, rotation and index selection."""
    value = rng.getrandbits(128)
    position = mode + 1
    value = (value >> position << position) | (1 << mode)
    fields = {0: [(4, partition)], 1: [(6, partition)], 2: [(6, partition)], 3: [(6, partition)],
              4: [(2, rotation), (1, index_selection)], 5: [(2, rotation)], 6: [], 7: [(6, partition)]}[mode]
    for bits, field in fields:
        value &= ~(((1 << bits) - 1) << position)
        value |= field << position
        position += bits
    return value.to_bytes(16, "little")


def bc7_blocks(rng):
    blocks = []
    for mode, partitions in ((0, 16), (1, 64), (2, 64), (3, 64), (7, 64)):
        blocks += [bc7_block(rng, mode, partition=p) for p in range(partitions)]
    blocks += [bc7_block(rng, 4, rotation=r, index_selection=i) for r in range(4) for i in range(2) for _ in range(2)]
    blocks += [bc7_block(rng, 5, rotation=r) for r in range(4) for _ in range(2)]
    blocks += [bc7_block(rng, 6) for _ in range(8)]
    blocks.append(b"\0" * 16)
    return blocks


def ordered(rng, low_bytes, relation):
    """Two little-endian endpoints of `low_bytes` bytes each, first above/equal/below second."""
    limit = 1 << (8 * low_bytes)
    first, second = rng.randrange(limit), rng.randrange(limit)
    if relation == "equal":
        second = first
    elif (first > second) != (relation == "above") or first == second:
        first, second = second, first
        if first == second:
            first, second = (1, 0) if relation == "above" else (0, 1)
    return first.to_bytes(low_bytes, "little") + second.to_bytes(low_bytes, "little")


def ramp_block(rng, relation):
    return ordered(rng, 1, relation) + rng.randbytes(6)


def color_block(rng, relation):
    return ordered(rng, 2, relation) + rng.randbytes(4)


def s3tc_blocks(rng, name):
    relations = ["above", "below", "equal"] * 4
    if name == "bc1":
        return [color_block(rng, r) for r in relations]
    if name == "bc3":
        return [ramp_block(rng, r) + color_block(rng, s) for r in relations for s in ("above", "below")]
    if name == "bc4":
        return [ramp_block(rng, r) for r in relations]
    return [ramp_block(rng, r) + ramp_block(rng, s) for r in relations for s in ("above", "below")]


def reference_rgba(name, image):
    if name == "bc4":
        red = image.getchannel(0).tobytes()
        return bytes(v for r in red for v in (r, 0, 0, 255))
    if name == "bc5":
        rgb = image.convert("RGB").tobytes()
        return bytes(v for i in range(0, len(rgb), 3) for v in (rgb[i], rgb[i + 1], 0, 255))
    return image.convert("RGBA").tobytes()


def main():
    rng = random.Random(39)
    for name in ("bc1", "bc3", "bc4", "bc5", "bc7"):
        blocks = bc7_blocks(rng) if name == "bc7" else s3tc_blocks(rng, name)
        data = b"".join(blocks)
        width, height = 4 * len(blocks), 4
        with Image.open(io.BytesIO(dds(DXGI[name], width, height, data))) as image:
            image.load()
            pixels = reference_rgba(name, image)
        assert len(pixels) == width * height * 4, (name, image.mode, image.size)
        with open(os.path.join(HERE, name + ".blocks"), "wb") as file:
            file.write(data)
        with open(os.path.join(HERE, name + ".rgba"), "wb") as file:
            file.write(pixels)
        print(f"{name}: {len(blocks)} blocks, Pillow mode {image.mode}")


if __name__ == "__main__":
    main()
