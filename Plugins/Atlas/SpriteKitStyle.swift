import Preload

/// A texture atlas with SpriteKit's `SKTextureAtlas` shape, so code written against SpriteKit
/// reads the same on Linux:
///
/// ```swift
/// import Preload
/// import PreloadAtlas
/// import PreloadPNG
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
/// let atlases = try await SpriteAtlas.preloadTextureAtlases(["ui.atlas", "hero.json"], using: coordinator)
/// let button = try atlases[0].textureNamed("button")
/// ```
///
/// Unlike SpriteKit, which quietly hands back a placeholder, a missing atlas or texture is an
/// error that says which and why.
public struct SpriteAtlas: Sendable {
    /// The path the atlas was loaded from.
    public let name: String
    /// The loaded atlas behind it.
    public let atlas: TextureAtlas

    /// Wraps a loaded `atlas` under `name`.
    public init(name: String, atlas: TextureAtlas) {
        self.name = name
        self.atlas = atlas
    }

    /// The names of the atlas's textures, as `SKTextureAtlas.textureNames`.
    public var textureNames: [String] { atlas.frameNames }

    /// The texture called `name`, with or without its extension, as `SKTextureAtlas.textureNamed(_:)`.
    public func textureNamed(_ name: String) throws -> SpriteTexture {
        guard let frame = atlas.frame(named: name) else {
            throw SpriteAtlasError.noTexture(named: name, atlas: self.name, available: textureNames)
        }
        return SpriteTexture(name: frame.name, frame: frame, page: atlas.pageTexture(of: frame), atlas: atlas)
    }

    /// Loads `paths` as atlases, like `SKTextureAtlas.preloadTextureAtlases(_:withCompletionHandler:)`,
    /// and calls `completion` once with the atlases or with every error.
    public static func preloadTextureAtlases(
        _ paths: [String], using coordinator: PreloadCoordinator,
        withCompletionHandler completion: @escaping @Sendable (Result<[SpriteAtlas], PreloadFailure>) -> Void
    ) {
        let requests = paths.map { AssetRequest(path: $0, plugin: "atlas") }
        coordinator.preload(requests) { report in completion(atlases(from: report)) }
    }

    /// Loads `paths` as atlases; throws a `PreloadFailure` naming every one that failed.
    public static func preloadTextureAtlases(_ paths: [String], using coordinator: PreloadCoordinator) async throws -> [SpriteAtlas] {
        let report = try await coordinator.preload(paths.map { AssetRequest(path: $0, plugin: "atlas") })
        return try atlases(from: report).get()
    }

    private static func atlases(from report: PreloadReport) -> Result<[SpriteAtlas], PreloadFailure> {
        guard report.results.allSatisfy({ $0.outcome.asset is TextureAtlas }) else { return .failure(PreloadFailure(report: report)) }
        return .success(report.results.map { SpriteAtlas(name: $0.request.path, atlas: $0.outcome.asset as! TextureAtlas) })
    }
}

/// One texture of a ``SpriteAtlas``, as SpriteKit's `SKTexture` from an atlas.
public struct SpriteTexture: Sendable {
    /// The texture's name in its atlas.
    public let name: String
    /// Where it sits on its page.
    public let frame: AtlasFrame
    /// The page texture the frame lives on.
    public let page: Texture
    private let atlas: TextureAtlas

    init(name: String, frame: AtlasFrame, page: Texture, atlas: TextureAtlas) {
        self.name = name
        self.frame = frame
        self.page = page
        self.atlas = atlas
    }

    /// The original image's size, as `SKTexture.size()`.
    public var size: (width: Int, height: Int) { (frame.sourceWidth, frame.sourceHeight) }

    /// The frame's rectangle in the page in unit coordinates with SpriteKit's origin at the
    /// bottom left, as `SKTexture.textureRect()`.
    public var textureRect: (x: Double, y: Double, width: Double, height: Double) {
        let uv = frame.textureCoordinates(pageWidth: page.width, pageHeight: page.height)
        return (uv.u0, 1 - uv.v1, uv.u1 - uv.u0, uv.v1 - uv.v0)
    }

    /// The texture as its own upright image, as `SKTexture.cgImage()`.
    public func image() throws -> Texture { try atlas.image(of: frame) }
}

/// What SpriteKit would have papered over with a placeholder.
public enum SpriteAtlasError: AssetFailure, Equatable {
    case noTexture(named: String, atlas: String, available: [String])

    /// A texture the atlas does not have is, like a pack's missing entry, not found.
    public var category: AssetError.Category { .fileNotFound }

    public var description: String {
        switch self {
        case .noTexture(let name, let atlas, let available):
            "no texture named '\(name)' in atlas \(atlas) (it has: \(available.joined(separator: ", ")))"
        }
    }
}
