import Preload

/// Why an audio file did not load.
public enum AudioDecodeError: AssetFailure, Equatable {
    /// The file has no bytes at all.
    case emptyFile
    /// The content is none of the encodings the plugin reads (``AudioEncoding``).
    case notAudio(String)
    /// The file ends before its audio does.
    case truncated(String)
    /// The data is damaged: a chunk that contradicts another, a decoder that gave up.
    case corrupt(String)
    /// A valid file the plugin does not decode (a WAV of ADPCM samples, more than 64 channels).
    case unsupported(String)
    /// The file plays longer than ``AudioSettings/longestDuration`` allows.
    case tooLong(seconds: Double, limit: Double)

    public var category: AssetError.Category {
        switch self {
        case .emptyFile, .truncated: .truncated
        case .notAudio, .corrupt: .corrupt
        case .unsupported: .unsupported
        case .tooLong: .limitExceeded
        }
    }

    public var description: String {
        switch self {
        case .emptyFile: "empty file, not audio"
        case .notAudio(let detail): "not an audio file this plugin reads: \(detail)"
        case .truncated(let detail): "truncated audio: \(detail)"
        case .corrupt(let detail): "corrupt audio: \(detail)"
        case .unsupported(let detail): "unsupported audio: \(detail)"
        case .tooLong(let seconds, let limit):
            "audio too long: it plays for \(Self.format(seconds)) s, more than the limit of \(Self.format(limit)) s "
                + "(AudioSettings.longestDuration)"
        }
    }

    private static func format(_ seconds: Double) -> String {
        "\((seconds * 10).rounded() / 10)"
    }
}
