import Preload
import PreloadZlib

/// The chunks a frame's pixels need: layers, cels, palettes, and tags, each read from its own
/// bytes (offsets from the chunk's data, after its 6-byte size and type).
extension AsepriteReader {
    /// A `STRING`: a 16-bit byte count, then that many UTF-8 bytes.
    static func string(_ reader: inout ByteReader<ArraySlice<UInt8>>, _ what: @autoclosure () -> String) throws -> String {
        let count = Int(try reader.littleEndian(UInt16.self, "\(what())'s length"))
        return String(decoding: try reader.bytes(count, what()), as: UTF8.self)
    }

    /// A layer chunk (0x2004).
    static func layer(_ body: ByteReader<ArraySlice<UInt8>>, chunk: AsepriteChunkName) throws -> AsepriteDocument.Layer {
        var reader = body
        let flags = try reader.littleEndian(UInt16.self, "\(chunk)'s layer flags")
        let type = try reader.littleEndian(UInt16.self, "\(chunk)'s layer type")
        let childLevel = Int(try reader.littleEndian(UInt16.self, "\(chunk)'s child level"))
        try reader.skip(4, "\(chunk)'s default size")
        let blendMode = Int(try reader.littleEndian(UInt16.self, "\(chunk)'s blend mode"))
        let opacity = Int(try reader.littleEndian(UInt8.self, "\(chunk)'s opacity"))
        try reader.skip(3, "\(chunk)'s reserved bytes")
        let name = try string(&reader, "\(chunk)'s layer name")
        var layer = AsepriteDocument.Layer(flags: flags, type: type, childLevel: childLevel, blendMode: blendMode, opacity: opacity, name: name)
        if type == 2 { layer.tileset = Int(try reader.littleEndian(UInt32.self, "\(chunk)'s tileset index")) }
        return layer
    }

    /// A cel chunk (0x2005): raw and compressed images are read into pixels of the sprite's
    /// depth (a compressed one inflated to exactly `width * height` pixels, never more); a
    /// linked cel keeps its frame; a tilemap cel its tiles (``tilemap(_:chunk:)``).
    mutating func cel(_ body: ByteReader<ArraySlice<UInt8>>, chunk: AsepriteChunkName) throws -> AsepriteDocument.Cel {
        var reader = body
        let layer = Int(try reader.littleEndian(UInt16.self, "\(chunk)'s layer index"))
        let x = Int(try reader.littleEndian(Int16.self, "\(chunk)'s x"))
        let y = Int(try reader.littleEndian(Int16.self, "\(chunk)'s y"))
        let opacity = Int(try reader.littleEndian(UInt8.self, "\(chunk)'s opacity"))
        let type = try reader.littleEndian(UInt16.self, "\(chunk)'s cel type")
        let zIndex = Int(try reader.littleEndian(Int16.self, "\(chunk)'s z-index"))
        try reader.skip(5, "\(chunk)'s reserved bytes")
        guard layer < document.layers.count else {
            throw AsepriteError.malformed(detail: "\(chunk) is a cel on layer \(layer), but the file has \(document.layers.count) layers")
        }
        let content: AsepriteDocument.Cel.Content
        switch type {
        case 0, 2:
            let width = Int(try reader.littleEndian(UInt16.self, "\(chunk)'s width"))
            let height = Int(try reader.littleEndian(UInt16.self, "\(chunk)'s height"))
            let count = width * height * document.depth.bytesPerPixel
            try reserve(count, for: "\(chunk)'s \(width)x\(height) cel")
            let stored = reader.bytes[(reader.bytes.startIndex + reader.offset)...]
            let pixels: [UInt8]
            if type == 0 {
                pixels = Array(try reader.bytes(count, "\(chunk)'s \(width)x\(height) pixels"))
            } else {
                pixels = try celPixels(stored, count: count, what: "\(chunk)'s \(width)x\(height) cel")
            }
            content = .image(width: width, height: height, pixels: pixels)
        case 1:
            let frame = Int(try reader.littleEndian(UInt16.self, "\(chunk)'s linked frame"))
            guard frame < frameCount else {
                throw AsepriteError.malformed(detail: "\(chunk) links to frame \(frame + 1), outside the file's \(frameCount) frames")
            }
            content = .linked(frame: frame)
            document.linkedCels += 1
        case 3: content = try tilemap(reader, chunk: chunk)
        default:
            throw AsepriteError.malformed(detail: "\(chunk) has cel type \(type) (0 to 3 are defined)")
        }
        return AsepriteDocument.Cel(layer: layer, x: x, y: y, opacity: opacity, zIndex: zIndex, content: content)
    }

    /// A compressed cel's pixels, inflated once for each distinct stream in the file: a sprite
    /// repeats cels from frame to frame without linking them, and equal stored bytes of the same
    /// size inflate to equal pixels, whose array the cels then share.
    mutating func celPixels(_ stored: ArraySlice<UInt8>, count: Int, what: @autoclosure () -> String) throws -> [UInt8] {
        // Keyed by the stored length: equal streams have equal lengths, and a cel's bytes are
        // compared only with the last few earlier cels as long (no hash of its bytes; a file of
        // many same-length cels costs at most 8 comparisons a cel).
        if let earlier = inflatedCels[stored.count]?.first(where: { $0.pixels.count == count && data[$0.stored] == stored }) {
            return earlier.pixels
        }
        let pixels = try Self.inflate(stored, count: count, what: what())
        inflatedCels[stored.count, default: []].append((stored.indices, pixels))
        if inflatedCels[stored.count, default: []].count > 8 { inflatedCels[stored.count, default: []].removeFirst() }
        return pixels
    }

    /// `stored` inflated through the package's one zlib inflate (`Zlib.decompress`: one call of
    /// libdeflate where the system has it) into exactly `count` bytes: data that ends short, or
    /// would go on past `count` (a zlib bomb), is refused.
    static func inflate(_ stored: ArraySlice<UInt8>, count: Int, what: @autoclosure () -> String) throws -> [UInt8] {
        var pixels = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        do {
            let produced = try stored.withUnsafeBytes { input in
                try pixels.withUnsafeMutableBytes { try Zlib.decompress(input, into: $0) }
            }
            guard produced == count else {
                throw AsepriteError.malformed(detail: "\(what())'s compressed pixels inflate to \(produced) bytes, not \(count)")
            }
        } catch let error as ZlibError where error.code == ZlibError.outputFull {
            throw AsepriteError.malformed(detail: "\(what())'s compressed pixels inflate past its \(count) bytes")
        } catch let error as ZlibError {
            throw AsepriteError.malformed(detail: "\(what())'s compressed pixels: \(error)")
        }
        return pixels
    }

    /// A palette chunk (0x2019) written over `palette`'s first 256 entries, and the palette's
    /// size (`count`, unless the chunk gives one).
    static func palette(
        _ body: ByteReader<ArraySlice<UInt8>>, onto palette: [UInt8], count: Int, chunk: AsepriteChunkName
    ) throws -> (palette: [UInt8], count: Int) {
        var reader = body, result = palette
        let size = Int(try reader.littleEndian(UInt32.self, "\(chunk)'s palette size"))
        let first = Int(try reader.littleEndian(UInt32.self, "\(chunk)'s first index"))
        let last = Int(try reader.littleEndian(UInt32.self, "\(chunk)'s last index"))
        try reader.skip(8, "\(chunk)'s reserved bytes")
        guard first <= last else { throw AsepriteError.malformed(detail: "\(chunk) changes entries \(first) to \(last)") }
        for index in first...last {
            let flags = try reader.littleEndian(UInt16.self, "\(chunk)'s entry \(index)")
            let color = try reader.bytes(4, "\(chunk)'s entry \(index)")
            if flags & 1 != 0 { _ = try string(&reader, "\(chunk)'s entry \(index)'s name") }
            if index < 256 {
                let at = color.startIndex
                (result[index * 4], result[index * 4 + 1], result[index * 4 + 2], result[index * 4 + 3]) = (
                    color[at], color[at + 1], color[at + 2], color[at + 3]
                )
            }
        }
        return (result, size > 0 ? size : count)
    }

    /// An old palette chunk (0x0004): packets of RGB entries, opaque.
    static func oldPalette(_ body: ByteReader<ArraySlice<UInt8>>, onto palette: [UInt8], chunk: AsepriteChunkName) throws -> [UInt8] {
        var reader = body, result = palette, index = 0
        let packets = Int(try reader.littleEndian(UInt16.self, "\(chunk)'s packet count"))
        for packet in 0..<packets {
            index += Int(try reader.littleEndian(UInt8.self, "\(chunk)'s packet \(packet + 1)"))
            let stored = Int(try reader.littleEndian(UInt8.self, "\(chunk)'s packet \(packet + 1)'s count"))
            let count = stored == 0 ? 256 : stored
            let rgb = try reader.bytes(count * 3, "\(chunk)'s packet \(packet + 1)'s colours")
            for (number, at) in stride(from: rgb.startIndex, to: rgb.endIndex, by: 3).enumerated() where index + number < 256 {
                let entry = (index + number) * 4
                (result[entry], result[entry + 1], result[entry + 2], result[entry + 3]) = (rgb[at], rgb[at + 1], rgb[at + 2], 255)
            }
            index += count
        }
        return result
    }

    /// A tags chunk (0x2018), each tag checked against the frames.
    static func tags(_ body: ByteReader<ArraySlice<UInt8>>, frameCount: Int, chunk: AsepriteChunkName) throws -> [AnimationTag] {
        var reader = body
        let count = Int(try reader.littleEndian(UInt16.self, "\(chunk)'s tag count"))
        try reader.skip(8, "\(chunk)'s reserved bytes")
        return try (0..<count).map { number in
            // Named only when a message needs it (formatting it a tag was a share of a small file).
            func what() -> String { "\(chunk)'s tag \(number + 1)" }
            let from = Int(try reader.littleEndian(UInt16.self, "\(what())'s first frame"))
            let to = Int(try reader.littleEndian(UInt16.self, "\(what())'s last frame"))
            let direction = try reader.littleEndian(UInt8.self, "\(what())'s direction")
            let repeatCount = Int(try reader.littleEndian(UInt16.self, "\(what())'s repeat count"))
            try reader.skip(6, "\(what())'s reserved bytes")
            // The colour Aseprite 1.2 kept here; 1.3 writes it again in the user data that follows.
            let rgb = Array(try reader.bytes(3, "\(what())'s colour"))
            try reader.skip(1, "\(what())'s extra byte")
            let name = try string(&reader, "\(what())'s name")
            guard from <= to, to < frameCount else {
                throw AsepriteError.malformed(detail: "tag '\(name)' runs from frame \(from) to \(to), outside the file's \(frameCount) frames")
            }
            let directions: [AnimationTag.Direction] = [.forward, .reverse, .pingPong, .pingPongReverse]
            guard Int(direction) < directions.count else {
                throw AsepriteError.malformed(detail: "tag '\(name)' has direction \(direction) (0 to 3 are defined)")
            }
            let color = AnimationUserData.Color(red: rgb[0], green: rgb[1], blue: rgb[2])
            return AnimationTag(
                name: name, from: from, to: to, direction: directions[Int(direction)], repeatCount: repeatCount,
                userData: AnimationUserData(color: color))
        }
    }
}
