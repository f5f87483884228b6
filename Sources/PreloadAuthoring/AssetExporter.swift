import Preload

/// Writes what a batch loaded as files a person opens: each `ExportableAsset` writes itself
/// under its store name (`FOLDER/<store name>.EXT`, the name kept whole and the extension
/// appended, folders made as needed), whatever its kind: textures and atlas pages as RGBA PNG
/// (or KTX2, ``TextureExporter``), sounds and music as WAV, a third party's kind as it says.
/// What `preload export` writes.
///
/// ```swift
/// import Preload
/// import PreloadAtlas
/// import PreloadAudio
/// import PreloadAuthoring
/// import PreloadPNG
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader(), AudioLoader()])
/// let report = try await coordinator.preload([.folder("assets")])
/// let exported = try AssetExporter.write(report, to: "out")
/// print(exported)   // "Exported 12 textures and 3 sounds (WAV)"
/// ```
public enum AssetExporter {
    /// What ``write(_:to:textures:baking:)`` did.
    public struct Exported: Sendable, CustomStringConvertible {
        /// The textures written, those skipped, and with baking their GPU formats.
        public var textures = TextureExporter.Exported()
        /// The other files written, in the report's order, each with what it counts as.
        public var files: [(path: String, label: ExportLabel)] = []
        /// What was not written besides textures, with why (a name that would leave the folder,
        /// what an asset could not write).
        public var skipped: [(name: String, reason: String)] = []

        /// `Exported 12 textures and 3 sounds (WAV)`: the textures, then each kind of file by
        /// its label, in the order first written.
        public var description: String {
            var labels: [ExportLabel] = []
            var counts: [ExportLabel: Int] = [:]
            for (_, label) in files {
                if counts[label] == nil { labels.append(label) }
                counts[label, default: 0] += 1
            }
            return textures.description
                + labels.map { label in
                    let count = counts[label] ?? 0
                    return " and \(count) \(count == 1 ? label.noun : label.plural) (\(label.format))"
                }.joined()
        }
    }

    /// Writes every exportable asset of `report` under `folder`: textures as `textures` says,
    /// each made GPU-ready first when `baking` is given, and every other file as its kind
    /// writes it. Each file is written whole or not at all; one that cannot be written (or
    /// music that no longer decodes) throws, naming it.
    public static func write(
        _ report: PreloadReport, to folder: String, textures format: TextureExporter.FileFormat = .png,
        baking: BakeWriter.TextureBaking? = nil
    ) throws -> Exported {
        let collector = ExportCollector(folder: folder)
        collector.textureFileExtension = format.fileExtension
        try collector.export(report)
        var exported = Exported(files: collector.files, skipped: collector.skipped)
        exported.textures = try TextureExporter.write(collector.gatheredTextures, to: folder, as: format, baking: baking)
        return exported
    }
}
