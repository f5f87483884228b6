import PreloadConcurrency

/// What planning found for each entry of one batch, in per-batch arrays indexed by the entry's
/// number (an asset is numbered after the entry that claimed it first, so an asset's facts are
/// its entry's): the file's facts and the plugin (by its index in the registry), with, for the
/// few entries that need them, the request (when it is not the caller's), the files it reads
/// (a stand-in's, confined to its copy) and the warning its claim gave. Everything else is
/// shared by the batch: the caller's requests (the list the recorder holds, not a copy) and
/// the files every request reads. An entry a bulk plugin listed (``CallerRequests``) has no
/// slot: its request, file and plugin are its listing's, read there when asked (a pack of a
/// million entries holds no million slots).
///
/// Planning threads write the caller's entries at their own numbers (the storage is made before
/// they start), the ``DependencyPlanner`` appends its dependency entries, and loads read an
/// asset's entry once its load is queued. A ``PlannedRequest`` is a view of one entry, made for
/// a plugin's call; nothing here is copied per request.
final class PlannedTable: Sendable {
    /// One entry's facts: the file, its plugin (-1 until the entry is planned), where its
    /// ``Extra`` is (-1: it has none) and whether that extra keeps its request.
    struct Slot: Sendable {
        let file: FileFacts
        let plugin: Int32
        let extra: Int32
        let keepsRequest: Bool

        /// What a slot holds until its entry is planned.
        static let unplanned = Slot(
            file: FileFacts(device: 0, inode: 0, size: 0, modified: 0, isDirectory: false), plugin: -1, extra: -1, keepsRequest: false)
    }

    /// What a few entries have besides their ``Slot``.
    struct Extra: Sendable {
        /// The request, when it is not the caller's at the entry's number (a dependency's, a stand-in's).
        var request: AssetRequest?
        /// The files it reads, when not the batch's (a stand-in's plugin reads its copy alone).
        var files: AssetFiles?
        /// Why planning gave the file to another plugin than its extension names.
        var warning: AssetWarning?
    }

    /// The caller's requests (after folders and expanders): entry `n < callers.count` asked for `callers[n]`.
    let callers: CallerRequests
    /// The registry's plugins, by index (empty for a table made outside a batch).
    private let plugins: [RegisteredPlugin]
    /// Their identifiers, by the same index.
    private let identifiers: [String]
    /// How the batch's requests read files.
    let files: AssetFiles
    /// Each entry's slot but those a bulk plugin listed, by ``slotNumber(_:)``.
    private let slots: StableSlots<Slot>
    /// How many of the caller's entries bulk plugins listed (most batches: none).
    let listedCount: Int
    /// The caller's requests no bulk plugin listed (every one, in most batches), kept here to be
    /// read in place: `given[entry]` when ``listedCount`` is 0.
    let given: [AssetRequest]
    private let extras: StableSlots<Extra>
    /// How many extras there are (appending one takes this lock).
    private let extraCount = PreloadMutex<Int32>(0)
    /// The warnings of the caller's requests renamed before planning (``StoreNameClaims``), by
    /// entry: most batches, none.
    private let nameWarnings: [Int: AssetWarning]

    /// A batch's table: `callers` are its caller's requests, `capacity` its entries before any
    /// dependency, `plugins` the registry's, `files` what its requests read, and `nameWarnings`
    /// the warnings of those renamed for a store name of their own.
    init(callers: CallerRequests, capacity: Int, plugins: [RegisteredPlugin], files: AssetFiles, nameWarnings: [Int: AssetWarning] = [:]) {
        self.callers = callers
        self.nameWarnings = nameWarnings
        self.plugins = plugins
        identifiers = plugins.map(\.identifier)
        self.files = files
        listedCount = callers.listedCount
        given = callers.given
        slots = StableSlots(first: capacity - listedCount, empty: .unplanned)
        extras = StableSlots(first: 16, empty: Extra())
    }

    /// A table of one entry, made outside any batch (a plugin's own test, a tool).
    init(request: AssetRequest, plugin: String, file: FileFacts, files: AssetFiles, claimWarning: AssetWarning?) {
        callers = CallerRequests([request])
        nameWarnings = [:]
        plugins = []
        identifiers = [plugin]
        self.files = files
        listedCount = 0
        given = [request]
        slots = StableSlots(first: 1, empty: .unplanned)
        extras = StableSlots(first: 1, empty: Extra())
        write(entry: 0, file: file, plugin: 0, extra: claimWarning.map { Extra(request: nil, files: nil, warning: $0) })
    }

    /// Whether `entry` is one of the caller's (its request is the caller's at that number).
    func isCaller(_ entry: Int) -> Bool { entry < callers.count }

    /// Records what planning found for `entry`: its file, its plugin, and what it has besides
    /// (`nil` for most: an ``Extra``'s request only when it is not the caller's at that number).
    /// An entry a bulk plugin listed records nothing: what planning found is its listing's.
    @inline(__always)
    func record(entry: Int, file: FileFacts, plugin: RegisteredPlugin, extra: Extra? = nil) {
        guard let number = slotNumber(entry) else { return }
        write(entry: number, file: file, plugin: Int32(truncatingIfNeeded: plugin.index), extra: extra)
    }

    /// Where `entry`'s slot is: its number among the entries no bulk plugin listed (`entry`
    /// itself in most batches); `nil` for a listed one, which has none.
    @inline(__always)
    private func slotNumber(_ entry: Int) -> Int? {
        guard listedCount > 0 else { return entry }  // most batches
        return entry < callers.count ? callers.givenIndex(of: entry) : entry - listedCount
    }

    /// Writes slot `entry` (a slot number).
    private func write(entry: Int, file: FileFacts, plugin: Int32, extra: consuming Extra?) {
        guard let extra else {
            slots.write(Slot(file: file, plugin: plugin, extra: -1, keepsRequest: false), at: entry)
            return
        }
        let keepsRequest = extra.request != nil
        let position = extraCount.withLock { count in
            extras.write(extra, at: Int(count))
            count += 1
            return count - 1
        }
        slots.write(Slot(file: file, plugin: plugin, extra: position, keepsRequest: keepsRequest), at: entry)
    }

    /// `entry`'s slot; planning wrote it before anything asks. `nil` for an entry a bulk plugin
    /// listed (``CallerRequests/isListed(_:)``), which has none.
    @inline(__always)
    func slot(_ entry: Int) -> UnsafePointer<Slot>? {
        guard let number = slotNumber(entry) else { return nil }
        guard let slot = slots.slot(number), slot.pointee.plugin >= 0 else { preconditionFailure("entry \(entry) was not planned") }
        return slot
    }

    /// Where `entry`'s ``Extra`` is, if it has one.
    @inline(__always)
    private func extra(_ entry: Int) -> UnsafePointer<Extra>? {
        guard let position = slot(entry)?.pointee.extra, position >= 0 else { return nil }
        return extras.slot(Int(position))
    }

    /// The request `entry` was planned for.
    func request(_ entry: Int) -> AssetRequest {
        if let kept = keptRequest(entry) { return kept.pointee.request! }
        return callers[entry]
    }

    /// Where `entry`'s request is kept when it is not the caller's at that number (a
    /// dependency's, a stand-in's): its ``Extra``, whose request is set; `nil` for the caller's.
    @inline(__always)
    func keptRequest(_ entry: Int) -> UnsafePointer<Extra>? {
        guard let slot = slot(entry), slot.pointee.keepsRequest else { return nil }
        return extras.slot(Int(slot.pointee.extra))
    }

    /// The path of `entry`'s request (one string copied, not the request).
    func path(_ entry: Int) -> String {
        if let kept = keptRequest(entry) { return kept.pointee.request!.path }
        if listedCount == 0 { return given[entry].path }  // most batches
        return callers.path(of: entry)
    }

    /// The name of `entry`'s request.
    func name(_ entry: Int) -> String {
        if let kept = keptRequest(entry) { return kept.pointee.request!.name }
        if listedCount == 0 { return given[entry].name }  // most batches
        return callers.name(of: entry)
    }

    /// The path `entry`'s request was made for: its origin's, for a stand-in (``AssetRequest/requestedPath``).
    func requestedPath(_ entry: Int) -> String {
        if let kept = keptRequest(entry) { return kept.pointee.request!.requestedPath }
        if listedCount == 0 { return given[entry].requestedPath }  // most batches
        return callers.requestedPath(of: entry)
    }

    /// The name and requested path of `entry`'s request, with one look at its slot (what the
    /// store reads of every asset).
    func nameAndPath(_ entry: Int) -> (name: String, path: String) {
        if let kept = keptRequest(entry) { return (kept.pointee.request!.name, kept.pointee.request!.requestedPath) }
        if listedCount == 0 { return given.withUnsafeBufferPointer { ($0[entry].name, $0[entry].requestedPath) } }  // most batches
        return (callers.name(of: entry), callers.requestedPath(of: entry))
    }

    /// The origin of `entry`'s request (a stand-in's: the path a source owns); `nil` for most.
    func origin(_ entry: Int) -> String? {
        keptRequest(entry)?.pointee.request!.origin
    }

    /// What `stat` said about `entry`'s file (or its container about the entry).
    func file(_ entry: Int) -> FileFacts { slot(entry)?.pointee.file ?? callers.listedFile(of: entry) }

    /// The index in the registry of `entry`'s plugin.
    func pluginIndex(_ entry: Int) -> Int {
        guard let slot = slot(entry) else { return callers.listedPlugin(of: entry) }
        return Int(slot.pointee.plugin)
    }

    /// The identifier of `entry`'s plugin.
    func pluginIdentifier(_ entry: Int) -> String { identifiers[pluginIndex(entry)] }

    /// `entry`'s plugin, as the registry holds it (a batch's table only).
    func plugin(_ entry: Int) -> RegisteredPlugin { plugins[pluginIndex(entry)] }

    /// How `entry`'s request reads files.
    func files(_ entry: Int) -> AssetFiles { extra(entry)?.pointee.files ?? files }

    /// Why planning gave `entry`'s file to another plugin than its extension names, if it did.
    func claimWarning(_ entry: Int) -> AssetWarning? { extra(entry)?.pointee.warning }

    /// What planning warns of `entry`'s asset before its plugin runs: its claim's warning, and
    /// that its store name was another file's (``StoreNameClaims``).
    func plannedWarnings(_ entry: Int) -> [AssetWarning] {
        let claim = claimWarning(entry)
        guard !nameWarnings.isEmpty, let name = nameWarnings[entry] else { return claim.map { [$0] } ?? [] }
        return (claim.map { [$0] } ?? []) + [name]
    }

    /// `entry`'s plugin and whether planning warns of its asset (``hasPlannedWarnings(_:)``),
    /// from one look at its slot: what a load asks of every file. (Asked apart, the slot was
    /// found three times, ~70 instructions a file; callgrind, docs/benchmarks.md, "Issue 50:
    /// engine instructions, round 5".)
    func pluginAndWarnings(_ entry: Int) -> (plugin: RegisteredPlugin, warns: Bool) {
        guard let slot = slot(entry) else { return (plugin(entry), hasPlannedWarnings(entry)) }
        let position = Int(slot.pointee.extra)
        let claimWarns = position >= 0 && extras.slot(position)?.pointee.warning != nil
        return (plugins[Int(slot.pointee.plugin)], claimWarns || (!nameWarnings.isEmpty && nameWarnings[entry] != nil))
    }

    /// Whether planning warns of `entry`'s asset (``plannedWarnings(_:)``).
    func hasPlannedWarnings(_ entry: Int) -> Bool {
        claimWarning(entry) != nil || (!nameWarnings.isEmpty && nameWarnings[entry] != nil)
    }

    /// The hash of a merge key: what identifies one asset in a batch, the same file (reached by
    /// any path), entry, plugin and options. Made once, at planning, from the numbers that
    /// almost always tell files apart (device, inode, plugin), mixed without a hasher; an
    /// entry's name and non-default options are hashed only when there are any. The
    /// ``MergeTable`` keeps it with the asset's number and compares keys with ``sameKey(_:as:)``.
    static func keyHash(file: FileFacts, plugin: Int, options: AssetOptions) -> Int {
        // A multiply-xorshift mix (the merge table takes its shard and place from the result).
        var mixed = file.inode &* 0x9E37_79B9_7F4A_7C15
        mixed ^= (file.device &+ UInt64(UInt(bitPattern: plugin)) &* 0x2545_F491_4F6C_DD1D) &* 0xBF58_476D_1CE4_E5B9
        mixed ^= mixed >> 31
        // (An entry's name, or a source's path, whose device and inode are no file's.)
        if let name = file.name { mixed ^= UInt64(UInt(bitPattern: name.hashValue)) }
        if !options.isEmpty { mixed ^= UInt64(UInt(bitPattern: options.hashValue)) &* 0x94D0_49BB_1331_11EB }
        mixed ^= mixed >> 29
        return Int(truncatingIfNeeded: mixed)
    }

    /// Whether `entry` and `other` are one asset: the same device, inode, entry name (or source
    /// path), plugin and options, compared where planning wrote them (no key is copied).
    func sameKey(_ entry: Int, as other: Int) -> Bool {
        guard let left = slot(entry), let right = slot(other) else {  // an entry a bulk plugin listed: from its listing
            let left = file(entry), right = file(other)
            return left.inode == right.inode && left.device == right.device && pluginIndex(entry) == pluginIndex(other)
                && left.name == right.name && options(entry) == options(other)
        }
        return left.pointee.file.inode == right.pointee.file.inode && left.pointee.file.device == right.pointee.file.device
            && left.pointee.plugin == right.pointee.plugin && left.pointee.file.name == right.pointee.file.name
            && options(entry) == options(other)
    }

    /// The options of `entry`'s request.
    func options(_ entry: Int) -> AssetOptions {
        if let kept = keptRequest(entry) { return kept.pointee.request!.options }
        if listedCount == 0 { return given[entry].options }  // most batches
        return callers.options(of: entry)
    }

    /// A view of `entry`, for a plugin's call.
    func planned(_ entry: Int) -> PlannedRequest { PlannedRequest(table: self, entry: entry) }
}
