import Foundation

/// Turns folders into requests, with the rules `preload DIR` uses: every non-hidden file below
/// the folder, recursively, in sorted order, as what has the folder lists it (a source's folder
/// by the source, ``AssetSource/files(under:)``; a container's by its plugin; else the disk's walk), kept if a plugin claims it (by extension, then by
/// content) and skipped otherwise (a file the caller named itself, not a folder, fails). Folders named `*.atlas` or `*.atlasc` are atlases, not walked
/// into; such folders inside a pack found there are requested too. A folder that cannot be
/// listed fails by its path (its files would be missing); an entry that is not a file (a FIFO,
/// a socket, a device, a link to a folder) is skipped with the reason. A file whose plugin expands it
/// into many requests (a baked pack, ``ExpandingPlugin``) is replaced by them. Walks and claims
/// run on several threads.
///
/// Each file found is named in the caller's words: the folder request's name followed by the
/// file's path inside the folder (`AssetRequest.folder("assets")` finds `assets/hero.png`;
/// named `"level1"`, the same file is stored as `level1/hero.png`; named `""`, as `hero.png`).
package struct FolderDiscovery: Sendable {
    /// What a folder held.
    package struct Found: Sendable {
        /// What was found, in order (a bulk plugin's entries made requests only when read).
        package var requests = CallerRequests()
        /// Files no plugin claims and entries that are not files, as found.
        package var skipped: [String] = []
        /// Why each skipped entry that is not simply unclaimed was skipped (a FIFO, a socket).
        package var skipReasons: [String: String] = [:]
        /// Files and folders that cannot be loaded as found, with the reason (a name that is not
        /// UTF-8, a folder that cannot be listed).
        package var unloadable: [AssetError] = []
        /// The folders walked: each folder requested and the folders below it (not asset
        /// folders, which are files here).
        package var folders: [String] = []
        /// The positions in ``requests`` of what the caller named rather than a folder held
        /// (with what a named file expanded into), in order.
        package var named: [Int] = []
    }

    let registry: PluginRegistry
    /// Threads that walk folders and claim files.
    var threads = ProcessInfo.processInfo.activeProcessorCount
    /// What folders are listed through: the sources (a batch's every one), containers' entries,
    /// then the disk.
    let files: AssetFiles

    /// Folders listed through `files` (by default the registry's: its sources, its containers, the disk).
    package init(registry: PluginRegistry, threads: Int = ProcessInfo.processInfo.activeProcessorCount, files: AssetFiles? = nil) {
        self.registry = registry
        self.threads = threads
        self.files = files ?? registry.files
    }

    /// Folder extensions that make a folder one asset (a sprite folder, a compiled atlas).
    package static let assetFolders: Set<String> = ["atlas", "atlasc"]

    /// `requests` with every folder request replaced by what it holds, in place. A file reached
    /// twice (a folder inside another requested one) is requested once.
    package func expand(_ requests: [AssetRequest]) -> Found {
        var found = Found()
        // A file requested on its own is not requested again from a folder holding it. A folder
        // requested alone lists each of its files once: nothing to compare them with.
        var seen = Set(requests.lazy.filter { !$0.isFolder }.map(\.path))
        let dedupes = requests.count > 1
        let expands = registry.hasExpanders
        for request in requests {
            guard request.isFolder else {
                let first = found.requests.count
                if expands, let expander = registry.expander(of: request) {
                    expand(request, with: expander, into: &found)
                } else {
                    found.requests.append(request)
                }
                found.named += first..<found.requests.count
                continue
            }
            let (inside, walked) = contents(of: request, seen: &seen, dedupes: dedupes)
            found.skipped += inside.skipped
            found.skipReasons.merge(inside.skipReasons) { first, _ in first }
            found.unloadable += inside.unloadable
            found.folders += inside.folders
            let first = found.requests.count
            defer {
                // A folder request for a file (or an asset folder) names that file: nothing is walked.
                if !walked { found.named += first..<found.requests.count }
            }
            guard expands else {
                found.requests += inside.requests
                continue
            }
            for request in inside.requests {
                if let expander = registry.expander(of: request) {
                    expand(request, with: expander, into: &found)
                } else {
                    found.requests.append(request)
                }
            }
        }
        return found
    }

    /// The requests `request`'s file stands for, or its failure to say.
    private func expand(_ request: AssetRequest, with expander: any ExpandingPlugin, into found: inout Found) {
        do {
            if let bulk = expander.asBulkExpanding, let expansion = try bulkExpansion(of: request, by: bulk, first: found.requests.count) {
                found.requests.append(expansion)
                return
            }
            found.requests += try expander.expand(request)
        } catch {
            found.unloadable.append(AssetError(path: request.path, wrapping: error))
        }
    }

    /// What `bulk` lists of `request`'s file, as the caller's requests from `first` on; `nil`
    /// when it lists nothing (the request is for one entry) or plans its requests one by one.
    private func bulkExpansion(of request: AssetRequest, by bulk: any BulkExpandingPlugin, first: Int) throws -> BulkExpansion? {
        guard let expander = registry.registered(identifier: bulk.identifier), !expander.plans,
            let entries = try bulk.bulkEntries(of: request)
        else { return nil }
        return try BulkExpansion(
            entries, first: first, expander: expander, bulk: bulk, facts: try files.facts(of: entries.container), options: request.options,
            registry: registry)
    }

    /// The files below `folder`, named after the folder request, and whether a folder was
    /// walked (`false` for a request that names one file, or an asset folder).
    private func contents(of folder: AssetRequest, seen: inout Set<String>, dedupes: Bool) -> (found: Found, walked: Bool) {
        var found = Found()
        let root = folder.path.hasSuffix("/") && folder.path.count > 1 ? String(folder.path.dropLast()) : folder.path
        let prefix = folder.name.hasSuffix("/") ? String(folder.name.dropLast()) : folder.name
        let walk: FolderWalk, walked: Bool
        do {
            (walk, walked) = try listing(of: root)
        } catch {
            // A mistyped level folder, or a source's that cannot be listed, fails by its path as
            // requested; it is not an empty folder, nor a file nobody claims.
            found.unloadable.append(
                error.path == root
                    ? AssetError(path: folder.path, category: error.category, reason: error.reason, underlying: error.underlying) : error)
            return (found, true)
        }
        found.folders = walk.directories
        func request(_ path: String, plugin: String?) -> AssetRequest {
            // A folder named as its path names its files as theirs: the same string, not a copy.
            guard prefix != root else { return AssetRequest(path: path, name: path, plugin: plugin, options: folder.options) }
            let relative = path == root ? "" : String(path.dropFirst(root.count))
            // An empty name names each file by its path inside the folder (`hero.png`).
            let name = prefix.isEmpty ? String(relative.drop { $0 == "/" }) : prefix + relative
            return AssetRequest(path: path, name: name, plugin: plugin, options: folder.options)
        }
        // The registry's claim rule, on several threads; `""` for a file its extension claims:
        // the batch applies the rule to it anyway (its content checked against its extension, a
        // JPEG saved as `.png` going to the JPEG plugin with a warning), so it is not read twice.
        // The rest are read for their first bytes here, and name the plugin their content found.
        let claims = ParallelMap.map(walk.files, threads: threads, chunk: 256) { [registry] path in
            registry.plugin(forExtensionOf: path) != nil ? "" : registry.claimant(of: path)?.identifier
        }
        var requests: [AssetRequest] = []
        requests.reserveCapacity(walk.files.count)
        for (path, plugin) in zip(walk.files, claims) where !dedupes || seen.insert(path).inserted {
            if let plugin {
                // Naming a plugin found by content spares the batch a second look at the content.
                requests.append(request(path, plugin: plugin.isEmpty ? nil : plugin))
            } else if path == root {
                // A file the caller named itself is not one of a folder's many: it fails, by name.
                found.unloadable.append(
                    AssetError(path: folder.path, category: .noLoader, reason: "no loader plugin claims it, by its extension or its content"))
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
        // Neither is dropped without a word: a folder that cannot be listed fails (a bake must not
        // ship a level with its files missing); a FIFO or a socket is skipped, saying what it is.
        for (path, reason) in walk.notFiles.sorted(by: { $0.path < $1.path }) where seen.insert(path).inserted {
            found.skipped.append(path)
            found.skipReasons[path] = reason
        }
        for (path, reason) in walk.unreadable.sorted(by: { $0.path < $1.path }) where seen.insert(path).inserted {
            found.unloadable.append(.unlistableFolder(path: path, reason: reason))
        }
        requests += assetFoldersInContainers(of: requests, seen: &seen)
        found.requests = CallerRequests(requests)
        return (found, walked)
    }

    /// What the folder at `root` holds, asked of what has it: a source or a container's plugin
    /// (``servedListing(of:)``), else the disk (``DiskSource``'s walk). `walked` is `false` for a
    /// path that names one file (or an asset folder), which is then the listing.
    private func listing(of root: String) throws(AssetError) -> (walk: FolderWalk, walked: Bool) {
        if files.servesBeyondDisk, files.source(owning: root) != nil || files.locate(root) != nil {
            return try servedListing(of: root)
        }
        guard FileManager.default.fileExists(atPath: root) else {
            throw AssetError(path: root, category: .fileNotFound, reason: "no such file or folder")
        }
        guard Self.isDirectory(root), !Self.isAssetFolder(root) else { return (FolderWalk(files: [root]), false) }
        return (DiskSource().walk(root, threads: threads) { Self.isAssetFolder($0) }, true)
    }

    /// ``listing(of:)`` of a folder a source or a container has: what its
    /// ``AssetSource/files(under:)`` says (a source that lists no folders throws, naming the
    /// folder and itself), names with a hidden part left out, a file below an asset folder
    /// (`hero.atlas/1.png`) standing for that folder, one asset as on disk, sorted. A path the
    /// source says is a file is that file.
    private func servedListing(of root: String) throws(AssetError) -> (walk: FolderWalk, walked: Bool) {
        if Self.isAssetFolder(root) || (try? files.facts(of: root))?.isDirectory == false { return (FolderWalk(files: [root]), false) }
        let names: [String]
        do {
            names = try files.files(under: root)
        } catch {
            throw AssetError(path: root, wrapping: error)
        }
        var listed = FolderWalk()
        var assetFolders = Set<String>()
        for name in names where !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            if let folder = Self.outermostAssetFolder(of: name) {
                if assetFolders.insert(folder).inserted { listed.files.append(root + "/" + folder) }
            } else {
                listed.files.append(root + "/" + name)
            }
        }
        listed.files.sort()
        return (listed, true)
    }

    /// Asset folders inside containers (a sprite folder in a pack): the pack loads their files
    /// one by one, the folder as a whole is an asset of its own.
    package func assetFoldersInContainers(of requests: [AssetRequest], seen: inout Set<String>) -> [AssetRequest] {
        let containers = registry.all.compactMap(\.asContainer)
        var found: [AssetRequest] = []
        // Only a request naming its plugin can be a container's (a file its extension claims names
        // none); each is read in place, not copied out of the array (~600 instructions a file).
        for index in requests.indices {
            // A pack that expands into its assets (a baked pack) names its atlases itself.
            guard let plugin = requests[index].plugin, let container = containers.first(where: { $0.identifier == plugin }),
                container.asExpanding == nil, let names = try? container.entryNames(in: requests[index].path)
            else { continue }
            let request = requests[index]
            for folder in Self.assetFolders(in: names) where seen.insert(request.path + "#" + folder).inserted {
                found.append(AssetRequest(path: request.path + "#" + folder, name: request.name + "#" + folder, options: request.options))
            }
        }
        return found
    }

    /// The outermost asset folders (`sprites/hero.atlas`) the entry names pass through, sorted.
    package static func assetFolders(in names: [String]) -> [String] {
        Set(names.compactMap(outermostAssetFolder(of:))).sorted()
    }

    /// The outermost asset folder the relative path `name` passes through
    /// (`sprites/hero.atlas` for `sprites/hero.atlas/1.png`), if any.
    static func outermostAssetFolder(of name: String) -> String? {
        var prefix = ""
        for component in name.split(separator: "/").dropLast() {
            prefix += prefix.isEmpty ? String(component) : "/" + component
            if isAssetFolder(prefix) { return prefix }
        }
        return nil
    }

    static func isAssetFolder(_ path: String) -> Bool {
        let name = AssetPath.fileName(of: path)
        guard let dot = name.lastIndex(of: ".") else { return false }
        return assetFolders.contains(name[name.index(after: dot)...].lowercased())
    }

    /// Whether `path` is a folder (following symbolic links).
    package static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
