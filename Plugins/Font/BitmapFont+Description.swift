import Preload

extension BitmapFont: DescribedAsset {
    /// Each page's pixels.
    public var checksummedParts: [ChecksummedPart] { ChecksummedPart.pages(pages.map(\.texture)) }

    /// `format`, `face`, `size`, `lineHeight`, `base`, `glyphCount`, `kerningPairCount` and
    /// `pages`; `bmfont-text font 'Pixel' 16 px, 1 page, 95 glyphs, 3 kerning pairs`.
    public func assetDescription(checksums: AssetChecksums?) -> AssetDescription {
        let counts = [
            AssetDescription.counted(pages.count, "page"), AssetDescription.counted(glyphs.count, "glyph"),
            AssetDescription.counted(kerningPairs.count, "kerning pair"),
        ]
        return AssetDescription(
            fields: [
                "format": .string(format.rawValue), "face": .string(metrics.face), "size": .int(metrics.size), "lineHeight": .int(lineHeight),
                "base": .int(base), "glyphCount": .int(glyphs.count), "kerningPairCount": .int(kerningPairs.count),
                "pages": .pages(pages.map { ($0.path, $0.texture) }, checksums: checksums),
            ],
            summary: "\(format.rawValue) font '\(metrics.face)' \(metrics.size) px, " + counts.joined(separator: ", "))
    }
}
