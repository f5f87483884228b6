import Foundation
import Preload

/// Reads Phaser 3's asset pack JSON (what `this.load.pack` loads) as a manifest, as Phaser's
/// loader reads it (the dialect is described in <doc:PhaserAssetPacks>):
///
/// ```json
/// { "level1": { "path": "assets/", "prefix": "l1.",
///               "files": [ { "type": "image", "key": "sky", "url": "sky.png" },
///                          { "type": "spritesheet", "key": "coin", "url": "coin.png",
///                            "frameConfig": { "frameWidth": 16 } } ] },
///   "meta": { "app": "Phaser Editor 2D - Asset Pack Editor" } }
/// ```
///
/// - Every top-level value with a `files` list is a section, read as a group of the same name,
///   in the file's order (`meta` has none, and is not one). Older packs make the top level a
///   list of sections, named by their position: `"0"`, `"1"`, ...
/// - A section's `baseURL`, `path`, `prefix` and `defaultType` apply to its own files.
/// - Lenient where Phaser is: unknown keys are ignored, types without a plugin are skipped and
///   counted (``ManifestNotice``), a key given twice keeps the first with a notice; an entry
///   Phaser itself refuses (not an object, no key, a sprite sheet without a frame width) is a
///   ``ManifestError``.
struct PhaserPackFormat {
    let path: String
    let webRoot: String?
    let plugins: ManifestPlugins

    /// Whether `object` (a parsed manifest) is a Phaser pack: a list or an object with a value
    /// holding a `files` list, unless it is shaped as Preload's dialect (`groups` of groups).
    static func recognizes(_ object: Any) -> Bool {
        func isSection(_ value: Any) -> Bool { (value as? [String: Any])?["files"] is [Any] }
        if let list = object as? [Any] { return list.contains(where: isSection) }
        guard let top = object as? [String: Any] else { return false }
        if let groups = top["groups"] as? [String: Any], !isSection(groups) { return false }
        return top.values.contains(where: isSection)
    }

    func read(_ object: Any, bytes: [UInt8]) throws -> AssetManifest {
        var reader = PhaserEntryReader(manifest: path, plugins: plugins)
        for (name, value) in sections(of: object, bytes: bytes) {
            guard let section = value as? [String: Any], let files = section["files"] as? [Any] else { continue }
            var urls = PhaserURLs(webRoot: webRoot)
            urls.baseURL = PhaserURLs.folder(section["baseURL"] as? String ?? "")
            urls.path = PhaserURLs.folder(section["path"] as? String ?? "")
            let settings = PhaserEntryReader.Section(
                name: name, urls: urls, prefix: section["prefix"] as? String ?? "", defaultType: section["defaultType"] as? String)
            try reader.read(files, in: settings)
        }
        guard !reader.groups.isEmpty else {
            throw ManifestError(manifest: path, "has no sections (objects with a 'files' list) and no 'groups'")
        }
        return AssetManifest(path: path, dialect: .phaserPack, groups: reader.groups, notices: reader.notices)
    }

    /// The top level's values in the file's order, named by key (or by position in a list).
    private func sections(of object: Any, bytes: [UInt8]) -> [(name: String, value: Any)] {
        if let list = object as? [Any] { return list.enumerated().map { (String($0.offset), $0.element) } }
        guard let top = object as? [String: Any] else { return [] }
        var order = JSONMembers.keys(in: bytes)
        if Set(order) != Set(top.keys) { order = top.keys.sorted() }  // the scanner and the parser disagree: be stable
        var seen = Set<String>()
        return order.filter { seen.insert($0).inserted }.compactMap { key in top[key].map { (key, $0) } }
    }
}
