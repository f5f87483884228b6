/// Where an ``ExportableAsset`` writes itself: the exporter's side of `preload export`. It
/// places each file below its folder under the name given (a name that would leave the folder
/// is skipped, saying so), writes it whole or not at all, and counts what was written and what
/// was skipped for its report.
public protocol ExportFolder: AnyObject {
    /// Writes `texture` at `NAME.png` (or in the format the exporter was asked for), level 0 as
    /// a person sees it. `partOf` names the file the texture was loaded from when it is a part
    /// of a larger asset (an atlas's page): such a part is written after the batch's own
    /// textures, and not at all when one of them was loaded from that file or holds the same
    /// pixels. An image the format cannot hold (an empty one) is skipped, saying why.
    func write(_ texture: Texture, named name: String, partOf: String?)

    /// Writes the file `NAME.EXTENSION` made of `contents` in order (a header, then samples
    /// held elsewhere, without copying them together), counted under `label` in the report.
    /// `contents` runs only once the name is known to be written.
    func writeFile(named name: String, extension: String, counted label: ExportLabel, contents: () throws -> [AssetBytes]) throws

    /// Reports that `name` was not written, and why.
    func skip(_ name: String, because reason: String)

    /// The extension ``write(_:named:partOf:)`` gives a texture's file (`png`, `ktx2`): what a
    /// file naming the image beside it (a sheet's JSON) writes.
    var textureFileExtension: String { get }
}

extension ExportFolder {
    /// `png`.
    public var textureFileExtension: String { "png" }

    /// Writes `texture`, the asset itself, at `NAME.png`.
    public func write(_ texture: Texture, named name: String) {
        write(texture, named: name, partOf: nil)
    }
}
