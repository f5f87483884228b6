#!/bin/sh
# Issue 52's patch speed: a ~130 MB baked pack (32 RGBA textures, 1024x1024, noise), then the same
# level with 5 textures changed, baked again; pack-patch-bench applies the patch from the old pack
# to the new (the changed entries' bytes in memory, as fetched) against `cp` of the old pack on the
# same disk (and against cp then sync of the copy, as durable as the patch, which fsyncs before its
# rename), medians of interleaved rounds, and prints the ratios (the issue's target: <= 1.2x).
#
# usage: Benchmarks/Scripts/pack_patch.sh [WORK_DIR] [ROUNDS]
#   PRELOAD=path/to/preload (any build: baking is not measured; default .build/release/preload)
set -eu
work=${1:-/tmp/pack-patch}
rounds=${2:-7}
preload=$(realpath "${PRELOAD:-.build/release/preload}")
mkdir -p "$work/level"
textures() {  # textures FOLDER FIRST COUNT SEED: noise PNGs texture-FIRST.png ... (deterministic)
    python3 - "$@" <<'PY'
import random, struct, sys, zlib
folder, first, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
side = 1024
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
for index in range(first, first + count):
    pixels = random.Random(seed * 1000 + index).randbytes(side * side * 4)
    rows = b"".join(b"\0" + pixels[y * side * 4:(y + 1) * side * 4] for y in range(side))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b"")
    open(f"{folder}/texture-{index:02d}.png", "wb").write(png)
PY
}
textures "$work/level" 0 32 1
(cd "$work" && "$preload" bake level -o old.bake > /dev/null)
textures "$work/level" 10 5 2   # 5 textures changed
(cd "$work" && "$preload" bake level -o new.bake > /dev/null)
ls -l "$work/old.bake" "$work/new.bake"
swift run -c release --package-path Benchmarks pack-patch-bench "$work/old.bake" "$work/new.bake" "$work" --rounds "$rounds"
