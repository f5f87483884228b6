import Foundation
import Preload
import SceneLayout

// Checks a LoadingScreen screenshot against the source files: every sprite the layout lists
// must show, pixel for pixel (within the renderer's blending rounding), its source image as
// straight alpha blended over the black panel; the Tiled map, what its TMX, tileset and tileset
// image make by Tiled's rules over the background; the line of text, its BMFont glyphs placed by
// their advances, offsets and kerning on the panel; and a patch of background must be the
// background. The expected images are built without Preload's readers (atlas frames come from
// the descriptor's JSON, the map from the TMX's CSV layers and tileset numbers, the text from the
// .fnt's char and kerning lines, here), and the check proves it can fail: a flipped,
// twice-premultiplied or missing sprite, the map missing or cut without its tileset's margin and
// spacing, any flipped tile drawn unflipped, the text missing or any of its kerning pairs left
// out would exceed the tolerance.
//
// With `--min-psnr DB` (a level baked with `--gpu`, whose textures are BC7 or ASTC blocks near
// their sources), the same regions and mistakes are held to a PSNR floor instead (Standard), as
// is each cell of the map and the whole screen, rebuilt from the regions. CI's 27 dB is 3 dB under
// the worst region measured with BC7 and ASTC 4x4, through OpenGL on llvmpipe and decoded on the
// CPU alike (a 16x16 map cell at 30.1 dB with BC7; sprites 34.8 dB and up, the screen 51 dB);
// every mistake made on purpose scores 21.2 dB or less, but one: a sprite premultiplied twice
// darkens only its soft edge, by about 2 levels RMS on these dark-edged sprites, under the blocks'
// own noise there (about 4), so no PSNR floor tells it, and this mode says so rather than fail;
// the exact runs (the loose level, the RGBA8 bake) catch it.
//
//     ScreenshotCheck [--min-psnr DB] SHOT.png   (reads SHOT.png.layout.json)

let usage = "usage: ScreenshotCheck [--min-psnr DB] SHOT.png"
var arguments = CommandLine.arguments.dropFirst()
var standard = Standard.default
if arguments.first == "--min-psnr" {
    arguments.removeFirst()
    guard let value = arguments.popFirst(), let minimum = Double(value), minimum > 0 else {
        FileHandle.standardError.write(Data("--min-psnr needs a positive number of dB\n\(usage)\n".utf8))
        exit(64)
    }
    standard = .psnr(minimum: minimum)
}
guard arguments.count == 1, let shotPath = arguments.first else {
    FileHandle.standardError.write(Data("\(usage)\n".utf8))
    exit(64)
}
let shot = try Image.decode(file: shotPath)
let layout = try JSONDecoder().decode(SceneLayout.self, from: Data(contentsOf: URL(fileURLWithPath: shotPath + ".layout.json")))
let background = try Image.decode(file: layout.background)
var failures: [String] = []
/// Each mistake made on purpose, and whether the comparison told it from the screenshot.
var mutations: [(name: String, caught: Bool)] = []

/// The screen as it should be, built region by region (compared whole with `--min-psnr`): the
/// background, the opaque black panel, then each region as the check expects it.
var expectedScreen = background.placing(
    Image.black(width: layout.panel[2], height: layout.panel[3]), x: layout.panel[0], y: layout.panel[1])

/// Compares `drawn` with `expected`, printing how far apart they are and noting a failure when
/// too far.
@MainActor func compare(_ what: String, _ drawn: Image, _ expected: Image, standard: Standard = standard) {
    let (shown, passes) = standard.measure(drawn, against: expected)
    print("\(what): \(shown)")
    if !passes { failures.append("\(what): \(shown) from its source, \(standard.requirement)") }
}

/// Notes whether the comparison tells `drawn` from `mutated`, the picture with a mistake in it.
@MainActor func tells(_ drawn: Image, from mutated: Image, _ mistake: String) {
    mutations.append((mistake, standard.tells(drawn, from: mutated)))
}

var caught = (flipped: false, premultipliedTwice: false, missing: false)
for sprite in layout.sprites {
    let source = try Expected.source(of: sprite)
    guard source.width == sprite.width, source.height == sprite.height else {
        failures.append("\(sprite.name): source is \(source.width)x\(source.height), layout says \(sprite.width)x\(sprite.height)")
        continue
    }
    let drawn = shot.crop(x: sprite.x, y: sprite.y, width: sprite.width, height: sprite.height)
    compare("\(sprite.name) at (\(sprite.x), \(sprite.y)) \(sprite.width)x\(sprite.height)", drawn, source.overBlack())
    expectedScreen = expectedScreen.placing(source.overBlack(), x: sprite.x, y: sprite.y)
    caught.flipped = caught.flipped || standard.tells(drawn, from: source.flipped().overBlack())
    caught.premultipliedTwice = caught.premultipliedTwice || standard.tells(drawn, from: source.premultiplied().overBlack())
    caught.missing = caught.missing || standard.tells(drawn, from: Image.black(width: source.width, height: source.height))
}
if layout.sprites.isEmpty { failures.append("the layout lists no sprites") }
mutations += [("a sprite upside down", caught.flipped), ("a sprite missing", caught.missing)]
if standard.isExact || caught.premultipliedTwice {
    mutations.append(("a sprite premultiplied twice", caught.premultipliedTwice))
} else {
    print("a sprite premultiplied twice: within the blocks' noise, not told by a PSNR floor (the exact runs tell it)")
}

// The map, over the background it covers.
let map = try TiledMapFile(file: layout.map.file)
if map.width != layout.map.width || map.height != layout.map.height {
    failures.append("the map is \(map.width)x\(map.height) pixels, the layout says \(layout.map.width)x\(layout.map.height)")
} else {
    let under = background.crop(x: layout.map.x, y: layout.map.y, width: map.width, height: map.height)
    let drawn = shot.crop(x: layout.map.x, y: layout.map.y, width: map.width, height: map.height)
    let expected = try map.drawn(over: under)
    compare("map \(layout.map.file) at (\(layout.map.x), \(layout.map.y)) \(map.width)x\(map.height), \(map.layers.count) layers", drawn, expected)
    expectedScreen = expectedScreen.placing(expected, x: layout.map.x, y: layout.map.y)
    if case .psnr = standard {
        // Each cell on its own too: one tile missing or misplaced among many right ones.
        var worst = (psnr: Double.infinity, column: 0, row: 0)
        for row in 0..<map.rows {
            for column in 0..<map.columns {
                let cell = { (image: Image) in
                    image.crop(x: column * map.tileWidth, y: row * map.tileHeight, width: map.tileWidth, height: map.tileHeight)
                }
                let (shown, passes) = standard.measure(cell(drawn), against: cell(expected))
                if !passes { failures.append("the map's cell (\(column), \(row)): \(shown) from its source, \(standard.requirement)") }
                let psnr = cell(drawn).psnr(against: cell(expected))
                if psnr < worst.psnr { worst = (psnr, column, row) }
            }
        }
        print("map cells: the worst of \(map.columns * map.rows), (\(worst.column), \(worst.row)), PSNR \(Standard.decibels(worst.psnr))")
    }
    tells(drawn, from: under, "the map missing")
    tells(drawn, from: try map.drawn(over: under, mutation: .noMarginOrSpacing), "the map's tiles cut without the tileset's margin and spacing")
    for (layer, index) in map.flippedTiles {
        let (column, row) = (index % map.columns, index / map.columns)
        let (x, y) = (column * map.tileWidth, row * map.tileHeight)
        let cell = { (image: Image) in image.crop(x: x, y: y, width: map.tileWidth, height: map.tileHeight) }
        let unflipped = try map.cell(column: column, row: row, over: cell(under), mutation: .unflipped(layer: layer, index: index))
        tells(cell(drawn), from: unflipped, "layer \(layer)'s tile at (\(column), \(row)) unflipped")
    }
    if map.flippedTiles.isEmpty { failures.append("the map flips no tile: the check cannot tell that flips are drawn") }
}

// The text, on the panel: the strip from the pen's start to the panel's right edge, one line high.
let text = layout.text
let font = try BMFontFile(file: text.font)
let strip = (x: text.x, y: text.y, width: layout.panel[0] + layout.panel[2] - text.x, height: font.lineHeight)
if strip.x < layout.panel[0] || strip.width <= 0 || strip.y < layout.panel[1] || strip.y + strip.height > layout.panel[1] + layout.panel[3] {
    failures.append("the text's line \(strip) is not on the panel \(layout.panel)")
} else {
    let black = Image.black(width: strip.width, height: strip.height)
    let drawn = shot.crop(x: strip.x, y: strip.y, width: strip.width, height: strip.height)
    let expected = try font.draw(text.string, on: black, x: 0, y: 0)
    compare("text \"\(text.string)\" in \(text.font) at (\(text.x), \(text.y))", drawn, expected)
    expectedScreen = expectedScreen.placing(expected, x: strip.x, y: strip.y)
    tells(drawn, from: black, "the text missing")
    let pairs = font.pairs(in: text.string)
    for pair in pairs {
        tells(drawn, from: try font.draw(text.string, on: black, x: 0, y: 0, unkerned: [pair]), "the text without the kerning of \(pair)")
    }
    if pairs.isEmpty { failures.append("the text makes none of the font's kerning pairs: the check cannot tell that kerning is drawn") }
}

// The animation, on the panel: the frame its tag shows at the layout's time, as the sheet
// Aseprite would export from the same file holds it.
let animation = layout.animation
let sheet = try AnimationSheet(exportedFrom: animation.file)
if let due = sheet.frame(at: animation.milliseconds, tag: animation.tag) {
    if animation.frame != due {
        failures.append("the animation showed frame \(animation.frame) at \(animation.milliseconds) ms of \(animation.tag); its durations say \(due)")
    }
    let expected = try sheet.image(ofFrame: due).overBlack()
    let drawn = shot.crop(x: animation.x, y: animation.y, width: expected.width, height: expected.height)
    compare("animation \(animation.file) frame \(due) (\(animation.tag), \(animation.milliseconds) ms) at (\(animation.x), \(animation.y))", drawn, expected)
    expectedScreen = expectedScreen.placing(expected, x: animation.x, y: animation.y)
    let next = (due + 1) % sheet.frames.count
    tells(drawn, from: try sheet.image(ofFrame: next).overBlack(), "the animation's next frame shown")
    tells(drawn, from: Image.black(width: expected.width, height: expected.height), "the animation missing")
} else {
    failures.append("the sheet \(sheet.descriptor) has no tag \(animation.tag)")
}

// Nothing is blended over the patch: exact, the software renderer copies it within 1.
let patch = layout.backgroundPatch
compare(
    "background patch \(patch)", shot.crop(x: patch[0], y: patch[1], width: patch[2], height: patch[3]),
    background.crop(x: patch[0], y: patch[1], width: patch[2], height: patch[3]), standard: standard.isExact ? .exact(tolerance: 1) : standard)
if case .psnr = standard {
    if (shot.width, shot.height) == (expectedScreen.width, expectedScreen.height) {
        compare("the whole screen \(shot.width)x\(shot.height)", shot, expectedScreen)
    } else {
        failures.append("the screenshot is \(shot.width)x\(shot.height), the background \(expectedScreen.width)x\(expectedScreen.height)")
    }
}
let missed = mutations.filter { !$0.caught }.map(\.name)
if !missed.isEmpty { failures.append("the check could not tell a mutated picture from a right one: \(missed.joined(separator: "; "))") }
if failures.isEmpty {
    print(
        "screenshot matches (\(standard.requirement)): \(layout.sprites.count) sprites, the map, the text, the animation's frame and the background; "
            + "each of \(mutations.count) mistakes made on purpose would have been caught")
} else {
    for failure in failures { print("MISMATCH: \(failure)") }
    exit(1)
}
