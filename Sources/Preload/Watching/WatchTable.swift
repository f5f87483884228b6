import Foundation

/// What an ``AssetWatcher`` watches and what changed since its last reload: each watched asset
/// with its request and the files it is made from, the assets each file (or sprite folder)
/// feeds, the folders the caller's folder requests walked (for files added to them), and the
/// changes waiting for the debounce to settle.
struct WatchTable {
    /// A watched asset.
    struct Watched {
        /// The request that loaded it, made again to reload it.
        var request: AssetRequest
        /// The absolute paths of its file and its dependencies' files (a pack entry's is its pack).
        var files: Set<String>
        /// The files that must exist for a reload: all of them, but for a sprite folder only the
        /// folder (a sprite deleted from it reloads the atlas without that sprite).
        var required: Set<String>
    }

    /// What a settled debounce reloads, and what it cannot.
    struct Work {
        /// Names to reload.
        var reload: [String]
        /// Names whose file is gone, with the file.
        var missing: [(name: String, file: String)]
        /// The changed paths, sorted.
        var changed: [String]
        /// The caller's folder requests with a change no watched file explains (a file added, a
        /// folder made or back): walked again for new files.
        var rescan: [AssetRequest]
    }

    private(set) var assets: [String: Watched] = [:]
    private var byFile: [String: Set<String>] = [:]
    /// Folder assets (a sprite folder): any change inside reloads them (a sprite added).
    private var byFolder: [String: Set<String>] = [:]
    /// The caller's folder requests, by their folders' absolute paths.
    private var walked: [String: AssetRequest] = [:]
    /// Paths found in walked folders that cannot be loaded as found (reported once).
    private var unloadable: Set<String> = []
    private var changes: Set<String> = []
    /// The watched files' bytes as last seen: a file written again unchanged reloads nothing.
    private var contents = ContentDigests()
    /// Names already reported missing: told once until their file is back.
    private var reportedMissing: Set<String> = []
    /// Walked folders to walk again with no change to report (a folder's watch just began).
    private var rescans: Set<String> = []
    private var generation = 0
    private var isReloading = false
    var isStopped = false

    /// Records every caller of `report` that loaded, with its dependencies' files, and every one
    /// that failed (an artist fixing a broken export sees it load), and the folder requests it
    /// walked; returns the folders to watch and the folder requests new to the table (to walk
    /// for the folders below them).
    mutating func record(_ report: PreloadReport) -> (folders: Set<String>, walked: [AssetRequest]) {
        var folders = Set<String>()
        var newlyWalked: [AssetRequest] = []
        for request in report.folders where walked.updateValue(request, forKey: Self.file(of: request.path)) != request {
            newlyWalked.append(request)
        }
        for group in report.resultsByCaller where group[0].outcome.isLoaded || group[0].outcome.error != nil {
            let name = group[0].request.name
            if let old = assets[name] { for file in old.files { byFile[file]?.remove(name) } }
            var files = Set<String>()
            for (index, result) in group.enumerated() where index == 0 || result.outcome.isLoaded {
                let file = Self.file(of: result.request.path)
                files.insert(file)
                byFile[file, default: []].insert(name)
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
                    byFolder[file, default: []].insert(name)
                    folders.insert(file)
                } else {
                    folders.insert((file as NSString).deletingLastPathComponent)
                    contents.remember(file)
                }
            }
            let own = Self.file(of: group[0].request.path)
            assets[name] = Watched(request: group[0].request, files: files, required: byFolder[own]?.contains(name) == true ? [own] : files)
        }
        return (folders, newlyWalked)
    }

    /// What `found` (a walk of watched folders) holds that the table does not know: requests
    /// for files added, and files that cannot be loaded as found, each reported once. A walked
    /// folder that is gone is not one: its files report themselves missing.
    mutating func added(in found: FolderDiscovery.Found) -> (requests: [AssetRequest], unloadable: [AssetError]) {
        let requests = found.requests.filter { assets[$0.name] == nil }
        let gone = Set(walked.values.map(\.path))
        let errors = found.unloadable.filter { error in
            !(error.category == .fileNotFound && gone.contains(error.path)) && assets[error.path] == nil
                && unloadable.insert(error.path).inserted
        }
        return (requests, errors)
    }

    /// Notes a change to `path`; the debounce generation to settle, or `nil` when the path
    /// feeds no watched asset (an editor's temporary file).
    mutating func noteChange(_ path: String) -> Int? {
        guard !isStopped, !affected(by: path).isEmpty || !walkedFolders(rescannedBy: path).isEmpty else { return nil }
        changes.insert(path)
        generation += 1
        return generation
    }

    /// Notes that the walked folders holding `folder` are to be walked again (files may have come
    /// into it before its watch began); the debounce generation to settle, or `nil` when none does.
    mutating func noteWalk(of folder: String) -> Int? {
        let roots = walkedFolders(rescannedBy: folder)
        guard !isStopped, !roots.isEmpty else { return nil }
        rescans.formUnion(roots)
        generation += 1
        return generation
    }

    /// The changes to act on, if `generation` is the latest and no reload is under way; marks a
    /// reload under way. A watched file changed is read whole, to compare its bytes with those
    /// last seen.
    mutating func takeChanges(ifLatest generation: Int) -> Work? {
        guard generation == self.generation, !isReloading, !isStopped, !changes.isEmpty || !rescans.isEmpty else { return nil }
        let changed = changes.sorted()
        changes = []
        let rescanned = rescans.union(changed.flatMap(walkedFolders(rescannedBy:)))
        rescans = []
        var work = Work(reload: [], missing: [], changed: changed, rescan: rescanned.sorted().compactMap { walked[$0] })
        // A watched file whose bytes are those last seen (saved again unchanged) reloads nothing.
        let differing = changed.filter { byFile[$0] == nil || contents.changed($0) }
        for name in Set(differing.flatMap(affected(by:))).sorted() {
            guard let watched = assets[name] else { continue }
            if let gone = watched.required.sorted().first(where: { !FileManager.default.fileExists(atPath: $0) }) {
                if reportedMissing.insert(name).inserted { work.missing.append((name, gone)) }
            } else {
                reportedMissing.remove(name)
                work.reload.append(name)
            }
        }
        isReloading = true
        return work
    }

    /// Ends a reload; the generation to settle if changes came meanwhile.
    mutating func endReload() -> Int? {
        isReloading = false
        return (changes.isEmpty && rescans.isEmpty) || isStopped ? nil : generation
    }

    /// The names a change to `path` touches: assets made from it, sprite folders holding it,
    /// and, for a folder (the kernel dropped its events), everything inside it.
    private func affected(by path: String) -> Set<String> {
        var names = byFile[path] ?? []
        names.formUnion(byFolder[(path as NSString).deletingLastPathComponent] ?? [])
        if let inside = byFolder[path] { names.formUnion(inside) }
        if byFile[path] == nil && byFolder[path] == nil {
            let prefix = path.hasSuffix("/") ? path : path + "/"
            for (file, owners) in byFile where file.hasPrefix(prefix) && !file.dropFirst(prefix.count).contains("/") {
                names.formUnion(owners)
            }
        }
        return names
    }

    /// The walked folders (absolute paths) a change to `path` makes walk again: those holding
    /// it (or it, when it is one), unless it is a watched file or inside a sprite folder, and
    /// not when it is hidden (an editor's temporary file), as walks leave those out.
    private func walkedFolders(rescannedBy path: String) -> [String] {
        guard !walked.isEmpty, byFile[path] == nil, byFolder[(path as NSString).deletingLastPathComponent] == nil else { return [] }
        return walked.keys.filter { root in
            guard path.hasPrefix(root), path.count == root.count || path.dropFirst(root.count).first == "/" else { return false }
            return !path.dropFirst(root.count).split(separator: "/").contains { $0.hasPrefix(".") }
        }
    }

    /// The absolute path of the file behind `path`: a pack entry's (`game.pak#hero.png`) is its
    /// pack.
    static func file(of path: String) -> String {
        var file = path
        if let hash = path.firstIndex(of: "#"), !FileManager.default.fileExists(atPath: path),
            FileManager.default.fileExists(atPath: String(path[..<hash]))
        {
            file = String(path[..<hash])
        }
        if !file.hasPrefix("/") { file = FileManager.default.currentDirectoryPath + "/" + file }
        return URL(fileURLWithPath: file).standardizedFileURL.path
    }
}
