import Foundation

/// How urgently a batch's loads should run, relative to the other batches on the same
/// coordinator: a level streamed in the background at `.background` never holds up the pause
/// menu's icons at `.urgent`.
///
/// Priority orders loads that are *waiting* for a slot on the coordinator's queue; it never
/// interrupts one that is running (a load of small files is a few milliseconds of work), and it
/// does not change the order of dependencies (a page still loads before its atlas). Within one
/// batch, loads start roughly in request order (large batches are planned by several threads).
public enum LoadPriority: Int, Sendable, Hashable, Comparable, CaseIterable {
    case background, low, normal, high, urgent

    /// The queue priority of the batch's operations.
    var queuePriority: Operation.QueuePriority {
        switch self {
        case .background: .veryLow
        case .low: .low
        case .normal: .normal
        case .high: .high
        case .urgent: .veryHigh
        }
    }

    /// Orders priorities from ``background`` to ``urgent``.
    public static func < (lhs: LoadPriority, rhs: LoadPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
