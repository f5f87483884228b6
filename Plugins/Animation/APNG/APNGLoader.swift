import Preload

/// The APNG loader plugin: an animated PNG into a ``SpriteAnimation``, each frame composited on
/// the canvas as the APNG specification says, with its delay and the file's play count.
///
/// Debian's libpng reads no APNG chunks, so the plugin walks them itself: `acTL` (the frame count
/// and plays), `fcTL` (each frame's sequence number, size, offset, delay, dispose and blend
/// operations) and `fdAT` (its image data), checking their CRCs, their sequence numbers (from 0,
/// without a gap or a repeat, across `fcTL` and `fdAT`), every frame inside the canvas, the
/// default image's `fcTL` against IHDR. Each frame's image data decodes through the PNG plugin's
/// public decoder (`APNGFrameImage`); frames are drawn with the package's one compositor of
/// frames: dispose none, background and previous (previous on the first frame is background, as
/// the specification says), blend source and over (the PNG specification's integers).
///
/// The default image (`IDAT`) is the first frame when an `fcTL` comes before it; otherwise it is
/// not part of the animation and is not a frame. A frame shows `delay_num / delay_den` seconds (a
/// denominator of 0 is 100), rounded to the nearest millisecond; ``SpriteAnimation/loopCount``
/// is `acTL`'s `num_plays` (0 plays forever).
///
/// **Asking for it.** A `.png` stays a texture: the PNG plugin claims `.png` files and PNG
/// content, and shows the default image, as before. This plugin claims `.apng` files, and any
/// file a request names it for: `AssetRequest(path: "hero.png", plugin: "apng")`, or
/// `"plugin": "apng"` in a manifest entry.
///
/// A file without a valid `acTL` (none, a second one, one after the image data, a frame count of
/// 0) loads its default image as one frame, with an ``Preload/AssetWarning/Code/apngNotAnimated``
/// warning: what browsers and Pillow show. More frames than `acTL` promises load the promised
/// ones with an ``Preload/AssetWarning/Code/apngFrameCount`` warning, as Pillow plays them;
/// fewer fail. Damage fails by name (``APNGError``).
///
/// ```swift
/// import Preload
/// import PreloadAnimation
/// import PreloadPNG
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), APNGLoader()])
/// let request = AssetRequest(path: "hero.png", plugin: "apng")
/// ```
public struct APNGLoader: AnimationFileLoader {
    /// The largest canvas, and the most pixel memory the composited frames may take together
    /// (`ImageLimits.maxDecodedBytes`); a file claiming more is refused before decoding a frame.
    public var limits: ImageLimits

    /// An APNG loader refusing files whose frames would pass `limits`.
    public init(limits: ImageLimits = ImageLimits()) {
        self.limits = limits
    }

    public var identifier: String { "apng" }
    /// `.apng`; a `.png` is the PNG plugin's unless a request names this one.
    public var fileExtensions: Set<String> { ["apng"] }
    /// None: the plugin never claims a file by its content (PNG content is the PNG plugin's).
    public var headerLength: Int { 0 }

    /// Never: see ``headerLength``.
    public func matchesSignature(_ header: [UInt8]) -> Bool { false }

    /// The animation in an APNG's `bytes` (`AnimationFileLoader`'s requirement), `cancel` called between frames.
    static func animation(
        in file: AssetBytes, limits: ImageLimits, memory: AssetMemory, cancel: () throws -> Void
    ) throws -> (animation: SpriteAnimation, warnings: [AssetWarning]) {
        let bytes = file.array
        var (document, warnings) = try APNGReader.read(bytes)
        let (width, height) = (document.width, document.height)
        try limits.check(ImageSize(width: width, height: height))
        if let reason = document.notAnimated {
            warnings.append(AssetWarning(.apngNotAnimated, "not an animation: \(reason); its default image loaded as the one frame"))
            let control = APNGDocument.FrameControl(
                sequence: 0, width: width, height: height, x: 0, y: 0, delayNumerator: 0, delayDenominator: 0, dispose: 0, blend: 0)
            document.frames = [APNGDocument.Frame(control: control, data: document.defaultImage, isDefaultImage: true)]
        }
        let (canvasBytes, overflow) = (width * height * 4).multipliedReportingOverflow(by: document.frames.count)
        guard !overflow, canvasBytes <= limits.maxDecodedBytes else {
            throw APNGError.unsupported(
                detail: "\(document.frames.count) frames of \(width)x\(height) take the pixels past the \(limits.maxDecodedBytes)-byte limit")
        }
        var canvas = FrameCanvas(width: width, height: height)
        var canvases: [[UInt8]] = []
        canvases.reserveCapacity(document.frames.count)
        for (index, frame) in document.frames.enumerated() {
            try cancel()
            let (pixels, frameWarnings) = try APNGFrameImage.pixels(
                of: frame, index: index, in: document, file: bytes, limits: limits, memory: memory)
            warnings += frameWarnings
            let control = frame.control
            canvas.render(
                pixels, width: control.width, height: control.height, x: control.x, y: control.y,
                blend: control.blend == 0 ? .replace : .over, disposal: disposal(control.dispose)
            ) { canvases.append($0) }
        }
        let durations = document.notAnimated == nil ? document.frames.map(\.control.durationMilliseconds) : [0]
        let (pages, frames) = try FramePacking.pack(canvases, durations: durations, width: width, height: height, memory: memory)
        return (SpriteAnimation(width: width, height: height, pages: pages, frames: frames, loopCount: document.plays), warnings)
    }

    /// The animation in an APNG's `bytes`, its pages in `memory`, and the warnings reading it gave.
    /// - Throws: ``APNGError``, `TruncatedBytes` or `ImageLimitExceeded` naming the cause.
    public static func animation(
        from bytes: [UInt8], limits: ImageLimits = ImageLimits(), memory: AssetMemory = .shared
    ) throws -> (animation: SpriteAnimation, warnings: [AssetWarning]) {
        try animation(in: AssetBytes(bytes), limits: limits, memory: memory, cancel: {})
    }

    /// The compositor's disposal for `fcTL`'s `dispose_op` (0 none, 1 background, 2 previous).
    /// Previous on the first frame gives back the transparent black canvas the animation starts
    /// from: background, as the specification says.
    private static func disposal(_ operation: UInt8) -> FrameCanvas.Disposal {
        switch operation {
        case 0: .keep
        case 1: .clear
        default: .restorePrevious
        }
    }
}
