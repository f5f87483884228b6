import CPreloadZlib

/// Builds PNG files byte by byte for tests: valid images of any size, and damaged ones whose
/// chunk CRCs are still right (so the damage is in the field under test, not the checksum).
public enum PNGFixture {
    /// The eight bytes every PNG file starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// An 8-bit RGBA PNG of `rgba` (`width * height * 4` bytes), not interlaced.
    public static func rgba(width: Int, height: Int, pixels rgba: [UInt8], level: Int32 = 6) -> [UInt8] {
        precondition(rgba.count == width * height * 4)
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (width * 4 + 1))
        for row in 0..<height {
            raw.append(0)  // filter type None
            raw.append(contentsOf: rgba[(row * width * 4)..<((row + 1) * width * 4)])
        }
        return signature + chunk("IHDR", ihdr(width: width, height: height, bitDepth: 8, colorType: 6))
            + chunk("IDAT", deflate(raw, level: level)) + chunk("IEND", [])
    }

    /// A PNG whose IHDR claims `width` x `height` and whose image data is a few bytes: what a
    /// decompression bomb or a hostile file looks like before any pixel is decoded.
    public static func headerOnly(width: Int, height: Int) -> [UInt8] {
        signature + chunk("IHDR", ihdr(width: width, height: height, bitDepth: 8, colorType: 6))
            + chunk("IDAT", deflate([0, 0, 0, 0, 0], level: 6)) + chunk("IEND", [])
    }

    /// Deterministic pseudo-random RGBA pixels (they compress poorly, like real art).
    public static func noise(width: Int, height: Int, seed: UInt64 = 1) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<(width * height * 4)).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }

    /// A square PNG of `side` x `side` ``noise(width:height:seed:)`` pixels.
    public static func noisePNG(side: Int, seed: UInt64) -> [UInt8] {
        rgba(width: side, height: side, pixels: noise(width: side, height: side, seed: seed))
    }

    /// ``noisePNG(side:seed:)`` touched up: the rows `rows` painted over (a gradient), the rest
    /// the same pixels. A texture's new version, for deltas against its old one.
    public static func touchedUpNoisePNG(side: Int, seed: UInt64, rows: Range<Int>) -> [UInt8] {
        var pixels = noise(width: side, height: side, seed: seed)
        for byte in rows.clamped(to: 0..<side).lowerBound * side * 4..<rows.clamped(to: 0..<side).upperBound * side * 4 {
            pixels[byte] = UInt8(truncatingIfNeeded: byte &* 7)
        }
        return rgba(width: side, height: side, pixels: pixels)
    }

    /// An IHDR chunk (with its length and CRC) for an image of that size and format.
    public static func ihdr(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8) -> [UInt8] {
        bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [bitDepth, colorType, 0, 0, 0]
    }

    /// A chunk with its length and CRC.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        return bigEndian(UInt32(data.count)) + typed + bigEndian(UInt32(crc))
    }

    /// `data` compressed as a zlib stream at `level` (0 to 9), as PNG image data is.
    public static func deflate(_ data: [UInt8], level: Int32) -> [UInt8] {
        var size = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = data.withUnsafeBufferPointer { input in
            compress2(&out, &size, input.baseAddress, uLong(input.count), level)
        }
        precondition(status == Z_OK, "compress2 failed: \(status)")
        return Array(out.prefix(Int(size)))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
