import PreloadConcurrency
import Synchronization

/// A small thread-safe cache that forgets its oldest entry once it holds `capacity` of them: for
/// plugins that read something while planning (an atlas descriptor, a pack's index) and want it
/// again when loading. Losing an entry only costs reading it again.
package final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let capacity: Int
    private let entries = PreloadMutex<(values: [Key: Value], order: [Key])>(([:], []))

    package init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// The value stored for `key`.
    package subscript(key: Key) -> Value? {
        entries.withLock { $0.values[key] }
    }

    /// Stores `value` for `key`, forgetting the oldest entries beyond the capacity.
    package func insert(_ value: Value, for key: Key) {
        entries.withLock { entries in
            if entries.values.updateValue(value, forKey: key) == nil { entries.order.append(key) }
            while entries.order.count > capacity {
                entries.values[entries.order.removeFirst()] = nil
            }
        }
    }

    /// Removes and returns the value for `key`.
    package func remove(_ key: Key) -> Value? {
        entries.withLock { entries in
            guard let value = entries.values.removeValue(forKey: key) else { return nil }
            entries.order.removeAll { $0 == key }
            return value
        }
    }

    /// The value for `key`, made by `make` (outside the lock) and stored if it was missing.
    package func value(for key: Key, orMake make: () throws -> Value) rethrows -> Value {
        if let value = self[key] { return value }
        let value = try make()
        insert(value, for: key)
        return value
    }
}
