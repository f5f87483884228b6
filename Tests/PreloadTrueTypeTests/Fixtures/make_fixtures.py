#!/usr/bin/env python3
"""Makes the TrueType plugin's fonts and what FreeType renders from them, independently of the plugin.

Usage: python3 Tests/PreloadTrueTypeTests/Fixtures/make_fixtures.py
(needs fontTools, `pip install fonttools` (4.68.0 wrote the committed files), Debian's
fonts-dejavu-core and libfreetype6).

Fonts, subset from Debian's DejaVu Sans (fonts-dejavu-core: Bitstream Vera licence with public
domain changes, copied to sample-assets/fonts/DejaVuSans-LICENSE.txt) with fontTools' subsetter,
keeping the `kern` table (which FreeType's FT_Get_Kerning reads), the hinting instructions and the
.notdef glyph's box:

  sample-assets/fonts/DejaVuSans.ttf  DejaVu Sans, Latin-1 (U+0020-007E, U+00A0-00FF): the sample
                                      game's font, and the tests'
  Fixtures/pair.ttc                   a collection of two faces, DejaVu Sans and DejaVu Sans Bold,
                                      each for a few characters

`expected.json` records, for each case, what the system's libfreetype.so.6 renders, called through
ctypes with FreeType's structures declared here by hand (not through the plugin, which uses
FreeType's headers): FT_New_Face, FT_Set_Pixel_Sizes, then for each character FT_Load_Char with
FT_LOAD_RENDER and the case's flags. For each character: its glyph index (0: the face lacks it),
the bitmap's width, rows, left and top, the advance rounded to whole pixels ((x + 32) >> 6), and
the SHA-256 of its coverage rows without the pitch's padding (a 1-bit bitmap's bits as 0 or 255);
the same for the .notdef glyph (glyph 0, through FT_Load_Glyph); the face's family name and style
flags; line height and base (the size metrics' height and ascender, rounded the same way); and the
kerning pairs FT_Get_Kerning (FT_KERNING_DEFAULT) gives between the face's characters that are
not 0.
"""
import ctypes
import hashlib
import json
import os
import shutil
import subprocess
import sys

from fontTools.ttLib import TTFont
from fontTools.ttLib.ttCollection import TTCollection

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
DEJAVU = "/usr/share/fonts/truetype/dejavu"
SAMPLE = os.path.join(ROOT, "sample-assets", "fonts", "DejaVuSans.ttf")
PAIR = os.path.join(HERE, "pair.ttc")
PAIR_CHARACTERS = " .,0123456789AVTWYaeo"


def subset(source, output, unicodes, *options):
    """The characters `unicodes` of `source`, with the `kern` table and the .notdef glyph's outline."""
    subprocess.run(
        [sys.executable, "-m", "fontTools.subset", source, "--unicodes=" + unicodes, "--legacy-kern", "--notdef-outline",
         "--drop-tables+=MATH,FFTM", "--output-file=" + output, *options],
        check=True, stderr=subprocess.DEVNULL)


def make_fonts():
    os.makedirs(os.path.dirname(SAMPLE), exist_ok=True)
    shutil.copyfile("/usr/share/doc/fonts-dejavu-core/copyright", os.path.join(os.path.dirname(SAMPLE), "DejaVuSans-LICENSE.txt"))
    # Every name record kept: the copyright and licence travel inside the font too.
    subset(os.path.join(DEJAVU, "DejaVuSans.ttf"), SAMPLE, "U+0020-007E,U+00A0-00FF", "--name-IDs=*", "--name-languages=*")
    faces = []
    for name in ["DejaVuSans", "DejaVuSans-Bold"]:
        path = os.path.join(HERE, name + "-pair.ttf")
        subset(os.path.join(DEJAVU, name + ".ttf"), path, ",".join("U+%04X" % ord(c) for c in PAIR_CHARACTERS),
               "--drop-tables+=GPOS,GSUB,GDEF")
        faces.append(path)
    collection = TTCollection()
    collection.fonts = [TTFont(path) for path in faces]
    collection.save(PAIR, shareTables=True)
    for path in faces:
        os.remove(path)


# FreeType's public structures, as far as the fields read here (freetype.h, 2.12.1, LP64).
FT_Pos = FT_Fixed = FT_Long = ctypes.c_long


class Generic(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("finalizer", ctypes.c_void_p)]


class Vector(ctypes.Structure):
    _fields_ = [("x", FT_Pos), ("y", FT_Pos)]


class Bitmap(ctypes.Structure):
    _fields_ = [("rows", ctypes.c_uint), ("width", ctypes.c_uint), ("pitch", ctypes.c_int), ("buffer", ctypes.POINTER(ctypes.c_ubyte)),
                ("num_grays", ctypes.c_ushort), ("pixel_mode", ctypes.c_ubyte), ("palette_mode", ctypes.c_ubyte),
                ("palette", ctypes.c_void_p)]


class GlyphSlot(ctypes.Structure):
    _fields_ = [("library", ctypes.c_void_p), ("face", ctypes.c_void_p), ("next", ctypes.c_void_p), ("glyph_index", ctypes.c_uint),
                ("generic", Generic), ("metrics", FT_Pos * 8), ("linearHoriAdvance", FT_Fixed), ("linearVertAdvance", FT_Fixed),
                ("advance", Vector), ("format", ctypes.c_int), ("bitmap", Bitmap), ("bitmap_left", ctypes.c_int),
                ("bitmap_top", ctypes.c_int)]


class SizeMetrics(ctypes.Structure):
    _fields_ = [("x_ppem", ctypes.c_ushort), ("y_ppem", ctypes.c_ushort), ("x_scale", FT_Fixed), ("y_scale", FT_Fixed),
                ("ascender", FT_Pos), ("descender", FT_Pos), ("height", FT_Pos), ("max_advance", FT_Pos)]


class Size(ctypes.Structure):
    _fields_ = [("face", ctypes.c_void_p), ("generic", Generic), ("metrics", SizeMetrics)]


class Face(ctypes.Structure):
    _fields_ = [("num_faces", FT_Long), ("face_index", FT_Long), ("face_flags", FT_Long), ("style_flags", FT_Long),
                ("num_glyphs", FT_Long), ("family_name", ctypes.c_char_p), ("style_name", ctypes.c_char_p),
                ("num_fixed_sizes", ctypes.c_int), ("available_sizes", ctypes.c_void_p), ("num_charmaps", ctypes.c_int),
                ("charmaps", ctypes.c_void_p), ("generic", Generic), ("bbox", FT_Pos * 4), ("units_per_EM", ctypes.c_ushort),
                ("ascender", ctypes.c_short), ("descender", ctypes.c_short), ("height", ctypes.c_short),
                ("max_advance_width", ctypes.c_short), ("max_advance_height", ctypes.c_short),
                ("underline_position", ctypes.c_short), ("underline_thickness", ctypes.c_short),
                ("glyph", ctypes.POINTER(GlyphSlot)), ("size", ctypes.POINTER(Size)), ("charmap", ctypes.c_void_p)]


ft = ctypes.CDLL("libfreetype.so.6")
ft.FT_Init_FreeType.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
ft.FT_New_Face.argtypes = [ctypes.c_void_p, ctypes.c_char_p, FT_Long, ctypes.POINTER(ctypes.POINTER(Face))]
ft.FT_Set_Pixel_Sizes.argtypes = [ctypes.POINTER(Face), ctypes.c_uint, ctypes.c_uint]
ft.FT_Load_Char.argtypes = [ctypes.POINTER(Face), ctypes.c_ulong, ctypes.c_int32]
ft.FT_Load_Glyph.argtypes = [ctypes.POINTER(Face), ctypes.c_uint, ctypes.c_int32]
ft.FT_Get_Char_Index.argtypes = [ctypes.POINTER(Face), ctypes.c_ulong]
ft.FT_Get_Char_Index.restype = ctypes.c_uint
ft.FT_Get_Kerning.argtypes = [ctypes.POINTER(Face), ctypes.c_uint, ctypes.c_uint, ctypes.c_uint, ctypes.POINTER(Vector)]
ft.FT_Done_Face.argtypes = [ctypes.POINTER(Face)]

FT_LOAD_RENDER = 1 << 2
FT_LOAD_NO_HINTING = 1 << 1
FT_LOAD_TARGET_LIGHT = 1 << 16
FT_LOAD_TARGET_MONO = 2 << 16
FT_PIXEL_MODE_MONO, FT_PIXEL_MODE_GRAY = 1, 2
FT_FACE_FLAG_KERNING = 1 << 6
FLAGS = {"normal": 0, "light": FT_LOAD_TARGET_LIGHT, "off": FT_LOAD_NO_HINTING, "mono": FT_LOAD_TARGET_MONO}

library = ctypes.c_void_p()
assert ft.FT_Init_FreeType(ctypes.byref(library)) == 0


def pixels(value):
    return (value + 32) >> 6


def coverage(bitmap):
    """The bitmap's rows, top first, without the pitch's padding: one byte a pixel, 0 to 255."""
    rows = []
    for row in range(bitmap.rows):
        start = row * bitmap.pitch if bitmap.pitch >= 0 else (bitmap.rows - 1 - row) * -bitmap.pitch
        line = bytes(bitmap.buffer[start:start + abs(bitmap.pitch)])
        if bitmap.pixel_mode == FT_PIXEL_MODE_MONO:
            rows.append(bytes(255 if line[x >> 3] & (0x80 >> (x & 7)) else 0 for x in range(bitmap.width)))
        else:
            assert bitmap.pixel_mode == FT_PIXEL_MODE_GRAY and bitmap.num_grays == 256
            rows.append(line[:bitmap.width])
    return b"".join(rows)


def glyph_record(slot, code=None, index=None):
    bitmap = slot.bitmap
    record = dict(width=bitmap.width, rows=bitmap.rows, left=slot.bitmap_left, top=slot.bitmap_top, advance=pixels(slot.advance.x),
                  sha256=hashlib.sha256(coverage(bitmap)).hexdigest())
    if code is not None:
        record = dict(code=code, glyph=index, **record)
    return record


def render(path, face_index, size, hinting, codes):
    face = ctypes.POINTER(Face)()
    assert ft.FT_New_Face(library, path.encode(), face_index, ctypes.byref(face)) == 0, path
    assert ft.FT_Set_Pixel_Sizes(face, 0, size) == 0
    flags = FLAGS[hinting] | FT_LOAD_RENDER
    glyphs, present = [], []
    for code in codes:
        index = ft.FT_Get_Char_Index(face, code)
        if index == 0:
            glyphs.append(dict(code=code, glyph=0))
            continue
        assert ft.FT_Load_Char(face, code, flags) == 0, code
        glyphs.append(glyph_record(face.contents.glyph.contents, code, index))
        present.append((code, index))
    assert ft.FT_Load_Glyph(face, 0, flags) == 0
    notdef = glyph_record(face.contents.glyph.contents)
    kerning = []
    if face.contents.face_flags & FT_FACE_FLAG_KERNING:
        vector = Vector()
        for first, left in present:
            for second, right in present:
                assert ft.FT_Get_Kerning(face, left, right, 0, ctypes.byref(vector)) == 0
                if pixels(vector.x) != 0:
                    kerning.append(dict(first=first, second=second, amount=pixels(vector.x)))
    metrics = face.contents.size.contents.metrics
    result = dict(family=face.contents.family_name.decode(), bold=bool(face.contents.style_flags & 2),
                  italic=bool(face.contents.style_flags & 1), lineHeight=pixels(metrics.height), base=pixels(metrics.ascender),
                  glyphs=glyphs, notdef=notdef, kerning=kerning)
    ft.FT_Done_Face(face)
    return result


ASCII = list(range(32, 127))
LATIN1 = ASCII + list(range(160, 256))
# name: font (relative to the repository), face, pixel size, hinting ("mono": normal hinting, 1-bit), characters
CASES = {
    "latin1-32": ("sample-assets/fonts/DejaVuSans.ttf", 0, 32, "normal", LATIN1),
    "ascii-13": ("sample-assets/fonts/DejaVuSans.ttf", 0, 13, "normal", ASCII),
    "ascii-64-unhinted": ("sample-assets/fonts/DejaVuSans.ttf", 0, 64, "off", ASCII),
    "ascii-24-light": ("sample-assets/fonts/DejaVuSans.ttf", 0, 24, "light", ASCII),
    "ascii-20-mono": ("sample-assets/fonts/DejaVuSans.ttf", 0, 20, "mono", ASCII),
    "pair-bold-24": ("Tests/PreloadTrueTypeTests/Fixtures/pair.ttc", 1, 24, "normal", sorted(ord(c) for c in PAIR_CHARACTERS + "b")),
}


def main():
    make_fonts()
    cases = {}
    for name, (font, face_index, size, hinting, codes) in CASES.items():
        case = dict(font=font, face=face_index, size=size, hinting=hinting, characters=codes)
        case.update(render(os.path.join(ROOT, font), face_index, size, hinting, codes))
        cases[name] = case
        drawn = sum(1 for glyph in case["glyphs"] if glyph["glyph"] != 0)
        print(f"{name}: {drawn} glyphs, {len(case['kerning'])} kerning pairs")
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(cases, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
