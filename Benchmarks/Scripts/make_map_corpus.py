#!/usr/bin/env python3
"""Writes Tiled maps the size of a level, for measuring what loading a map costs beside decoding its
tilesets' images (docs/benchmarks.md, "Issue 37").

  make_map_corpus.py OUT

OUT/a.png, OUT/b.png   two 512x512 tilesets of 32x32 tiles (256 each), a colour and a little grain each
OUT/typical-*.tmx|tmj  200x200, 4 layers: a ground layer of long runs of one tile, three sparse
                       layers (a tile in one cell of 8), as painted levels are
OUT/dense-*.tmx|tmj    the same size, a random tile in every cell of every layer (the worst case)
Encodings: csv, zlib (TMX and TMJ), zstd (TMX, when the zstd command is installed).

Needs Pillow.
"""
import base64
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import zlib

from PIL import Image

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = random.Random(37)
W = H = 200
for name in ("a.png", "b.png"):
    # Each 32x32 tile a colour of its own with a little grain, opaque: about 470 KB a tileset.
    pixels = bytearray(512 * 512 * 4)
    bases = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(256)]
    for y in range(512):
        for x in range(512):
            base = bases[(y // 32) * 16 + x // 32]
            at = (y * 512 + x) * 4
            pixels[at:at + 4] = bytes((min(255, base[0] + rng.randrange(16)), min(255, base[1] + rng.randrange(16)),
                                       min(255, base[2] + rng.randrange(16)), 255))
    Image.frombytes("RGBA", (512, 512), bytes(pixels)).save(os.path.join(out, name))


def layers(dense):
    result = []
    for index in range(4):
        tiles = []
        run = 0
        tile = 1
        for cell in range(W * H):
            if dense:
                tiles.append(rng.randrange(1, 513))
            elif index == 0:
                if run == 0:
                    tile, run = rng.randrange(1, 257), rng.randrange(4, 40)
                tiles.append(tile)
                run -= 1
            else:
                tiles.append(rng.randrange(1, 513) if rng.randrange(8) == 0 else 0)
        result.append(tiles)
    return result


def tmx(grid, encoding):
    parts = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="{W}" height="{H}" '
             f'tilewidth="32" tileheight="32" infinite="0" nextlayerid="5" nextobjectid="1">',
             ' <tileset firstgid="1" name="a" tilewidth="32" tileheight="32" tilecount="256" columns="16"><image source="a.png" width="512" height="512"/></tileset>',
             ' <tileset firstgid="257" name="b" tilewidth="32" tileheight="32" tilecount="256" columns="16"><image source="b.png" width="512" height="512"/></tileset>']
    for index, tiles in enumerate(grid):
        parts.append(f' <layer id="{index + 1}" name="layer{index}" width="{W}" height="{H}">')
        raw = struct.pack(f"<{len(tiles)}I", *tiles)
        if encoding == "csv":
            rows = [",".join(map(str, tiles[r * W:(r + 1) * W])) for r in range(H)]
            parts.append('  <data encoding="csv">\n' + ",\n".join(rows) + "\n</data>")
        elif encoding == "zlib":
            parts.append(f'  <data encoding="base64" compression="zlib">{base64.b64encode(zlib.compress(raw)).decode()}</data>')
        else:
            packed = subprocess.run(["zstd", "-q", "-c"], input=raw, capture_output=True, check=True).stdout
            parts.append(f'  <data encoding="base64" compression="zstd">{base64.b64encode(packed).decode()}</data>')
        parts.append(" </layer>")
    parts.append("</map>")
    return "\n".join(parts) + "\n"


def tmj(grid, encoding):
    tilesets = [dict(firstgid=1 + 256 * n, name=name[0], image=name, imagewidth=512, imageheight=512, tilewidth=32, tileheight=32,
                     tilecount=256, columns=16, margin=0, spacing=0) for n, name in enumerate(("a.png", "b.png"))]
    layer_list = []
    for index, tiles in enumerate(grid):
        layer = dict(id=index + 1, name=f"layer{index}", type="tilelayer", width=W, height=H, x=0, y=0, opacity=1, visible=True)
        if encoding == "csv":
            layer["data"] = tiles
        else:
            layer.update(encoding="base64", compression="zlib",
                         data=base64.b64encode(zlib.compress(struct.pack(f"<{len(tiles)}I", *tiles))).decode())
        layer_list.append(layer)
    return json.dumps(dict(type="map", version="1.10", tiledversion="1.10.2", orientation="orthogonal", renderorder="right-down",
                           width=W, height=H, tilewidth=32, tileheight=32, infinite=False, nextlayerid=5, nextobjectid=1,
                           layers=layer_list, tilesets=tilesets))


for kind, dense in (("typical", False), ("dense", True)):
    grid = layers(dense)
    encodings = ["csv", "zlib"] + (["zstd"] if shutil.which("zstd") else [])
    for encoding in encodings:
        with open(os.path.join(out, f"{kind}-{encoding}.tmx"), "w") as f:
            f.write(tmx(grid, encoding))
    for encoding in ("csv", "zlib"):
        with open(os.path.join(out, f"{kind}-{encoding}.tmj"), "w") as f:
            f.write(tmj(grid, encoding))
print(f"maps of {W}x{H} tiles, 4 layers, in {out}")
