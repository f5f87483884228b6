import Preload

/// What an Aseprite file holds, read but not yet composited: its header's facts, layers, and
/// each frame's duration, cels and palette.
struct AsepriteDocument {
    /// The colour depth in bits per pixel: 32 RGBA, 16 grayscale with alpha, 8 indexed.
    enum Depth: Int {
        case rgba = 32
        case grayscale = 16
        case indexed = 8

        var bytesPerPixel: Int { rawValue / 8 }
    }

    /// A layer chunk (0x2004).
    struct Layer {
        var flags: UInt16
        /// 0 image, 1 group, 2 tilemap.
        var type: UInt16
        var childLevel: Int
        var blendMode: Int
        var opacity: Int
        var name: String
        /// A tilemap layer's tileset (the tileset chunk's ID).
        var tileset: Int = 0

        /// Whether the layer draws cels: an image or tilemap layer (Aseprite drops a layer of
        /// another type, and the cels on it).
        var hasCels: Bool { type == 0 || type == 2 }
        var isVisible: Bool { flags & 1 != 0 }
        var isBackground: Bool { flags & 8 != 0 }
        var isReference: Bool { flags & 64 != 0 }
    }

    /// A cel chunk (0x2005): a layer's image in one frame, a link to another frame's, or a
    /// tilemap layer's grid of tiles.
    struct Cel {
        enum Content {
            case image(width: Int, height: Int, pixels: [UInt8])
            case linked(frame: Int)
            /// `width * height` tiles row by row: each one's tile ID (0, without flips, is no
            /// tile) and flips (``AsepriteTiles/Flips``).
            case tilemap(width: Int, height: Int, ids: [UInt32], flips: [UInt8])
        }
        var layer: Int
        var x: Int
        var y: Int
        var opacity: Int
        var zIndex: Int
        var content: Content
    }

    /// One frame: how long it shows, its cels, and the palette in force (256 RGBA entries, of
    /// which the first `paletteCount` are the palette's).
    struct Frame {
        var durationMilliseconds: Int
        var cels: [Cel] = []
        var palette: [UInt8]
        var paletteCount: Int
    }

    /// A tileset chunk (0x2023): its tiles' size and count, and their pixels (in the sprite's
    /// depth, tile after tile), or none when the tiles are in another file.
    struct Tileset {
        var name: String
        var tileWidth: Int
        var tileHeight: Int
        var count: Int
        var pixels: [UInt8]?
        /// Tile ID 0 is the empty tile (flag 4; without it, files of Aseprite's internal
        /// versions mark the empty tile with all bits set).
        var zeroIsEmpty: Bool
    }

    var width: Int
    var height: Int
    var depth: Depth
    var flags: UInt32
    var transparentIndex: Int
    var layers: [Layer] = []
    /// Tilesets by their ID.
    var tilesets: [Int: Tileset] = [:]
    var frames: [Frame] = []
    var tags: [AnimationTag] = []
    var slices: [AnimationSlice] = []
    /// The sprite's user data.
    var userData = AnimationUserData()
    /// Chunks passed over, by what they hold ("tileset": 2), for `AssetWarning.Code.asepriteUnreadData`.
    var unread: [String: Int] = [:]
    /// The layers and cels whose user data an animation does not keep ("layer 'arm'").
    var userDataNotKept: [String] = []
    /// Why user data chunks' properties were passed over.
    var propertiesNotRead: [String] = []

    /// Whether layers' opacity fields are valid (header flag 1).
    var layerOpacityIsValid: Bool { flags & 1 != 0 }
    /// Whether groups' opacity and blend mode apply (header flag 2).
    var groupBlendingApplies: Bool { flags & 2 != 0 }

    /// A palette of 256 transparent black entries, before any palette chunk.
    static let emptyPalette = [UInt8](repeating: 0, count: 256 * 4)
}
