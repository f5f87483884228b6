import Preload
import PreloadPNG

/// The atlas loader plugin: sprite folders (`NAME.atlas/`, packed at load time), TexturePacker
/// JSON (hash, array, multipack, Phaser multiatlas), libGDX `.atlas` text, and SpriteKit `.atlasc`
/// folders, detected from their content; and, when asked by name with a ``SpriteSheetGrid``, an
/// image cut into a grid of frames. ``AtlasPageLocation`` moves a descriptor's pages.
///
/// An atlas's pages (or a folder's sprites) are its dependencies, loaded by whichever plugin
/// claims them (the PNG plugin), so a page two atlases share decodes once and a failed page fails
/// the atlas with the page's cause.
///
/// ```swift
/// import Preload
/// import PreloadAtlas
/// import PreloadPNG
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
/// ```
public struct AtlasLoader: PlanningPlugin {
    /// What planning read (the descriptor, or the sprite folder's listing): handed to the load
    /// (`LoadContext.planningNote(as:)`) so each descriptor is parsed once.
    public struct PlanningNote: Sendable {
        let source: AtlasSource
    }

    /// An atlas loader (pages decode with the coordinator's PNG plugin).
    public init() {}

    public var identifier: String { "atlas" }
    public var assetKind: AssetKind { .atlas }
    /// `.atlas` (a libGDX text file, or a sprite folder) and `.atlasc` (a compiled SpriteKit
    /// folder). TexturePacker's `.json` files are claimed by content instead, so other JSON is
    /// left alone.
    public var fileExtensions: Set<String> { ["atlas", "atlasc"] }
    public var acceptsDirectories: Bool { true }
    public var headerLength: Int { 512 }

    public func matchesSignature(_ header: [UInt8]) -> Bool {
        TexturePackerFormat.matches(header)
    }

    /// The pages (or sprites) the atlas needs, with what was read to find them handed to the
    /// load. A sprite folder's work is its sprites' (packing grows with them); a descriptor's is
    /// its file.
    public func plan(_ request: PlannedRequest) throws -> LoadPlan<PlanningNote> {
        let source = try Self.source(for: request)
        var work: Int64?
        if case .folder(let sprites) = source {
            work = sprites.reduce(Int64(0)) { $0 + ((try? request.files.facts(of: $1.path).size) ?? 0) }
        }
        return LoadPlan(
            dependencies: source.requests(for: request, options: Self.pageOptions(for: request)), note: PlanningNote(source: source),
            work: work)
    }

    /// Builds the atlas from its decoded pages, or packs a sprite folder's decoded sprites,
    /// with what planning read (the descriptor, the folder's listing) if it is still at hand.
    public func load(_ context: LoadContext) throws -> any Asset {
        let request = context.request
        let source = try context.planningNote(as: PlanningNote.self)?.source ?? Self.source(for: request)
        try context.checkCancellation()
        let options = Self.pageOptions(for: request)
        switch source {
        case .descriptor(let description):
            let pages = try description.pageRequests(options: options).map { page in
                AtlasPage(path: page.path, texture: try context.dependency(page, as: Texture.self))
            }
            if let problem = description.problems(pageSizes: pages.map { ($0.texture.width, $0.texture.height) }).first {
                throw problem
            }
            try context.warn(description.allWarnings)
            return TextureAtlas(format: description.format, pages: pages, frames: description.frames, scale: description.scale)
        case .folder(let sprites):
            let images = try sprites.map { sprite in
                AtlasPacker.Sprite(
                    name: sprite.name, path: sprite.path,
                    texture: try context.dependency(AssetRequest(path: sprite.path, options: options), as: Texture.self))
            }
            let packed = try AtlasPacker.pack(
                images, options: request.options[AtlasLoaderSettings.self], file: request.path,
                isCancelled: { context.isCancelled }, progress: { context.reportProgress($0) })
            let pages = packed.pages.enumerated().map { AtlasPage(path: "\(request.path)#\($0.offset + 1)", texture: $0.element) }
            let scale = Double(sprites.map(\.scale).max() ?? 1)
            return TextureAtlas(format: .folder, pages: pages, frames: packed.frames, scale: scale)
        case .grid(let grid):
            let page = try context.dependency(AssetRequest(path: request.path, options: options), as: Texture.self)
            let frames = grid.frames(width: page.width, height: page.height)
            if frames.isEmpty {
                try context.warn([
                    AssetWarning(
                        .atlasEmptyGrid,
                        "the \(grid.frameWidth)x\(grid.frameHeight) frame grid gives no frames on the \(page.width)x\(page.height) image")
                ])
            }
            return TextureAtlas(format: .spriteSheet, pages: [AtlasPage(path: request.path, texture: page)], frames: frames)
        }
    }

    /// Reads the descriptor at `path` (through `files`: on disk or inside a pack), telling the
    /// dialect from its content, without decoding pages. (A sprite folder has no descriptor: its
    /// frames exist only once it is packed.)
    public static func describe(path: String, files: AssetFiles = .local) throws -> AtlasDescription {
        try describe(path: path, isDirectory: files.facts(of: path).isDirectory, files: files)
    }

    static func describe(path: String, isDirectory: Bool, files: AssetFiles) throws -> AtlasDescription {
        if isDirectory {
            return try SpriteKitAtlascFormat.read(folder: path, files: files)
        }
        let data = try files.read(path).array
        let header = Array(data.prefix(512))
        if TexturePackerFormat.matches(header) {
            return try TexturePackerFormat.read(data, file: path, files: files)
        }
        // A `.json` file, or one that starts as JSON does, is never libGDX's text: it is a
        // TexturePacker atlas whose keys come late, or not an atlas, and says so.
        if TexturePackerFormat.looksLikeJSON(header) || AssetPath.fileExtension(of: path) == "json" {
            return try TexturePackerFormat.readClaimed(data, file: path, files: files)
        }
        return try LibGDXFormat.read(data, file: path)
    }

    package static func source(for request: PlannedRequest) throws -> AtlasSource {
        let path = request.path, files = request.files
        if request.options.contains(SpriteSheetGrid.self) { return .grid(request.options[SpriteSheetGrid.self]) }
        if request.file.isDirectory && !path.hasSuffix(".atlasc") && (try? SpriteKitAtlascFormat.propertyList(in: path, files: files)) == nil {
            return .folder(try SpriteFolder.sprites(in: path, scale: request.options[AtlasLoaderSettings.self].scale, files: files))
        }
        var description = try describe(path: path, isDirectory: request.file.isDirectory, files: files)
        description.pages = try request.options[AtlasPageLocation.self].place(description.pages, file: path)
        if let prefix = request.containerPrefix {
            description.pages = try description.pages.map { try confine($0, to: prefix, file: path) }
        }
        return .descriptor(description)
    }

    /// A page named by an atlas inside an archive, resolved inside that archive (`ui/../x.png`
    /// is the archive's `x.png`, where lexical normalization of the whole path would climb out of
    /// it); a name reaching outside the archive fails the atlas by name.
    private static func confine(_ page: AtlasDescription.Page, to prefix: String, file: String) throws -> AtlasDescription.Page {
        var confined = page
        let inside = page.path.hasPrefix(prefix) ? AssetPath.normalized(String(page.path.dropFirst(prefix.count))) : page.path
        guard page.path.hasPrefix(prefix), !inside.hasPrefix("/"), inside != "..", !inside.hasPrefix("../") else {
            throw AtlasError.malformed(file: file, detail: "page '\(page.path)' lies outside the archive \(prefix.dropLast())")
        }
        confined.path = prefix + inside
        return confined
    }

    /// Page requests carry the atlas request's PNG options, if it has any.
    static func pageOptions(for request: PlannedRequest) -> AssetOptions {
        guard request.options.contains(PNGLoaderSettings.self) else { return AssetOptions() }
        return AssetOptions().with(PNGLoaderSettings.self, request.options[PNGLoaderSettings.self])
    }
}

/// What an atlas is made from: a descriptor with pages, a folder of sprites to pack, or an image
/// cut into a grid (the request's own file, which the PNG plugin decodes).
package enum AtlasSource: Sendable {
    case descriptor(AtlasDescription)
    case folder([SpriteFolder.Sprite])
    case grid(SpriteSheetGrid)

    func requests(for request: PlannedRequest, options: AssetOptions) -> [AssetRequest] {
        switch self {
        case .descriptor(let description): description.pageRequests(options: options)
        case .folder(let sprites): sprites.map { AssetRequest(path: $0.path, options: options) }
        case .grid: [AssetRequest(path: request.path, options: options)]
        }
    }
}
