import Preload

/// Tilemap layers' data: tileset chunks (0x2023) and compressed tilemap cels (cel type 3), read
/// from the public specification and checked against their chunk (a compressed length past the
/// chunk, pixels or tiles that inflate to another size than stated, through the package's one
/// inflate bounded by that size).
enum AsepriteTiles {
    /// A tile's flips, as Aseprite keeps them: 1 mirrors it left to right, 2 top to bottom, 4
    /// swaps its axes (after the mirrors).
    struct Flips: OptionSet {
        let rawValue: UInt8
        static let x = Flips(rawValue: 1)
        static let y = Flips(rawValue: 2)
        static let diagonal = Flips(rawValue: 4)
    }

    /// The tileset flags: 1 the tiles are in an external file, 2 they are in this one, 4 tile ID
    /// 0 is the empty tile.
    static let externalFile: UInt32 = 1, embedded: UInt32 = 2, zeroIsEmpty: UInt32 = 4

    /// The pixel at tile coordinates (`x`, `y`) of a `width`x`height` tile drawn with `flips`:
    /// the tile's own pixel to show there, or nil where Aseprite clears the canvas (a tile whose
    /// axes are swapped shows only its top-left square; the rest of its cell is cleared).
    @inline(__always) static func source(x: Int, y: Int, width: Int, height: Int, flips: Flips) -> (x: Int, y: Int)? {
        var sx = flips.contains(.x) ? width - 1 - x : x
        var sy = flips.contains(.y) ? height - 1 - y : y
        guard flips.contains(.diagonal) else { return (sx, sy) }
        swap(&sx, &sy)
        let side = min(width, height)
        return sx < side && sy < side ? (sx, sy) : nil
    }
}

extension AsepriteReader {
    /// A tileset chunk (0x2023): its ID and tileset, the tiles inflated when they are in the
    /// file (`width x height * count` pixels of the sprite's depth, reserved against the pixel
    /// budget before they exist).
    mutating func tileset(_ body: ByteReader<ArraySlice<UInt8>>, chunk: String) throws -> (Int, AsepriteDocument.Tileset) {
        var reader = body
        let id = Int(try reader.littleEndian(UInt32.self, "\(chunk)'s tileset ID"))
        let flags = try reader.littleEndian(UInt32.self, "\(chunk)'s tileset flags")
        let count = Int(try reader.littleEndian(UInt32.self, "\(chunk)'s tile count"))
        let width = Int(try reader.littleEndian(UInt16.self, "\(chunk)'s tile width"))
        let height = Int(try reader.littleEndian(UInt16.self, "\(chunk)'s tile height"))
        try reader.skip(2 + 14, "\(chunk)'s base index and reserved bytes")
        let name = try Self.string(&reader, "\(chunk)'s tileset name")
        guard width > 0, height > 0 else {
            throw AsepriteError.malformed(detail: "\(chunk): tileset '\(name)' has \(width)x\(height) tiles")
        }
        var tileset = AsepriteDocument.Tileset(
            name: name, tileWidth: width, tileHeight: height, count: count, pixels: nil, zeroIsEmpty: flags & AsepriteTiles.zeroIsEmpty != 0)
        if flags & AsepriteTiles.externalFile != 0 { try reader.skip(8, "\(chunk)'s external file and tileset IDs") }
        guard flags & AsepriteTiles.embedded != 0 else { return (id, tileset) }
        guard count > 0 else {
            tileset.pixels = []
            return (id, tileset)
        }
        let what = "\(chunk)'s tileset '\(name)' of \(count) \(width)x\(height) tiles"
        let (tileBytes, perTileOverflow) = (width * height).multipliedReportingOverflow(by: document.depth.bytesPerPixel)
        let (bytes, overflow) = tileBytes.multipliedReportingOverflow(by: count)
        guard !perTileOverflow, !overflow, bytes <= byteBudget else {
            throw AsepriteError.unsupported(detail: "\(what) takes the pixels past the \(byteBudget)-byte limit")
        }
        try reserve(bytes, for: what)
        let length = Int(try reader.littleEndian(UInt32.self, "\(chunk)'s compressed length"))
        let stored = try reader.bytes(length, "\(what)'s \(length) compressed bytes")
        tileset.pixels = try Self.inflate(stored, count: bytes, what: what)
        return (id, tileset)
    }

    /// A compressed tilemap cel's tiles (cel type 3, after the cel's common fields): 32-bit tiles
    /// inflated to exactly `width * height`, each split by the cel's own bit masks into a tile
    /// ID and flips as Aseprite splits them (a flip whose mask is all of the tile's set bits).
    mutating func tilemap(_ body: ByteReader<ArraySlice<UInt8>>, chunk: String) throws -> AsepriteDocument.Cel.Content {
        var reader = body
        let width = Int(try reader.littleEndian(UInt16.self, "\(chunk)'s width in tiles"))
        let height = Int(try reader.littleEndian(UInt16.self, "\(chunk)'s height in tiles"))
        let bits = try reader.littleEndian(UInt16.self, "\(chunk)'s bits per tile")
        let idMask = try reader.littleEndian(UInt32.self, "\(chunk)'s tile ID mask")
        let masks = [
            try reader.littleEndian(UInt32.self, "\(chunk)'s x flip mask"), try reader.littleEndian(UInt32.self, "\(chunk)'s y flip mask"),
            try reader.littleEndian(UInt32.self, "\(chunk)'s diagonal flip mask"),
        ]
        try reader.skip(10, "\(chunk)'s reserved bytes")
        guard bits == 32 else {
            throw AsepriteError.unsupported(detail: "\(chunk) is a tilemap of \(bits)-bit tiles (Aseprite writes and reads 32-bit tiles)")
        }
        try reserve(width * height * 5, for: "\(chunk)'s \(width)x\(height) tilemap")
        let stored = reader.bytes[(reader.bytes.startIndex + reader.offset)...]
        let tiles = try Self.inflate(stored, count: width * height * 4, what: "\(chunk)'s \(width)x\(height) tilemap")
        let shift = UInt32(idMask == 0 ? 0 : idMask.trailingZeroBitCount)
        var ids = [UInt32](repeating: 0, count: width * height), flips = [UInt8](repeating: 0, count: width * height)
        for index in ids.indices {
            let at = index * 4
            let tile = UInt32(tiles[at]) | UInt32(tiles[at + 1]) << 8 | UInt32(tiles[at + 2]) << 16 | UInt32(tiles[at + 3]) << 24
            ids[index] = (tile & idMask) >> shift
            for (bit, mask) in masks.enumerated() where tile & mask == mask { flips[index] |= 1 << bit }
        }
        return .tilemap(width: width, height: height, ids: ids, flips: flips)
    }
}
