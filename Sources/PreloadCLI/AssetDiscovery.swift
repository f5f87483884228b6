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
        /// and the exit status count them like any file that did not load. Its results are
        /// made once here, for the several passes the summary or the JSON make over them.
        func reporting(_ report: PreloadReport) -> PreloadReport {
            let failures = unloadable.map { error in
                AssetResult(
                    request: AssetRequest(path: error.path), plugin: nil, isDependency: false,
                    outcome: .failed(error), duration: .zero, assetIndex: nil)
            }
            return PreloadReport(
                results: Array(report.results) + failures, elapsed: report.elapsed, planning: report.planning,
                wasCancelled: report.wasCancelled)
        }
    }

    let registry: PluginRegistry
    /// Threads that walk folders and claim files.
    var threads = ProcessInfo.processInfo.activeProcessorCount

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
            let walk = files(under: argument)
            // Claimed by extension, or by content for the rest (a read each): on several threads.
            let claims = ParallelMap.map(walk.files, threads: threads, chunk: 256) { [registry] in registry.claimant(of: $0)?.identifier }
            for (path, plugin) in zip(walk.files, claims) where seen.insert(path).inserted {
                if let plugin {
                    // Naming the plugin spares the coordinator a second look at the content.
                    found.requests.append(AssetRequest(path: path, plugin: plugin))
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
        let containers = registry.all.compactMap { $0 as? any ContainerPlugin }
        for request in found.requests {
            guard let container = containers.first(where: { $0.identifier == request.plugin }),
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
    private func files(under argument: String) -> FolderWalk {
        guard Self.isDirectory(argument), !Self.isAssetFolder(argument) else { return FolderWalk(files: [argument]) }
        var walk = FolderWalk.walk(argument.hasSuffix("/") ? String(argument.dropLast()) : argument, threads: threads) {
            Self.isAssetFolder($0)
        }
        walk.files.sort()
        return walk
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
