import Preload
import Dispatch
import Synchronization

/// One step of a ``StageChain``: a preload batch, or a step of the caller's own (async, or with
/// a completion callback), with a name other stages can jump to and a weight in the chain's
/// progress.
public struct Stage: Sendable {
    /// What a stage does.
    enum Work: Sendable {
        case preload([AssetRequest], PreloadOptions, decide: @Sendable (PreloadReport) throws -> StageResult)
        case async(@Sendable (StageContext) async throws -> StageResult)
        case callback(@Sendable (StageContext, @escaping @Sendable (Result<StageResult, any Error>) -> Void) -> Void)
    }

    /// The stage's name, in events, errors and the chain's report.
    public let name: String
    /// Its share of the chain's progress, relative to the other stages' weights.
    public let weight: Double
    let work: Work

    /// Preloads `requests` on the chain's coordinator; its progress is the batch's. `decide`
    /// picks what follows from the report; by default the chain goes on when everything loaded
    /// and stops with the batch's `PreloadFailure` otherwise.
    public static func preload(
        _ name: String, weight: Double = 1, _ requests: [AssetRequest], options: PreloadOptions = PreloadOptions(),
        decide: @escaping @Sendable (PreloadReport) throws -> StageResult = Stage.nextIfLoaded
    ) -> Stage {
        Stage(name: name, weight: weight, work: .preload(requests, options, decide: decide))
    }

    /// Runs `body`; throwing stops the chain with that error.
    public static func step(
        _ name: String, weight: Double = 1, _ body: @escaping @Sendable (StageContext) async throws -> StageResult
    ) -> Stage {
        Stage(name: name, weight: weight, work: .async(body))
    }

    /// Runs `body`, which calls its completion exactly once (later calls are ignored), from any
    /// thread: for engines whose loop is callback-driven. A failure stops the chain.
    public static func callbackStep(
        _ name: String, weight: Double = 1,
        _ body: @escaping @Sendable (StageContext, @escaping @Sendable (Result<StageResult, any Error>) -> Void) -> Void
    ) -> Stage {
        Stage(name: name, weight: weight, work: .callback(body))
    }

    /// The default decision of a preload stage: on when everything loaded, else stop.
    @Sendable public static func nextIfLoaded(_ report: PreloadReport) throws -> StageResult {
        try report.throwIfFailed()
        return .next
    }
}

/// Where the chain goes after a stage.
public enum StageResult: Sendable, Hashable {
    /// The stage after this one (the chain ends after the last).
    case next
    /// The stage with this name, before or after this one.
    case jump(to: String)
    /// Ends the chain successfully here.
    case finish
}

/// What a running stage can use: the coordinator, progress reporting, cancellation, and the
/// reports of the preload stages that ran before it.
public final class StageContext: Sendable {
    /// The coordinator the chain runs with.
    public let coordinator: PreloadCoordinator
    /// The stage's name.
    public let stage: String
    private let progress: @Sendable (Double) -> Void
    private let cancelled: @Sendable () -> Bool
    private let reports: [String: PreloadReport]

    init(
        coordinator: PreloadCoordinator, stage: String, reports: [String: PreloadReport],
        progress: @escaping @Sendable (Double) -> Void, cancelled: @escaping @Sendable () -> Bool
    ) {
        self.coordinator = coordinator
        self.stage = stage
        self.reports = reports
        self.progress = progress
        self.cancelled = cancelled
    }

    /// How much of this stage is done, 0 to 1 (its share of the chain's progress follows).
    public func reportProgress(_ fraction: Double) { progress(fraction) }

    /// Whether the chain was cancelled; long steps should stop soon after.
    public var isCancelled: Bool { cancelled() }

    /// The report of the last run of the preload stage named `stage`, if it ran.
    public func report(of stage: String) -> PreloadReport? { reports[stage] }
}

/// Why a chain stopped before its end.
public enum StageChainError: Error, Sendable, CustomStringConvertible {
    /// A stage failed (threw, completed with an error, or its preload did not all load).
    case stageFailed(stage: String, underlying: any Error & Sendable)
    /// A stage asked to jump to a name no stage has.
    case noSuchStage(String, from: String)
    /// More stage transitions than ``StageChain/maxTransitions``: jumps going round in a loop.
    case tooManyTransitions(Int)
    /// The chain was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .stageFailed(let stage, let error): "stage '\(stage)' failed: \(error)"
        case .noSuchStage(let name, let from): "stage '\(from)' jumped to '\(name)', which is not a stage of the chain"
        case .tooManyTransitions(let count): "the chain moved between stages \(count) times: do its jumps go round in a loop?"
        case .cancelled: "the chain was cancelled"
        }
    }
}

/// What happened in a chain, for hooks and the final report.
public enum StageEvent: Sendable {
    case started(stage: String)
    case finished(stage: String, result: StageResult, duration: Duration)
}

/// How a chain ran: the stages in the order they ran, and the report of each preload stage.
public struct StageChainReport: Sendable {
    /// Each stage that ran, in order, with its result and how long it took.
    public let stages: [(name: String, result: StageResult, duration: Duration)]
    /// The last report of each preload stage, by stage name.
    public let reports: [String: PreloadReport]
    /// How long the whole chain took.
    public let elapsed: Duration
}
