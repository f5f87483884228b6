import Preload

/// The 44 bytes that start a WAV file of interleaved samples (16-bit PCM or 32-bit IEEE float),
/// which follow them: what ``Sound`` and ``Music`` write when exported (`ExportableAsset`).
public enum WAVHeader {
    /// How an exporter counts the files: `3 sounds (WAV)`.
    public static let label = ExportLabel(noun: "sound", format: "WAV")

    /// The header of a file of `samples` bytes of `format` samples (an even count, so the data
    /// chunk needs no pad byte). Throws when they do not fit a WAV file (4 GiB).
    public static func bytes(samples: Int, format: AudioFormat) throws -> [UInt8] {
        guard samples <= Int(UInt32.max) - 44 else {
            throw AssetError(path: "", category: .limitExceeded, reason: "\(samples) bytes of samples do not fit a WAV file (4 GiB)")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        bytes += Array("RIFF".utf8)
        append(UInt32(36 + samples))
        bytes += Array("WAVEfmt ".utf8)
        append(UInt32(16))
        append(UInt16(format.sampleFormat == .float32 ? 3 : 1))
        append(UInt16(format.channels))
        append(UInt32(format.sampleRate))
        append(UInt32(format.sampleRate * format.bytesPerFrame))
        append(UInt16(format.bytesPerFrame))
        append(UInt16(format.sampleFormat.bytesPerSample * 8))
        bytes += Array("data".utf8)
        append(UInt32(samples))
        return bytes
    }

    /// Writes `samples` (read only once the name is known to be written) of `format` as
    /// `NAME.wav` into `folder`, the header first and the samples in place behind it.
    static func export(named name: String, format: AudioFormat, samples: () throws -> AssetBytes, into folder: any ExportFolder) throws {
        try folder.writeFile(named: name, extension: "wav", counted: label) {
            let pcm = try samples()
            return [AssetBytes(try bytes(samples: pcm.count, format: format)), pcm]
        }
    }
}
