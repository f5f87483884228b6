import Preload

/// The Aseprite loader plugin: `.aseprite` and `.ase` files, read from Aseprite's public file
/// specification, into ``SpriteAnimation``s: every frame composited as Aseprite's export does,
/// with its duration, and the file's tags, slices and user data (the sprite's, each tag's and
/// each slice's; a layer's or cel's is named in a warning, an animation has no layers).
///
/// Frames composite as Aseprite's sprite sheet export composites them. RGBA, grayscale and
/// indexed sprites (with their palettes and transparent index) load; layers show by their
/// visibility (and their groups'), with their opacity and the cels' opacity, in every blend
/// mode (normal, the separable modes, hue, saturation, color and luminosity); raw, compressed
/// and linked cels, cel z-indexes, the background layer; tilemap layers drawn from their
/// tilesets' tiles with their flips. As the export does, a group's own opacity and blend mode
/// are not applied (a warning names the group when the file says Aseprite's editor composes
/// them), and an indexed sprite with one palette composites by index (each layer's opaque
/// indexes replace what is under them; opacity and blend modes do not apply). Tiles in an
/// external file fail the file by name. Damage fails by name: a chunk past its frame, a frame
/// count that lies, a cel on a missing layer or linked to a missing cel, compressed pixels or
/// tiles that inflate to more or fewer bytes than stated, a tile outside its tileset.
///
/// ```swift
/// import Preload
/// import PreloadAnimation
///
/// let coordinator = try PreloadCoordinator(plugins: [AsepriteLoader()])
/// ```
public struct AsepriteLoader: AnimationFileLoader {
    /// The most pixel memory one file may take, cels and frames together
    /// (`ImageLimits.maxDecodedBytes`); a file claiming more is refused before allocating it.
    public var limits: ImageLimits

    /// An Aseprite loader refusing files whose pixels would pass `limits`.
    public init(limits: ImageLimits = ImageLimits()) {
        self.limits = limits
    }

    public var identifier: String { "aseprite" }
    /// `.aseprite` and `.ase`.
    public var fileExtensions: Set<String> { ["aseprite", "ase"] }
    public var headerLength: Int { 6 }

    /// The header's `0xA5E0` magic number at byte 4.
    public func matchesSignature(_ header: [UInt8]) -> Bool { AsepriteReader.matches(header) }

    /// The animation in an Aseprite file's `bytes` (`AnimationFileLoader`'s requirement), `cancel` called between frames.
    static func animation(
        in file: AssetBytes, limits: ImageLimits, memory: AssetMemory, cancel: () throws -> Void
    ) throws -> (animation: SpriteAnimation, warnings: [AssetWarning]) {
        let bytes = file.array
        var (document, warnings) = try AsepriteReader.read(bytes, byteBudget: limits.maxDecodedBytes)
        guard document.width <= limits.maxWidth, document.height <= limits.maxHeight else {
            throw AsepriteError.unsupported(detail: "the canvas is \(document.width)x\(document.height), larger than the limit \(limits)")
        }
        let compositor = try AsepriteCompositor(document)
        let groups = compositor.groupsComposedInTheEditor
        if !groups.isEmpty {
            warnings.append(
                AssetWarning(
                    .asepriteGroupBlending,
                    "group \(groups.joined(separator: ", ")): its own opacity or blend mode shows in Aseprite's editor when it composes groups, not in Aseprite's export; composited as the export"
                ))
        }
        warnings += Self.unreadDataWarnings(document)
        // Frames that show the same cels (linked cels) are one image: composited once.
        let sameAs = document.linkedCels > 0 ? AsepriteFrameKeys.firstEqualFrames(document) : Array(document.frames.indices)
        // One canvas for every frame: each frame keeps only its trimmed pixels until packing.
        var canvas = [UInt8](repeating: 0, count: document.width * document.height * 4)
        var trims = [FramePacking.Trim]()
        trims.reserveCapacity(document.frames.count)
        for index in document.frames.indices {
            try cancel()
            trims.append(sameAs[index] == index ? try compositor.trim(index, on: &canvas) : trims[sameAs[index]])
        }
        canvas = []
        let durations = document.frames.map { $0.durationMilliseconds }
        document.frames = []
        let (pages, frames) = try FramePacking.pack(trims, durations: durations, width: document.width, height: document.height, memory: memory)
        let animation = SpriteAnimation(
            width: document.width, height: document.height, pages: pages, frames: frames, tags: document.tags, slices: document.slices,
            userData: document.userData)
        return (animation, warnings)
    }

    /// The animation in an Aseprite file's `bytes`, its pages in `memory`, and the warnings
    /// reading it gave.
    /// - Throws: ``AsepriteError`` or `TruncatedBytes` naming the cause.
    public static func animation(
        from bytes: [UInt8], limits: ImageLimits = ImageLimits(), memory: AssetMemory = .shared
    ) throws -> (animation: SpriteAnimation, warnings: [AssetWarning]) {
        try animation(in: AssetBytes(bytes), limits: limits, memory: memory, cancel: {})
    }

    /// What `document`'s reading passed over: chunks not read yet (tilesets), layers' and cels'
    /// user data (an animation has no layers), properties this reader cannot read.
    private static func unreadDataWarnings(_ document: AsepriteDocument) -> [AssetWarning] {
        var warnings = [AssetWarning]()
        if !document.unread.isEmpty {
            let counts = document.unread.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key) chunk\($0.value == 1 ? "" : "s")" }
            warnings.append(AssetWarning(.asepriteUnreadData, "not read yet: " + counts.joined(separator: ", ")))
        }
        let notKept = document.userDataNotKept
        if !notKept.isEmpty {
            let named = notKept.prefix(5).joined(separator: ", ") + (notKept.count > 5 ? " and \(notKept.count - 5) more" : "")
            warnings.append(AssetWarning(.asepriteUnreadData, "user data not kept (an animation has no layers): " + named))
        }
        for reason in document.propertiesNotRead {
            warnings.append(AssetWarning(.asepriteUnreadData, "user data properties passed over: " + reason))
        }
        return warnings
    }
}
