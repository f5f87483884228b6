/// The timings outlet: keeps each asset's ``AssetTimings`` as its load reports them, in one
/// array for the batch (by asset number), and hands the array to the report at completion
/// (``PreloadReport/timings(of:)``).
final class TimingsOutlet: BatchOutlet {
    private var timings: [RecordedTimings] = []

    func planned(asset: Int, weight: Int64, ledger: borrowing BatchState) {
        if asset >= timings.count { timings += repeatElement(RecordedTimings(), count: asset + 1 - timings.count) }
    }

    func loaded(_ finished: [FinishedAsset], ledger: borrowing BatchState) {
        for asset in finished where asset.ran {
            if asset.asset >= timings.count { planned(asset: asset.asset, weight: 0, ledger: ledger) }
            timings[asset.asset] = RecordedTimings(timings: asset.timings, path: asset.planned.request.path)
        }
    }

    func completed(_ report: inout PreloadReport, ledger: borrowing BatchState) {
        report.assetTimings = timings
        timings = []
    }
}

/// One asset's timings as the report keeps them, with its file's path (`nil`: its plugin never
/// ran), so that a result of another batch is not given them.
struct RecordedTimings: Sendable {
    var timings = AssetTimings()
    var path: String?
}
