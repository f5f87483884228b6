/// A loader plugin whose assets a baked pack can hold: it names the ``BakeableAsset`` types it
/// loads, so that a batch with the plugin reads their entries back from a pack by kind name
/// (``LoadContext/bakedAssetType(ofKind:)``). Without it, a pack's entries of those kinds fail
/// by name, and the pack's other entries load.
///
/// ```swift
/// import Preload
///
/// /// A palette: RGBA colours, four bytes each.
/// struct Palette: BakeableAsset {
///     var colors: AssetBytes
///     var kind: AssetKind { "palette" }
///     var byteCount: Int { colors.count }
///
///     static var bakedKind: String { "palette" }
///     func baked(pageEntries: [Int]) throws -> BakedEntry { BakedEntry(bytes: colors) }
///     static func unbaked(from entry: BakedEntryContents) throws -> any Asset { Palette(colors: entry.bytes) }
/// }
///
/// /// Loads `.pal` files, and reads baked palettes back.
/// struct PaletteLoader: BakingPlugin {
///     var identifier: String { "palette" }
///     var assetKind: AssetKind { "palette" }
///     var fileExtensions: Set<String> { ["pal"] }
///     var bakedAssetTypes: [any BakeableAsset.Type] { [Palette.self] }
///
///     func load(_ context: LoadContext) throws -> any Asset { Palette(colors: try context.readContents()) }
/// }
/// ```
public protocol BakingPlugin: LoaderPlugin {
    /// The asset types this plugin's files load as, whose entries it reads back.
    var bakedAssetTypes: [any BakeableAsset.Type] { get }
}
