#!/usr/bin/env python3
"""Issue 50's scale check: loads baked packs of 1, 10,000, 100,000 and 1,000,000 tiny entries with
`preload PACK --quiet --jobs 2`, timed from outside by `whole_command.py` (medians), and prints what each
entry costs beyond its own bytes:

  bytes per entry = (peak - pack data bytes - peak of the 1-entry pack) / entries
  (and the same beyond the whole mapped file, whose index pages are resident too)
  CPU and wall per entry = (median - the 1-entry pack's median) / entries

then the 1M/100k ratio of each per-entry figure (1.00 = linear). The packs come from
`make_baked_corpus.py` (written if missing).

    swift build -c release --static-swift-stdlib -Xswiftc -use-ld=lld --product preload   # as ./install-preload builds it
    python3 Benchmarks/Scripts/baked_scale.py .build/release/preload --dir /tmp/bakedscale
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import whole_command  # noqa: E402


def measure(preload, pack, runs, warmup):
    """Medians of `preload PACK --quiet --jobs 2`: cpu and wall seconds, peak MiB."""
    results = whole_command.measure([preload, pack, "--quiet", "--jobs", "2"], runs, warmup)
    failed = [run["status"] for run in results if run["status"] != 0]
    if failed:
        sys.exit(f"preload {pack} exited {failed[0]}")
    return {figure: whole_command.median([run[figure] for run in results]) for figure in ("cpu", "wall", "peak")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("preload", help="the preload binary (a release build)")
    parser.add_argument("--dir", default="/tmp/bakedscale", help="where the packs are (made if missing)")
    parser.add_argument("--counts", default="10000,100000,1000000")
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args()
    os.makedirs(arguments.dir, exist_ok=True)
    counts = [int(c) for c in arguments.counts.split(",")]
    packs = {}
    for count in [1] + counts:
        pack = os.path.join(arguments.dir, f"p{count}.bake")
        if not os.path.exists(pack):
            subprocess.run([sys.executable, os.path.join(HERE, "make_baked_corpus.py"), pack, "--count", str(count)], check=True)
        packs[count] = pack
    load = os.getloadavg()[0]
    base = measure(arguments.preload, packs[1], max(arguments.runs, 5), 1)
    print(f"load average {load:.1f}; 1-entry pack: peak {base['peak']:.1f} MiB, cpu {base['cpu'] * 1000:.0f} ms, wall {base['wall'] * 1000:.0f} ms")
    rows = {}
    for count in counts:
        figures = measure(arguments.preload, packs[count], arguments.runs, 1)
        data = count * 16 * 16 * 4  # make_baked_corpus.py's default 16x16 RGBA8 entries
        peak = figures["peak"] * 1048576
        beyond_data = (peak - data - base["peak"] * 1048576) / count
        beyond_file = (peak - os.path.getsize(packs[count]) - base["peak"] * 1048576) / count
        cpu = (figures["cpu"] - base["cpu"]) / count * 1e6
        wall = (figures["wall"] - base["wall"]) / count * 1e6
        rows[count] = (beyond_data, beyond_file, cpu, wall)
        print(
            f"{count:>9} entries: peak {figures['peak']:8.1f} MiB, cpu {figures['cpu']:7.3f} s, wall {figures['wall']:7.3f} s | per entry:"
            f" {beyond_data:6.0f} B beyond its data ({beyond_file:5.0f} beyond the mapped file), {cpu:5.2f} us cpu, {wall:5.2f} us wall"
        )
    if 100000 in rows and 1000000 in rows:
        small, large = rows[100000], rows[1000000]
        print(
            f"1M / 100k per entry: bytes {large[0] / small[0]:.2f}x, cpu {large[2] / small[2]:.2f}x, wall {large[3] / small[3]:.2f}x"
            f" (1.00 = linear); target: <= 200 B per entry beyond its data"
        )


if __name__ == "__main__":
    main()
