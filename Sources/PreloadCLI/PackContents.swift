import Preload
import PreloadPack

/// What `preload` shows of the packs it loaded: each pack with its entries, and the entries
/// another plugin loaded (textures, atlases) as assets of their own, `PACK#ENTRY`.
struct PackContents {
    /// The loaded packs, by path.
    let packs: [String: PackAsset]
    /// For each pack path, the results of its entries that another plugin loaded, in pack order.
    let entryAssets: [String: [AssetResult]]

    /// The packs among `requested` (the report's requested results) and their entries.
    init(report: PreloadReport, requested: [AssetResult]) {
        var packs: [String: PackAsset] = [:]
        var entryAssets: [String: [AssetResult]] = [:]
        guard requested.contains(where: { $0.plugin == "pack" }) else {
            (self.packs, self.entryAssets) = ([:], [:])
            return
        }
        let requestedPaths = Set(requested.map(\.request.path))
        var dependencies: [String: AssetResult] = [:]
        for result in report.allResults where result.isDependency && dependencies[result.request.path] == nil {
            dependencies[result.request.path] = result
        }
        for result in requested {
            guard let pack = result.outcome.asset as? PackAsset, packs[result.request.path] == nil else { continue }
            packs[result.request.path] = pack
            entryAssets[result.request.path] = pack.entries.compactMap { entry in
                // An entry's path names the pack's file; a fetched pack's entries are named by its URL.
                let path = entry.path.firstIndex(of: "#").map { result.request.path + entry.path[$0...] } ?? entry.path
                guard !requestedPaths.contains(path), let result = dependencies[path],
                    let plugin = result.plugin, plugin != "pack"
                else { return nil }
                return result
            }
        }
        self.packs = packs
        self.entryAssets = entryAssets
    }

    /// Every entry of every pack, with its pack.
    var entries: [(pack: String, entry: PackAsset.Entry)] {
        packs.keys.sorted().flatMap { path in packs[path]!.entries.map { (path, $0) } }
    }

    /// Entries that failed (their pack loaded; they did not). (Filtered in place: copying every
    /// entry first was 5% of a 20,000-entry zip's command.)
    var failedEntries: [PackAsset.Entry] {
        packs.keys.sorted().flatMap { path in packs[path]!.entries.filter { $0.outcome.error != nil } }
    }

    /// How many entries of the loaded packs loaded, failed and were cancelled.
    var entryCounts: (loaded: Int, failed: Int, cancelled: Int) {
        var counts = (loaded: 0, failed: 0, cancelled: 0)
        for pack in packs.values {
            for entry in pack.entries {
                switch entry.outcome {
                case .loaded: counts.loaded += 1
                case .failed: counts.failed += 1
                case .cancelled: counts.cancelled += 1
                }
            }
        }
        return counts
    }
}
