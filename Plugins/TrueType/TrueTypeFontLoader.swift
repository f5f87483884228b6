import Preload
import PreloadFont

/// The TrueType and OpenType loader plugin: a font file rasterized by FreeType at load, at the
/// size and for the characters its request's ``TrueTypeFontLoaderSettings`` say, into the same
/// `BitmapFont` a BMFont descriptor gives (format `BitmapFont/Format/rasterized`).
///
/// Every glyph is FreeType's own bitmap at that size, pixel for pixel (`FT_Load_Glyph`, then
/// `FT_Render_Glyph`: 8-bit antialiased coverage by default), packed onto RGBA8 pages in the
/// coordinator's pooled memory by `RectanglePacker`: white, with the coverage as alpha
/// (premultiplied when the options ask). The glyphs' offsets and advances are FreeType's, so
/// `BitmapFont/layOut(_:)` places them where FreeType would; kerning comes from the face's
/// `kern` table (`FT_Get_Kerning`). Kerning that lives only in OpenType's `GPOS` table needs a
/// text shaper (HarfBuzz) and is not read. The font's `BitmapFont/missingGlyph` is the face's
/// `.notdef` glyph.
///
/// FreeType is linked (Debian's `libfreetype6`; its development package, `libfreetype-dev`, is
/// on a fresh machine of this project's kind): only a game that names this product links it.
///
/// ```swift
/// import Preload
/// import PreloadFont
/// import PreloadTrueType
///
/// func loadTitleFont() async throws -> BitmapFont? {
///     let coordinator = try PreloadCoordinator(plugins: [TrueTypeFontLoader()])
///     let options = AssetOptions().with(TrueTypeFontLoaderSettings.self, TrueTypeFontLoaderSettings(pixelSize: 48))
///     _ = try await coordinator.preload([AssetRequest(path: "sample-assets/fonts/DejaVuSans.ttf", name: "title", options: options)])
///     return coordinator.assets.asset(named: "title", as: BitmapFont.self)
/// }
/// ```
public struct TrueTypeFontLoader: LoaderPlugin {
    /// "truetype".
    public let identifier = "truetype"
    /// Fonts (`BitmapFont`).
    public let assetKind = AssetKind.font
    /// TrueType and OpenType fonts and collections; other names are claimed by content.
    public let fileExtensions: Set<String> = ["ttf", "otf", "ttc", "otc"]
    /// The four bytes that name an sfnt font or collection.
    public let headerLength = 4

    /// A TrueType font loader.
    public init() {}

    /// Whether `header` starts as a TrueType font (`00 01 00 00`, or Apple's `true`), an
    /// OpenType font with CFF outlines (`OTTO`) or a font collection (`ttcf`).
    public func matchesSignature(_ header: [UInt8]) -> Bool {
        guard header.count >= 4 else { return false }
        let tag = Array(header.prefix(4))
        return tag == [0, 1, 0, 0] || tag == Array("OTTO".utf8) || tag == Array("true".utf8) || tag == Array("ttcf".utf8)
    }

    public func load(_ context: LoadContext) throws -> any Asset {
        let rasterizer = TrueTypeRasterizer(
            options: context.request.options[TrueTypeFontLoaderSettings.self], path: context.request.path, memory: context.memory,
            isCancelled: { context.isCancelled }, progress: { context.reportProgress($0) }, warn: { try context.warn($0) })
        return try rasterizer.rasterize(try context.readContents())
    }

    /// Rasterizes the font in `bytes` as the plugin does inside a batch, without a coordinator
    /// (a tool, a test, a fuzzer): the font, its pages in `memory`, named after `path`, and what
    /// was irregular about it.
    public static func load(
        _ bytes: AssetBytes, path: String = "font.ttf", options: TrueTypeFontLoaderSettings = TrueTypeFontLoaderSettings(),
        memory: AssetMemory = .shared
    ) throws -> (font: BitmapFont, warnings: [AssetWarning]) {
        var warnings: [AssetWarning] = []
        let rasterizer = TrueTypeRasterizer(
            options: options, path: path, memory: memory, isCancelled: { false }, progress: { _ in }, warn: { warnings += $0 })
        let font = try rasterizer.rasterize(bytes)
        return (font, warnings)
    }
}
