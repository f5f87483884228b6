/// An asset that can be written out as files a person opens (`preload export`, PreloadAuthoring's
/// `AssetExporter`): it hands its images and its files to an ``ExportFolder`` under its store
/// name, and says what it leaves out and why. The exporter asks `asset as? any ExportableAsset`
/// and knows no kind; a kind's conformance lives beside its type (`Texture` in this module,
/// `TextureAtlas` in PreloadAtlas, `Sound` and `Music` in PreloadAudio), and a third party's
/// asset type conforms the same way.
///
/// Images go to the folder as textures, never as encoded files: the exporter writes every
/// kind's images alike, as the caller chose (RGBA PNG, KTX2, made GPU-ready first).
///
/// ```swift
/// import Preload
///
/// struct Palette: ExportableAsset {
///     var swatches: Texture
///     var gimpPalette: String
///
///     var kind: AssetKind { "palette" }
///     var byteCount: Int { swatches.byteCount }
///
///     func export(as name: String, into folder: any ExportFolder) throws {
///         folder.write(swatches, named: name)
///         try folder.writeFile(named: name, extension: "gpl", counted: ExportLabel(noun: "palette", format: "GPL")) {
///             [AssetBytes(Array(gimpPalette.utf8))]
///         }
///     }
/// }
/// ```
public protocol ExportableAsset: Asset {
    /// Writes the asset into `folder` under `name`, its store name (or a name derived from it,
    /// such as an atlas's `NAME#2` for its second page); each file the folder writes is named
    /// with the extension of its format appended. Throws only when a file cannot be written.
    func export(as name: String, into folder: any ExportFolder) throws
}
