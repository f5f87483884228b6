import Foundation
import Preload
import SceneLayout

// Checks a LoadingScreen screenshot against the source images: every sprite the layout lists
// must show, pixel for pixel (within the renderer's blending rounding), its source image as
// straight alpha blended over the black panel; a patch of background must be the background.
// The expected images are built without Preload's atlas reader (frames come from the
// descriptor's JSON here), and the check proves it can fail: a flipped, twice-premultiplied or
// missing sprite would exceed the tolerance.
//
//     ScreenshotCheck SHOT.png   (reads SHOT.png.layout.json)

let tolerance = 4
guard CommandLine.arguments.count == 2 else { fatalError("usage: ScreenshotCheck SHOT.png") }
let shotPath = CommandLine.arguments[1]
let shot = try Image.decode(file: shotPath)
let layout = try JSONDecoder().decode(SceneLayout.self, from: Data(contentsOf: URL(fileURLWithPath: shotPath + ".layout.json")))
var failures: [String] = []
var caught = (flipped: false, premultipliedTwice: false, missing: false)

for sprite in layout.sprites {
    let source = try Expected.source(of: sprite)
    guard source.width == sprite.width, source.height == sprite.height else {
        failures.append("\(sprite.name): source is \(source.width)x\(source.height), layout says \(sprite.width)x\(sprite.height)")
        continue
    }
    let drawn = shot.crop(x: sprite.x, y: sprite.y, width: sprite.width, height: sprite.height)
    let difference = drawn.largestDifference(from: source.overBlack())
    print("\(sprite.name) at (\(sprite.x), \(sprite.y)) \(sprite.width)x\(sprite.height): largest difference \(difference)")
    if difference > tolerance { failures.append("\(sprite.name): differs by up to \(difference) from its source") }
    caught.flipped = caught.flipped || drawn.largestDifference(from: source.flipped().overBlack()) > tolerance
    caught.premultipliedTwice = caught.premultipliedTwice || drawn.largestDifference(from: source.premultiplied().overBlack()) > tolerance
    caught.missing = caught.missing || drawn.largestDifference(from: Image.black(width: source.width, height: source.height)) > tolerance
}
let patch = layout.backgroundPatch
let background = try Image.decode(file: layout.background).crop(x: patch[0], y: patch[1], width: patch[2], height: patch[3])
let backgroundDifference = shot.crop(x: patch[0], y: patch[1], width: patch[2], height: patch[3]).largestDifference(from: background)
print("background patch \(patch): largest difference \(backgroundDifference)")
if backgroundDifference > 1 { failures.append("the background patch differs by up to \(backgroundDifference)") }
if layout.sprites.isEmpty { failures.append("the layout lists no sprites") }
if !(caught.flipped && caught.premultipliedTwice && caught.missing) {
    failures.append("the check could not tell a mutated sprite from a right one: \(caught)")
}
if failures.isEmpty {
    print("screenshot matches: \(layout.sprites.count) sprites and the background")
} else {
    for failure in failures { print("MISMATCH: \(failure)") }
    exit(1)
}
