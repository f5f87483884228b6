import Preload

/// Reads a Tiled map, TMX or TMJ (told apart by content), and its external tilesets (TSX or
/// TSJ, read through ``AssetFiles``: on disk or inside an archive) into a ``TileMap`` without
/// its textures. One reader for both formats: it asks each file's nodes (``TiledNode``) the
/// same questions, so a TMX and its JSON export read the same way by construction.
///
/// Lenient about structure (what Tiled opens, this opens: absent attributes take Tiled's
/// defaults, unknown elements and keys are ignored), strict about data (numbers that are not
/// numbers, layer data of the wrong size or damaged, sizes beyond ``TileMap/maximumTiles``).
struct TileMapReader {
    /// The map's path: the file errors name unless they concern an external tileset.
    let file: String
    let files: AssetFiles
    /// For a map inside an archive, what every path inside it starts with (`game.zip#`).
    let containerPrefix: String?
    /// What the files were forgiven.
    private(set) var warnings: [AssetWarning] = []
    /// Tiles stored so far, across layers, against ``TileMap/maximumTiles``.
    private var storedTiles = 0
    /// External tilesets read so far, by path: a map may name one several times.
    private var externalTilesets: [String: Tileset] = [:]

    /// Groups nested deeper than this are refused (Tiled has no limit; no real map comes near).
    static let deepestNesting = 64
    /// External tilesets naming further external tilesets deeper than this are refused.
    static let longestTilesetChain = 8
    /// The largest external tileset file read.
    static let largestTilesetFile = 64 << 20

    private init(file: String, files: AssetFiles, containerPrefix: String?) {
        self.file = file
        self.files = files
        self.containerPrefix = containerPrefix
    }

    /// Reads the map in `bytes`, the contents of `file`; external tilesets through `files`,
    /// confined to the archive `containerPrefix` names when the map is inside one.
    static func read(_ bytes: [UInt8], file: String, files: AssetFiles, containerPrefix: String?) throws -> (map: TileMap, warnings: [AssetWarning]) {
        var reader = TileMapReader(file: file, files: files, containerPrefix: containerPrefix)
        let map =
            switch try root(bytes, file: file, expecting: "map") {
            case .xml(let node): try reader.map(node)
            case .json(let node): try reader.map(node)
            }
        return (map, reader.warnings)
    }

    /// A file's top node, by its first character: XML (`<`) or JSON (`{`).
    private enum Root {
        case xml(TMXNode)
        case json(TMJNode)
    }

    /// The top node of `bytes`, checked to be a `map` or a `tileset` (`expecting`).
    private static func root(_ bytes: [UInt8], file: String, expecting kind: String) throws -> Root {
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        switch first {
        case UInt8(ascii: "<"):
            let element: XMLTree.Element
            do {
                element = try XMLTree.parse(bytes)
            } catch let problem as XMLTree.XMLProblem {
                throw TileMapError.malformed(file: file, detail: problem.detail)
            }
            guard element.name == kind else {
                throw TileMapError.notATileMap(file: file, detail: "its XML root is <\(element.name)>, where a \(kind) has <\(kind)>")
            }
            return .xml(TMXNode(element, file: file))
        case UInt8(ascii: "{"):
            let node = try TMJNode.parse(bytes, file: file)
            let type = try node.string("type")
            let looksRight = kind == "map" ? node.values["layers"] != nil || node.values["orientation"] != nil : node.values["tilewidth"] != nil
            guard type == kind || (type == nil && looksRight) else {
                let what = type.map { "its type is '\($0)'" } ?? "a JSON object without a \(kind)'s keys"
                throw TileMapError.notATileMap(file: file, detail: "\(what), where a \(kind) has \"type\": \"\(kind)\"")
            }
            return .json(node)
        default:
            throw TileMapError.notATileMap(file: file, detail: "neither XML (TMX) nor JSON (TMJ)")
        }
    }

    // MARK: The map

    private mutating func map<Node: TiledNode>(_ node: Node) throws -> TileMap {
        let orientationName = try node.string("orientation") ?? ""
        guard let orientation = TileMap.Orientation(rawValue: orientationName) else {
            throw TileMapError.unsupported(file: file, detail: "orientation '\(orientationName)'")
        }
        let tilesets = try node.list("tilesets", element: "tileset").enumerated().map { index, tileset in
            try self.tileset(tileset.at("tileset \(index + 1)"), chain: [file])
        }
        let frame = (width: try node.count("width"), height: try node.count("height"), isInfinite: try node.bool("infinite", default: false))
        return TileMap(
            version: try node.string("version", default: ""), tiledVersion: try node.string("tiledversion", default: ""),
            className: try node.string("class", default: ""), orientation: orientation,
            renderOrder: try node.choice("renderorder", default: .rightDown), width: frame.width, height: frame.height,
            tileWidth: try node.count("tilewidth"), tileHeight: try node.count("tileheight"), isInfinite: frame.isInfinite,
            hexSideLength: try node.int("hexsidelength", default: 0), staggerAxis: try node.choice("staggeraxis", default: .y),
            staggerIndex: try node.choice("staggerindex", default: .odd),
            parallaxOrigin: SIMD2(try node.double("parallaxoriginx", default: 0), try node.double("parallaxoriginy", default: 0)),
            backgroundColor: try node.color("backgroundcolor", warnings: &warnings), nextLayerID: try node.int("nextlayerid", default: 0),
            nextObjectID: try node.int("nextobjectid", default: 0), properties: try node.properties(), tilesets: tilesets,
            layers: try layers(of: node, frame: frame, depth: 0))
    }

    // MARK: Tilesets

    /// A tileset of the map: embedded, or read from the external file its `source` names
    /// (`chain`: the files that led here, for loops).
    private mutating func tileset<Node: TiledNode>(_ node: Node, chain: [String]) throws -> Tileset {
        let firstGID = try node.int("firstgid", default: chain.count == 1 ? 0 : 1)
        guard firstGID > 0 else { throw node.problem("'firstgid' is missing or not above 0") }
        guard let source = try node.string("source"), !source.isEmpty else { return try tilesetBody(node, firstGID: firstGID) }
        guard let path = AssetPath.resolve(source, relativeTo: node.file, inside: containerPrefix) else {
            throw TileMapError.missingTileset(file: file, tileset: source, cause: "it lies outside the archive \(containerPrefix?.dropLast() ?? "")")
        }
        guard !chain.contains(path) else { throw TileMapError.tilesetLoop(file: file, chain: chain + [path]) }
        guard chain.count <= Self.longestTilesetChain else {
            throw node.problem("external tilesets name further external tilesets more than \(Self.longestTilesetChain) deep")
        }
        var tileset: Tileset
        if let known = externalTilesets[path] {
            tileset = known
        } else {
            let bytes: [UInt8]
            do {
                bytes = try files.read(path, limit: Self.largestTilesetFile).array
            } catch {
                throw TileMapError.missingTileset(file: file, tileset: path, cause: (error as? AssetError)?.reason ?? "\(error)")
            }
            tileset =
                switch try Self.root(bytes, file: path, expecting: "tileset") {
                case .xml(let root): try self.tileset(root, chain: chain + [path])
                case .json(let root): try self.tileset(root, chain: chain + [path])
                }
            externalTilesets[path] = tileset
        }
        tileset.firstGID = firstGID
        tileset.source = path
        return tileset
    }

    /// What a tileset says, wherever it is written.
    private mutating func tilesetBody<Node: TiledNode>(_ node: Node, firstGID: Int) throws -> Tileset {
        let name = try node.string("name", default: "")
        let node = node.at("tileset '\(name)'")
        let (tileWidth, tileHeight) = (try node.count("tilewidth"), try node.count("tileheight"))
        let (spacing, margin) = (try node.count("spacing"), try node.count("margin"))
        let image = try node.image().map { try self.image($0) }
        guard image == nil || (tileWidth > 0 && tileHeight > 0) else {  // Tiled refuses it too
            throw node.problem("its tiles are \(tileWidth)x\(tileHeight) pixels, and a tileset cut from an image needs at least 1x1")
        }
        let tiles = try node.list("tiles", element: "tile").map { try tile($0) }
        let offset = try node.child("tileoffset")
        let columns =
            try node.int("columns")
            ?? image.map { Tileset.columnCount(imageWidth: $0.width, tileWidth: tileWidth, margin: margin, spacing: spacing) } ?? 0
        var tileset = Tileset(
            firstGID: firstGID, name: name, className: try node.string("class", default: ""), tileWidth: tileWidth, tileHeight: tileHeight,
            spacing: spacing, margin: margin, tileCount: 0, columns: max(columns, 0),
            tileOffset: SIMD2(try offset?.int("x", default: 0) ?? 0, try offset?.int("y", default: 0) ?? 0),
            objectAlignment: try node.string("objectalignment", default: "unspecified"), image: image, tiles: tiles,
            properties: try node.properties())
        tileset.tileCount = try node.count("tilecount", default: image == nil ? tiles.count(where: { $0.image != nil }) : tileset.imageCapacity)
        return tileset
    }

    private mutating func tile<Node: TiledNode>(_ node: Node) throws -> TilesetTile {
        let id = try node.count("id")
        let node = node.at("\(node.place), tile \(id)")
        let image = try node.image().map { try self.image($0) }
        var rect: TileRect?
        if try ["x", "y", "width", "height"].contains(where: { try node.number($0) != nil }) {
            rect = TileRect(
                x: try node.count("x"), y: try node.count("y"), width: try node.count("width", default: image?.width ?? 0),
                height: try node.count("height", default: image?.height ?? 0))
        }
        let type = try node.string("type", default: "")
        return TilesetTile(
            id: id, className: type.isEmpty ? try node.string("class", default: "") : type,
            probability: try node.double("probability", default: 1), properties: try node.properties(), image: image, imageRect: rect,
            animation: try node.animationFrames().map { frame in
                TileAnimationFrame(tileID: try frame.count("tileid"), duration: try frame.count("duration"))
            },
            collision: try node.child("objectgroup").map { try objectGroup($0) })
    }

    /// An image a node names, its path resolved against the node's file (inside the archive,
    /// for a map inside one).
    private mutating func image<Node: TiledNode>(_ node: Node) throws -> TileImage {
        let source = try node.string("source", default: "")
        guard let path = AssetPath.resolve(source, relativeTo: node.file, inside: containerPrefix) else {
            throw node.problem("the image '\(source)' lies outside the archive \(containerPrefix?.dropLast() ?? "")")
        }
        return TileImage(
            path: path, source: source, width: try node.count("width"), height: try node.count("height"),
            transparentColor: try node.color("trans", warnings: &warnings))
    }

    // MARK: Layers

    /// The map's (or a group's) size in tiles and whether it is infinite: a tile layer's defaults.
    private typealias Frame = (width: Int, height: Int, isInfinite: Bool)

    private mutating func layers<Node: TiledNode>(of node: Node, frame: Frame, depth: Int) throws -> [TileMapLayer] {
        guard depth < Self.deepestNesting else { throw node.problem("groups are nested more than \(Self.deepestNesting) deep") }
        return try node.layers().map { kind, layer in try self.layer(layer, kind: kind, frame: frame, depth: depth) }
    }

    private mutating func layer<Node: TiledNode>(_ node: Node, kind: String, frame: Frame, depth: Int) throws -> TileMapLayer {
        let name = try node.string("name", default: "")
        let node = node.at("layer '\(name)'")
        let content: TileMapLayer.Content
        switch kind {
        case "tilelayer": content = .tiles(try tiles(node, name: name, frame: frame))
        case "objectgroup": content = .objects(try objectGroup(node))
        case "imagelayer":
            content = .image(
                ImageLayer(
                    image: try node.image().map { try image($0) }, repeatsX: try node.bool("repeatx", default: false),
                    repeatsY: try node.bool("repeaty", default: false)))
        case "group": content = .group(try layers(of: node, frame: frame, depth: depth + 1))
        default: throw TileMapError.unsupported(file: node.file, detail: "\(node.place): a layer of type '\(kind)'")
        }
        return TileMapLayer(
            id: try node.int("id", default: 0), name: name, className: try node.string("class", default: ""),
            isVisible: try node.bool("visible", default: true), opacity: try node.double("opacity", default: 1),
            offset: SIMD2(try node.double("offsetx", default: 0), try node.double("offsety", default: 0)),
            parallax: SIMD2(try node.double("parallaxx", default: 1), try node.double("parallaxy", default: 1)),
            tintColor: try node.color("tintcolor", warnings: &warnings), properties: try node.properties(), content: content)
    }

    /// A tile layer's tiles: a grid of the layer's size, or an infinite map's chunks (in Tiled's
    /// order: by row, then column).
    private mutating func tiles<Node: TiledNode>(_ node: Node, name: String, frame: Frame) throws -> TileLayer {
        let (data, chunks): (LayerData?, [(node: Node, data: LayerData)])
        do {
            (_, _, data, chunks) = try node.layerData()
        } catch let problem as LayerDataProblem {
            throw TileMapError.damagedLayerData(file: node.file, layer: name, detail: problem.detail)
        }
        if !chunks.isEmpty || (frame.isInfinite && data == nil) {
            var decoded: [TileChunk] = []
            for (index, chunk) in chunks.enumerated() {
                let chunkNode = chunk.node.at("\(node.place), chunk \(index + 1)")
                let (width, height) = (try chunkNode.count("width"), try chunkNode.count("height"))
                let grid = try decode(chunk.data, width: width, height: height, layer: name, in: chunkNode)
                decoded.append(TileChunk(x: try chunkNode.int("x", default: 0), y: try chunkNode.int("y", default: 0), tiles: grid))
            }
            return TileLayer(chunks: decoded.sorted { ($0.y, $0.x) < ($1.y, $1.x) })
        }
        let (width, height) = (try node.count("width", default: frame.width), try node.count("height", default: frame.height))
        return TileLayer(grid: try decode(data ?? .gids([]), width: width, height: height, layer: name, in: node, emptyWhenAbsent: data == nil))
    }

    /// The `width` x `height` tiles `data` holds (all empty for a layer without data), counted
    /// against the limits first.
    private mutating func decode<Node: TiledNode>(
        _ data: LayerData, width: Int, height: Int, layer: String, in node: Node, emptyWhenAbsent: Bool = false
    ) throws -> TileGrid {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, count <= TileMap.maximumTiles else {
            throw TileMapError.tooLarge(
                file: node.file, layer: layer, detail: "\(width)x\(height) tiles, more than the \(TileMap.maximumTiles) a layer may hold")
        }
        storedTiles += count
        guard storedTiles <= TileMap.maximumTiles else {
            throw TileMapError.tooLarge(
                file: node.file, layer: layer, detail: "the map's layers hold more than the \(TileMap.maximumTiles) tiles a map may hold")
        }
        let tiles: [TileGID]
        do {
            tiles = emptyWhenAbsent ? Array(repeating: .empty, count: count) : try data.tiles(count: count)
        } catch let problem as LayerDataProblem {
            throw TileMapError.damagedLayerData(file: node.file, layer: layer, detail: problem.detail)
        }
        guard let grid = TileGrid(width: width, height: height, tiles: tiles) else {
            throw TileMapError.damagedLayerData(file: node.file, layer: layer, detail: "\(tiles.count) tiles for \(width)x\(height)")
        }
        return grid
    }

    // MARK: Objects

    private mutating func objectGroup<Node: TiledNode>(_ node: Node) throws -> ObjectGroup {
        ObjectGroup(
            color: try node.color("color", warnings: &warnings), drawOrder: try node.choice("draworder", default: .topDown),
            objects: try node.list("objects", element: "object").map { try object($0) })
    }

    private mutating func object<Node: TiledNode>(_ node: Node) throws -> MapObject {
        let id = try node.int("id", default: 0)
        let node = node.at("\(node.place), object \(id)")
        let template = try node.string("template").map { AssetPath.resolve($0, relativeTo: node.file) }
        if let template {
            warnings.append(
                AssetWarning(
                    .tilemapTemplateUnsupported,
                    "\(node.place) is an instance of the template \(AssetPath.fileName(of: template)), which is not read: "
                        + "the object has only what the map states"))
        }
        let shape: MapObject.Shape
        if try node.isMarked("ellipse") {
            shape = .ellipse
        } else if try node.isMarked("point") {
            shape = .point
        } else if let points = try node.points("polygon") {
            shape = .polygon(points)
        } else if let points = try node.points("polyline") {
            shape = .polyline(points)
        } else if let (text, content) = try node.text() {
            shape = .text(try self.text(text, content: content))
        } else {
            shape = .rectangle
        }
        let type = try node.string("type", default: "")
        return MapObject(
            id: id, name: try node.string("name", default: ""), className: type.isEmpty ? try node.string("class", default: "") : type,
            x: try node.double("x", default: 0), y: try node.double("y", default: 0), width: try node.double("width", default: 0),
            height: try node.double("height", default: 0), rotation: try node.double("rotation", default: 0), gid: try node.gid("gid"),
            isVisible: try node.bool("visible", default: true), shape: shape, template: template, properties: try node.properties())
    }

    private mutating func text<Node: TiledNode>(_ node: Node, content: String) throws -> MapText {
        MapText(
            text: content, fontFamily: try node.string("fontfamily", default: "sans-serif"), pixelSize: try node.int("pixelsize", default: 16),
            wraps: try node.bool("wrap", default: false),
            color: try node.color("color", warnings: &warnings) ?? TiledColor(red: 0, green: 0, blue: 0),
            isBold: try node.bool("bold", default: false), isItalic: try node.bool("italic", default: false),
            isUnderlined: try node.bool("underline", default: false), isStruckOut: try node.bool("strikeout", default: false),
            usesKerning: try node.bool("kerning", default: true), horizontalAlignment: try node.choice("halign", default: .left),
            verticalAlignment: try node.choice("valign", default: .top))
    }
}
