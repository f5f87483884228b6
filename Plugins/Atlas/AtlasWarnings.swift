import Preload

extension AssetWarning.Code {
    /// The descriptor's lines end in CRLF or a lone CR (saved on Windows or an old Mac).
    public static let atlasLineEnds: AssetWarning.Code = "atlas.line-ends"
    /// The descriptor's text starts with a UTF-8 byte-order mark (ignored).
    public static let atlasByteOrderMark: AssetWarning.Code = "atlas.byte-order-mark"
    /// Two frames share a name (and index): both are kept, the first answers to the name.
    public static let atlasDuplicateName: AssetWarning.Code = "atlas.duplicate-name"
    /// A sprite sheet's frame grid gives no frame on its image (frames larger than the image,
    /// or a range that selects none): it loads with no frames, as in Phaser.
    public static let atlasEmptyGrid: AssetWarning.Code = "atlas.empty-grid"
}

extension AtlasDescription {
    /// Everything irregular the descriptor was forgiven: what its reader noted (``warnings``:
    /// line ends) and frames that share a name and index. libGDX and Phaser keep both twins
    /// (a region and its nine-patch twin, say) and answer the name with the first, and so does
    /// ``TextureAtlas``: ``TextureAtlas/frame(named:)`` gives the first,
    /// ``TextureAtlas/frames(named:)`` every one.
    public var allWarnings: [AssetWarning] {
        var seen = Set<String>(), named = Set<String>()
        var warnings = self.warnings
        for frame in frames {
            let key = frame.index.map { "\(frame.name)#\($0)" } ?? frame.name
            guard !seen.insert(key).inserted, named.insert(key).inserted else { continue }
            let which = frame.index.map { "frame '\(frame.name)' (index \($0))" } ?? "frame '\(frame.name)'"
            warnings.append(AssetWarning(.atlasDuplicateName, "\(which) is named more than once; the first is used by name"))
        }
        return warnings
    }
}
