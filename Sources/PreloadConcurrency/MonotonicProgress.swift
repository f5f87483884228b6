/// A fraction that only moves forward: progress handed to a hook never goes back, and small
/// steps can be held back so a hook is not called for every byte. A value: keep it behind the
/// owner's lock (a load context keeps it with its warnings, so a load allocates nothing for it).
package struct MonotonicProgress: Sendable {
    private var last = 0.0

    package init() {}

    /// Records `fraction` (clamped to 0...1) and returns it if it is at least `minimumStep` past
    /// the last value recorded; otherwise `nil`.
    package mutating func advance(to fraction: Double, minimumStep: Double) -> Double? {
        let clamped = min(max(fraction, 0), 1)
        guard clamped >= last + minimumStep else { return nil }
        last = clamped
        return clamped
    }
}
