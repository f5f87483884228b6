#!/usr/bin/env python3
"""Loading GIFs with `preload` against decoding them with Pillow (every frame composited, as
`[f.convert('RGBA') for f in ImageSequence.Iterator(im)]`), whole commands in the same run, A and B
in turn (whole_command.py's `pair`): prints each command's median CPU and wall seconds, and the
median of the pair-by-pair ratios preload / Pillow (below 1: preload is cheaper).

    python3 Benchmarks/Scripts/gif_vs_pillow.py .build/release/preload --dir /tmp/gifbench --runs 11

Needs Pillow, for the corpus and for the baseline (`--python`, default this interpreter: a venv's
`bin/python` with `pip install pillow`); without it the script says so and exits 0, skipping.
The corpus (written once into `--dir`, deterministic, Pillow's GIF encoder):
  big.gif      one 480x270 animation of 60 frames (a moving scene over a background: full
               frames, a 256-colour palette, LZW that does not compress much)
  sprites/     120 animated sprites, 48 to 96 pixels a side, 6 to 12 frames each, transparent
               background, disposal 2 (what game sprite GIFs are)
Rows: `big.gif` alone, and the `sprites/` folder. preload runs with `--jobs 1` (Pillow decodes on
one thread) and `--quiet`.
"""
import argparse
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from whole_command import median, pair  # noqa: E402

PILLOW_DECODE = """import os, sys
from PIL import Image, ImageSequence
paths = [sys.argv[1]] if os.path.isfile(sys.argv[1]) else sorted(
    os.path.join(root, name) for root, _, names in os.walk(sys.argv[1]) for name in names if name.endswith('.gif'))
for path in paths:
    with Image.open(path) as im:
        frames = [f.convert('RGBA') for f in ImageSequence.Iterator(im)]
"""


def has_pillow(python):
    return subprocess.run([python, "-c", "import PIL"], capture_output=True).returncode == 0


def make_corpus(directory):
    """Writes the corpus into `directory` unless it is there (a file `done` marks it whole)."""
    from PIL import Image, ImageDraw

    if os.path.exists(os.path.join(directory, "done")):
        return
    rng = random.Random(20261130)
    os.makedirs(os.path.join(directory, "sprites"), exist_ok=True)
    scene = Image.new("RGB", (480, 270))
    draw = ImageDraw.Draw(scene)
    for y in range(270):
        draw.line([(0, y), (479, y)], fill=(20 + y // 3, 40 + y // 4, 90 + y // 3))
    for _ in range(80):
        x, y, r = rng.randint(0, 480), rng.randint(0, 270), rng.randint(4, 30)
        draw.ellipse([x - r, y - r, x + r, y + r], fill=tuple(rng.randint(0, 255) for _ in range(3)))
    frames = []
    for index in range(60):
        frame = scene.copy()
        d = ImageDraw.Draw(frame)
        for ball in range(12):
            x = (ball * 41 + index * (ball + 3)) % 480
            y = 135 + int(100 * ((index + ball * 7) % 30 - 15) / 15)
            d.ellipse([x - 14, y - 14, x + 14, y + 14], fill=((ball * 53) % 256, 200, (ball * 91) % 256))
        frames.append(frame.quantize(256, dither=Image.Dither.NONE))
    frames[0].save(os.path.join(directory, "big.gif"), save_all=True, append_images=frames[1:], duration=40, loop=0)
    for index in range(120):
        side = rng.choice([48, 64, 64, 96])
        colours = [tuple(rng.randint(0, 255) for _ in range(3)) + (255,) for _ in range(4)]
        sprite_frames = []
        for step in range(rng.randint(6, 12)):
            im = Image.new("RGBA", (side, side), (0, 0, 0, 0))
            d = ImageDraw.Draw(im)
            bob = step % 4
            d.ellipse([side // 4, side // 4 + bob, 3 * side // 4, 3 * side // 4 + bob], fill=colours[0], outline=colours[1], width=2)
            d.rectangle([side // 3, side // 2 + bob, 2 * side // 3, side - 4], fill=colours[2])
            d.line([(side // 3, side - 4), (side // 3 - step % 3, side - 1)], fill=colours[3], width=2)
            sprite_frames.append(im)
        sprite_frames[0].save(
            os.path.join(directory, "sprites", f"sprite_{index:03d}.gif"), save_all=True, append_images=sprite_frames[1:],
            duration=100, loop=0, disposal=2)
    open(os.path.join(directory, "done"), "w").close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("preload", help="the preload command (a release build)")
    parser.add_argument("--dir", default="/tmp/gifbench", help="where the corpus is written (once)")
    parser.add_argument("--runs", type=int, default=11, help="counted pairs per row")
    parser.add_argument("--python", default=sys.executable, help="a Python with Pillow, for the baseline")
    options = parser.parse_args()
    if not has_pillow(options.python) or not has_pillow(sys.executable):
        print("skipped: Pillow is not installed (python3 -m venv /tmp/venv && /tmp/venv/bin/pip install pillow, "
              "then run this script with /tmp/venv/bin/python)")
        return
    make_corpus(options.dir)
    decode = os.path.join(options.dir, "pillow_decode.py")
    with open(decode, "w") as script:
        script.write(PILLOW_DECODE)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for row in ("big.gif", "sprites"):
        path = os.path.join(options.dir, row)
        preload = [options.preload, path, "--jobs", "1", "--quiet"]
        pillow = [options.python, decode, path]
        a_runs, b_runs, ratios = pair(preload, pillow, runs=options.runs, warmup=2)
        failed = [run["status"] for run in a_runs + b_runs if run["status"] != 0]
        if failed:
            print(f"{row}: {len(failed)} runs exited non-zero")
        print(
            f"{row}: preload cpu {median([r['cpu'] for r in a_runs]) * 1000:.1f} ms, wall {median([r['wall'] for r in a_runs]) * 1000:.1f} ms; "
            f"Pillow cpu {median([r['cpu'] for r in b_runs]) * 1000:.1f} ms, wall {median([r['wall'] for r in b_runs]) * 1000:.1f} ms; "
            f"preload/Pillow cpu {median(ratios['cpu']):.3f}, wall {median(ratios['wall']):.3f} (medians of {options.runs} pairs)")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
