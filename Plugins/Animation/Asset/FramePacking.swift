#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Preload
import PreloadAtlas

/// Frames made into regions of packed pages: each frame trimmed to the bounds of its pixels with
/// alpha, identical trimmed frames stored once, the rest placed by PreloadAtlas's
/// `RectanglePacker` (the package's one packer) with a pixel of spacing, and copied onto RGBA8
/// pages in pooled memory (`AssetBytes`), as every decoder writes its pixels.
///
/// A frame's trimmed pixels are read where they already are (``Trim``: a composited canvas, or
/// an exported sheet's rectangle), or, for a decoder that draws every frame on one canvas
/// (Aseprite, GIF), the trimmed rows copied out before the next frame draws
/// (``trim(_:width:height:within:)``).
enum FramePacking {
    /// A frame's trimmed pixels where they lie: `bounds.height` rows of `bounds.width` straight
    /// RGBA8 pixels, the first at `start` in `bytes`, each `stride` bytes after the one before.
    /// `bounds` is where they go on the canvas. Equal when the bounds and the pixels are.
    struct Trim: Hashable {
        let bytes: AssetBytes
        let start: Int
        let stride: Int
        let bounds: PixelRect

        /// The trim of the `width` x `height` pixels at `start` of `bytes` (rows `stride` apart),
        /// placed at `origin` on the canvas: shrunk to the pixels whose alpha is not 0 (empty, at
        /// the canvas's origin, when there is none).
        init(of bytes: AssetBytes, start: Int, stride: Int, width: Int, height: Int, origin: (x: Int, y: Int)) {
            var (left, top, right, bottom) = (width, height, 0, 0)
            bytes.withUnsafeBufferPointer { pixels in
                for y in 0..<height {
                    let row = start + y * stride + 3
                    guard let first = (0..<width).first(where: { pixels[row + $0 * 4] != 0 }) else { continue }
                    let last = (first..<width).last { pixels[row + $0 * 4] != 0 } ?? first
                    (left, right) = (min(left, first), max(right, last + 1))
                    if top == height { top = y }
                    bottom = y + 1
                }
            }
            self.bytes = bytes
            self.stride = stride
            guard left < right else {
                (self.start, bounds) = (start, PixelRect(x: 0, y: 0, width: 0, height: 0))
                return
            }
            self.start = start + top * stride + left * 4
            bounds = PixelRect(x: origin.x + left, y: origin.y + top, width: right - left, height: bottom - top)
        }

        /// The trim `bounds` already found, its rows at `start` of `bytes`, `stride` bytes apart.
        init(bytes: AssetBytes, start: Int, stride: Int, bounds: PixelRect) {
            (self.bytes, self.start, self.stride, self.bounds) = (bytes, start, stride, bounds)
        }

        /// Calls `body` with row `row`'s pixels.
        func withRow<Result>(_ row: Int, in raw: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            let from = start + row * stride
            return body(UnsafeRawBufferPointer(rebasing: raw[from..<from + bounds.width * 4]))
        }

        static func == (lhs: Trim, rhs: Trim) -> Bool {
            guard lhs.bounds == rhs.bounds else { return false }
            let rowBytes = lhs.bounds.width * 4
            guard rowBytes > 0 else { return true }
            return lhs.bytes.withUnsafeBytes { left in
                rhs.bytes.withUnsafeBytes { right in
                    (0..<lhs.bounds.height).allSatisfy { row in
                        memcmp(left.baseAddress! + lhs.start + row * lhs.stride, right.baseAddress! + rhs.start + row * rhs.stride, rowBytes) == 0
                    }
                }
            }
        }

        /// The bounds and three rows (first, middle, last): frames that differ elsewhere are told
        /// apart by ``==``.
        func hash(into hasher: inout Hasher) {
            hasher.combine(bounds)
            guard bounds.width > 0, bounds.height > 0 else { return }
            bytes.withUnsafeBytes { raw in  // three calls, not a loop over an array made for each hash
                withRow(0, in: raw) { hasher.combine(bytes: $0) }
                withRow(bounds.height / 2, in: raw) { hasher.combine(bytes: $0) }
                withRow(bounds.height - 1, in: raw) { hasher.combine(bytes: $0) }
            }
        }
    }

    /// `canvas` (`width * height` RGBA8 pixels) trimmed to the bounds of its pixels with alpha
    /// (only those `within` it, the whole canvas when not given), the trimmed rows copied out on
    /// their own: a decoder that keeps each frame's trim until packing (GIF, Aseprite) holds no
    /// whole canvas per frame.
    static func trim(_ canvas: [UInt8], width: Int, height: Int, within area: PixelRect? = nil) -> Trim {
        let area = area ?? PixelRect(x: 0, y: 0, width: width, height: height)
        let view = Trim(
            of: AssetBytes(canvas), start: (area.y * width + area.x) * 4, stride: width * 4, width: area.width, height: area.height,
            origin: (area.x, area.y))
        let bounds = view.bounds, rowBytes = bounds.width * 4
        let rows = [UInt8](unsafeUninitializedCapacity: rowBytes * bounds.height) { buffer, count in
            let target = UnsafeMutableRawBufferPointer(buffer)
            view.bytes.withUnsafeBytes { raw in
                for row in 0..<bounds.height {
                    let into = UnsafeMutableRawBufferPointer(rebasing: target[row * rowBytes..<(row + 1) * rowBytes])
                    view.withRow(row, in: raw) { into.copyMemory(from: $0) }
                }
            }
            count = rowBytes * bounds.height
        }
        return Trim(bytes: AssetBytes(rows), start: 0, stride: rowBytes, bounds: bounds)
    }

    /// The pages and frames of `canvases` (each `width * height` RGBA8 pixels) shown for
    /// `durations`, the pages in `memory`'s pooled memory.
    static func pack(
        _ canvases: [[UInt8]], durations: [Int], width: Int, height: Int, memory: AssetMemory
    ) throws -> (pages: [Texture], frames: [SpriteAnimation.Frame]) {
        let trims = canvases.map {
            Trim(of: AssetBytes($0), start: 0, stride: width * 4, width: width, height: height, origin: (0, 0))
        }
        return try pack(trims, durations: durations, width: width, height: height, memory: memory)
    }

    /// The pages and frames of `trims` (on a `width` x `height` canvas; a decoder that keeps
    /// only each frame's trim makes them with ``trim(_:width:height:)``) shown for `durations`,
    /// the pages in `memory`'s pooled memory.
    static func pack(
        _ trims: [Trim], durations: [Int], width: Int, height: Int, memory: AssetMemory
    ) throws -> (pages: [Texture], frames: [SpriteAnimation.Frame]) {
        var unique: [Trim: Int] = [:]
        unique.reserveCapacity(trims.count)  // growing rehashes every key: 6% of a 60-frame GIF's load
        var stored = [Trim]()
        var frameTrim = [Int]()
        for trim in trims {
            if let index = unique[trim] {
                frameTrim.append(index)
            } else {
                unique[trim] = stored.count
                frameTrim.append(stored.count)
                stored.append(trim)
            }
        }
        let packing = try Self.packing(stored.map { ($0.bounds.width, $0.bounds.height) }, largestSide: max(2048, width, height))
        let textures = packing.pageSizes.enumerated().map { page, size in
            let byteCount = size.width * size.height * 4
            let pixels = AssetBytes(unsafeUninitializedCapacity: byteCount, memory: memory) { buffer, count in
                buffer.initializeMemory(as: UInt8.self, repeating: 0)
                for (trim, placement) in zip(stored, packing.placements) where placement.page == page {
                    trim.bytes.withUnsafeBytes { source in
                        for row in 0..<trim.bounds.height {
                            let target = ((placement.rect.y + row) * size.width + placement.rect.x) * 4
                            trim.withRow(row, in: source) {
                                UnsafeMutableRawBufferPointer(rebasing: buffer[target..<target + $0.count]).copyMemory(from: $0)
                            }
                        }
                    }
                }
                count = byteCount
            }
            return Texture(width: size.width, height: size.height, pixelFormat: .rgba8, alphaMode: .straight, pixels: pixels)
        }
        let frames = zip(frameTrim, durations).map { index, duration in
            let placement = packing.placements[index], bounds = stored[index].bounds
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
}
