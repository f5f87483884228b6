#!/usr/bin/env python3
"""Writes the pack fixtures: source files (src/), and archives of them written by other tools, so
the Swift readers are tested against what Python's zipfile, Info-ZIP's zip and gzip produce.

usage: make_pack_fixtures.py   (run from anywhere; needs Pillow, zip, gzip; rewrites this folder)

- python-deflate.zip   zipfile, deflate, with folder entries and a non-ASCII (UTF-8 flagged) name
- python-stream.zip    zipfile writing to an unseekable stream: data descriptors (flag bit 3)
- infozip.zip          zip -r -X
- infozip-stream.zip   zip -r -X - src (to a pipe): data descriptors
- infozip-zip64.zip    zip -fz: zip64 extra fields and end records although nothing is large
- mixed.zip            one encrypted entry, one bzip2 entry, one symbolic link, one good entry
- overlap.zip          two directory entries pointing at the same data (overlapping zip bomb)
- named.json.gz        gzip with the original name (FNAME) "level.json"
- plain.json.gz        gzip -n (no name): the entry is named after the file, "plain.json"
- multi.txt.gz         two gzip members one after the other
"""
import io, json, os, shutil, struct, subprocess, zipfile, zlib
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "src")


def write(rel, data):
    path = os.path.join(SRC, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def png(w, h, pixel):
    im = Image.new("RGBA", (w, h))
    im.putdata([pixel(x, y) for y in range(h) for x in range(w)])
    out = io.BytesIO()
    im.save(out, "PNG")
    return out.getvalue()


def sources():
    shutil.rmtree(SRC, ignore_errors=True)
    write("art/hero.png", png(12, 10, lambda x, y: (x * 20, y * 25, 90, 255 - x * 5)))
    # A TexturePacker atlas whose page sits beside it: left half red frame, right half blue.
    write("art/ui.png", png(8, 4, lambda x, y: (220, 30, 30, 255) if x < 4 else (30, 30, 220, 255)))
    frame = lambda x: {"frame": {"x": x, "y": 0, "w": 4, "h": 4}, "rotated": False, "trimmed": False,
                       "spriteSourceSize": {"x": 0, "y": 0, "w": 4, "h": 4}, "sourceSize": {"w": 4, "h": 4}}
    atlas = {"frames": {"red": frame(0), "blue": frame(4)},
             "meta": {"app": "https://www.codeandweb.com/texturepacker", "image": "ui.png", "format": "RGBA8888",
                      "size": {"w": 8, "h": 4}, "scale": "1"}}
    write("art/ui.json", json.dumps(atlas, indent=1).encode())
    write("levels/1.json", json.dumps({"tiles": [[(x * y) % 7 for x in range(40)] for y in range(30)]}).encode())
    write("empty.txt", b"")
    write("notes/na\u00efve.txt", "caf\u00e9 cr\u00e8me\n".encode() * 50)
    write("audio/noise.bin", bytes((i * 7919 + (i >> 3) * 31) & 0xFF for i in range(20000)))


def files():
    out = []
    for root, _, names in os.walk(SRC):
        for name in names:
            path = os.path.join(root, name)
            out.append(os.path.relpath(path, SRC).replace(os.sep, "/"))
    return sorted(out)


def read(rel):
    with open(os.path.join(SRC, rel), "rb") as f:
        return f.read()


class Unseekable(io.RawIOBase):
    def __init__(self, sink):
        self.sink = sink

    def writable(self):
        return True

    def write(self, data):
        self.sink.write(data)
        return len(data)


def python_zips():
    with zipfile.ZipFile(os.path.join(HERE, "python-deflate.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        for folder in ["art/", "levels/"]:
            z.writestr(zipfile.ZipInfo(folder, (2020, 1, 1, 0, 0, 0)), b"")
        for rel in files():
            z.writestr(zipfile.ZipInfo(rel, (2020, 1, 1, 0, 0, 0)), read(rel), zipfile.ZIP_DEFLATED)
    with open(os.path.join(HERE, "python-stream.zip"), "wb") as f:
        with zipfile.ZipFile(Unseekable(f), "w", zipfile.ZIP_DEFLATED) as z:
            for rel in files():
                info = zipfile.ZipInfo(rel, (2020, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                with z.open(info, "w") as entry:
                    entry.write(read(rel))


def infozip():
    env = dict(os.environ, TZ="UTC")
    for name, flags in [("infozip.zip", ["-r", "-X"]), ("infozip-zip64.zip", ["-r", "-X", "-fz"])]:
        target = os.path.join(HERE, name)
        if os.path.exists(target):
            os.remove(target)
        subprocess.run(["zip", "-q", *flags, target, *files()], cwd=SRC, check=True, env=env)
    piped = subprocess.run(["zip", "-q", "-r", "-X", "-", *files()], cwd=SRC, check=True, capture_output=True, env=env)
    with open(os.path.join(HERE, "infozip-stream.zip"), "wb") as f:
        f.write(piped.stdout)


def mixed():
    target = os.path.join(HERE, "mixed.zip")
    if os.path.exists(target):
        os.remove(target)
    work = os.path.join(HERE, "mixed-work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for name, data in [("secret.txt", b"not for you\n" * 20), ("plain.txt", b"hello\n" * 20)]:
        with open(os.path.join(work, name), "wb") as f:
            f.write(data)
    os.symlink("plain.txt", os.path.join(work, "link.txt"))
    subprocess.run(["zip", "-q", "-X", "-P", "pw", target, "secret.txt"], cwd=work, check=True)
    subprocess.run(["zip", "-q", "-X", "-y", target, "plain.txt", "link.txt"], cwd=work, check=True)
    with zipfile.ZipFile(target, "a") as z:
        z.writestr(zipfile.ZipInfo("packed.bz2.txt", (2020, 1, 1, 0, 0, 0)), b"bzip2 inside\n" * 30, zipfile.ZIP_BZIP2)
    shutil.rmtree(work)


def overlap():
    data = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = bytes(4 << 20)
    body = data.compress(raw) + data.flush()
    crc = zlib.crc32(raw)
    name = b"a.bin"
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, crc, len(body), len(raw), len(name), 0) + name
    central = b""
    for entry in [b"a.bin", b"b.bin", b"c.bin"]:
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0x21, crc, len(body), len(raw),
                               len(entry), 0, 0, 0, 0, 0, 0) + entry
    offset = len(local) + len(body)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 3, 3, len(central), offset, 0)
    with open(os.path.join(HERE, "overlap.zip"), "wb") as f:
        f.write(local + body + central + end)


def gzips():
    level = read("levels/1.json")
    named = io.BytesIO()
    with gzip_file(named, "level.json") as g:
        g.write(level)
    with open(os.path.join(HERE, "named.json.gz"), "wb") as f:
        f.write(named.getvalue())
    with open(os.path.join(HERE, "plain.json.gz"), "wb") as f:
        f.write(subprocess.run(["gzip", "-n", "-c", os.path.join(SRC, "levels/1.json")], check=True, capture_output=True).stdout)
    members = b""
    for part in [b"first member\n" * 100, b"second member\n" * 100]:
        members += subprocess.run(["gzip", "-n", "-c"], input=part, check=True, capture_output=True).stdout
    with open(os.path.join(HERE, "multi.txt.gz"), "wb") as f:
        f.write(members)


def gzip_file(sink, name):
    import gzip
    return gzip.GzipFile(filename=name, mode="wb", fileobj=sink, mtime=0)


if __name__ == "__main__":
    sources()
    python_zips()
    infozip()
    mixed()
    overlap()
    gzips()
