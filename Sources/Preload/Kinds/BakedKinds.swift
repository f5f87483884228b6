/// The asset types a batch's plugins bake, by kind name: what the baked-pack loader reads an
/// entry with (``LoadContext/bakedAssetType(ofKind:)``). Core's own ``Texture`` and
/// ``DataAsset`` are always there; each ``BakingPlugin`` adds its ``BakingPlugin/bakedAssetTypes``.
/// A name two types claim stays with the first registered.
public struct BakedKinds: Sendable {
    private var types: [String: Reader] = [:]

    /// One type's entry in the table (a metatype, which is `Sendable` as its type is).
    private struct Reader: @unchecked Sendable {
        let type: any BakeableAsset.Type
    }

    /// Core's kinds alone.
    public init() {
        add(Texture.self)
        add(DataAsset.self)
    }

    /// The kinds of core and of `plugins`' ``BakingPlugin``s, in order.
    public init(plugins: [any LoaderPlugin]) {
        self.init()
        for plugin in plugins {
            guard let baking = plugin as? any BakingPlugin else { continue }
            for type in baking.bakedAssetTypes { add(type) }
        }
    }

    /// The type that reads entries of the kind `name`, if any.
    public func type(ofKind name: String) -> (any BakeableAsset.Type)? { types[name]?.type }

    /// Every kind name known, sorted.
    public var names: [String] { types.keys.sorted() }

    private mutating func add(_ type: any BakeableAsset.Type) {
        for name in [type.bakedKind] + type.otherBakedKinds where types[name] == nil {
            types[name] = Reader(type: type)
        }
    }
}
