import PreloadConcurrency
import Synchronization

/// The assets a coordinator has loaded, by name and by path, until they are unloaded.
///
/// Safe to use from any thread. The tables are split into shards by name (and by path), each
/// behind its own lock, so that loads finishing on many cores at once do not queue for one lock.
///
/// ```swift
/// if let hero = coordinator.assets.texture(named: "hero") { upload(hero.pixels) }
/// coordinator.assets.unload(named: "hero")
/// ```
public final class AssetStore: Sendable {
    /// One stored asset and where it came from.
    public struct Entry: Sendable {
        /// The name it is stored under: the request's name (by default its path as written).
        public let name: String
        /// The file, as the request named it.
        public let path: String
        /// The plugin that loaded it.
        public let plugin: String
        /// The loaded asset.
        public let asset: any Asset
        /// Whether only plugins asked for it (an atlas's page, a pack's entry): it is found by
        /// name like any asset, but listed in ``AssetStore/dependencyNames``, not ``AssetStore/names``.
        public let isDependency: Bool
        /// What the engine returned when the asset was handed over on an ``AssetHandOff``
        /// (a GPU texture, ...); `nil` until then, or if it returned nothing.
        public let handle: (any Sendable)?

        /// An entry for `asset`.
        package init(
            name: String, path: String, plugin: String, asset: any Asset, isDependency: Bool = false, handle: (any Sendable)? = nil
        ) {
            self.name = name
            self.path = path
            self.plugin = plugin
            self.asset = asset
            self.isDependency = isDependency
            self.handle = handle
        }

        /// The same entry, a dependency only if both are.
        func merged(with other: Entry) -> Entry {
            Entry(name: name, path: path, plugin: plugin, asset: asset, isDependency: isDependency && other.isDependency, handle: handle)
        }
    }

    private struct Contents {
        var byName: [Key: Entry] = [:]
        var nameByPath: [Key: String] = [:]
        var byteCount = 0
    }

    /// A name (or normalized path) with its hash, computed once: the hash picks the shard and
    /// keys the shard's table, so storing an asset hashes its name's characters once.
    private struct Key: Hashable {
        let text: String
        let hash: Int

        init(_ text: String) {
            self.text = text
            hash = text.hashValue
        }

        var shard: Int { hash & (AssetStore.shardCount - 1) }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        static func == (lhs: Key, rhs: Key) -> Bool { lhs.hash == rhs.hash && lhs.text == rhs.text }
    }

    private final class Shard: Sendable {
        let contents = PreloadMutex(Contents())
    }

    /// A power of two: a name's shard is the low bits of its hash.
    private static let shardCount = 16
    private let shards: [Shard] = (0..<AssetStore.shardCount).map { _ in Shard() }

    /// An empty store. (A coordinator has its own, ``PreloadCoordinator/assets``.)
    public init() {}

    private func withShard<Result>(of key: Key, _ body: (inout Contents) -> Result) -> Result {
        shards[key.shard].contents.withLock { body(&$0) }
    }

    /// The asset stored under `name`.
    public func asset(named name: String) -> (any Asset)? {
        let key = Key(name)
        return withShard(of: key) { $0.byName[key]?.asset }
    }

    /// The asset stored under `name`, if it is a `T`.
    public func asset<T: Asset>(named name: String, as type: T.Type) -> T? {
        asset(named: name) as? T
    }

    /// The texture stored under `name`.
    public func texture(named name: String) -> Texture? {
        asset(named: name, as: Texture.self)
    }

    /// The asset most recently stored from `path` (compared after removing `.` and `..`
    /// components), or the one stored under the path itself as its name.
    public func asset(atPath path: String) -> (any Asset)? {
        let key = Key(AssetPath.normalized(path))
        let stored = withShard(of: key) { shard -> (name: String?, entry: Entry?) in
            if let name = shard.nameByPath[key] { return (name, nil) }
            return (nil, shard.byName[key])
        }
        if let name = stored.name { return asset(named: name) }
        guard let entry = stored.entry, AssetPath.normalized(entry.path) == key.text else { return nil }
        return entry.asset
    }

    /// The texture loaded from `path`.
    public func texture(atPath path: String) -> Texture? {
        asset(atPath: path) as? Texture
    }

    /// The entry stored under `name`, with its path and plugin.
    public func entry(named name: String) -> Entry? {
        let key = Key(name)
        return withShard(of: key) { $0.byName[key] }
    }

    /// The names the caller asked for (its requests, and the files of its folders), sorted.
    /// What plugins loaded on their behalf is in ``dependencyNames``.
    public var names: [String] {
        shards.flatMap { shard in shard.contents.withLock { $0.byName.values.filter { !$0.isDependency }.map(\.name) } }.sorted()
    }

    /// The names of what only plugins asked for, sorted: an atlas's pages and source sprites
    /// (`ui.atlas/button.png`), a pack's entries (`level1.pak#hud.png`, named after the pack's
    /// request). Each is found by ``asset(named:)`` like any other.
    public var dependencyNames: [String] {
        shards.flatMap { shard in shard.contents.withLock { $0.byName.values.filter(\.isDependency).map(\.name) } }.sorted()
    }

    /// How many assets are stored, dependencies included.
    public var count: Int { shards.reduce(0) { total, shard in total + shard.contents.withLock { $0.byName.count } } }

    /// The bytes all stored assets hold (an asset stored under two names counts twice).
    public var byteCount: Int { shards.reduce(0) { total, shard in total + shard.contents.withLock { $0.byteCount } } }

    /// Removes the asset stored under `name`. Its memory is freed once nobody else holds it.
    @discardableResult
    public func unload(named name: String) -> Bool {
        let named = Key(name)
        let removed = withShard(of: named) { shard -> Entry? in
            guard let entry = shard.byName.removeValue(forKey: named) else { return nil }
            shard.byteCount -= entry.asset.byteCount
            return entry
        }
        guard let removed else { return false }
        let key = Key(AssetPath.normalized(removed.path))
        withShard(of: key) { shard in
            if shard.nameByPath[key] == name { shard.nameByPath[key] = nil }
        }
        return true
    }

    /// Makes room for `count` more assets, so a large batch does not regrow the tables as it lands.
    package func reserveCapacity(adding count: Int) {
        let perShard = count / Self.shardCount + 1
        for shard in shards {
            shard.contents.withLock { $0.byName.reserveCapacity($0.byName.count + perShard) }
        }
    }

    /// The handle the engine returned for the asset named `name` when it was handed over (see
    /// ``AssetHandOff``), as a `T`; `nil` if there is none or it is not a `T`.
    public func handle<T>(named name: String, as type: T.Type = T.self) -> T? {
        entry(named: name)?.handle as? T
    }

    /// Records what the engine returned for the asset named `name`, still the one handed over
    /// (`asset`); a `replacement` (releasing the asset) takes its place.
    func handedOver(name: String, asset: any Asset, handle: (any Sendable)?, replacement: HandedOverAsset?) {
        let key = Key(name)
        withShard(of: key) { store in
            guard let old = store.byName[key], Self.isSame(old.asset, asset) else { return }
            let kept: any Asset = replacement ?? old.asset
            store.byteCount += kept.byteCount - old.asset.byteCount
            store.byName[key] = Entry(
                name: name, path: old.path, plugin: old.plugin, asset: kept, isDependency: old.isDependency, handle: handle)
        }
    }

    /// Whether `stored` is still `handed` (not replaced by a later load under the same name):
    /// for a texture, the same pixel memory.
    private static func isSame(_ stored: any Asset, _ handed: any Asset) -> Bool {
        guard let stored = stored as? Texture, let handed = handed as? Texture else { return type(of: stored) == type(of: handed) }
        return stored.pixels.withUnsafeBytes { a in handed.pixels.withUnsafeBytes { b in a.baseAddress == b.baseAddress && a.count == b.count } }
    }

    /// Removes everything.
    public func unloadAll() {
        for shard in shards { shard.contents.withLock { $0 = Contents() } }
    }

    /// Stores `asset` under `name`, replacing what was there.
    package func insert(_ asset: any Asset, name: String, path: String, plugin: String, isDependency: Bool = false) {
        insert([Entry(name: name, path: path, plugin: plugin, asset: asset, isDependency: isDependency)])
    }

    /// Stores each entry's asset under its name, replacing what was there, taking each shard's
    /// lock once (a finished load stores all its assets at once). Returns the longest any one
    /// shard's lock was held: with the shards working in parallel, that is what does not scale.
    @discardableResult
    func insert(_ entries: [Entry]) -> Duration {
        guard !entries.isEmpty else { return .zero }
        // Hashing and normalizing, outside the locks. The common case, a name that is its own
        // normalized path, needs no entry in the path index.
        // (Index loops: iterating the entries would copy each one.)
        var names: [Key] = []
        var paths: [Key?] = []
        names.reserveCapacity(entries.count)
        paths.reserveCapacity(entries.count)
        var used: UInt32 = 0
        for index in entries.indices {
            let name = entries[index].name, path = entries[index].path
            names.append(Key(name))
            used |= 1 << UInt32(names[index].shard)
            if path == name, AssetPath.isNormalized(path) {
                paths.append(nil)
            } else {
                let normalized = AssetPath.normalized(path)
                paths.append(normalized == name ? nil : Key(normalized))
            }
        }
        var held = Duration.zero
        var indexedByPath: [Int] = []
        for shard in 0..<Self.shardCount where used & (1 << UInt32(shard)) != 0 {
            shards[shard].contents.withLock { store in
                let acquired = ContinuousClock.now
                for index in entries.indices where names[index].shard == shard {
                    let name = names[index]
                    if let old = store.byName.updateValue(entries[index], forKey: name) {
                        store.byteCount -= old.asset.byteCount
                        // The same file under the same name as the caller's and as a dependency: the caller's.
                        if old.isDependency != entries[index].isDependency,
                            old.path == entries[index].path || AssetPath.normalized(old.path) == (paths[index]?.text ?? name.text)
                        {
                            store.byName[name] = entries[index].merged(with: old)
                        }
                    }
                    store.byteCount += entries[index].asset.byteCount
                    // ... a name indexed under it as a path before still needs replacing.
                    if paths[index] != nil || (!store.nameByPath.isEmpty && store.nameByPath[name] != nil) {
                        indexedByPath.append(index)
                    }
                }
                held += ContinuousClock.now - acquired
            }
        }
        for index in indexedByPath {  // ... others are found by path in the path's shard
            let path = paths[index] ?? names[index]
            withShard(of: path) { $0.nameByPath[path] = entries[index].name }
        }
        return held
    }

    /// How many shards the store's tables are split into.
    @_spi(Diagnostics) public static var shards: Int { shardCount }
}
