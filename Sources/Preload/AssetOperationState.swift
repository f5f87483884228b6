/// How one load ended.
public enum AssetOutcome: Sendable {
    case loaded(any Asset)
    case failed(AssetError)
    case cancelled

    /// The asset, when it loaded.
    public var asset: (any Asset)? {
        if case .loaded(let asset) = self { return asset }
        return nil
    }

    /// The error, when it failed.
    public var error: AssetError? {
        if case .failed(let error) = self { return error }
        return nil
    }

    /// `"loaded"`, `"failed"` or `"cancelled"`, as reports print it.
    public var status: String {
        switch self {
        case .loaded: "loaded"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }
}

/// The life cycle of an ``AssetOperation``, as a value that refuses illegal transitions.
///
/// ```
/// pending ──begin──▶ executing ──claimFinish──▶ finishing ──markFinished──▶ finished
///    └──────────────────claimFinish (cancelled before start)──▶ ┘
/// ```
///
/// `finishing` exists so that the outcome is recorded (results, progress, hooks) *before*
/// `isFinished` turns true: dependents and the completion operation may start the moment it does.
/// Each transition returns `false` instead of happening when it is not allowed from the current
/// phase, so a second `finish` or a `start` after finishing changes nothing.
public struct AssetOperationState: Sendable {
    /// Where an operation is in its life: waiting to start, executing, handing over its outcome, finished.
    public enum Phase: Sendable, Equatable {
        case pending, executing, finishing, finished
    }

    public private(set) var phase: Phase = .pending
    public private(set) var outcome: AssetOutcome?
    /// When the operation began executing.
    public private(set) var startedAt: ContinuousClock.Instant?
    /// How long it executed, set when it finishes.
    public private(set) var duration: Duration?

    public init() {}

    /// pending → executing.
    public mutating func begin(at now: ContinuousClock.Instant = .now) -> Bool {
        guard phase == .pending else { return false }
        phase = .executing
        startedAt = now
        return true
    }

    /// pending or executing → finishing, recording the outcome. Only the first call wins.
    public mutating func claimFinish(_ outcome: AssetOutcome, at now: ContinuousClock.Instant = .now) -> Bool {
        guard phase == .pending || phase == .executing else { return false }
        phase = .finishing
        self.outcome = outcome
        duration = startedAt.map { now - $0 } ?? .zero
        return true
    }

    /// finishing → finished.
    public mutating func markFinished() -> Bool {
        guard phase == .finishing else { return false }
        phase = .finished
        return true
    }

    public var isExecuting: Bool { phase == .executing || phase == .finishing }
    public var isFinished: Bool { phase == .finished }
}
