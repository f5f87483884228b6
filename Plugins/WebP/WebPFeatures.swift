/// What libwebp reads from a WebP file's headers (`WebPGetFeatures`), and where its RIFF chunk
/// ends: what ``WebPDecoder`` decodes the file with.
public struct WebPFeatures: Hashable, Sendable {
    /// The image's width, or the animation canvas's.
    public let width: Int
    /// The image's height, or the animation canvas's.
    public let height: Int
    /// Whether the image has alpha (an animation's frames may, whatever this says).
    public let hasAlpha: Bool
    /// Whether the file is an animation (its first frame loads).
    public let isAnimated: Bool
    /// The file's length as its RIFF header declares it; bytes after it are ignored, with a warning.
    public let fileLength: Int
}
