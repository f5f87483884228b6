#!/usr/bin/env python3
"""Writes the reference frames the APNG tests compare with, from Pillow (not needed by the tests).

First writes written/: APNGs Pillow's encoder makes (sub-frames at offsets, each dispose
operation) of six frames drawn from this repository's sample sprites. Then, for each APNG in
pillow/ (Pillow's own APNG test images, after Philip Taylor's APNG test suite) and written/:
references/NAME.png, every frame Pillow composites (ImageSequence, .convert('RGBA')) stacked top
to bottom on one RGBA strip, and references/references.json: per file the canvas size, Pillow's
frame count, each frame's duration in ms, the loop count, whether Pillow's first frame is the
default image outside the animation (Pillow shows it as frame 0; the APNG specification does not
make it a frame), and, for files Pillow refuses, the error it gave.

    python3 -m venv /tmp/venv-apng && /tmp/venv-apng/bin/pip install pillow
    /tmp/venv-apng/bin/python Tests/PreloadAnimationTests/Fixtures/apng/make_references.py
"""
import glob, json, os, warnings

import PIL
from PIL import Image, ImageSequence

here = os.path.dirname(os.path.abspath(__file__))
sprites = os.path.join(here, "..", "..", "..", "..", "sample-assets", "sprites")
hero, coin, slime = (Image.open(os.path.join(sprites, f"{name}.png")).convert("RGBA") for name in ("hero", "coin", "slime"))
frames = []
for index in range(6):
    canvas = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    canvas.alpha_composite(hero)
    canvas.alpha_composite(coin.rotate(index * 30), (index * 5, 32 - index * 4))
    if index % 2:
        canvas.alpha_composite(slime.resize((24, 24)), (40 - index * 3, 40))
    frames.append(canvas)
os.makedirs(os.path.join(here, "written"), exist_ok=True)
for name, disposal in (("source", 0), ("background", [0, 1, 0, 1, 0, 1]), ("previous", [0, 2, 2, 0, 2, 0])):
    frames[0].save(
        os.path.join(here, "written", f"pillow-written-{name}.png"), save_all=True, append_images=frames[1:],
        duration=[80, 120, 90, 100, 70, 150], loop=3, disposal=disposal, blend=0)

references = {}
for path in sorted(glob.glob(os.path.join(here, "pillow", "*.png")) + glob.glob(os.path.join(here, "written", "*.png"))):
    name = os.path.basename(path)
    entry = {}
    try:
        with warnings.catch_warnings(record=True) as caught, Image.open(path) as image:
            warnings.simplefilter("always")
            frames, durations = [], []
            for frame in ImageSequence.Iterator(image):
                frames.append(frame.convert("RGBA"))
                durations.append(frame.info.get("duration"))
            entry = {
                "width": image.size[0], "height": image.size[1], "frames": len(frames), "durations": durations,
                "loop": image.info.get("loop"), "animated": bool(getattr(image, "is_animated", False)),
                "defaultImageIsFrame0": bool(image.info.get("default_image")),
                "warnings": sorted({str(w.message) for w in caught if "unclosed file" not in str(w.message)}),
            }
        strip = Image.new("RGBA", (entry["width"], entry["height"] * len(frames)))
        for index, frame in enumerate(frames):
            strip.paste(frame, (0, index * entry["height"]))
        strip.save(os.path.join(here, "references", name), optimize=True)
    except Exception as error:  # what Pillow refuses, and why
        entry = {"error": f"{type(error).__name__}: {error}"}
    references[name] = entry
with open(os.path.join(here, "references", "references.json"), "w") as out:
    json.dump({"pillow": PIL.__version__, "files": references}, out, indent=1, sort_keys=True)
    out.write("\n")
