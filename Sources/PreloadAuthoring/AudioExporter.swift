import Preload
import PreloadAudio

/// Writes what a batch loaded as audio files a person can play: every sound and every music
/// track as a WAV at `FOLDER/<store name>.wav` (the store name kept whole, `.wav` appended), in
/// the sample type it loaded with (16-bit PCM or 32-bit float). Music is decoded through a
/// stream, as the game would play it. Each kind now writes itself (`ExportableAsset`):
/// ``AssetExporter`` writes these beside the textures, as `preload export` does.
@available(*, deprecated, message: "use AssetExporter.write, which writes sounds and music beside textures")
public enum AudioExporter {
    /// What ``write(_:to:)`` did.
    public struct Exported: Sendable {
        /// The files written, in the report's order.
        public var files: [String] = []
        /// Sounds and music not written, with why (a name that would leave the folder).
        public var skipped: [(name: String, reason: String)] = []
    }

    /// Writes every sound and music track of `report` under `folder` (every file an asset
    /// writes besides textures). Each file is written whole or not at all; one that cannot be
    /// written (or music that no longer decodes) throws.
    public static func write(_ report: PreloadReport, to folder: String) throws -> Exported {
        let collector = ExportCollector(folder: folder, gathersTextures: false)
        try collector.export(report)
        return Exported(files: collector.files.map(\.path), skipped: collector.skipped)
    }

    /// The 44 bytes that start a WAV file of `samples` bytes of interleaved `format` samples.
    @available(*, deprecated, renamed: "WAVHeader.bytes(samples:format:)")
    public static func wavHeader(samples: Int, format: AudioFormat) throws -> [UInt8] {
        try WAVHeader.bytes(samples: samples, format: format)
    }
}
