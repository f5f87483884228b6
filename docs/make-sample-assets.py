#!/usr/bin/env python3
"""Regenerates sample-assets/: a small, deterministic set of game-like PNGs.

Needs Pillow (pip install pillow). The committed files are what the README's first command
loads; this script only documents how they were made.
  sprites/      RGBA sprites with soft alpha edges
  tiles/        a palette (indexed) tile with a transparent colour, a grayscale tile
  masks/        an 8-bit grayscale light mask
  backgrounds/  one 1280x720 RGB background
  data/         a 16-bit grayscale height map (load with 16-bit samples kept), gzipped dialogue
  atlases/      a sprite folder and a TexturePacker atlas
  packs/        level1.pak (written here by an independent reader of docs/pack-format.md) with a
                level, a sprite, an atlas and audio; extras.zip written by Python's zipfile
  audio/        jump.wav and coin.wav (22,050 Hz mono 16-bit: sounds) and theme.wav (a 12-second
                tune at 11,025 Hz mono 8-bit, longer than a sound's 10 seconds: music), all WAV so
                that they load without any audio library; synthesised here, no licence to carry
  fonts/        pixel.fnt, a 5x7 pixel font drawn here (AngelCode BMFont text, one page, two
                kerning pairs)
  maps/         level1.tmx, a 24x8 Tiled map of 16x16 tiles (CSV layers, flipped tiles, a spawn
                point), its external tileset terrain.tsx and the tileset's image terrain.png (a
                1-pixel margin and spacing), drawn here
  animations/   hero-walk.aseprite, written from sprites/hero.png by make-sample-animation.py
"""
import math, os, random, sys
from PIL import Image, ImageDraw, ImageFilter

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "sample-assets")
rng = random.Random(7)
for sub in ("sprites", "tiles", "masks", "backgrounds", "data"):
    os.makedirs(os.path.join(out, sub), exist_ok=True)

def sprite(size, body, eye):
    im = Image.new("RGBA", (size * 4, size * 4), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    s = size * 4
    d.ellipse([s * 0.1, s * 0.2, s * 0.9, s * 0.95], fill=body + (255,), outline=(20, 20, 30, 255), width=6)
    d.ellipse([s * 0.3, s * 0.4, s * 0.45, s * 0.55], fill=(255, 255, 255, 255))
    d.ellipse([s * 0.55, s * 0.4, s * 0.7, s * 0.55], fill=(255, 255, 255, 255))
    d.ellipse([s * 0.35, s * 0.45, s * 0.42, s * 0.52], fill=eye + (255,))
    d.ellipse([s * 0.6, s * 0.45, s * 0.67, s * 0.52], fill=eye + (255,))
    return im.resize((size, size), Image.LANCZOS)  # soft, partially transparent edges

sprite(64, (220, 60, 60), (10, 10, 40)).save(os.path.join(out, "sprites", "hero.png"))
sprite(48, (60, 200, 90), (40, 10, 10)).save(os.path.join(out, "sprites", "slime.png"))
coin = Image.new("RGBA", (128, 128), (0, 0, 0, 0))
d = ImageDraw.Draw(coin)
d.ellipse([8, 8, 120, 120], fill=(250, 200, 40, 255), outline=(150, 100, 10, 255), width=8)
d.text((52, 44), "$", fill=(150, 100, 10, 255))
coin.resize((32, 32), Image.LANCZOS).save(os.path.join(out, "sprites", "coin.png"))

grass = Image.new("RGB", (64, 64), (70, 140, 60))
d = ImageDraw.Draw(grass)
for _ in range(180):
    x, y = rng.randrange(64), rng.randrange(64)
    d.line([x, y, x + rng.randint(-2, 2), y - rng.randint(2, 6)], fill=(40 + rng.randrange(60), 170 + rng.randrange(60), 50))
d.rectangle([0, 0, 7, 7], fill=(255, 0, 255))  # a key colour, made transparent below
tile = grass.quantize(colors=16)
key = tile.getpixel((0, 0))
tile.save(os.path.join(out, "tiles", "grass_tile.png"), transparency=key)
stone = Image.new("L", (32, 32))
stone.putdata([90 + ((x * 7 + y * 13) % 40) + rng.randrange(20) for y in range(32) for x in range(32)])
stone.save(os.path.join(out, "tiles", "stone_gray.png"))

mask = Image.new("L", (128, 128))
mask.putdata([max(0, 255 - int(math.hypot(x - 64, y - 64) * 4)) for y in range(128) for x in range(128)])
mask.save(os.path.join(out, "masks", "light_mask.png"))

bg = Image.new("RGB", (1280, 720))
d = ImageDraw.Draw(bg)
for y in range(720):
    t = y / 720
    d.line([(0, y), (1280, y)], fill=(int(30 + 80 * t), int(60 + 120 * t), int(140 + 60 * t)))
for _ in range(25):
    x, y, r = rng.randrange(1280), rng.randrange(200, 720), rng.randrange(40, 160)
    d.ellipse([x - r, y - r, x + r, y + r], fill=(30 + rng.randrange(40), 90 + rng.randrange(60), 40))
bg.filter(ImageFilter.GaussianBlur(1.5)).save(os.path.join(out, "backgrounds", "forest.png"))

height = Image.new("I;16", (256, 256))
height.putdata([int(32767 + 20000 * math.sin(x / 23) * math.cos(y / 31)) for y in range(256) for x in range(256)])
height.save(os.path.join(out, "data", "terrain_height16.png"))

# Atlases: a sprite folder (packed when loaded) and a TexturePacker JSON hash atlas with a
# rotated, trimmed frame, written by its own conventions (rotated = stored 90 deg clockwise).
creatures = os.path.join(out, "atlases", "creatures.atlas")
os.makedirs(creatures, exist_ok=True)
for name, body, eye, size in [("hero", (220, 60, 60), (10, 10, 40), 40), ("slime", (60, 200, 90), (40, 10, 10), 32),
                              ("bat", (120, 80, 160), (250, 250, 0), 28)]:
    sprite(size, body, eye).save(os.path.join(creatures, name + ".png"))
    sprite(size * 2, body, eye).save(os.path.join(creatures, name + "@2x.png"))

ui = os.path.join(out, "atlases", "ui")
os.makedirs(ui, exist_ok=True)
button = Image.new("RGBA", (48, 20), (0, 0, 0, 0))
ImageDraw.Draw(button).rounded_rectangle([2, 2, 45, 17], radius=5, fill=(70, 130, 220, 255), outline=(20, 40, 90, 255))
bar = Image.new("RGBA", (12, 40), (0, 0, 0, 0))
ImageDraw.Draw(bar).rectangle([3, 1, 8, 38], fill=(230, 60, 60, 255))
page = Image.new("RGBA", (64, 32), (0, 0, 0, 0))
page.paste(button, (0, 0))
trimmed_bar = bar.crop(bar.getbbox())  # 6 x 38
page.paste(trimmed_bar.transpose(Image.ROTATE_270), (0, 22))  # stored 90 degrees clockwise: 38 x 6
page.save(os.path.join(ui, "ui.png"))
import json
json.dump({"frames": {
    "button.png": {"frame": {"x": 0, "y": 0, "w": 48, "h": 20}, "rotated": False, "trimmed": False,
                   "spriteSourceSize": {"x": 0, "y": 0, "w": 48, "h": 20}, "sourceSize": {"w": 48, "h": 20}},
    "health_bar.png": {"frame": {"x": 0, "y": 22, "w": 6, "h": 38}, "rotated": True, "trimmed": True,
                       "spriteSourceSize": {"x": 3, "y": 1, "w": 6, "h": 38}, "sourceSize": {"w": 12, "h": 40}}},
    "meta": {"app": "make-sample-assets.py", "image": "ui.png", "format": "RGBA8888", "size": {"w": 64, "h": 32}, "scale": "1"}},
    open(os.path.join(ui, "ui.json"), "w"), indent=1)


# Packs. level1.pak is written straight from docs/pack-format.md, independently of the Swift
# writer, so the committed file also checks that the format's description is enough to write it.
import gzip, io, struct, zipfile, zlib


def png_bytes(image):
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def write_pak(path, files):
    """files: {name: bytes}. Entries sorted by name bytes; zlib level 6 unless that does not shrink."""
    data, records = b"", b""
    for name in sorted(files, key=lambda n: n.encode()):
        raw = files[name]
        packed = zlib.compress(raw, 6)
        method, stored = (1, packed) if len(packed) < len(raw) else (0, raw)
        encoded = name.encode()
        records += struct.pack("<H", len(encoded)) + encoded
        records += struct.pack("<QQQBI", 40 + len(data), len(stored), len(raw), method, zlib.crc32(raw))
        data += stored
    header = b"PRLPAK\r\n" + struct.pack("<HHIQQI", 1, 0, len(files), 40 + len(data), len(records), zlib.crc32(records))
    header += struct.pack("<I", zlib.crc32(header))
    with open(path, "wb") as f:
        f.write(header + data + records)


packs = os.path.join(out, "packs")
os.makedirs(packs, exist_ok=True)
tiles = [[(3 if y in (0, 23) or x in (0, 39) else (1 if (x * 7 + y * 3) % 11 == 0 else 0)) for x in range(40)] for y in range(24)]
level = {"name": "Forest edge", "size": [40, 24], "tiles": tiles,
         "spawns": [{"kind": "slime", "at": [12, 20]}, {"kind": "bat", "at": [30, 6]}], "music": "audio/ambience.raw"}
hud_page = Image.new("RGBA", (64, 16), (0, 0, 0, 0))
hd = ImageDraw.Draw(hud_page)
hd.polygon([(8, 1), (10, 6), (15, 6), (11, 9), (13, 15), (8, 11), (3, 15), (5, 9), (1, 6), (6, 6)], fill=(250, 210, 40, 255))
hd.ellipse([18, 2, 29, 13], fill=(220, 40, 60, 255))
hd.rectangle([34, 4, 63, 11], fill=(60, 160, 230, 255), outline=(20, 40, 90, 255))
frame = lambda x, w: {"frame": {"x": x, "y": 0, "w": w, "h": 16}, "rotated": False, "trimmed": False,
                      "spriteSourceSize": {"x": 0, "y": 0, "w": w, "h": 16}, "sourceSize": {"w": w, "h": 16}}
hud = {"frames": {"star.png": frame(0, 16), "heart.png": frame(16, 16), "mana_bar.png": frame(32, 32)},
       "meta": {"app": "make-sample-assets.py", "image": "hud.png", "format": "RGBA8888", "size": {"w": 64, "h": 16}, "scale": "1"}}
ambience = b"".join(struct.pack("<h", int(6000 * math.sin(i / 9.0) + 2000 * math.sin(i / 2.3))) for i in range(32000))
write_pak(os.path.join(packs, "level1.pak"), {
    "level.json": json.dumps(level, indent=1).encode(),
    "sprites/bat.png": png_bytes(sprite(28, (120, 80, 160), (250, 250, 0))),
    "hud/hud.json": json.dumps(hud, indent=1).encode(),
    "hud/hud.png": png_bytes(hud_page),
    "audio/ambience.raw": ambience,
})
with zipfile.ZipFile(os.path.join(packs, "extras.zip"), "w", zipfile.ZIP_DEFLATED) as z:
    for name, payload in [("credits.txt", b"Preload sample assets: made by docs/make-sample-assets.py\n"),
                          ("icons/coin.png", png_bytes(Image.open(os.path.join(out, "sprites", "coin.png"))))]:
        z.writestr(zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0)), payload, zipfile.ZIP_DEFLATED)
dialogue = {"lines": [{"who": "hero", "text": "Is anyone there?"}, {"who": "slime", "text": "Blub."}] * 20}
with gzip.GzipFile(os.path.join(out, "data", "dialogue.json.gz"), "wb", mtime=0) as g:
    g.write(json.dumps(dialogue, indent=1).encode())


# Audio: WAV, which the audio plugin reads itself.
def write_wav(path, rate, samples, bits):
    if bits == 8:
        data = bytes(max(0, min(255, round(128 + 127 * s))) for s in samples)
    else:
        data = b"".join(struct.pack("<h", max(-32768, min(32767, round(32767 * s)))) for s in samples)
    block = bits // 8
    fmt = struct.pack("<HHIIHH", 1, 1, rate, rate * block, block, bits)
    body = b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt + b"data" + struct.pack("<I", len(data)) + data
    if len(data) % 2:
        body += b"\0"
    with open(path, "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", len(body)) + body)


def jump(rate=22050, seconds=0.25):
    n = int(rate * seconds)
    phase, out = 0.0, []
    for i in range(n):
        t = i / n
        phase += 2 * math.pi * (300 + 900 * t) / rate
        out.append(0.6 * (1 - t) * (1 if math.sin(phase) >= 0 else -1) * 0.5)
    return out


def coin(rate=22050, seconds=0.3):
    n = int(rate * seconds)
    out = []
    for i in range(n):
        t = i / rate
        pitch = 988 if t < 0.08 else 1319
        out.append(0.5 * math.exp(-6 * t) * math.sin(2 * math.pi * pitch * t))
    return out


def theme(rate=11025, seconds=12.0):
    notes = [262, 330, 392, 523, 392, 330, 294, 349, 440, 587, 440, 349]  # a bar of C, a bar of Dm, twice
    beat = seconds / (len(notes) * 2)
    out = []
    for i in range(int(rate * seconds)):
        t = i / rate
        note = notes[int(t / beat) % len(notes)]
        within = (t % beat) / beat
        melody = 0.35 * math.sin(2 * math.pi * note * t) * (1 - 0.7 * within)
        bass = 0.2 * math.sin(2 * math.pi * notes[(int(t / beat) // 4 * 4) % len(notes)] / 2 * t)
        out.append(melody + bass)
    return out


os.makedirs(os.path.join(out, "audio"), exist_ok=True)
write_wav(os.path.join(out, "audio", "jump.wav"), 22050, jump(), 16)
write_wav(os.path.join(out, "audio", "coin.wav"), 22050, coin(), 16)
write_wav(os.path.join(out, "audio", "theme.wav"), 11025, theme(), 8)


# Fonts: a 5x7 pixel font drawn here (no licence to carry), as AngelCode BMFont text, its glyphs
# scaled 2x onto one 128x64 page with a pixel of spacing, and two kerning pairs.
PIXEL_GLYPHS = {
    "A": "01110 10001 10001 11111 10001 10001 10001", "B": "11110 10001 10001 11110 10001 10001 11110",
    "C": "01110 10001 10000 10000 10000 10001 01110", "D": "11110 10001 10001 10001 10001 10001 11110",
    "E": "11111 10000 10000 11110 10000 10000 11111", "F": "11111 10000 10000 11110 10000 10000 10000",
    "G": "01110 10001 10000 10111 10001 10001 01111", "H": "10001 10001 10001 11111 10001 10001 10001",
    "I": "01110 00100 00100 00100 00100 00100 01110", "J": "00111 00010 00010 00010 00010 10010 01100",
    "K": "10001 10010 10100 11000 10100 10010 10001", "L": "10000 10000 10000 10000 10000 10000 11111",
    "M": "10001 11011 10101 10101 10001 10001 10001", "N": "10001 10001 11001 10101 10011 10001 10001",
    "O": "01110 10001 10001 10001 10001 10001 01110", "P": "11110 10001 10001 11110 10000 10000 10000",
    "Q": "01110 10001 10001 10001 10101 10010 01101", "R": "11110 10001 10001 11110 10100 10010 10001",
    "S": "01111 10000 10000 01110 00001 00001 11110", "T": "11111 00100 00100 00100 00100 00100 00100",
    "U": "10001 10001 10001 10001 10001 10001 01110", "V": "10001 10001 10001 10001 10001 01010 00100",
    "W": "10001 10001 10001 10101 10101 10101 01010", "X": "10001 10001 01010 00100 01010 10001 10001",
    "Y": "10001 10001 01010 00100 00100 00100 00100", "Z": "11111 00001 00010 00100 01000 10000 11111",
    "0": "01110 10001 10011 10101 11001 10001 01110", "1": "00100 01100 00100 00100 00100 00100 01110",
    "2": "01110 10001 00001 00010 00100 01000 11111", "3": "11111 00010 00100 00010 00001 10001 01110",
    "4": "00010 00110 01010 10010 11111 00010 00010", "5": "11111 10000 11110 00001 00001 10001 01110",
    "6": "00110 01000 10000 11110 10001 10001 01110", "7": "11111 00001 00010 00100 01000 01000 01000",
    "8": "01110 10001 10001 01110 10001 10001 01110", "9": "01110 10001 10001 01111 00001 00010 01100",
    ".": "00000 00000 00000 00000 00000 01100 01100", ",": "00000 00000 00000 00000 01100 00100 01000",
    ":": "00000 01100 01100 00000 01100 01100 00000", "!": "00100 00100 00100 00100 00100 00000 00100",
    "?": "01110 10001 00001 00010 00100 00000 00100", "-": "00000 00000 00000 11111 00000 00000 00000",
    "'": "00100 00100 01000 00000 00000 00000 00000", "/": "00001 00010 00010 00100 01000 01000 10000",
}


def pixel_font(folder, scale=2):
    os.makedirs(folder, exist_ok=True)
    page = Image.new("RGBA", (128, 64), (255, 255, 255, 0))
    chars = [f"char id=32   x=0   y=0   width=0   height=0   xoffset=0   yoffset=0   xadvance={4 * scale}  page=0  chnl=15"]
    x = y = 0
    w, h = 5 * scale, 7 * scale
    for ch, rows in PIXEL_GLYPHS.items():
        if x + w > 128:
            x, y = 0, y + h + 1
        for row, bits in enumerate(rows.split()):
            for col, bit in enumerate(bits):
                if bit == "1":
                    page.paste((255, 255, 255, 255), (x + col * scale, y + row * scale, x + (col + 1) * scale, y + (row + 1) * scale))
        chars.append(
            f"char id={ord(ch):<4} x={x:<3} y={y:<3} width={w:<3} height={h:<3} xoffset=0   yoffset={scale}   "
            f"xadvance={6 * scale:<3} page=0  chnl=15")
        x += w + 1
    page.save(os.path.join(folder, "pixel_0.png"), optimize=True)
    kerning = [("L", "T", -2 * scale // 2), ("T", "A", -scale)]
    lines = [
        'info face="Preload Pixel" size=16 bold=0 italic=0 charset="" unicode=1 stretchH=100 smooth=0 aa=1 padding=0,0,0,0 '
        'spacing=1,1 outline=0',
        f"common lineHeight={9 * scale} base={8 * scale} scaleW=128 scaleH=64 pages=1 packed=0 alphaChnl=0 redChnl=4 greenChnl=4 blueChnl=4",
        'page id=0 file="pixel_0.png"',
        f"chars count={len(chars)}",
        *chars,
        f"kernings count={len(kerning)}",
        *[f"kerning first={ord(a):<3} second={ord(b):<3} amount={k}" for a, b, k in kerning],
    ]
    with open(os.path.join(folder, "pixel.fnt"), "w") as f:
        f.write("\n".join(lines) + "\n")


pixel_font(os.path.join(out, "fonts"))


# Maps: a small Tiled map drawn here (no licence to carry). terrain.png holds eight 16x16 tiles in
# four columns with a 1-pixel margin and spacing (magenta, so a renderer that gets Tiled's
# rectangle arithmetic wrong shows it); terrain.tsx is that tileset, external; level1.tmx is a
# 24x8 orthogonal map (Tiled 1.8's TMX, CSV layers): a ground layer, a decoration layer whose
# tiles are flipped and turned (the flip bits of their global IDs), and an object layer with the
# spawn point.
TILE, COLUMNS, GAP = 16, 4, 1
GRASS, DIRT, WATER, STONE, EDGE, FLOWER, SIGN, ROCK = range(1, 9)  # global IDs (the tileset's first is 1)
FLIP_H, FLIP_V, FLIP_D = 0x80000000, 0x40000000, 0x20000000


def terrain_tiles(rng):
    def tile(colour):
        return Image.new("RGBA", (TILE, TILE), colour)

    grass = tile((70, 150, 60, 255))
    d = ImageDraw.Draw(grass)
    for _ in range(14):
        x, y = rng.randrange(TILE), rng.randrange(3, TILE)
        d.line([x, y, x + rng.choice((-1, 0, 1)), y - 2], fill=(40, 110 + rng.randrange(40), 40, 255))
    dirt = tile((150, 105, 60, 255))
    d = ImageDraw.Draw(dirt)
    for _ in range(8):
        x, y = rng.randrange(TILE - 1), rng.randrange(TILE - 1)
        d.rectangle([x, y, x + 1, y], fill=(110, 75, 40, 255))
    water = tile((50, 110, 200, 255))
    d = ImageDraw.Draw(water)
    for y in (3, 9, 14):
        d.line([1, y, 6, y - 1, 11, y], fill=(150, 200, 250, 255))
    stone = tile((90, 90, 100, 255))
    d = ImageDraw.Draw(stone)
    for y, shift in ((0, 0), (8, 8)):
        for x in range(-8, TILE, 16):
            d.rectangle([x + shift + 1, y + 1, x + shift + 14, y + 6], fill=(140, 140, 150, 255))
    # Grass above, dirt below, a ragged border: flipped and turned, it edges the paths.
    edge = dirt.copy()
    edge.paste(grass.crop((0, 0, TILE, 7)), (0, 0))
    d = ImageDraw.Draw(edge)
    for x in range(TILE):
        d.line([x, 7, x, 7 + (x * 5 + 3) % 4], fill=(70, 150, 60, 255))
    flower = tile((0, 0, 0, 0))  # off-centre in both directions, so that every flip shows
    d = ImageDraw.Draw(flower)
    d.line([5, 6, 5, 15], fill=(30, 100, 30, 255))
    d.ellipse([11, 9, 14, 12], fill=(30, 120, 30, 255))
    d.ellipse([2, 1, 8, 7], fill=(240, 220, 60, 255))
    d.rectangle([4, 3, 6, 5], fill=(200, 60, 40, 255))
    sign = tile((0, 0, 0, 0))  # an arrow pointing right on a post
    d = ImageDraw.Draw(sign)
    d.rectangle([3, 7, 4, 15], fill=(100, 60, 30, 255))
    d.polygon([(1, 2), (10, 2), (10, 0), (15, 4), (10, 8), (10, 6), (1, 6)], fill=(230, 200, 140, 255), outline=(90, 50, 20, 255))
    rock = tile((0, 0, 0, 0))
    d = ImageDraw.Draw(rock)
    d.polygon([(1, 15), (2, 9), (6, 6), (11, 8), (12, 15)], fill=(120, 120, 130, 255), outline=(50, 50, 60, 255))
    d.line([3, 10, 6, 8], fill=(200, 200, 210, 255))
    return [grass, dirt, water, stone, edge, flower, sign, rock]


def terrain_map(folder, rng):
    os.makedirs(folder, exist_ok=True)
    tiles = terrain_tiles(rng)
    rows = (len(tiles) + COLUMNS - 1) // COLUMNS
    width, height = 2 * GAP + COLUMNS * TILE + (COLUMNS - 1) * GAP, 2 * GAP + rows * TILE + (rows - 1) * GAP
    sheet = Image.new("RGBA", (width, height), (255, 0, 255, 255))
    for index, image in enumerate(tiles):
        sheet.paste(image, (GAP + (index % COLUMNS) * (TILE + GAP), GAP + (index // COLUMNS) * (TILE + GAP)))
    sheet.save(os.path.join(folder, "terrain.png"), optimize=True)
    with open(os.path.join(folder, "terrain.tsx"), "w") as f:
        f.write(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<tileset version="1.8" tiledversion="1.8.2" name="terrain" tilewidth="{TILE}" tileheight="{TILE}" spacing="{GAP}" '
            f'margin="{GAP}" tilecount="{len(tiles)}" columns="{COLUMNS}">\n'
            f' <image source="terrain.png" width="{width}" height="{height}"/>\n'
            '</tileset>\n')

    columns, rows = 24, 8
    ground = [[GRASS] * columns for _ in range(rows)]
    for x in range(columns):  # a path along rows 4-5, edged above and below; stone along the bottom
        ground[3][x], ground[4][x], ground[5][x], ground[6][x], ground[7][x] = EDGE, DIRT, DIRT, EDGE | FLIP_V, STONE
    for y in range(3):  # a path up from it at columns 6-7, edged left (turned) and right (turned the other way)
        ground[y][5], ground[y][6], ground[y][7], ground[y][8] = EDGE | FLIP_D, DIRT, DIRT, EDGE | FLIP_D | FLIP_H
    ground[3][6] = ground[3][7] = DIRT
    for y in range(0, 3):  # a pond
        for x in range(15, 21):
            ground[y][x] = WATER
    decoration = [[0] * columns for _ in range(rows)]
    for x, y, gid in [(1, 0, FLOWER), (3, 1, FLOWER | FLIP_H), (10, 0, FLOWER | FLIP_V), (12, 2, FLOWER | FLIP_H | FLIP_V),
                      (22, 1, FLOWER | FLIP_D), (9, 2, SIGN), (4, 2, SIGN | FLIP_H), (13, 0, SIGN | FLIP_V),
                      (11, 1, SIGN | FLIP_D | FLIP_H), (2, 2, ROCK), (21, 0, ROCK | FLIP_H), (23, 2, ROCK | FLIP_H | FLIP_V),
                      (16, 1, ROCK | FLIP_D | FLIP_V)]:
        decoration[y][x] = gid

    def csv(grid):
        return ",\n".join(",".join(str(gid) for gid in row) for row in grid)

    def layer(number, name, grid):
        return (f' <layer id="{number}" name="{name}" width="{columns}" height="{rows}">\n'
                f'  <data encoding="csv">\n{csv(grid)}\n</data>\n </layer>\n')

    with open(os.path.join(folder, "level1.tmx"), "w") as f:
        f.write(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="{columns}" '
            f'height="{rows}" tilewidth="{TILE}" tileheight="{TILE}" infinite="0" nextlayerid="4" nextobjectid="2">\n'
            ' <tileset firstgid="1" source="terrain.tsx"/>\n'
            + layer(1, "ground", ground) + layer(2, "decoration", decoration)
            + ' <objectgroup id="3" name="objects">\n'
            f'  <object id="1" name="spawn" type="spawn" x="{2 * TILE}" y="{5 * TILE}">\n   <point/>\n  </object>\n'
            ' </objectgroup>\n'
            '</map>\n')


terrain_map(os.path.join(out, "maps"), random.Random(37))
