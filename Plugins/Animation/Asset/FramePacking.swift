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

        /// The bounds and every pixel, folded 8 bytes at a time into four words (every fourth
        /// word into each, so the four folds run side by side) the hasher takes: each step is a
        /// bijection, so frames that differ in one word never fold alike; equality still compares
        /// every pixel. An array of bytes hashes byte by byte (`[UInt8]`'s own `hash(into:)`: 61%
        /// of loading a 480x270 GIF of 60 frames, a quarter of loading small `.aseprite` files);
        /// SipHash over every byte (`combine(bytes:)`) took 1.5 to 2.6 times one fold's time over
        /// a 480x270 frame (a loop of 200, `swiftc -O`, a loaded machine).
        func hash(into hasher: inout Hasher) {
            hasher.combine(bounds)
            let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
            var folds: (UInt64, UInt64, UInt64, UInt64) = (UInt64(pixels.count), 1, 2, 3)
            pixels.withUnsafeBytes { bytes in
                func word(_ index: Int) -> UInt64 { bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) }
                let quads = bytes.count / 32
                for quad in 0..<quads {
                    folds.0 = (folds.0 ^ word(quad * 4)) &* multiplier
                    folds.1 = (folds.1 ^ word(quad * 4 + 1)) &* multiplier
                    folds.2 = (folds.2 ^ word(quad * 4 + 2)) &* multiplier
                    folds.3 = (folds.3 ^ word(quad * 4 + 3)) &* multiplier
                }
                for index in quads * 32..<bytes.count { folds.0 = (folds.0 ^ UInt64(bytes[index])) &* multiplier }
            }
            hasher.combine(folds.0)
            hasher.combine(folds.1)
            hasher.combine(folds.2)
            hasher.combine(folds.3)
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
        unique.reserveCapacity(frames.count)  // growing rehashes every key: 6% of a 60-frame GIF's load
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
        canvas.withUnsafeBufferPointer { pixels in
            // Each row from its ends inwards: an opaque row costs two pixels, not its width.
            for y in 0..<height {
                let alpha = y * width * 4 + 3
                guard let first = (0..<width).first(where: { pixels[alpha + $0 * 4] != 0 }),
                    let last = (first..<width).last(where: { pixels[alpha + $0 * 4] != 0 })
                else { continue }
                (left, right) = (min(left, first), max(right, last + 1))
                (top, bottom) = (min(top, y), y + 1)
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
