import Foundation
import PreloadConcurrency
import Synchronization

/// The assets a coordinator has loaded, by name and by path, until they are unloaded.
///
/// **One rule for finding an asset:** by its name (the request's `name`, by default its path as
/// written; a folder's files are named after the folder's name; what a plugin loads for a named
/// request is named as a part of it: `level1#hud.png` for an entry of the pack `level1`,
/// `ui#ui.png` for the page beside the atlas `ui`) *or* by its path, relative or
/// absolute, with any `.` and `..`, or by its real path whatever spelling of its folder loaded
/// it (`../assets/hero.png`, a path through a linked folder: each folder stored from is resolved
/// once). ``asset(named:)``, ``texture(named:)``, ``entry(named:)`` and
/// ``handle(named:as:)`` try the words as a name first, ``asset(atPath:)`` as a path first; each
/// then tries the other, so both find the same asset. A relative path is read from the current
/// directory at the time of the lookup. A name loaded again (by a later batch, or a reload)
/// replaces what was stored under it: one asset per name. Within one batch, two files given one
/// name (two packs with entries of the same name) do not replace each other: the first requested
/// keeps the name and each later one is stored under its path, with a warning
/// (``AssetWarning/Code/storeNameTaken``), so that each is found by its own path.
///
/// Safe to use from any thread. The tables are split into shards by name (and by path), each
/// behind its own lock, so that loads finishing on many cores at once do not queue for one lock.
///
/// ```swift
/// import Preload
/// import PreloadPNG
///
/// // Your engine's own, stubbed here: its upload call.
/// func upload(_ pixels: AssetBytes) {}
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader()])
/// _ = try await coordinator.preload([AssetRequest(path: "sprites/hero.png", name: "hero")])
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
    }

    /// An entry as a shard's table keeps it, under its name: the path only when it differs
    /// from the name, and the engine's handle in a table of its own (few assets have one), so
    /// that storing an asset copies two references (its name and the asset) into a small slot.
    struct Stored {
        var path: String?
        var plugin: String
        var asset: any Asset
        var isDependency: Bool

        /// `asset`, loaded by `plugin` from `path` where that is not its name (`nil`: its name).
        init(path: String?, plugin: String, asset: any Asset, isDependency: Bool) {
            self.path = path
            self.plugin = plugin
            self.asset = asset
            self.isDependency = isDependency
        }

        func entry(named name: String, handle: (any Sendable)?) -> Entry {
            Entry(name: name, path: path ?? name, plugin: plugin, asset: asset, isDependency: isDependency, handle: handle)
        }
    }

    struct Contents {
        var byName: [Key: Stored] = [:]
        var nameByPath: [Key: String] = [:]
        /// What the engine returned for assets handed over (``handle(named:as:)``), by name.
        var handles: [Key: any Sendable] = [:]
        var byteCount = 0

        func entry(_ key: Key) -> Entry? {
            byName[key].map { $0.entry(named: key.text, handle: handles.isEmpty ? nil : handles[key]) }
        }
    }

    final class Shard: Sendable {
        let contents = PreloadMutex(Contents())
    }

    /// A power of two: a name's shard is the low bits of its hash.
    static let shardCount = 16
    let shards: [Shard] = (0..<AssetStore.shardCount).map { _ in Shard() }
    /// The real folders of the stored paths, for lookups by a real path spelled another way.
    let folders = FolderSpellings()

    /// An empty store. (A coordinator has its own, ``PreloadCoordinator/assets``.)
    public init() {}

    func withShard<Result>(of key: Key, _ body: (inout Contents) -> Result) -> Result {
        shards[key.shard].contents.withLock { body(&$0) }
    }

    /// The asset stored under `name`; failing that, the one loaded from `name` read as a path
    /// (see ``asset(atPath:)``): the caller's words and the file's path both find an asset.
    public func asset(named name: String) -> (any Asset)? {
        lookUp(name) { contents, key in contents.byName[key]?.asset }
    }

    /// The asset stored under `name`, if it is a `T`.
    public func asset<T: Asset>(named name: String, as type: T.Type) -> T? {
        asset(named: name) as? T
    }

    /// The texture stored under `name` (or loaded from `name` as a path).
    public func texture(named name: String) -> Texture? {
        asset(named: name, as: Texture.self)
    }

    /// The asset most recently stored from `path`, relative or absolute (compared after removing
    /// `.` and `..` components, then by its folder's real path; a relative path is taken from the
    /// current directory); failing that, the one stored under `path` as its name.
    public func asset(atPath path: String) -> (any Asset)? {
        guard let name = storedName(forPath: path) else { return asset(named: path) }
        let key = Key(name)
        return withShard(of: key) { $0.byName[key]?.asset }
    }

    /// The texture loaded from `path` (or stored under it as a name).
    public func texture(atPath path: String) -> Texture? {
        asset(atPath: path) as? Texture
    }

    /// The entry stored under `name` (or loaded from `name` as a path), with its path and plugin.
    public func entry(named name: String) -> Entry? {
        lookUp(name) { contents, key in contents.entry(key) }
    }

    /// What `read` finds under `name` as a name, or else under the name of the asset loaded from
    /// `name` read as a path: the lookups' one rule (see the type's documentation).
    private func lookUp<Found>(_ name: String, _ read: (borrowing Contents, Key) -> Found?) -> Found? {
        let key = Key(name)
        if let found = withShard(of: key, { read($0, key) }) { return found }
        guard let stored = storedName(forPath: name) else { return nil }
        let storedKey = Key(stored)
        return withShard(of: storedKey) { read($0, storedKey) }
    }

    /// The name of the asset most recently stored from `path`: as written, or the same file
    /// spelled from the current directory the other way (relative for absolute, and back), or,
    /// failing those, through its folder's real path (``FolderSpellings``: symbolic links and a
    /// relative path's `..` resolved).
    private func storedName(forPath path: String) -> String? {
        if let name = storedName(forNormalizedPath: AssetPath.normalized(path)) { return name }
        let directory = FileManager.default.currentDirectoryPath
        if !directory.isEmpty {
            if path.hasPrefix("/") {
                let prefix = directory.hasSuffix("/") ? directory : directory + "/"
                if path.hasPrefix(prefix), let name = storedName(forNormalizedPath: AssetPath.normalized(String(path.dropFirst(prefix.count)))) {
                    return name
                }
            } else if let name = storedName(forNormalizedPath: AssetPath.normalized(directory + "/" + path)) {
                return name
            }
        }
        return folders.spellings(of: path).lazy.compactMap { self.storedName(forNormalizedPath: $0) }.first
    }

    private func storedName(forNormalizedPath normalized: String) -> String? {
        let key = Key(normalized)
        return withShard(of: key) { shard -> String? in
            if let name = shard.nameByPath[key] { return name }
            guard let entry = shard.byName[key], AssetPath.normalized(entry.path ?? key.text) == key.text else { return nil }
            return key.text
        }
    }

    /// The names the caller asked for (its requests, and the files of its folders), sorted.
    /// What plugins loaded on their behalf is in ``dependencyNames``.
    public var names: [String] {
        shards.flatMap { shard in shard.contents.withLock { $0.byName.filter { !$0.value.isDependency }.map(\.key.text) } }.sorted()
    }

    /// The names of what only plugins asked for, sorted: an atlas's pages and source sprites
    /// (`ui.atlas/button.png`), a pack's entries (`level1.pak#hud.png`, named after the pack's
    /// request). Each is found by ``asset(named:)`` like any other.
    public var dependencyNames: [String] {
        shards.flatMap { shard in shard.contents.withLock { $0.byName.filter(\.value.isDependency).map(\.key.text) } }.sorted()
    }

    /// How many assets are stored, dependencies included.
    public var count: Int { shards.reduce(0) { total, shard in total + shard.contents.withLock { $0.byName.count } } }

    /// The bytes all stored assets hold (an asset stored under two names counts twice).
    public var byteCount: Int { shards.reduce(0) { total, shard in total + shard.contents.withLock { $0.byteCount } } }

    /// Removes the asset stored under `name`. Its memory is freed once nobody else holds it.
    @discardableResult
    public func unload(named name: String) -> Bool {
        let named = Key(name)
        let removed = withShard(of: named) { shard -> Stored? in
            guard let entry = shard.byName.removeValue(forKey: named) else { return nil }
            if !shard.handles.isEmpty { shard.handles[named] = nil }
            shard.byteCount -= entry.asset.byteCount
            return entry
        }
        guard let removed else { return false }
        let key = Key(AssetPath.normalized(removed.path ?? name))
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
        // Found by name or path like the asset, whether or not it has a handle.
        let handle: (any Sendable)?? = lookUp(name) { contents, key in contents.byName[key] == nil ? nil : .some(contents.handles[key]) }
        return handle?.flatMap { $0 as? T }
    }

    /// Records what the engine returned for the asset named `name`, still the one handed over
    /// (`asset`); a `replacement` (releasing the asset) takes its place.
    func handedOver(name: String, asset: any Asset, handle: (any Sendable)?, replacement: HandedOverAsset?) {
        let key = Key(name)
        withShard(of: key) { store in
            guard let old = store.byName[key], Self.isSame(old.asset, asset) else { return }
            if let replacement {
                store.byteCount += replacement.byteCount - old.asset.byteCount
                store.byName[key]?.asset = replacement
            }
            store.handles[key] = handle
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
        insert(EntryList(entries: entries))
    }

    /// ``Entry`` values to store.
    private struct EntryList: StoreBatch {
        let entries: [Entry]

        var count: Int { entries.count }
        func naming(_ index: Int) -> (name: String, path: String?) {
            let name = entries[index].name, path = entries[index].path
            return (name, path == name ? nil : path)
        }
        func stored(_ index: Int, path: String?) -> Stored {
            Stored(path: path, plugin: entries[index].plugin, asset: entries[index].asset, isDependency: entries[index].isDependency)
        }
    }

    /// How many shards the store's tables are split into.
    @_spi(Diagnostics) public static var shards: Int { shardCount }
}
