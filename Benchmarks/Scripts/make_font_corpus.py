#!/usr/bin/env python3
"""Writes a large bitmap font, the size of a CJK game font, in BMFont's three forms, for measuring
what loading a font costs beside decoding its pages (docs/benchmarks.md, "Issue 37").

  make_font_corpus.py OUT [GLYPHS]

OUT/pages/big_N.png   1024x1024 pages, glyph cells of 20x22 pixels drawn with strokes (mostly
                      transparent, as real glyph pages are)
OUT/big-text.fnt, OUT/big-xml.fnt, OUT/big-binary.fnt
                      the same GLYPHS (default 6000) characters from U+4E00, and 2,000 kerning pairs

Needs Pillow.
"""
import os
import random
import struct
import sys

from PIL import Image, ImageDraw

out = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 6000
rng = random.Random(37)
side, cell_w, cell_h = 1024, 20, 22
per_row, per_page = side // (cell_w + 1), (side // (cell_w + 1)) * (side // (cell_h + 1))
os.makedirs(os.path.join(out, "pages"), exist_ok=True)
pages = []
chars = []
for index in range(count):
    page, slot = divmod(index, per_page)
    if page == len(pages):
        pages.append(Image.new("RGBA", (side, side), (255, 255, 255, 0)))
    x, y = (slot % per_row) * (cell_w + 1), (slot // per_row) * (cell_h + 1)
    draw = ImageDraw.Draw(pages[page])
    for _ in range(5):
        draw.line([(x + rng.randrange(cell_w), y + rng.randrange(cell_h)), (x + rng.randrange(cell_w), y + rng.randrange(cell_h))],
                  fill=(255, 255, 255, 255), width=2)
    chars.append((0x4E00 + index, x, y, cell_w, cell_h, 0, 2, cell_w + 1, page))
names = [f"pages/big_{n}.png" for n in range(len(pages))]
for image, name in zip(pages, names):
    image.save(os.path.join(out, name))
kerning = [(0x4E00 + rng.randrange(count), 0x4E00 + rng.randrange(count), -rng.randrange(1, 4)) for _ in range(2000)]
kerning = list({(a, b): k for a, b, k in kerning}.items())

with open(os.path.join(out, "big-text.fnt"), "w") as f:
    f.write(f'info face="Big" size=22 bold=0 italic=0 charset="" unicode=1 stretchH=100 smooth=1 aa=1 padding=0,0,0,0 spacing=1,1 outline=0\n')
    f.write(f"common lineHeight=24 base=20 scaleW={side} scaleH={side} pages={len(names)} packed=0 alphaChnl=0 redChnl=4 greenChnl=4 blueChnl=4\n")
    for n, name in enumerate(names):
        f.write(f'page id={n} file="{name}"\n')
    f.write(f"chars count={len(chars)}\n")
    for c in chars:
        f.write("char id=%d x=%d y=%d width=%d height=%d xoffset=%d yoffset=%d xadvance=%d page=%d chnl=15\n" % c)
    f.write(f"kernings count={len(kerning)}\n")
    for (a, b), k in kerning:
        f.write(f"kerning first={a} second={b} amount={k}\n")

with open(os.path.join(out, "big-xml.fnt"), "w") as f:
    f.write('<?xml version="1.0"?>\n<font>\n')
    f.write('<info face="Big" size="22" unicode="1" smooth="1" aa="1" padding="0,0,0,0" spacing="1,1"/>\n')
    f.write(f'<common lineHeight="24" base="20" scaleW="{side}" scaleH="{side}" pages="{len(names)}" packed="0"/>\n<pages>\n')
    for n, name in enumerate(names):
        f.write(f'<page id="{n}" file="{name}"/>\n')
    f.write(f'</pages>\n<chars count="{len(chars)}">\n')
    for c in chars:
        f.write('<char id="%d" x="%d" y="%d" width="%d" height="%d" xoffset="%d" yoffset="%d" xadvance="%d" page="%d" chnl="15"/>\n' % c)
    f.write(f'</chars>\n<kernings count="{len(kerning)}">\n')
    for (a, b), k in kerning:
        f.write(f'<kerning first="{a}" second="{b}" amount="{k}"/>\n')
    f.write("</kernings>\n</font>\n")


def block(kind, payload):
    return struct.pack("<BI", kind, len(payload)) + payload


with open(os.path.join(out, "big-binary.fnt"), "wb") as f:
    info = struct.pack("<hBBHB4B2BB", 22, 3, 0, 100, 1, 0, 0, 0, 0, 1, 1, 0) + b"Big\0"
    common = struct.pack("<5HB4B", 24, 20, side, side, len(names), 0, 0, 4, 4, 4)
    f.write(b"BMF\x03" + block(1, info) + block(2, common) + block(3, b"".join(n.encode() + b"\0" for n in names)))
    f.write(block(4, b"".join(struct.pack("<I4H3hBB", *c, 15) for c in chars)))
    f.write(block(5, b"".join(struct.pack("<IIh", a, b, k) for (a, b), k in kerning)))
print(f"{len(chars)} glyphs on {len(names)} pages, {len(kerning)} kerning pairs in {out}")
