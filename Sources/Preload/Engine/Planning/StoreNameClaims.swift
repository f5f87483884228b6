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

    /// Renames the requests of `requests` whose store name an earlier one has, from another file.
    init(renaming requests: inout [AssetRequest]) {
        // Most batches name each file after its own path (a folder named as its path, plain
        // files): names then differ where paths do, and there is nothing to look for.
        guard requests.contains(where: { $0.name != $0.path }) else { return }
        var first: [AssetStore.Key: Int] = [:]
        first.reserveCapacity(requests.count)
        var renamed: [Int] = []
        for index in requests.indices {
            let key = AssetStore.Key(requests[index].name)
            guard let earlier = first[key] else {
                first[key] = index
                continue
            }
            if !Self.sameFile(requests[earlier], requests[index]) { renamed.append(index) }
        }
        for index in renamed {
            let taken = requests[index].name, path = requests[index].requestedPath
            var name = path, copy = 1
            while first[AssetStore.Key(name)] != nil {
                copy += 1
                name = "\(path) (\(copy))"
            }
            first[AssetStore.Key(name)] = index
            let owner = requests[first[AssetStore.Key(taken)]!].requestedPath
            requests[index].name = name
            warnings[index] = AssetWarning(
                .storeNameTaken,
                "the store name '\(taken)' is already given to '\(owner)', requested first in this batch, which keeps it; "
                    + "stored as '\(name)' instead")
        }
    }

    /// Whether `a` and `b` were requested by the same path (after removing `.` and `..`).
    private static func sameFile(_ a: AssetRequest, _ b: AssetRequest) -> Bool {
        let (left, right) = (a.requestedPath, b.requestedPath)
        return left == right || AssetPath.normalized(left) == AssetPath.normalized(right)
    }
}

extension AssetWarning.Code {
    /// A file requested under a store name an earlier request of the batch gives another file
    /// (two packs with entries of the same name): stored under its path instead, the first
    /// keeping the name.
    public static let storeNameTaken: Self = "store-name-taken"
}
