#!/usr/bin/env bash
# Counts the core files (Sources/Preload) a PNG load passes through, by code coverage: builds the
# benchmark package with coverage, preloads N PNGs through the pipeline once (preload-bench
# --only pipeline), and lists the core files with code that ran at all, and those with a function
# that ran at least once per PNG (the load's own path, without the batch's set-up and report).
#
# usage: Benchmarks/Scripts/png-load-files.sh [N]     (default 64; needs python3)
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-64}
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
python3 Benchmarks/Scripts/make_tiny_corpus.py "$corpus" --count "$count" > /dev/null
scratch=Benchmarks/.build-coverage
swift build --package-path Benchmarks --scratch-path "$scratch" --product preload-bench \
    -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping > /dev/null
toolchain=$(dirname "$(command -v swift)")
LLVM_PROFILE_FILE="$corpus/run.profraw" "$scratch/debug/preload-bench" "$corpus" --jobs 2 --rounds 1 --only pipeline > /dev/null
"$toolchain/llvm-profdata" merge -sparse "$corpus/run.profraw" -o "$corpus/run.profdata"
"$toolchain/llvm-cov" export "$scratch/debug/preload-bench" -instr-profile="$corpus/run.profdata" > "$corpus/coverage.json"
python3 - "$corpus/coverage.json" "$count" <<'EOF'
import json, sys
data = json.load(open(sys.argv[1]))["data"][0]
per_asset = int(sys.argv[2])
core = lambda name: "/Sources/Preload/" in name
touched = sorted({f["filename"].split("/Sources/")[1] for f in data["files"] if core(f["filename"]) and f["summary"]["functions"]["covered"] > 0})
hot = sorted({fn["filenames"][0].split("/Sources/")[1] for fn in data["functions"] if core(fn["filenames"][0]) and fn["count"] >= per_asset})
print(f"core files with code that ran: {len(touched)}")
print(f"core files with a function run at least once per PNG ({per_asset} PNGs): {len(hot)}")
for name in hot:
    print("  " + name)
EOF
