import Preload
import Dispatch

/// The loading screen every game writes by hand: when it becomes active it starts a preload,
/// forwards the batch's progress (to a loading bar), and when the batch completes it puts the
/// next state in its own place, or a failure state when something did not load. Leaving it
/// before the batch ends (the player quits) cancels the batch.
///
/// ```swift
/// import Preload
/// import PreloadFlow
/// import PreloadPack
///
/// // Your game's own, stubbed here: its input events, states and loading bar.
/// enum Input { case tap }
/// final class Level: GameState<Input> {}
/// final class ErrorScreen: GameState<Input> {
///     init(name: String, message: String) { super.init(name: name) }
/// }
/// @MainActor final class LoadingBar { var value = 0.0 }
/// let bar = LoadingBar()
///
/// let coordinator = try PreloadCoordinator(plugins: [PackLoader()])
/// let machine = StateMachine<Input>()
/// machine.set(LoadingState(
///     coordinator: coordinator, requests: ["level1.pak"],
///     next: { Level(name: "level 1") },
///     failure: { failure in ErrorScreen(name: "error", message: failure.description) },
///     onProgress: { bar.value = $0.fractionCompleted }))
/// ```
///
/// `hooks` are the batch's own (per-asset processing, in the order `PreloadOptions` asks
/// for), run on the batch's callback queue. The batch's progress and completion reach the state
/// through the main actor. A game loop that never lets the
/// main queue run still gets there: ``update(_:)`` (``StateMachine/update(_:)``, each frame)
/// reads the batch's progress and report itself.
@MainActor
open class LoadingState<Event>: GameState<Event> {
    /// The coordinator the state loads with.
    public let coordinator: PreloadCoordinator
    /// What the state loads when it becomes active.
    public let requests: [AssetRequest]
    /// The batch options it loads with.
    public let options: PreloadOptions
    private let next: @MainActor () -> GameState<Event>
    private let failure: @MainActor (PreloadFailure) -> GameState<Event>
    private let onProgress: (@MainActor (PreloadProgress) -> Void)?
    private let hooks: PreloadHooks

    /// The batch this state started (the latest, if it was activated more than once).
    public private(set) var batch: PreloadBatch?
    /// The batch's report, once it completed.
    public private(set) var report: PreloadReport?
    private var lastProgress: PreloadProgress?

    /// A state that loads `requests` when activated, then moves to the state `next` returns, or to `failure`'s if something failed; `onProgress` runs on the main actor as the batch advances.
    public init(
        name: String = "loading", coordinator: PreloadCoordinator, requests: [AssetRequest],
        options: PreloadOptions = PreloadOptions(), hooks: PreloadHooks = PreloadHooks(),
        next: @escaping @MainActor () -> GameState<Event>,
        failure: @escaping @MainActor (PreloadFailure) -> GameState<Event>,
        onProgress: (@MainActor (PreloadProgress) -> Void)? = nil
    ) {
        self.coordinator = coordinator
        self.requests = requests
        self.options = options
        self.next = next
        self.failure = failure
        self.onProgress = onProgress
        self.hooks = hooks
        super.init(name: name)
    }

    /// Starts the batch (unless one is still running from an earlier activation).
    open override func activate() {
        guard batch == nil || batch?.isCancelled == true else { return }  // resumed after a push/pop: still loading
        report = nil
        lastProgress = nil
        let own = PreloadHooks(
            onProgress: { [weak self] progress in Task { @MainActor in self?.progressed(progress) } },
            onCompletion: { [weak self] report in Task { @MainActor in self?.completed(report) } })
        batch = coordinator.start(requests, options: options, hooks: hooks.combined(with: own))
    }

    /// Cancels the batch if the state is left for good before it finished (not when covered by a pushed state).
    open override func deactivate() {
        // Left for good (popped or replaced) before the end: the assets are no longer wanted.
        // Covered by a push (a pause menu), it keeps loading.
        if isLeaving, let batch, !batch.isFinished { batch.cancel() }
    }

    /// Reads the batch's progress and report, so a game loop that never yields to the main queue still advances.
    open override func update(_ elapsed: Duration) {
        guard let batch else { return }
        if let report = batch.report {
            completed(report)
        } else {
            progressed(batch.progress)
        }
    }

    private func progressed(_ progress: PreloadProgress) {
        guard isActive, report == nil, progress != lastProgress,
            progress.fractionCompleted >= (lastProgress?.fractionCompleted ?? 0)
        else { return }
        lastProgress = progress
        onProgress?(progress)
    }

    private func completed(_ report: PreloadReport) {
        guard self.report == nil, let batch, batch.report != nil else { return }
        progressed(batch.progress)  // the final 1.0, for loops that only poll
        self.report = report
        // Still in its stack (active, or covered by a push): hand over. Once out, nothing to do.
        guard container != nil, !isLeaving else { return }
        replace(with: report.everythingLoaded ? next() : failure(PreloadFailure(report: report)))
    }
}
