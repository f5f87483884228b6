/// The timings outlet: keeps each asset's ``AssetTimings`` as its load reports them, in
/// ``RecordedTimings`` (by asset number), and moves them into the report at completion
/// (``PreloadReport/timings(of:)``).
final class TimingsOutlet: BatchOutlet {
    private var timings = RecordedTimings()

    func loaded(_ finished: [FinishedAsset], ledger: borrowing BatchState) {
        // One access to the arrays per load; they grow to the ledger's size at once.
        var timings = self.timings
        self.timings = RecordedTimings()
        timings.grow(to: ledger.records.count, reserving: ledger.records.capacity)
        // Read in place, through a pointer, by their parts: plain nanoseconds, as the load wrote
        // them (nothing converted, no ``FinishedAsset`` copied).
        finished.withUnsafeBufferPointer { finished in
            for index in finished.indices {
                let done = finished.baseAddress! + index
                guard done.pointee.queued >= 0 else { continue }  // its plugin never ran
                timings.record(queued: done.pointee.queued, reading: done.pointee.reading, waited: done.pointee.waited, of: done.pointee.asset)
            }
        }
        self.timings = timings
    }

    func completed(_ report: inout PreloadReport, ledger: borrowing BatchState) {
        report.assetTimings = timings
        timings = RecordedTimings()
    }
}

/// Every asset's timings as the report keeps them, by asset number: two whole nanoseconds per
/// asset (queued, reading), and the wait for the memory budget only once some asset waited (a
/// batch without a budget keeps none). ``AssetTimings/decoding`` is not kept: it is the rest of
/// the result's ``AssetResult/duration``.
struct RecordedTimings: Sendable {
    /// An asset's queued and reading nanoseconds; a negative `queued` for one whose plugin never ran.
    private struct Parts: Sendable {
        var queued: Int64 = -1
        var reading: Int64 = 0
    }

    private var parts: [Parts] = []
    /// Nanoseconds waiting for the memory budget, by asset; empty while none waited.
    private var waiting: [Int64] = []

    /// Makes room for `count` assets (their plugins not run), reserving `capacity` when it grows.
    mutating func grow(to count: Int, reserving capacity: Int) {
        guard parts.count < count else { return }
        parts.reserveCapacity(capacity)
        parts += repeatElement(Parts(), count: count - parts.count)
    }

    /// The plugin of `asset` ran, `queued` nanoseconds after its load was queued (not waiting for
    /// memory), `reading` its file, after `waited` waiting for the memory budget.
    mutating func record(queued: Int64, reading: Int64, waited: Int64, of asset: Int) {
        parts[asset] = Parts(queued: max(0, queued), reading: reading)
        guard waited != 0 || !waiting.isEmpty else { return }
        if waiting.count < parts.count { waiting += repeatElement(0, count: parts.count - waiting.count) }
        waiting[asset] = waited
    }

    /// The bytes kept per asset (for the tests that keep it small).
    var bytesPerAsset: Int {
        (parts.capacity * MemoryLayout<Parts>.stride + waiting.capacity * MemoryLayout<Int64>.stride) / max(parts.count, 1)
    }

    /// The timings of `asset`, whose loading took `duration`; `nil` if its plugin never ran.
    func timings(of asset: Int, duration: Duration) -> AssetTimings? {
        guard asset < parts.count, parts[asset].queued >= 0 else { return nil }
        let reading = Duration(wholeNanoseconds: parts[asset].reading)
        return AssetTimings(
            queued: Duration(wholeNanoseconds: parts[asset].queued),
            waitingForMemory: asset < waiting.count ? Duration(wholeNanoseconds: waiting[asset]) : .zero,
            reading: reading, decoding: duration - reading)
    }
}
