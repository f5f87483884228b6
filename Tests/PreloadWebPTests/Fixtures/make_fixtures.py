#!/usr/bin/env python3
"""Writes the WebP plugin's test fixtures, encoded by Pillow and by libwebp's own tools, and the
pixels Pillow decodes from each (the expectation the tests compare with).

usage: Tests/PreloadWebPTests/Fixtures/make_fixtures.py     (needs Pillow with WebP, and the
       `webp` package's cwebp, img2webp and webpmux: apt-get install webp)

For each FIXTURE.webp it writes FIXTURE.rgba (Pillow's decode as RGBA8, rows top first; for an
animation, its first frame on the canvas), except for `large-lossless.webp` (2048x2048, for
cancellation), whose pixels follow a formula the tests repeat (red = 7x mod 256, green =
3y mod 256, blue = (x XOR y) mod 256, opaque). `expected.json` lists every fixture with
its size, whether it is lossless (exact match expected) and its frame count, plus the Pillow and
libwebp versions that made the expectations. Deterministic: the same tools give the same bytes.
"""
import hashlib, json, os, subprocess, tempfile
from PIL import Image, ImageDraw, features
import PIL

# Animations whose first frame is lossless (exact match expected).
FIRST_FRAME_LOSSLESS = {"pillow-animated.webp", "webpmux-offset-frame.webp"}
HERE = os.path.dirname(os.path.abspath(__file__))


def sprite(width, height, seed, opaque=False):
    """Shapes with outlines, an alpha ramp and fully transparent corners: what game sprites hold."""
    image = Image.new("RGBA", (width, height), (40, 90, 160, 255) if opaque else (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    for index in range(6):
        k = seed * 7 + index * 13
        x0, y0 = (k * 5) % (width // 2), (k * 3) % (height // 2)
        x1, y1 = x0 + width // 3 + k % 9, y0 + height // 3 + k % 7
        colour = ((k * 37) % 256, (k * 91) % 256, (k * 53) % 256, 255 if opaque else 90 + (k * 29) % 166)
        (draw.ellipse if index % 2 else draw.rectangle)([x0, y0, x1, y1], fill=colour, outline=(10, 10, 10, 255))
    pixels = image.load()
    for y in range(height):  # a horizontal gradient and an alpha ramp along the bottom rows
        for x in range(width):
            r, g, b, a = pixels[x, y]
            pixels[x, y] = ((r + x * 2) % 256, (g + y * 3) % 256, b, a if opaque or y < height - 6 else x * 255 // (width - 1))
    return image


def run(*command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    os.chdir(HERE)
    with tempfile.TemporaryDirectory() as scratch:
        def png(image, name):
            path = os.path.join(scratch, name)
            image.save(path)
            return path

        def webp(image, name, *options):
            path = os.path.join(scratch, name)
            run("cwebp", "-quiet", *options, png(image, name + ".png"), "-o", path)
            return path

        # Pillow's encoder.
        sprite(64, 48, 1).save("pillow-lossless.webp", lossless=True, method=4)
        sprite(64, 48, 2, opaque=True).convert("RGB").save("pillow-lossy.webp", quality=80, method=4)
        sprite(64, 48, 3).save("pillow-lossy-alpha.webp", quality=75, method=4)
        frames = [sprite(48, 32, seed) for seed in (4, 5, 6)]
        frames[0].save("pillow-animated.webp", save_all=True, append_images=frames[1:], duration=100, loop=0, lossless=True)

        # libwebp's command-line tools.
        run("cwebp", "-quiet", "-q", "75", png(sprite(64, 48, 7, opaque=True).convert("RGB"), "opaque.png"), "-o", "cwebp-lossy.webp")
        run("cwebp", "-quiet", "-q", "70", "-alpha_q", "100", png(sprite(64, 48, 8), "alpha.png"), "-o", "cwebp-lossy-alpha.webp")
        run("cwebp", "-quiet", "-lossless", "-exact", png(sprite(64, 48, 9), "lossless.png"), "-o", "cwebp-lossless.webp")
        run("img2webp", "-loop", "0", "-lossy", "-q", "80", png(sprite(40, 40, 10), "f1.png"), "-lossless", png(sprite(40, 40, 11), "f2.png"),
            "-o", "img2webp-animated.webp")
        # An animation whose first frame covers only part of the canvas: a 40x30 frame at (8, 6)
        # on the 64x48 canvas that the second frame sets.
        first, second = webp(sprite(40, 30, 12), "small.webp", "-lossless"), webp(sprite(64, 48, 13), "full.webp", "-q", "80")
        run("webpmux", "-frame", first, "+100+8+6+0-b", "-frame", second, "+100+0+0+0+b", "-loop", "0", "-o", "webpmux-offset-frame.webp")
        # Large, for cancellation: 2048x2048 lossless (16 MiB decoded, 8 chunks), smooth content that
        # compresses well.
        large = Image.new("RGBA", (2048, 2048))
        large.putdata([((x * 7) % 256, (y * 3) % 256, (x ^ y) % 256, 255) for y in range(0, 2048) for x in range(0, 2048)])
        large.save("large-lossless.webp", lossless=True, quality=10, method=1)
        # The tests compute these pixels from the same formula rather than store 16 MiB of them.
        assert Image.open("large-lossless.webp").convert("RGBA").tobytes() == large.tobytes()

    expected = {"pillow": PIL.__version__, "pillowLibwebp": features.version("webp"), "fixtures": {}}
    for name in sorted(os.listdir(".")):
        if not name.endswith(".webp"):
            continue
        image = Image.open(name)
        frame_count = getattr(image, "n_frames", 1)
        image.seek(0)
        pixels = image.convert("RGBA").tobytes()
        entry = {"width": image.width, "height": image.height, "lossless": "lossless" in name or name in FIRST_FRAME_LOSSLESS,
                 "frames": frame_count, "sha256": hashlib.sha256(pixels).hexdigest()}
        if name != "large-lossless.webp":
            with open(name[: -len(".webp")] + ".rgba", "wb") as file:
                file.write(pixels)
        expected["fixtures"][name] = entry
    with open("expected.json", "w") as file:
        json.dump(expected, file, indent=2, sort_keys=True)
        file.write("\n")


main()
