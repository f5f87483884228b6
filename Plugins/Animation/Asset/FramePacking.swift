import Preload
import PreloadAtlas

/// Whole-canvas frames made into regions of packed pages: each frame trimmed to the bounds of
/// its pixels with alpha, identical trimmed frames stored once, the rest placed by PreloadAtlas's
/// `RectanglePacker` (the package's one packer) with a pixel of spacing, and copied onto RGBA8
/// pages in pooled memory (`AssetBytes`), as every decoder writes its pixels.
enum FramePacking {
    /// A trimmed frame's pixels and where they sit.
    private struct Trim {
        var bounds: PixelRect
        var pixels: [UInt8]
    }

    /// The pages and frames of `canvases` (each `width * height` RGBA8 pixels) shown for
    /// `durations`, the pages in `memory`'s pooled memory. `sameAs`, when given, names for each
    /// frame an earlier one known to be the same image (or itself): such a frame is not trimmed
    /// or compared again.
    static func pack(
        _ canvases: [[UInt8]], sameAs: [Int]? = nil, durations: [Int], width: Int, height: Int, memory: AssetMemory
    ) throws -> (pages: [Texture], frames: [SpriteAnimation.Frame]) {
        // Stored trims by their bounds: only trims of the same bounds are compared, byte for byte.
        var unique: [PixelRect: [Int]] = [:]
        var trims = [Trim]()
        var frameTrim = [Int]()
        for (index, canvas) in canvases.enumerated() {
            if let earlier = sameAs?[index], earlier < index {
                frameTrim.append(frameTrim[earlier])
                continue
            }
            let bounds = Self.bounds(canvas, width: width, height: height)
            let pixels = Self.crop(canvas, width: width, to: bounds)
            if let index = unique[bounds]?.first(where: { Self.equal(trims[$0].pixels, pixels) }) {
                frameTrim.append(index)
            } else {
                unique[bounds, default: []].append(trims.count)
                frameTrim.append(trims.count)
                trims.append(Trim(bounds: bounds, pixels: pixels))
            }
        }
        let packing = try Self.packing(trims.map { ($0.bounds.width, $0.bounds.height) }, largestSide: max(2048, width, height))
        let textures = packing.pageSizes.enumerated().map { page, size in
            let byteCount = size.width * size.height * 4
            let pixels = AssetBytes(unsafeUninitializedCapacity: byteCount, memory: memory) { buffer, count in
                buffer.initializeMemory(as: UInt8.self, repeating: 0)
                for (trim, placement) in zip(trims, packing.placements) where placement.page == page {
                    let rowBytes = trim.bounds.width * 4
                    for row in 0..<trim.bounds.height {
                        let target = ((placement.rect.y + row) * size.width + placement.rect.x) * 4
                        trim.pixels.withUnsafeBytes { source in
                            UnsafeMutableRawBufferPointer(rebasing: buffer[target..<target + rowBytes]).copyMemory(
                                from: UnsafeRawBufferPointer(rebasing: source[row * rowBytes..<(row + 1) * rowBytes]))
                        }
                    }
                }
                count = byteCount
            }
            return Texture(width: size.width, height: size.height, pixelFormat: .rgba8, alphaMode: .straight, pixels: pixels)
        }
        let frames = zip(frameTrim, durations).map { index, duration in
            let placement = packing.placements[index], bounds = trims[index].bounds
            return SpriteAnimation.Frame(
                page: placement.page, rect: PixelRect(x: placement.rect.x, y: placement.rect.y, width: bounds.width, height: bounds.height),
                canvasRect: bounds, durationMilliseconds: duration)
        }
        return (textures, frames)
    }

    /// Where `sizes` go, with a pixel of spacing: in one greedy pass of PreloadAtlas's packer over
    /// a square page sized to their area (a few frames need not be laid out over a 2048 page, nor
    /// repacked into 25 widths), the square doubled when they do not fit on one page, up to
    /// `largestSide`, where the packer opens more pages.
    static func packing(_ sizes: [(width: Int, height: Int)], largestSide: Int) throws -> RectanglePacker.Packing {
        let area = sizes.reduce(0) { $0 + ($1.width + 1) * ($1.height + 1) }
        let widest = sizes.reduce(1) { max($0, $1.width, $1.height) }
        var side = min(largestSide, max(widest, Int((Double(area) * 1.2).squareRoot()) + 1))
        while true {
            let packing = try RectanglePacker(maxPageSize: side, spacing: 1, shrinksPages: false).pack(sizes)
            if packing.pageSizes.count <= 1 || side >= largestSide { return packing }
            side = min(largestSide, side * 2)
        }
    }

    /// Whether two trims' pixels are the same bytes.
    private static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBytes { left in b.withUnsafeBytes { right in left.count == right.count && left.elementsEqual(right) } }
    }

    /// The smallest rectangle holding every pixel of `canvas` whose alpha is not 0 (empty when
    /// there is none). Pixels are read as 32-bit words, a row passed over when its alpha bytes
    /// OR to 0.
    static func bounds(_ canvas: [UInt8], width: Int, height: Int) -> PixelRect {
        var (left, top, right, bottom) = (width, height, 0, 0)
        let alpha = UInt32(littleEndian: 0xFF00_0000)
        canvas.withUnsafeBytes { raw in
            raw.withMemoryRebound(to: UInt32.self) { pixels in
                for y in 0..<height {
                    let row = pixels[y * width..<(y + 1) * width]
                    guard row.reduce(0, |) & alpha != 0 else { continue }
                    let first = row.firstIndex { $0 & alpha != 0 }! - y * width
                    let last = row.lastIndex { $0 & alpha != 0 }! - y * width
                    (left, right) = (min(left, first), max(right, last + 1))
                    if top == height { top = y }
                    bottom = y + 1
                }
            }
        }
        return left < right ? PixelRect(x: left, y: top, width: right - left, height: bottom - top) : PixelRect(x: 0, y: 0, width: 0, height: 0)
    }

    /// The pixels of `canvas` inside `bounds`, rows top first.
    static func crop(_ canvas: [UInt8], width: Int, to bounds: PixelRect) -> [UInt8] {
        var pixels = [UInt8]()
        pixels.reserveCapacity(bounds.width * bounds.height * 4)
        for row in bounds.y..<bounds.y + bounds.height {
            let start = (row * width + bounds.x) * 4
            pixels += canvas[start..<start + bounds.width * 4]
        }
        return pixels
    }
}
