/// One glyph as FreeType rendered it, in whole pixels: the bitmap's size, where it sits from the
/// pen (FreeType's `bitmap_left`, and `bitmap_top` up from the baseline), the rounded advance,
/// and where its coverage rows start in the load's one buffer of coverage.
struct RasterizedGlyph {
    var width: Int
    var height: Int
    var left: Int
    var top: Int
    var advance: Int
    var offset: Int
}
