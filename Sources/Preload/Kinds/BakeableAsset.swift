/// An asset type a baked pack (`preload bake`) can hold: it writes its own entry's bytes and
/// rebuilds itself from them. The pack records each entry's kind by name (``bakedKind``), so a
/// plugin adds a kind without a change to the bake writer or to the baked-pack loader; the
/// plugin lists the types it bakes in ``BakingPlugin/bakedAssetTypes``.
///
/// ```swift
/// import Preload
///
/// struct Palette: BakeableAsset {
///     var colors: [UInt8]
///     var kind: AssetKind { "palette" }
///     var byteCount: Int { colors.count }
///
///     static var bakedKind: String { "palette" }
///     func baked(pageEntries: [Int]) throws -> BakedEntry { BakedEntry(bytes: AssetBytes(colors)) }
///     static func unbaked(from entry: BakedEntryContents) throws -> any Asset {
///         guard entry.bytes.count % 4 == 0 else { throw entry.malformed("a palette of \(entry.bytes.count) bytes") }
///         return Palette(colors: entry.bytes.array)
///     }
/// }
/// ```
///
/// An asset made of textures (an atlas's pages, a font's, a map's images) names them in
/// ``bakedPages()``: the writer stores each as a texture entry of its own (or finds the one it
/// already stored from that file) and hands their entry numbers to ``baked(pageEntries:)``; the
/// entry keeps those numbers, and ``unbaked(from:)`` gets each page back with
/// ``BakedEntryContents/page(_:path:)``.
public protocol BakeableAsset: Asset {
    /// The name entries of this type are recorded under in a pack's table of kinds (`texture`,
    /// `atlas`, `palette`): stable across versions, since packs already written name it.
    static var bakedKind: String { get }

    /// Further kind names this type reads (an older name, a second form of its entry). Default:
    /// none.
    static var otherBakedKinds: [String] { get }

    /// How a bake's summary counts entries of this type: `("atlas", "atlases")` gives
    /// `1 atlas`, `3 atlases`. Default: the kind name, and it with an `s`.
    static var bakedNouns: (singular: String, plural: String) { get }

    /// The textures this asset's entry refers to, in the order ``baked(pageEntries:)`` gets their
    /// entry numbers. Throws when the asset cannot be baked as it is (a map whose images did not
    /// load). Default: none.
    func bakedPages() throws -> [BakedPage]

    /// This asset's entry: its bytes (and, for a texture, its size), its pages being the entries
    /// `pageEntries` (numbers in the pack, in ``bakedPages()``' order).
    func baked(pageEntries: [Int]) throws -> BakedEntry

    /// The asset in `entry`, an entry of ``bakedKind`` (or one of ``otherBakedKinds``) whose bytes
    /// are checked against their checksum and are a view of the mapped pack. Throw
    /// ``BakedEntryContents/malformed(_:)`` for bytes that do not read: it names the pack and the
    /// entry.
    static func unbaked(from entry: BakedEntryContents) throws -> any Asset
}

extension BakeableAsset {
    public static var otherBakedKinds: [String] { [] }
    public static var bakedNouns: (singular: String, plural: String) { (bakedKind, bakedKind + "s") }
    public func bakedPages() throws -> [BakedPage] { [] }
}

/// A texture an entry refers to: the file it was loaded from (so that a page loaded on its own
/// too is stored once) and its pixels.
public struct BakedPage: Sendable {
    /// The path the texture was loaded from, as the asset names it (`AtlasPage.path`).
    public var path: String
    /// The texture.
    public var texture: Texture
    /// For a page made at load from another file than the asset's own (an animation repacked
    /// from an Aseprite export's sheet), that file's path: the page's entry records it as its
    /// source, so `preload bake check` sees it change. `nil` for a page loaded from ``path``, or
    /// made from the asset's own file (a packed sprite folder, a rasterized font).
    public var madeFrom: String?

    /// A page loaded from `path` (or made at load, from `madeFrom` when that is another file
    /// than the asset's).
    public init(path: String, texture: Texture, madeFrom: String? = nil) {
        self.path = path
        self.texture = texture
        self.madeFrom = madeFrom
    }
}
