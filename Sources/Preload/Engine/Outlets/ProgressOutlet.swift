import Foundation

/// The progress outlet: a batch's `Progress` tree and the throttle for its progress hook (the
/// recorder hands its snapshots to the ``EventOutlet``'s queue). It owns that state; the batch's
/// lock is its lock (see ``BatchOutlet``).
///
/// The root weighs every asset by bytes; an asset that reports partial progress gets a child
/// `Progress` (made on its first report, so a batch of many small files makes no children). On
/// Linux `Progress` has no internal locking: this outlet lives inside the batch's lock and is
/// only touched there.
///
/// The root's counts are brought up to date when a snapshot is taken, not on every asset: a
/// batch of 20,000 small files would otherwise pay Foundation's bookkeeping 20,000 times under
/// the batch's lock.
///
/// Delivered snapshots never go backwards: one is handed out only if its fraction is above the
/// last one handed out, and the batch enqueues them on a serial queue while still holding its
/// lock, so delivery order is enqueue order.
final class ProgressOutlet: BatchOutlet {
    /// What to do about the progress hook after a change.
    enum Delivery {
        case none
        case now(PreloadProgress)
        case after(Duration)
    }

    private(set) var totalUnits: Int64 = 0
    private(set) var totalAssets = 0
    /// Remote files' bytes (``RemoteFetching``): expected in all so far, and arrived. They
    /// share the bar with loading, byte for byte: a batch that downloads 1 MB and then loads
    /// it moves half way while downloading.
    private(set) var fetchTotal: Int64 = 0
    private(set) var fetchDone: Int64 = 0
    /// Set when planning ends: until then the total still grows, so no fraction is reported
    /// (it could go backwards) and the hook is not called.
    private(set) var isPlanned = false
    /// For a batch that completes after its hand-off, the weight handed over (or that will not
    /// be: failed, cancelled), dependencies carried by what is handed over included, and in all
    /// (``HandOffOutlet/progressShare``). The fraction then counts what is handed over; loading
    /// moves it by at most ``loadingShareAfterHandOff``.
    private let handOffShare: () -> (done: Int64, total: Int64)?
    /// How far ahead of the hand-off the fraction may run while assets load: the bar moves during
    /// loading, and never shows more than 5% that the engine does not have yet.
    static let loadingShareAfterHandOff = 0.05
    let interval: Duration
    private let root: Progress
    private var children: [Int: Progress] = [:]
    private(set) var finishedAssets = 0
    /// Units of assets that finished without a child, and how many of them the root has.
    private var completedWithoutChild: Int64 = 0
    private var rootHasCompleted: Int64 = 0
    private var lastDeliveredFraction = -1.0
    private var lastDelivery: ContinuousClock.Instant?
    private var trailingScheduled = false

    init(interval: Duration, handOffShare: @escaping () -> (done: Int64, total: Int64)? = { nil }) {
        self.interval = interval
        self.handOffShare = handOffShare
        root = Progress.discreteProgress(totalUnitCount: 0)
    }

    // MARK: Events

    func planned(asset: Int, weight: Int64, ledger: borrowing BatchState) {
        addAsset(weight: weight)
    }

    func planningEnded(ledger: borrowing BatchState) {
        isPlanned = true
    }

    func loaded(_ finished: [FinishedAsset], ledger: borrowing BatchState) {
        guard children.isEmpty else {
            for index in finished.indices { complete(asset: finished[index].asset, weight: ledger.records.weight(of: finished[index].asset)) }
            return
        }
        // No asset reported partial progress: one update for the whole load.
        var units: Int64 = 0
        for index in finished.indices { units += ledger.records.weight(of: finished[index].asset) }
        completedWithoutChild += units
        finishedAssets += finished.count
    }

    func progressed(asset: Int, fraction: Double, ledger: borrowing BatchState) {
        advance(asset: asset, weight: ledger.records.weight(of: asset), fraction: fraction)
    }

    func transferred(expected: Int64, received: Int64, ledger: borrowing BatchState) {
        fetchTotal = max(0, fetchTotal + expected)
        fetchDone = max(0, fetchDone + received)
    }

    // MARK: The tree

    /// A new asset weighing `weight`, found while planning.
    func addAsset(weight: Int64) {
        totalUnits += weight
        totalAssets += 1
    }

    /// Brings the root's counts up to date.
    private func syncRoot() {
        if root.totalUnitCount != totalUnits { root.totalUnitCount = totalUnits }
        if completedWithoutChild != rootHasCompleted {
            root.completedUnitCount += completedWithoutChild - rootHasCompleted
            rootHasCompleted = completedWithoutChild
        }
    }

    /// Asset `asset` (weighing `weight`) reports `fraction` done.
    func advance(asset: Int, weight: Int64, fraction: Double) {
        let child: Progress
        if let existing = children[asset] {
            child = existing
        } else {
            syncRoot()
            child = Progress.discreteProgress(totalUnitCount: weight)
            root.addChild(child, withPendingUnitCount: weight)
            children[asset] = child
        }
        let units = min(weight, Int64((Double(weight) * fraction).rounded(.down)))
        if units > child.completedUnitCount { child.completedUnitCount = units }
    }

    /// Asset `asset` finished, whatever its outcome: all its units count as done.
    func complete(asset: Int, weight: Int64) {
        if let child = children.isEmpty ? nil : children.removeValue(forKey: asset) {
            child.completedUnitCount = weight
        } else {
            completedWithoutChild += weight
        }
        finishedAssets += 1
    }

    /// The progress now. Before the end it never claims 1.0 unless every asset finished.
    func snapshot() -> PreloadProgress {
        syncRoot()
        var fraction: Double
        if !isPlanned {
            // Planning waits for the downloads: until it ends, only they move the bar, against
            // a total that counts each downloaded file again for loading it (what loading a
            // file weighs by default: its bytes).
            fraction = fetchTotal == 0 ? 0 : Double(min(fetchDone, fetchTotal)) / Double(2 * fetchTotal + totalUnits)
        } else if totalUnits == 0 && fetchTotal == 0 {
            fraction = finishedAssets == totalAssets ? 1 : 0
        } else if fetchTotal == 0 {
            fraction = root.fractionCompleted
        } else {
            let loaded = totalUnits == 0 ? 0 : root.fractionCompleted * Double(totalUnits)
            fraction = (Double(min(fetchDone, fetchTotal)) + loaded) / Double(fetchTotal + totalUnits)
        }
        if isPlanned, let handOff = handOffShare() {
            let handedOver = handOff.total == 0 ? 0 : Double(handOff.done) / Double(handOff.total)
            fraction = (1 - Self.loadingShareAfterHandOff) * handedOver + Self.loadingShareAfterHandOff * fraction
        }
        return PreloadProgress(
            fractionCompleted: min(max(fraction, lastDeliveredFraction, 0), 1),
            completedUnitCount: min(root.completedUnitCount, totalUnits) + min(fetchDone, fetchTotal), totalUnitCount: totalUnits + fetchTotal,
            finishedAssets: finishedAssets, totalAssets: totalAssets, isFinished: false)
    }

    /// The last snapshot of the batch: exactly 1.0 and finished.
    func finalSnapshot() -> PreloadProgress {
        var last = snapshot()
        last.fractionCompleted = 1.0
        last.completedUnitCount = totalUnits + fetchTotal
        last.isFinished = true
        lastDeliveredFraction = 1.0
        return last
    }

    /// Decides whether the progress hook should run now, later (throttled), or not at all.
    func delivery(at now: ContinuousClock.Instant) -> Delivery {
        guard isPlanned || fetchTotal > 0 else { return .none }
        // The throttle first: it is cheaper than computing the fraction.
        if let lastDelivery, now - lastDelivery < interval {
            if trailingScheduled { return .none }
            trailingScheduled = true
            return .after(interval - (now - lastDelivery))
        }
        let current = snapshot()
        // Only the final snapshot says 1.0; it comes with the batch's completion.
        guard current.fractionCompleted > lastDeliveredFraction, current.fractionCompleted < 1 else { return .none }
        lastDelivery = now
        lastDeliveredFraction = current.fractionCompleted
        return .now(current)
    }

    /// The throttled delivery scheduled by ``delivery(at:)`` is due.
    func trailingDelivery(at now: ContinuousClock.Instant) -> Delivery {
        trailingScheduled = false
        return delivery(at: now)
    }
}
