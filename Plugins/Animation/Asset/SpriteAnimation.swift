import Preload
import PreloadAtlas

extension AssetKind {
    /// Frames, their durations and tags (``SpriteAnimation``).
    public static let animation: AssetKind = "animation"
}

/// An animated sprite: its frames, how long each shows, and the tags that name runs of them,
/// loaded from an Aseprite file (`.aseprite`, `.ase`) by ``AsepriteLoader``, from Aseprite's
/// sheet export by ``AsepriteSheetLoader``, from an animated PNG by ``APNGLoader``, from an
/// animated WebP by ``AnimatedWebPLoader`` or from a GIF by ``GIFLoader``.
///
/// Each frame is the canvas composited as its format composites it, trimmed to its pixels
/// with alpha and packed with the others onto RGBA8 ``pages`` (PreloadAtlas's packer): a frame is
/// a region of a page and where it goes on the canvas. ``frameIndex(at:tag:)`` says which frame
/// to show.
///
/// ```swift
/// import Preload
/// import PreloadAnimation
///
/// func show(_ animation: SpriteAnimation, after time: Duration) -> (page: Texture, frame: SpriteAnimation.Frame)? {
///     animation.frameIndex(at: time, tag: "walk").map { (animation.pages[animation.frames[$0].page], animation.frames[$0]) }
/// }
/// ```
public struct SpriteAnimation: Asset, Sendable {
    /// One frame: where its pixels are on the pages, where they go on the canvas, and how long it
    /// shows.
    public struct Frame: Hashable, Sendable {
        /// The page holding the frame's pixels (an index into ``SpriteAnimation/pages``).
        public var page: Int
        /// The frame's pixels on its page: the bounds of its pixels with alpha, trimmed of the
        /// transparent rest (empty for a frame with nothing to show).
        public var rect: PixelRect
        /// Where ``rect``'s pixels go on the canvas (the same size); the rest of the canvas is
        /// transparent.
        public var canvasRect: PixelRect
        /// How long the frame shows, in milliseconds.
        public var durationMilliseconds: Int

        /// A frame showing `rect` of page `page` at `canvasRect` for `durationMilliseconds`.
        public init(page: Int, rect: PixelRect, canvasRect: PixelRect, durationMilliseconds: Int) {
            self.page = page
            self.rect = rect
            self.canvasRect = canvasRect
            self.durationMilliseconds = durationMilliseconds
        }
    }

    /// The canvas's width in pixels (every frame's).
    public var width: Int
    /// The canvas's height in pixels (every frame's).
    public var height: Int
    /// The RGBA8 pages (straight alpha) the frames' pixels are packed on; frames that show the
    /// same pixels share one region. (Loaded from a pack baked with `--gpu` or `--premultiply`,
    /// they are in the format and alpha mode the pack holds them in.)
    public var pages: [Texture]
    /// The frames, in file order.
    public var frames: [Frame]
    /// The named runs of frames, in file order.
    public var tags: [AnimationTag]
    /// How many times the whole animation plays when no tag is asked for; 0 plays it forever
    /// (Aseprite files have no loop count: theirs is 0; an APNG's is its `acTL`'s `num_plays`; a
    /// GIF's NETSCAPE2.0 value `n` repeats it `n` times after the first play, `n + 1`, and a GIF
    /// without one plays once).
    public var loopCount: Int
    /// The named rectangles of the canvas (hit boxes, 9-slices, pivots), in file order.
    public var slices: [AnimationSlice]
    /// The sprite's own user data (Aseprite's Sprite Properties).
    public var userData: AnimationUserData
    /// The file ``pages`` were cut from and repacked, when it is not the animation's own (an
    /// Aseprite export's sheet): a bake records it as their source, so `preload bake check`
    /// sees the sheet change. `nil` otherwise.
    var pagesMadeFrom: String?

    /// An animation of `frames` on `pages`, on a `width` x `height` canvas.
    public init(
        width: Int, height: Int, pages: [Texture], frames: [Frame], tags: [AnimationTag] = [], loopCount: Int = 0,
        slices: [AnimationSlice] = [], userData: AnimationUserData = AnimationUserData()
    ) {
        self.width = width
        self.height = height
        self.pages = pages
        self.frames = frames
        self.tags = tags
        self.loopCount = loopCount
        self.slices = slices
        self.userData = userData
    }

    /// Frame `index` drawn on the whole canvas: `width * height` RGBA8 pixels, straight alpha,
    /// transparent black outside the frame's ``Frame/canvasRect``. Empty when the frame's page
    /// is not RGBA8 (a pack baked with `preload bake --gpu` keeps its pages GPU-ready) or the
    /// frame does not lie inside its page and the canvas.
    public func canvasPixels(ofFrame index: Int) -> [UInt8] {
        let frame = frames[index]
        guard pages.indices.contains(frame.page), pages[frame.page].pixelFormat == .rgba8,
            frame.rect.isInside(width: pages[frame.page].width, height: pages[frame.page].height),
            frame.canvasRect.width == frame.rect.width, frame.canvasRect.height == frame.rect.height,
            frame.canvasRect.isInside(width: width, height: height)
        else { return [] }
        let page = pages[frame.page]
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        page.pixels.withUnsafeBufferPointer { source in
            for row in 0..<frame.rect.height {
                let from = ((frame.rect.y + row) * page.width + frame.rect.x) * 4
                let to = ((frame.canvasRect.y + row) * width + frame.canvasRect.x) * 4
                for offset in 0..<frame.rect.width * 4 { canvas[to + offset] = source[from + offset] }
            }
        }
        return canvas
    }

    /// `AssetKind.animation`.
    public var kind: AssetKind { .animation }
    /// The frames' pixel bytes.
    public var byteCount: Int { pages.reduce(0) { $0 + $1.byteCount } }

    /// The first tag named `name`, if there is one.
    public func tag(named name: String) -> AnimationTag? { tags.first { $0.name == name } }

    /// The first slice named `name`, if there is one; ``AnimationSlice/key(atFrame:)`` gives
    /// its rectangle at a frame.
    public func slice(named name: String) -> AnimationSlice? { slices.first { $0.name == name } }

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
        // A time past what milliseconds hold in 64 bits is as long as they hold (it wrapped once).
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        let (sum, sumOverflow) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        let milliseconds = overflow || sumOverflow ? (seconds < 0 ? 0 : Int64.max) : max(0, sum)
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
