#!/usr/bin/env python3
"""Writes the references PreloadAnimationTests' GIF tests compare with, so the tests never need
Pillow: for each GIF in this folder, `NAME.frames.png` (every frame as it shows on the logical
screen, stacked top to bottom, RGBA, a transparent pixel as transparent black) and an entry in
`references.json` (the screen, each frame's delay in milliseconds as Pillow reads it, Pillow's
loop value, and per frame whether Pillow's own composite equals the reference).

Pillow decodes each frame (LZW, interlacing, local and global colour tables, the transparent
index): the script cuts each frame out of the file as a still GIF of its own and has Pillow
decode that. The script composites the frames as the GIF89a specification and browsers do: the
screen starts transparent, a frame's transparent pixels leave what is under them, parts outside
the screen are not drawn, disposal 2 clears the frame's rectangle to transparent and 3 restores
what it held before the frame (4 read as 3, as browsers read it). Where Pillow's own composite
(`ImageSequence.Iterator(im)`, each frame `.convert('RGBA')`) differs, the specification is the
reference and `pillow_equal` says so: Pillow paints disposal 2 with the background colour when
the frame has no transparent index, and fills the screen outside the first frame with it.

    python3 -m venv /tmp/venv-gif && /tmp/venv-gif/bin/pip install pillow
    /tmp/venv-gif/bin/python Tests/PreloadAnimationTests/Fixtures/GIF/make_references.py
"""
import io
import json
import os
import sys

from PIL import Image, ImageSequence

HERE = os.path.dirname(os.path.abspath(__file__))


def sub_blocks(data, pos):
    """The position after the data sub-blocks starting at `pos`, and their bytes."""
    blocks = []
    while True:
        size = data[pos]
        pos += 1
        if size == 0:
            return pos, blocks
        blocks.append(data[pos:pos + size])
        pos += size


def walk(data):
    """The screen, the global table's bytes and each frame's parts, read block by block."""
    width, height, packed = data[6] | data[7] << 8, data[8] | data[9] << 8, data[10]
    table = 3 * (2 << (packed & 7)) if packed & 0x80 else 0
    screen = data[6:13]
    pos = 13 + table
    header = {"width": width, "height": height, "screen": screen, "table": data[13:pos]}
    frames, control = [], None
    while pos < len(data) and data[pos] != 0x3B:
        kind = data[pos]
        if kind == 0x21:
            label = data[pos + 1]
            end, blocks = sub_blocks(data, pos + 2)
            if label == 0xF9 and blocks and len(blocks[0]) == 4:
                control = blocks[0]
            pos = end
        elif kind == 0x2C:
            x, y = data[pos + 1] | data[pos + 2] << 8, data[pos + 3] | data[pos + 4] << 8
            w, h = data[pos + 5] | data[pos + 6] << 8, data[pos + 7] | data[pos + 8] << 8
            flags = data[pos + 9]
            local = 3 * (2 << (flags & 7)) if flags & 0x80 else 0
            start = pos + 10
            end, _ = sub_blocks(data, start + local + 1)
            disposal = (control[0] >> 2) & 7 if control else 0
            frames.append({"rect": (x, y, w, h), "disposal": disposal, "control": control,
                           "flags": flags, "rest": data[start:end]})
            control, pos = None, end
        else:
            break
    return header, frames


def frame_pixels(header, frame):
    """The frame's own pixels (w x h RGBA), decoded by Pillow from a still GIF of it alone."""
    x, y, w, h = frame["rect"]
    screen = bytes([w & 255, w >> 8, h & 255, h >> 8]) + header["screen"][4:]
    still = b"GIF89a" + screen + header["table"]
    if frame["control"]:
        still += b"\x21\xF9\x04" + bytes([frame["control"][0] & 1]) + b"\x00\x00" + frame["control"][3:4] + b"\x00"
    still += b"\x2C\x00\x00\x00\x00" + bytes([w & 255, w >> 8, h & 255, h >> 8, frame["flags"]]) + frame["rest"] + b";"
    return Image.open(io.BytesIO(still)).convert("RGBA")


def composite(header, frames):
    """Each frame as it shows, composited as the specification and browsers do."""
    width, height = header["width"], header["height"]
    canvas = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    shown = []
    for frame in frames:
        x, y, w, h = frame["rect"]
        box = (max(x, 0), max(y, 0), min(x + w, width), min(y + h, height))
        inside = box[0] < box[2] and box[1] < box[3]
        before = canvas.crop(box) if inside else None
        if inside and w and h:
            pixels = frame_pixels(header, frame).crop((box[0] - x, box[1] - y, box[2] - x, box[3] - y))
            opaque = pixels.getchannel("A").point(lambda a: 255 if a else 0)
            canvas.paste(pixels, box[:2], opaque)
        shown.append(canvas.copy())
        if inside and frame["disposal"] == 2:
            canvas.paste((0, 0, 0, 0), box)
        elif inside and frame["disposal"] in (3, 4):
            canvas.paste(before, box[:2])
    return shown


def normalised(image):
    """`image` as RGBA with every transparent pixel transparent black."""
    image = image.convert("RGBA")
    black = Image.new("RGBA", image.size, (0, 0, 0, 0))
    return Image.composite(image, black, image.getchannel("A").point(lambda a: 255 if a else 0))


def main():
    references = {}
    for name in sorted(f[:-4] for f in os.listdir(HERE) if f.endswith(".gif")):
        data = open(os.path.join(HERE, name + ".gif"), "rb").read()
        header, frames = walk(data)
        shown = composite(header, frames)
        with Image.open(os.path.join(HERE, name + ".gif")) as image:
            loop = image.info.get("loop")
            pillow = [(normalised(f), f.info.get("duration", 0)) for f in ImageSequence.Iterator(image)]
        assert len(pillow) == len(shown), (name, len(pillow), len(shown))
        strip = Image.new("RGBA", (header["width"], header["height"] * len(shown)))
        for index, frame in enumerate(shown):
            strip.paste(frame, (0, index * header["height"]))
        strip.save(os.path.join(HERE, name + ".frames.png"), optimize=True)
        references[name] = {
            "width": header["width"], "height": header["height"],
            "durations": [duration for _, duration in pillow],
            "pillowLoop": loop,
            "pillowEqual": [frame.tobytes() == normalised(mine).tobytes() for mine, (frame, _) in zip(shown, pillow)],
        }
        print(name, references[name]["pillowEqual"], file=sys.stderr)
    with open(os.path.join(HERE, "references.json"), "w") as out:
        json.dump(references, out, indent=1, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
