import Preload

extension AssetWarning.Code {
    /// Characters asked for that the face has no glyph for (its character map gives glyph 0),
    /// listed in one warning: each gets no glyph (or the `.notdef` image, when
    /// ``TrueTypeFontLoaderSettings/rendersMissingCharacters`` asks for it).
    public static let trueTypeMissingCharacters: AssetWarning.Code = "truetype.missing-characters"
    /// The face has kerning, but more of the characters asked for than
    /// ``TrueTypeFontLoaderSettings/mostKernedCharacters``: no pair was read.
    public static let trueTypeKerningSkipped: AssetWarning.Code = "truetype.kerning-skipped"
}
