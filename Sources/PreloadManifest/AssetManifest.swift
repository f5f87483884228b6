import Preload

/// Named groups of assets read from a file: a level, a menu, what every level shares.
///
/// A game names groups (`"common"`, `"level1"`) instead of listing paths in code, and a group
/// may require others, which load first. Two dialects are read:
/// - Preload's own JSON (see <doc:ManifestFormat>): `{"groups": {"level1": {"requires": ["common"],
///   "assets": ["hero.png", {"path": "ui.atlas", "name": "ui"}]}}}`;
/// - (later) Phaser's asset pack JSON.
///
/// ```swift
/// let manifest = try AssetManifest(contentsOf: "assets/levels.json")
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

    /// The manifest file, as given.
    public let path: String
    /// The groups, in the manifest's order.
    public let groups: [Group]

    /// Reads the manifest at `path`. Entries' paths are relative to the manifest's folder (or
    /// to its `root`); `optionReaders` read entries' per-plugin options (the bundled plugins'
    /// by default). Throws a ``ManifestError`` naming the group and entry of the first problem.
    public init(contentsOf path: String, optionReaders: [any ManifestOptionReader] = ManifestOptionReaders.bundled) throws {
        self = try PreloadManifestFormat(path: path, optionReaders: optionReaders).read()
    }

    init(path: String, groups: [Group]) {
        self.path = path
        self.groups = groups
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

    /// The requests of `names` and the groups they require, required groups' first, each asset
    /// once (by store name).
    public func requests(for names: [String]) throws -> [AssetRequest] {
        var seen = Set<String>()
        return try resolve(names).flatMap(\.entries).map(\.request).filter { seen.insert($0.name).inserted }
    }
}
