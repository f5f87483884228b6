import Preload

/// The warnings `preload` shows for each asset it lists: the asset's own, then those of the
/// dependencies that loaded for it and are not listed themselves (an atlas's pages), each with
/// the file it concerns.
struct ShownWarnings {
    /// One warning and the file it is about.
    struct Item: Hashable {
        let file: String
        let warning: AssetWarning

        /// `file: message`, or the message alone when the file is the listed asset itself.
        func text(listedAs path: String) -> String {
            file == path ? warning.message : "\(file): \(warning.message)"
        }
    }

    /// By the path of the asset they are shown under.
    private(set) var byPath: [String: [Item]] = [:]
    private(set) var count = 0

    /// Warnings from `report`, shown under the requested assets and the pack entries listed on
    /// their own (`packs`). The report lists each request followed by its dependencies.
    init(report: PreloadReport, requested: [AssetResult], packs: PackContents) {
        guard report.hasWarnings else { return }  // most batches: nothing to index
        var listed = Set(requested.map(\.request.path))
        for results in packs.entryAssets.values { listed.formUnion(results.map(\.request.path)) }
        var current: String?
        var seen = Set<Item>()
        for result in report.allResults {
            if listed.contains(result.request.path) { current = result.request.path }
            guard let shownUnder = current, !result.warnings.isEmpty else { continue }
            for warning in result.warnings {
                let item = Item(file: result.request.path, warning: warning)
                guard seen.insert(item).inserted else { continue }
                byPath[shownUnder, default: []].append(item)
                count += 1
            }
        }
    }

    /// The warnings shown under `path`.
    func items(for path: String) -> [Item] { byPath[path] ?? [] }

    /// How many listed assets have warnings.
    var assetCount: Int { byPath.count }
}
