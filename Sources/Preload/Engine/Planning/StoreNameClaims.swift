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

    /// Renames the requests of `requests` whose store name an earlier one has, from another file:
    /// a given request in place, an entry a bulk plugin listed in the list's rename table
    /// (``CallerRequests/rename(_:to:)``), its request still made only when read.
    init(renaming requests: inout CallerRequests) {
        // Most batches name each file after its own path (a folder named as its path, plain
        // files), or are one file's entries each named by its entry name (one baked pack): names
        // then differ where paths do, and there is nothing to look for.
        guard !requests.namesEveryEntryByItself, requests.mayNameOtherThanPaths else { return }
        let names = Self.newNames(of: requests, warnings: &warnings)
        for (entry, name) in names { requests.rename(entry, to: name) }  // (the list no longer shared: renamed in place)
    }

    /// The names to give the requests of `list` whose store name an earlier one has, from
    /// another file, with a warning for each in `warnings`.
    private static func newNames(of list: CallerRequests, warnings: inout [Int: AssetWarning]) -> [(entry: Int, name: String)] {
        // Which request named each name first: (the name's hash, the request's number) in the
        // batch's kind of merge table, names compared where the requests hold them.
        let first = MergeTable()
        first.reserveCapacity(list.count)
        var renamed: [Int] = []
        if list.listedCount == 0 {  // most batches: the requests read in place
            list.given.withUnsafeBufferPointer { given in
                claim(list.count, in: first, renamed: &renamed, name: { given[$0].name }, path: { given[$0].requestedPath })
            }
        } else {
            claim(list.count, in: first, renamed: &renamed, name: list.name(of:), path: list.requestedPath(of:))
        }
        func owner(of name: String) -> Int? {
            first.asset(of: NameScan(name).hash) { NameScan.sameBytes(list.name(of: $0), name) }
        }
        var names: [(entry: Int, name: String)] = [], newNames = Set<String>()
        for index in renamed {
            let taken = list.name(of: index), path = list.requestedPath(of: index)
            let keeper = list.requestedPath(of: owner(of: taken)!)
            var name = path, copy = 1
            // (A name given here is not the list's yet: looked for among those given.)
            while owner(of: name) != nil || newNames.contains(name) {
                copy += 1
                name = "\(path) (\(copy))"
            }
            names.append((index, name))
            newNames.insert(name)
            warnings[index] = AssetWarning(
                .storeNameTaken,
                "the store name '\(taken)' is already given to '\(keeper)', requested first in this batch, which keeps it; "
                    + "stored as '\(name)' instead")
        }
        return names
    }

    /// Claims each of `count` requests' names in `first`, the first request naming a name
    /// keeping it; appends to `renamed` those whose name an earlier one from another file has.
    @inline(__always)
    private static func claim(
        _ count: Int, in first: MergeTable, renamed: inout [Int], name: (Int) -> String, path: (Int) -> String
    ) {
        for index in 0..<count {
            let own = name(index)
            let earlier = first.claim(NameScan(own).hash, for: index) { NameScan.sameBytes(name($0), own) }
            if earlier != index, !sameFile(path(earlier), path(index)) { renamed.append(index) }
        }
    }

    /// Whether paths `left` and `right` are one (after removing `.` and `..`).
    private static func sameFile(_ left: String, _ right: String) -> Bool {
        left == right || AssetPath.normalized(left) == AssetPath.normalized(right)
    }
}

extension AssetWarning.Code {
    /// A file requested under a store name an earlier request of the batch gives another file
    /// (two packs with entries of the same name): stored under its path instead, the first
    /// keeping the name.
    public static let storeNameTaken: Self = "store-name-taken"
}
