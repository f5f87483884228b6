import Foundation
import Preload

/// Reads Preload's own manifest dialect (the format is specified in <doc:ManifestFormat>):
///
/// ```json
/// {
///   "root": "assets",
///   "groups": {
///     "common": { "assets": ["ui/font.png", { "path": "ui/hud.atlas", "name": "hud" }] },
///     "level1": { "requires": ["common"],
///                 "assets": [{ "path": "level1/hero.png", "options": { "png": { "alpha": "premultiplied" } } },
///                            "level1/sprites/"] }
///   }
/// }
/// ```
///
/// Strict about what it does not know: a misspelt key is an error naming it, not an option
/// silently ignored.
struct PreloadManifestFormat {
    let path: String
    let settings: PluginSettingsReaders

    private static let topKeys: Set<String> = ["root", "groups"]
    private static let groupKeys: Set<String> = ["requires", "assets"]
    private static let entryKeys: Set<String> = ["path", "name", "plugin", "options", "size", "sha256"]

    /// The manifest from its parsed JSON (`object`) and its bytes (for the groups' order).
    func read(_ object: Any, bytes: [UInt8]) throws -> AssetManifest {
        guard let top = object as? [String: Any] else { throw problem("the top level is not a JSON object") }
        try refuseUnknown(top, known: Self.topKeys, in: nil)
        guard let groups = top["groups"] as? [String: Any] else { throw problem("'groups' is missing or not an object") }
        var base = (path as NSString).deletingLastPathComponent
        if let root = top["root"] {
            guard let root = root as? String else { throw problem("'root' is not a string") }
            base = root.hasPrefix("/") || AssetPath.isRemote(root) ? root : (base as NSString).appendingPathComponent(root)
        }
        var order = JSONMembers.keys(in: bytes, at: ["groups"])
        if Set(order) != Set(groups.keys) { order = groups.keys.sorted() }  // the scanner and the parser disagree: be stable
        var read: [AssetManifest.Group] = []
        var claimed: [String: (path: String, place: String)] = [:]
        for name in order {
            guard let group = groups[name] as? [String: Any] else { throw problem("is not an object", group: name) }
            try refuseUnknown(group, known: Self.groupKeys, in: name)
            let requires: [String]
            switch group["requires"] {
            case nil: requires = []
            case let list as [String]: requires = list
            default: throw problem("'requires' is not a list of group names", group: name)
            }
            guard let assets = group["assets"] as? [Any] else { throw problem("'assets' is missing or not a list", group: name) }
            var entries: [AssetManifest.Entry] = []
            for (index, asset) in assets.enumerated() {
                let entry = try self.entry(asset, index: index, group: name, base: base)
                if let earlier = claimed[entry.request.name], earlier.path != entry.request.path {
                    throw problem(
                        "the name '\(entry.request.name)' is given to two files (\(earlier.place) is \(earlier.path))", group: name,
                        entry: entry.place)
                }
                claimed[entry.request.name] = (entry.request.path, "group '\(name)' \(entry.place)")
                entries.append(entry)
            }
            read.append(AssetManifest.Group(name: name, requires: requires, entries: entries))
        }
        return AssetManifest(path: path, dialect: .preload, groups: read)
    }

    private func entry(_ value: Any, index: Int, group: String, base: String) throws -> AssetManifest.Entry {
        var place = "entry \(index + 1)"
        let fields: [String: Any]
        switch value {
        case let written as String: fields = ["path": written]
        case let object as [String: Any]: fields = object
        default: throw problem("is neither a path nor an object", group: group, entry: place)
        }
        guard let written = fields["path"] as? String, !written.isEmpty else {
            throw problem("'path' is missing or not a string", group: group, entry: place)
        }
        place += " ('\(written)')"
        try refuseUnknown(fields, known: Self.entryKeys, in: group, entry: place)
        let isFolder = written.hasSuffix("/")
        let trimmed = isFolder ? String(written.dropLast()) : written
        // A URL stands as it is; a path below a root that is a URL is a URL below it.
        let resolved =
            trimmed.hasPrefix("/") || AssetPath.isRemote(trimmed)
            ? trimmed
            : AssetPath.isRemote(base) ? (base.hasSuffix("/") ? base : base + "/") + trimmed : (base as NSString).appendingPathComponent(trimmed)
        if isFolder && AssetPath.isRemote(resolved) {
            throw problem("a URL names one file, not a folder: remove the trailing '/'", group: group, entry: place)
        }
        let name: String
        switch fields["name"] {
        case nil: name = trimmed
        case let given as String where !given.isEmpty: name = given
        default: throw problem("'name' is not a non-empty string", group: group, entry: place)
        }
        var plugin: String?
        if let given = fields["plugin"] {
            guard let given = given as? String else { throw problem("'plugin' is not a string", group: group, entry: place) }
            plugin = given
        }
        var options = AssetOptions()
        if let given = fields["options"] {
            guard let given = given as? [String: Any] else { throw problem("'options' is not an object", group: group, entry: place) }
            options = try read(given, group: group, entry: place)
        }
        if fields["size"] != nil || fields["sha256"] != nil {
            options[ExpectedContents.self] = try expected(fields, group: group, entry: place)
        }
        let request =
            isFolder
            ? AssetRequest.folder(resolved, name: name, options: options)
            : AssetRequest(path: resolved, name: name, plugin: plugin, options: options)
        return AssetManifest.Entry(request: request, place: place)
    }

    /// What an entry promises its file is (`size`, `sha256`): a remote file is checked against
    /// it while it downloads.
    private func expected(_ fields: [String: Any], group: String, entry: String) throws -> ExpectedContents {
        var expected = ExpectedContents()
        if let size = fields["size"] {
            guard let size = size as? Int, size >= 0 else { throw problem("'size' is not a number of bytes", group: group, entry: entry) }
            expected.size = Int64(size)
        }
        if let sha = fields["sha256"] {
            guard let sha = sha as? String, sha.count == 64, sha.allSatisfy(\.isHexDigit) else {
                throw problem("'sha256' is not 64 hexadecimal digits", group: group, entry: entry)
            }
            expected.sha256 = sha.lowercased()
        }
        return expected
    }

    /// The options of an entry, each plugin's object read by its plugin's settings reader.
    private func read(_ given: [String: Any], group: String, entry: String) throws -> AssetOptions {
        var options = AssetOptions()
        for key in given.keys.sorted() {
            guard settings.reader(for: key) != nil else { throw problem(settings.unknownKey(key).message, group: group, entry: entry) }
            guard let object = given[key] as? [String: Any] else { throw problem("'options': '\(key)' is not an object", group: group, entry: entry) }
            do {
                try settings.read(PluginSettingsValues(object), for: key, into: &options)
            } catch {
                throw problem("'options': \(error.message)", group: group, entry: entry)
            }
        }
        return options
    }

    private func refuseUnknown(_ object: [String: Any], known: Set<String>, in group: String?, entry: String? = nil) throws {
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw problem("unknown key '\(unknown)' (known: \(known.sorted().joined(separator: ", ")))", group: group, entry: entry)
        }
    }

    private func problem(_ message: String, group: String? = nil, entry: String? = nil) -> ManifestError {
        ManifestError(manifest: path, group: group, entry: entry, message)
    }
}
