/// A batch's caller requests once folders and expanders have been replaced (what
/// ``FolderDiscovery`` finds): the requests given or found, and runs of entries a
/// ``BulkExpandingPlugin`` listed (``BulkExpansion``), an entry being (its expansion, its
/// position there) until someone reads it: its ``AssetRequest`` (and its `PACK#NAME` path) is
/// made then (a report's result, an event, a plugin's call). A baked pack of a million entries
/// holds its listing, not a million requests (176 bytes each, with their paths).
///
/// Planning and loading read what they need of an entry without making its request:
/// ``options(of:)``, ``name(of:)``, ``path(of:)``, ``isListed(_:)``.
package struct CallerRequests: RandomAccessCollection, Sendable {
    /// The requests no bulk plugin listed, in order (read in place at ``givenIndex(of:)``).
    private(set) var given: [AssetRequest] = []
    /// The listed runs, in order (most batches: none).
    private(set) var expansions = BulkExpansions()
    /// For each of ``expansions``, how many of ``given`` come before it.
    private var givenBefore: [Int] = []
    /// How many requests there are, listed ones included.
    package private(set) var endIndex = 0
    /// The store names of the listed entries renamed for a name of their own, by entry
    /// (``StoreNameClaims``; most batches: none). A given request is renamed in place.
    private var renamed: [Int: String] = [:]

    /// No requests.
    package init() {}

    /// `requests`, none of them listed.
    package init(_ requests: [AssetRequest]) {
        given = requests
        endIndex = requests.count
    }

    package var startIndex: Int { 0 }

    /// The request of `entry` (a copy); an entry a bulk plugin listed has its request made now
    /// (what ``ExpandingPlugin/expand(_:)`` would have made). To read part of a request in
    /// place, see ``given`` and ``givenIndex(of:)``; ``boxed(_:)`` lends a listed one.
    package subscript(entry: Int) -> AssetRequest {
        if expansions.all.isEmpty { return given[entry] }  // most batches
        switch place(of: entry) {
        case .given(let index): return given[index]
        case .listed(let expansion, let index):
            var request = expansion.request(at: index)
            if !renamed.isEmpty, let name = renamed[entry] { request.name = name }
            return request
        }
    }

    /// Listed `entry`'s request, made now, in a box: what a read accessor lends (its frame then
    /// holds a reference, not a request, and stays small enough not to be allocated per read).
    func boxed(_ entry: Int) -> MadeRequest { MadeRequest(self[entry]) }

    /// A request made to be lent.
    final class MadeRequest {
        let request: AssetRequest
        init(_ request: AssetRequest) { self.request = request }
    }

    /// Where `entry` is: in ``given`` (at that index), or listed by an expansion (at that index of its entries).
    private enum Place {
        case given(Int)
        case listed(BulkExpansion, Int)
    }

    @inline(__always)
    private func place(of entry: Int) -> Place {
        guard !expansions.all.isEmpty, let (last, index) = expansions.last(startingAtOrBefore: entry) else { return .given(entry) }
        let expansion = expansions.all[index]
        if entry < last { return .listed(expansion, entry - expansion.first) }
        return .given(givenBefore[index] + entry - last)
    }

    /// How many entries bulk plugins listed.
    var listedCount: Int { endIndex - given.count }

    /// `entry`'s number among the requests no bulk plugin listed; `nil` for a listed one.
    @inline(__always)
    func givenIndex(of entry: Int) -> Int? {
        guard case .given(let index) = place(of: entry) else { return nil }
        return index
    }

    /// The registry index of listed `entry`'s plugin (planning found it registered).
    func listedPlugin(of entry: Int) -> Int {
        guard case .listed(let expansion, let index) = place(of: entry), let plugin = expansion.loader(of: index) else {
            preconditionFailure("entry \(entry) is not a listed entry of a registered plugin")
        }
        return plugin.index
    }

    /// The facts of listed `entry`'s file: its container's, with its name and size.
    func listedFile(of entry: Int) -> FileFacts {
        guard case .listed(let expansion, let index) = place(of: entry) else { preconditionFailure("entry \(entry) is not listed") }
        return expansion.file(at: index)
    }

    /// Whether a bulk plugin listed `entry` (its request is made when read).
    @inline(__always)
    func isListed(_ entry: Int) -> Bool {
        if case .listed = place(of: entry) { return true }
        return false
    }

    /// The options of `entry`'s request, without making it.
    @inline(__always)
    func options(of entry: Int) -> AssetOptions {
        if expansions.all.isEmpty { return given[entry].options }  // most batches
        return switch place(of: entry) {
        case .given(let index): given[index].options
        case .listed(let expansion, _): expansion.options
        }
    }

    /// The name of `entry`'s request (its store name), without making the request.
    @inline(__always)
    func name(of entry: Int) -> String {
        if expansions.all.isEmpty { return given[entry].name }  // most batches
        return switch place(of: entry) {
        case .given(let index): given[index].name
        case .listed(let expansion, let index): renamed.isEmpty ? expansion.storeName(at: index) : renamed[entry] ?? expansion.storeName(at: index)
        }
    }

    /// Stores `entry` under `name` (its store name being another's): a given request is renamed
    /// in place, a listed entry in a table of the few renamed (its request is still made when read).
    mutating func rename(_ entry: Int, to name: String) {
        switch place(of: entry) {
        case .given(let index): given[index].name = name
        case .listed: renamed[entry] = name
        }
    }

    /// Whether the requests are all one file's entries, each stored under its entry's name
    /// (``BulkEntries/storeNames`` empty), which their paths (`FILE#NAME`) tell apart.
    var namesEveryEntryByItself: Bool {
        guard expansions.all.count == 1, let only = expansions.all.first else { return false }
        return only.first == 0 && only.entries.count == endIndex && only.entries.storeNames.isEmpty
    }

    /// Whether a request may be stored under another name than its path: a given one named
    /// otherwise, or any listed entry (stored under its entry's name, not `FILE#NAME`).
    var mayNameOtherThanPaths: Bool { !expansions.all.isEmpty || given.contains { $0.name != $0.path } }

    /// The path of `entry`'s request (a listed entry's, `CONTAINER#NAME`, made now), without making the request.
    @inline(__always)
    func path(of entry: Int) -> String {
        if expansions.all.isEmpty { return given[entry].path }  // most batches
        return switch place(of: entry) {
        case .given(let index): given[index].path
        case .listed(let expansion, let index): expansion.path(at: index)
        }
    }

    /// The path `entry`'s request was made for (``AssetRequest/requestedPath``; a listed entry's
    /// is its path), without making the request.
    @inline(__always)
    func requestedPath(of entry: Int) -> String {
        if expansions.all.isEmpty { return given[entry].requestedPath }  // most batches
        return switch place(of: entry) {
        case .given(let index): given[index].requestedPath
        case .listed(let expansion, let index): expansion.path(at: index)
        }
    }

    /// Whether `entry`'s request asks for what `previous`'s asked for (the same path, plugin and
    /// options): the same asset, whatever its name. Compared in place (copying the two requests
    /// costs about 300 instructions); a listed entry is an entry of its own (a repeat would
    /// merge into the same asset by its key anyway).
    /// `given` is ``given``, read in place.
    @inline(__always)
    func repeats(_ entry: Int, _ previous: Int, in given: UnsafeBufferPointer<AssetRequest>) -> Bool {
        guard expansions.all.isEmpty else {
            guard case .given(let index) = place(of: entry), case .given(let other) = place(of: previous) else { return false }
            return Self.sameTarget(given.baseAddress! + index, given.baseAddress! + other)
        }
        return Self.sameTarget(given.baseAddress! + entry, given.baseAddress! + previous)
    }

    /// Whether the two requests ask for the same target, read part by part where they are (a
    /// request handed to a call is copied whole, even `borrowing`).
    @inline(__always)
    private static func sameTarget(_ request: UnsafePointer<AssetRequest>, _ other: UnsafePointer<AssetRequest>) -> Bool {
        samePath(request.pointee.path, other.pointee.path) && request.pointee.plugin == other.pointee.plugin
            && request.pointee.origin == other.pointee.origin && request.pointee.options == other.pointee.options
    }

    /// Whether two paths have the same bytes, compared from their ends: a folder's files share
    /// their folder and differ near the end (`String ==` compares from the start, through the
    /// runtime: 118 instructions a request; callgrind, issue 50).
    @inline(__always)
    private static func samePath(_ path: String, _ other: String) -> Bool {
        let (left, right) = (path.utf8, other.utf8)
        guard left.count == right.count else { return false }
        let same = left.withContiguousStorageIfAvailable { left in
            right.withContiguousStorageIfAvailable { right in
                var index = left.count
                while index > 0 {
                    index -= 1
                    if left[index] != right[index] { return false }
                }
                return true
            }
        }
        return (same ?? nil) ?? (path == other)
    }

    /// Appends `request`.
    package mutating func append(_ request: AssetRequest) {
        given.append(request)
        endIndex += 1
    }

    /// Appends `requests`.
    package mutating func append(contentsOf requests: some Sequence<AssetRequest>) {
        let before = given.count
        given.append(contentsOf: requests)
        endIndex += given.count - before
    }

    /// Appends the entries `expansion` listed; its ``BulkExpansion/first`` must be ``count``.
    mutating func append(_ expansion: BulkExpansion) {
        precondition(expansion.first == endIndex, "an expansion's first entry is \(expansion.first), the list has \(endIndex)")
        expansions.all.append(expansion)
        givenBefore.append(given.count)
        endIndex += expansion.entries.count
    }

    /// Makes room for `count` more given requests.
    package mutating func reserveCapacity(_ count: Int) { given.reserveCapacity(given.count + count) }

    /// These requests followed by `requests`.
    package static func + (list: CallerRequests, requests: [AssetRequest]) -> CallerRequests {
        var joined = list
        joined.append(contentsOf: requests)
        return joined
    }

    /// Appends `requests`.
    package static func += (list: inout CallerRequests, requests: [AssetRequest]) { list.append(contentsOf: requests) }

    /// Appends `other`'s requests, listed runs included (renumbered after these).
    package static func += (list: inout CallerRequests, other: CallerRequests) {
        guard !other.expansions.all.isEmpty else { return list.append(contentsOf: other.given) }
        // (A folder's files are never listed runs: only the batch's own list has them.)
        list.append(contentsOf: Array(other))
    }
}
