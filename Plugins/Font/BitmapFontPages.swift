import Preload

/// Where a bitmap font's page images are, and how they load, when not as its descriptor says.
///
/// A descriptor names its pages relative to its own folder, and each page loads with default
/// options. Phaser's `bitmapFont` file type takes its one texture from `textureURL` whatever
/// the XML's `page file` says; a game that draws premultiplied wants its pages premultiplied:
///
/// ```swift
/// import Preload
/// import PreloadFont
/// import PreloadPNG
///
/// var pageOptions = AssetOptions()
/// pageOptions[PNGLoaderSettings.self] = PNGLoaderSettings(alphaMode: .premultiplied)
/// let title = AssetRequest(
///     path: "assets/title.xml", name: "title", plugin: "bmfont",
///     options: AssetOptions().with(BitmapFontPages.self, BitmapFontPages(files: ["assets/title.png"], options: pageOptions)))
/// ```
public struct BitmapFontPages: Hashable, Sendable, AssetOptionKey {
    /// These files, in page order, instead of the descriptor's (which must have as many pages);
    /// `nil` keeps the descriptor's.
    public var files: [String]?
    /// The options of each page's request (an image plugin's decode options).
    public var options: AssetOptions

    /// Pages from `files` (or the descriptor), loaded with `options`.
    public init(files: [String]? = nil, options: AssetOptions = AssetOptions()) {
        self.files = files
        self.options = options
    }

    /// The descriptor's pages, with default options.
    public static let defaultValue = BitmapFontPages()
}
