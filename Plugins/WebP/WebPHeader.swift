import Preload

/// The size a WebP file declares, read without libwebp from its first 30 bytes: the RIFF header
/// and the first chunk's header (`VP8 ` for a lossy image, `VP8L` for a lossless one, `VP8X` for
/// the extended format, whose canvas is the image's or the animation's size).
package struct WebPHeader: Hashable, Sendable {
    /// The file's first chunk: what kind of WebP it is.
    package enum Kind: Hashable, Sendable {
        /// A lossy still image (`VP8 `).
        case lossy
        /// A lossless still image (`VP8L`).
        case lossless
        /// The extended format (`VP8X`): alpha with a lossy image, metadata, or an animation.
        case extended(isAnimated: Bool, hasAlpha: Bool)
    }

    /// The bytes every WebP starts with at offsets 0 and 8; the RIFF size sits between them.
    package static let riff = Array("RIFF".utf8), form = Array("WEBP".utf8)
    /// How many leading bytes the header needs: RIFF (12), a chunk header (8), and the
    /// largest of the three chunks' size fields (10 for `VP8 ` and `VP8X`).
    package static let length = 30

    package let kind: Kind
    package let width: Int
    package let height: Int
    /// The RIFF chunk's size field: the file's length less 8 (before padding), as written.
    package let riffSize: Int

    /// Whether `bytes` start like a WebP file: `RIFF`, a size, `WEBP`.
    package static func hasSignature(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.count >= 12 && bytes.prefix(4).elementsEqual(riff) && bytes.dropFirst(8).prefix(4).elementsEqual(form)
    }

    /// Whether `bytes`, shorter than a RIFF header, could be the start of one (a file cut short).
    package static func startsLikeSignature(_ bytes: some Collection<UInt8>) -> Bool {
        let signature = riff.map(Optional.some) + [nil, nil, nil, nil] + form.map(Optional.some)
        return !bytes.isEmpty && bytes.count < 12 && zip(bytes, signature).allSatisfy { $1 == nil || $0 == $1 }
    }

    /// The RIFF size field of `bytes`, which start with a RIFF header: the file's length less 8.
    package static func riffSize<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Int where Bytes.Index == Int {
        RIFFChunks.riffSize(of: bytes) ?? 0
    }

    /// Parses `bytes`, the start of a file; `nil` unless they hold a RIFF/WEBP header and a
    /// `VP8 `, `VP8L` or `VP8X` chunk header with its size fields.
    package init?(_ bytes: [UInt8]) {
        guard Self.hasSignature(bytes), bytes.count >= 25 else { return nil }
        let reader = ByteReader(bytes)
        func littleEndian(_ offset: Int, _ count: Int) -> Int {
            (try? reader.littleEndian(at: offset, byteCount: count, "the WebP header")) ?? 0  // the lengths were checked above
        }
        riffSize = Self.riffSize(bytes)
        switch String(decoding: bytes[12..<16], as: UTF8.self) {
        case "VP8 ":
            // A 3-byte frame tag, the start code 9D 01 2A, then 14-bit width and height (2 bits of scale each).
            guard bytes.count >= 30, bytes[23] == 0x9D, bytes[24] == 0x01, bytes[25] == 0x2A else { return nil }
            kind = .lossy
            width = littleEndian(26, 2) & 0x3FFF
            height = littleEndian(28, 2) & 0x3FFF
        case "VP8L":
            // The signature byte 0x2F, then 14 bits of width - 1 and 14 bits of height - 1.
            guard bytes[20] == 0x2F else { return nil }
            let bits = littleEndian(21, 4)
            kind = .lossless
            width = (bits & 0x3FFF) + 1
            height = (bits >> 14 & 0x3FFF) + 1
        case "VP8X":
            // Flags (alpha 0x10, animation 0x02), 3 reserved bytes, then 24-bit width - 1 and height - 1.
            guard bytes.count >= 30 else { return nil }
            kind = .extended(isAnimated: bytes[20] & 0x02 != 0, hasAlpha: bytes[20] & 0x10 != 0)
            width = littleEndian(24, 3) + 1
            height = littleEndian(27, 3) + 1
        default:
            return nil
        }
    }
}
