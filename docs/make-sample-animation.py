#!/usr/bin/env python3
"""Writes sample-assets/animations/hero-walk.aseprite, and the sheet Aseprite would export from it.

Needs Pillow (pip install pillow), as make-sample-assets.py does: it reads sprites/hero.png. The
committed files are what the loading-screen example plays; this script documents how they were
made. The `.aseprite` file is written from Aseprite's public file specification
(docs/ase-file-specs.md in the aseprite repository): 32-bit RGBA, two layers ("shadow" under
"body"), four frames of 120, 80, 120 and 80 ms in which the hero bobs 2, 1, 0 and 1 pixels down
over a shadow that stays (its cel linked from frame 0), zlib-compressed cels, and two tags:
"walk" (frames 0-3, forward) and "bob" (frames 1-2, ping-pong).

The sheet (Examples/LoadingScreen/Expected/hero-walk.png and .json) is what Aseprite's
`--sheet --data --format json-hash` writes for it: the four frames side by side, untrimmed, with
their durations and tags. The example's ScreenshotCheck compares each frame the example draws
with it, so the check reads no `.aseprite` itself. The body's pixels never overlap the shadow's,
so each frame is the two cels placed, with no blending to reproduce here.

    python3 docs/make-sample-animation.py [SAMPLE_ASSETS [EXPECTED]]
"""
import json, os, struct, sys, zlib
from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
assets = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "sample-assets")
expected = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "Examples", "LoadingScreen", "Expected")
hero = Image.open(os.path.join(assets, "sprites", "hero.png")).convert("RGBA")
WIDTH, HEIGHT = 64, 70
BOBS = [2, 1, 0, 1]
DURATIONS = [120, 80, 120, 80]
TAGS = [("walk", 0, 3, 0), ("bob", 1, 2, 2)]  # name, from, to, direction (0 forward, 2 ping-pong)

# The shadow: an opaque dark ellipse in rows 66-69, below every pixel the hero shows (its lowest
# visible row is 61, bobbed at most 2 down).
shadow_box = (12, 66, 52, 70)
shadow = Image.new("RGBA", (shadow_box[2] - shadow_box[0], shadow_box[3] - shadow_box[1]), (0, 0, 0, 0))
cx, cy = (shadow.width - 1) / 2, (shadow.height - 1) / 2
for y in range(shadow.height):
    for x in range(shadow.width):
        if ((x - cx) / (shadow.width / 2)) ** 2 + ((y - cy) / (shadow.height / 2)) ** 2 <= 1:
            shadow.putpixel((x, y), (30, 24, 40, 255))
assert max(y for y in range(64) for x in range(64) if hero.getpixel((x, y))[3]) + max(BOBS) < shadow_box[1]


def word(v): return struct.pack("<H", v & 0xFFFF)
def short(v): return struct.pack("<h", v)
def dword(v): return struct.pack("<I", v)
def string(s): return word(len(s.encode())) + s.encode()
def chunk(kind, data): return dword(6 + len(data)) + word(kind) + data


def layer(name, child_level=0):
    # flags 1 (visible), type 0 (image), blend 0 (normal), opacity 255
    return chunk(0x2004, word(1) + word(0) + word(child_level) + word(0) + word(0) + word(0) + bytes([255, 0, 0, 0]) + string(name))


def cel(layer_index, x, y, image):
    head = word(layer_index) + short(x) + short(y) + bytes([255]) + word(2) + short(0) + bytes(5)
    return chunk(0x2005, head + word(image.width) + word(image.height) + zlib.compress(image.tobytes(), 9))


def linked(layer_index, frame):
    return chunk(0x2005, word(layer_index) + short(0) + short(0) + bytes([255]) + word(1) + short(0) + bytes(5) + word(frame))


def tags():
    data = word(len(TAGS)) + bytes(8)
    for name, first, last, direction in TAGS:
        data += word(first) + word(last) + bytes([direction]) + word(0) + bytes(6) + bytes([0, 0, 0, 0]) + string(name)
    return chunk(0x2018, data)


frames = []
for index, (bob, duration) in enumerate(zip(BOBS, DURATIONS)):
    chunks = [layer("shadow"), layer("body"), tags()] if index == 0 else []
    chunks.append(cel(0, shadow_box[0], shadow_box[1], shadow) if index == 0 else linked(0, 0))
    chunks.append(cel(1, 0, bob, hero))
    body = b"".join(chunks)
    frames.append(dword(16 + len(body)) + word(0xF1FA) + word(len(chunks)) + word(duration) + bytes(2) + dword(len(chunks)) + body)
body = b"".join(frames)
header = dword(128 + len(body)) + word(0xA5E0) + word(len(frames)) + word(WIDTH) + word(HEIGHT) + word(32) + dword(1) + word(100)
header += dword(0) + dword(0) + bytes([0, 0, 0, 0]) + word(0) + bytes([1, 1]) + short(0) + short(0) + word(16) + word(16)
header += bytes(128 - len(header))
os.makedirs(os.path.join(assets, "animations"), exist_ok=True)
with open(os.path.join(assets, "animations", "hero-walk.aseprite"), "wb") as f:
    f.write(header + body)

# The sheet Aseprite exports: frame i at (i * WIDTH, 0), untrimmed.
sheet = Image.new("RGBA", (WIDTH * len(frames), HEIGHT), (0, 0, 0, 0))
json_frames = {}
for index, (bob, duration) in enumerate(zip(BOBS, DURATIONS)):
    canvas = Image.new("RGBA", (WIDTH, HEIGHT), (0, 0, 0, 0))
    canvas.paste(shadow, shadow_box[:2])
    canvas.paste(hero, (0, bob), hero.split()[3].point(lambda a: 255 if a else 0))  # placed, not blended
    sheet.paste(canvas, (index * WIDTH, 0))
    json_frames[f"hero-walk {index}.aseprite"] = {
        "frame": {"x": index * WIDTH, "y": 0, "w": WIDTH, "h": HEIGHT}, "rotated": False, "trimmed": False,
        "spriteSourceSize": {"x": 0, "y": 0, "w": WIDTH, "h": HEIGHT}, "sourceSize": {"w": WIDTH, "h": HEIGHT},
        "duration": duration}
os.makedirs(expected, exist_ok=True)
sheet.save(os.path.join(expected, "hero-walk.png"))
directions = {0: "forward", 1: "reverse", 2: "pingpong"}
meta = {"app": "https://www.aseprite.org/", "version": "1.3", "image": "hero-walk.png", "format": "RGBA8888",
        "size": {"w": sheet.width, "h": sheet.height}, "scale": "1",
        "frameTags": [{"name": n, "from": a, "to": b, "direction": directions[d], "color": "#000000ff"} for n, a, b, d in TAGS],
        "layers": [{"name": "shadow", "opacity": 255, "blendMode": "normal"}, {"name": "body", "opacity": 255, "blendMode": "normal"}],
        "slices": []}
with open(os.path.join(expected, "hero-walk.json"), "w") as f:
    json.dump({"frames": json_frames, "meta": meta}, f, indent=1)
    f.write("\n")
