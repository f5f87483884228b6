import Preload

/// A RIFF/WAVE file's layout, read by this plugin (a fresh machine has no audio library, and a
/// baked sound is its PCM): where the samples are and how each is stored.
///
/// Lenient about structure (an unset data size, a partial last frame, bytes after the RIFF
/// chunk, a cut-off chunk after the samples: each a warning), strict about data (a data chunk
/// longer than the file, a missing or contradictory `fmt ` chunk: errors).
///
/// Samples of another codec than PCM and float (Microsoft and IMA ADPCM, A-law, µ-law, ...) are
/// laid out here too, by their format tag, for libsndfile to decode (``WAVFile/Samples/codec(tag:)``).
struct WAVFile: Hashable, Sendable {
    /// How one sample of one channel is stored in the file.
    enum SampleEncoding: Hashable, Sendable {
        case unsigned8, signed16, signed24, signed32, float32, float64

        var bytes: Int {
            switch self {
            case .unsigned8: 1
            case .signed16: 2
            case .signed24: 3
            case .signed32, .float32: 4
            case .float64: 8
            }
        }
    }

    /// How the samples are stored.
    enum Samples: Hashable, Sendable {
        /// PCM or float samples, which this plugin converts itself (``PCMConversion``).
        case pcm(SampleEncoding)
        /// Blocks of another codec, by the fmt chunk's format tag (2 is Microsoft ADPCM, 0x11
        /// IMA ADPCM), which libsndfile decodes if it knows the codec.
        case codec(tag: Int)
    }

    var sampleRate: Int
    var channels: Int
    var samples: Samples
    /// Where the samples start in the file.
    var dataOffset: Int
    /// How many whole frames the data holds; 0 for a codec's blocks (libsndfile counts them).
    var frameCount: Int
    /// The frames the `fact` chunk says a codec's blocks hold (its last block padded past
    /// them), if it has one and it is not 0; nil for PCM and float.
    var factFrameCount: Int?
    /// What was irregular about the file.
    var warnings: [AssetWarning] = []

    /// The most channels the plugin takes (WAV allows 65,535; games use up to 8).
    static let maximumChannels = 64

    /// Whether `header` starts a RIFF/WAVE file.
    static func matches(_ header: UnsafeRawBufferPointer) -> Bool {
        header.count >= 12 && header.starts(with: "RIFF".utf8) && header[8..<12].elementsEqual("WAVE".utf8)
    }

    /// Whether `file` starts like a RIFF file of any kind (RIFF, RIFX, RF64, BW64), even one too
    /// short to say which: this plugin's to read and to refuse by name.
    static func isRIFF(_ file: UnsafeRawBufferPointer) -> Bool {
        ["RIFF", "RIFX", "RF64", "BW64"].contains { file.starts(with: $0.utf8) }
    }

    /// Reads the layout of the WAV file `file`.
    init(_ file: UnsafeRawBufferPointer) throws(AudioDecodeError) {
        guard !file.isEmpty else { throw .emptyFile }
        guard file.count >= 12 else { throw .truncated("\(file.count) bytes, fewer than a RIFF header's 12") }
        if Self.isRIFF(file), !file.starts(with: "RIFF".utf8) {
            throw .unsupported("a \(file.starts(with: "RIFX".utf8) ? "big-endian RIFX" : "64-bit RF64") WAV file")
        }
        guard Self.matches(file) else {
            throw .notAudio("no RIFF/WAVE header")
        }
        var warnings: [AssetWarning] = []
        // The RIFF size: 0 and 0xFFFFFFFF are streaming placeholders, and a size past the file's
        // end is checked where it matters (the data chunk); a smaller one ends the walk early.
        let riffSize = RIFFChunks.riffSize(of: file) ?? 0
        var end = file.count
        if riffSize != 0, riffSize != 0xFFFF_FFFF, riffSize >= 4, riffSize + 8 < file.count {
            end = riffSize + 8
            warnings.append(
                AssetWarning(.wavTrailingData, "\(file.count - end) bytes after the RIFF chunk's end; ignored"))
        }
        var format: (samples: Samples, channels: Int, rate: Int)?
        var data: (offset: Int, frames: Int)?
        var factFrames: Int?
        let reader = ByteReader(file)
        var chunks = RIFFChunks(file, end: end)
        while let chunk = chunks.next() {
            let (id, size, body, available) = (chunk.id, chunk.size, chunk.payloadStart, chunk.available)
            if id == "fact", size >= 4, size <= available, let frames = try? reader.littleEndian(at: body, as: UInt32.self, "the fact chunk"),
                frames > 0
            {
                factFrames = Int(frames)
            }
            if id == "fmt " {
                guard data == nil else { throw .corrupt("a fmt chunk after the data chunk") }
                if format == nil {
                    guard size <= available else {
                        throw .truncated("the fmt chunk declares \(size) bytes; the file has \(available) left")
                    }
                    format = try Self.readFormat(UnsafeRawBufferPointer(rebasing: file[body..<body + size]))
                }
            } else if id == "data" {
                guard let format else { throw .corrupt("the data chunk comes before any fmt chunk") }
                guard data == nil else { break }  // a second data chunk: players play the first
                var count = size
                if size == 0 || size == 0xFFFF_FFFF {
                    count = available
                    if available > 0 {
                        warnings.append(
                            AssetWarning(
                                .wavUnsetDataSize,
                                "the data chunk's size is unset (\(size == 0 ? "0" : "0xFFFFFFFF")); the \(available) bytes to the end "
                                    + "of the file were taken as samples"))
                    }
                } else if size > available {
                    throw .truncated("the data chunk declares \(size) bytes of samples; the file has \(available)")
                }
                var frames = 0  // a codec's blocks: libsndfile counts their frames
                if case .pcm(let encoding) = format.samples {
                    let bytesPerFrame = format.channels * encoding.bytes
                    frames = count / bytesPerFrame
                    if frames * bytesPerFrame != count {
                        warnings.append(
                            AssetWarning(
                                .wavPartialFrame,
                                "the data ends \(count - frames * bytesPerFrame) bytes into a frame of \(bytesPerFrame); the partial frame "
                                    + "was dropped"))
                    }
                }
                data = (body, frames)
                if count == available { break }
            } else if size > available {
                guard data == nil else {
                    warnings.append(
                        AssetWarning(
                            .wavTruncatedTrailingChunk,
                            "the chunk '\(id)' after the samples runs past the end of the file; ignored"))
                    break
                }
                throw .truncated("the chunk '\(id)' declares \(size) bytes; the file has \(available) left")
            }
        }
        if format == nil || data == nil {
            // A walk that stopped inside a chunk's header, or a RIFF chunk that declares more than
            // the file holds: the file was cut before its samples.
            if chunks.offset < chunks.end || (riffSize != 0xFFFF_FFFF && riffSize + 8 > file.count) {
                throw .truncated(
                    "the file ends at byte \(file.count), before its \(format == nil ? "fmt" : "data") chunk"
                        + (riffSize + 8 > file.count ? " (the RIFF chunk declares \(riffSize + 8) bytes)" : ""))
            }
        }
        guard let format else { throw .corrupt("no fmt chunk") }
        guard let data else { throw .truncated("no data chunk") }
        self.sampleRate = format.rate
        self.channels = format.channels
        self.samples = format.samples
        self.dataOffset = data.offset
        self.frameCount = data.frames
        self.warnings = warnings
        if case .codec = format.samples { self.factFrameCount = factFrames }
    }

    /// The `fmt ` chunk: PCM (1), IEEE float (3), either inside WAVE_FORMAT_EXTENSIBLE, or
    /// another codec's tag.
    private static func readFormat(
        _ chunk: UnsafeRawBufferPointer
    ) throws(AudioDecodeError) -> (samples: Samples, channels: Int, rate: Int) {
        guard chunk.count >= 16 else { throw .corrupt("a fmt chunk of \(chunk.count) bytes, fewer than 16") }
        let reader = ByteReader(chunk)
        func field<T: FixedWidthInteger>(_ offset: Int, _ type: T.Type, _ name: String) throws(AudioDecodeError) -> Int {
            do { return Int(try reader.littleEndian(at: offset, as: type, "the fmt chunk's \(name)")) } catch { throw .truncated(error.description) }
        }
        var tag = try field(0, UInt16.self, "format tag")
        let channels = try field(2, UInt16.self, "channel count")
        let rate = try field(4, UInt32.self, "sample rate")
        let blockAlign = try field(12, UInt16.self, "block size")
        let bits = try field(14, UInt16.self, "sample size")
        if tag == 0xFFFE {  // WAVE_FORMAT_EXTENSIBLE: the sub-format GUID's first two bytes are the tag
            guard chunk.count >= 40 else { throw .corrupt("an extensible fmt chunk of \(chunk.count) bytes, fewer than 40") }
            let guidTail: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
            guard (0..<14).allSatisfy({ chunk[26 + $0] == guidTail[$0] }) else {
                throw .unsupported("an extensible WAV whose sub-format is not a standard one")
            }
            tag = try field(24, UInt16.self, "sub-format")
        }
        guard channels > 0 else { throw .corrupt("a fmt chunk with 0 channels") }
        guard channels <= maximumChannels else { throw .unsupported("\(channels) channels (at most \(maximumChannels))") }
        guard rate > 0 else { throw .corrupt("a fmt chunk with a sample rate of 0") }
        guard tag == 1 || tag == 3 else { return (.codec(tag: tag), channels, rate) }
        let container = blockAlign / channels
        guard blockAlign == container * channels, container == (bits + 7) / 8 || (tag == 1 && bits <= container * 8 && bits > 0)
        else {
            throw .corrupt("a fmt chunk whose block size (\(blockAlign)) is not \(channels) channels of \(bits)-bit samples")
        }
        let encoding: SampleEncoding
        switch (tag, container) {
        case (1, 1): encoding = .unsigned8
        case (1, 2): encoding = .signed16
        case (1, 3): encoding = .signed24
        case (1, 4): encoding = .signed32
        case (3, 4): encoding = .float32
        case (3, 8): encoding = .float64
        default: throw .unsupported("\(bits)-bit \(tag == 1 ? "PCM" : "float") samples")
        }
        return (.pcm(encoding), channels, rate)
    }

    /// The codec of format tag `tag`, for messages: "Microsoft ADPCM (WAV format 0x0002)".
    static func codecName(_ tag: Int) -> String {
        let name =
            switch tag {
            case 2: "Microsoft ADPCM"
            case 6: "A-law"
            case 7: "µ-law"
            case 0x11: "IMA ADPCM"
            case 0x31: "GSM 6.10"
            case 0x40: "G.721 ADPCM"
            case 0x55: "MP3"
            default: "an unknown codec"
            }
        let hex = String(tag, radix: 16, uppercase: true)
        return "\(name) (WAV format 0x\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex))"
    }
}
