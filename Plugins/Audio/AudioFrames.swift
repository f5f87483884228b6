import CPreloadAudio
import Preload

/// Decoded audio read in order, a block of frames at a time, with seeking: what an
/// ``AudioDecoder`` opens. The plugin's own are a WAV's PCM samples (`WAVFrames`) and the files
/// libraries decode (libsndfile, libvorbisfile, libmpg123). A ``Sound`` reads one to the end
/// once; a ``MusicStream`` reads one as the game plays, from one thread at a time (it holds
/// its frames behind its lock), so an implementation needs no locking of its own.
public protocol AudioFrames: AnyObject {
    /// What the file is encoded as.
    var encoding: AudioEncoding { get }
    /// Frames per second.
    var sampleRate: Int { get }
    /// Samples per frame.
    var channels: Int { get }
    /// The frames the file says it holds.
    var frameCount: Int { get }
    /// Reads up to `frames` frames of `format`, interleaved, into `destination` (room for
    /// `frames` of them); how many it read, 0 at the end. A file cut short ends early: the
    /// loader fails it as ``AudioDecodeError/truncated(_:)``.
    func read(_ frames: Int, as format: AudioSampleFormat, into destination: UnsafeMutableRawPointer) throws(AudioDecodeError) -> Int
    /// Moves to frame `frame`; false when the decoder cannot.
    func seek(toFrame frame: Int) -> Bool
}

extension SndfileDecoder: AudioFrames {}

/// A WAV file's PCM or float samples, converted as they are read (``PCMConversion``).
final class WAVFrames: AudioFrames {
    let layout: WAVFile
    private let file: UnsafeRawBufferPointer
    private let sampleEncoding: WAVFile.SampleEncoding
    private var position = 0

    /// The samples of `file` (laid out as `layout`, stored as `encoding`), which must stay valid
    /// while this lives.
    init(_ file: UnsafeRawBufferPointer, layout: WAVFile, encoding: WAVFile.SampleEncoding) {
        self.file = file
        self.layout = layout
        self.sampleEncoding = encoding
    }

    var encoding: AudioEncoding { .wav }
    var sampleRate: Int { layout.sampleRate }
    var channels: Int { layout.channels }
    var frameCount: Int { layout.frameCount }

    func read(_ frames: Int, as format: AudioSampleFormat, into destination: UnsafeMutableRawPointer) throws(AudioDecodeError) -> Int {
        let count = min(frames, layout.frameCount - position)
        guard count > 0 else { return 0 }
        PCMConversion.convert(
            file.baseAddress! + layout.dataOffset + position * layout.channels * sampleEncoding.bytes, encoding: sampleEncoding,
            samples: count * layout.channels, to: format, destination: destination)
        position += count
        return count
    }

    func seek(toFrame frame: Int) -> Bool {
        guard frame >= 0, frame <= layout.frameCount else { return false }
        position = frame
        return true
    }
}

/// Opens the audio in `bytes` (valid while the result lives) to be read as `sampleFormat`, by
/// its content: WAV by this plugin (its PCM and float samples; other codecs by libsndfile), Ogg
/// Vorbis by libvorbisfile, MP3 by libmpg123, the rest (FLAC, Ogg Opus) by libsndfile, which
/// also names what the first bytes do not (an MP3 without an ID3 tag whose first frame comes
/// after junk). A file cut short fails here, as truncated, where its own structure says so (the
/// RIFF chunks, the Ogg pages, the MP3 frames, the FLAC metadata and last frame), before the
/// libraries take its whole pages or frames for the end. Returns the frames and what was
/// irregular about the file.
/// A third party's `decoders` are asked first, in order: the first whose
/// ``AudioDecoder/matches(_:)`` accepts the bytes opens them.
func openAudio(
    _ bytes: UnsafeRawBufferPointer, sampleFormat: AudioSampleFormat, decoders: [any AudioDecoder] = []
) throws(any Error) -> (frames: any AudioFrames, warnings: [AssetWarning]) {
    guard !bytes.isEmpty else { throw AudioDecodeError.emptyFile }
    if let decoder = decoders.first(where: { $0.matches(bytes) }) {
        return (try decoder.open(bytes, sampleFormat: sampleFormat), [])
    }
    if WAVFile.isRIFF(bytes) {
        let layout = try WAVFile(bytes)
        switch layout.samples {
        case .pcm(let encoding): return (WAVFrames(bytes, layout: layout, encoding: encoding), layout.warnings)
        case .codec(let tag): return (try SndfileDecoder(bytes, wavCodec: tag, wavFrames: layout.factFrameCount), layout.warnings)
        }
    }
    if FLACMetadataWalk.isFLAC(bytes) { try FLACMetadataWalk.check(bytes) }
    if isMP3(bytes) { try MP3FrameWalk.check(bytes) }
    guard OggPageWalk.isOgg(bytes) else { return (try openCompressed(bytes, sampleFormat: sampleFormat), []) }
    let pages = OggPageWalk(bytes)
    let warnings = try pages.check()
    do {
        return (try openCompressed(bytes, sampleFormat: sampleFormat), warnings)
    } catch let error as AudioDecodeError {
        throw pages.truncation(explaining: error) ?? error
    }
}

/// Opens an encoding a library decodes: Ogg Vorbis, MP3, or what libsndfile reads.
private func openCompressed(_ bytes: UnsafeRawBufferPointer, sampleFormat: AudioSampleFormat) throws(any Error) -> any AudioFrames {
    if isOggVorbis(bytes) { return try VorbisDecoder(bytes) }
    if isMP3(bytes) { return try Mpg123Decoder(bytes, output: sampleFormat) }
    let decoder = try SndfileDecoder(bytes)
    switch decoder.encoding {
    case .mp3: return try Mpg123Decoder(bytes, output: sampleFormat)
    case .vorbis: return try VorbisDecoder(bytes)
    default: return decoder
    }
}

/// Whether `bytes` start an Ogg stream whose first packet is a Vorbis identification header.
private func isOggVorbis(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count >= 35, bytes.starts(with: "OggS".utf8) else { return false }
    let segments = Int(bytes[26])
    let packet = 27 + segments
    guard segments > 0, bytes.count >= packet + 7 else { return false }
    return bytes[packet] == 1 && Array(bytes[packet + 1..<packet + 7]) == Array("vorbis".utf8)
}

/// Whether `bytes` start with an ID3v2 tag or an MPEG audio Layer III frame header.
private func isMP3(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count >= 4 else { return false }
    if bytes[0] == UInt8(ascii: "I") && bytes[1] == UInt8(ascii: "D") && bytes[2] == UInt8(ascii: "3") { return true }
    return MP3FrameHeader(bytes, at: 0) != nil
}

extension UnsafeMutablePointer where Pointee == PreloadAudioMemory {
    /// A reader at the start of `bytes`, for the libraries' I/O callbacks over memory
    /// (`CPreloadAudio`); `bytes` must outlive it, and its owner deallocates it.
    static func reading(_ bytes: UnsafeRawBufferPointer) -> Self {
        let memory = Self.allocate(capacity: 1)
        memory.initialize(
            to: PreloadAudioMemory(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: Int64(bytes.count), position: 0))
        return memory
    }
}
