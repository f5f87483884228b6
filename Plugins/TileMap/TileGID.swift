/// How a placed tile is mirrored or turned: the top four bits of a global tile ID, as Tiled
/// stores them. Tiled applies the diagonal flip first (a swap of x and y), then the horizontal
/// and vertical ones; on hexagonal maps a 120° turn is the fourth bit.
public struct TileFlips: OptionSet, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The flip bits, in their places in a global tile ID.
    public let rawValue: UInt32

    /// Flips with exactly the given bits of a global tile ID (the others are ignored).
    public init(rawValue: UInt32) { self.rawValue = rawValue & TileGID.flagBits }

    /// Mirrored left to right (bit 31, `0x80000000`).
    public static let horizontal = TileFlips(rawValue: 0x8000_0000)
    /// Mirrored top to bottom (bit 30, `0x40000000`).
    public static let vertical = TileFlips(rawValue: 0x4000_0000)
    /// Mirrored across the top-left to bottom-right diagonal (bit 29, `0x20000000`): with the
    /// other two, what makes the 90° turns of orthogonal and isometric maps.
    public static let diagonal = TileFlips(rawValue: 0x2000_0000)
    /// Turned by 120° (bit 28, `0x10000000`), on hexagonal maps only.
    public static let hexagonalRotation = TileFlips(rawValue: 0x1000_0000)

    /// `[horizontal, diagonal]`: the flips set, by name (`[]` for none).
    public var description: String {
        let names: [(TileFlips, String)] = [
            (.horizontal, "horizontal"), (.vertical, "vertical"), (.diagonal, "diagonal"), (.hexagonalRotation, "hexagonalRotation"),
        ]
        return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}

/// A global tile ID as Tiled writes it in layer data and tile objects: the tile's number across
/// all of the map's tilesets (0 is no tile) in the low 28 bits, its ``TileFlips`` in the top four.
/// ``TileMap/tile(for:)`` resolves one to its tileset, texture and rectangle.
public struct TileGID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The 32 bits as stored: ID and flips.
    public let rawValue: UInt32

    /// The bits that hold the flips (`0xF0000000`).
    public static let flagBits: UInt32 = 0xF000_0000

    /// The global tile ID with its flips, as stored.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The tile `id` (its low 28 bits; the rest are ignored) with `flips`.
    public init(id: UInt32, flips: TileFlips = []) {
        self.rawValue = id & ~Self.flagBits | flips.rawValue
    }

    /// No tile.
    public static let empty = TileGID(rawValue: 0)

    /// The tile's number across the map's tilesets, without the flips: 0 for no tile.
    public var id: UInt32 { rawValue & ~Self.flagBits }
    /// How the tile is mirrored or turned.
    public var flips: TileFlips { TileFlips(rawValue: rawValue) }
    /// Whether no tile is placed here (its ``id`` is 0, whatever its flip bits say).
    public var isEmpty: Bool { id == 0 }

    public var description: String {
        let names: [(TileFlips, String)] = [(.horizontal, "h"), (.vertical, "v"), (.diagonal, "d"), (.hexagonalRotation, "r")]
        let flags = names.filter { flips.contains($0.0) }.map(\.1).joined()
        return flags.isEmpty ? "\(id)" : "\(id)+\(flags)"
    }
}
