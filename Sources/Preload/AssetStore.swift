import Synchronization

/// The assets a coordinator has loaded, by name and by path, until they are unloaded.
///
/// ```swift
/// if let hero = coordinator.assets.texture(named: "hero") { upload(hero.pixels) }
/// coordinator.assets.unload(named: "hero")
/// ```
public final class AssetStore: Sendable {
    /// One stored asset and where it came from.
    public struct Entry: Sendable {
        public let name: String
        /// The file, as the request named it.
        public let path: String
        /// The plugin that loaded it.
        public let plugin: String
        public let asset: any Asset
    }

    private struct Contents {
        var byName: [String: Entry] = [:]
        var nameByPath: [String: String] = [:]
        var byteCount = 0
    }

    private let contents = Mutex(Contents())

    public init() {}

    /// The asset stored under `name`.
    public func asset(named name: String) -> (any Asset)? {
        contents.withLock { $0.byName[name]?.asset }
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
        let key = AssetPath.normalized(path)
        return contents.withLock { store in
            if let name = store.nameByPath[key] { return store.byName[name]?.asset }
            guard let entry = store.byName[key], AssetPath.normalized(entry.path) == key else { return nil }
            return entry.asset
        }
    }

    /// The texture loaded from `path`.
    public func texture(atPath path: String) -> Texture? {
        asset(atPath: path) as? Texture
    }

    /// The entry stored under `name`, with its path and plugin.
    public func entry(named name: String) -> Entry? {
        contents.withLock { $0.byName[name] }
    }

    /// Every stored name, sorted.
    public var names: [String] { contents.withLock { Array($0.byName.keys) }.sorted() }

    public var count: Int { contents.withLock { $0.byName.count } }

    /// The bytes all stored assets hold (an asset stored under two names counts twice).
    public var byteCount: Int { contents.withLock { $0.byteCount } }

    /// Removes the asset stored under `name`. Its memory is freed once nobody else holds it.
    @discardableResult
    public func unload(named name: String) -> Bool {
        contents.withLock { store in
            guard let entry = store.byName.removeValue(forKey: name) else { return false }
            store.byteCount -= entry.asset.byteCount
            let key = AssetPath.normalized(entry.path)
            if store.nameByPath[key] == name { store.nameByPath[key] = nil }
            return true
        }
    }

    /// Makes room for `count` more assets, so a large batch does not regrow the tables as it lands.
    public func reserveCapacity(adding count: Int) {
        contents.withLock { store in
            store.byName.reserveCapacity(store.byName.count + count)
            store.nameByPath.reserveCapacity(store.nameByPath.count + count)
        }
    }

    /// Removes everything.
    public func unloadAll() {
        contents.withLock { $0 = Contents() }
    }

    /// Stores `asset` under `name`, replacing what was there.
    public func insert(_ asset: any Asset, name: String, path: String, plugin: String) {
        insert([Entry(name: name, path: path, plugin: plugin, asset: asset)])
    }

    /// Stores each entry's asset under its name, replacing what was there, with one lock (a
    /// finished load stores all its assets at once). Returns how long the lock was held.
    @discardableResult
    func insert(_ entries: [Entry]) -> Duration {
        guard !entries.isEmpty else { return .zero }
        let keys = entries.map { AssetPath.normalized($0.path) }  // outside the lock
        return contents.withLock { store in
            let acquired = ContinuousClock.now
            for (entry, key) in zip(entries, keys) {
                if let old = store.byName.updateValue(entry, forKey: entry.name) { store.byteCount -= old.asset.byteCount }
                store.byteCount += entry.asset.byteCount
                // The common case, a name that is the (normalized) path, needs no second index entry.
                if key != entry.name || (!store.nameByPath.isEmpty && store.nameByPath[key] != nil) { store.nameByPath[key] = entry.name }
            }
            return ContinuousClock.now - acquired
        }
    }
}
