import Foundation
import PreloadAuthoring

/// What `preload bake --gpu` prints about its bake cache: what came from it, what was encoded
/// and the time saved; each entry it refused; with `--shard`, what the shard encoded. The
/// warnings (a store that failed) go to standard error, one per store.
enum BakeCacheLines {
    /// The lines for `report` (nothing without a cache), `shard` the slice a shard encoded.
    static func lines(of report: BakeCacheReport?, shard: BakeShard?) -> [String] {
        guard let report else { return [] }
        var lines: [String]
        if let shard {
            lines = [
                "Shard \(shard): encoded \(counted(report.encoded, "texture")) into the bake cache (\(report.store)); "
                    + "\(report.fromCache) of its slice already there, \(report.leftToOtherShards) left to other shards; no pack written"
            ]
        } else {
            let stores = report.fromShared > 0 ? " (\(report.fromLocal) local, \(report.fromShared) shared)" : ""
            lines = [
                "Bake cache: \(counted(report.fromCache, "texture")) from the cache\(stores), \(report.encoded) encoded; "
                    + "\(String(format: "%.1f", report.secondsSaved)) s of encoding saved (one core's time) (\(report.store))"
            ]
        }
        lines += report.refused.map { "  bake cache: \($0)" }
        return lines
    }
}
