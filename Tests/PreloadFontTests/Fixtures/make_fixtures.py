#!/usr/bin/env python3
"""Writes one bitmap font in AngelCode BMFont's three encodings, and the numbers they hold.

The glyphs of ASCII 32-126 (and a missing-character glyph, id -1) are rendered from DejaVu Sans
(Debian's fonts-dejavu-core; Bitstream Vera licence, in the project's sample-assets) with Pillow
and shelf-packed onto 128x128 pages; a few kerning pairs are made up. The same table is then
written by this script's own writers as:

  font-text.fnt    the text form, CRLF line ends (as BMFont writes on Windows)
  font-xml.fnt     the XML form (as Phaser's bitmapFont reads)
  font-binary.fnt  the binary form, version 3 (AngelCode's documented block layout)
  font_N.png       the pages
  expected.json    every number, for the tests to compare each reading with

Run from anywhere: python3 make_fixtures.py (needs Pillow).
"""
import json
import os
import struct

from PIL import Image, ImageDraw, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
FACE = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SIZE = 20
PAGE = 128
SPACING = 1


def glyph_images():
    font = ImageFont.truetype(FACE, SIZE)
    ascent, descent = font.getmetrics()
    glyphs = []
    for code in [-1] + list(range(32, 127)):
        if code == -1:  # a box, drawn
            image = Image.new("L", (10, 14), 0)
            ImageDraw.Draw(image).rectangle([0, 0, 9, 13], outline=255)
            glyphs.append((code, image, 1, 4, 12))
            continue
        ch = chr(code)
        left, top, right, bottom = font.getbbox(ch)
        advance = round(font.getlength(ch))
        if right <= left or bottom <= top:
            glyphs.append((code, None, 0, 0, advance))
            continue
        image = Image.new("L", (right - left, bottom - top), 0)
        ImageDraw.Draw(image).text((-left, -top), ch, font=font, fill=255)
        glyphs.append((code, image, left, top, advance))
    return glyphs, ascent + descent, ascent


def pack(glyphs):
    pages = [Image.new("RGBA", (PAGE, PAGE), (255, 255, 255, 0))]
    x = y = row = 0
    table = []
    for code, image, xoffset, yoffset, advance in glyphs:
        if image is None:
            table.append(dict(id=code, x=0, y=0, width=0, height=0, xoffset=xoffset, yoffset=yoffset, xadvance=advance, page=0, chnl=15))
            continue
        w, h = image.size
        if x + w > PAGE:
            x, y, row = 0, y + row + SPACING, 0
        if y + h > PAGE:
            pages.append(Image.new("RGBA", (PAGE, PAGE), (255, 255, 255, 0)))
            x = y = row = 0
        page = len(pages) - 1
        white = Image.new("RGBA", image.size, (255, 255, 255, 255))
        pages[page].paste(white, (x, y), image)
        table.append(dict(id=code, x=x, y=y, width=w, height=h, xoffset=xoffset, yoffset=yoffset, xadvance=advance, page=page, chnl=15))
        x += w + SPACING
        row = max(row, h)
    return pages, table


KERNING = [(ord("A"), ord("V"), -2), (ord("V"), ord("A"), -2), (ord("T"), ord("o"), -3), (ord("L"), ord("T"), -2), (ord("A"), ord("T"), -1)]


def info(line_height, base, page_count):
    return dict(
        face="DejaVu Sans", size=SIZE, bold=0, italic=0, charset="", unicode=1, stretchH=100, smooth=1, aa=1,
        padding=[0, 0, 0, 0], spacing=[SPACING, SPACING], outline=0, lineHeight=line_height, base=base,
        scaleW=PAGE, scaleH=PAGE, pages=page_count, packed=0, alphaChnl=0, redChnl=4, greenChnl=4, blueChnl=4)


def write_text(path, meta, pages, table):
    lines = [
        f'info face="{meta["face"]}" size={meta["size"]} bold=0 italic=0 charset="" unicode=1 stretchH=100 smooth=1 aa=1 '
        f'padding=0,0,0,0 spacing={SPACING},{SPACING} outline=0',
        f'common lineHeight={meta["lineHeight"]} base={meta["base"]} scaleW={PAGE} scaleH={PAGE} pages={len(pages)} packed=0 '
        f'alphaChnl=0 redChnl=4 greenChnl=4 blueChnl=4',
    ]
    lines += [f'page id={i} file="{name}"' for i, name in enumerate(pages)]
    lines.append(f"chars count={len(table)}")
    for g in table:
        lines.append(
            "char id={id:<4} x={x:<5} y={y:<5} width={width:<5} height={height:<5} xoffset={xoffset:<5} yoffset={yoffset:<5} "
            "xadvance={xadvance:<5} page={page:<2} chnl={chnl:<2}".format(**g))
    lines.append(f"kernings count={len(KERNING)}")
    lines += [f"kerning first={a:<3} second={b:<3} amount={k}" for a, b, k in KERNING]
    with open(path, "wb") as f:
        f.write(("\r\n".join(lines) + "\r\n").encode())


def write_xml(path, meta, pages, table):
    out = ['<?xml version="1.0"?>', "<font>"]
    out.append(
        f'  <info face="{meta["face"]}" size="{meta["size"]}" bold="0" italic="0" charset="" unicode="1" stretchH="100" smooth="1" '
        f'aa="1" padding="0,0,0,0" spacing="{SPACING},{SPACING}" outline="0"/>')
    out.append(
        f'  <common lineHeight="{meta["lineHeight"]}" base="{meta["base"]}" scaleW="{PAGE}" scaleH="{PAGE}" pages="{len(pages)}" '
        f'packed="0" alphaChnl="0" redChnl="4" greenChnl="4" blueChnl="4"/>')
    out.append("  <pages>")
    out += [f'    <page id="{i}" file="{name}" />' for i, name in enumerate(pages)]
    out.append("  </pages>")
    out.append(f'  <chars count="{len(table)}">')
    for g in table:
        out.append(
            '    <char id="{id}" x="{x}" y="{y}" width="{width}" height="{height}" xoffset="{xoffset}" yoffset="{yoffset}" '
            'xadvance="{xadvance}" page="{page}" chnl="{chnl}" />'.format(**g))
    out.append("  </chars>")
    out.append(f'  <kernings count="{len(KERNING)}">')
    out += [f'    <kerning first="{a}" second="{b}" amount="{k}" />' for a, b, k in KERNING]
    out.append("  </kernings>")
    out.append("</font>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def write_binary(path, meta, pages, table):
    def block(kind, payload):
        return struct.pack("<BI", kind, len(payload)) + payload

    flags = 1 | 2  # smooth, unicode
    info_block = struct.pack("<hBBHB4B2BB", SIZE, flags, 0, 100, 1, 0, 0, 0, 0, SPACING, SPACING, 0) + meta["face"].encode() + b"\0"
    common = struct.pack("<5HB4B", meta["lineHeight"], meta["base"], PAGE, PAGE, len(pages), 0, 0, 4, 4, 4)
    names = b"".join(name.encode() + b"\0" for name in pages)
    chars = b"".join(
        struct.pack("<I4H3hBB", g["id"] & 0xFFFFFFFF, g["x"], g["y"], g["width"], g["height"], g["xoffset"], g["yoffset"], g["xadvance"], g["page"], g["chnl"])
        for g in table)
    kerning = b"".join(struct.pack("<IIh", a, b, k) for a, b, k in KERNING)
    with open(path, "wb") as f:
        f.write(b"BMF\x03" + block(1, info_block) + block(2, common) + block(3, names) + block(4, chars) + block(5, kerning))


def main():
    glyphs, line_height, base = glyph_images()
    images, table = pack(glyphs)
    names = [f"font_{i}.png" for i in range(len(images))]
    for image, name in zip(images, names):
        image.save(os.path.join(HERE, name), optimize=True)
    meta = info(line_height, base, len(names))
    write_text(os.path.join(HERE, "font-text.fnt"), meta, names, table)
    write_xml(os.path.join(HERE, "font-xml.fnt"), meta, names, table)
    write_binary(os.path.join(HERE, "font-binary.fnt"), meta, names, table)
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(dict(metrics=meta, pages=names, chars=table, kernings=[dict(first=a, second=b, amount=k) for a, b, k in KERNING]), f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
