import Preload
import PreloadWebP

/// The animated WebP loader plugin (`"animated-webp"`): an animated WebP's `ANMF` frames, each
/// composited as libwebp's animation decoder composites them (what Pillow and browsers show),
/// with its duration, and the `ANIM` chunk's loop count, into a ``SpriteAnimation``.
///
/// A `.webp` stays the WebP plugin's: it loads as a `Texture` (an animation's first frame, with a
/// warning) unless its request names this plugin: `AssetRequest(path:plugin: "animated-webp")`,
/// or a manifest entry's `"plugin": "animated-webp"`. A still WebP named so loads as an animation
/// of one frame.
///
/// Each frame is decoded as a still WebP by PreloadWebP's `WebPDecoder` (libwebp),
/// drawn at its offset, alpha-blended with libwebp's integer arithmetic or replacing what is
/// under it ("do not blend"), then left or cleared to transparent ("dispose to background"; the
/// `ANIM` background colour is not painted, as libwebp's decoder and browsers do not paint it).
/// Durations are the frames' milliseconds as written. Damage fails by name
/// (`WebPDecodeError`): a frame outside the canvas, a chunk cut short, a frame whose
/// data does not decode or is not the frame's size, an animation without frames.
///
/// ```swift
/// import Preload
/// import PreloadAnimation
/// import PreloadWebP
///
/// let coordinator = try PreloadCoordinator(plugins: [WebPLoader(), AnimatedWebPLoader()])
/// let request = AssetRequest(path: "sprites/coin.webp", name: "coin", plugin: "animated-webp")
/// ```
public struct AnimatedWebPLoader: AnimationFileLoader {
    /// The largest canvas, and the most pixel memory the frames' canvases may take together
    /// (`ImageLimits.maxDecodedBytes`); a file asking for more is refused before its frames decode.
    public var limits: ImageLimits

    /// An animated WebP loader refusing files whose frames would pass `limits`.
    public init(limits: ImageLimits = .webp) {
        self.limits = limits
    }

    public var identifier: String { "animated-webp" }
    /// None: a `.webp` is the WebP plugin's unless a request names this plugin.
    public var fileExtensions: Set<String> { [] }
    /// None: loaded only when named.
    public var headerLength: Int { 0 }

    /// The animation in a WebP file's `bytes` (`AnimationFileLoader`'s requirement), `cancel` called between frames.
    static func animation(
        in bytes: AssetBytes, limits: ImageLimits, memory: AssetMemory, cancel: () throws -> Void
    ) throws -> (animation: SpriteAnimation, warnings: [AssetWarning]) {
        let options = ImageLoaderSettings<WebPDecoder>(limits: limits)
        let (features, composited) = try bytes.withUnsafeBufferPointer { file in
            let features = try WebPDecoder.readHeader(file, options: options)
            try limits.check(ImageSize(width: features.width, height: features.height))
            guard features.isAnimated else { return (features, nil as (canvases: [[UInt8]], durations: [Int], loopCount: Int)?) }
            return (features, try AnimatedWebPFrames.composite(file, features: features, limits: limits, cancel: cancel))
        }
        var warnings = [AssetWarning]()
        if bytes.count > features.fileLength {
            warnings.append(
                AssetWarning(.webpTrailingData, "\(bytes.count - features.fileLength) bytes after the RIFF chunk's end were ignored"))
        }
        let (canvases, durations, loopCount) = try composited ?? ([WebPDecoder.decode(bytes, options: options).pixels.array], [0], 0)
        let (pages, frames) = try FramePacking.pack(
            canvases, durations: durations, width: features.width, height: features.height, memory: memory)
        return (SpriteAnimation(width: features.width, height: features.height, pages: pages, frames: frames, loopCount: loopCount), warnings)
    }

    /// The animation in a WebP file's `bytes`, its pages in `memory`, and the warnings reading it
    /// gave (bytes after the RIFF chunk: `webp.trailing-data`).
    /// - Throws: `WebPDecodeError` naming the cause, or `ImageLimitExceeded`.
    public static func animation(
        from bytes: [UInt8], limits: ImageLimits = .webp, memory: AssetMemory = .shared
    ) throws -> (animation: SpriteAnimation, warnings: [AssetWarning]) {
        try animation(in: AssetBytes(bytes), limits: limits, memory: memory, cancel: {})
    }
}
