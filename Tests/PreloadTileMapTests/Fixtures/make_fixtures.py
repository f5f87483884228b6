#!/usr/bin/env python3
"""Writes the Tiled fixtures: small tileset images, TMX maps (and a TSX tileset) covering every
layer data encoding and compression, infinite chunks, every object shape, groups, image layers,
an external tileset, an image-collection tileset, flips and typed properties; then asks Tiled
itself to export each map to JSON (TMJ) and the tileset to TSJ, so the tests hold the plugin's
reading of a TMX to what Tiled's own JSON export of it says.

usage: make_fixtures.py [OUT_DIR]   (default: this script's folder)
needs: Pillow, the zstd command, and Tiled (Debian: apt-get install tiled; it runs headless with
QT_QPA_PLATFORM=offscreen). The generated files are committed: the tests do not need any of it.

Tileset images: each tile is a flat colour of its own (expected.json lists it), and margins and
spacing are opaque magenta, so a test reading a tile's rectangle in the decoded image sees the
tile's colour only when the rectangle is exactly Tiled's.
"""
import base64, gzip, json, os, struct, subprocess, sys, zlib
from PIL import Image

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
MAGENTA = (255, 0, 255, 255)
H, V, D, HEX = 0x80000000, 0x40000000, 0x20000000, 0x10000000


def tile_colour(sheet, index):
    """A colour of its own for tile `index` of tileset image `sheet` (0, 1, 2)."""
    return (40 + 17 * index, 30 + 60 * sheet, 200 - 11 * index, 255)


def sheet(name, number, tile, columns, rows, margin, spacing, extra=(0, 0)):
    """A tileset image of columns x rows tiles, Tiled's layout: margin, then tiles `spacing` apart.
    `extra` adds pixels at the right and bottom that hold no whole tile."""
    width = 2 * margin + columns * tile[0] + (columns - 1) * spacing + extra[0]
    height = 2 * margin + rows * tile[1] + (rows - 1) * spacing + extra[1]
    image = Image.new("RGBA", (width, height), MAGENTA)
    colours = {}
    for row in range(rows):
        for column in range(columns):
            index = row * columns + column
            colour = tile_colour(number, index)
            x, y = margin + column * (tile[0] + spacing), margin + row * (tile[1] + spacing)
            image.paste(Image.new("RGBA", tile, colour), (x, y))
            colours[index] = colour
    image.save(os.path.join(OUT, name))
    return {"size": [width, height], "colours": colours}


def flat(name, size, colour):
    Image.new("RGBA", size, colour).save(os.path.join(OUT, name))


def write(name, text):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as file:
        file.write(text)


# Tilesets: `tiles.png` (embedded in the maps; 4x3 tiles of 16x16, margin 1, spacing 2, and 3
# stray pixels on the right), `terrain.png` (the external terrain.tsx, which omits `columns`),
# and three loose images of the image-collection tileset.
expected = {
    "tiles.png": sheet("tiles.png", 0, (16, 16), 4, 3, 1, 2, extra=(3, 0)),
    "terrain.png": sheet("terrain.png", 1, (8, 8), 4, 2, 0, 0),
}
os.makedirs(os.path.join(OUT, "people"), exist_ok=True)
flat("people/hero.png", (10, 12), (200, 40, 40, 255))
flat("people/coin.png", (8, 8), (240, 200, 40, 255))
flat("people/slime.png", (12, 9), (40, 200, 90, 255))
flat("sky.png", (24, 12), (90, 140, 230, 255))
write("expected.json", json.dumps({name: {"size": value["size"], "colours": {str(k): list(c) for k, c in value["colours"].items()}}
                                   for name, value in expected.items()}, indent=1, sort_keys=True) + "\n")

write("terrain.tsx", """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="terrain" tilewidth="8" tileheight="8" tilecount="8">
 <tileoffset x="2" y="-3"/>
 <properties>
  <property name="biome" value="grass"/>
 </properties>
 <image source="terrain.png" width="32" height="16"/>
 <tile id="5" type="Water" probability="0.5">
  <properties>
   <property name="speed" type="float" value="0.25"/>
  </properties>
 </tile>
</tileset>
""")

EMBEDDED = """ <tileset firstgid="1" name="tiles" tilewidth="16" tileheight="16" spacing="2" margin="1" tilecount="12" columns="4">
  <image source="tiles.png" width="75" height="54"/>
  <tile id="2" type="Door">
   <properties>
    <property name="locked" type="bool" value="true"/>
    <property name="key" type="object" value="3"/>
   </properties>
   <animation>
    <frame tileid="2" duration="100"/>
    <frame tileid="3" duration="150"/>
   </animation>
  </tile>
  <tile id="7">
   <objectgroup draworder="index" id="2">
    <object id="1" x="2" y="3" width="12" height="10"/>
   </objectgroup>
  </tile>
 </tileset>
 <tileset firstgid="13" source="terrain.tsx"/>
 <tileset firstgid="21" name="people" tilewidth="12" tileheight="12" tilecount="3" columns="0">
  <grid orientation="orthogonal" width="1" height="1"/>
  <tile id="0" type="Hero">
   <image width="10" height="12" source="people/hero.png"/>
  </tile>
  <tile id="1">
   <image width="8" height="8" source="people/coin.png"/>
  </tile>
  <tile id="3">
   <properties>
    <property name="hp" type="int" value="3"/>
   </properties>
   <image width="12" height="9" source="people/slime.png"/>
  </tile>
 </tileset>
"""


def grid(width, height, seed):
    """A layer's global tile IDs: every tile of every tileset, some flipped, some empty."""
    gids = []
    for index in range(width * height):
        value = (index * 7 + seed) % 26
        if value >= 24:
            gids.append(0)
            continue
        gid = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 24, 1][value]
        flags = [0, H, V, D, H | V, H | D, V | D, H | V | D][(index + seed) % 8]
        gids.append(gid | flags)
    return gids


def data_element(gids, width, encoding, compression=None, indent="  "):
    if encoding == "xml":
        tiles = "".join(f"{indent} <tile gid=\"{gid}\"/>\n" if gid else f"{indent} <tile/>\n" for gid in gids)
        return f"{indent}<data>\n{tiles}{indent}</data>\n"
    if encoding == "csv":
        rows = [",".join(str(g) for g in gids[row:row + width]) for row in range(0, len(gids), width)]
        return f"{indent}<data encoding=\"csv\">\n" + ",\n".join(rows) + f"\n{indent}</data>\n"
    raw = struct.pack(f"<{len(gids)}I", *gids)
    packed = {None: raw, "zlib": zlib.compress(raw, 9), "gzip": gzip.compress(raw, mtime=0),
              "zstd": subprocess.run(["zstd", "-q", "-19", "-c", "-"], input=raw, capture_output=True, check=True).stdout}[compression]
    attribute = f" compression=\"{compression}\"" if compression else ""
    return f"{indent}<data encoding=\"base64\"{attribute}>\n{indent} {base64.b64encode(packed).decode()}\n{indent}</data>\n"


def map_header(width, height, orientation="orthogonal", extra="", infinite=0, tile=(16, 16)):
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.8" tiledversion="1.8.2" orientation="{orientation}" '
            f'renderorder="right-down" width="{width}" height="{height}" tilewidth="{tile[0]}" tileheight="{tile[1]}" '
            f'infinite="{infinite}"{extra} nextlayerid="9" nextobjectid="20">\n')


# One map per layer data format: the same two layers in each.
for encoding, compression in [("csv", None), ("xml", None), ("base64", None), ("base64", "zlib"), ("base64", "gzip"), ("base64", "zstd")]:
    name = "encoding-" + (compression or encoding)
    layers = "".join(
        f' <layer id="{number}" name="{title}" width="7" height="5">\n' + data_element(grid(7, 5, number), 7, encoding, compression) + " </layer>\n"
        for number, title in [(1, "ground"), (2, "details")])
    write(name + ".tmx", map_header(7, 5) + EMBEDDED + layers + "</map>\n")

# Infinite maps: chunks (16x16, as Tiled writes them, none empty), in CSV and in zlib'd base64.
for encoding, compression, suffix in [("csv", None, "csv"), ("base64", "zlib", "zlib")]:
    chunks = ""
    for cx, cy, seed in [(-16, 0, 1), (0, 0, 2), (16, -16, 3)]:
        body = data_element(grid(16, 16, seed), 16, encoding, compression, indent="   ")
        body = body.replace("<data", f'<chunk x="{cx}" y="{cy}" width="16" height="16"', 1).replace("</data>", "</chunk>")
        if encoding == "csv":
            body = body.replace(' encoding="csv"', "", 1)
        else:
            body = body.replace(f' encoding="base64" compression="{compression}"', "", 1)
        chunks += body
    attributes = f' encoding="{encoding}"' + (f' compression="{compression}"' if compression else "")
    layer = f' <layer id="1" name="chunks" width="30" height="20">\n  <data{attributes}>\n{chunks}  </data>\n </layer>\n'
    write(f"infinite-{suffix}.tmx", map_header(30, 20, infinite=1) + EMBEDDED + layer + "</map>\n")

# Everything else in one map: properties of every type, groups, image layers, objects.
write("enemy.tx", """<?xml version="1.0" encoding="UTF-8"?>
<template>
 <object name="enemy" type="Enemy" width="10" height="12"/>
</template>
""")
PROPERTIES = """ <properties>
  <property name="alive" type="bool" value="true"/>
  <property name="count" type="int" value="-42"/>
  <property name="gravity" type="float" value="9.75"/>
  <property name="whole" type="float" value="2"/>
  <property name="label" value="Level 1"/>
  <property name="poem">two
lines</property>
  <property name="tint" type="color" value="#80ff2000"/>
  <property name="music" type="file" value="audio/theme.ogg"/>
  <property name="boss" type="object" value="7"/>
 </properties>
"""
write("features.tmx", map_header(6, 4, extra=' backgroundcolor="#203040"') + PROPERTIES + EMBEDDED + f"""
 <layer id="1" name="ground" width="6" height="4" opacity="0.5" visible="0" tintcolor="#ff00ff80" offsetx="3" offsety="-2" parallaxx="0.5" parallaxy="2">
  <properties>
   <property name="solid" type="bool" value="false"/>
  </properties>
{data_element(grid(6, 4, 5), 6, "base64", "zlib")} </layer>
 <group id="2" name="world" offsetx="10" offsety="20" opacity="0.75" tintcolor="#336699">
  <properties>
   <property name="zone" type="int" value="4"/>
  </properties>
  <objectgroup id="3" name="things" color="#a0a0a4" draworder="index">
   <object id="1" name="box" type="Crate" x="16" y="24.5" width="32" height="16" rotation="45">
    <properties>
     <property name="weight" type="float" value="1.5"/>
     <property name="target" type="object" value="4"/>
    </properties>
   </object>
   <object id="2" name="zone" x="8" y="8" width="20" height="10">
    <ellipse/>
   </object>
   <object id="3" name="spawn" x="40" y="12">
    <point/>
   </object>
   <object id="4" name="fence" x="4" y="30">
    <polygon points="0,0 16,0 16,-8.5 0,-8"/>
   </object>
   <object id="5" name="path" x="50" y="50" visible="0">
    <polyline points="0,0 10,5 20,-5"/>
   </object>
   <object id="6" name="sign" x="2" y="60" width="80" height="20">
    <text fontfamily="Serif" pixelsize="12" wrap="1" color="#ff0000" bold="1" italic="1" underline="1" strikeout="1" kerning="0" halign="center" valign="bottom">Hello, map!</text>
   </object>
   <object id="7" name="hero" gid="{21 | H}" x="30" y="40" width="10" height="12"/>
   <object id="8" gid="{3 | V | D}" x="60" y="40" width="16" height="16"/>
   <object id="9" template="enemy.tx" x="70" y="10"/>
   <object id="10" x="1" y="2" width="3" height="4"/>
  </objectgroup>
  <group id="4" name="backdrop" parallaxx="0.25" parallaxy="0.5">
   <imagelayer id="5" name="sky" offsetx="-4" offsety="6" repeatx="1" repeaty="0" opacity="0.9">
    <image source="sky.png" width="24" height="12"/>
    <properties>
     <property name="scroll" type="float" value="0.125"/>
    </properties>
   </imagelayer>
   <imagelayer id="6" name="clouds" repeaty="1">
    <image source="sky.png" width="24" height="12"/>
   </imagelayer>
  </group>
 </group>
 <layer id="7" name="top" width="6" height="4">
{data_element(grid(6, 4, 9), 6, "csv")} </layer>
</map>
""")

# The other orientations, with their geometry attributes (the hexagonal map uses the 120-degree
# rotation flag Tiled's hexagonal maps set).
write("isometric.tmx", map_header(3, 2, "isometric", tile=(32, 16)) + EMBEDDED
      + ' <layer id="1" name="floor" width="3" height="2">\n' + data_element([1, 2, 3, 13 | H, 0, 21], 3, "csv") + " </layer>\n</map>\n")
write("staggered.tmx", map_header(3, 2, "staggered", ' staggeraxis="y" staggerindex="even"', tile=(32, 16)).replace("right-down", "left-up")
      + EMBEDDED + ' <layer id="1" name="floor" width="3" height="2">\n' + data_element([4, 5, 6, 14, 15, 16], 3, "csv") + " </layer>\n</map>\n")
write("hexagonal.tmx", map_header(3, 2, "hexagonal", ' hexsidelength="8" staggeraxis="x" staggerindex="odd"', tile=(16, 14))
      + EMBEDDED + ' <layer id="1" name="floor" width="3" height="2">\n'
      + data_element([1, 2 | HEX, 3 | HEX | H, 4, 0, 5 | D], 3, "base64", "gzip") + " </layer>\n</map>\n")

# Damaged layer data the tests must refuse (not exported: Tiled refuses them too): 16 MiB of
# zeros compressed for a 4x4 layer (a decompression bomb, some KiB), in each compression; and
# data that decompresses to too little.
os.makedirs(os.path.join(OUT, "damaged"), exist_ok=True)
bomb = bytes(16 << 20)
for compression, packed in [("zlib", zlib.compress(bomb, 9)), ("gzip", gzip.compress(bomb, 9, mtime=0)),
                            ("zstd", subprocess.run(["zstd", "-q", "-19", "-c", "-"], input=bomb, capture_output=True, check=True).stdout),
                            ("zstd-short", subprocess.run(["zstd", "-q", "-c", "-"], input=bytes(60), capture_output=True, check=True).stdout)]:
    method = compression.split("-")[0]
    layer = (f' <layer id="1" name="bomb" width="4" height="4">\n  <data encoding="base64" compression="{method}">'
             f'{base64.b64encode(packed).decode()}</data>\n </layer>\n')
    write(f"damaged/{compression}.tmx", map_header(4, 4) + EMBEDDED.replace("terrain.tsx", "../terrain.tsx") + layer + "</map>\n")

# Tiled's own exports: every map to TMJ, the external tileset to TSJ.
environment = dict(os.environ, QT_QPA_PLATFORM="offscreen")
for name in sorted(os.listdir(OUT)):
    if name.endswith(".tmx"):
        subprocess.run(["tiled", "--export-map", "json", name, name[:-4] + ".tmj"], cwd=OUT, env=environment, check=True,
                       stderr=subprocess.DEVNULL)
subprocess.run(["tiled", "--export-tileset", "json", "terrain.tsx", "terrain.tsj"], cwd=OUT, env=environment, check=True,
               stderr=subprocess.DEVNULL)
# A TMJ whose external tileset is the TSJ export, for the TSJ reader.
with open(os.path.join(OUT, "encoding-csv.tmj"), encoding="utf-8") as file:
    write("external-tsj.tmj", file.read().replace('"terrain.tsx"', '"terrain.tsj"'))
