#!/bin/sh
# Issue 53's bake cache: the game-like level (make_game_corpus.py: 651 PNGs) baked with --gpu bc
#   cold      an empty local cache (encodes everything, fills the cache)
#   uncached  --no-bake-cache (what a bake cost before the cache: the cold run's baseline)
#   warm      the same local cache again (encodes nothing)
#   shared    a second machine: an empty local cache in front of the first one as a shared store
#             (file://)
#   http      the same over HTTP: nginx with WebDAV on loopback serving a copy of the first cache
#             (the Bazel layout is the folder's), when /usr/sbin/nginx is there
#   shards    4 shard runs one after another into a third cache (each is what one of 4 machines
#             would run), then the plain bake that assembles the pack from it
# Every pack is compared byte for byte with the uncached one; the script prints each time and the
# ratios against cold (the issue's target: a second machine against the warm shared cache, and a
# warm local cache, <= 0.1x cold; 4 shards: the slowest shard + assembly ~ cold / 4).
#
# usage: Benchmarks/Scripts/bake_cache.sh [WORK_DIR] [CORPUS_DIR]
#   PRELOAD=path/to/preload (default .build/release/preload: build it with
#   `swift build -c release --product preload`); PYTHON=a python3 with Pillow, to make the corpus
#   when CORPUS_DIR is not given (default python3).
set -eu
work=$(realpath -m "${1:-/tmp/bake-cache-bench}")
corpus=${2:-}
preload=$(realpath "${PRELOAD:-.build/release/preload}")
python=${PYTHON:-python3}
mkdir -p "$work"
if [ -z "$corpus" ]; then
    corpus=$work/corpus
    # Without ImageMagick the generator stops at the interlaced sprites: the 612 PNGs before them
    # are the level then (as docs/benchmarks.md's issue 39 and 53 rows measured).
    [ -d "$corpus" ] || "$python" "$(dirname "$0")/make_game_corpus.py" "$corpus" > /dev/null 2>&1 \
        || echo "make_game_corpus.py stopped early (no ImageMagick?): baking the $(find "$corpus" -name '*.png' | wc -l) PNGs it wrote"
fi
corpus=$(realpath "$corpus")
rm -rf "$work/local-a" "$work/local-b" "$work/local-c" "$work/local-d" "$work/www" "$work/nginx" "$work"/*.bake
cd "$work"
ln -sfn "$corpus" level

now() { date +%s.%N; }
# bake NAME OPTIONS...: bakes the level with --gpu bc and OPTIONS, prints the seconds it took.
bake() {
    name=$1
    shift
    start=$(now)
    "$preload" bake level -o "$name.bake" --gpu bc "$@" > "$name.out" 2> "$name.err"
    end=$(now)
    echo "$end - $start" | bc
}
same() { cmp -s "$1.bake" uncached.bake && echo "byte-identical" || echo "DIFFERENT from the uncached pack"; }
cache_line() { grep -E '^(Bake cache|Shard)' "$1.out" || true; }

uncached=$(bake uncached --no-bake-cache)
cold=$(bake cold --bake-cache local-a)
warm=$(bake warm --bake-cache local-a)
shared=$(bake shared --bake-cache local-b --bake-cache "file://$work/local-a")
http=""
if [ -x /usr/sbin/nginx ]; then
    mkdir -p "$work/www" "$work/nginx/temp"
    cp -r "$work/local-a" "$work/www/cache"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    cat > "$work/nginx/nginx.conf" <<CONF
daemon on; worker_processes 2; pid $work/nginx/nginx.pid; error_log $work/nginx/error.log warn;
events { worker_connections 256; }
http {
    access_log off; sendfile on; types { } default_type application/octet-stream;
    client_body_temp_path $work/nginx/temp/body; proxy_temp_path $work/nginx/temp/proxy;
    fastcgi_temp_path $work/nginx/temp/fastcgi; uwsgi_temp_path $work/nginx/temp/uwsgi; scgi_temp_path $work/nginx/temp/scgi;
    server { listen 127.0.0.1:$port; root $work/www;
        location /cache/ { dav_methods PUT; create_full_put_path on; client_max_body_size 0; } }
}
CONF
    /usr/sbin/nginx -p "$work/nginx/" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log"
    sleep 1
    http=$(bake http --bake-cache local-d --bake-cache "http://127.0.0.1:$port/cache")
    kill "$(cat "$work/nginx/nginx.pid")"
fi
slowest=0
for index in 1 2 3 4; do
    seconds=$(bake "shard$index" --bake-cache local-c --shard "$index/4")
    slowest=$(echo "if ($seconds > $slowest) $seconds else $slowest" | bc)
    echo "shard $index/4: ${seconds} s; $(cache_line "shard$index")"
done
assembly=$(bake assembled --bake-cache local-c)

echo "corpus: $corpus ($(find "$corpus" -name '*.png' | wc -l) PNGs); preload: $preload"
printf 'uncached (--no-bake-cache)   %8.2f s\n' "$uncached"
printf 'cold (empty local cache)     %8.2f s  %s; %s\n' "$cold" "$(same cold)" "$(cache_line cold)"
printf 'warm local cache             %8.2f s  %s; %s\n' "$warm" "$(same warm)" "$(cache_line warm)"
printf 'empty local + warm shared    %8.2f s  %s; %s\n' "$shared" "$(same shared)" "$(cache_line shared)"
[ -z "$http" ] || printf 'empty local + warm HTTP      %8.2f s  %s; %s\n' "$http" "$(same http)" "$(cache_line http)"
printf 'slowest of 4 shards          %8.2f s\n' "$slowest"
printf 'assembly after the shards    %8.2f s  %s; %s\n' "$assembly" "$(same assembled)" "$(cache_line assembled)"
ratio() { echo "scale=4; $1 / $2" | bc | awk '{ printf "%.3fx", $1 }'; }
echo "ratios against cold: uncached $(ratio "$uncached" "$cold"), warm $(ratio "$warm" "$cold"), second machine (shared) $(ratio "$shared" "$cold"), ${http:+second machine over HTTP $(ratio "$http" "$cold"), }slowest shard + assembly $(ratio "$(echo "$slowest + $assembly" | bc)" "$cold") (cold / 4 = 0.250x)"
