import Preload

extension AssetWarning.Code {
    /// A character id is written twice: the last one is kept, as libGDX and Phaser keep it.
    public static let fontDuplicateGlyph: AssetWarning.Code = "font.duplicate-glyph"
    /// A `chars count` or `kernings count` differs from the lines that follow (the lines count).
    public static let fontCountMismatch: AssetWarning.Code = "font.count-mismatch"
    /// A number has a fraction where BMFont writes whole pixels: it is cut to its whole part,
    /// as Phaser's `parseInt` does.
    public static let fontFractionalNumber: AssetWarning.Code = "font.fractional-number"
    /// A page image's size differs from the `common scaleW`/`scaleH` the glyphs were made for
    /// (glyphs are placed by the file's numbers, and checked against the image).
    public static let fontPageSize: AssetWarning.Code = "font.page-size"
    /// An `info` number written with no value (`unicode=`): read as BMFont's default, as libGDX
    /// and Phaser, which ignore the field, read the font.
    public static let fontEmptyValue: AssetWarning.Code = "font.empty-value"
    /// A kerning pair is written twice with different amounts: the last one is used, as libGDX
    /// and Phaser keep it.
    public static let fontConflictingKerning: AssetWarning.Code = "font.conflicting-kerning"
}
