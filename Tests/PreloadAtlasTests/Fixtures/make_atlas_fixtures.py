#!/usr/bin/env python3
"""Writes the atlas golden fixtures: original sprites, and the same sprites packed into pages by
each atlas dialect's own conventions, independently of the Swift readers that must undo them.

usage: make_atlas_fixtures.py [OUT_DIR]   (default: this script's folder; needs Pillow)

Conventions encoded here (see ../../../docs/atlas-formats.md):
- TexturePacker JSON: a rotated frame is stored 90 deg clockwise; frame.w/h are the unrotated size;
  spriteSourceSize.x/y place the trimmed box inside the original, top-left origin.
- libGDX .atlas: a rotated region is stored 90 deg counter-clockwise (libGDX's packer draws it with
  rotate(-90) in y-down space); bounds/xy+size w/h are the unrotated size; offsets/offset `bottom`
  is measured from the original's bottom edge.
- SpriteKit .atlasc: a rotated subimage is stored 90 deg clockwise (third-party readers undo it
  with EXIF orientation "left"); textureRect is the rectangle occupied in the page; spriteOffset
  is measured from the original's bottom-left corner.
Page pixels outside every frame are opaque magenta, so a reader that samples outside a frame
produces wrong pixels instead of lucky transparent ones.
"""
import json, os, plistlib, sys
from PIL import Image, ImageDraw

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
MAGENTA = (255, 0, 255, 255)


def sprite(w, h, margin, colour, mark):
    """An asymmetric sprite: a body, a distinct corner mark, and transparent margins (l, t, r, b)."""
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    l, t, r, b = margin
    d.rectangle([l, t, w - 1 - r, h - 1 - b], fill=colour + (255,))
    d.rectangle([l, t, l + 2, t + 1], fill=mark + (255,))  # top-left marker shows rotation errors
    d.point((w - 1 - r, h - 1 - b), fill=(10, 20, 30, 128))  # a half-transparent corner
    return im


SPRITES = {  # name -> image
    "hero": sprite(40, 48, (6, 4, 3, 2), (200, 60, 60), (255, 255, 0)),
    "coin": sprite(24, 24, (0, 0, 0, 0), (240, 200, 40), (40, 40, 200)),
    "arrow": sprite(30, 12, (2, 1, 0, 3), (60, 160, 60), (250, 250, 250)),
    "tall": sprite(12, 40, (1, 5, 2, 0), (60, 60, 200), (255, 128, 0)),
    "slime_01": sprite(20, 16, (2, 2, 2, 2), (90, 200, 120), (0, 0, 0)),
    "slime_02": sprite(20, 16, (1, 3, 3, 1), (90, 210, 130), (0, 0, 0)),
}
ROTATE = {"arrow", "tall"}  # stored rotated in every dialect


def trimmed(name):
    im = SPRITES[name]
    box = im.getbbox()  # (left, top, right, bottom) of non-transparent pixels
    return im.crop(box), box


def shelf_layout(names, page_width, rotate_fn):
    """Places (possibly rotated) trimmed sprites on shelves, 2 px apart. Returns placements."""
    x = y = shelf = 2
    placed = []
    for name in names:
        content, box = trimmed(name)
        stored = rotate_fn(content) if name in ROTATE else content
        if x + stored.width + 2 > page_width:
            x, y, shelf = 2, y + shelf + 2, 2
        placed.append({"name": name, "x": x, "y": y, "stored": stored, "content": content, "box": box})
        x += stored.width + 2
        shelf = max(shelf, stored.height)
    return placed


def page_image(placed, size):
    page = Image.new("RGBA", size, MAGENTA)
    for p in placed:
        page.paste(p["stored"], (p["x"], p["y"]))  # paste copies alpha too (no blending)
    return page


def ensure(path):
    os.makedirs(path, exist_ok=True)
    return path


CW = lambda im: im.transpose(Image.ROTATE_270)   # PIL rotates counter-clockwise: 270 = 90 clockwise
CCW = lambda im: im.transpose(Image.ROTATE_90)


def texturepacker_frame(p, key):
    content, box, rotated = p["content"], p["box"], p["name"] in ROTATE
    src = SPRITES[p["name"]]
    frame = {
        "frame": {"x": p["x"], "y": p["y"], "w": content.width, "h": content.height},
        "rotated": rotated,
        "trimmed": content.size != src.size,
        "spriteSourceSize": {"x": box[0], "y": box[1], "w": content.width, "h": content.height},
        "sourceSize": {"w": src.width, "h": src.height},
    }
    if p["name"] == "hero":
        frame["pivot"] = {"x": 0.5, "y": 0.875}
    return key, frame


def write_texturepacker():
    names = list(SPRITES)
    placed = shelf_layout(names, 96, CW)
    size = (96, 96)
    meta = {"app": "fixture", "version": "1.0", "image": "sheet.png", "format": "RGBA8888",
            "size": {"w": size[0], "h": size[1]}, "scale": "1"}
    hash_dir = ensure(os.path.join(OUT, "texturepacker-hash"))
    page_image(placed, size).save(os.path.join(hash_dir, "sheet.png"))
    frames = dict(texturepacker_frame(p, "chars/" + p["name"] + ".png") for p in placed)
    json.dump({"frames": frames, "meta": meta}, open(os.path.join(hash_dir, "sheet.json"), "w"), indent=1)

    array_dir = ensure(os.path.join(OUT, "texturepacker-array"))
    page_image(placed, size).save(os.path.join(array_dir, "sheet.png"))
    frames = []
    for p in placed:
        key, frame = texturepacker_frame(p, p["name"] + ".png")
        frames.append(dict(filename=key, **frame))
    meta_number = dict(meta, scale=1)  # some exporters write the scale as a number
    json.dump({"frames": frames, "meta": meta_number}, open(os.path.join(array_dir, "sheet.json"), "w"), indent=1)

    # Multipack: two JSON files, each with one page, naming each other.
    multi_dir = ensure(os.path.join(OUT, "texturepacker-multipack"))
    halves = [names[:3], names[3:]]
    for index, half in enumerate(halves):
        placed_half = shelf_layout(half, 96, CW)
        page_image(placed_half, (96, 64)).save(os.path.join(multi_dir, f"sheet-{index}.png"))
        frames = dict(texturepacker_frame(p, p["name"] + ".png") for p in placed_half)
        meta_half = dict(meta, image=f"sheet-{index}.png", size={"w": 96, "h": 64})
        if index == 0:
            meta_half["related_multi_packs"] = ["sheet-1.json"]
        json.dump({"frames": frames, "meta": meta_half}, open(os.path.join(multi_dir, f"sheet-{index}.json"), "w"), indent=1)

    # Phaser multiatlas: one JSON, textures[] with two pages.
    phaser_dir = ensure(os.path.join(OUT, "phaser-multiatlas"))
    textures = []
    for index, half in enumerate(halves):
        placed_half = shelf_layout(half, 96, CW)
        page_image(placed_half, (96, 64)).save(os.path.join(phaser_dir, f"multi-{index}.png"))
        frames = []
        for p in placed_half:
            key, frame = texturepacker_frame(p, p["name"] + ".png")
            frames.append(dict(filename=key, **frame))
        textures.append({"image": f"multi-{index}.png", "format": "RGBA8888", "size": {"w": 96, "h": 64},
                         "scale": 1, "frames": frames})
    json.dump({"textures": textures, "meta": {"app": "fixture", "version": "1.0"}},
              open(os.path.join(phaser_dir, "multi.json"), "w"), indent=1)


def libgdx_region_lines(p, legacy):
    content, box, src = p["content"], p["box"], SPRITES[p["name"]]
    name = p["name"]
    index = -1
    if "_" in name and name.rsplit("_", 1)[1].isdigit():
        name, index = name.rsplit("_", 1)[0], int(name.rsplit("_", 1)[1])
    bottom = src.height - box[1] - content.height
    rotate = p["name"] in ROTATE
    if legacy:
        return [name, f"  rotate: {'true' if rotate else 'false'}", f"  xy: {p['x']}, {p['y']}",
                f"  size: {content.width}, {content.height}", f"  orig: {src.width}, {src.height}",
                f"  offset: {box[0]}, {bottom}", f"  index: {index}"]
    lines = [name]
    if index >= 0:
        lines.append(f"  index: {index}")
    if rotate:
        lines.append("  rotate: true")
    lines.append(f"  bounds: {p['x']}, {p['y']}, {content.width}, {content.height}")
    if content.size != src.size:
        lines.append(f"  offsets: {box[0]}, {bottom}, {src.width}, {src.height}")
    if p["name"] == "coin":
        lines += ["  split: 4, 4, 4, 4", "  pad: 1, 1, 1, 1"]
    return lines


def write_libgdx():
    names = list(SPRITES)
    halves = [names[:4], names[4:]]
    current = ensure(os.path.join(OUT, "libgdx"))
    legacy = ensure(os.path.join(OUT, "libgdx-legacy"))
    text_current, text_legacy = [], []
    for index, half in enumerate(halves):
        placed = shelf_layout(half, 96, CCW)
        page = f"sheet{index + 1}.png"
        page_image(placed, (96, 64)).save(os.path.join(current, page))
        page_image(placed, (96, 64)).save(os.path.join(legacy, page))
        text_current += [page, "size: 96, 64", "format: RGBA8888", "filter: Nearest, Nearest", "repeat: none", "pma: false"]
        text_legacy += [page, "size: 96, 64", "format: RGBA8888", "filter: Nearest,Nearest", "repeat: none"]
        for p in placed:
            text_current += libgdx_region_lines(p, legacy=False)
            text_legacy += libgdx_region_lines(p, legacy=True)
        text_current.append("")
        text_legacy.append("")
    open(os.path.join(current, "sheet.atlas"), "w").write("\n".join(text_current))
    open(os.path.join(legacy, "sheet.atlas"), "w").write("\n" + "\n".join(text_legacy))  # legacy files start blank


def write_spritekit():
    directory = ensure(os.path.join(OUT, "spritekit", "sheet.atlasc"))
    placed = shelf_layout(list(SPRITES), 128, CW)
    page_image(placed, (128, 96)).save(os.path.join(directory, "sheet.1.png"))
    subimages = []
    for p in placed:
        content, box, src = p["content"], p["box"], SPRITES[p["name"]]
        stored = p["stored"]
        subimages.append({
            "name": p["name"] + ".png",
            "textureRect": f"{{{{{p['x']},{p['y']}}},{{{stored.width},{stored.height}}}}}",
            "spriteOffset": f"{{{box[0]},{src.height - box[1] - content.height}}}",
            "spriteSourceSize": f"{{{src.width},{src.height}}}",
            "textureRotated": p["name"] in ROTATE,
            "isFullyOpaque": False,
        })
    plist = {"format": "APPL", "version": 1,
             "images": [{"path": "sheet.1.png", "size": "{128,96}", "subimages": subimages}]}
    plistlib.dump(plist, open(os.path.join(directory, "sheet.plist"), "wb"))


def write_sprites():
    directory = ensure(os.path.join(OUT, "sprites"))
    for name, im in SPRITES.items():
        im.save(os.path.join(directory, name + ".png"))
    folder = ensure(os.path.join(OUT, "folder", "chars.atlas"))
    for name, im in SPRITES.items():
        im.save(os.path.join(folder, name + ".png"))
        im.resize((im.width * 2, im.height * 2), Image.NEAREST).save(os.path.join(folder, name + "@2x.png"))


write_sprites()
write_texturepacker()
write_libgdx()
write_spritekit()
