/// How a bitmap font was made and how its lines are spaced: AngelCode BMFont's `info` and
/// `common` blocks, in its own numbers. A font rasterized from TrueType fills the same fields.
public struct FontMetrics: Hashable, Sendable, Codable {
    /// The typeface's name (`info face`).
    public var face: String
    /// The size it was rendered at, in pixels (`info size`; BMFont writes it negative when
    /// the size matches the characters' height rather than the cell's).
    public var size: Int
    /// Whether it was rendered bold (`info bold`).
    public var isBold: Bool
    /// Whether it was rendered italic (`info italic`).
    public var isItalic: Bool
    /// Whether glyph ids are Unicode code points (`info unicode`), rather than the ``charset``'s.
    public var isUnicode: Bool
    /// Whether it was rendered with smoothing (`info smooth`).
    public var isSmooth: Bool
    /// The OEM charset used when not Unicode (`info charset`), as the file names it.
    public var charset: String
    /// The height stretch in percent (`info stretchH`; 100 is none).
    public var stretchHeight: Int
    /// The supersampling level (`info aa`; 1 is none).
    public var supersampling: Int
    /// Padding around each glyph: top, right, bottom, left (`info padding`).
    public var padding: [Int]
    /// Spacing between glyphs on a page: horizontal, vertical (`info spacing`).
    public var spacing: [Int]
    /// The outline's thickness (`info outline`).
    public var outline: Int
    /// The distance from one line's top to the next line's (`common lineHeight`).
    public var lineHeight: Int
    /// The distance from a line's top to its baseline (`common base`).
    public var base: Int
    /// The page size the glyph rectangles were made for (`common scaleW`, `scaleH`).
    public var pageWidth: Int
    /// See ``pageWidth``.
    public var pageHeight: Int
    /// Whether glyphs are packed into separate channels (`common packed`).
    public var isPacked: Bool
    /// What each channel of the pages holds: alpha, red, green, blue (`common alphaChnl`, ...).
    public var channelContents: [ChannelContent]

    /// What one channel of a font's pages holds (BMFont's `alphaChnl` and siblings).
    public enum ChannelContent: Int, Hashable, Sendable, Codable {
        /// The glyph.
        case glyph = 0
        /// The outline.
        case outline = 1
        /// The glyph and its outline.
        case glyphAndOutline = 2
        /// Zero.
        case zero = 3
        /// One (full).
        case one = 4
    }

    /// Metrics with BMFont's defaults where the file says nothing: a 1-pixel spacing is not
    /// assumed, smoothing and Unicode are.
    public init(
        face: String = "", size: Int = 0, isBold: Bool = false, isItalic: Bool = false, isUnicode: Bool = true, isSmooth: Bool = true,
        charset: String = "", stretchHeight: Int = 100, supersampling: Int = 1, padding: [Int] = [0, 0, 0, 0], spacing: [Int] = [0, 0],
        outline: Int = 0, lineHeight: Int = 0, base: Int = 0, pageWidth: Int = 0, pageHeight: Int = 0, isPacked: Bool = false,
        channelContents: [ChannelContent] = [.glyph, .glyph, .glyph, .glyph]
    ) {
        self.face = face
        self.size = size
        self.isBold = isBold
        self.isItalic = isItalic
        self.isUnicode = isUnicode
        self.isSmooth = isSmooth
        self.charset = charset
        self.stretchHeight = stretchHeight
        self.supersampling = supersampling
        self.padding = padding
        self.spacing = spacing
        self.outline = outline
        self.lineHeight = lineHeight
        self.base = base
        self.pageWidth = pageWidth
        self.pageHeight = pageHeight
        self.isPacked = isPacked
        self.channelContents = channelContents
    }
}
