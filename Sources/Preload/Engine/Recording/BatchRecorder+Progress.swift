import Dispatch

/// How the recorder hands the progress outlet's snapshots to the outlets (the progress hook's
/// among them): now, or after the throttle's interval (one trailing delivery scheduled at a time).
extension BatchRecorder {
    /// Hands the outlets a snapshot if one is due; returns the delay of a throttled one.
    func deliverProgress(_ state: inout BatchState) -> Duration? {
        guard state.outlets.takesSnapshots else { return nil }
        return carryOut(state.outlets.progress.delivery(at: .now), in: &state)
    }

    private func carryOut(_ decision: ProgressOutlet.Delivery, in state: inout BatchState) -> Duration? {
        switch decision {
        case .none:
            return nil
        case .now(let snapshot):
            state.tellOutlets("progressDue") { try $0.progressDue(snapshot, ledger: $1) }
            return nil
        case .after(let delay):
            return delay
        }
    }

    /// Delivers the latest progress after `delay`, when the throttle held it back.
    func scheduleTrailingProgress(after delay: Duration) {
        DispatchQueue.global().asyncAfter(deadline: .now() + delay.dispatchInterval) { [self] in
            let again = state.withLock { state -> Duration? in
                guard state.phase != .finished else { return nil }
                return carryOut(state.outlets.progress.trailingDelivery(at: .now), in: &state)
            }
            if let again { scheduleTrailingProgress(after: again) }
        }
    }
}
