/// One handler of what a batch records (swift-nio's `ChannelHandler` is the model): the batch's
/// recorder applies each event to its ledger (``BatchState``), then hands it to every outlet of
/// the batch's ordered list (``BatchOutlets``), one after another, under the batch's lock, on
/// the thread that sent the event (a finished load's: the load's own).
///
/// An outlet owns its state: nothing else writes it (the recorder asks two outlets by name for
/// what they decided: the progress outlet whether a snapshot is due, the hand-off outlet what
/// the budget is owed and whether the completion is due). It reads the ledger (`borrowing`: it
/// cannot change it), and runs no plugin or game code: hooks are queued, run later. An outlet
/// is a class made per batch, kept inside the batch's lock, so it needs no lock of its own.
/// A new batch feature is a new outlet file and touches no load, planning or recording file.
/// One a user can switch on is four edits: the outlet file, its line in ``BatchOutlets``' list
/// (made when its option is set), its option in ``PreloadOptions``, and the `preload` command's
/// flag that sets it (docs/architecture.md, "The engine's rules", lists them).
///
/// An outlet that cannot do its part throws: the recorder reports it in the batch's report
/// (``PreloadReport/outletFailures``, an ``OutletFailure`` naming the outlet, the event and the
/// cause), and the other outlets, the batch and that outlet's later events go on.
///
/// Every event has an empty default: an outlet implements those it cares for.
protocol BatchOutlet: AnyObject {
    /// Planning made asset `asset`, weighing `weight` (its share of progress).
    func planned(asset: Int, weight: Int64, ledger: borrowing BatchState) throws
    /// Planning is over: every asset is known.
    func planningEnded(ledger: borrowing BatchState) throws
    /// A load finished these assets (their outcomes are in the ledger, the loaded ones in the
    /// store); each says when its plugin was called, for how long, and on which thread.
    func loaded(_ finished: [FinishedAsset], ledger: borrowing BatchState) throws
    /// Asset `asset` reported `fraction` done.
    func progressed(asset: Int, fraction: Double, ledger: borrowing BatchState) throws
    /// A progress snapshot is due (the progress outlet's throttle let it through; the last one,
    /// exactly 1.0, comes just before the completion hook). Taken only when the batch has a
    /// progress hook.
    func progressDue(_ progress: PreloadProgress, ledger: borrowing BatchState) throws
    /// An entry's result is handed on, in the batch's event order (``AssetEventOrder``), for
    /// hooks and the hand-off; `receipt` is what a hand-off item carries back for it.
    func delivered(_ result: AssetResult, receipt: @autoclosure () -> HandOverReceipt, ledger: borrowing BatchState) throws
    /// The result of asset `asset` waits for planning to end before it is delivered.
    func heldForPlanning(asset: Int, ledger: borrowing BatchState) throws
    /// The caller's asset `asset` is folded into the asset that depends on it (a walked atlas
    /// page): it is never delivered on its own.
    func folded(asset: Int, ledger: borrowing BatchState) throws
    /// The engine took asset `asset` over from the hand-off (or it was withdrawn, its batch cancelled).
    func handedOver(asset: Int, ledger: borrowing BatchState) throws
    /// Remote files' bytes: `expected` more are to come (a size became known), `received` more
    /// arrived (from the network or the fetcher's cache).
    func transferred(expected: Int64, received: Int64, ledger: borrowing BatchState) throws
    /// A remote file is on disk (or failed: then its bytes so far).
    func fetched(_ transfer: AssetTransfer, ledger: borrowing BatchState) throws
    /// Every load has finished; returns whether the batch's completion must wait (for the hand-off).
    func completing(ledger: borrowing BatchState) throws -> Bool
    /// The batch is complete: the report, to add to (the ledger is closed: its records are the
    /// report's now).
    func completed(_ report: inout PreloadReport, ledger: borrowing BatchState) throws
}

extension BatchOutlet {
    func planned(asset: Int, weight: Int64, ledger: borrowing BatchState) {}
    func planningEnded(ledger: borrowing BatchState) {}
    func loaded(_ finished: [FinishedAsset], ledger: borrowing BatchState) {}
    func progressed(asset: Int, fraction: Double, ledger: borrowing BatchState) {}
    func progressDue(_ progress: PreloadProgress, ledger: borrowing BatchState) {}
    func delivered(_ result: AssetResult, receipt: @autoclosure () -> HandOverReceipt, ledger: borrowing BatchState) {}
    func heldForPlanning(asset: Int, ledger: borrowing BatchState) {}
    func folded(asset: Int, ledger: borrowing BatchState) {}
    func handedOver(asset: Int, ledger: borrowing BatchState) {}
    func transferred(expected: Int64, received: Int64, ledger: borrowing BatchState) {}
    func fetched(_ transfer: AssetTransfer, ledger: borrowing BatchState) {}
    func completing(ledger: borrowing BatchState) -> Bool { false }
    func completed(_ report: inout PreloadReport, ledger: borrowing BatchState) {}
}
