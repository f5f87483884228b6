/// One character of a bitmap font: where its image lies on which page, where to draw it
/// relative to the pen, and how far the pen moves after it. The numbers are the font file's own
/// (AngelCode BMFont's `char` fields), in pixels, y down.
public struct BitmapGlyph: Hashable, Sendable {
    /// The character's code point (BMFont's `id`); the font's ``BitmapFont/missingGlyph`` has
    /// the `id` its file gave (BMFont writes -1 for it).
    public var id: Int64
    /// The glyph's rectangle on its page: left, top, width, height (0x0 for a space).
    public var x: Int
    /// See ``x``.
    public var y: Int
    /// See ``x``.
    public var width: Int
    /// See ``x``.
    public var height: Int
    /// Where the image's top-left corner goes, from the pen's position on the line's top.
    public var xOffset: Int
    /// See ``xOffset``.
    public var yOffset: Int
    /// How far the pen moves right after this glyph (kerning with the next one aside).
    public var xAdvance: Int
    /// The index of the page (``BitmapFont/pages``) the image is on.
    public var page: Int
    /// Which channels of the page hold the image (all four unless the font is packed).
    public var channels: FontChannels

    /// A glyph with the font file's numbers.
    public init(
        id: Int64, x: Int, y: Int, width: Int, height: Int, xOffset: Int, yOffset: Int, xAdvance: Int, page: Int,
        channels: FontChannels = .all
    ) {
        self.id = id
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.xOffset = xOffset
        self.yOffset = yOffset
        self.xAdvance = xAdvance
        self.page = page
        self.channels = channels
    }
}

/// Which colour channels of a page hold a glyph (BMFont's `chnl`): a packed font keeps a
/// different glyph in each channel of one page.
public struct FontChannels: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The blue channel (BMFont's bit 1).
    public static let blue = FontChannels(rawValue: 1)
    /// The green channel (2).
    public static let green = FontChannels(rawValue: 2)
    /// The red channel (4).
    public static let red = FontChannels(rawValue: 4)
    /// The alpha channel (8).
    public static let alpha = FontChannels(rawValue: 8)
    /// All four (15): an ordinary, unpacked glyph.
    public static let all: FontChannels = [.blue, .green, .red, .alpha]
}

/// How far the pen moves between two characters beyond the first one's advance (BMFont's
/// `kerning` line): usually negative, pulling `AV` together.
public struct KerningPair: Hashable, Sendable {
    /// The code point on the left.
    public var first: Int64
    /// The code point on the right.
    public var second: Int64
    /// Pixels added to the pen's advance between them.
    public var amount: Int

    /// A pair with the font file's numbers.
    public init(first: Int64, second: Int64, amount: Int) {
        self.first = first
        self.second = second
        self.amount = amount
    }
}
