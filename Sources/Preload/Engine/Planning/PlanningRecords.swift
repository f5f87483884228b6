/// What planning may tell its batch's recorder, and all it may: decisions, written in one
/// direction. Every requirement returns nothing, so planning reads nothing back from the ledger:
/// it numbers dependency entries itself, is given the caller's requests when it is made, and
/// reads the batch's cancellation from its ``LoadEnvironment``'s flag. ``BatchRecorder`` is the
/// one conformer; planning holds it only as this.
protocol PlanningRecords: Sendable {
    /// The caller's folders were walked: `expanded` are the caller's requests now (at the
    /// positions `named`, those the caller named); the last `unloadable.count` of them failed
    /// where they were found.
    func recordCallers(
        _ expanded: CallerRequests, skipped: [String], skipReasons: [String: String], named: [Int], unloadable: [AssetError])
    /// Makes room in the store for `count` more assets, before planning adds them.
    func reserveStore(adding count: Int)
    /// Records a chunk of planned requests (one lock of the batch).
    func record(_ placements: [BatchRecorder.Placement])
    /// The dependency entry `entry` for `request`, brought by the caller's request `origin`.
    func recordDependencyEntry(_ request: AssetRequest, entry: Int, origin: Int)
    /// `entry` could not be planned.
    func recordFailure(of entry: Int, _ error: AssetError)
    /// `entry` waits for `asset` (its own new one when `asset == entry`), loaded by the
    /// registry's plugin at index `plugin`.
    func recordPlacement(of entry: Int, on asset: Int, plugin: Int)
    /// The asset with dependencies `dependencies` is planned, weighing `weight`.
    func recordPlan(of asset: Int, weight: Int64, dependencies: [Int])
    /// The asset failed while planning and will not load.
    func recordPlanningFailure(of asset: Int, _ error: AssetError)
    /// A load with `dependencies` is about to be queued: their outcomes go into `outcomes` as
    /// they finish (those already finished at once), so that the load receives them as values.
    func awaitOutcomes(of dependencies: [(request: AssetRequest, asset: Int)], into outcomes: DependencyOutcomes)
    /// Planning is over: the progress total is known.
    func recordPlanningFinished()
    /// What the planning thread did alone, and how many operations were queued.
    func recordPlanningWork(thread: Duration, queuedOperations: Int, loads: Int)
    /// Every load has finished (the completion operation, which planning queues, says so).
    func complete()
}
