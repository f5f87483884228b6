/// A fraction that only moves forward: progress handed to a hook never goes back, and small
/// steps can be held back so a hook is not called for every byte.
package final class MonotonicProgress: Sendable {
    private let last: PreloadMutex<Double>

    /// Starts at `initial` (nothing reported yet).
    package init(initial: Double = 0) {
        last = PreloadMutex(initial)
    }

    /// Records `fraction` (clamped to 0...1) and returns it if it is at least `minimumStep` past
    /// the last value recorded, or reaches 1 for the first time; otherwise `nil`.
    package func advance(to fraction: Double, minimumStep: Double = .ulpOfOne) -> Double? {
        let clamped = min(max(fraction, 0), 1)
        return last.withLock { last -> Double? in
            guard clamped >= last + minimumStep || (clamped == 1 && last < 1) else { return nil }
            last = clamped
            return clamped
        }
    }

    /// The last value recorded.
    package var value: Double { last.withLock { $0 } }
}
