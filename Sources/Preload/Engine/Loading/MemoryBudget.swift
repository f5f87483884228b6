import Dispatch
import Logging
import PreloadConcurrency

/// The memory budget (``PreloadOptions/memoryBudget``), the loads' admission: the decoded bytes
/// a batch's loads may hold at once, from the moment a load starts decoding until each asset is
/// handed over to the engine (or, for an asset nobody takes over, until its load ends). Not an
/// outlet: loads ask it for room (``acquire(_:orResume:)``, through their ``LoadEnvironment``),
/// and a load that must wait leaves its resumption here and gives its thread back, so the budget
/// holds the waiting loads' resumptions (what a waiting load is, without a thread) and nothing
/// else of them. The recorder settles with it once the batch's lock is released: what each
/// finished load gives back, and what each hand-over does. A resumed load runs on a global
/// queue's thread, never on the thread that gave the bytes back.
///
/// A load asks for its assets' estimated sizes before it decodes anything. It goes at once if
/// they fit, or if nothing else is held (an asset larger than the whole budget loads alone
/// rather than never); otherwise it waits, first come first served, and is resumed when enough
/// is given back. Without a limit the budget only keeps count, for the report's peak.
///
/// Assets loaded but *waiting their turn* (in request order, for an earlier asset to load)
/// count like any other, but nothing gives them back until that earlier asset arrives. So when
/// they are all that is held (nothing decoding, nothing with the engine), the first waiting load
/// goes over the limit: it may be the one they wait for, and otherwise it frees a worker for it.
///
/// A load that must wait says so on the batch's logger at `debug` level ("load waits for the
/// memory budget", with the bytes asked, held and the limit): where a loading screen stalls, the
/// log shows which budget held it (`AssetTimingsTests` waits on that message).
final class MemoryBudget: Sendable {
    private struct Waiter {
        let bytes: Int
        let resume: @Sendable () -> Void
    }

    private struct State {
        var held = 0
        /// The part of `held` waiting its turn (see above).
        var waitingTurn = 0
        var peak = 0
        var waiters: [Waiter] = []
        /// Grants waiters at the front while they fit; returns what to resume.
        mutating func grant(limit: Int?) -> [@Sendable () -> Void] {
            var granted = 0
            while granted < waiters.count, fits(waiters[granted].bytes, limit: limit) {
                take(waiters[granted].bytes)
                granted += 1
            }
            defer { waiters.removeFirst(granted) }
            return waiters.prefix(granted).map(\.resume)
        }

        func fits(_ bytes: Int, limit: Int?) -> Bool {
            guard let limit else { return true }
            return held == waitingTurn || held <= limit - bytes
        }

        mutating func take(_ bytes: Int) {
            held += bytes
            peak = max(peak, held)
        }
    }

    /// The most bytes held at once; `nil`: no limit, only counting.
    let limit: Int?
    /// Where a load that must wait says so (`debug`).
    private let logger: Logger?
    private let state = PreloadMutex(State())

    init(limit: Int?, logger: Logger? = nil) {
        self.limit = limit.map { max($0, 0) }
        self.logger = logger
    }

    /// Asks for `bytes`. Returns `true` if they are granted now; otherwise `resume` runs (on a
    /// global queue) once they are, and this returns `false`.
    func acquire(_ bytes: Int, orResume resume: @escaping @Sendable () -> Void) -> Bool {
        let heldWhenWaiting: Int? = state.withLock { state in
            guard state.waiters.isEmpty, state.fits(bytes, limit: limit) else {
                state.waiters.append(Waiter(bytes: bytes, resume: resume))
                return state.held
            }
            state.take(bytes)
            return nil
        }
        guard let heldWhenWaiting else { return true }
        logger?.debug(
            "load waits for the memory budget",
            metadata: ["bytes": "\(bytes)", "held": "\(heldWhenWaiting)", "limit": "\(limit.map(String.init) ?? "none")"])
        return false
    }

    /// Returns the settlement's bytes and changes the bytes waiting their turn by its change, in
    /// one step, and resumes the waiters that now fit.
    func settle(_ settlement: BudgetSettlement) {
        guard settlement.released != 0 || settlement.waitingTurnChange != 0 else { return }
        let resumed = state.withLock { state in
            state.held -= settlement.released
            state.waitingTurn += settlement.waitingTurnChange
            return state.grant(limit: limit)
        }
        for resume in resumed { DispatchQueue.global().async(execute: resume) }
    }

    /// Gives `bytes` back, and resumes the waiters that now fit.
    func release(_ bytes: Int) {
        settle(BudgetSettlement(released: bytes))
    }

    /// Grants every waiter at once, over the limit if need be: the batch was cancelled, and its
    /// waiting loads must run to report themselves cancelled (they then give their bytes back).
    func releaseWaiters() {
        let resumed = state.withLock { state in state.grant(limit: nil) }
        for resume in resumed { DispatchQueue.global().async(execute: resume) }
    }

    /// The most bytes held at once so far.
    var peak: Int { state.withLock { $0.peak } }
}

/// What a finished load, a hand-over or the batch's end owes the memory budget, gathered under the
/// batch's lock and settled once it is released: bytes given back, and the change of the bytes
/// waiting their turn.
struct BudgetSettlement {
    var released = 0
    var waitingTurnChange = 0
}
