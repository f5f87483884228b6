/// A text object's text and how it is set.
public struct MapText: Sendable, Hashable, Codable {
    /// How lines are aligned across the box.
    public enum HorizontalAlignment: String, Sendable, Hashable, Codable {
        /// Left (the default).
        case left
        /// Centred.
        case center
        /// Right.
        case right
        /// Justified.
        case justify
    }

    /// How the text is placed down the box.
    public enum VerticalAlignment: String, Sendable, Hashable, Codable {
        /// At the top (the default).
        case top
        /// Centred.
        case center
        /// At the bottom.
        case bottom
    }

    /// The text.
    public var text: String
    /// The font family (`sans-serif` unless set).
    public var fontFamily: String
    /// The font size in pixels (16 unless set).
    public var pixelSize: Int
    /// Whether lines wrap at the box's width.
    public var wraps: Bool
    /// The colour (black unless set).
    public var color: TiledColor
    /// Bold.
    public var isBold: Bool
    /// Italic.
    public var isItalic: Bool
    /// Underlined.
    public var isUnderlined: Bool
    /// Struck through.
    public var isStruckOut: Bool
    /// Whether kerning is used (true unless set).
    public var usesKerning: Bool
    /// The horizontal alignment.
    public var horizontalAlignment: HorizontalAlignment
    /// The vertical alignment.
    public var verticalAlignment: VerticalAlignment

    /// A text, set as Tiled sets it by default unless told otherwise.
    public init(
        text: String, fontFamily: String = "sans-serif", pixelSize: Int = 16, wraps: Bool = false,
        color: TiledColor = TiledColor(red: 0, green: 0, blue: 0),
        isBold: Bool = false, isItalic: Bool = false, isUnderlined: Bool = false, isStruckOut: Bool = false, usesKerning: Bool = true,
        horizontalAlignment: HorizontalAlignment = .left, verticalAlignment: VerticalAlignment = .top
    ) {
        self.text = text
        self.fontFamily = fontFamily
        self.pixelSize = pixelSize
        self.wraps = wraps
        self.color = color
        self.isBold = isBold
        self.isItalic = isItalic
        self.isUnderlined = isUnderlined
        self.isStruckOut = isStruckOut
        self.usesKerning = usesKerning
        self.horizontalAlignment = horizontalAlignment
        self.verticalAlignment = verticalAlignment
    }
}
