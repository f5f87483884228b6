/// How a load runs one item on its thread, and what the plugin's result means: values only (the
/// batch's ``LoadEnvironment``, its ``PlannedTable`` and when the load was queued; a class, so
/// that a call per item copies no fields: as a struct each call retained and released them), so that a ``LoadOperation`` and a
/// ``BulkEntryRun`` load items alike without either holding the other.
final class ItemLoading: Sendable {
    let environment: LoadEnvironment
    /// What planning found for each asset: its request, file, plugin (read by the asset's number).
    let table: PlannedTable
    /// When the load was made, just before it was queued.
    let queuedAt: ContinuousClock.Instant

    init(environment: LoadEnvironment, table: PlannedTable, queuedAt: ContinuousClock.Instant) {
        self.environment = environment
        self.table = table
        self.queuedAt = queuedAt
    }

    /// Whether the batch is being cancelled.
    var isCancelled: Bool { environment.isCancelled }

    /// Loads `item` on this thread by `load`, given its context (made here unless given),
    /// starting at `started`; appends how it ended to `finished` (moved in, not copied out) and
    /// returns when.
    func load(
        _ item: LoadItem, context given: LoadContext? = nil, started: ContinuousClock.Instant, thread: ThreadIdentity, waited: Duration,
        into finished: inout [FinishedAsset], _ load: (LoadContext) throws -> any Asset
    ) -> ContinuousClock.Instant {
        let planned = given?.request ?? table.planned(item.asset)
        let context =
            given
            ?? LoadContext(
                request: planned, asset: item.asset, environment: environment, contents: item.contents,
                dependencies: [:], note: table.plugin(item.asset).plans ? environment.notes.take(for: item.asset) : nil)
        let ended: AssetOutcome
        var warnings: [AssetWarning] = []
        var reading = Duration.zero
        do {
            ended = .loaded(try load(context))
            (warnings, reading) = context.reports
        } catch {
            ended = outcome(of: .failure(error), for: item)
            reading = context.reports.reading
        }
        let now = ContinuousClock.now
        var done = FinishedAsset(
            asset: item.asset, planned: planned, outcome: consume ended, duration: now - started, started: started, thread: thread,
            warnings: consume warnings, decodedBytes: item.decodedBytes)
        // Decoding is the rest of the duration: worked out when the report is read.
        done.ranAfter(queued: started - queuedAt - waited, reading: reading, waited: waited)
        finished.append(consume done)
        return now
    }

    /// What a plugin's result means: an error thrown because the load was cancelled (or after it
    /// was) is a cancellation, any other names the file. A failure under fail-fast cancels the
    /// batch now, not when the last file of this operation is done.
    func outcome(of result: Result<any Asset, any Error>, for item: LoadItem) -> AssetOutcome {
        switch result {
        case .success(let asset):
            return .loaded(asset)
        case .failure(let error):
            if error is CancellationError || isCancelled { return .cancelled }
            environment.sink.send(.failed)
            let path = table.path(item.asset)
            let failure = AssetError(path: path, wrapping: error)
            return .failed(table.origin(item.asset).map { failure.naming($0, for: path) } ?? failure)
        }
    }
}
