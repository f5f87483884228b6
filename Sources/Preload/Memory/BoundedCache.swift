import PreloadConcurrency
import Synchronization

/// A small thread-safe cache that forgets its oldest entry once it holds `capacity` of them: for
/// what many requests share (a container's index, which every entry's lookups read). What
/// planning read for one request and its load wants again goes through ``PlanningPlugin``'s note
/// instead, which the engine keeps per request. Losing an entry only costs reading it again.
public final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let capacity: Int
    private let entries = PreloadMutex(Entries())

    private struct Entries {
        var values: [Key: Value] = [:]
        var order: [Key] = []
        /// The last key found and its value: planning asks for one pack's index once per entry,
        /// and comparing a key is cheaper than hashing it.
        var last: (key: Key, value: Value)?
    }

    /// An empty cache that keeps at most `capacity` entries (at least one).
    public init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// The value stored for `key`.
    public subscript(key: Key) -> Value? {
        entries.withLock { entries in
            if let last = entries.last, last.key == key { return last.value }
            guard let value = entries.values[key] else { return nil }
            entries.last = (key, value)
            return value
        }
    }

    /// Stores `value` for `key`, forgetting the oldest entries beyond the capacity.
    public func insert(_ value: Value, for key: Key) {
        entries.withLock { entries in
            if entries.values.updateValue(value, forKey: key) == nil { entries.order.append(key) }
            if entries.last?.key == key { entries.last = (key, value) }
            while entries.order.count > capacity {
                let forgotten = entries.order.removeFirst()
                entries.values[forgotten] = nil
                if entries.last?.key == forgotten { entries.last = nil }
            }
        }
    }

    /// Removes and returns the value for `key`.
    public func remove(_ key: Key) -> Value? {
        entries.withLock { entries in
            guard let value = entries.values.removeValue(forKey: key) else { return nil }
            if entries.last?.key == key { entries.last = nil }
            entries.order.removeAll { $0 == key }
            return value
        }
    }

    /// The value for `key`, made by `make` (outside the lock) and stored if it was missing.
    public func value(for key: Key, orMake make: () throws -> Value) rethrows -> Value {
        if let value = self[key] { return value }
        let value = try make()
        insert(value, for: key)
        return value
    }
}
