/// The life cycle of a ``LoadOperation``, as a value that refuses illegal transitions.
///
/// ```
/// pending ──begin──▶ executing ──claimFinish──▶ finishing ──markFinished──▶ finished
///    └──────────────────claimFinish (cancelled before start)──▶ ┘
/// ```
///
/// `finishing` exists so that the outcomes of the operation's assets are recorded (results,
/// store, progress, hooks) *before* `isFinished` turns true: dependents and the completion
/// operation may start the moment it does. Each transition returns `false` instead of happening
/// when it is not allowed from the current phase, so a second finish or a `start` after
/// finishing changes nothing.
struct LoadOperationState: Sendable {
    /// Where an operation is in its life: waiting to start, executing, handing over its outcomes, finished.
    enum Phase: Sendable, Equatable {
        case pending, executing, finishing, finished
    }

    private(set) var phase: Phase = .pending

    /// pending → executing.
    mutating func begin() -> Bool {
        guard phase == .pending else { return false }
        phase = .executing
        return true
    }

    /// pending or executing → finishing. Only the first call wins.
    mutating func claimFinish() -> Bool {
        guard phase == .pending || phase == .executing else { return false }
        phase = .finishing
        return true
    }

    /// finishing → finished.
    mutating func markFinished() -> Bool {
        guard phase == .finishing else { return false }
        phase = .finished
        return true
    }

    var isExecuting: Bool { phase == .executing || phase == .finishing }
    var isFinished: Bool { phase == .finished }
}
