import Preload
import PreloadAtlas

/// Whole-canvas frames made into regions of packed pages: each frame trimmed to the bounds of
/// its pixels with alpha, identical trimmed frames stored once, the rest placed by PreloadAtlas's
/// `RectanglePacker` (the package's one packer) with a pixel of spacing, and copied onto RGBA8
/// pages in pooled memory (`AssetBytes`), as every decoder writes its pixels.
enum FramePacking {
    /// A trimmed frame's pixels and where they sit on the canvas: equal keys are one stored image.
    struct Trim: Hashable {
        var bounds: PixelRect
        var pixels: [UInt8]

        /// The bounds and every pixel, folded 8 bytes at a time into one word the hasher takes
        /// (each step a bijection, so frames that differ in one word never hash alike); equality
        /// still compares every pixel. An array of bytes hashes byte by byte (`[UInt8]`'s own
        /// `hash(into:)`: 61% of loading a 480x270 GIF of 60 frames, a quarter of loading small
        /// `.aseprite` files); SipHash over every byte (`combine(bytes:)`) is slower than this fold.
        func hash(into hasher: inout Hasher) {
            hasher.combine(bounds)
            var folded = UInt64(pixels.count)
            pixels.withUnsafeBytes { bytes in
                let words = bytes.count / 8
                for index in 0..<words {
                    folded = (folded ^ bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
                }
                for index in words * 8..<bytes.count { folded = (folded ^ UInt64(bytes[index])) &* 0x9E37_79B9_7F4A_7C15 }
            }
            hasher.combine(folded)
        }
    }

    /// `canvas` (`width * height` RGBA8 pixels) trimmed to the bounds of its pixels with alpha.
    static func trim(_ canvas: [UInt8], width: Int, height: Int) -> Trim {
        let bounds = Self.bounds(canvas, width: width, height: height)
        return Trim(bounds: bounds, pixels: crop(canvas, width: width, to: bounds))
    }

    /// The pages and frames of `canvases` (each `width * height` RGBA8 pixels) shown for
    /// `durations`, the pages in `memory`'s pooled memory.
    static func pack(
        _ canvases: [[UInt8]], durations: [Int], width: Int, height: Int, memory: AssetMemory
    ) throws -> (pages: [Texture], frames: [SpriteAnimation.Frame]) {
        try pack(trimmed: canvases.map { trim($0, width: width, height: height) }, durations: durations, width: width, height: height, memory: memory)
    }

    /// The pages and frames of frames already trimmed (``trim(_:width:height:)``, as a decoder
    /// that keeps only each frame's trim does) on a `width` x `height` canvas, shown for
    /// `durations`, the pages in `memory`'s pooled memory.
    static func pack(
        trimmed frames: [Trim], durations: [Int], width: Int, height: Int, memory: AssetMemory
    ) throws -> (pages: [Texture], frames: [SpriteAnimation.Frame]) {
        var unique: [Trim: Int] = [:]
        var trims = [Trim]()
        var frameTrim = [Int]()
        for key in frames {
            if let index = unique[key] {
                frameTrim.append(index)
            } else {
                unique[key] = trims.count
                frameTrim.append(trims.count)
                trims.append(key)
            }
        }
        let packer = RectanglePacker(maxPageSize: max(2048, width, height), spacing: 1)
        let packing = try packer.pack(trims.map { ($0.bounds.width, $0.bounds.height) })
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

    /// The smallest rectangle holding every pixel of `canvas` whose alpha is not 0 (empty when
    /// there is none).
    static func bounds(_ canvas: [UInt8], width: Int, height: Int) -> PixelRect {
        var (left, top, right, bottom) = (width, height, 0, 0)
        for y in 0..<height {
            for x in 0..<width where canvas[(y * width + x) * 4 + 3] != 0 {
                (left, top, right, bottom) = (min(left, x), min(top, y), max(right, x + 1), max(bottom, y + 1))
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
