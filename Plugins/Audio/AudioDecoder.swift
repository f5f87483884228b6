/// A third party's audio codec, which ``AudioLoader`` takes in its list as `ImageLoader` takes
/// an `ImageDecoder`: it claims files by extension and by content, and opens their bytes as
/// ``AudioFrames``. The loader does the rest for it: the length limit, a ``Sound`` decoded into
/// pooled memory or ``Music`` kept encoded (whose streams reopen the bytes with this decoder),
/// progress and cancellation.
///
/// ```swift
/// import Preload
/// import PreloadAudio
///
/// // A decoder for a format of your own (its frames are what `open` returns).
/// struct SilenceDecoder: AudioDecoder {
///     var encoding: AudioEncoding { AudioEncoding(rawValue: "silence") }
///     var fileExtensions: Set<String> { ["silence"] }
///     func matches(_ header: UnsafeRawBufferPointer) -> Bool { header.starts(with: "SILENCE".utf8) }
///     func open(_ bytes: UnsafeRawBufferPointer, sampleFormat: AudioSampleFormat) throws -> any AudioFrames {
///         throw AudioDecodeError.unsupported("an example that opens nothing")
///     }
/// }
/// let coordinator = try PreloadCoordinator(plugins: [AudioLoader(decoders: [SilenceDecoder()])])
/// ```
public protocol AudioDecoder: Sendable {
    /// The encoding it decodes, as its frames report it.
    var encoding: AudioEncoding { get }
    /// File extensions it claims, lowercase, without the dot.
    var fileExtensions: Set<String> { get }
    /// Whether `bytes`, the start of a file (at least 12 bytes when the file has them; the whole
    /// file when opening), are this decoder's format. Asked before the plugin's own encodings.
    func matches(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Opens `bytes` (valid while the frames live) to be read as `sampleFormat`, or throws why
    /// not (an ``AudioDecodeError``, which names the cause).
    func open(_ bytes: UnsafeRawBufferPointer, sampleFormat: AudioSampleFormat) throws -> any AudioFrames
}
