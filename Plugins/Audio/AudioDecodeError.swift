import Preload

/// Why an audio file did not load.
public enum AudioDecodeError: FormatDecodeFailure, Equatable {
    /// The file has no bytes at all.
    case emptyFile
    /// The content is none of the encodings the plugin reads (``AudioEncoding``).
    case notAudio(String)
    /// The file ends before its audio does.
    case truncated(String)
    /// The data is damaged: a chunk that contradicts another, a decoder that gave up.
    case corrupt(String)
    /// A valid file the plugin does not decode (a WAV of a codec libsndfile does not know, more
    /// than 64 channels).
    case unsupported(String)
    /// A WAV codec (the first value names it: "Microsoft ADPCM (WAV format 0x0002)") that decodes
    /// only through a library this machine lacks (libsndfile): the file is unsupported here until
    /// the package named is installed.
    case libraryMissing(codec: String, MissingSystemLibrary)
    /// The file plays longer than ``AudioLoaderSettings/longestDuration`` allows.
    case tooLong(seconds: Double, limit: Double)

    /// How audio names itself in its failures ("truncated audio: ...").
    public static let wording = DecodeFailureWording(format: "audio", oneOf: "audio", missingSignature: "")

    /// The error as one of the failures every decoder meets, which gives its category and words.
    public var failure: DecodeFailure {
        switch self {
        case .emptyFile: .emptyFile
        case .notAudio(let detail): .specific(.corrupt, "not an audio file this plugin reads: \(detail)")
        case .truncated(let detail): .truncated(detail)
        case .corrupt(let detail): .corrupt(detail)
        case .unsupported(let detail): .unsupported(detail)
        case .libraryMissing(let codec, let missing):
            .specific(.libraryMissing, "unsupported audio on this machine: \(codec) decodes through \(missing.library) only; this file \(missing)")
        case .tooLong(let seconds, let limit):
            .specific(
                .limitExceeded,
                "audio too long: it plays for \(Self.format(seconds)) s, more than the limit of \(Self.format(limit)) s "
                    + "(AudioLoaderSettings.longestDuration)")
        }
    }

    private static func format(_ seconds: Double) -> String {
        "\((seconds * 10).rounded() / 10)"
    }
}

extension AudioDecodeError {
    /// A decoder that gave no more frames after `done` of the `total` the file declares: a file
    /// cut inside its `encoding` data (what a sound's decode and a music stream both meet).
    static func endsEarly(_ encoding: AudioEncoding, after done: Int, of total: Int) -> AudioDecodeError {
        .truncated("the \(encoding) data ends after \(done) of the \(total) frames the file declares")
    }
}
