import Preload

/// How sprite folders are packed into pages at load time (and by `preload atlas pack`).
public struct AtlasLoaderSettings: Hashable, Sendable {
    /// The largest page side any option allows; padding and extrusion stop there too, since a
    /// sprite with more than a page around it cannot be placed anyway.
    public static let largestPageSize = 4096

    /// The largest page side, from 1 to 4096 (default 2048, as Xcode's default).
    public var maxPageSize: Int { didSet { maxPageSize = Self.clamped(maxPageSize, 1) } }
    /// Transparent pixels between sprites (default 2), from 0 to 4096.
    public var padding: Int { didSet { padding = Self.clamped(padding, 0) } }
    /// Cut fully transparent borders off each sprite (default true); frames keep the original
    /// size and where the content sat in it.
    public var trimsTransparentBorders: Bool
    /// Repeat each sprite's edge pixels this many times around it, against bleeding when sampled
    /// with filtering (default 0), from 0 to 4096.
    public var extrusion: Int { didSet { extrusion = Self.clamped(extrusion, 0) } }
    /// Round each page's size up to a power of two (default false: the smallest that holds it).
    public var powerOfTwoPages: Bool
    /// Let the packer turn sprites 90° (clockwise) to fit them better (default true).
    public var allowsRotation: Bool
    /// Which resolution variant of a sprite a folder uses: 1 for `hero.png`, 2 for `hero@2x.png`,
    /// 3 for `hero@3x.png` (default 1). A sprite without that variant uses its nearest one.
    public var scale: Int

    /// Packing options; each value is brought into range as documented on its property.
    public init(
        maxPageSize: Int = 2048, padding: Int = 2, trimsTransparentBorders: Bool = true, extrusion: Int = 0,
        powerOfTwoPages: Bool = false, allowsRotation: Bool = true, scale: Int = 1
    ) {
        self.maxPageSize = Self.clamped(maxPageSize, 1)
        self.padding = Self.clamped(padding, 0)
        self.trimsTransparentBorders = trimsTransparentBorders
        self.extrusion = Self.clamped(extrusion, 0)
        self.powerOfTwoPages = powerOfTwoPages
        self.allowsRotation = allowsRotation
        self.scale = max(scale, 1)
    }

    /// `value` brought into `lowest...largestPageSize`: sums of sizes and margins then stay far
    /// from overflowing, whatever a caller or a command line passed.
    /// `value` brought into `lowest...largestPageSize` (what every packing number is held to).
    static func clamped(_ value: Int, _ lowest: Int) -> Int { min(max(value, lowest), largestPageSize) }
}

/// Per-request packing options of sprite-folder atlases are keyed by their own type:
/// `request.options[AtlasLoaderSettings.self] = AtlasLoaderSettings(padding: 4)`.
extension AtlasLoaderSettings: AssetOptionKey {
    /// 2048-pixel pages, 2 pixels of padding, trimmed, rotation allowed, scale 1.
    public static let defaultValue = AtlasLoaderSettings()
}

/// The former name of the key for sprite-folder packing options, now ``AtlasLoaderSettings`` itself.
@available(*, deprecated, renamed: "AtlasLoaderSettings", message: "packing options are keyed by their own type")
public typealias AtlasOptions = AtlasLoaderSettings

/// The former name of ``AtlasLoaderSettings``, before settings were named after their loader
/// (docs/architecture.md, "One naming rule").
@available(*, deprecated, renamed: "AtlasLoaderSettings")
public typealias AtlasPackingOptions = AtlasLoaderSettings
