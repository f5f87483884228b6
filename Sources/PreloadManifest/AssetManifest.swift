import Foundation
import Preload

/// Named groups of assets read from a file: a level, a menu, what every level shares.
///
/// A game names groups (`"common"`, `"level1"`) instead of listing paths in code, and a group
/// may require others, which load first. Two dialects are read, told apart by their shape:
/// - Preload's own JSON (see <doc:ManifestFormat>): `{"groups": {"level1": {"requires": ["common"],
///   "assets": ["hero.png", {"path": "ui.atlas", "name": "ui"}]}}}`;
/// - Phaser 3's asset pack JSON (see <doc:PhaserAssetPacks>): each section is a group, each
///   file's `key` its store name; entries of types Preload has no plugin for are skipped and
///   listed in ``notices``.
///
/// ```swift
/// import Preload
/// import PreloadManifest
/// import PreloadPNG
///
/// let registry = try PluginRegistry([PNGLoader()])
/// let manifest = try AssetManifest(contentsOf: "assets/levels.json", registry: registry)
/// let requests = try manifest.requests(for: ["level1"])  // common's, then level1's
/// ```
///
/// Use ``AssetGroups`` to load and unload groups with reference counts.
public struct AssetManifest: Sendable {
    /// One asset of a group.
    public struct Entry: Sendable, Hashable {
        /// The request it makes: its path resolved against the manifest's root, its name as the
        /// manifest gives it (or its path as written), its plugin and options.
        public let request: AssetRequest
        /// Where it is in its group, for messages: `entry 3 ('hero.png')`.
        public let place: String
        /// Other files the request reads that its plugin will not find by itself (a Phaser
        /// atlas's `textureURL`), for ``AssetManifest/problems(registry:)``.
        var companions: [String] = []
        /// A Phaser pack entry's `type` (`audio`): skipped with a notice, as a type without a
        /// plugin is, when the coordinator has not registered the plugin it names
        /// (``AssetGroups`` checks). `nil` for Preload's dialect, where naming a plugin that is
        /// not registered fails the entry.
        var phaserType: String? = nil
    }

    /// A named group of assets.
    public struct Group: Sendable {
        /// The group's name.
        public let name: String
        /// The groups that load before this one (and stay while it does).
        public let requires: [String]
        /// Its assets, in the manifest's order.
        public let entries: [Entry]
    }

    /// The manifest dialects read.
    public enum Dialect: String, Sendable {
        /// Preload's own (<doc:ManifestFormat>).
        case preload
        /// Phaser 3's asset pack (<doc:PhaserAssetPacks>).
        case phaserPack = "phaser-pack"
    }

    /// The manifest file, as given.
    public let path: String
    /// The dialect it was written in.
    public let dialect: Dialect
    /// The groups, in the manifest's order.
    public let groups: [Group]
    /// What was read but will not load, in the manifest's order: entries of types no plugin
    /// loads, remote URLs, keys given twice (Phaser packs only; Preload's dialect refuses
    /// instead).
    public let notices: [ManifestNotice]

    /// Reads the manifest at `path`, in either dialect. Entries' `"options"` are read by the
    /// settings readers of `registry`'s plugins (each `ConfigurablePlugin`'s, under its key:
    /// `"png"`, `"atlas"`, ...): pass the registry the manifest's loads use. Preload entries'
    /// paths are relative to the manifest's folder (or its `root`); a Phaser pack's URLs are
    /// relative to `webRoot`, the folder of the page that runs the game (`nil`: the current
    /// directory), as the browser resolves them. Throws a ``ManifestError`` naming the group and
    /// entry of the first problem.
    public init(contentsOf path: String, registry: PluginRegistry, webRoot: String? = nil) throws {
        try self.init(contentsOf: path, plugins: ManifestPlugins(registry: registry), webRoot: webRoot)
    }

    /// Reads the manifest at `path` with `optionReaders` alone reading entries' `"options"`
    /// (a Phaser pack's `audio` entry then takes the first of its files that exists, whatever
    /// this machine decodes).
    @available(*, deprecated, message: "give the registry whose plugins read their settings: AssetManifest(contentsOf:registry:webRoot:)")
    public init(
        contentsOf path: String, optionReaders: [any PluginSettingsReader] = ManifestOptionReaders.bundled, webRoot: String? = nil
    ) throws {
        try self.init(contentsOf: path, plugins: ManifestPlugins(readers: optionReaders), webRoot: webRoot)
    }

    private init(contentsOf path: String, plugins: ManifestPlugins, webRoot: String?) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ManifestError(manifest: path, "cannot be read (\((error as NSError).localizedDescription))")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) else { throw ManifestError(manifest: path, "is not valid JSON") }
        let bytes = Array(data)  // for the key-order scanner
        if PhaserPackFormat.recognizes(object) {
            self = try PhaserPackFormat(path: path, webRoot: webRoot, plugins: plugins).read(object, bytes: bytes)
        } else {
            self = try PreloadManifestFormat(path: path, settings: plugins.settings).read(object, bytes: bytes)
        }
    }

    init(path: String, dialect: Dialect, groups: [Group], notices: [ManifestNotice] = []) {
        self.path = path
        self.dialect = dialect
        self.groups = groups
        self.notices = notices
    }

    /// The group called `name`.
    public func group(named name: String) -> Group? { groups.first { $0.name == name } }

    /// `names` with the groups they require, each after what it requires and once; every group
    /// when `names` is empty. Throws on an unknown group or a cycle.
    public func resolve(_ names: [String]) throws -> [Group] {
        var resolved: [Group] = []
        var done = Set<String>()
        var inProgress: [String] = []
        func visit(_ name: String, from: String?) throws {
            guard !done.contains(name) else { return }
            if let start = inProgress.firstIndex(of: name) {
                throw ManifestError(
                    manifest: path, group: name, "the groups require each other: \((inProgress[start...] + [name]).joined(separator: " -> "))")
            }
            guard let group = group(named: name) else {
                throw ManifestError(
                    manifest: path, group: from, from == nil ? "no group named '\(name)'" : "requires '\(name)', which is not a group")
            }
            inProgress.append(name)
            for required in group.requires { try visit(required, from: name) }
            inProgress.removeLast()
            done.insert(name)
            resolved.append(group)
        }
        for name in names.isEmpty ? groups.map(\.name) : names { try visit(name, from: nil) }
        return resolved
    }

    /// The notices of `names` and the groups they require (every group's when `names` is empty).
    public func notices(for names: [String]) throws -> [ManifestNotice] {
        let included = Set(try resolve(names).map(\.name))
        return notices.filter { $0.group.map(included.contains) ?? true }
    }

    /// The requests of `names` and the groups they require, required groups' first, each asset
    /// once (by store name).
    public func requests(for names: [String]) throws -> [AssetRequest] {
        var seen = Set<String>()
        return try resolve(names).flatMap(\.entries).map(\.request).filter { seen.insert($0.name).inserted }
    }
}
