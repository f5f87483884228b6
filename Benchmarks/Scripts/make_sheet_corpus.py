#!/usr/bin/env python3
"""Large sprite-sheet JSON for measuring the Animation and Atlas plugins: an Aseprite-style sheet
export (PNG + json-hash with `duration` and `meta.frameTags`) of many trimmed frames, and a
TexturePacker hash atlas of thousands of frames (a multi-megabyte JSON). Deterministic; standard
library only (the PNGs are written with zlib).

usage: make_sheet_corpus.py OUT_DIR [--frames 512] [--side 128] [--atlas-frames 20000]

OUT_DIR/aseprite/hero.json + hero.png: `--frames` frames of `--side` x `--side`, trimmed as
Aseprite's `--trim` writes them (spriteSourceSize inside sourceSize), one in eight a repeat of the
frame before it, a tag per 16 frames. OUT_DIR/texturepacker/atlas.json + atlas.png: a hash of
`--atlas-frames` 14x14 frames on one 2048x2048 page, TexturePacker's keys (no `duration`).
"""
import argparse, json, os, struct, zlib


def png(path, width, height, rows):
    """Writes RGBA8 rows (bytes objects) as a PNG."""
    raw = b"".join(b"\x00" + row for row in rows)
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n")
        out.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)))
        out.write(chunk(b"IDAT", zlib.compress(raw, 6)))
        out.write(chunk(b"IEND", b""))


def aseprite_export(out, count, side):
    os.makedirs(out, exist_ok=True)
    columns = max(1, 4096 // side)
    rows_of_frames = (count + columns - 1) // columns
    width, height = columns * side, rows_of_frames * side
    sheet = [bytearray(width * 4) for _ in range(height)]
    frames = {}
    previous = None
    for index in range(count):
        if index % 8 == 7 and previous is not None:
            shape = previous  # a held frame: Aseprite exports it again
        else:
            # A body that moves and grows: trimmed bounds differ frame to frame.
            inset = 4 + (index * 7) % (side // 4)
            shape = (inset, inset // 2 + (index % 5), side - inset - (index * 3) % 9, side - inset // 3, index)
        previous = shape
        left, top, right, bottom, seed = shape
        column, row = index % columns, index // columns
        x0, y0 = column * side, row * side
        for y in range(top, bottom):
            line = sheet[y0 + y - top]
            for x in range(left, right):
                value = (x * 5 + y * 3 + seed * 11) & 0xFF
                alpha = 255 if (x - left) > 1 and (y - top) > 1 else 128
                line[(x0 + x - left) * 4:(x0 + x - left) * 4 + 4] = bytes((value, 255 - value, (x * y) & 0xFF, alpha))
        frames[f"hero {index}.aseprite"] = {
            "frame": {"x": x0, "y": y0, "w": right - left, "h": bottom - top},
            "rotated": False, "trimmed": True,
            "spriteSourceSize": {"x": left, "y": top, "w": right - left, "h": bottom - top},
            "sourceSize": {"w": side, "h": side},
            "duration": 100 + (index % 3) * 20,
        }
    tags = [{"name": f"t{start}", "from": start, "to": min(count, start + 16) - 1, "direction": "forward", "color": "#000000ff"}
            for start in range(0, count, 16)]
    meta = {"app": "https://www.aseprite.org/", "version": "1.3.7", "image": "hero.png", "format": "RGBA8888",
            "size": {"w": width, "h": height}, "scale": "1", "frameTags": tags, "layers": [], "slices": []}
    with open(os.path.join(out, "hero.json"), "w") as file:
        json.dump({"frames": frames, "meta": meta}, file, indent=1)
    png(os.path.join(out, "hero.png"), width, height, [bytes(line) for line in sheet])


def texturepacker_atlas(out, count):
    os.makedirs(out, exist_ok=True)
    side, cell = 2048, 14
    per_row = side // cell
    frames = {}
    for index in range(count):
        x, y = (index % per_row) * cell, (index // per_row) * cell
        frames[f"sprites/item_{index:05d}.png"] = {
            "frame": {"x": x, "y": y, "w": 12, "h": 12}, "rotated": index % 5 == 0, "trimmed": True,
            "spriteSourceSize": {"x": 1, "y": 2, "w": 12, "h": 12}, "sourceSize": {"w": 14, "h": 16},
            "pivot": {"x": 0.5, "y": 0.5},
        }
    meta = {"app": "https://www.codeandweb.com/texturepacker", "version": "1.0", "image": "atlas.png",
            "format": "RGBA8888", "size": {"w": side, "h": side}, "scale": "1",
            "smartupdate": "$TexturePacker:SmartUpdate:0123456789abcdef$"}
    with open(os.path.join(out, "atlas.json"), "w") as file:
        json.dump({"frames": frames, "meta": meta}, file, indent="\t")
    line = bytes((90, 160, 220, 255)) * side
    png(os.path.join(out, "atlas.png"), side, side, [line] * side)


parser = argparse.ArgumentParser()
parser.add_argument("out")
parser.add_argument("--frames", type=int, default=512)
parser.add_argument("--side", type=int, default=128)
parser.add_argument("--atlas-frames", type=int, default=20000)
args = parser.parse_args()
aseprite_export(os.path.join(args.out, "aseprite"), args.frames, args.side)
texturepacker_atlas(os.path.join(args.out, "texturepacker"), args.atlas_frames)
for folder in ("aseprite", "texturepacker"):
    for name in sorted(os.listdir(os.path.join(args.out, folder))):
        print(f"{folder}/{name}: {os.path.getsize(os.path.join(args.out, folder, name))} bytes")
