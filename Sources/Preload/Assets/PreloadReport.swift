import Dispatch

/// What happened to one request.
public struct AssetResult: Sendable {
    /// The request, as the caller (or, for a dependency, the plugin) made it.
    public let request: AssetRequest
    /// The plugin that loaded it; `nil` when no plugin claimed it.
    public let plugin: String?
    /// Whether a plugin asked for it as a dependency rather than the caller directly.
    public let isDependency: Bool
    /// Loaded (with the asset), failed (with the error naming the file and cause), or cancelled.
    public let outcome: AssetOutcome
    /// How long loading the asset took (shared by merged requests); zero if it never ran.
    public let duration: Duration
    /// The units the asset adds to its batch's progress (``PreloadProgress/totalUnitCount``): its
    /// bytes as ``PreloadOptions/progressWeighting`` weighs them (or its plugin's estimate of its
    /// work: a pack's index weighs 1, its entries their own). The results in
    /// ``PreloadReport/allResults`` add up to the total, less remote downloads' bytes (a request
    /// merged into another's asset, the same file asked for twice, shows that asset's weight
    /// again); 0 for a request that failed before it was planned. A handed-over item carries its
    /// dependencies' weights too (``AssetHandOff/Item/progressWeight``).
    public let progressWeight: Int64
    /// Identifies the asset within its batch: requests merged into one load of one file share it.
    package let assetIndex: Int?
    /// The batch that made it (``BatchState/number``), for ``PreloadReport/timings(of:)``; `nil`
    /// for a result made otherwise.
    let batch: UInt64?
    /// What was irregular about a file that loaded anyway (see ``AssetWarning``), in the order
    /// the plugin found it; empty for most files and for every one that did not load.
    public let warnings: [AssetWarning]

    package init(
        request: AssetRequest, plugin: String?, isDependency: Bool, outcome: AssetOutcome,
        duration: Duration, assetIndex: Int?, warnings: [AssetWarning] = [], batch: UInt64? = nil, progressWeight: Int64 = 0
    ) {
        self.progressWeight = progressWeight
        self.batch = batch
        self.request = request
        self.plugin = plugin
        self.isDependency = isDependency
        self.outcome = outcome
        self.duration = duration
        self.assetIndex = assetIndex
        self.warnings = warnings
    }
}

/// The end of a batch: what loaded, what failed and why, what was cancelled, and how long it took.
///
/// Its default view is the caller's: ``results``, ``loaded``, ``failed``, ``cancelled`` and
/// ``warned`` hold one result per request the caller made (a folder's files each count as
/// one). What plugins loaded on their behalf (an atlas's pages, a pack's entries) is one
/// property away, in ``dependencies`` and ``allResults``. ``everythingLoaded`` and ``errors`` look at
/// everything, so a damaged pack entry is never hidden.
public struct PreloadReport: Sendable {
    /// Every result: the caller's requests in the order given, each followed by the
    /// dependencies plugins declared for it.
    public let allResults: AssetResults
    /// Paths in the caller's folders (``AssetRequest/folder(_:name:options:)``) left alone, as
    /// found: files no plugin claims, and entries that are not files (a FIFO, a socket, a
    /// device, a symbolic link to a folder), whose reason is in ``skipReasons``. Not failures;
    /// a folder that cannot be listed is one (it fails by its path). `skippedPaths` in the
    /// command's `--json` too.
    public internal(set) var skippedPaths: [String] = []
    /// Why each path of ``skippedPaths`` that is not simply unclaimed was skipped ("a FIFO
    /// (named pipe), not a file"), by path; a skipped path without an entry here is a file no
    /// plugin claims.
    public internal(set) var skipReasons: [String: String] = [:]
    /// The old name of ``skippedPaths``.
    @available(*, deprecated, renamed: "skippedPaths")
    public var skipped: [String] { skippedPaths }
    /// The caller's folder requests, as given (the batch walked them): an ``AssetWatcher``
    /// watches them for files added.
    package internal(set) var folders: [AssetRequest] = []
    /// From the call that started the batch to its completion.
    public let elapsed: Duration
    /// The part of ``elapsed`` spent planning: finding files, claiming them, merging duplicates,
    /// following dependencies and making operations.
    public let planning: Duration
    /// Whether the batch was cancelled (by the caller, by task cancellation or by fail-fast).
    public let wasCancelled: Bool
    /// The most decoded bytes the batch held at once under ``PreloadOptions/memoryBudget``
    /// (decoding, plus loaded and waiting on the ``AssetHandOff``), as estimated from file
    /// headers; 0 for a batch without a budget.
    public internal(set) var peakHeldBytes = 0
    /// Time that did not shrink with more workers (``BatchDiagnostics``).
    var serialWork = BatchDiagnostics()
    /// Each asset's timings, by its number in the batch (``timings(of:)``).
    var assetTimings = RecordedTimings()
    /// How each remote file the batch fetched reached the disk (network bytes, cache bytes,
    /// time), in the order they finished; empty for a batch of local files. Per result:
    /// ``transfer(of:)``.
    public internal(set) var transfers: [AssetTransfer] = []
    /// What the batch's outlets could not do (a load trace that could not be written), in the
    /// order it happened; empty when every outlet did its part. A failed outlet stops nothing
    /// else: the results above are whole.
    public internal(set) var outletFailures: [OutletFailure] = []

    /// How the file of `result` was fetched, if its request named a URL (or another path its
    /// source transferred).
    public func transfer(of result: AssetResult) -> AssetTransfer? {
        guard !transfers.isEmpty else { return nil }
        let path = result.request.requestedPath
        return transfers.last { $0.url == path }
    }

    package init(results: [AssetResult], elapsed: Duration, planning: Duration = .zero, wasCancelled: Bool) {
        self.init(results: AssetResults(results), elapsed: elapsed, planning: planning, wasCancelled: wasCancelled)
    }

    /// A report on `results`.
    package init(results: AssetResults, elapsed: Duration, planning: Duration = .zero, wasCancelled: Bool) {
        self.allResults = results
        self.elapsed = elapsed
        self.planning = planning
        self.wasCancelled = wasCancelled
    }

    /// One result per request the caller made, in the order given (a folder's files in
    /// sorted order, where the folder was), without the dependencies plugins added. A file a
    /// folder walk found that another asset of the batch depends on (the page `ui.png` beside
    /// the atlas `ui.json`) is part of that asset: it is listed once, in ``dependencies``, not
    /// here. A page the caller named is here too.
    public var results: AssetResults { allResults.callersOnly }
    /// The results of what plugins loaded for the caller's requests (an atlas's pages, a pack's
    /// entries), in report order.
    public var dependencies: [AssetResult] { allResults.filter(\.isDependency) }

    /// The results in runs of one caller's result followed by what its plugin loaded for it
    /// (an atlas's pages, a pack's entries), in report order: what a tool that writes out a
    /// batch's assets, or checks a level, walks.
    public var resultsByCaller: [[AssetResult]] {
        var runs: [[AssetResult]] = []
        for result in allResults {
            if !result.isDependency {
                runs.append([result])
            } else if !runs.isEmpty {
                runs[runs.count - 1].append(result)
            }
        }
        return runs
    }
    /// The caller's results (``results``) as an array.
    @available(*, deprecated, renamed: "results", message: "the report's default view is now the caller's requests")
    public var requested: [AssetResult] { Array(results) }
    /// The caller's requests that loaded.
    public var loaded: [AssetResult] { results.loaded }
    /// The caller's requests that failed.
    public var failed: [AssetResult] { results.failed }
    /// The caller's requests that were cancelled.
    public var cancelled: [AssetResult] { results.cancelled }
    /// The caller's requests that loaded with warnings.
    public var warned: [AssetResult] { results.filter { !$0.warnings.isEmpty } }
    /// Every error, the dependencies' included, in report order.
    public var errors: [AssetError] { allResults.compactMap(\.outcome.error) }
    /// Whether everything loaded: every request, and every dependency too (a statement about
    /// the report, where ``loaded``, ``failed`` and ``cancelled`` are its results). Counted from
    /// the batch's records, without making a result per request.
    public var everythingLoaded: Bool {
        let counts = allResults.outcomeCounts
        return counts.failed == 0 && counts.cancelled == 0
    }

    /// The former name of ``everythingLoaded``, which reads as a statement beside the report's
    /// collections.
    @available(*, deprecated, renamed: "everythingLoaded")
    public var succeeded: Bool { everythingLoaded }

    /// Bytes the loaded assets the caller requested decoded into, counting a load shared by merged
    /// requests once; an asset released after its hand-over counts what it held. (Dependencies
    /// are left out: an atlas's size already includes its pages.)
    public var decodedBytes: Int { results.decodedBytes }

    /// Whether any result, a dependency's included, carries a warning (cheap: no result is made
    /// per entry).
    public var hasWarnings: Bool { allResults.hasWarnings }
}

extension Collection where Element == AssetResult {
    /// The results that loaded.
    public var loaded: [AssetResult] { filter { $0.outcome.asset != nil } }
    /// The results that failed.
    public var failed: [AssetResult] { filter { $0.outcome.error != nil } }
    /// The results that were cancelled.
    public var cancelled: [AssetResult] {
        filter { if case .cancelled = $0.outcome { true } else { false } }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double` (for reports and logs).
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in whole nanoseconds (a clock's durations have no finer part), as the
    /// batch's records keep durations (``AssetRecords``, ``RecordedTimings``).
    var wholeNanoseconds: Int64 {
        let attoseconds = self.attoseconds
        // Almost every duration a batch records is under 18 seconds: one 64-bit division by a
        // constant, where `components` divides 128 bits (~190 instructions).
        if attoseconds >= 0, attoseconds <= Int128(UInt64.max) {
            return Int64(UInt64(truncatingIfNeeded: attoseconds) / 1_000_000_000)
        }
        return Int64(clamping: attoseconds / 1_000_000_000)
    }

    /// The duration of `wholeNanoseconds` (``wholeNanoseconds``' reverse), made without the
    /// generic conversions of `.nanoseconds(_:)`.
    init(wholeNanoseconds: Int64) {
        self.init(attoseconds: Int128(wholeNanoseconds) &* 1_000_000_000)
    }

    /// The duration for a dispatch deadline (`.now() + delay.dispatchInterval`), in whole
    /// nanoseconds, never negative.
    package var dispatchInterval: DispatchTimeInterval {
        .nanoseconds(max(Int(components.seconds) * 1_000_000_000 + Int(components.attoseconds / 1_000_000_000), 0))
    }
}

/// A batch in which some requests did not load: the error of each of the caller's requests that
/// failed (a failed dependency shows as its dependent's cause), then those of dependencies whose
/// dependent loaded anyway (an entry of a pack).
public struct PreloadFailure: Error, Sendable, CustomStringConvertible {
    /// The errors of the failed requests, the caller's first (see the type's description).
    public let errors: [AssetError]
    /// The whole report, for what did load.
    public let report: PreloadReport

    /// The failure of `report`, with the errors it names (see the type's description): for an
    /// API of your own that returns a `Result` instead of throwing what
    /// ``PreloadReport/throwIfFailed()`` throws.
    public init(report: PreloadReport) {
        self.report = report
        let requested = report.results.compactMap(\.outcome.error)
        var explained = Set(requested.map(\.path))
        for error in requested {
            var cause: AssetError? = error
            while let current = cause, current.category == .dependencyFailed {
                cause = current.underlying as? AssetError
                if let cause { explained.insert(cause.path) }
            }
        }
        let unexplained = report.dependencies.compactMap(\.outcome.error).filter { explained.insert($0.path).inserted }
        errors = requested + unexplained
    }

    public var description: String {
        let cancelled = report.cancelled.count
        let lines = errors.map(\.description) + (cancelled == 0 ? [] : ["\(cancelled) cancelled"])
        return "preload failed: " + lines.joined(separator: "; ")
    }
}

/// The task awaiting ``PreloadCoordinator/preload(_:options:hooks:)`` was cancelled. The batch
/// was cancelled with it and has completed: ``report`` says what loaded before (those assets
/// are in the store), what failed and what was cancelled.
public struct PreloadCancelled: Error, Sendable, CustomStringConvertible {
    /// The batch's report, as it completed after the cancellation.
    public let report: PreloadReport

    package init(report: PreloadReport) {
        self.report = report
    }

    public var description: String {
        "preload cancelled: \(report.loaded.count) loaded, \(report.failed.count) failed, \(report.cancelled.count) cancelled"
    }
}

extension PreloadReport {
    /// Throws a ``PreloadFailure`` unless every request loaded.
    public func throwIfFailed() throws {
        if !everythingLoaded { throw PreloadFailure(report: self) }
    }
}

extension PreloadReport: CustomStringConvertible {
    /// A short summary for logs and `print(report)`: how many of the caller's requests loaded,
    /// failed and were cancelled, how many files were skipped, how long the batch took, and the
    /// first few errors (a damaged pack entry included).
    ///
    /// ```
    /// 13 of 14 loaded, 1 failed, 1 skipped, in 21 ms
    ///   sprites/broken.png: the file ends inside the image data
    /// ```
    public var description: String {
        let counts = results.outcomeCounts
        var text = "\(counts.loaded) of \(counts.loaded + counts.failed + counts.cancelled) loaded"
        if counts.failed > 0 { text += ", \(counts.failed) failed" }
        if counts.cancelled > 0 { text += ", \(counts.cancelled) cancelled" }
        if !skippedPaths.isEmpty { text += ", \(skippedPaths.count) skipped" }
        // Loaded and then cancelled (on the hand-off, waiting for the engine): say so.
        if wasCancelled && counts.cancelled == 0 { text += ", batch cancelled" }
        text += ", in \(Int((elapsed.inSeconds * 1000).rounded())) ms"
        let errors = self.errors
        for error in errors.prefix(3) { text += "\n  \(error)" }
        if errors.count > 3 { text += "\n  and \(errors.count - 3) more errors" }
        return text
    }
}
