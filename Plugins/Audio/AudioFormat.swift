import Preload

extension AssetKind {
    /// Audio decoded up front into PCM (``Sound``): effects, short jingles.
    public static let sound: AssetKind = "sound"
    /// Audio kept encoded and decoded while it plays (``Music``): tracks, ambience.
    public static let music: AssetKind = "music"
}

/// How decoded samples are stored: interleaved (left, right, left, ...), in the machine's byte
/// order.
public enum AudioSampleFormat: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Signed 16-bit integers, what most mixers take (SDL's `AUDIO_S16SYS`).
    case int16
    /// 32-bit floats, nominally from -1 to 1 (SDL's `AUDIO_F32SYS`, every engine's mixing format).
    case float32

    /// The size of one sample of one channel.
    public var bytesPerSample: Int {
        switch self {
        case .int16: 2
        case .float32: 4
        }
    }

    public var description: String { rawValue }
}

/// The encoding of an audio file, as its content (not its name) says: one the plugin decodes
/// itself (``allCases``), or a third party's ``AudioDecoder``'s (`AudioEncoding(rawValue: "raw")`).
public struct AudioEncoding: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The encoding's short name ("wav"), what `--json` and reports show.
    public let rawValue: String

    /// The encoding named `rawValue`: a third party's decoder names its own.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// RIFF/WAVE with PCM (8, 16, 24 or 32-bit) or float samples, read by this plugin itself, or
    /// of another codec (Microsoft or IMA ADPCM, A-law, µ-law), decoded by libsndfile.
    public static let wav = AudioEncoding(rawValue: "wav")
    /// Ogg Vorbis (libvorbisfile).
    public static let vorbis = AudioEncoding(rawValue: "vorbis")
    /// FLAC, lossless (libsndfile).
    public static let flac = AudioEncoding(rawValue: "flac")
    /// MPEG-1/2 Layer III (libmpg123).
    public static let mp3 = AudioEncoding(rawValue: "mp3")
    /// Ogg Opus (libsndfile, which uses libopus), always 48 kHz.
    public static let opus = AudioEncoding(rawValue: "opus")

    /// The encodings the plugin decodes itself, without a third party's ``AudioDecoder``.
    public static let allCases: [AudioEncoding] = [.wav, .vorbis, .flac, .mp3, .opus]

    /// Whether decoding gives back exactly the samples that were encoded (known for the
    /// plugin's own encodings; `false` for a third party's).
    public var isLossless: Bool { self == .wav || self == .flac }

    public var description: String { rawValue }
}

/// What a frame of decoded audio is: its rate, its channels and the type of each sample.
public struct AudioFormat: Hashable, Sendable, CustomStringConvertible {
    /// Frames per second (44100, 48000, ...).
    public var sampleRate: Int
    /// Samples per frame (1 mono, 2 stereo, ...).
    public var channels: Int
    /// The type of each sample.
    public var sampleFormat: AudioSampleFormat

    /// A format of `channels` channels of `sampleFormat` samples at `sampleRate` frames a second.
    public init(sampleRate: Int, channels: Int, sampleFormat: AudioSampleFormat) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleFormat = sampleFormat
    }

    /// The size of one frame: one sample of each channel.
    public var bytesPerFrame: Int { channels * sampleFormat.bytesPerSample }

    /// How long `frames` frames play, in seconds.
    public func seconds(ofFrames frames: Int) -> Double { Double(frames) / Double(sampleRate) }

    public var description: String {
        "\(sampleRate) Hz, \(channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels"), \(sampleFormat)"
    }
}
