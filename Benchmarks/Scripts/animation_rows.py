#!/usr/bin/env python3
"""Issue 51's speed rows, each a ratio against its baseline measured in the same run (the two
commands in turn, medians of the pair-by-pair ratios, min-max beside them):

  .aseprite files            preload DIR/aseprite   against preload DIR/sheets: the PNG sheets
                                                    Aseprite exported from the same files (target:
                                                    no more than decoding the sheet)

Pairs are `NAME.aseprite` beside `NAME.png` (its exported sheet) in `--pairs` folders; each pair is
copied `--copies` times so that a run is long enough to time. By default the repository's own pair:
sample-assets/animations/hero-walk.aseprite and Examples/LoadingScreen/Expected/hero-walk.png.

    swift build -c release --product preload
    python3 Benchmarks/Scripts/animation_rows.py .build/release/preload --pairs /path/to/pairs --copies 200
"""
import argparse
import glob
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from whole_command import pair, summary  # noqa: E402

REPOSITORY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def default_pairs():
    """The repository's pair, as (aseprite, sheet) paths."""
    return [(os.path.join(REPOSITORY, "sample-assets", "animations", "hero-walk.aseprite"),
             os.path.join(REPOSITORY, "Examples", "LoadingScreen", "Expected", "hero-walk.png"))]


def pairs_in(folders):
    found = []
    for folder in folders:
        for aseprite in sorted(glob.glob(os.path.join(folder, "*.aseprite")) + glob.glob(os.path.join(folder, "*.ase"))):
            sheet = os.path.splitext(aseprite)[0] + ".png"
            if os.path.exists(sheet):
                found.append((aseprite, sheet))
    return found


def make_corpus(pairs, copies, directory):
    """DIR/aseprite and DIR/sheets, each pair copied `copies` times under the same numbered names."""
    for side in ("aseprite", "sheets"):
        shutil.rmtree(os.path.join(directory, side), ignore_errors=True)
        os.makedirs(os.path.join(directory, side))
    for index, (aseprite, sheet) in enumerate(pairs):
        extension = os.path.splitext(aseprite)[1]
        for copy in range(copies):
            shutil.copyfile(aseprite, os.path.join(directory, "aseprite", f"{index}-{copy}{extension}"))
            shutil.copyfile(sheet, os.path.join(directory, "sheets", f"{index}-{copy}.png"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("preload", help="the preload command to time (a release build)")
    parser.add_argument("--pairs", action="append", default=[], help="a folder of NAME.aseprite beside NAME.png (repeatable)")
    parser.add_argument("--copies", type=int, default=200, help="copies of each pair (200)")
    parser.add_argument("--dir", default="/tmp/preload-animation-rows", help="where the corpus is made")
    parser.add_argument("--runs", type=int, default=11, help="pairs of runs counted (11)")
    arguments = parser.parse_args()
    pairs = pairs_in(arguments.pairs) if arguments.pairs else default_pairs()
    if not pairs:
        parser.error("no NAME.aseprite beside NAME.png in " + ", ".join(arguments.pairs))
    make_corpus(pairs, arguments.copies, arguments.dir)
    print(f"load average {os.getloadavg()[0]:.2f}; {len(pairs)} pairs x {arguments.copies} copies; {arguments.runs} pairs of runs")
    base = [arguments.preload, "--jobs", "2", "--quiet"]
    _, _, ratios = pair(base + [os.path.join(arguments.dir, "aseprite")], base + [os.path.join(arguments.dir, "sheets")],
                        runs=arguments.runs, warmup=2)
    for figure in ("wall", "cpu", "peak"):
        low, mid, high = summary(ratios[figure])
        print(f".aseprite / its exported sheet PNG, {figure}: {mid:.3f} ({low:.3f}-{high:.3f})")


if __name__ == "__main__":
    main()
