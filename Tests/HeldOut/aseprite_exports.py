#!/usr/bin/env python3
"""The held-out check for `.aseprite` files: each file Preload loads against the sheet Aseprite
itself exported from it, in a public repository that commits both (Aseprite is not installed
here, so its exports are the reference). Pass folders holding `NAME.aseprite` (or `.ase`) beside
`NAME.json` (Aseprite's `--data`, hash or array) and the sheet that JSON names.

For each pair, `preload export NAME.aseprite --to TMP` writes what Preload loaded as Aseprite's
own export format; both sheets are cut by their JSONs into whole canvases and compared pixel by
pixel (a pixel transparent in both counts as equal whatever its colour, as Aseprite writes
transparent pixels as 0 or keeps their colour depending on the version), with the frames'
durations and the tags. Needs Pillow (pip install pillow). Exit status 1 if any pair differs.

    python3 Tests/HeldOut/aseprite_exports.py .build/release/preload FOLDER [FOLDER ...]

README.md beside this script lists the public files it was run on and the last result.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

from PIL import Image


def frames_of(descriptor):
    """[(canvas RGBA image, duration)], tags [(name, from, to, direction)], from an export's JSON."""
    with open(descriptor) as f:
        data = json.load(f)
    folder = os.path.dirname(descriptor)
    # Exports often name the sheet by the author's absolute path: then its file name beside the
    # JSON, then NAME.png.
    candidates = [os.path.join(folder, data["meta"]["image"]), os.path.join(folder, os.path.basename(data["meta"]["image"])),
                  os.path.splitext(descriptor)[0] + ".png"]
    sheet = Image.open(next((c for c in candidates if os.path.exists(c)), candidates[-1])).convert("RGBA")
    frames = data["frames"] if isinstance(data["frames"], list) else list(data["frames"].values())
    out = []
    for frame in frames:
        rect, placed, size = frame["frame"], frame["spriteSourceSize"], frame["sourceSize"]
        if frame.get("rotated"):
            cut = sheet.crop((rect["x"], rect["y"], rect["x"] + rect["h"], rect["y"] + rect["w"])).transpose(Image.Transpose.ROTATE_90)
        else:
            cut = sheet.crop((rect["x"], rect["y"], rect["x"] + rect["w"], rect["y"] + rect["h"]))
        canvas = Image.new("RGBA", (size["w"], size["h"]), (0, 0, 0, 0))
        canvas.paste(cut, (placed["x"], placed["y"]))
        out.append((canvas, frame.get("duration")))
    tags = [(t["name"], t["from"], t["to"], t.get("direction", "forward")) for t in data["meta"].get("frameTags", [])]
    return out, tags


def compare(ours, theirs):
    """(equal pixels, pixels) over every frame; frames of different sizes count as all different."""
    equal = total = 0
    for (a, _), (b, _) in zip(ours, theirs):
        total += b.width * b.height
        if a.size != b.size:
            continue
        ours, theirs = a.tobytes(), b.tobytes()
        for i in range(0, len(theirs), 4):
            equal += ours[i:i + 4] == theirs[i:i + 4] or (ours[i + 3] == 0 and theirs[i + 3] == 0)
    return equal, total


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    preload, folders = sys.argv[1], sys.argv[2:]
    failed = 0
    for folder in folders:
        for source in sorted(glob.glob(os.path.join(folder, "*.aseprite")) + glob.glob(os.path.join(folder, "*.ase"))):
            reference = os.path.splitext(source)[0] + ".json"
            name = os.path.basename(source)
            if not os.path.exists(reference):
                print(f"{name}: no export beside it, skipped")
                continue
            with tempfile.TemporaryDirectory() as out:
                run = subprocess.run([preload, "export", source, "--to", out], capture_output=True, text=True)
                written = glob.glob(os.path.join(out, "**", "*.json"), recursive=True)
                if run.returncode != 0 or len(written) != 1:
                    print(f"{name}: preload export failed ({run.returncode}): {run.stdout.strip()} {run.stderr.strip()}")
                    failed += 1
                    continue
                ours, our_tags = frames_of(written[0])
            theirs, their_tags = frames_of(reference)
            equal, total = compare(ours, theirs)
            durations = [d for _, d in ours] == [d for _, d in theirs]
            same = len(ours) == len(theirs) and equal == total and durations and our_tags == their_tags
            failed += not same
            print(f"{name}: {len(ours)} frames (Aseprite's export: {len(theirs)}), pixels equal {equal}/{total}, "
                  f"durations {'equal' if durations else 'differ'}, tags {'equal' if our_tags == their_tags else 'differ'}"
                  f"{'' if same else '  DIFFERS'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
