/// The timings outlet: keeps each asset's ``AssetTimings`` as its load reports them, in one
/// array for the batch (by asset number), and hands the array to the report at completion
/// (``PreloadReport/timings(of:)``).
final class TimingsOutlet: BatchOutlet {
    private var timings: [RecordedTimings] = []

    func loaded(_ finished: [FinishedAsset], ledger: borrowing BatchState) {
        // One access to the array per load; it grows to the ledger's size at once.
        var timings = self.timings
        self.timings = []
        if timings.count < ledger.assets.count {
            timings.reserveCapacity(ledger.assets.capacity)
            timings += repeatElement(RecordedTimings(), count: ledger.assets.count - timings.count)
        }
        for index in finished.indices where finished[index].ran {
            timings[finished[index].asset] = RecordedTimings(timings: finished[index].timings, ran: true)
        }
        self.timings = timings
    }

    func completed(_ report: inout PreloadReport, ledger: borrowing BatchState) {
        report.assetTimings = timings
        timings = []
    }
}

/// One asset's timings as the report keeps them, and whether its plugin ran at all.
struct RecordedTimings: Sendable {
    var timings = AssetTimings()
    var ran = false
}
