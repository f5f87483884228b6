/// A loader plugin whose assets a baked pack can hold: it names the ``BakeableAsset`` types it
/// loads, so that a batch with the plugin reads their entries back from a pack by kind name.
///
/// ```swift
/// import Preload
///
/// extension PaletteLoader: BakingPlugin {
///     var bakedAssetTypes: [any BakeableAsset.Type] { [Palette.self] }
/// }
/// ```
public protocol BakingPlugin: LoaderPlugin {
    /// The asset types this plugin's files load as, whose entries it reads back.
    var bakedAssetTypes: [any BakeableAsset.Type] { get }
}
