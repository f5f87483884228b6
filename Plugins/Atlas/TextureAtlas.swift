import Preload

extension AssetKind {
    /// A texture atlas (``TextureAtlas``).
    public static let atlas: AssetKind = "atlas"
}

/// One page of an atlas: its image and where it came from.
public struct AtlasPage: Sendable {
    /// The page image's path, or a name made up for pages packed at load time (`hero.atlas#1`).
    public let path: String
    /// The decoded page image.
    public let texture: Texture

    /// A page loaded from `path`.
    public init(path: String, texture: Texture) {
        self.path = path
        self.texture = texture
    }
}

/// A loaded texture atlas: pages and named frames, normalized from whatever dialect it came from.
///
/// ```swift
/// import Preload
/// import PreloadAtlas
/// import PreloadPNG
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
/// _ = try await coordinator.preload([AssetRequest(path: "assets/ui.json", name: "ui")])
/// let atlas = coordinator.assets.asset(named: "ui", as: TextureAtlas.self)!
/// let button = atlas.frame(named: "button")!          // "button.png" matches too
/// let uv = atlas.textureCoordinates(of: button)
/// let upright = try atlas.image(of: button)           // the original image, as a Texture
/// ```
public struct TextureAtlas: Asset {
    /// The dialect the atlas was read from.
    public enum Format: String, Hashable, Sendable, CaseIterable {
        case folder
        case texturePackerHash = "texturepacker-hash"
        case texturePackerArray = "texturepacker-array"
        case libgdx
        case spriteKitAtlasc = "spritekit-atlasc"
        /// An image cut into a uniform grid (``SpriteSheetGrid``, Phaser's `spritesheet`).
        case spriteSheet = "spritesheet"
    }

    /// The dialect the atlas was read from.
    public let format: Format
    /// Pixels per point the atlas was made for: TexturePacker's `meta.scale` (a string or a
    /// number), 2 or 3 for SpriteKit `@2x`/`@3x` pages and sprite-folder variants, otherwise 1.
    public let scale: Double
    /// The page images, in the order frames refer to them.
    public let pages: [AtlasPage]
    /// Frames in descriptor order (libGDX frames with an index are ordered by it).
    public let frames: [AtlasFrame]
    private let byName: [String: Int]

    /// Builds an atlas. Frames that share a name are all kept: ``frame(named:)`` answers with the
    /// first, ``frames(named:)`` and ``frame(named:index:)`` reach every one.
    public init(format: Format, pages: [AtlasPage], frames: [AtlasFrame], scale: Double = 1) {
        self.format = format
        self.scale = scale
        self.pages = pages
        self.frames = frames
        var byName: [String: Int] = [:]
        for (index, frame) in frames.enumerated() {
            // The first frame of a name wins: for an animation, the lowest index.
            if byName[frame.name] == nil { byName[frame.name] = index }
            // Also without the image extension, as SpriteKit's textureNamed accepts.
            let bare = Self.withoutImageExtension(frame.name)
            if bare != frame.name, byName[bare] == nil { byName[bare] = index }
        }
        self.byName = byName
    }

    public var kind: AssetKind { .atlas }
    public var byteCount: Int { pages.reduce(0) { $0 + $1.texture.byteCount } }

    /// Every frame name, in descriptor order (an animation's name once).
    public var frameNames: [String] {
        var seen = Set<String>()
        return frames.map(\.name).filter { seen.insert($0).inserted }
    }

    /// Every frame called `name` (with or without extension), in index order: an animation.
    public func frames(named name: String) -> [AtlasFrame] {
        let bare = Self.withoutImageExtension(name)
        return frames.filter { $0.name == name || Self.withoutImageExtension($0.name) == bare }
    }

    /// The frame named `name`, with or without its image extension (`hero` finds `hero.png`
    /// and `hero.png` finds `hero`).
    public func frame(named name: String) -> AtlasFrame? {
        if let index = byName[name] { return frames[index] }
        let bare = Self.withoutImageExtension(name)
        return byName[bare].map { frames[$0] }
    }

    /// The frame called `name` (with or without extension) whose animation index is `index`
    /// (libGDX's `findRegion(name, index)`).
    public func frame(named name: String, index: Int) -> AtlasFrame? {
        frames(named: name).first { $0.index == index }
    }

    /// The page texture `frame` lives on.
    public func pageTexture(of frame: AtlasFrame) -> Texture { pages[frame.page].texture }

    /// `frame`'s rectangle in normalized coordinates of its page.
    public func textureCoordinates(of frame: AtlasFrame) -> (u0: Double, v0: Double, u1: Double, v1: Double) {
        let page = pages[frame.page].texture
        return frame.textureCoordinates(pageWidth: page.width, pageHeight: page.height)
    }

    static func withoutImageExtension(_ name: String) -> String {
        for suffix in [".png", ".PNG", ".jpg", ".jpeg", ".webp"] where name.hasSuffix(suffix) {
            return String(name.dropLast(suffix.count))
        }
        return name
    }
}

extension TextureAtlas: TextureHolding {
    /// Its pages' textures: a descriptor's pages are the page files the batch loaded (and counts)
    /// as textures of their own.
    public var heldTextures: [Texture] { pages.map(\.texture) }
}

extension TextureAtlas: CustomStringConvertible {
    /// A one-line summary for logs and `print(atlas)`: its format, pages and first frames, as in
    /// `texturepacker-hash atlas: 1 page (64x32), 2 frames (button.png, health_bar.png)`.
    public var description: String {
        let sizes = pages.prefix(3).map { "\($0.texture.width)x\($0.texture.height)" }.joined(separator: ", ")
        let names = frames.prefix(4).map(\.name).joined(separator: ", ")
        return "\(format.rawValue) atlas: \(pages.count) page\(pages.count == 1 ? "" : "s") (\(sizes)\(pages.count > 3 ? ", ..." : "")), "
            + "\(frames.count) frame\(frames.count == 1 ? "" : "s")\(frames.isEmpty ? "" : " (\(names)\(frames.count > 4 ? ", ..." : ""))")"
    }
}
