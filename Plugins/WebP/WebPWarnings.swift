import Preload

extension AssetWarning.Code {
    /// The WebP is an animation of more than one frame; its first frame loaded, composited onto
    /// a transparent canvas of the animation's size.
    public static let webpAnimatedFirstFrame: AssetWarning.Code = "webp.animated-first-frame"
    /// Bytes follow the end of the RIFF chunk; they were ignored (libwebp and browsers ignore them too).
    public static let webpTrailingData: AssetWarning.Code = "webp.trailing-data"
}
