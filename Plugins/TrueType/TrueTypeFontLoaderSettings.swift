import Preload

/// How a TrueType or OpenType font is rasterized: the size, the characters, how glyphs sit on
/// their pages, FreeType's hinting and antialiasing, and the face of a collection. Set it on a
/// request's options; each value is checked when the font loads, and one out of range fails the
/// font with ``TrueTypeFontError/limitExceeded(_:)`` or ``TrueTypeFontError/invalidOption(_:)``
/// before anything is rendered.
///
/// ```swift
/// import Preload
/// import PreloadTrueType
///
/// var options = TrueTypeFontLoaderSettings(pixelSize: 48, characters: .latin1)
/// options.spacing = 2
/// options.alphaMode = .premultiplied
/// let title = AssetRequest(path: "fonts/DejaVuSans.ttf", name: "title", options: AssetOptions().with(TrueTypeFontLoaderSettings.self, options))
/// ```
public struct TrueTypeFontLoaderSettings: AssetOptionKey, Hashable, Sendable {
    /// What a request that sets nothing loads with: 32 pixels, printable ASCII.
    public static let defaultValue = TrueTypeFontLoaderSettings()

    /// The largest ``pixelSize``: 512.
    public static let largestPixelSize = 512
    /// The most ``characters`` one font renders: 65,536.
    public static let mostCharacters = 65_536
    /// The widest ``padding`` and ``spacing``: 64 pixels.
    public static let widestMargin = 64

    /// FreeType's hinting: how outlines are fitted to the pixel grid before they are rendered.
    public enum Hinting: String, Hashable, Sendable, CaseIterable {
        /// FreeType's default: the font's own instructions (or FreeType's auto-hinter where it
        /// has none), fitted on both axes.
        case normal
        /// Fitted vertically only (`FT_LOAD_TARGET_LIGHT`): shapes closer to the design.
        case light
        /// Not fitted at all (`FT_LOAD_NO_HINTING`): the outline as designed, scaled.
        case off
    }

    /// The size glyphs are rendered at, in pixels per em (`FT_Set_Pixel_Sizes`), from 1 to
    /// ``largestPixelSize``. Default 32.
    public var pixelSize: Int
    /// The characters rendered. Default: printable ASCII (``TrueTypeCharacters/printableASCII``).
    public var characters: TrueTypeCharacters
    /// Transparent pixels around each glyph inside its rectangle (BMFont's `padding`, on all four
    /// sides), from 0 to ``widestMargin``: room for an outline or a glow drawn later. Default 0.
    public var padding: Int
    /// Transparent pixels between glyph rectangles on a page (BMFont's `spacing`), from 0 to
    /// ``widestMargin``: keeps filtered sampling from bleeding into a neighbour. Default 1.
    public var spacing: Int
    /// The largest page side, from 16 to 4096; glyphs that do not fit on one page go on more.
    /// Default 1024.
    public var maxPageSize: Int
    /// The most bytes the pages may take together (RGBA8, 4 bytes a pixel): a font that needs
    /// more fails before they are allocated. Default 256 MiB.
    public var maxPageBytes: Int
    /// FreeType's hinting. Default ``Hinting/normal``.
    public var hinting: Hinting
    /// Whether glyphs are rendered with 256 levels of coverage (`true`, the default) or as
    /// one-bit images (FreeType's monochrome mode: coverage 0 or 255).
    public var isAntialiased: Bool
    /// The face of a font collection (`.ttc`, `.otc`) to load, from 0; 0 for a single font.
    public var faceIndex: Int
    /// Whether the pages' colour is straight (white, coverage in alpha: the default) or
    /// premultiplied (coverage in all four channels).
    public var alphaMode: AlphaMode
    /// Whether a character the face lacks gets a glyph drawn as the face's `.notdef` (default
    /// `false`: it gets none, and `BitmapFont/layOut(_:)` draws the font's missing glyph).
    /// Either way the font loads with `AssetWarning/Code/trueTypeMissingCharacters`.
    public var rendersMissingCharacters: Bool
    /// When the face has more of the ``characters`` than this, its kerning is not read (FreeType
    /// is asked about every pair: a million of them for 1,024 characters) and the font loads with
    /// `AssetWarning/Code/trueTypeKerningSkipped`. Default 1024.
    public var mostKernedCharacters: Int

    /// Options with every value at its default.
    public init() {
        self.init(pixelSize: 32)
    }

    /// Options for `characters` at `pixelSize`, every other value at its default.
    public init(pixelSize: Int, characters: TrueTypeCharacters = .printableASCII) {
        self.pixelSize = pixelSize
        self.characters = characters
        padding = 0
        spacing = 1
        maxPageSize = 1024
        maxPageBytes = 256 << 20
        hinting = .normal
        isAntialiased = true
        faceIndex = 0
        alphaMode = .straight
        rendersMissingCharacters = false
        mostKernedCharacters = 1024
    }

    /// Throws the first value out of range, naming it.
    func check() throws(TrueTypeFontError) {
        guard pixelSize >= 1 else { throw .invalidOption("the pixel size is \(pixelSize); it must be at least 1") }
        guard pixelSize <= Self.largestPixelSize else {
            throw .limitExceeded("a pixel size of \(pixelSize) is over the largest, \(Self.largestPixelSize)")
        }
        let count = characters.count
        guard count <= Self.mostCharacters else {
            throw .limitExceeded("\(count) characters are more than one font renders (\(Self.mostCharacters))")
        }
        for (name, value) in [("padding", padding), ("spacing", spacing)] where !(0...Self.widestMargin).contains(value) {
            throw .invalidOption("the \(name) is \(value); it must be from 0 to \(Self.widestMargin)")
        }
        guard (16...4096).contains(maxPageSize) else { throw .invalidOption("the largest page side is \(maxPageSize); it must be from 16 to 4096") }
        guard (0...0xFFFF).contains(faceIndex) else { throw .invalidOption("the face index is \(faceIndex); it must be from 0 to 65535") }
        guard mostKernedCharacters >= 0 else { throw .invalidOption("the most kerned characters are \(mostKernedCharacters); not below 0") }
        guard maxPageBytes > 0 else { throw .invalidOption("the page bytes allowed are \(maxPageBytes); they must be more than 0") }
    }
}

/// The former name of ``TrueTypeFontLoaderSettings``, before settings were named after their loader
/// (docs/architecture.md, "One naming rule").
@available(*, deprecated, renamed: "TrueTypeFontLoaderSettings")
public typealias TrueTypeFontOptions = TrueTypeFontLoaderSettings
