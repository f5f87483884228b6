import Preload

/// The GIF loader plugin: `.gif` files, still or animated, into ``SpriteAnimation``s, decoded by
/// giflib (`libgif.so.7`, opened at run time) and composited as browsers and the GIF89a
/// specification composite them.
///
/// Every frame is drawn over what the frames before it left: its transparent index (from its
/// Graphic Control Extension) shows what is under it; its disposal method leaves it in place (0,
/// 1), clears it to transparent (2: browsers and the specification; Pillow paints the
/// background colour instead) or restores what was there before it (3); local colour tables and
/// interlaced frames read as their descriptors say. A delay is in centiseconds: 2 or more is
/// shown for that long, 0 or 1 for 100 ms, as browsers show them. The NETSCAPE2.0 loop count
/// `n` repeats the animation `n` times after its first play (``SpriteAnimation/loopCount`` `n +
/// 1`); 0 repeats it forever (`loopCount` 0); without the extension it plays once (`loopCount`
/// 1). A still GIF is an animation of one frame.
///
/// ```swift
/// import Preload
/// import PreloadAnimation
///
/// let coordinator = try PreloadCoordinator(plugins: [GIFLoader()])
/// ```
///
/// Damage fails by name: a file cut inside a frame, LZW data giflib cannot decode, a logical
/// screen of no size, a screen or frame past ``limits``. A frame reaching past the logical screen
/// is clipped with the warning `gif.frame-outside-screen`.
public struct GIFLoader: AnimationFileLoader {
    /// The largest screen and frame, and the most pixel memory the composited frames may take
    /// together (`ImageLimits.maxDecodedBytes`); a file claiming more is refused before its
    /// memory is allocated.
    public var limits: ImageLimits

    /// A GIF loader refusing files whose pixels would pass `limits`.
    public init(limits: ImageLimits = ImageLimits()) {
        self.limits = limits
    }

    public var identifier: String { "gif" }
    /// `.gif`.
    public var fileExtensions: Set<String> { ["gif"] }
    public var headerLength: Int { 6 }

    /// `GIF87a` or `GIF89a`.
    public func matchesSignature(_ header: [UInt8]) -> Bool {
        header.count >= 6 && header[0..<4].elementsEqual("GIF8".utf8) && (header[4] == UInt8(ascii: "7") || header[4] == UInt8(ascii: "9"))
            && header[5] == UInt8(ascii: "a")
    }

    /// The animation in a GIF's `bytes` (`AnimationFileLoader`'s requirement), `cancel` called between frames.
    static func animation(
        in file: AssetBytes, limits: ImageLimits, memory: AssetMemory, cancel: () throws -> Void
    ) throws -> (animation: SpriteAnimation, warnings: [AssetWarning]) {
        var decoded = try file.withUnsafeBytes { try GIFDecoder.decode($0, limits: limits, cancel: cancel) }
        let trimmed = decoded.frames
        decoded.frames = []
        let (pages, frames) = try FramePacking.pack(
            trimmed, durations: decoded.durations, width: decoded.width, height: decoded.height, memory: memory)
        let animation = SpriteAnimation(width: decoded.width, height: decoded.height, pages: pages, frames: frames, loopCount: decoded.loopCount)
        return (animation, decoded.warnings)
    }

    /// The animation in a GIF's `bytes`, its pages in `memory`, and the warnings reading it gave.
    /// - Throws: ``GIFError`` naming the cause; `MissingSystemLibrary` naming giflib's package
    ///   on a machine without it.
    public static func animation(
        from bytes: [UInt8], limits: ImageLimits = ImageLimits(), memory: AssetMemory = .shared
    ) throws -> (animation: SpriteAnimation, warnings: [AssetWarning]) {
        try animation(in: AssetBytes(bytes), limits: limits, memory: memory, cancel: {})
    }
}
