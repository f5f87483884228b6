/// A request resolved without looking at the rest of the batch: its file found, the plugin that
/// claims it, its weight for progress and its work for grouping, and (once asked) the requests
/// its plugin declares it depends on. A value: planning makes one per request and hands its parts on.
struct ResolvedRequest: Sendable {
    let planned: PlannedRequest
    let plugin: RegisteredPlugin
    /// The hash of its merge key (``PlannedTable/keyHash(file:plugin:options:)``), made once.
    let keyHash: Int
    /// Its share of the batch's progress.
    var weight: Int64
    /// How much work loading it is, for sizing loads (bytes of the file, or the plugin's estimate).
    var work: Int64
    /// The whole file, when planning read it ahead (a small file on disk).
    let contents: AssetBytes?
    /// The bytes loading it will hold (decoded pixels, from the file's header; else the file's
    /// size), when the batch has a memory budget; 0 otherwise.
    let decodedBytes: Int
    /// What ``RequestResolver/declare(_:)`` found: the dependencies, or why asking failed.
    var dependencies: Result<[AssetRequest], AssetError>
    /// What a ``BulkDependingPlugin`` listed of the dependencies at once (``dependencies`` is
    /// then empty); `nil` for most.
    var bulkDependencies: BulkEntries?
    /// What a ``PlanningPlugin``'s plan hands its load (``LoadContext/planningNote(as:)``),
    /// kept in the batch's ``PlanningNotes`` when the request becomes an asset.
    var note: CarriedNote?

    init(
        planned: PlannedRequest, plugin: RegisteredPlugin, keyHash: Int, weight: Int64, work: Int64, contents: AssetBytes?,
        decodedBytes: Int = 0, dependencies: Result<[AssetRequest], AssetError> = .success([])
    ) {
        self.decodedBytes = decodedBytes
        self.planned = planned
        self.plugin = plugin
        self.keyHash = keyHash
        self.weight = weight
        self.work = work
        self.contents = contents
        self.dependencies = dependencies
    }

    /// Whether it depends on nothing: most files; such an asset can share a load with others.
    var isLeaf: Bool {
        if let listed = bulkDependencies { return listed.count == 0 }
        if case .success(let requests) = dependencies { return requests.isEmpty }
        return false
    }
}

/// Resolves requests: finds each file (one `open` and `fstat`, reading a small file whole while
/// at it; or the container's index for an entry), picks the plugin that claims it, weighs it,
/// and asks the plugin for its dependencies. It touches no batch state, so chunks of requests
/// resolve on several threads at once.
///
/// Resolving never throws: a request that cannot be resolved gets its ``AssetError``.
final class RequestResolver: Sendable {
    let registry: PluginRegistry
    let files: AssetFiles
    let weighting: ProgressWeighting
    /// Whether each request's decoded size is estimated (for a memory budget).
    let estimatesDecodedBytes: Bool
    /// What the batch may still read ahead, and where what it reads goes.
    let readAhead: ReadAheadBudget
    let memory: AssetMemory
    /// Prepares the requests whose paths sources own, and names what their plugins declare
    /// beside a stand-in.
    let sources: PreparedSources?
    /// Whether the caller's requests (``resolveAndDeclare(_:readingAhead:)``) may be a source's;
    /// when not (prefetching found none), they are planned without asking the sources again.
    let callersMayBeSourced: Bool
    /// The containers this batch's planning has found, as `stat` saw them the first time.
    private let containers = ContainerFacts()
    /// The files bulk plugins expanded: their entries are resolved from what the plugin listed.
    let bulk: BulkExpansions
    /// Where what it finds goes, by entry: the batch's per-entry arrays.
    let table: PlannedTable

    init(
        registry: PluginRegistry, table: PlannedTable, weighting: ProgressWeighting, estimatesDecodedBytes: Bool = false,
        readAhead: ReadAheadBudget = ReadAheadBudget(), memory: AssetMemory, sources: PreparedSources? = nil,
        bulk: BulkExpansions = BulkExpansions(), callersMayBeSourced: Bool = true
    ) {
        self.bulk = bulk
        self.table = table
        self.sources = sources
        self.callersMayBeSourced = callersMayBeSourced
        self.registry = registry
        files = registry.files
        self.weighting = weighting
        self.estimatesDecodedBytes = estimatesDecodedBytes
        self.readAhead = readAhead
        self.memory = memory
    }

    /// The caller's `request`, the batch's entry `entry`, resolved and its dependencies declared.
    func resolveAndDeclare(
        _ request: AssetRequest, entry: Int, readingAhead allowance: inout ReadAheadAllowance
    ) throws(AssetError)
        -> ResolvedRequest
    {
        try withUnsafePointer(to: request) { (request) throws(AssetError) in
            try resolveAndDeclare(at: request, entry: entry, readingAhead: &allowance)
        }
    }

    /// ``resolveAndDeclare(_:entry:readingAhead:)`` of the caller's request read where it is
    /// (in the batch's list): each part read when needed, the request never copied (a copy and
    /// its destruction cost ~310 instructions a file; callgrind, issue 50).
    func resolveAndDeclare(
        at request: UnsafePointer<AssetRequest>, entry: Int, readingAhead allowance: inout ReadAheadAllowance
    ) throws(AssetError)
        -> ResolvedRequest
    {
        var resolved =
            try callersMayBeSourced
            ? resolve(at: request, entry: entry, readingAhead: &allowance)
            : resolveFile(request, entry: entry, replaced: false, readingAhead: &allowance)
        declare(&resolved)
        return resolved
    }

    /// `request`, the batch's entry `entry`, resolved (what was found written into the batch's
    /// ``PlannedTable`` at `entry`), its dependencies not yet asked for; a small file is read
    /// whole while `allowance` (this thread's share of ``readAhead``) lasts.
    func resolve(_ given: AssetRequest, entry: Int, readingAhead allowance: inout ReadAheadAllowance) throws(AssetError) -> ResolvedRequest {
        try withUnsafePointer(to: given) { (given) throws(AssetError) in try resolve(at: given, entry: entry, readingAhead: &allowance) }
    }

    /// ``resolve(_:entry:readingAhead:)`` of a request read in place.
    private func resolve(
        at given: UnsafePointer<AssetRequest>, entry: Int, readingAhead allowance: inout ReadAheadAllowance
    ) throws(AssetError) -> ResolvedRequest {
        // A path no source owns goes straight on (no copy of the request: this runs once per file).
        guard let sources, sources.owns(given.pointee.path) else {
            return try resolveFile(given, entry: entry, replaced: false, readingAhead: &allowance)
        }
        // A source's path is prepared (now, if it was not yet); a stand-in is planned in its
        // place, and its errors name the path the caller gave.
        let request = try sources.local(given.pointee)
        do {
            return try withUnsafePointer(to: request) { (request) throws(AssetError) in
                try resolveFile(request, entry: entry, replaced: true, readingAhead: &allowance)
            }
        } catch {
            throw error.naming(given.pointee.path, for: request.path)
        }
    }

    /// ``resolve(_:entry:readingAhead:)`` of a request read where it is: on disk, in a container,
    /// or from the source that owns it; `replaced` when it is not the request the caller gave
    /// (a stand-in for a source's path).
    private func resolveFile(
        _ request: UnsafePointer<AssetRequest>, entry: Int, replaced: Bool, readingAhead allowance: inout ReadAheadAllowance
    ) throws(AssetError) -> ResolvedRequest {
        // Its path read once (a read per use retains and releases it each time).
        let path = request.pointee.path
        let file: FileFacts
        var contents: AssetBytes?
        // The file's first bytes, for the claim rule and kept for the estimate.
        var header: [UInt8]?
        // The plugin the request names, else the one claiming its extension: found once.
        let nominee: RegisteredPlugin?
        // A source's or a container's (an entry keeps the request's name, not a copy).
        if files.servesBeyondDisk, let served = try files.servedFacts(of: path, seen: containers, name: request.pointee.name) {
            file = served
            nominee = try registry.nominee(path: path, named: request.pointee.plugin)
        } else {
            nominee = try registry.nominee(path: path, named: request.pointee.plugin)
            // A container reads its entries where they are: reading it whole would be waste. A
            // file not read whole has its first bytes read while it is open, when the claim
            // rule will look at them (no nominee, or one that sniffs among several that do).
            file = try FileProbe.probe(
                path, readingAhead: nominee?.isContainer != true, contents: &contents, header: &header,
                headerLength: nominee?.claimHeaderLength ?? registry.longestHeader, budget: &allowance, memory: memory)
        }
        // The claim rule (PluginRegistry's).
        let claim = try registry.claim(
            path: path, namesPlugin: request.pointee.plugin != nil, nominee: nominee, isDirectory: file.isDirectory, contents: contents,
            header: &header)
        let plugin = claim.plugin
        // A stand-in's plugin reads it alone (what it names is prepared beside its origin, as a dependency).
        let confined = request.pointee.origin == nil ? nil : files.confined(to: PreparedSources.split(path).file)
        // The request is kept only when it is not the caller's at `entry` (a dependency's, a stand-in's).
        let keeps = replaced || !table.isCaller(entry)
        let keyHash = PlannedTable.keyHash(file: file, plugin: plugin.index, options: request.pointee.options)
        let size = file.size
        if keeps || confined != nil || claim.warning != nil {
            let extra = PlannedTable.Extra(request: keeps ? request.pointee : nil, files: confined, warning: claim.warning)
            table.record(entry: entry, file: file, plugin: plugin, extra: extra)
        } else {  // most requests: a slot, nothing besides
            table.record(entry: entry, file: file, plugin: plugin)
        }
        var decoded: Int64?
        if weighting == .decodedBytes || estimatesDecodedBytes {
            decoded = decodedEstimate(at: path, plugin: plugin.loader, contents: contents, header: &header)
        }
        return ResolvedRequest(
            planned: table.planned(entry), plugin: plugin, keyHash: keyHash,
            weight: weighting == .decodedBytes ? max(decoded ?? size, 1) : max(size, 1), work: max(size, 1),
            contents: contents, decodedBytes: estimatesDecodedBytes ? Int(clamping: max(decoded ?? size, 0)) : 0)
    }

    /// Gives `resolved` its plugin's declared dependencies, and the work and weight the plugin
    /// estimates once it has looked (plugin code: call it outside any lock).
    func declare(_ resolved: inout ResolvedRequest) {
        var planned: Int64?
        // The plugin read out of its registered form once (each read copies the existential).
        let loader = resolved.plugin.loader
        do {
            var requests: [AssetRequest]
            if resolved.plugin.plans, let planning = loader.asPlanning {
                let plan = try planning.erasedPlan(resolved.planned)
                (requests, resolved.note, planned) = (plan.dependencies, CarriedNote(plan.note), plan.work)
            } else if resolved.plugin.dependsInBulk, let bulk = resolved.plugin.bulkDepending, resolved.planned.origin == nil,
                let listed = try bulk.bulkDependencies(of: resolved.planned)
            {
                (requests, resolved.bulkDependencies) = ([], listed)  // planned from its rows (DependencyPlanner)
            } else {
                requests = try loader.dependencies(of: resolved.planned)
            }
            if let sources, resolved.planned.origin != nil {
                requests = try sources.originDependencies(requests, of: resolved.planned.request)
            }
            if !requests.isEmpty { resolved.dependencies = .success(requests) }
        } catch {
            let failure = AssetError(path: resolved.planned.path, wrapping: error)
            resolved.dependencies = .failure(
                resolved.planned.origin.map { failure.naming($0, for: resolved.planned.path) } ?? failure)
        }
        if let estimate = (planned ?? loader.estimatedWork(for: resolved.planned)).map({ max($0, 1) }) {
            resolved.weight = estimate
            resolved.work = estimate
        }
    }

    /// The bytes the plugin says decoding the file at `path` makes, from its header; `nil` if it
    /// cannot say.
    func decodedEstimate(at path: String, plugin: any LoaderPlugin, contents: AssetBytes?, header: inout [UInt8]?) -> Int64? {
        guard plugin.headerLength > 0 else { return nil }
        if header == nil { header = contents.map { Array($0.prefix(plugin.headerLength)) } ?? (try? files.prefix(path, count: plugin.headerLength)) }
        guard let header, let estimate = plugin.estimatedDecodedBytes(header: header) else { return nil }
        return Int64(max(estimate, 1))
    }
}
