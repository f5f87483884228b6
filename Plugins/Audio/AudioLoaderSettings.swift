import Preload

/// How the audio plugin loads a file: as a ``Sound`` or as ``Music``, in which sample format,
/// and within which limits. Set it on a request's options:
///
/// ```swift
/// import Preload
/// import PreloadAudio
///
/// var options = AssetOptions()
/// options[AudioLoaderSettings.self].kind = .music
/// options[AudioLoaderSettings.self].sampleFormat = .float32
/// let theme = AssetRequest(path: "music/theme.ogg", options: options)
/// ```
public struct AudioLoaderSettings: AssetOptionKey, Hashable, Sendable {
    /// What a request that sets nothing loads with (the loader's own defaults apply instead).
    public static let defaultValue = AudioLoaderSettings()

    /// Whether a file decodes up front or streams while it plays.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A file that plays for at most ``AudioLoaderSettings/longestSound`` loads as a sound, a longer
        /// one as music (libGDX's advice: `Sound` for effects under 10 seconds, `Music` for the rest).
        case automatic
        /// Decoded into PCM now (``Sound``), whatever its length.
        case sound
        /// Kept encoded, decoded while it plays (``Music``), whatever its length.
        case music
    }

    /// Sound, music, or chosen by duration (the default).
    public var kind: Kind = .automatic
    /// The type of the samples a sound holds and a music stream gives. 16-bit by default.
    public var sampleFormat: AudioSampleFormat = .int16
    /// Under ``Kind/automatic``, the longest file that still loads as a sound: 10 seconds.
    public var longestSound: Duration = .seconds(10)
    /// The longest audio the plugin takes, sound or music: a file that says it plays longer
    /// fails before anything is allocated (``AudioDecodeError/tooLong(seconds:limit:)``). One hour.
    public var longestDuration: Duration = .seconds(3600)

    /// Settings with every value at its default.
    public init() {}

    /// Settings that load as `kind`, with `sampleFormat` samples.
    public init(kind: Kind, sampleFormat: AudioSampleFormat = .int16) {
        self.kind = kind
        self.sampleFormat = sampleFormat
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}

/// The former name of ``AudioLoaderSettings``, before settings were named after their loader
/// (docs/architecture.md, "One naming rule").
@available(*, deprecated, renamed: "AudioLoaderSettings")
public typealias AudioSettings = AudioLoaderSettings
