import Foundation
import Preload
import PreloadAudio
import PreloadBaked

/// Writes what a batch loaded as audio files a person can play: every sound and every music
/// track as a WAV at `FOLDER/<store name>.wav` (the store name kept whole, `.wav` appended), in
/// the sample type it loaded with (16-bit PCM or 32-bit float). Music is decoded through a
/// stream, as the game would play it. `preload export` writes these beside the textures.
///
/// ```swift
/// import Preload
/// import PreloadAudio
/// import PreloadAuthoring
///
/// let coordinator = try PreloadCoordinator(plugins: [AudioLoader()])
/// let report = try await coordinator.preload([.folder("audio")])
/// let exported = try AudioExporter.write(report, to: "out")
/// print(exported.files.count)
/// ```
public enum AudioExporter {
    /// What ``write(_:to:)`` did.
    public struct Exported: Sendable {
        /// The files written, in the report's order.
        public var files: [String] = []
        /// Sounds and music not written, with why (a name that would leave the folder).
        public var skipped: [(name: String, reason: String)] = []
    }

    /// Writes every sound and music track of `report` under `folder`. Each file is written whole
    /// or not at all; one that cannot be written (or music that no longer decodes) throws.
    public static func write(_ report: PreloadReport, to folder: String) throws -> Exported {
        var exported = Exported()
        var seen = Set<String>()
        for result in report.allResults where seen.insert(result.request.name).inserted {
            let name = result.request.name
            // A sound's samples as they are; music decoded through a stream, once it is known to be written.
            let samples: () throws -> AssetBytes
            let format: AudioFormat
            switch result.outcome.asset {
            case let sound as Sound: (samples, format) = ({ sound.samples }, sound.format)
            case let music as Music: (samples, format) = ({ AssetBytes(try music.decodeAll()) }, music.format)
            default: continue
            }
            let relative = AssetPath.normalized(name.hasPrefix("/") ? String(name.drop { $0 == "/" }) : name)
            guard BakedIndex.staysInside(relative) else {
                exported.skipped.append((name, "the name would leave \(folder)"))
                continue
            }
            let pcm = try samples()
            let path = folder + "/" + relative + ".wav"
            let file = try AtomicFile(path: path)
            try file.write(try wavHeader(samples: pcm.count, format: format))
            try pcm.withUnsafeBytes { try file.write($0) }  // in place, not copied behind a header
            try file.commit()
            exported.files.append(path)
        }
        return exported
    }

    /// The 44 bytes that start a WAV file of `samples` bytes of interleaved `format` samples
    /// (16-bit PCM, or 32-bit IEEE float; an even count, so the data chunk needs no pad byte),
    /// which follow them.
    public static func wavHeader(samples: Int, format: AudioFormat) throws -> [UInt8] {
        guard samples <= Int(UInt32.max) - 44 else {
            throw AssetError(path: "", category: .limitExceeded, reason: "\(samples) bytes of samples do not fit a WAV file (4 GiB)")
        }
        var bytes = Array("RIFF".utf8)
        bytes.appendLittleEndian(UInt32(36 + samples))
        bytes += Array("WAVEfmt ".utf8)
        bytes.appendLittleEndian(UInt32(16))
        bytes.appendLittleEndian(UInt16(format.sampleFormat == .float32 ? 3 : 1))
        bytes.appendLittleEndian(UInt16(format.channels))
        bytes.appendLittleEndian(UInt32(format.sampleRate))
        bytes.appendLittleEndian(UInt32(format.sampleRate * format.bytesPerFrame))
        bytes.appendLittleEndian(UInt16(format.bytesPerFrame))
        bytes.appendLittleEndian(UInt16(format.sampleFormat.bytesPerSample * 8))
        bytes += Array("data".utf8)
        bytes.appendLittleEndian(UInt32(samples))
        return bytes
    }
}
