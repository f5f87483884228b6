import Preload

/// The Tiled map loader plugin: `.tmx` (XML) and `.tmj` (JSON) maps, and Tiled JSON maps saved as
/// `.json` (claimed by content, so other JSON is left alone), with their external tilesets
/// (`.tsx`, `.tsj`), into a ``TileMap``. A bare CSV grid loads when asked with
/// ``TileMapLoaderSettings``.
///
/// A map is read while planning (its external tilesets too, through the request's files: on
/// disk or inside an archive, where every path the map names must stay); the images it uses
/// (tileset images, image-collection tiles' images, image layers' images) become its
/// dependencies, each loaded as a `Texture` by whichever image plugin claims it, so an image
/// two maps share decodes once. The load then puts the textures in place and checks every placed
/// tile against its tileset's image.
///
/// ```swift
/// import Preload
/// import PreloadPNG
/// import PreloadTileMap
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), TileMapLoader()])
/// ```
///
/// Layer data compressed with zlib or gzip inflates through the system zlib; with Zstandard,
/// through libzstd opened at run time (`libzstd1` on Debian): without it only such layers fail,
/// with `MissingSystemLibrary` naming the package.
public struct TileMapLoader: PlanningPlugin {
    /// The map planning read, with what was irregular about it (none for a CSV grid): handed to
    /// its load (`LoadContext.planningNote(as:)`) so each map is read once.
    public struct PlanningNote: Sendable {
        fileprivate let read: Parsed?
    }

    fileprivate struct Parsed: Sendable {
        let map: TileMap
        let warnings: [AssetWarning]
    }

    /// The largest map file read.
    public static let largestMapFile = 256 << 20

    /// A map loader (images decode with the coordinator's image plugins).
    public init() {}

    public var identifier: String { "tilemap" }
    public var assetKind: AssetKind { .tilemap }
    /// `.tmx` and `.tmj`. Tiled JSON maps named `.json` are claimed by content.
    public var fileExtensions: Set<String> { ["tmx", "tmj"] }
    public var headerLength: Int { 512 }

    public func matchesSignature(_ header: [UInt8]) -> Bool {
        TileMapSignature.match(header) == .matches
    }

    /// A Tiled map by its top-level keys, in any order: a JSON map's `orientation` and
    /// `tiledversion` may come after its whole `layers` array (the claim then reads on, up to
    /// ``signatureReach``); other JSON is told from its first key, and a tileset is not a map.
    public func signatureMatch(_ prefix: [UInt8]) -> SignatureMatch {
        TileMapSignature.match(prefix)
    }

    /// 16 MiB: a JSON map whose telling keys lie further is claimed by its extension (`.tmj`),
    /// or by naming the plugin.
    public var signatureReach: Int { TileMapSignature.reach }

    /// A failed image fails the map unless it is a tile's own image that no placed tile needs
    /// (``TileMap/withTextures(file:_:)``): the load sees every image's outcome.
    public var toleratesFailedDependencies: Bool { true }

    /// The map's images, with the map read to find them handed to the load; a CSV grid has none.
    public func plan(_ request: PlannedRequest) throws -> LoadPlan<PlanningNote> {
        guard !request.options.contains(TileMapLoaderSettings.self) else { return LoadPlan(dependencies: [], note: PlanningNote(read: nil)) }
        let map = try Self.read(request.path, files: request.files, containerPrefix: request.containerPrefix)
        return LoadPlan(dependencies: map.map.images.map { AssetRequest(path: $0.path) }, note: PlanningNote(read: map))
    }

    /// The map read while planning (or read now, if that is gone) with its images' textures in
    /// place, its placed tiles checked; or a CSV grid's one-layer map.
    public func load(_ context: LoadContext) throws -> any Asset {
        let request = context.request
        if request.options.contains(TileMapLoaderSettings.self) {
            let name = AssetPath.fileName(of: request.path)
            let layerName = name.split(separator: ".").first.map(String.init) ?? name
            return try request.options[TileMapLoaderSettings.self].map(
                csv: try context.readContents().array, layerName: layerName, file: request.path)
        }
        let read =
            try context.planningNote(as: PlanningNote.self)?.read
            ?? Self.read(request.path, files: request.files, containerPrefix: request.containerPrefix)
        try context.checkCancellation()
        let (map, warnings) = try read.map.withTextures(file: request.path) { path in
            let image = AssetRequest(path: path)
            if case .failed(let error) = context.outcome(of: image) {
                throw AssetError.dependencyFailed(path: request.request.requestedPath, dependency: error)
            }
            return try context.dependency(image, as: Texture.self)
        }
        try context.warn(read.warnings + warnings)
        return map
    }

    /// Reads the map at `path` (TMX or TMJ, told from its content) and its external tilesets
    /// through `files` (on disk, or inside an archive: `game.zip#maps/level.tmx`), without
    /// loading its images: their ``TileImage/texture`` is `nil` and their sizes are what the
    /// files declare. For a tool, or an engine that wants to know a map's tilesets and images
    /// before loading it. (Placed tiles are checked against their tilesets when a map loads.)
    public static func describe(path: String, files: AssetFiles = .local) throws -> TileMap {
        let facts = try files.facts(of: path)
        let prefix = facts.entry.flatMap { entry in path.hasSuffix(entry) ? String(path.dropLast(entry.count)) : nil }
        return try read(path, files: files, containerPrefix: prefix).map
    }

    private static func read(_ path: String, files: AssetFiles, containerPrefix: String?) throws -> Parsed {
        let bytes = try files.read(path, limit: largestMapFile).array
        let (map, warnings) = try TileMapReader.read(bytes, file: path, files: files, containerPrefix: containerPrefix)
        return Parsed(map: map, warnings: warnings)
    }
}
