import PreloadConcurrency

/// The asset types a batch's plugins bake, by kind name: what the baked-pack loader reads an
/// entry with (``LoadContext/bakedAssetType(ofKind:)``). Core's own ``Texture`` and
/// ``DataAsset`` are always there; each ``BakingPlugin`` adds its ``BakingPlugin/bakedAssetTypes``.
/// A name two types claim stays with the first registered.
///
/// The plugins are asked for their types the first time a kind that is not core's is looked up
/// (or ``names`` is read), once for every copy of the table: telling a ``BakingPlugin`` from
/// another plugin is a dynamic cast, whose first answer for a type scans every protocol
/// conformance in the process (~256,000 instructions a plugin in the `preload` command: 3.6 M
/// of its 45 M at start for its 14 plugins). A pack of textures and data never needs them.
public struct BakedKinds: Sendable {
    /// Core's kinds, known without asking any plugin.
    private var types: [String: Reader] = [:]
    /// The plugins' kinds, with core's, made on first need.
    private let pluginKinds: PluginKinds?

    /// One type's entry in the table (a metatype, which is `Sendable` as its type is).
    private struct Reader: @unchecked Sendable {
        let type: any BakeableAsset.Type
    }

    /// Core's kinds alone.
    public init() {
        self.init(pluginKinds: nil)
    }

    /// The kinds of core and of `plugins`' ``BakingPlugin``s, in order.
    public init(plugins: [any LoaderPlugin]) {
        self.init(pluginKinds: plugins.isEmpty ? nil : PluginKinds(plugins))
    }

    private init(pluginKinds: PluginKinds?) {
        self.pluginKinds = pluginKinds
        Self.add(Texture.self, to: &types)
        Self.add(DataAsset.self, to: &types)
    }

    /// The type that reads entries of the kind `name`, if any.
    public func type(ofKind name: String) -> (any BakeableAsset.Type)? {
        if let reader = types[name] { return reader.type }
        return pluginKinds?.all(core: types)[name]?.type
    }

    /// Every kind name known, sorted.
    public var names: [String] { (pluginKinds?.all(core: types) ?? types).keys.sorted() }

    private static func add(_ type: any BakeableAsset.Type, to types: inout [String: Reader]) {
        for name in [type.bakedKind] + type.otherBakedKinds where types[name] == nil {
            types[name] = Reader(type: type)
        }
    }

    /// The registry's plugins and, once asked, the table of core's kinds and theirs, shared by
    /// every copy of the ``BakedKinds`` made with them.
    private final class PluginKinds: Sendable {
        private let plugins: [any LoaderPlugin]
        private let table = Locked<[String: Reader]?>(nil)

        init(_ plugins: [any LoaderPlugin]) {
            self.plugins = plugins
        }

        /// `core` and every ``BakingPlugin``'s types after it, in registration order.
        func all(core: [String: Reader]) -> [String: Reader] {
            table.withLock { table in
                if let table { return table }
                var all = core
                for plugin in plugins {
                    guard let baking = plugin as? any BakingPlugin else { continue }
                    for type in baking.bakedAssetTypes { BakedKinds.add(type, to: &all) }
                }
                table = all
                return all
            }
        }
    }
}
