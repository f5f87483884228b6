import CPreloadAudio
import Preload

/// One file open in libsndfile, read from bytes in memory: what a sound decodes with and a
/// music stream reads from. Used by one thread at a time (a ``MusicStream`` holds it under its
/// lock).
final class SndfileDecoder {
    let library: SndfileLibrary
    /// The encoding libsndfile found.
    let encoding: AudioEncoding
    let sampleRate: Int
    let channels: Int
    /// The frames the file says it holds.
    let frameCount: Int
    /// The next frame ``read(_:as:into:)`` gives.
    private var position = 0
    private let file: OpaquePointer
    private let memory: UnsafeMutablePointer<PreloadAudioMemory>
    /// Float samples of lossy encodings, before they become 16-bit.
    private var scratch: [Float] = []

    /// Opens the audio in `bytes`, which must stay valid and unchanged while the decoder lives:
    /// FLAC, Ogg Opus, or (`wavCodec`, its format tag) a WAV of another codec than PCM and float,
    /// which ends after `wavFrames` frames if its `fact` chunk says so (libsndfile gives the
    /// padding of the last block too; SDL, so pygame, stops at the `fact` count, as here).
    init(_ bytes: UnsafeRawBufferPointer, wavCodec: Int? = nil, wavFrames: Int? = nil) throws(any Error) {
        let library: SndfileLibrary
        do {
            library = try SndfileLibrary.get()
        } catch {
            guard let wavCodec else { throw error }
            guard Self.wavCodecs.contains(wavCodec) else { throw AudioDecodeError.unsupportedCodec(wavCodec, reason: "not installed either") }
            throw AudioDecodeError.libraryMissing(codec: WAVFile.codecName(wavCodec), error)
        }
        guard !bytes.isEmpty else { throw AudioDecodeError.emptyFile }
        memory = .reading(bytes)
        var info = SF_INFO()
        guard let file = library.openVirtual(preload_sndfile_memory_io(), Int32(PRELOAD_SFM_READ), &info, memory) else {
            let reason = library.message(nil)
            memory.deallocate()
            if let wavCodec, !Self.wavCodecs.contains(wavCodec) { throw AudioDecodeError.unsupportedCodec(wavCodec, reason: reason) }
            throw AudioDecodeError.openFailure(reason)
        }
        let major = Int(info.format) & PRELOAD_SF_FORMAT_TYPEMASK
        let minor = Int(info.format) & PRELOAD_SF_FORMAT_SUBMASK
        let encoding: AudioEncoding? =
            switch major {
            case PRELOAD_SF_FORMAT_WAV, PRELOAD_SF_FORMAT_WAVEX: wavCodec != nil ? .wav : nil
            case PRELOAD_SF_FORMAT_FLAC: .flac
            case PRELOAD_SF_FORMAT_MPEG: .mp3
            case PRELOAD_SF_FORMAT_OGG:
                minor == PRELOAD_SF_FORMAT_VORBIS ? .vorbis : minor == PRELOAD_SF_FORMAT_OPUS ? .opus : nil
            default: nil
            }
        guard let encoding, info.channels > 0, info.samplerate > 0, info.frames >= 0 else {
            _ = library.close(file)
            memory.deallocate()
            throw AudioDecodeError.unsupported(
                "libsndfile reads it as format 0x\(String(info.format, radix: 16)), which is not WAV, Ogg Vorbis, FLAC, MP3 or Ogg Opus")
        }
        guard info.channels <= Int32(WAVFile.maximumChannels) else {
            _ = library.close(file)
            memory.deallocate()
            throw AudioDecodeError.unsupported("\(info.channels) channels (at most \(WAVFile.maximumChannels))")
        }
        // Float reads normalised to -1...1; 16-bit reads of float data scaled, and clipped.
        _ = library.command(file, Int32(PRELOAD_SFC_SET_NORM_FLOAT), nil, 1)
        _ = library.command(file, Int32(PRELOAD_SFC_SET_CLIPPING), nil, 1)
        self.library = library
        self.file = file
        self.encoding = encoding
        self.sampleRate = Int(info.samplerate)
        self.channels = Int(info.channels)
        self.frameCount = min(Int(info.frames), wavFrames ?? .max)
        if encoding == .flac, frameCount > 0, !reachesLastFrame() {
            throw AudioDecodeError.truncated(
                "the FLAC data ends before its last frame: libFLAC cannot reach sample \(frameCount) of the \(frameCount) its STREAMINFO counts")
        }
    }

    /// The WAV codecs libsndfile decodes (by format tag): Microsoft ADPCM, A-law, µ-law, IMA
    /// ADPCM, GSM 6.10, G.721 ADPCM. It refuses the others, which are then unsupported, not damaged.
    static let wavCodecs: Set<Int> = [2, 6, 7, 0x11, 0x31, 0x40]

    /// Whether the last frame decodes, after a seek there (libFLAC bisects the file, or reads
    /// its seek table): false for a file cut before it, whose length STREAMINFO gave. Back at
    /// frame 0 after.
    private func reachesLastFrame() -> Bool {
        var last = [Float](repeating: 0, count: channels)
        guard library.seek(file, Int64(frameCount - 1), 0 /* SEEK_SET */) == Int64(frameCount - 1),
            last.withUnsafeMutableBufferPointer({ library.readFloat(file, $0.baseAddress!, 1) }) == 1
        else { return false }
        return library.seek(file, 0, 0 /* SEEK_SET */) == 0
    }

    deinit {
        _ = library.close(file)
        memory.deallocate()
    }

    /// Reads up to `wanted` frames of `format` into `destination`; returns how many it read (0 at
    /// the end). Lossy encodings decode to float and become 16-bit by ``PCMConversion``'s rule
    /// (libsndfile's own 16-bit Vorbis and Opus output wraps around instead of clipping);
    /// lossless ones read 16-bit straight from libsndfile.
    func read(_ wanted: Int, as format: AudioSampleFormat, into destination: UnsafeMutableRawPointer) throws(AudioDecodeError) -> Int {
        let frames = min(wanted, frameCount - position)
        guard frames > 0 else { return 0 }
        let read: Int
        switch format {
        case .float32:
            read = Int(library.readFloat(file, destination.assumingMemoryBound(to: Float.self), Int64(frames)))
        case .int16 where encoding.isLossless:
            read = Int(library.readShort(file, destination.assumingMemoryBound(to: Int16.self), Int64(frames)))
        case .int16:
            let samples = frames * channels
            if scratch.count < samples { scratch = [Float](repeating: 0, count: samples) }
            read = scratch.withUnsafeMutableBufferPointer { buffer in
                let read = Int(library.readFloat(file, buffer.baseAddress!, Int64(frames)))
                PCMConversion.floatToInt16(buffer.baseAddress!, count: max(read, 0) * channels, destination.assumingMemoryBound(to: Int16.self))
                return read
            }
        }
        if read <= 0 {
            let code = library.error(file)
            if code != 0 {
                // A decoder that fails with every byte of the file consumed ran out of data.
                if memory.pointee.position >= memory.pointee.count {
                    throw .truncated("the file ends inside the \(encoding) data (libsndfile: \(library.message(file)))")
                }
                throw .corrupt("\(encoding) decoder: \(library.message(file))")
            }
            return 0
        }
        position += read
        return read
    }

    /// Moves to frame `frame`; false when libsndfile cannot.
    func seek(toFrame frame: Int) -> Bool {
        guard library.seek(file, Int64(frame), 0 /* SEEK_SET */) == Int64(frame) else { return false }
        position = frame
        return true
    }
}

extension AudioDecodeError {
    /// A WAV of codec `tag`, which neither this plugin nor libsndfile decodes (`reason`:
    /// libsndfile's words, or that it is missing too).
    static func unsupportedCodec(_ tag: Int, reason: String) -> AudioDecodeError {
        .unsupported("\(WAVFile.codecName(tag)): a codec neither this plugin nor libsndfile decodes (libsndfile: \(reason))")
    }

    /// libsndfile's refusal to open a file, in its own words, in the category they suggest.
    static func openFailure(_ reason: String) -> AudioDecodeError {
        let lowered = reason.lowercased()
        if lowered.contains("format not recognised") || lowered.contains("unknown format") { return .notAudio("libsndfile: \(reason)") }
        if lowered.contains("truncat") || lowered.contains("short") || lowered.contains("end of file") {
            return .truncated("libsndfile: \(reason)")
        }
        if lowered.contains("not supported") || lowered.contains("unsupported") { return .unsupported("libsndfile: \(reason)") }
        return .corrupt("libsndfile: \(reason)")
    }
}
