import Foundation
import Preload

/// Turns the command's path arguments into requests: files as given, directories walked
/// recursively in sorted order, each file kept only if a plugin claims it. Folders named
/// `*.atlas` or `*.atlasc` are atlases, not walked into; inside packs too.
struct AssetDiscovery {
    struct Found {
        var requests: [AssetRequest] = []
        /// Files no plugin claims, as found.
        var skipped: [String] = []
        /// Files that cannot be loaded as found, with the reason (a name that is not UTF-8).
        var unloadable: [AssetError] = []

        /// `report` with the ``unloadable`` files added as failures, so the summary, the JSON
        /// and the exit status count them like any file that did not load.
        func reporting(_ report: PreloadReport) -> PreloadReport {
            guard !unloadable.isEmpty else { return report }
            let failures = unloadable.map { error in
                AssetResult(
                    request: AssetRequest(path: error.path), plugin: nil, isDependency: false,
                    outcome: .failed(error), duration: .zero, assetIndex: nil)
            }
            return PreloadReport(
                results: report.results + failures, elapsed: report.elapsed, planning: report.planning,
                wasCancelled: report.wasCancelled)
        }
    }

    let registry: PluginRegistry

    /// Folder extensions that make a folder one asset (a sprite folder, a compiled atlas).
    static let assetFolders: Set<String> = ["atlas", "atlasc"]

    func collect(_ arguments: [String], atlases: [String] = [], packs: [String] = []) throws -> Found {
        var found = Found()
        var seen = Set<String>()
        for atlas in atlases where seen.insert(atlas).inserted {
            found.requests.append(AssetRequest(path: atlas, plugin: "atlas"))
        }
        for pack in packs where seen.insert(pack).inserted {
            found.requests.append(AssetRequest(path: pack, plugin: "pack"))
        }
        for argument in arguments {
            var walk = Walk()
            for path in files(under: argument, into: &walk) where seen.insert(path).inserted {
                if let plugin = registry.claimant(of: path) {
                    // Naming the plugin spares the coordinator a second look at the content.
                    found.requests.append(AssetRequest(path: path, plugin: plugin.identifier))
                } else {
                    found.skipped.append(path)
                }
            }
            // A name that is not UTF-8 fails only where its extension says it is an asset.
            for path in walk.badlyNamed.sorted() where seen.insert(path).inserted {
                if registry.claimant(of: path) != nil {
                    found.unloadable.append(.nameNotUTF8(path: path))
                } else {
                    found.skipped.append(path)
                }
            }
        }
        // Asset folders inside containers (a sprite folder in a pack): the pack loads their
        // files one by one, the folder as a whole is an asset of its own.
        for request in found.requests {
            guard let container = request.plugin.flatMap(registry.plugin(identifier:)) as? any ContainerPlugin,
                let names = try? container.entryNames(in: request.path)
            else { continue }
            for folder in Self.assetFolders(in: names) where seen.insert(request.path + "#" + folder).inserted {
                found.requests.append(AssetRequest(path: request.path + "#" + folder))
            }
        }
        return found
    }

    /// The outermost asset folders (`sprites/hero.atlas`) the entry names pass through, sorted.
    static func assetFolders(in names: [String]) -> [String] {
        var folders = Set<String>()
        for name in names {
            var prefix = ""
            for component in name.split(separator: "/").dropLast() {
                prefix += prefix.isEmpty ? String(component) : "/" + component
                if isAssetFolder(prefix) {
                    folders.insert(prefix)
                    break
                }
            }
        }
        return folders.sorted()
    }

    /// What a directory walk finds.
    private struct Walk {
        var files: [String] = []
        /// Entries whose names are not UTF-8, shown with U+FFFD for the bytes that are not.
        var badlyNamed: [String] = []
    }

    /// `argument` itself if it is not a directory (or is an asset folder), else every non-hidden
    /// file below it, sorted.
    private func files(under argument: String, into walk: inout Walk) -> [String] {
        guard Self.isDirectory(argument), !Self.isAssetFolder(argument) else { return [argument] }
        self.walk(argument.hasSuffix("/") ? String(argument.dropLast()) : argument, into: &walk)
        return walk.files.sorted()
    }

    /// Collects the regular files below `directory`, using the entry types `readdir` reports and
    /// calling `stat` only for symbolic links and entries of unknown type. (FileManager's
    /// enumerator builds a full attribute dictionary per file, owner names included: at 20,000
    /// files that was most of the command's time.)
    private func walk(_ directory: String, into walk: inout Walk) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let (name, isUTF8) = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let bytes = raw.prefix(while: { $0 != 0 })
                return (String(decoding: bytes, as: UTF8.self), String(validating: bytes, as: UTF8.self) != nil)
            }
            guard !name.hasPrefix(".") else { continue }  // hidden files, "." and ".."
            let path = directory + "/" + name
            guard isUTF8 else {
                walk.badlyNamed.append(path)
                continue
            }
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR) where Self.isAssetFolder(path): walk.files.append(path)
            case Int32(DT_DIR): self.walk(path, into: &walk)
            case Int32(DT_REG): walk.files.append(path)
            default: classify(path, into: &walk)
            }
        }
    }

    /// An entry `readdir` could not type: a real directory is walked, a regular file kept, and a
    /// symbolic link kept only when it leads to a regular file (links to directories are not
    /// followed, so a link loop cannot make the walk endless).
    private func classify(_ path: String, into walk: inout Walk) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        switch info.st_mode & S_IFMT {
        case S_IFDIR where Self.isAssetFolder(path): walk.files.append(path)
        case S_IFDIR: self.walk(path, into: &walk)
        case S_IFREG: walk.files.append(path)
        case S_IFLNK:
            if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { walk.files.append(path) }
        default: break
        }
    }

    private static func isAssetFolder(_ path: String) -> Bool {
        let name = AssetPath.fileName(of: path)
        guard let dot = name.lastIndex(of: ".") else { return false }
        return assetFolders.contains(name[name.index(after: dot)...].lowercased())
    }

    /// Whether `path` is a folder (following symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
