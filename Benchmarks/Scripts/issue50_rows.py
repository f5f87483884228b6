#!/usr/bin/env python3
"""Issue 50's table, each row a ratio against its baseline measured in the same run (the two
commands in turn, medians of the pair-by-pair ratios of wall time, min-max beside it):

  20,000 16x16 PNGs, loose      preload DIR          against the C libpng loop on 2 threads
  20,000 16x16, baked           preload tiny.bake    against the same C loop over the PNGs
  game-like level, BC7 pack     preload bc.bake      against preload rgba8.bake (4x the bytes)
    and the same, the batch alone   the report's own seconds (`--json`), without the process's
                                    start and exit: what a game that is already running pays
  10,000 64x64 sprites, loose   preload DIR          against the C loop (judged: not slower)
  game-like level, loose        preload DIR          against the C loop (judged: not slower)

The corpora, packs and the C loop (`cdecode.c`, libpng's simplified API) are made in `--dir` when
missing; a row whose corpus cannot be made (the game-like level needs Pillow and ImageMagick) says
so and is skipped. With `--bench`, also the engine's instructions per asset (callgrind on a
stripped copy of the release `preload-bench`, docs/benchmarks.md "The engine's bookkeeping").

    swift build -c release --static-swift-stdlib -Xswiftc -use-ld=lld --product preload   # as ./install-preload builds it
    swift build -c release --package-path Benchmarks --product preload-bench
    python3 Benchmarks/Scripts/issue50_rows.py .build/release/preload --bench Benchmarks/.build/release/preload-bench
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import whole_command  # noqa: E402

C_LOOP_THREADS = "2"


def made(path, recipe):
    """`path`, made by `recipe` (a command list) when missing; None if it could not be made."""
    if os.path.exists(path):
        return path
    print(f"making {path} ...", flush=True)
    if subprocess.run(recipe, stdout=subprocess.DEVNULL).returncode != 0 or not os.path.exists(path):
        print(f"  could not make {path} ({' '.join(recipe)})")
        return None
    return path


def listing(folder, target):
    """A file listing every PNG under `folder`, for the C loop's stdin."""
    if not os.path.exists(target):
        with open(target, "w") as out:
            for path in sorted(glob.glob(os.path.join(folder, "**", "*.png"), recursive=True)):
                out.write(path + "\n")
    return target


def c_loop(directory):
    source = os.path.join(HERE, "cdecode.c")
    binary = os.path.join(directory, "cdecode")
    libraries = ["-lpng", "-lspng", "-lz", "-lpthread", "-lm"]
    return made(binary, ["cc", "-O2", "-o", binary, source] + libraries)


def row(label, command_a, command_b, runs, target, goal):
    a_runs, b_runs, ratios = whole_command.pair(command_a, command_b, runs, 2)
    failed = [run["status"] for run in a_runs + b_runs if run["status"] != 0]
    wall = ratios["wall"]
    low, mid, high = min(wall), whole_command.median(wall), max(wall)
    cpu = whole_command.median(ratios["cpu"])
    a_wall = whole_command.median([run["wall"] for run in a_runs]) * 1000
    b_wall = whole_command.median([run["wall"] for run in b_runs]) * 1000
    verdict = ""
    if target is not None:
        verdict = "met" if mid <= target else "not met"
        verdict = f"target <= {target:.2f}: {verdict}" + (f"; goal <= {goal:.2f}" if goal is not None else "")
    print(
        f"| {label} | {mid:.2f} ({low:.2f}-{high:.2f}) | {cpu:.2f} | {a_wall:.0f} / {b_wall:.0f} ms | {verdict} |"
        + (f" FAILED RUNS {sorted(set(failed))}" if failed else ""),
        flush=True,
    )


def batch_row(label, command_a, command_b, runs, target, goal):
    """`label`'s ratio of the batches' own time (`summary.seconds` of `--json`), run in turn."""

    def seconds(command):
        output = subprocess.run(command + ["--json"], capture_output=True, text=True, check=True).stdout
        return json.loads(output)["summary"]["seconds"]

    a_times, b_times = [], []
    for _ in range(runs + 2):
        a_times.append(seconds(command_a))
        b_times.append(seconds(command_b))
    a_times, b_times = a_times[2:], b_times[2:]
    ratios = [a / b for a, b in zip(a_times, b_times)]
    mid = whole_command.median(ratios)
    verdict = f"target <= {target:.2f}: {'met' if mid <= target else 'not met'}; goal <= {goal:.2f}"
    a_ms, b_ms = whole_command.median(a_times) * 1000, whole_command.median(b_times) * 1000
    print(f"| {label} | {mid:.2f} ({min(ratios):.2f}-{max(ratios):.2f}) | | {a_ms:.1f} / {b_ms:.1f} ms | {verdict} |", flush=True)


def instructions(bench, corpus):
    """Instructions per asset for planning and for loads, recording and outlets (callgrind)."""
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: no instruction counts")
        return
    stripped = "/tmp/issue50-preload-bench"
    shutil.copy(bench, stripped)
    subprocess.run(["strip", "-g", stripped], check=True)
    out = "/tmp/issue50.callgrind"
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", stripped, corpus, "--jobs", "2", "--rounds", "1", "--only",
         "pipeline-overhead"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # (valgrind may crash at exit; the counts are written)
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", out], capture_output=True, text=True).stdout
    files = len(glob.glob(os.path.join(corpus, "**", "*.png"), recursive=True))
    found = {}
    for line in text.splitlines():
        for key, pattern in (("planning", "planLeaves"), ("loads", "LoadOperationC5start")):
            if pattern in line and key not in found:
                found[key] = int(re.sub(r"[,\s].*", "", line.strip().replace(",", ""), count=1) or 0)
    if len(found) < 2:
        print("callgrind gave no counts for planLeaves/LoadOperation.start")
        return
    planning, loads = found["planning"] / files, found["loads"] / files
    print(f"| engine instructions per asset (callgrind) | planning {planning:,.0f} + loads {loads:,.0f} = {planning + loads:,.0f} | target <= 4,000; goal <= 2,500 |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("preload", help="the preload binary (a release build)")
    parser.add_argument("--dir", default="/tmp/issue50", help="where corpora, packs and the C loop are (made if missing)")
    parser.add_argument("--runs", type=int, default=11, help="pairs per row (11)")
    parser.add_argument("--c-loop", help="a built cdecode (else built from cdecode.c: needs libpng, libspng and stb headers)")
    parser.add_argument("--bench", help="a release preload-bench, for instructions per asset")
    parser.add_argument("--skip", default="", help="comma-separated rows to skip: loose,baked,bc7,sprites,game")
    arguments = parser.parse_args()
    preload = os.path.abspath(arguments.preload)
    directory = arguments.dir
    skip = set(filter(None, arguments.skip.split(",")))
    os.makedirs(directory, exist_ok=True)
    script = lambda name: os.path.join(HERE, name)  # noqa: E731
    loop = os.path.abspath(arguments.c_loop) if arguments.c_loop else c_loop(directory)
    tiny = made(os.path.join(directory, "tiny"), [sys.executable, script("make_tiny_corpus.py"), os.path.join(directory, "tiny")])

    def against_loop(folder):
        listed = listing(folder, folder + ".list")
        return ["sh", "-c", f"exec {loop} libpng {C_LOOP_THREADS} < {listed}"]

    print(f"load average {os.getloadavg()[0]:.2f}; {arguments.runs} pairs per row, 2 warm-up pairs; wall A/B median (min-max)")
    print("| row | wall A/B | cpu A/B | A / B wall | |")
    print("| --- | --- | --- | --- | --- |")
    if tiny and loop and "loose" not in skip:
        row("20,000 16x16 PNGs, loose, against the C loop", [preload, tiny, "--jobs", "2", "--quiet"], against_loop(tiny), arguments.runs, 1.10, 0.80)
    if tiny and loop and "baked" not in skip:
        pack = made(os.path.join(directory, "tiny.bake"), [preload, "bake", tiny, "-o", os.path.join(directory, "tiny.bake"), "--root", tiny])
        if pack:
            row("20,000 16x16, baked, against the C loop over the PNGs", [preload, pack, "--jobs", "2", "--quiet"], against_loop(tiny), arguments.runs, 0.40, 0.15)
    if loop and "sprites" not in skip:
        sprites = os.path.join(directory, "sprites")
        sprites = made(sprites, [sys.executable, script("make_tiny_corpus.py"), sprites, "--count", "10000", "--size", "64"])
        if sprites:
            row("10,000 64x64 sprites, loose, against the C loop", [preload, sprites, "--jobs", "2", "--quiet"], against_loop(sprites), arguments.runs, None, None)
    game = None
    if not {"bc7", "game"} <= skip:
        game = made(os.path.join(directory, "game"), [sys.executable, script("make_game_corpus.py"), os.path.join(directory, "game")])
    if game and loop and "game" not in skip:
        row("game-like level, loose, against the C loop", [preload, game, "--jobs", "2", "--quiet"], against_loop(game), arguments.runs, None, None)
    if game and "bc7" not in skip:
        rgba8 = made(os.path.join(directory, "rgba8.bake"), [preload, "bake", game, "-o", os.path.join(directory, "rgba8.bake"), "--root", game])
        bc = made(os.path.join(directory, "bc.bake"), [preload, "bake", game, "-o", os.path.join(directory, "bc.bake"), "--root", game, "--gpu", "bc"])
        if rgba8 and bc:
            row("game-like level, BC7 pack against the RGBA8 pack", [preload, bc, "--jobs", "2", "--quiet"], [preload, rgba8, "--jobs", "2", "--quiet"], arguments.runs, 0.50, 0.35)
            batch_row(
                "the same, the batches alone (without the process's start and exit)",
                [preload, bc, "--jobs", "2"], [preload, rgba8, "--jobs", "2"], arguments.runs, 0.50, 0.35)
    if arguments.bench and tiny:
        instructions(os.path.abspath(arguments.bench), tiny)


if __name__ == "__main__":
    main()
