import Preload
import PreloadAtlas

extension AsepriteReader {
    /// A slice chunk (0x2022): its name and keys, each with its bounds, its 9-slice centre
    /// (flag 1) and its pivot (flag 2). A key count that the chunk's bytes cannot hold fails
    /// before anything is reserved for it.
    static func slice(_ body: ByteReader<ArraySlice<UInt8>>, chunk: String) throws -> AnimationSlice {
        var reader = body
        let count = Int(try reader.littleEndian(UInt32.self, "\(chunk)'s slice key count"))
        let flags = try reader.littleEndian(UInt32.self, "\(chunk)'s slice flags")
        try reader.skip(4, "\(chunk)'s reserved bytes")
        let name = try string(&reader, "\(chunk)'s slice name")
        let hasCenter = flags & 1 != 0, hasPivot = flags & 2 != 0
        let keySize = 20 + (hasCenter ? 16 : 0) + (hasPivot ? 8 : 0)
        guard count <= reader.remaining / keySize else {
            throw AsepriteError.malformed(
                detail: "slice '\(name)' (\(chunk)) says it has \(count) keys of \(keySize) bytes; \(reader.remaining) bytes are left")
        }
        let keys = try (0..<count).map { number in
            let what = "slice '\(name)''s key \(number + 1)"
            let frame = Int(try reader.littleEndian(UInt32.self, "\(what)'s frame"))
            let bounds = try rect(&reader, what: "\(what)'s bounds")
            var key = AnimationSlice.Key(frame: frame, bounds: bounds)
            if hasCenter {
                let center = try rect(&reader, what: "\(what)'s centre")
                // Aseprite writes an empty centre for a key without one.
                key.center = center.width > 0 && center.height > 0 ? center : nil
            }
            if hasPivot {
                let x = Int(try reader.littleEndian(Int32.self, "\(what)'s pivot"))
                key.pivot = AnimationSlice.Point(x: x, y: Int(try reader.littleEndian(Int32.self, "\(what)'s pivot")))
            }
            return key
        }
        return AnimationSlice(name: name, keys: keys)
    }

    /// A signed x and y, then an unsigned width and height, 32 bits each.
    private static func rect(_ reader: inout ByteReader<ArraySlice<UInt8>>, what: String) throws -> PixelRect {
        let x = Int(try reader.littleEndian(Int32.self, what)), y = Int(try reader.littleEndian(Int32.self, what))
        return PixelRect(x: x, y: y, width: Int(try reader.littleEndian(UInt32.self, what)), height: Int(try reader.littleEndian(UInt32.self, what)))
    }
}
