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
            for path in files(under: argument) where seen.insert(path).inserted {
                if let plugin = registry.claimant(of: path) {
                    // Naming the plugin spares the coordinator a second look at the content.
                    found.requests.append(AssetRequest(path: path, plugin: plugin.identifier))
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

    /// `argument` itself if it is not a directory (or is an asset folder), else every non-hidden
    /// file below it, sorted.
    private func files(under argument: String) -> [String] {
        guard Self.isDirectory(argument), !Self.isAssetFolder(argument) else { return [argument] }
        var files: [String] = []
        walk(argument.hasSuffix("/") ? String(argument.dropLast()) : argument, into: &files)
        return files.sorted()
    }

    /// Collects the regular files below `directory`, using the entry types `readdir` reports and
    /// calling `stat` only for symbolic links and entries of unknown type. (FileManager's
    /// enumerator builds a full attribute dictionary per file, owner names included: at 20,000
    /// files that was most of the command's time.)
    private func walk(_ directory: String, into files: inout [String]) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }  // hidden files, "." and ".."
            let path = directory + "/" + name
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR) where Self.isAssetFolder(path): files.append(path)
            case Int32(DT_DIR): walk(path, into: &files)
            case Int32(DT_REG): files.append(path)
            default: classify(path, into: &files)
            }
        }
    }

    /// An entry `readdir` could not type: a real directory is walked, a regular file kept, and a
    /// symbolic link kept only when it leads to a regular file (links to directories are not
    /// followed, so a link loop cannot make the walk endless).
    private func classify(_ path: String, into files: inout [String]) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        switch info.st_mode & S_IFMT {
        case S_IFDIR where Self.isAssetFolder(path): files.append(path)
        case S_IFDIR: walk(path, into: &files)
        case S_IFREG: files.append(path)
        case S_IFLNK:
            if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { files.append(path) }
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
