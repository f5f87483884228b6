/// The size fields of a JPEG's frame header (SOF), read without libjpeg by walking the segments
/// from the start of a file.
package struct JPEGHeader: Hashable, Sendable {
    /// Width in pixels, as stored.
    package let width: Int
    /// Height in pixels, as stored.
    package let height: Int
    /// Colour components: 1 (greyscale), 3 (YCbCr or RGB) or 4 (CMYK or YCCK).
    package let components: Int
    /// Whether the frame is progressive (SOF2, SOF6, SOF10, SOF14).
    package let isProgressive: Bool

    /// Parses `bytes`, the start of a file; `nil` unless they hold the SOI marker and, after
    /// whole segments, a frame header with a non-zero size.
    package init?(_ bytes: [UInt8]) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            switch marker {
            case 0xFF:  // a fill byte before a marker
                offset += 1
                continue
            case 0x01, 0xD0...0xD7:  // markers without a length
                offset += 2
                continue
            case 0xD8, 0xD9, 0xDA:  // a second SOI, EOI, or a scan before any frame header
                return nil
            default:
                break
            }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
                let fields = offset + 4  // precision, height (2), width (2), components
                guard length >= 8, fields + 6 <= bytes.count else { return nil }
                height = Int(bytes[fields + 1]) << 8 | Int(bytes[fields + 2])
                width = Int(bytes[fields + 3]) << 8 | Int(bytes[fields + 4])
                components = Int(bytes[fields + 5])
                isProgressive = marker & 0x03 == 0x02
                guard width > 0, height > 0 else { return nil }
                return
            }
            offset += 2 + length
        }
        return nil
    }
}
