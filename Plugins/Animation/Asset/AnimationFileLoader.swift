import Preload

/// The one shape of the plugins that read an animation from one file (``AsepriteLoader``,
/// ``APNGLoader``, ``GIFLoader``, ``AnimatedWebPLoader``): the file's bytes in, one
/// ``SpriteAnimation`` and the warnings reading it gave out, under the plugin's ``limits``.
/// Each reads baked animations back (``SpriteAnimation`` is among its baked types), so a game
/// registering any one of them loads every animation a pack holds, whatever file it was baked
/// from.
protocol AnimationFileLoader: BakingPlugin {
    /// The largest canvas, and the most pixel memory the file may take.
    var limits: ImageLimits { get }

    /// The animation in a file's `bytes`, its pages in `memory`, and the warnings reading it
    /// gave; `cancel` is called between frames and throws when the load is cancelled.
    static func animation(
        in bytes: AssetBytes, limits: ImageLimits, memory: AssetMemory, cancel: () throws -> Void
    ) throws -> (animation: SpriteAnimation, warnings: [AssetWarning])
}

extension AnimationFileLoader {
    /// ``Preload/AssetKind/animation``.
    public var assetKind: AssetKind { .animation }

    /// ``SpriteAnimation``: baked animations are read back whatever file they were baked from.
    public var bakedAssetTypes: [any BakeableAsset.Type] { [SpriteAnimation.self] }

    /// The file's animation, its warnings given to `context`; cancellation checked between frames.
    public func load(_ context: LoadContext) throws -> any Asset {
        let (animation, warnings) = try Self.animation(
            in: try context.readContents(), limits: limits, memory: context.memory, cancel: context.checkCancellation)
        try context.warn(warnings)
        return animation
    }
}
