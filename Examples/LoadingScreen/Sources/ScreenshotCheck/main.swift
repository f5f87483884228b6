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
//     ScreenshotCheck SHOT.png   (reads SHOT.png.layout.json)

let tolerance = 4
guard CommandLine.arguments.count == 2 else { fatalError("usage: ScreenshotCheck SHOT.png") }
let shotPath = CommandLine.arguments[1]
let shot = try Image.decode(file: shotPath)
let layout = try JSONDecoder().decode(SceneLayout.self, from: Data(contentsOf: URL(fileURLWithPath: shotPath + ".layout.json")))
let background = try Image.decode(file: layout.background)
var failures: [String] = []
/// Each mistake made on purpose, and whether the comparison told it from the screenshot.
var mutations: [(name: String, caught: Bool)] = []

/// Compares `drawn` with `expected`, printing the largest difference and noting a failure over the tolerance.
@MainActor func compare(_ what: String, _ drawn: Image, _ expected: Image) {
    let difference = drawn.largestDifference(from: expected)
    print("\(what): largest difference \(difference)")
    if difference > tolerance { failures.append("\(what): differs by up to \(difference) from its source") }
}

/// Notes whether the comparison tells `drawn` from `mutated`, the picture with a mistake in it.
@MainActor func tells(_ drawn: Image, from mutated: Image, _ mistake: String) {
    mutations.append((mistake, drawn.largestDifference(from: mutated) > tolerance))
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
    caught.flipped = caught.flipped || drawn.largestDifference(from: source.flipped().overBlack()) > tolerance
    caught.premultipliedTwice = caught.premultipliedTwice || drawn.largestDifference(from: source.premultiplied().overBlack()) > tolerance
    caught.missing = caught.missing || drawn.largestDifference(from: Image.black(width: source.width, height: source.height)) > tolerance
}
if layout.sprites.isEmpty { failures.append("the layout lists no sprites") }
mutations += [
    ("a sprite upside down", caught.flipped), ("a sprite premultiplied twice", caught.premultipliedTwice), ("a sprite missing", caught.missing),
]

// The map, over the background it covers.
let map = try TiledMapFile(file: layout.map.file)
if map.width != layout.map.width || map.height != layout.map.height {
    failures.append("the map is \(map.width)x\(map.height) pixels, the layout says \(layout.map.width)x\(layout.map.height)")
} else {
    let under = background.crop(x: layout.map.x, y: layout.map.y, width: map.width, height: map.height)
    let drawn = shot.crop(x: layout.map.x, y: layout.map.y, width: map.width, height: map.height)
    compare(
        "map \(layout.map.file) at (\(layout.map.x), \(layout.map.y)) \(map.width)x\(map.height), \(map.layers.count) layers", drawn,
        try map.drawn(over: under))
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
    compare("text \"\(text.string)\" in \(text.font) at (\(text.x), \(text.y))", drawn, try font.draw(text.string, on: black, x: 0, y: 0))
    tells(drawn, from: black, "the text missing")
    let pairs = font.pairs(in: text.string)
    for pair in pairs {
        tells(drawn, from: try font.draw(text.string, on: black, x: 0, y: 0, unkerned: [pair]), "the text without the kerning of \(pair)")
    }
    if pairs.isEmpty { failures.append("the text makes none of the font's kerning pairs: the check cannot tell that kerning is drawn") }
}

let patch = layout.backgroundPatch
let backgroundDifference = shot.crop(x: patch[0], y: patch[1], width: patch[2], height: patch[3])
    .largestDifference(from: background.crop(x: patch[0], y: patch[1], width: patch[2], height: patch[3]))
print("background patch \(patch): largest difference \(backgroundDifference)")
if backgroundDifference > 1 { failures.append("the background patch differs by up to \(backgroundDifference)") }
let missed = mutations.filter { !$0.caught }.map(\.name)
if !missed.isEmpty { failures.append("the check could not tell a mutated picture from a right one: \(missed.joined(separator: "; "))") }
if failures.isEmpty {
    print(
        "screenshot matches: \(layout.sprites.count) sprites, the map, the text and the background; "
            + "each of \(mutations.count) mistakes made on purpose would have been caught")
} else {
    for failure in failures { print("MISMATCH: \(failure)") }
    exit(1)
}
