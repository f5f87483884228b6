import Synchronization

/// The caller's requests cut into chunks that planning threads take one at a time: enough
/// chunks for every thread, none so large that one thread is left with most of the work, each
/// a whole number of full loads (loads are cut within a chunk).
final class PlanningChunks: Sendable {
    let size: Int
    let count: Int
    private let total: Int
    private let taken = Atomic(0)

    init(count total: Int, workers: Int, multipleOf load: Int) {
        self.total = total
        let wanted = min(1024, max(16, (total + 2 * workers - 1) / max(1, 2 * workers)))
        size = max(1, (wanted + load - 1) / load) * load
        count = (total + size - 1) / size
    }

    /// The next chunk's range of caller indices, or `nil` when all are taken.
    func next() -> Range<Int>? {
        let chunk = taken.wrappingAdd(1, ordering: .relaxed).oldValue
        guard chunk < count else { return nil }
        return chunk * size..<min(total, (chunk + 1) * size)
    }
}
