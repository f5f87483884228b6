/// Slots numbered from 0 whose storage never moves once made: a slot written by one thread is
/// read, later, by another while further slots are being written, with no lock on the read.
///
/// The first segment holds the `first` slots the batch knows of when it starts (its caller's
/// entries); each further segment doubles what all before it hold, made when a writer first
/// reaches it, every slot set to the storage's `empty` element. Each slot is written once, before
/// anything that reads it is published (a load queued, a lock released), which orders the read
/// after the write.
///
/// Writers must not race on making a segment: the caller's entries (the first segment, made
/// here) are written by planning threads at their own numbers; the slots past them, by one
/// thread at a time (the ``DependencyPlanner``, or a writer under a lock).
final class StableSlots<Element: Sendable>: @unchecked Sendable {
    /// How many segments there can be: `first << (segmentLimit - 1)` slots, more than memory holds.
    private static var segmentLimit: Int { 48 }

    private let first: Int
    /// What a slot holds until it is written (a value its reader can tell apart, not an
    /// optional: reading a field of a slot then loads that field alone).
    private let empty: Element
    private let segments: UnsafeMutablePointer<UnsafeMutablePointer<Element>?>

    /// Storage whose first segment holds `first` slots, all `empty`.
    init(first: Int, empty: Element) {
        self.first = max(first, 1)
        self.empty = empty
        segments = .allocate(capacity: Self.segmentLimit)
        segments.initialize(repeating: nil, count: Self.segmentLimit)
        segments[0] = makeSegment(self.first)
    }

    deinit {
        for segment in 0..<Self.segmentLimit {
            guard let storage = segments[segment] else { continue }
            storage.deinitialize(count: size(of: segment))
            storage.deallocate()
        }
        segments.deallocate()
    }

    private func makeSegment(_ count: Int) -> UnsafeMutablePointer<Element> {
        let storage = UnsafeMutablePointer<Element>.allocate(capacity: count)
        storage.initialize(repeating: empty, count: count)
        return storage
    }

    /// How many slots `segment` holds.
    private func size(of segment: Int) -> Int { segment == 0 ? first : first << (segment - 1) }

    /// The segment holding slot `index`, and the slot's place in it.
    @inline(__always)
    private func locate(_ index: Int) -> (segment: Int, offset: Int) {
        if index < first { return (0, index) }
        let quotient = index / first  // 1 for the second segment, 2 and 3 for the third...
        let segment = Int.bitWidth - quotient.leadingZeroBitCount
        return (segment, index - (first << (segment - 1)))
    }

    /// The element in slot `index`: `empty` if it was never written (or lies past every segment made).
    subscript(index: Int) -> Element {
        slot(index)?.pointee ?? empty
    }

    /// Writes `element` into slot `index`, making its segment if need be.
    func write(_ element: consuming Element, at index: Int) {
        let (segment, offset) = locate(index)
        precondition(index >= 0 && segment < Self.segmentLimit, "slot \(index) lies past every segment")
        if segments[segment] == nil { segments[segment] = makeSegment(size(of: segment)) }
        segments[segment]![offset] = consume element
    }

    /// Where slot `index` is (to read one field of it without copying the rest); `nil` if its
    /// segment was never made.
    @inline(__always)
    func slot(_ index: Int) -> UnsafePointer<Element>? {
        let (segment, offset) = locate(index)
        guard index >= 0, segment < Self.segmentLimit, let storage = segments[segment] else { return nil }
        return UnsafePointer(storage + offset)
    }
}
