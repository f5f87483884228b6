import Preload

extension AssetKind {
    /// Frames, their durations and tags (``SpriteAnimation``).
    public static let animation: AssetKind = "animation"
}

/// An animated sprite: its frames, how long each shows, and the tags that name runs of them,
/// loaded from an Aseprite file (`.aseprite`, `.ase`) by ``AsepriteLoader``.
///
/// Each frame is the whole canvas composited as Aseprite's export composites it, one RGBA8
/// `Texture` (straight alpha) per frame. ``frameIndex(at:tag:)`` says which frame to show.
///
/// ```swift
/// import Preload
/// import PreloadAnimation
///
/// func show(_ animation: SpriteAnimation, after time: Duration) -> Texture? {
///     animation.frameIndex(at: time, tag: "walk").map { animation.frames[$0].texture }
/// }
/// ```
public struct SpriteAnimation: Asset, Sendable {
    /// One frame: its image and how long it shows.
    public struct Frame: Sendable {
        /// The frame's pixels, the canvas's size.
        public var texture: Texture
        /// How long the frame shows, in milliseconds.
        public var durationMilliseconds: Int

        /// A frame showing `texture` for `durationMilliseconds`.
        public init(texture: Texture, durationMilliseconds: Int) {
            self.texture = texture
            self.durationMilliseconds = durationMilliseconds
        }
    }

    /// The canvas's width in pixels (every frame's).
    public var width: Int
    /// The canvas's height in pixels (every frame's).
    public var height: Int
    /// The frames, in file order.
    public var frames: [Frame]
    /// The named runs of frames, in file order.
    public var tags: [AnimationTag]
    /// How many times the whole animation plays when no tag is asked for; 0 plays it forever
    /// (Aseprite files have no loop count: theirs is 0).
    public var loopCount: Int

    /// An animation of `frames` on a `width` x `height` canvas.
    public init(width: Int, height: Int, frames: [Frame], tags: [AnimationTag] = [], loopCount: Int = 0) {
        self.width = width
        self.height = height
        self.frames = frames
        self.tags = tags
        self.loopCount = loopCount
    }

    /// `AssetKind.animation`.
    public var kind: AssetKind { .animation }
    /// The frames' pixel bytes.
    public var byteCount: Int { frames.reduce(0) { $0 + $1.texture.byteCount } }

    /// The first tag named `name`, if there is one.
    public func tag(named name: String) -> AnimationTag? { tags.first { $0.name == name } }

    /// The index of the frame to show `time` after the animation (or the tag's run) started:
    /// each frame shows for its duration, a tag plays its run in its direction
    /// ``AnimationTag/repeatCount`` times (forever when 0), the whole animation
    /// ``loopCount`` times; after the last play the last frame shown stays. A negative time
    /// shows the first frame.
    /// - Returns: `nil` when there are no frames, or no tag is named `tag`, or the tag's frames
    ///   are not in ``frames``.
    public func frameIndex(at time: Duration, tag: String? = nil) -> Int? {
        let order: (period: [Int], shown: Int?)
        if let tag {
            guard let found = self.tag(named: tag), found.from >= 0, found.from <= found.to, found.to < frames.count else { return nil }
            order = found.playOrder()
        } else {
            guard !frames.isEmpty else { return nil }
            order = (Array(frames.indices), loopCount == 0 ? nil : loopCount * frames.count)
        }
        let (seconds, attoseconds) = time.components
        let milliseconds = max(0, seconds.multipliedReportingOverflow(by: 1000).partialValue + attoseconds / 1_000_000_000_000_000)
        return frame(in: order.period, shown: order.shown, at: Int(clamping: milliseconds))
    }

    /// The frame `milliseconds` into `shown` frames of `period` repeated (forever when `nil`).
    private func frame(in period: [Int], shown: Int?, at milliseconds: Int) -> Int {
        let durations = period.map { max(0, frames[$0].durationMilliseconds) }
        let periodTotal = durations.reduce(0, +)
        guard periodTotal > 0 else { return period[0] }
        var time = milliseconds
        if let shown {
            let whole = shown / period.count, part = shown % period.count
            let total = whole * periodTotal + durations.prefix(part).reduce(0, +)
            if time >= total { return period[(shown - 1) % period.count] }
        }
        time %= periodTotal
        for (index, duration) in durations.enumerated() {
            if time < duration { return period[index] }
            time -= duration
        }
        return period[period.count - 1]
    }
}
