import Preload
import PreloadPNG
import Synchronization

/// The atlas loader plugin: TexturePacker JSON (hash, array, multipack, Phaser multiatlas),
/// libGDX `.atlas` text, and SpriteKit `.atlasc` folders, detected from their content.
///
/// An atlas's pages are its dependencies, loaded by whichever plugin claims them (the PNG
/// plugin), so a page two atlases share decodes once and a failed page fails the atlas with the
/// page's cause.
///
/// ```swift
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
/// ```
public struct AtlasLoader: LoaderPlugin {
    private let cache = DescriptionCache()

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

    public func dependencies(of request: PlannedRequest) throws -> [AssetRequest] {
        let description = try Self.describe(path: request.path, isDirectory: request.file.isDirectory)
        cache.remember(description, for: request)
        return description.pageRequests(options: Self.pageOptions(for: request))
    }

    public func makeOperation(for request: PlannedRequest) -> AssetOperation {
        AtlasOperation(request: request, cache: cache)
    }

    /// Reads the descriptor at `path`, telling the dialect from its content, without decoding pages.
    public static func describe(path: String) throws -> AtlasDescription {
        try describe(path: path, isDirectory: FileFacts.of(path: path).isDirectory)
    }

    static func describe(path: String, isDirectory: Bool) throws -> AtlasDescription {
        if isDirectory {
            if path.hasSuffix(".atlasc") || (try? SpriteKitAtlascFormat.propertyList(in: path)) != nil {
                return try SpriteKitAtlascFormat.read(folder: path)
            }
            throw AtlasError.unsupported(file: path, detail: "sprite folders are not loaded yet")
        }
        let data = try FileContents.read(path: path)
        if TexturePackerFormat.matches(Array(data.prefix(512))) {
            return try TexturePackerFormat.read(data, file: path)
        }
        return try LibGDXFormat.read(data, file: path)
    }

    /// Page requests carry the atlas request's PNG options, if it has any.
    static func pageOptions(for request: PlannedRequest) -> AssetOptions {
        guard request.options.contains(PNGOptions.self) else { return AssetOptions() }
        return AssetOptions().with(PNGOptions.self, request.options[PNGOptions.self])
    }
}

/// Descriptions read while planning, kept for the operation so each descriptor is parsed once.
final class DescriptionCache: Sendable {
    private let entries = Mutex<[FileFacts: AtlasDescription]>([:])

    func remember(_ description: AtlasDescription, for request: PlannedRequest) {
        entries.withLock { $0[request.file] = description }
    }

    func take(for request: PlannedRequest) -> AtlasDescription? {
        entries.withLock { $0.removeValue(forKey: request.file) }
    }
}

/// Builds a ``TextureAtlas`` from its description and its decoded pages.
final class AtlasOperation: AssetOperation, @unchecked Sendable {
    private let cache: DescriptionCache

    init(request: PlannedRequest, cache: DescriptionCache) {
        self.cache = cache
        super.init(request: request)
    }

    override func load(_ context: LoadContext) throws -> any Asset {
        let description = try cache.take(for: request)
            ?? AtlasLoader.describe(path: request.path, isDirectory: request.file.isDirectory)
        try context.checkCancellation()
        let pageRequests = description.pageRequests(options: AtlasLoader.pageOptions(for: request))
        let pages = try pageRequests.map { page in
            AtlasPage(path: page.path, texture: try context.dependency(page, as: Texture.self))
        }
        if let problem = description.problems(pageSizes: pages.map { ($0.texture.width, $0.texture.height) }).first {
            throw problem
        }
        return TextureAtlas(format: description.format, pages: pages, frames: description.frames)
    }
}
