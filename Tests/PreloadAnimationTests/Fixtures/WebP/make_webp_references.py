#!/usr/bin/env python3
"""Writes the animated WebP fixtures of PreloadAnimationTests and the frames Pillow composites from
each (Pillow 10+ reads every WebP through libwebp's WebPAnimDecoder, which composites the frames).

usage: /path/to/venv-with-pillow/bin/python Tests/PreloadAnimationTests/Fixtures/WebP/make_webp_references.py

The animations are assembled here chunk by chunk (the container specification's VP8X, ANIM and
ANMF chunks), each frame's image chunks (ALPH + VP8, or VP8L) cut from a still WebP that Pillow
encodes from RGBA frames with partial alpha: so every combination of blending (alpha-blend or
not), disposal (none or background), offset and lossy/lossless is there on purpose. One more,
`pillow-encoder.webp`, is Pillow's own animated encoder's choice of sub-frames and flags.

For each NAME.webp it writes NAME.rgba, every frame Pillow gives as a whole canvas of RGBA8
(rows top first), frame after frame; `references.json` lists each file's canvas, frame count,
durations (milliseconds), loop count and background colour, and the Pillow and libwebp versions.
Deterministic: the same Pillow gives the same bytes. The tests read only what this writes.
"""
import io, json, os, struct
from PIL import Image, ImageDraw, features
import PIL

HERE = os.path.dirname(os.path.abspath(__file__))


def sprite(width, height, seed):
    """Shapes with outlines over a transparent ground, an alpha ramp of every level along the
    bottom rows (1, 2, 3 ... the levels libwebp's integer blending rounds differently)."""
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    for index in range(4):
        k = seed * 11 + index * 17
        x0, y0 = (k * 5) % max(1, width // 2), (k * 3) % max(1, height // 2)
        x1, y1 = x0 + width // 3 + k % 5, y0 + height // 3 + k % 4
        colour = ((k * 37) % 256, (k * 91) % 256, (k * 53) % 256, 1 + (k * 29) % 255)
        (draw.ellipse if index % 2 else draw.rectangle)([x0, y0, x1, y1], fill=colour, outline=(250, 240, 10, 255))
    pixels = image.load()
    for y in range(height - 4, height):
        for x in range(width):
            r, g, b, _ = pixels[x, y]
            pixels[x, y] = ((r + x * 9) % 256, (g + y * 31) % 256, (b + 77) % 256, (x * 7 + y * 3 + seed) % 256)
    return image


def image_chunks(frame, lossless):
    """The ALPH + VP8 (lossy) or VP8L (lossless) chunks of `frame` encoded as a still WebP."""
    buffer = io.BytesIO()
    frame.save(buffer, "WEBP", lossless=lossless, quality=80, method=4, exact=True)
    data = buffer.getvalue()
    chunks, offset = b"", 12
    while offset + 8 <= len(data):
        name, size = data[offset : offset + 4], struct.unpack("<I", data[offset + 4 : offset + 8])[0]
        if name in (b"ALPH", b"VP8 ", b"VP8L"):
            chunks += data[offset : offset + 8 + size + (size & 1)]
        offset += 8 + size + (size & 1)
    return chunks


def chunk(name, payload):
    return name + struct.pack("<I", len(payload)) + payload + (b"\0" if len(payload) & 1 else b"")


def animation(width, height, frames, loop, background=(0, 0, 0, 0)):
    """An animated WebP: frames are (x, y, image, duration, blend, dispose_background, lossless)."""
    u24 = lambda value: struct.pack("<I", value)[:3]
    body = chunk(b"VP8X", bytes([0x12, 0, 0, 0]) + u24(width - 1) + u24(height - 1))
    r, g, b, a = background
    body += chunk(b"ANIM", bytes([b, g, r, a]) + struct.pack("<H", loop))
    for x, y, image, duration, blend, dispose, lossless in frames:
        flags = (0 if blend else 2) | (1 if dispose else 0)
        header = u24(x // 2) + u24(y // 2) + u24(image.width - 1) + u24(image.height - 1) + u24(duration) + bytes([flags])
        body += chunk(b"ANMF", header + image_chunks(image, lossless))
    return b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + body


def fixtures():
    W, H = 40, 30
    full = lambda seed: sprite(W, H, seed)
    small = lambda w, h, seed: sprite(w, h, seed)
    yield "lossless-blend-keep.webp", animation(W, H, [
        (0, 0, full(1), 100, True, False, True),
        (6, 4, small(20, 14, 2), 80, True, False, True),
        (18, 12, small(16, 10, 3), 120, True, True, True),
        (10, 8, small(24, 16, 4), 60, True, False, True),  # over the cleared frame 3: libwebp does not blend there
        (0, 0, full(5), 200, False, False, True),
    ], loop=0)
    yield "lossy-alpha-dispose.webp", animation(W, H, [
        (4, 2, small(22, 18, 6), 90, True, True, False),  # a key frame that is cleared: frame 2 is one too
        (8, 6, small(26, 20, 7), 70, True, False, False),
        (0, 0, full(8), 50, True, True, False),  # the whole canvas, cleared: frame 4 is a key frame
        (2, 2, small(30, 22, 9), 110, True, False, False),
        (12, 10, small(14, 12, 10), 40, True, False, False),
    ], loop=3, background=(255, 128, 0, 255))
    yield "mixed-no-blend.webp", animation(W, H, [
        (0, 0, full(11), 30, True, False, True),
        (6, 6, small(18, 12, 12), 30, False, False, False),  # replace, lossy with alpha
        (10, 4, small(20, 20, 13), 30, True, True, True),
        (14, 8, small(12, 12, 14), 30, False, True, False),
        (0, 0, small(40, 30, 15), 0, True, False, True),  # a zero duration, as written
    ], loop=1)
    frames = [full(20 + index) for index in range(4)]
    buffer = io.BytesIO()
    frames[0].save(buffer, "WEBP", save_all=True, append_images=frames[1:], duration=[70, 80, 90, 100], loop=2, lossless=False,
                   quality=70, allow_mixed=True, minimize_size=False, exact=True)
    yield "pillow-encoder.webp", buffer.getvalue()


def main():
    listed = {}
    for name, data in fixtures():
        with open(os.path.join(HERE, name), "wb") as out:
            out.write(data)
        image = Image.open(os.path.join(HERE, name))
        canvases, durations = [], []
        for index in range(image.n_frames):
            image.seek(index)
            canvases.append(image.convert("RGBA").tobytes())
            durations.append(image.info["duration"])
        with open(os.path.join(HERE, name.replace(".webp", ".rgba")), "wb") as out:
            out.write(b"".join(canvases))
        listed[name] = {"width": image.width, "height": image.height, "frames": image.n_frames, "durations": durations,
                        "loop": image.info.get("loop", 0), "background": list(image.info.get("background", (0, 0, 0, 0)))}
    listed["made with"] = f"Pillow {PIL.__version__}, libwebp {features.version('webp')}"
    with open(os.path.join(HERE, "references.json"), "w") as out:
        json.dump(listed, out, indent=1, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
