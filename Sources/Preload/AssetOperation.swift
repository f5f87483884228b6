import Foundation
import Synchronization

/// Loads one asset: an asynchronous `Operation` with an explicit, locked state machine.
///
/// Plugins subclass it (or use ``ClosureAssetOperation``) and override one of two methods:
/// - ``load(_:)`` for synchronous work: return the asset or throw. It runs on the queue's
///   thread; check ``LoadContext/checkCancellation()`` every so often.
/// - ``execute(_:)`` for work that completes elsewhere: start it, return, and call
///   ``finish(with:)`` exactly once when it is done.
///
/// The operation announces `isExecuting` and `isFinished` with `willChangeValue`/`didChangeValue`
/// in the order corelibs Foundation needs (it has no KVO; `didChangeValue(forKey: "isFinished")`
/// is what frees the queue slot and starts dependents, and only counts once `isFinished` is
/// true). Its outcome is handed to the coordinator *before* `isFinished` turns true, never from
/// `completionBlock`, which runs later on a global queue.
///
/// Cancellation is honoured before start (the operation finishes as cancelled without running)
/// and during work (through the context). If a dependency failed or was cancelled, the
/// operation fails with ``AssetError/Category/dependencyFailed`` without running.
open class AssetOperation: Operation, @unchecked Sendable {
    /// The request this operation loads.
    public let request: PlannedRequest

    private let state = Mutex(AssetOperationState())
    private let wiring = Mutex(OperationWiring())

    public init(request: PlannedRequest) {
        self.request = request
        super.init()
    }

    // MARK: Operation

    public final override var isAsynchronous: Bool { true }
    public final override var isExecuting: Bool { state.withLock { $0.isExecuting } }
    public final override var isFinished: Bool { state.withLock { $0.isFinished } }

    /// How the operation ended; `nil` until it has (it is set before `isFinished` turns true).
    public final var outcome: AssetOutcome? { state.withLock { $0.outcome } }

    /// How long the operation executed; `nil` until it finished.
    public final var duration: Duration? { state.withLock { $0.duration } }

    /// The current phase of the state machine.
    public final var phase: AssetOperationState.Phase { state.withLock { $0.phase } }

    public final override func start() {
        if isCancelled {
            finish(.cancelled)
            return
        }
        willChangeValue(forKey: "isExecuting")
        guard state.withLock({ $0.begin() }) else { return }
        didChangeValue(forKey: "isExecuting")
        // Only what the work needs: copying the whole wiring would retain the batch (an object
        // both cores touch) once more per load.
        let (dependencies, failures, tolerant, maxFileBytes, memory) = wiring.withLock {
            ($0.dependencies, $0.dependencyFailures, $0.toleratesFailedDependencies, $0.maxFileBytes, $0.memory)
        }
        if !dependencies.isEmpty, !tolerant, let failure = dependencyFailure() {
            finish(.failed(failure))
            return
        }
        execute(LoadContext(operation: self, dependencies: dependencies, failures: failures, maxFileBytes: maxFileBytes, memory: memory))
    }

    // MARK: Override points

    /// Starts the work. The default calls ``load(_:)`` and finishes with its result.
    /// An override must call ``finish(with:)`` exactly once, now or later, from any thread.
    open func execute(_ context: LoadContext) {
        finish(with: Result { try load(context) })
    }

    /// Does the work synchronously. Subclasses that do not override ``execute(_:)`` must
    /// override this.
    open func load(_ context: LoadContext) throws -> any Asset {
        throw AssetError(
            path: request.path, category: .other,
            reason: "\(type(of: self)) overrides neither execute(_:) nor load(_:)")
    }

    // MARK: Finishing

    /// Ends the operation with `result`. A `CancellationError`, or any error thrown after the
    /// operation was cancelled, ends it as cancelled. Returns `false` (and changes nothing) if
    /// the operation had already finished.
    @discardableResult
    public final func finish(with result: Result<any Asset, any Error>) -> Bool {
        switch result {
        case .success(let asset):
            return finish(.loaded(asset))
        case .failure(let error):
            if error is CancellationError || isCancelled { return finish(.cancelled) }
            return finish(.failed(AssetError(path: request.path, wrapping: error)))
        }
    }

    @discardableResult
    final func finish(_ outcome: AssetOutcome) -> Bool {
        willChangeValue(forKey: "isFinished")
        let duration = state.withLock { state in state.claimFinish(outcome) ? state.duration : nil }
        guard let duration else { return false }
        // Record results, progress and hooks while isFinished is still false ...
        let (observer, slot) = wiring.withLock { ($0.observer, $0.slot) }
        observer?.operationWillFinish(slot: slot, outcome: outcome, duration: duration)
        // ... then make isFinished true, and only then tell the queue.
        _ = state.withLock { $0.markFinished() }
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
        return true
    }

    // MARK: Wiring by the coordinator

    func attach(_ newWiring: OperationWiring) {
        wiring.withLock { $0 = newWiring }
    }

    func reportProgress(_ fraction: Double) {
        let (observer, slot) = wiring.withLock { ($0.observer, $0.slot) }
        observer?.operation(slot: slot, didProgress: fraction)
    }

    private func dependencyFailure() -> AssetError? {
        for dependency in dependencies {
            guard let dependency = dependency as? AssetOperation else { continue }
            switch dependency.outcome {
            case .loaded: continue
            case .failed(let error):
                return .dependencyFailed(path: request.path, dependency: error)
            case .cancelled, nil:
                return .dependencyCancelled(path: request.path, dependency: dependency.request.path)
            }
        }
        return nil
    }
}

/// What the coordinator attaches to an operation before queueing it.
struct OperationWiring: Sendable {
    var observer: (any AssetOperationObserver)?
    /// Which of the observer's loads this is.
    var slot = 0
    /// The operation each declared dependency request was merged into.
    var dependencies: [AssetRequest: AssetOperation] = [:]
    /// Declared dependencies that failed while planning (kept only for tolerant plugins).
    var dependencyFailures: [AssetRequest: AssetError] = [:]
    /// Whether the plugin runs its operations despite failed dependencies.
    var toleratesFailedDependencies = false
    var maxFileBytes: Int = .max
    var memory = AssetMemory.shared
}

/// Receives an operation's progress and outcome (the coordinator's batch).
protocol AssetOperationObserver: AnyObject, Sendable {
    func operation(slot: Int, didProgress fraction: Double)
    /// Called once, before `isFinished` turns true.
    func operationWillFinish(slot: Int, outcome: AssetOutcome, duration: Duration)
}

/// An ``AssetOperation`` whose synchronous work is a closure: the simplest way to write a plugin.
public final class ClosureAssetOperation: AssetOperation, @unchecked Sendable {
    private let body: @Sendable (LoadContext) throws -> any Asset

    public init(request: PlannedRequest, body: @escaping @Sendable (LoadContext) throws -> any Asset) {
        self.body = body
        super.init(request: request)
    }

    public override func load(_ context: LoadContext) throws -> any Asset {
        try body(context)
    }
}
