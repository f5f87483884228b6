import Preload
import PreloadConcurrency
import Dispatch
import Synchronization

/// Stages run one after another as a flat list instead of nested callbacks: a stage starts when
/// the one before it ends, can stop the chain (by failing) or jump to a named stage, and the
/// chain's progress is split across stages by weight.
///
/// ```swift
/// import Dispatch
/// import Preload
/// import PreloadFlow
/// import PreloadPNG
///
/// // Your game's own, stubbed here: its session, intro and menu.
/// struct Session: Sendable { func login() async throws {} }
/// let session = Session()
/// struct Intro: Sendable { func play(progress: @escaping @Sendable (Double) -> Void) async {} }
/// let intro = Intro()
/// func enterMenu() {}
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader()])
/// let textureRequests: [AssetRequest] = [.folder("assets/textures", name: "textures")]
/// let boot = StageChain(coordinator: coordinator, [
///     .step("login") { _ in try await session.login(); return .next },
///     .preload("textures", weight: 4, textureRequests),
///     .step("intro") { context in await intro.play(progress: context.reportProgress); return .next },
/// ])
/// let report = try await boot.run(onProgress: { print("loading: \(Int($0 * 100))%") })
/// // or, from a callback-driven engine:
/// boot.start(callbackQueue: .main, onProgress: { print("loading: \($0)") }) { result in enterMenu() }
/// ```
public final class StageChain: Sendable {
    /// More transitions than this end the chain with ``StageChainError/tooManyTransitions(_:)``.
    public static let maxTransitions = 10_000

    /// The stages, in the order they run.
    public let stages: [Stage]
    let coordinator: PreloadCoordinator

    /// A chain that runs `stages` in order with `coordinator`.
    public init(coordinator: PreloadCoordinator, _ stages: [Stage]) {
        self.coordinator = coordinator
        self.stages = stages
    }

    /// Starts the chain. Hooks and `completion` run on `callbackQueue` (a private serial queue by
    /// default), one at a time and in order; progress never goes backwards and ends at exactly
    /// 1.0 when the chain succeeds. `completion` runs exactly once.
    @discardableResult
    public func start(
        callbackQueue: DispatchQueue? = nil, onProgress: (@Sendable (Double) -> Void)? = nil,
        onEvent: (@Sendable (StageEvent) -> Void)? = nil,
        completion: @escaping @Sendable (Result<StageChainReport, StageChainError>) -> Void
    ) -> StageRun {
        let queue = DispatchQueue(label: "preload.stages.hooks", target: callbackQueue)
        let run = StageRun(chain: self, queue: queue, onProgress: onProgress, onEvent: onEvent, completion: completion)
        run.begin()
        return run
    }

    /// Runs the chain to its end; cancelling the task cancels the chain.
    public func run(
        onProgress: (@Sendable (Double) -> Void)? = nil, onEvent: (@Sendable (StageEvent) -> Void)? = nil
    ) async throws(StageChainError) -> StageChainReport {
        let relay = CancellationRelay<StageRun> { $0.cancel() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<StageChainReport, StageChainError>, Never>) in
                let run = start(onProgress: onProgress, onEvent: onEvent) { continuation.resume(returning: $0) }
                relay.hold(run)
            }
        } onCancel: {
            relay.cancel()
        }
        return try result.get()
    }

    /// The index of the stage named `name`.
    func index(of name: String) -> Int? {
        stages.firstIndex { $0.name == name }
    }

    /// The chain's progress at `fraction` of stage `index`: the stage's position by weight. A
    /// jump back would lower it, and is dropped by the monotonic reporting.
    func progress(stage index: Int, fraction: Double) -> Double {
        let weights = stages.map { max($0.weight, 0) }
        let total = weights.reduce(0, +)
        guard total > 0 else { return Double(index) / Double(max(stages.count, 1)) }
        let before = weights[..<index].reduce(0, +)
        let current = index < weights.count ? weights[index] * min(max(fraction, 0), 1) : 0
        return (before + current) / total
    }
}

/// A running ``StageChain``: a handle to cancel it.
public final class StageRun: Sendable {
    private struct State {
        var current = 0
        var transitions = 0
        var finished = false
        var cancelled = false
        var batch: PreloadBatch?
        var task: Task<Void, Never>?
        var lastProgress = 0.0
        var history: [(name: String, result: StageResult, duration: Duration)] = []
        var reports: [String: PreloadReport] = [:]
    }

    private let chain: StageChain
    private let queue: DispatchQueue
    private let onProgress: (@Sendable (Double) -> Void)?
    private let onEvent: (@Sendable (StageEvent) -> Void)?
    private let completion: @Sendable (Result<StageChainReport, StageChainError>) -> Void
    private let state = PreloadMutex(State())
    private let startedAt = ContinuousClock.now

    init(
        chain: StageChain, queue: DispatchQueue, onProgress: (@Sendable (Double) -> Void)?, onEvent: (@Sendable (StageEvent) -> Void)?,
        completion: @escaping @Sendable (Result<StageChainReport, StageChainError>) -> Void
    ) {
        self.chain = chain
        self.queue = queue
        self.onProgress = onProgress
        self.onEvent = onEvent
        self.completion = completion
    }

    /// Stops the chain: the running stage is cancelled (its batch, or its task), and the chain
    /// completes with ``StageChainError/cancelled`` as soon as that stage returns.
    public func cancel() {
        let (batch, task) = state.withLock { state -> (PreloadBatch?, Task<Void, Never>?) in
            state.cancelled = true
            return (state.batch, state.task)
        }
        batch?.cancel()
        task?.cancel()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    func begin() {
        if chain.stages.isEmpty { return end(.success(())) }
        run(stage: 0)
    }

    private func run(stage index: Int) {
        let stage = chain.stages[index]
        let context = StageContext(
            coordinator: chain.coordinator, stage: stage.name, reports: state.withLock { $0.reports },
            progress: { [self] in advance(stage: index, fraction: $0) }, cancelled: { [self] in isCancelled })
        let began = ContinuousClock.now
        let transition = state.withLock { $0.transitions }
        let finish: @Sendable (Result<StageResult, any Error>) -> Void = { [self] result in
            finished(stage: index, result: result, duration: ContinuousClock.now - began)
        }
        if let onEvent { queue.async { onEvent(.started(stage: stage.name)) } }
        switch stage.work {
        case .preload(let requests, let options, let decide):
            let batch = chain.coordinator.start(
                requests, options: options, hooks: PreloadHooks(onProgress: { [self] in advance(stage: index, fraction: $0.fractionCompleted) }))
            // A cancel() that came after the previous stage finished, before this batch was kept,
            // found nothing to cancel: it is this batch's to honour.
            if state.withLock({ state -> Bool in
                state.batch = batch
                return state.cancelled
            }) {
                batch.cancel()
            }
            batch.whenFinished { [self] report in
                state.withLock { $0.reports[stage.name] = report }
                finish(Result { try decide(report) })
            }
        case .async(let body):
            let task = Task {
                do {
                    finish(.success(try await body(context)))
                } catch {
                    finish(.failure(error))
                }
            }
            // Kept for cancel() unless the step already finished and the chain moved on; cancelled
            // now if cancel() came before it was kept.
            if state.withLock({ state -> Bool in
                if state.transitions == transition && !state.finished { state.task = task }
                return state.cancelled
            }) {
                task.cancel()
            }
        case .callback(let body):
            let once = OnceFlag()
            body(context) { result in
                if once.claim() { finish(result) }
            }
        }
    }

    private func finished(stage index: Int, result: Result<StageResult, any Error>, duration: Duration) {
        let stage = chain.stages[index]
        let step = state.withLock { state -> Result<Int?, StageChainError> in
            state.batch = nil
            state.task = nil
            if state.cancelled { return .failure(.cancelled) }
            switch result {
            case .failure(let error):
                return .failure(.stageFailed(stage: stage.name, underlying: error))
            case .success(let outcome):
                state.history.append((stage.name, outcome, duration))
                let next: Int?
                switch outcome {
                case .next: next = index + 1 < chain.stages.count ? index + 1 : nil
                case .finish: next = nil
                case .jump(let name):
                    guard let target = chain.index(of: name) else { return .failure(.noSuchStage(name, from: stage.name)) }
                    next = target
                }
                state.transitions += 1
                if state.transitions > StageChain.maxTransitions { return .failure(.tooManyTransitions(state.transitions)) }
                state.current = next ?? index
                return .success(next)
            }
        }
        if case .success(let outcome) = result, let onEvent {
            queue.async { onEvent(.finished(stage: stage.name, result: outcome, duration: duration)) }
        }
        switch step {
        case .success(let next?):
            report(progress: chain.progress(stage: next, fraction: 0))
            run(stage: next)
        case .success(nil): end(.success(()))
        case .failure(let error): end(.failure(error))
        }
    }

    private func advance(stage index: Int, fraction: Double) {
        guard state.withLock({ $0.current == index }) else { return }
        report(progress: chain.progress(stage: index, fraction: fraction))
    }

    /// Hands `progress` to the hook if it moves forward; only the end of the chain says 1.0.
    private func report(progress: Double, isFinal: Bool = false) {
        let value = isFinal ? 1 : min(progress, 1.0.nextDown)
        guard let onProgress,
            state.withLock({ state in
                guard !state.finished, value > state.lastProgress else { return false }
                state.lastProgress = value
                return true
            })
        else { return }
        queue.async { onProgress(value) }
    }

    private func end(_ result: Result<Void, StageChainError>) {
        if case .success = result { report(progress: 1, isFinal: true) }
        let outcome = state.withLock { state -> Result<StageChainReport, StageChainError>? in
            guard !state.finished else { return nil }
            state.finished = true
            return result.map { StageChainReport(stages: state.history, reports: state.reports, elapsed: ContinuousClock.now - startedAt) }
        }
        guard let outcome else { return }
        queue.async { [completion] in completion(outcome) }
    }
}
