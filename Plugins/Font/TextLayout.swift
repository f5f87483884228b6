/// Text laid out with a ``BitmapFont``: where each glyph's image goes, in pixels from the first
/// line's top-left corner, y down. Made by ``BitmapFont/layOut(_:)``.
public struct TextLayout: Hashable, Sendable {
    /// One glyph placed: draw `glyph`'s rectangle of its page with its top-left corner at `x`, `y`.
    public struct PlacedGlyph: Hashable, Sendable {
        /// The character it stands for.
        public var character: Unicode.Scalar
        /// The glyph drawn (the font's missing glyph for a character it lacks).
        public var glyph: BitmapGlyph
        /// Where the glyph's image goes (its offsets applied).
        public var x: Int
        /// See ``x``.
        public var y: Int
        /// Which line it is on, from 0.
        public var line: Int
    }

    /// The glyphs, in the text's order (characters without a glyph and line breaks leave none).
    public var glyphs: [PlacedGlyph]
    /// The longest line's advance: where the pen stopped, kerning included.
    public var width: Int
    /// The lines' height: their count times the font's line height.
    public var height: Int
    /// How many lines (`\n` starts one).
    public var lineCount: Int
    /// The characters the font has no glyph for, in order (drawn with the missing glyph if the
    /// font has one).
    public var missing: [Unicode.Scalar]
}
