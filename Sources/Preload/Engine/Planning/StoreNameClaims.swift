/// One store name per asset of a batch: the caller's requests (after folders and expanders)
/// that would be stored under a name an earlier request of the batch already has, from another
/// file (two baked packs or bundles with entries of the same name, two files a manifest or two
/// folders named `""` give one name), renamed before planning, each with a warning naming both.
///
/// The first request keeps the name; a later one is stored under its path (the path it was
/// requested by, ``AssetRequest/requestedPath``), or, when that too is a name of the batch, its
/// path followed by ` (2)`, ` (3)`, ...: each asset is found by its own path, and nothing is
/// replaced silently. Requests for the same file (the same path after removing `.` and `..`)
/// share a name as they share the asset: not a collision.
struct StoreNameClaims {
    /// The warning each renamed request's asset gets, by the request's number.
    private(set) var warnings: [Int: AssetWarning] = [:]

    /// Renames the requests of `requests` whose store name an earlier one has, from another file;
    /// `bulk`, the files bulk plugins expanded them from.
    init(renaming requests: inout [AssetRequest], bulk: BulkExpansions = BulkExpansions()) {
        // Most batches name each file after its own path (a folder named as its path, plain
        // files), or are one file's entries each named by its entry name (one baked pack): names
        // then differ where paths do, and there is nothing to look for.
        guard requests.contains(where: { $0.name != $0.path }), !bulk.namesEveryEntryByItself(of: requests.count) else { return }
        // Which request named each name first: (the name's hash, the request's number) in the
        // batch's kind of merge table, names compared where the requests hold them.
        let first = MergeTable()
        first.reserveCapacity(requests.count)
        var renamed: [Int] = []
        requests.withUnsafeBufferPointer { requests in
            for index in requests.indices {
                let earlier = first.claim(NameScan(requests[index].name).hash, for: index) {
                    NameScan.sameBytes(requests[$0].name, requests[index].name)
                }
                if earlier != index, !Self.sameFile(requests[earlier], requests[index]) { renamed.append(index) }
            }
        }
        func owner(of name: String) -> Int? {
            first.asset(of: NameScan(name).hash) { NameScan.sameBytes(requests[$0].name, name) }
        }
        for index in renamed {
            let taken = requests[index].name, path = requests[index].requestedPath
            let keeper = requests[owner(of: taken)!].requestedPath
            var name = path, copy = 1
            while owner(of: name) != nil {
                copy += 1
                name = "\(path) (\(copy))"
            }
            requests[index].name = name
            _ = first.claim(NameScan(name).hash, for: index) { _ in false }
            warnings[index] = AssetWarning(
                .storeNameTaken,
                "the store name '\(taken)' is already given to '\(keeper)', requested first in this batch, which keeps it; "
                    + "stored as '\(name)' instead")
        }
    }

    /// Whether `a` and `b` were requested by the same path (after removing `.` and `..`).
    private static func sameFile(_ a: AssetRequest, _ b: AssetRequest) -> Bool {
        let (left, right) = (a.requestedPath, b.requestedPath)
        return left == right || AssetPath.normalized(left) == AssetPath.normalized(right)
    }
}

extension BulkExpansions {
    /// Whether the `count` requests are all one file's entries, each stored under its entry's
    /// name (``BulkEntries/storeNames`` empty), which their paths (`FILE#NAME`) tell apart.
    fileprivate func namesEveryEntryByItself(of count: Int) -> Bool {
        all.count == 1 && all[0].first == 0 && all[0].entries.count == count && all[0].entries.storeNames.isEmpty
    }
}

extension AssetWarning.Code {
    /// A file requested under a store name an earlier request of the batch gives another file
    /// (two packs with entries of the same name): stored under its path instead, the first
    /// keeping the name.
    public static let storeNameTaken: Self = "store-name-taken"
}
