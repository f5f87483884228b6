import Preload

/// Audio kept encoded and decoded while it plays: what libGDX calls `Music` and SDL_mixer
/// `Mix_Music`. A five-minute track stays its encoded size in memory (about 5 MB of Ogg rather
/// than 50 MB of PCM); each ``makeStream(sampleFormat:)`` gives an independent decoder that
/// reads, seeks and loops.
///
/// ```swift
/// import PreloadAudio
///
/// func startTheme(_ music: Music) throws {
///     let stream = try music.makeStream()
///     stream.isLooping = true
///     var block = [UInt8](repeating: 0, count: 4096 * stream.format.bytesPerFrame)
///     let frames = try block.withUnsafeMutableBytes { try stream.read(into: $0) }
///     print("\(frames) frames of \(stream.format) for the mixer")
/// }
/// ```
public struct Music: Asset {
    /// The file's bytes, as loaded.
    public let encoded: AssetBytes
    /// What the bytes are.
    public let encoding: AudioEncoding
    /// The rate and channels a stream gives, in the sample type the request asked for.
    public let format: AudioFormat
    /// How many frames the track plays, as the file says.
    public let frameCount: Int
    /// The third party's codecs its streams open the bytes with (empty for the plugin's own
    /// encodings).
    public let decoders: [any AudioDecoder]

    /// Music in `encoded` bytes of `encoding`, `frameCount` frames of `format` once decoded.
    /// ``makeStream(sampleFormat:)`` checks the bytes again (with `decoders`, for a third
    /// party's encoding); this initializer does not.
    public init(encoded: AssetBytes, encoding: AudioEncoding, format: AudioFormat, frameCount: Int, decoders: [any AudioDecoder] = []) {
        self.decoders = decoders
        self.encoded = encoded
        self.encoding = encoding
        self.format = format
        self.frameCount = frameCount
    }

    /// How long it plays, in seconds.
    public var duration: Double { format.seconds(ofFrames: frameCount) }

    /// A new decoder at the start of the track, giving `sampleFormat` samples (the format the
    /// request asked for unless said otherwise). Streams are independent: two can play the same
    /// music at different places.
    /// - Throws: `MissingSystemLibrary` when the encoding needs a library this machine
    ///   lacks; ``AudioDecodeError`` when the bytes do not open.
    public func makeStream(sampleFormat: AudioSampleFormat? = nil) throws -> MusicStream {
        try MusicStream(encoded, sampleFormat: sampleFormat ?? format.sampleFormat, decoders: decoders)
    }

    /// Every frame as PCM, decoded through a new stream: what `preload export` writes and
    /// `preload --checksum` hashes. It costs the whole PCM in memory: for tools, not for playing.
    public func decodeAll(sampleFormat: AudioSampleFormat? = nil) throws -> [UInt8] {
        let stream = try makeStream(sampleFormat: sampleFormat)
        var pcm: [UInt8] = []
        pcm.reserveCapacity(frameCount * stream.format.bytesPerFrame)
        while true {
            let block = try stream.read(frames: 65536)
            if block.isEmpty { return pcm }
            pcm += block
        }
    }

    public var kind: AssetKind { .music }
    public var byteCount: Int { encoded.count }
}
