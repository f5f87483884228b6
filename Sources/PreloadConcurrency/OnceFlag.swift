/// A flag that can be claimed once: the first ``claim()`` returns `true`, every later one
/// `false`, whatever the threads. For "resume this continuation (or call this completion)
/// exactly once", when a result, a timeout and a cancellation may race to deliver it.
package final class OnceFlag: Sendable {
    private let claimed = PreloadMutex(false)

    package init() {}

    /// `true` for the first caller only.
    package func claim() -> Bool {
        claimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}
