import Preload

/// A sound bakes as ``BakedAudio`` (kind `audio`): its PCM as loaded, loaded back as a view of
/// the pack with no decode.
extension Sound: BakeableAsset {
    /// `audio`, shared with ``Music``: the entry's header says which it is.
    public static var bakedKind: String { "audio" }
    /// `sound or music`, `sounds and music`: counted with ``Music``.
    public static var bakedNouns: (singular: String, plural: String) { ("sound or music", "sounds and music") }

    public func baked(pageEntries: [Int]) throws -> BakedEntry { BakedEntry(bytes: try BakedAudio.encode(self)) }

    public static func unbaked(from entry: BakedEntryContents) throws -> any Asset { try BakedAudio.asset(in: entry) }
}

/// Music bakes as ``BakedAudio`` (kind `audio`): its encoded file, loaded back as a view of the
/// pack and decoded while it plays.
extension Music: BakeableAsset {
    /// `audio`, shared with ``Sound``: the entry's header says which it is.
    public static var bakedKind: String { "audio" }
    /// `sound or music`, `sounds and music`: counted with ``Music``.
    public static var bakedNouns: (singular: String, plural: String) { ("sound or music", "sounds and music") }

    public func baked(pageEntries: [Int]) throws -> BakedEntry { BakedEntry(bytes: BakedAudio.encode(self)) }

    public static func unbaked(from entry: BakedEntryContents) throws -> any Asset { try BakedAudio.asset(in: entry) }
}

/// The audio plugin reads baked sounds and music back.
extension AudioLoader: BakingPlugin {
    /// ``Sound`` and ``Music``.
    public var bakedAssetTypes: [any BakeableAsset.Type] { [Sound.self, Music.self] }
}
